// The checks role's job: every interval, each running experiment (a flag with impressions in the last day) of every
// environment is analysed from its first impression within the lookback to now (a window that only grows while the
// experiment is younger than the lookback, tested sequentially, so looking every interval does not inflate false
// alarms) against its workspace's guardrail metrics and its sample ratio. A failing guardrail, or a sample ratio
// p-value below 0.001, raises a Sluice alert through the alert pipeline (an integration of the generic template that
// the job makes per account, so rules, maintenance windows and notifications apply); the alert resolves when the check
// passes again, or when the flag stops running. One process runs the checks at a time (a lock in Redis), once per
// interval (a claim of the interval's slot); a check alert is sent again each run while it fires (the same id: one
// open alert), so one lost message is made good by the next run.
import type { Logger } from '../shared/logger.js'
import { messageOf, Refusal } from '../shared/errors.js'
import type { ExperimentStore, OpenCheck } from '../state/redis/experiments.js'
import type { TenancyStore, Workspace, Environment } from '../state/redis/tenancy.js'
import {
  MAX_FLAGS_LISTED,
  SRM_THRESHOLD,
  type ComparisonView,
  type ExperimentResults,
  type ExperimentService,
  type FlagSeen,
} from './experiments.js'
import type { IntegrationService } from './integrations.js'
import type { MetricService } from './metrics.js'

export const CHECKS_INTEGRATION_NAME = 'Sluice experiment checks'
const DAY_MS = 86_400_000
/** Guardrail metrics one check analyses (the results' bound on metrics per request). */
const MAX_GUARDRAILS = 20

/** A check alert in the generic template's shape. */
export interface CheckAlert {
  readonly id: string
  readonly status: 'firing' | 'resolved'
  readonly severity: 'critical' | 'warning'
  readonly message: string
  readonly source: 'sluice-experiments'
  readonly service: string
  readonly environment: string
  readonly timestamp: string
}

export interface ExperimentChecksOptions {
  readonly intervalMs: number
  readonly lookbackMs: number
  /** Who this process is, in the run claim. */
  readonly owner: string
  /** Publishes an alert payload of the account's checks integration to the alerts topic. */
  readonly publish: (accountId: string, integrationId: string, alert: CheckAlert) => Promise<void>
  readonly log: Logger
}

export interface CheckRun {
  readonly experiments: number
  readonly firing: number
  readonly resolved: number
  readonly failed: number
}

/** How long the checks lock is held without being renewed (it is renewed at each flag). */
const LOCK_MS = 5 * 60_000

export class ExperimentChecks {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<unknown> | undefined
  private stopped = false

  constructor(
    private readonly tenancy: TenancyStore,
    private readonly metrics: MetricService,
    private readonly experiments: ExperimentService,
    private readonly integrations: IntegrationService,
    private readonly store: ExperimentStore,
    private readonly options: ExperimentChecksOptions,
  ) {}

  /** Checks now, then every interval: the first process to claim an interval's slot runs it, one run at a time. */
  start(): void {
    void this.tick()
    this.timer ??= setInterval(() => void this.tick(), this.options.intervalMs).unref()
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    await this.running
  }

  private tick(): Promise<unknown> {
    this.running ??= this.claimAndRun().finally(() => (this.running = undefined))
    return this.running
  }

  private async claimAndRun(): Promise<void> {
    const { owner, intervalMs, log } = this.options
    try {
      // The lock keeps two runs from overlapping (a run longer than the interval); the slot, one run per interval.
      if (!(await this.store.lockChecks(owner, LOCK_MS))) return
      try {
        const now = Date.now()
        if (!(await this.store.claimCheckRun(Math.floor(now / intervalMs), owner, intervalMs * 2))) return
        log.info(await this.runOnce(now), 'experiment checks run')
      } finally {
        await this.store.unlockChecks(owner)
      }
    } catch (err) {
      log.warn({ err: messageOf(err) }, 'experiment checks could not run; the next interval tries again')
    }
  }

