// The checks role's job: every interval, each running experiment (a flag with impressions in the last day) of every
// environment is analysed over the last days (sequential tests, so looking every hour does not inflate false alarms)
// against its workspace's guardrail metrics and its sample ratio. A failing guardrail, or a sample ratio p-value below
// 0.001, raises a Sluice alert through the alert pipeline (an integration of the generic template that the job makes
// per account, so rules, maintenance windows and notifications apply); the alert resolves when the check passes again,
// or when the flag stops running. One process per interval runs the checks (a claim in Redis); a check alert is sent
// again each run while it fires (the same id: one open alert), so one lost message is made good by the next run.
import type { Logger } from '../shared/logger.js'
import { messageOf, Refusal } from '../shared/errors.js'
import type { ExperimentStore, OpenCheck } from '../state/redis/experiments.js'
import type { TenancyStore, Workspace, Environment } from '../state/redis/tenancy.js'
import { SRM_THRESHOLD, type ExperimentResults, type ExperimentService } from './experiments.js'
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

  /** Runs the checks of each interval this process claims, from now on. */
  start(): void {
    const tick = async () => {
      const now = Date.now()
      const slot = Math.floor(now / this.options.intervalMs)
      try {
        if (await this.store.claimCheckRun(slot, this.options.owner, this.options.intervalMs * 2)) {
          const run = await this.runOnce(now)
          this.options.log.info(run, 'experiment checks run')
        }
      } catch (err) {
        this.options.log.warn({ err: messageOf(err) }, 'experiment checks could not run; next interval tries again')
      }
      if (!this.stopped) this.timer = setTimeout(next, this.options.intervalMs - (Date.now() % this.options.intervalMs))
    }
    const next = () => {
      this.running = tick()
    }
    next()
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.running
  }

  /** Checks every running experiment of every account once. */
  async runOnce(now: number): Promise<CheckRun> {
    const totals = { experiments: 0, firing: 0, resolved: 0, failed: 0 }
    for (const account of await this.tenancy.listAccounts()) {
      if (this.stopped) break
      const open = await this.store.openChecks(account.id)
      const seen = new Set<string>()
      let integrationId: string | undefined
      const integration = async () => (integrationId ??= await this.integrationOf(account.id))
      for (const ws of await this.tenancy.listWorkspaces(account.id)) {
        const guardrails = (await this.metrics.list(ws)).filter((m) => m.guardrail === true).slice(0, MAX_GUARDRAILS)
        for (const env of await this.tenancy.environments(ws.id)) {
          const { flags } = await this.experiments.flags(env, String(now - DAY_MS), String(now))
          for (const { flag, firstImpressionAt } of flags) {
            totals.experiments++
            try {
              const from = Math.max(now - this.options.lookbackMs, Date.parse(firstImpressionAt) - DAY_MS)
              const results = await this.check(
                ws,
                env,
                flag,
                from,
                now,
                guardrails.map((m) => m.id),
              )
              for (const alert of alertsOf(results, env, now)) {
                seen.add(alert.id)
                const id = await integration()
                await this.options.publish(account.id, id, alert)
                await this.store.markOpen(account.id, alert.id, { integrationId: id, environmentId: env.id, flag })
                totals.firing++
              }
            } catch (err) {
              totals.failed++
              // The alerts of a flag that could not be checked stay as they are.
              for (const [id, o] of open) if (o.environmentId === env.id && o.flag === flag) seen.add(id)
              this.options.log.warn({ environmentId: env.id, err: messageOf(err) }, 'experiment check failed')
            }
          }
        }
      }
      for (const [id, o] of open) {
        if (seen.has(id)) continue
        await this.options.publish(account.id, o.integrationId, resolvedAlert(id, o, now))
        await this.store.markResolved(account.id, id)
        totals.resolved++
      }
    }
    return totals
  }

  private async check(
    ws: Workspace,
    env: Environment,
    flag: string,
    from: number,
    to: number,
    metricIds: string[],
  ): Promise<ExperimentResults> {
    // Sequential: a check looks at the same experiment every interval.
    return this.experiments.results(
      ws,
      env,
      { flag, metricIds, from, to, sequential: true, guardrails: metricIds },
      { metricsOptional: true },
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
            `Guardrail ${m.name} is failing in ${r.flag} (${env.name}): ${c.treatment} against ${c.baseline} changed it by ${(100 * c.relative.estimate).toFixed(1)}% (${m.desiredDirection === 'increase' ? 'it should not fall' : 'it should not rise'})`,
          ),
        )
  return alerts
}

function resolvedAlert(id: string, o: OpenCheck, now: number): CheckAlert {
  return {
    id,
    status: 'resolved',
    severity: 'warning',
    message: `Experiment check passed again for ${o.flag}`,
    source: 'sluice-experiments',
    service: o.flag,
    environment: o.environmentId,
    timestamp: new Date(now).toISOString(),
  }
}
