// The checks role's job: every interval, each running experiment (a flag with impressions in the last day) of every
// environment is analysed from its first impression within the lookback to now (a window that only grows while the
// experiment is younger than the lookback, tested sequentially, so looking every interval does not inflate false
// alarms) against its workspace's guardrail metrics and its sample ratio. A failing guardrail, or a sample ratio
// p-value below 0.001, raises a Sluice alert through the alert pipeline (an integration of the generic template that
// the job makes per account, so rules, maintenance windows and notifications apply), and a slice of the workspace's
// checksDimension whose guardrail effect differs from the rest's an informational one; the alert resolves when the
// check passes again, or when the flag stops running. One process runs the checks at a time (a lock in Redis), once per
// interval (a claim of the interval's slot); a check alert is sent again each run while it fires (the same id: one
// open alert), so one lost message is made good by the next run.
//
// NOTE: anyone with an environment's client-side SDK key (public, in every web page using it) can post impressions of
// flags it makes up. So the accounts take turns, one flag each, within a budget per account and run (flags analysed,
// time, alerts raised): one account's flags delay another's checks by one flag per turn (at most its budget in all),
// and the flags it did not reach are its first ones next run (a cursor per account), saved ones first. Made-up flags
// cannot push a flag with saved settings out of an environment's list either (ExperimentService.flags asks about them
// by name; the others fill what remains of the list, the most keys first). And an alert keeps its severity only when
// an analyst saved the flag's settings or enough keys were exposed to it; otherwise it is info, and says why, so a
// made-up flag does not page anyone (a key count can be posted too: the alert budget bounds what such flags raise).
import { createHash } from 'node:crypto'
import type { Dimension } from '../analysis/queries.js'
import type { Logger } from '../shared/logger.js'
import { AppError, messageOf, Refusal } from '../shared/errors.js'
import type { CheckCursor, ExperimentStore, OpenCheck } from '../state/redis/experiments.js'
import type { TenancyStore, Workspace, Environment } from '../state/redis/tenancy.js'
import type { ComparisonView } from './experiments/metric-results.js'
import { parseDimension } from './experiments/request.js'
import {
  SRM_THRESHOLD,
  type ExperimentResults,
  type ExperimentService,
  type FlagList,
  type FlagSeen,
} from './experiments/service.js'
import type { IntegrationService } from './integrations.js'
import type { MetricService } from './metrics.js'

export const CHECKS_INTEGRATION_NAME = 'Sluice experiment checks'
const DAY_MS = 86_400_000
/** Guardrail metrics one check analyses (the results' bound on metrics per request). */
const MAX_GUARDRAILS = 20
/** Slices of checksDimension a check breaks a flag down by (the top values by exposed keys, and the rest). */
const CHECK_SLICES = 5

/** A check alert in the generic template's shape. */
export interface CheckAlert {
  readonly id: string
  readonly status: 'firing' | 'resolved'
  readonly severity: 'critical' | 'warning' | 'info'
  readonly message: string
  readonly source: 'sluice-experiments'
  readonly service: string
  readonly environment: string
  readonly timestamp: string
}

/** What one account may use of one run. */
export interface CheckBudget {
  /** Running experiments analysed. */
  readonly flags: number
  /** Time spent listing and analysing them, in milliseconds. */
  readonly ms: number
  /** Firing alerts sent (repeats included). */
  readonly alerts: number
}

export interface ExperimentChecksOptions {
  readonly intervalMs: number
  readonly lookbackMs: number
  /** Each account's share of a run. */
  readonly budget: CheckBudget
  /** Exposed keys from which a flag without saved settings raises alerts of full severity. */
  readonly minKeys: number
  /** Who this process is, in the run claim. */
  readonly owner: string
  /** Publishes an alert payload of the account's checks integration to the alerts topic. */
  readonly publish: (accountId: string, integrationId: string, alert: CheckAlert) => Promise<void>
  readonly log: Logger
}

export interface CheckRun {
  readonly accounts: number
  readonly experiments: number
  readonly firing: number
  readonly resolved: number
  readonly failed: number
  /** Running experiments left for the next run by their account's budget. */
  readonly deferred: number
  /** Alerts not sent because their account's alert budget was spent. */
  readonly cut: number
}

/** How long the checks lock is held without being renewed (it is renewed at each turn and each environment listed). */
const LOCK_MS = 5 * 60_000