  /**
   * Checks every running experiment of every account once. An alert found failing is marked open before it is sent
   * (a kill between the two leaves an open mark, which a later run resolves or sends again); an open alert is
   * resolved when its flag was checked and passed, or no longer runs; one whose flag could not be checked (an
   * outage, an environment with more flags than listed) stays as it is.
   */
  async runOnce(now: number): Promise<CheckRun> {
    const totals = { experiments: 0, firing: 0, resolved: 0, failed: 0 }
    for (const account of await this.tenancy.listAccounts()) {
      if (this.stopped) break
      const open = await this.store.openChecks(account.id)
      const keep = new Set<string>()
      const checked = new Set<string>()
      const keepOf = (envId: string, flag?: string) => {
        for (const [id, o] of open)
          if (o.environmentId === envId && (flag === undefined || o.flag === flag)) keep.add(id)
      }
      let integrationId: string | undefined
      const integration = async () => (integrationId ??= await this.integrationOf(account.id))
      for (const ws of await this.tenancy.listWorkspaces(account.id)) {
        const guardrails = (await this.metrics.list(ws)).filter((m) => m.guardrail === true).slice(0, MAX_GUARDRAILS)
        for (const env of await this.tenancy.environments(ws.id)) {
          let flags: FlagSeen[]
          try {
            // Over the whole lookback, so that a check's window starts at the flag's first impression in it.
            ;({ flags } = await this.experiments.flags(env, String(now - this.options.lookbackMs), String(now)))
          } catch (err) {
            totals.failed++
            keepOf(env.id)
            this.options.log.warn({ environmentId: env.id, err: messageOf(err) }, 'experiment checks: flags not listed')
            continue
          }
          // A list cut at its limit may leave out flags that still run: their alerts stay.
          if (flags.length >= MAX_FLAGS_LISTED) keepOf(env.id)
          for (const seen of flags) {
            if (this.stopped) {
              keepOf(env.id)
              break
            }
            // Running: impressions within the last day.
            if (Date.parse(seen.lastImpressionAt) < now - DAY_MS) continue
            totals.experiments++
            const { flag } = seen
            try {
              if (!(await this.store.renewChecksLock(this.options.owner, LOCK_MS)))
                throw new Error('the checks lock was lost (a run longer than the lock)')
              const from = Math.max(now - this.options.lookbackMs, Date.parse(seen.firstImpressionAt))
              const results = await this.check(
                ws,
                env,
                seen,
                from,
                now,
                guardrails.map((m) => m.id),
              )
              checked.add(`${env.id}\n${flag}`)
              for (const alert of alertsOf(results, env, now)) {
                keep.add(alert.id)
                const id = await integration()
                await this.store.markOpen(account.id, alert.id, {
                  integrationId: id,
                  environmentId: env.id,
                  environment: env.name,
                  flag,
                })
                await this.options.publish(account.id, id, alert)
                totals.firing++
              }
            } catch (err) {
              totals.failed++
              keepOf(env.id, flag)
              this.options.log.warn({ environmentId: env.id, err: messageOf(err) }, 'experiment check failed')
            }
          }
        }
      }
      for (const [id, o] of open) {
        if (keep.has(id) || this.stopped) continue
        const passed = checked.has(`${o.environmentId}\n${o.flag}`)
        await this.options.publish(account.id, o.integrationId, resolvedAlert(id, o, passed, now))
        await this.store.markResolved(account.id, id)
        totals.resolved++
      }
    }
    return totals
  }

  /**
   * A flag's results over [from, to] against the guardrails: sequential (a check looks at the same experiment every
   * interval), without CUPED (a window cut by the lookback would take treated time for pre-exposure time), against the
   * saved baseline, else off, else the first treatment (the sample ratio needs none).
   */
  private check(
    ws: Workspace,
    env: Environment,
    seen: FlagSeen,
    from: number,
    to: number,
    metricIds: string[],
  ): Promise<ExperimentResults> {
    return this.experiments.results(
      ws,
      env,
      { flag: seen.flag, metricIds, from, to, sequential: true, cuped: false, guardrails: metricIds },
      { metricsOptional: true, anyBaseline: true },
    )
  }

  /** The account's checks integration: made on first need, made again if it was deleted. */
  private async integrationOf(accountId: string): Promise<string> {
    const known = await this.store.checksIntegration(accountId)
    if (known) {
      const found = await this.integrations.get(accountId, known).then(
        () => true,
        (err: unknown) => {
          if (err instanceof Refusal && err.code === 'NOT_FOUND') return false
          throw err
        },
      )
      if (found) return known
    }
    const { record } = await this.integrations.create(accountId, {
      name: CHECKS_INTEGRATION_NAME,
      template: 'generic',
    })
    await this.store.saveChecksIntegration(accountId, record.id)
    this.options.log.info({ accountId, integrationId: record.id }, 'experiment checks integration created')
    return record.id
  }
}

/** The alerts a flag's results raise: its sample ratio mismatch, each failing guardrail (per treatment). */
export function alertsOf(r: ExperimentResults, env: Environment, now: number): CheckAlert[] {
  const base = (id: string, severity: CheckAlert['severity'], message: string): CheckAlert => ({
    id: `experiment:${env.id}:${r.flag}:${id}`,
    status: 'firing',
    severity,
    message,
    source: 'sluice-experiments',
    service: r.flag,
    environment: env.name,
    timestamp: new Date(now).toISOString(),
  })
  const alerts: CheckAlert[] = []
  if (r.srm.pValue < SRM_THRESHOLD) {
    const split = Object.entries(r.exposure.perTreatment)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')
    alerts.push(
      base(
        'srm',
        'critical',
        `Sample ratio mismatch in ${r.flag} (${env.name}): keys ${split}, p = ${r.srm.pValue.toExponential(2)} against the expected split; its results cannot be trusted`,
      ),
    )
  }
  for (const m of r.metrics)
    for (const c of m.comparisons)
      if (c.guardrail === 'failing')
        alerts.push(
          base(
            `guardrail:${m.metricId}:${c.treatment}`,
            'warning',
            `Guardrail ${m.name} is failing in ${r.flag} (${env.name}): ${c.treatment} against ${c.baseline} changed it by ${change(c)} (${m.desiredDirection === 'increase' ? 'it should not fall' : 'it should not rise'})`,
          ),
        )
  return alerts
}

/** A comparison's change as people read it: a percentage of the baseline, or the change itself when that is 0. */
function change(c: ComparisonView): string {
  const x = c.relative.estimate
  if (x === null || !Number.isFinite(x)) return 'an amount too large to show'
  return c.relative.of === 'baseline-mean'
    ? `${x > 0 ? '+' : ''}${(100 * x).toFixed(1)}%`
    : `${x > 0 ? '+' : ''}${Number(x.toPrecision(4))} (from a baseline of 0)`
}

function resolvedAlert(id: string, o: OpenCheck, passed: boolean, now: number): CheckAlert {
  return {
    id,
    status: 'resolved',
    severity: 'warning',
    message: passed
      ? `Experiment check of ${o.flag} passes again`
      : `Experiment check of ${o.flag} ended: the flag no longer runs (no impressions in the last day)`,
    source: 'sluice-experiments',
    service: o.flag,
    environment: o.environment ?? o.environmentId,
    timestamp: new Date(now).toISOString(),
  }
}