/** A running experiment to check. */
interface FlagWork {
  readonly ws: Workspace
  readonly env: Environment
  readonly seen: FlagSeen
  /** An analyst saved its settings (weights, baseline). */
  readonly saved: boolean
  readonly guardrails: readonly string[]
  /** What its guardrails' results are broken down by, for differential impact (the workspace's checksDimension). */
  readonly dimension: Dimension | undefined
  /** Its place in the account's order, as the cursor keeps it. */
  readonly position: string
}

/** One account's part of a run. */
interface AccountRun {
  readonly accountId: string
  listed: boolean
  open: Map<string, OpenCheck>
  cursor: CheckCursor
  /** Saved flags first, each group from where the last run stopped. */
  queue: FlagWork[]
  next: number
  spentMs: number
  raised: number
  cut: number
  integrationId?: string
  /** Open alerts to leave as they are: sent again, cut, or of a flag (position) or environment not checked. */
  readonly keep: Set<string>
  readonly keepFlags: Set<string>
  readonly keepEnvs: Set<string>
  /** Environments whose list was cut at its bound, with their flags with saved settings (all listed, cut or not). */
  readonly cutEnvs: Map<string, ReadonlySet<string>>
  readonly checked: Set<string>
  done: boolean
}

type Totals = { -readonly [K in keyof CheckRun]: number }

const positionOf = (envId: string, flag: string) => `${envId}\n${flag}`

export class ExperimentChecks {
  /** A job of the checks role (jobs/runner.ts): every process ticks it, its lock and slots choose one to run. */
  readonly name = 'experiment-checks'
  readonly exclusive = false
  /** Checks at start, then every interval. */
  readonly atStart = true
  private stopping: () => boolean = () => false

  constructor(
    private readonly tenancy: TenancyStore,
    private readonly metrics: MetricService,
    private readonly experiments: ExperimentService,
    private readonly integrations: IntegrationService,
    private readonly store: ExperimentStore,
    private readonly options: ExperimentChecksOptions,
  ) {}

  get everyMs(): number {
    return this.options.intervalMs
  }

  /** The first process to claim the interval's slot runs the checks, one run at a time. */
  async tick(_now: number, stopping: () => boolean): Promise<void> {
    this.stopping = stopping
    await this.claimAndRun()
  }

  /** Runs the checks once now, outside the interval's slots; undefined when another process is running them. */
  runNow(): Promise<CheckRun | undefined> {
    return this.locked(async () => true)
  }

  private async claimAndRun(): Promise<void> {
    const { owner, intervalMs, log } = this.options
    try {
      // The lock keeps two runs from overlapping (a run longer than the interval); the slot, one run per interval.
      const run = await this.locked((now) =>
        this.store.claimCheckRun(Math.floor(now / intervalMs), owner, intervalMs * 2),
      )
      if (run) log.info(run, 'experiment checks run')
    } catch (err) {
      log.warn({ err: messageOf(err) }, 'experiment checks could not run; the next interval tries again')
    }
  }

  private async locked(claim: (now: number) => Promise<boolean>): Promise<CheckRun | undefined> {
    const { owner } = this.options
    if (!(await this.store.lockChecks(owner, LOCK_MS))) return undefined
    try {
      const now = Date.now()
      if (!(await claim(now))) return undefined
      return await this.runOnce(now)
    } finally {
      await this.store.unlockChecks(owner)
    }
  }

  /**
   * Checks the running experiments of every account, the accounts taking turns one flag at a time until each has
   * spent its budget or checked all its flags. An alert found failing is marked open before it is sent (a kill
   * between the two leaves an open mark, which a later run resolves or sends again); an open alert is resolved when
   * its flag was checked and passed, or no longer runs; one whose flag could not be checked (an outage, a flag without
   * saved settings left out of its environment's list, a budget spent before it) stays as it is.
   */
  async runOnce(now: number): Promise<CheckRun> {
    const totals: Totals = { accounts: 0, experiments: 0, firing: 0, resolved: 0, failed: 0, deferred: 0, cut: 0 }
    const runs: AccountRun[] = (await this.tenancy.listAccounts()).map((a) => ({
      accountId: a.id,
      listed: false,
      open: new Map(),
      cursor: {},
      queue: [],
      next: 0,
      spentMs: 0,
      raised: 0,
      cut: 0,
      keep: new Set(),
      keepFlags: new Set(),
      keepEnvs: new Set(),
      cutEnvs: new Map(),
      checked: new Set(),
      done: false,
    }))
    totals.accounts = runs.length
    for (let turn = runs; turn.length > 0 && !this.stopping(); turn = turn.filter((r) => !r.done))
      for (const run of turn) {
        if (this.stopping()) break
        await this.turn(run, now, totals)
      }
    if (this.stopping()) for (const run of runs) if (!run.done) await this.finish(run, now, totals)
    return totals
  }

  /** One account's turn: its flags listed (its first turn), else one flag checked; its run ends past its budget. */
  private async turn(run: AccountRun, now: number, totals: Totals): Promise<void> {
    const { budget } = this.options
    const started = Date.now()
    await this.renewLock()
    try {
      if (!run.listed) await this.list(run, now, totals, started)
      else await this.checkFlag(run, run.queue[run.next++]!, now, totals)
    } finally {
      run.spentMs += Date.now() - started
    }
    if (
      run.next >= run.queue.length ||
      run.next >= budget.flags ||
      run.spentMs >= budget.ms ||
      run.raised >= budget.alerts
    )
      await this.finish(run, now, totals)
  }

  private async renewLock(): Promise<void> {
    if (!(await this.store.renewChecksLock(this.options.owner, LOCK_MS)))
      throw new Error('the checks lock was lost (a run longer than the lock)')
  }

  /**
   * The account's running experiments, its open alerts and where its last run stopped. Listing spends the account's
   * time too: past its budget, the environments not listed keep their open alerts and wait for the next run.
   */
  private async list(run: AccountRun, now: number, totals: Totals, started: number): Promise<void> {
    const { accountId } = run
    run.open = await this.store.openChecks(accountId)
    run.cursor = await this.store.checksCursor(accountId)
    const work: FlagWork[] = []
    for (const ws of await this.tenancy.listWorkspaces(accountId)) {
      const guardrails = (await this.metrics.list(ws))
        .filter((m) => m.guardrail === true)
        .slice(0, MAX_GUARDRAILS)
        .map((m) => m.id)
      const dimension = guardrails.length === 0 ? undefined : await this.dimensionOf(ws)
      for (const env of await this.tenancy.environments(ws.id)) {
        if (Date.now() - started >= this.options.budget.ms) {
          run.keepEnvs.add(env.id)
          continue
        }
        // Each environment's list is a query of its own (up to the query time limit): the lock outlives it.
        await this.renewLock()
        let listed: FlagList
        try {
          // Over the whole lookback, so that a check's window starts at the flag's first impression in it.
          listed = await this.experiments.flags(env, String(now - this.options.lookbackMs), String(now))
        } catch (err) {
          totals.failed++
          run.keepEnvs.add(env.id)
          this.options.log.warn({ environmentId: env.id, err: messageOf(err) }, 'experiment checks: flags not listed')
          continue
        }
        const { flags, saved } = listed
        // A list cut at its bound may leave out flags without saved settings that still run: their alerts stay.
        if (!listed.complete) run.cutEnvs.set(env.id, saved)
        // Running: impressions within the last day.
        const running = flags.filter((f) => Date.parse(f.lastImpressionAt) >= now - DAY_MS)
        for (const seen of running)
          work.push({
            ws,
            env,
            seen,
            saved: saved.has(seen.flag),
            guardrails,
            dimension,
            position: positionOf(env.id, seen.flag),
          })
      }
    }
    run.queue = [
      ...rotate(
        work.filter((w) => w.saved),
        run.cursor.saved,
      ),
      ...rotate(
        work.filter((w) => !w.saved),
        run.cursor.other,
      ),
    ]
    run.listed = true
  }

  private async checkFlag(run: AccountRun, w: FlagWork, now: number, totals: Totals): Promise<void> {
    const { accountId } = run
    const { flag } = w.seen
    totals.experiments++
    if (w.saved) run.cursor.saved = w.position
    else run.cursor.other = w.position
    try {
      const from = Math.max(now - this.options.lookbackMs, Date.parse(w.seen.firstImpressionAt))
      const results = await this.check(w, from, now)
      run.checked.add(w.position)
      for (const alert of alertsOf(results, w.env, now, { saved: w.saved, minKeys: this.options.minKeys })) {
        run.keep.add(alert.id)
        if (run.raised >= this.options.budget.alerts) {
          run.cut++
          totals.cut++
          continue
        }
        const id = (run.integrationId ??= await this.integrationOf(accountId))
        await this.store.markOpen(accountId, alert.id, {
          integrationId: id,
          environmentId: w.env.id,
          environment: w.env.name,
          flag,
          severity: alert.severity,
        })
        await this.options.publish(accountId, id, alert)
        run.raised++
        totals.firing++
      }
    } catch (err) {
      totals.failed++
      run.keepFlags.add(w.position)
      this.options.log.warn({ environmentId: w.env.id, err: messageOf(err) }, 'experiment check failed')
    }
  }

  /** The end of an account's run: where it stopped is kept, and its open alerts not kept are resolved. */
  private async finish(run: AccountRun, now: number, totals: Totals): Promise<void> {
    run.done = true
    if (!run.listed) return
    const { accountId } = run
    const { budget, log } = this.options
    const left = run.queue.slice(run.next)
    for (const w of left) run.keepFlags.add(w.position)
    if (left.length > 0 || run.cut > 0) {
      totals.deferred += left.length
      const spent = this.stopping()
        ? 'stopped'
        : run.raised >= budget.alerts
          ? 'alerts'
          : run.spentMs >= budget.ms
            ? 'time'
            : 'flags'
      log[run.cut > 0 ? 'warn' : 'info'](
        { accountId, spent, checked: run.next, deferred: left.length, cut: run.cut, spentMs: run.spentMs, budget },
        "experiment checks: the account's share of this run is spent (alerts past its budget cut); the flags left are its first ones next run",
      )
    }
    if (run.next > 0) await this.store.saveChecksCursor(accountId, run.cursor)
    if (this.stopping()) return
    for (const [id, o] of run.open) {
      const position = positionOf(o.environmentId, o.flag)
      const cut = run.cutEnvs.get(o.environmentId)
      if (
        run.keep.has(id) ||
        run.keepFlags.has(position) ||
        run.keepEnvs.has(o.environmentId) ||
        (cut !== undefined && !cut.has(o.flag))
      )
        continue
      const passed = run.checked.has(position)
      await this.options.publish(accountId, o.integrationId, resolvedAlert(id, o, passed, now))
      await this.store.markResolved(accountId, id)
      totals.resolved++
    }
  }

  /**
   * A flag's results over [from, to] against the guardrails: frequentist and sequential whatever the workspace's
   * default engine (a check looks at the same experiment every interval: only the always-valid tests allow that),
   * without CUPED (a window cut by the lookback would take treated time for pre-exposure time), against the
   * saved baseline, else off, else the first treatment (the sample ratio needs none).
   */
  private async check(w: FlagWork, from: number, to: number): Promise<ExperimentResults> {
    const metricIds = [...w.guardrails]
    const results = (dimension?: Dimension) =>
      this.experiments.results(
        w.ws,
        w.env,
        {
          flag: w.seen.flag,
          metricIds,
          from,
          to,
          engine: 'frequentist',
          sequential: true,
          cuped: false,
          guardrails: metricIds,
          ...(dimension ? { dimension, maxSlices: CHECK_SLICES, correctionScope: 'metric' as const } : {}),
        },
        { metricsOptional: true, anyBaseline: true },
      )
    if (!w.dimension) return results()
    // A breakdown the data refuses (an identity attribute past its limits) does not cost the guardrails' check.
    return results(w.dimension).catch((err: unknown) => {
      if (!(err instanceof Refusal || (err instanceof AppError && !err.retriable))) throw err
      this.options.log.warn(
        { environmentId: w.env.id, flag: w.seen.flag, err: messageOf(err) },
        'experiment checks: the breakdown of checksDimension failed; checked without it',
      )
      return results()
    })
  }

  /** The workspace's checksDimension, parsed (none when unset, or unreadable as saved before a change of its rules). */
  private async dimensionOf(ws: Workspace): Promise<Dimension | undefined> {
    const { checksDimension } = await this.experiments.defaults(ws)
    if (checksDimension === null) return undefined
    try {
      return parseDimension(checksDimension)
    } catch {
      return undefined
    }
  }

  /** The account's checks integration: made on first need, made again if it was deleted. */
  private async integrationOf(accountId: string): Promise<string> {
    const own = await this.integrations.own(
      accountId,
      await this.store.checksIntegration(accountId),
      CHECKS_INTEGRATION_NAME,
    )
    if (own.made) {
      await this.store.saveChecksIntegration(accountId, own.id)
      this.options.log.info({ accountId, integrationId: own.id }, 'experiment checks integration created')
    }
    return own.id
  }
}

/** The flags in their order, starting after `cursor` (the last one checked) and wrapping around. */
function rotate(work: FlagWork[], cursor: string | undefined): FlagWork[] {
  const sorted = work.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
  const at = cursor === undefined ? 0 : sorted.findIndex((w) => w.position > cursor)
  return at <= 0 ? sorted : [...sorted.slice(at), ...sorted.slice(0, at)]
}

/**
 * What makes a flag's alerts count: saved settings, or at least `minKeys` exposed keys when it is not 0 (keys a public
 * client-side SDK key can post: one request holds 100,000 impressions).
 */
export interface CheckTrust {
  readonly saved: boolean
  readonly minKeys: number
}

/**
 * The alerts a flag's results raise: its sample ratio mismatch (critical), each failing guardrail (warning, per
 * treatment); info instead when the flag has no saved settings and fewer exposed keys than `trust.minKeys`.
 */
export function alertsOf(r: ExperimentResults, env: Environment, now: number, trust: CheckTrust): CheckAlert[] {
  const trusted = trust.saved || (trust.minKeys > 0 && r.exposure.keys >= trust.minKeys)
  const firing = (id: string, severity: CheckAlert['severity'], message: string): CheckAlert => ({
    id: `experiment:${env.id}:${r.flag}:${id}`,
    status: 'firing',
    severity,
    message,
    source: 'sluice-experiments',
    service: r.flag,
    environment: env.name,
    timestamp: new Date(now).toISOString(),
  })
  // A check that would page: info, saying why, unless the flag is trusted.
  const base = (id: string, severity: 'critical' | 'warning', message: string): CheckAlert =>
    trusted
      ? firing(id, severity, message)
      : firing(
          id,
          'info',
          `${message}. Informational: ${r.flag} has no saved experiment settings${trust.minKeys > 0 ? ` and ${r.exposure.keys} exposed keys (fewer than ${trust.minKeys})` : ''}, and anyone with the environment's client-side SDK key can post impressions of a flag; save the flag's experiment settings to have this raised as ${severity}`,
        )
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
  for (const s of r.dimension?.slices ?? [])
    for (const m of s.metrics)
      for (const c of m.comparisons)
        if (c.differentialImpact?.flagged) {
          const slice = s.value === null ? 'the other values' : JSON.stringify(s.value.slice(0, 100))
          alerts.push(
            firing(
              `differs:${m.metricId}:${c.treatment}:${digest(s.value)}`,
              'info',
              `In ${r.flag} (${env.name}), ${m.name}'s effect of ${c.treatment} against ${c.baseline} for ${dimensionName(r.dimension!.dimension)} ${slice} differs from the rest's (by ${Number(c.differentialImpact.difference.toPrecision(3))}, p = ${c.differentialImpact.adjustedPValue?.toExponential(2)} after Bonferroni over the slices): read its results by this dimension before deciding for everyone`,
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

/** A slice's value in an alert id: short whatever it holds. */
const digest = (value: string | null) =>
  value === null ? 'other' : createHash('sha256').update(value).digest('hex').slice(0, 16)

/** A dimension as a person reads it. */
function dimensionName(d: Dimension): string {
  return d.kind === 'rule'
    ? 'the rule'
    : d.kind === 'event'
      ? `${d.eventTypeId}.${d.property}`
      : `the ${d.trafficType} identities' ${d.attribute}`
}

/** A comparison's change as people read it: a percentage of the baseline, or the change itself when that is 0. */
function change(c: ComparisonView): string {
  const x = c.relative.estimate
  if (x === null || !Number.isFinite(x)) return 'an amount too large to show'
  return c.relative.of === 'baseline-mean'
    ? `${x > 0 ? '+' : ''}${(100 * x).toFixed(1)}%`
    : `${x > 0 ? '+' : ''}${Number(x.toPrecision(4))} (from a baseline of 0)`
}

/** A resolve, with the severity its alert was raised with (warning for marks kept before it was). */
function resolvedAlert(id: string, o: OpenCheck, passed: boolean, now: number): CheckAlert {
  return {
    id,
    status: 'resolved',
    severity: o.severity ?? 'warning',
    message: passed
      ? `Experiment check of ${o.flag} passes again`
      : `Experiment check of ${o.flag} ended: the flag no longer runs (no impressions in the last day)`,
    source: 'sluice-experiments',
    service: o.flag,
    environment: o.environment ?? o.environmentId,
    timestamp: new Date(now).toISOString(),
  }
}
