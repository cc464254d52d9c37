// Experiment results as a use case, whoever asks (the results API or `sluice experiments`): the
// request's rules (window, alpha, weights, baseline, limits, test mode, correction), the queries
// (percentile caps first when a metric has one; per-treatment sums of each metric's per-key values,
// with the pre-exposure sums under CUPED), and the statistics over their sums.
import {
  ATTRIBUTION_MS,
  capsQuery,
  DEFAULT_PRE_EXPOSURE_DAYS,
  experimentsQuery,
  impressionsBeforeQuery,
  metricsQuery,
  type MetricType,
  type Tables,
  type Window,
} from '../analysis/queries.js'
import type { ClickHouseClient } from '@clickhouse/client'
import { clickhouseRunner, type AnalysisLimits, type QueryRunner } from '../analysis/clickhouse.js'
import {
  benjaminiHochberg,
  compare,
  cupedSummary,
  cupedTheta,
  cupedVarianceReduction,
  holm,
  meanSummary,
  proportionSummary,
  sampleRatio,
  type Comparison,
  type CovariateSums,
  type Summary,
} from '../analysis/statistics.js'
import { AppError, invalid, Refusal } from '../shared/errors.js'
import type { ExperimentDefaults, ExperimentStore, FlagSettings } from '../state/redis/experiments.js'
import type { Metric } from '../state/redis/metrics.js'
import type { Environment, Workspace } from '../state/redis/tenancy.js'
import type { MetricService } from './metrics.js'

export const MAX_METRICS_PER_REQUEST = 20
export const MAX_TREATMENTS = 20
export const MAX_WINDOW_MS = 366 * 24 * 3600 * 1000
export const DEFAULT_MIN_KEYS = 355
export const SRM_THRESHOLD = 0.001
/**
 * Flags an environment's list holds, at most: those with saved settings first (all of them, however many), the others
 * in what remains.
 */
export const MAX_FLAGS_LISTED = 1000
/**
 * Characters of SQL the names of one query of flags with saved settings may take, at most (each name counted as its
 * longest literal, every character escaped): a query stays far below ClickHouse's 256 KiB max_query_size.
 */
const SAVED_NAMES_CHARS_PER_QUERY = 64 * 1024
const MAX_EPOCH_MS = 4_294_967_295_000
const MAX_NAME = 250
export const DEFAULT_SEQUENTIAL_TUNING = 5000
export const CORRECTIONS = ['bh', 'holm', 'none'] as const
export type Correction = (typeof CORRECTIONS)[number]

export interface ResultsRequest {
  readonly flag: string
  readonly metricIds: readonly string[]
  readonly from: number
  readonly to: number
  readonly baseline?: string | undefined
  readonly alpha?: number | undefined
  readonly weights?: Readonly<Record<string, number>> | undefined
  readonly rule?: string | undefined
  readonly minKeys?: number | undefined
  /** Always-valid intervals and p-values (sequential testing) instead of fixed-horizon ones. */
  readonly sequential?: boolean | undefined
  /** The mixture's tuning parameter: the total keys at which the sequential interval is tightest. */
  readonly sequentialTuning?: number | undefined
  /** Regression adjustment by each key's pre-exposure value of the metric. */
  readonly cuped?: boolean | undefined
  /** How the p-values of the non-guardrail comparisons are adjusted (default bh). */
  readonly correction?: Correction | undefined
  /** Metrics evaluated as guardrails in this request, besides those defined as guardrails. */
  readonly guardrails?: readonly string[] | undefined
}

export interface TreatmentStats {
  readonly keys: number
  readonly mean: number
  readonly variance: number
  readonly sum: number
}

export interface ComparisonView {
  readonly treatment: string
  readonly baseline: string
  readonly absolute: Comparison['absolute']
  readonly relative: Comparison['relative']
  readonly degreesOfFreedom: number | null
  readonly adjustedPValue: number | null
  readonly significant: boolean
  /** desired or undesired (significant, in or against the metric's desired direction), else inconclusive. */
  readonly impact: 'desired' | 'undesired' | 'inconclusive'
  /** Why it is not significant when the p-value alone would not say (too few keys, no test possible). */
  readonly note: string | null
  /**
   * A guardrail's state: failing (significantly worse, one-sided), at risk (worse, not significantly), ok; null for
   * the other metrics.
   */
  readonly guardrail: GuardrailState | null
  /** Under CUPED, θ pooled over the two arms and the share of the estimate's variance it removed. */
  readonly cuped: { readonly theta: number | null; readonly varianceReduction: number | null } | null
}

export type GuardrailState = 'ok' | 'at risk' | 'failing'

export interface MetricResult {
  readonly metricId: string
  readonly name: string
  readonly type: MetricType
  readonly desiredDirection: 'increase' | 'decrease'
  /** Evaluated one-sided against its desired direction and left out of the correction. */
  readonly guardrail: boolean
  /**
   * The cap of each key's value: fixed, or the quantile at `percentile` worked out for the request, which is applied
   * only when it is above 0; null when uncapped.
   */
  readonly cap: { readonly value: number; readonly percentile: number | null; readonly applied: boolean } | null
  /** Under CUPED: the pre-exposure window, and the variance removed over all the analysed keys (1 − (1 − ρ²)). */
  readonly cuped: { readonly preExposureDays: number; readonly varianceReduction: number | null } | null
  readonly perTreatment: Readonly<Record<string, TreatmentStats>>
  readonly comparisons: readonly ComparisonView[]
}

export interface ExperimentResults {
  readonly flag: string
  readonly environmentId: string
  readonly from: string
  readonly to: string
  readonly rule: string | null
  readonly baseline: string
  readonly alpha: number
  readonly minKeys: number
  /** How the results were computed: the test, its tuning, CUPED, and the correction. */
  readonly mode: {
    readonly test: 'fixed-horizon' | 'sequential'
    readonly sequentialTuning: number | null
    readonly cuped: boolean
    readonly correction: Correction
    /** Why a figure of this mode may mislead (CUPED over a window that starts after the experiment did). */
    readonly note: string | null
  }
  readonly exposure: {
    readonly keys: number
    readonly perTreatment: Readonly<Record<string, number>>
    readonly excludedKeys: number
  }
  readonly srm: {
    readonly pValue: number
    readonly chiSquared: number
    readonly mismatch: boolean
    readonly expected: Readonly<Record<string, number>>
  }
  readonly metrics: readonly MetricResult[]
}

/** An environment's flags with impressions in a window. */
export interface FlagList {
  readonly from: number
  readonly to: number
  /** By name. */
  readonly flags: FlagSeen[]
  /** The flags of the environment with saved settings (listed when they had impressions in the window, or not). */
  readonly saved: ReadonlySet<string>
  /** False when flags without saved settings may have been left out (past MAX_FLAGS_LISTED of them). */
  readonly complete: boolean
}

export interface FlagSeen {
  readonly flag: string
  readonly treatments: string[]
  readonly keys: number
  readonly impressions: number
  readonly firstImpressionAt: string
  readonly lastImpressionAt: string
}

/** The service over the tables of `database`, with the query limits (the admin role and `sluice experiments` alike). */
export function createExperimentService(
  client: ClickHouseClient,
  settings: { database: string } & AnalysisLimits,
  metrics: MetricService,
  store?: ExperimentStore,
): ExperimentService {
  const db = settings.database
  return new ExperimentService(
    clickhouseRunner(client, settings),
    { events: `${db}.events`, impressions: `${db}.impressions` },
    metrics,
    store,
  )
}

export const BUILT_IN_DEFAULTS: ExperimentDefaults = {
  sequential: false,
  sequentialTuning: DEFAULT_SEQUENTIAL_TUNING,
  cuped: false,
  correction: 'bh',
}

export class ExperimentService {
  constructor(
    private readonly run: QueryRunner,
    private readonly tables: Tables,
    private readonly metrics: MetricService,
    /** Flags' saved settings and the workspace's defaults, when kept (absent: the built-in defaults). */
    private readonly store?: ExperimentStore,
  ) {}

  /** The workspace's defaults for results requests: what was saved, else the built-in ones. */
  async defaults(ws: Workspace): Promise<ExperimentDefaults> {
    return { ...BUILT_IN_DEFAULTS, ...(await this.store?.defaults(ws.id)) }
  }

  async saveDefaults(ws: Workspace, body: Partial<ExperimentDefaults>): Promise<ExperimentDefaults> {
    const defaults = { ...(await this.defaults(ws)), ...body }
    const problems = []
    if (!CORRECTIONS.includes(defaults.correction))
      problems.push({ field: 'correction', problem: `must be one of ${CORRECTIONS.join(', ')}` })
    if (!(
      Number.isFinite(defaults.sequentialTuning) &&
      defaults.sequentialTuning >= 1 &&
      defaults.sequentialTuning <= 1e12
    ))
      problems.push({ field: 'sequentialTuning', problem: 'must be a number from 1 to 1000000000000' })
    if (problems.length > 0) throw invalid(problems, 'invalid experiment defaults')
    await this.requireStore().saveDefaults(ws.id, defaults)
    return defaults
  }

  /** A flag's saved settings in the environment (weights and baseline); nulls when none are saved. */
  async flagSettings(env: Environment, flag: string): Promise<FlagSettings> {
    return (await this.store?.flagSettings(env.workspaceId, env.id, flag)) ?? { weights: null, baseline: null }
  }

  async saveFlagSettings(env: Environment, flag: string, body: FlagSettings): Promise<FlagSettings> {
    const problems = []
    if (flag.length === 0 || flag.length > MAX_NAME)
      problems.push({ field: 'flag', problem: `must be 1 to ${MAX_NAME} characters` })
    if (body.weights !== null) problems.push(...weightProblems(body.weights))
    if (body.baseline !== null && (body.baseline.length === 0 || body.baseline.length > MAX_NAME))
      problems.push({ field: 'baseline', problem: `must be 1 to ${MAX_NAME} characters` })
    if (body.weights !== null && body.baseline !== null && !Object.hasOwn(body.weights, body.baseline))
      problems.push({ field: 'baseline', problem: 'must be one of the treatments given a weight' })
    if (problems.length > 0) throw invalid(problems, 'invalid flag settings')
    const settings = { weights: body.weights, baseline: body.baseline }
    await this.requireStore().saveFlagSettings(env.workspaceId, env.id, flag, settings)
    return settings
  }

  private requireStore(): ExperimentStore {
    if (!this.store) throw new Error('experiment settings are not kept by this service')
    return this.store
  }

  /**
   * The flags with impressions in the environment within [from, to] (default: the 30 days before now), with their
   * treatments: every flag with saved settings that had impressions (asked about by name), and in what remains of
   * MAX_FLAGS_LISTED, the others with the most keys. Anyone with the environment's client-side SDK key can post
   * impressions of flags it makes up: however many, and whatever they are named, they cannot push a flag with saved
   * settings out of the list, nor one with more keys than theirs.
   */
  async flags(env: Environment, fromText?: string, toText?: string): Promise<FlagList> {
    const to = toText === undefined ? Date.now() : parseTime('to', toText)
    const from = fromText === undefined ? to - 30 * 24 * 3600 * 1000 : parseTime('from', fromText)
    checkWindow(from, to)
    // A name that is not well-formed text is no flag of a stored impression.
    const savedNames = ((await this.store?.savedFlagNames(env.workspaceId, env.id)) ?? []).filter((n) =>
      n.isWellFormed(),
    )
    const saved = new Set(savedNames)
    const rows: Record<string, unknown>[] = []
    for (const names of pages(savedNames, (n) => 4 * n.length + 4, SAVED_NAMES_CHARS_PER_QUERY))
      rows.push(...(await this.run(experimentsQuery(this.tables, env.id, from, to, names.length, names))))
    // The others, the most keys first, in what remains. Every flag with saved settings that had impressions is among
    // the rows already, so of MAX_FLAGS_LISTED asked for, at least what remains are others when there are so many.
    const room = MAX_FLAGS_LISTED - rows.length
    let complete = false
    if (room > 0) {
      const all = await this.run(experimentsQuery(this.tables, env.id, from, to, MAX_FLAGS_LISTED))
      const others = all.filter((r) => !saved.has(String(r['flag'])))
      rows.push(...others.slice(0, room))
      complete = all.length < MAX_FLAGS_LISTED && others.length <= room
    }
    const flags = rows
      .map((r) => ({
        flag: String(r['flag']),
        treatments: (r['treatments'] as string[]).slice().sort(),
        keys: Number(r['keys']),
        impressions: Number(r['impressions']),
        firstImpressionAt: new Date(Number(r['firstImpressionMs'])).toISOString(),
        lastImpressionAt: new Date(Number(r['lastImpressionMs'])).toISOString(),
      }))
      .sort((a, b) => (a.flag < b.flag ? -1 : a.flag > b.flag ? 1 : 0))
    return { from, to, flags, saved, complete }
  }

  /**
   * The results of the request at the end of each interval from its start: each point cumulative over [from, its end]
   * (the last ends at `to`), one query per point. A point before the flag had impressions, or before a treatment its
   * weights name was seen, has a note instead. The series stops when `signal` aborts (its caller went away) and fails
   * as unavailable past `timeoutMs` in all.
   */
  async timeseries(
    ws: Workspace,
    env: Environment,
    req: ResultsRequest,
    interval: TimeseriesInterval,
    { signal, timeoutMs = Infinity }: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<{ interval: TimeseriesInterval; points: TimeseriesPoint[] }> {
    const deadline = Date.now() + timeoutMs
    const step = TIMESERIES_INTERVALS[interval]
    checkWindow(req.from, req.to)
    const count = Math.ceil((req.to - req.from) / step)
    if (count > MAX_TIMESERIES_POINTS)
      throw invalid([
        {
          field: 'interval',
          problem: `gives ${count} points over this window; at most ${MAX_TIMESERIES_POINTS} (use a wider interval or a shorter window)`,
        },
      ])
    const points: TimeseriesPoint[] = []
    for (let i = 1; i <= count; i++) {
      if (signal?.aborted)
        throw new AppError('SINK_UNAVAILABLE', 'the results over time stopped: their caller went away', false)
      if (Date.now() > deadline)
        throw new AppError(
          'QUERY_LIMIT',
          `the results over time took longer than ${Math.round(timeoutMs / 1000)} s (${i - 1} of ${count} points): ask for a wider interval or a shorter window`,
          false,
        )
      const to = Math.min(req.to, req.from + i * step)
      try {
        points.push({ to: iso(to), results: await this.results(ws, env, { ...req, to }), note: null })
      } catch (err) {
        // A refusal of the whole request (a bad metric or setting) is the answer; one of an early point is its note.
        if (
          !(err instanceof Refusal) ||
          i === count ||
          err.details?.some((d) => d.field !== 'weights' && d.field !== 'baseline')
        )
          throw err
        points.push({ to: iso(to), results: null, note: err.message })
      }
    }
    return { interval, points }
  }

  /**
   * The results of a request. The checks role's options: `metricsOptional` lets a request name no metric,
   * `anyBaseline` takes the first treatment as the baseline when none is given, saved or called off.
   */
  async results(
    ws: Workspace,
    env: Environment,
    asked: ResultsRequest,
    { metricsOptional = false, anyBaseline = false } = {},
  ): Promise<ExperimentResults> {
    // What the request leaves out: the flag's saved weights and baseline, the workspace's defaults.
    const [saved, defaults] = await Promise.all([this.flagSettings(env, asked.flag), this.defaults(ws)])
    const req: ResultsRequest = {
      ...asked,
      sequential: asked.sequential ?? defaults.sequential,
      sequentialTuning:
        asked.sequentialTuning ?? ((asked.sequential ?? defaults.sequential) ? defaults.sequentialTuning : undefined),
      cuped: asked.cuped ?? defaults.cuped,
      correction: asked.correction ?? defaults.correction,
      baseline: asked.baseline ?? saved.baseline ?? undefined,
    }
    const savedWeights = asked.weights === undefined ? saved.weights : null
    const alpha = req.alpha ?? 0.05
    const minKeys = req.minKeys ?? DEFAULT_MIN_KEYS
    checkRequest(req, alpha, minKeys, metricsOptional)
    const metrics = await this.metrics.many(ws, req.metricIds)
    const window: Window = { environmentId: env.id, flag: req.flag, from: req.from, to: req.to, rule: req.rule }
    // Percentile caps are worked out first, over the same keys, and then applied as fixed caps.
    const percentiled = metrics.flatMap((m, i) =>
      typeof m.capPercentile === 'number' ? [{ ...m, capPercentile: m.capPercentile, i }] : [],
    )
    const caps = new Map<number, number>()
    if (percentiled.length > 0) {
      const [row] = await this.run(capsQuery(this.tables, window, percentiled))
      percentiled.forEach((m, j) => caps.set(m.i, number(row?.[`c${j}`])))
    }
    // A quantile that is not above 0 (a sparse metric: most keys 0) would cap every value to it: not applied.
    const applied = (i: number) => caps.get(i)! > 0 && Number.isFinite(caps.get(i))
    const specs = metrics.map((m, i) => (caps.has(i) ? { ...m, cap: applied(i) ? caps.get(i)! : null } : m))
    const cuped = req.cuped === true
    const [rows, before] = await Promise.all([
      this.run(metricsQuery(this.tables, window, specs, { cuped })),
      cuped ? this.run(impressionsBeforeQuery(this.tables, window, preExposureMs(metrics))) : Promise.resolve([]),
    ])
    const exposedBefore = Number(before[0]?.['impressions'] ?? 0) > 0

    let excludedKeys = 0
    // Treatment names come from SDKs: records keyed by them have no prototype.
    const perTreatment: Record<string, number> = Object.create(null) as Record<string, number>
    const sums = new Map<string, Record<string, unknown>>()
    for (const r of rows) {
      const t = String(r['treatment'])
      if (t === '') excludedKeys = Number(r['keys'])
      else {
        perTreatment[t] = Number(r['keys'])
        sums.set(t, r)
      }
    }
    const seenTreatments = Object.keys(perTreatment).sort()
    const where = `in environment ${env.id} between ${iso(req.from)} and ${iso(req.to)}${req.rule === undefined ? '' : ` under rule ${JSON.stringify(req.rule)}`}`
    if (seenTreatments.length === 0 && excludedKeys === 0)
      throw new Refusal('NOT_FOUND', `flag ${req.flag} has no impressions ${where}`)
    const seen = (t: string) => Object.hasOwn(perTreatment, t)
    // The weights name the treatments meant (others seen are only counted): the request's, the flag's saved ones, else
    // every treatment seen, in equal shares.
    const weights = req.weights ?? savedWeights ?? Object.fromEntries(seenTreatments.map((t) => [t, 1]))
    if (Object.keys(weights).length > MAX_TREATMENTS)
      throw invalid([
        {
          field: 'weights',
          problem: `are required: flag ${req.flag} shows ${seenTreatments.length} treatments ${where}; name at most ${MAX_TREATMENTS} to compare`,
        },
      ])
    // A treatment of the request's weights must be seen; one of the saved weights that is not counts in the sample
    // ratio check with no key (the worst mismatch, which is what a broken assignment looks like) and is not compared.
    const unknown = req.weights ? Object.keys(weights).filter((t) => !seen(t)) : []
    if (unknown.length > 0)
      throw invalid([
        {
          field: 'weights',
          problem: `names ${unknown.map((t) => JSON.stringify(t.slice(0, 64))).join(', ')}, not a treatment ${where}; they are ${seenTreatments.join(', ')}`,
        },
      ])
    const treatments = Object.keys(weights).filter(seen).sort()
    const baseline = req.baseline ?? (treatments.includes('off') ? 'off' : anyBaseline ? treatments[0] : undefined)
    if (baseline === undefined)
      throw invalid([
        {
          field: 'baseline',
          problem: `is required (no treatment is called off); the treatments are ${treatments.join(', ')}`,
        },
      ])
    if (!treatments.includes(baseline))
      throw invalid([
        {
          field: 'baseline',
          problem: `${JSON.stringify(baseline.slice(0, 64))} is not a treatment of flag ${req.flag} ${where}${req.weights ? ' given a weight' : ''}; they are ${treatments.join(', ') || 'none (every key saw more than one)'}`,
        },
      ])
    const srm = sampleRatio(perTreatment, weights)
    const correction = req.correction ?? 'bh'
    const sequentialTuning = req.sequential ? (req.sequentialTuning ?? DEFAULT_SEQUENTIAL_TUNING) : undefined
    const guardrails = new Set(req.guardrails ?? [])
    const comparing: Comparing = { treatments, baseline, alpha, minKeys, sequentialTuning, cuped }
    const results = specs.map((m, i) =>
      metricResult(
        { ...m, guardrail: m.guardrail === true || guardrails.has(m.id) },
        i,
        comparing,
        sums,
        caps.has(i)
          ? { value: caps.get(i)!, percentile: metrics[i]!.capPercentile!, applied: applied(i) }
          : m.cap === null || m.cap === undefined
            ? null
            : { value: m.cap, percentile: null, applied: true },
      ),
    )
    // The correction's family: every comparison of the request (all metrics, all treatments) but the guardrails'.
    const family = results.flatMap((r) => (r.guardrail ? [] : r.comparisons))
    const pValues = family.map((c) => c.absolute.pValue)
    const adjusted = correction === 'bh' ? benjaminiHochberg(pValues) : correction === 'holm' ? holm(pValues) : pValues
    const adjustedOf = new Map(family.map((c, i) => [c, adjusted[i] ?? null]))
    const metricsOut = results.map((r) => ({
      ...r,
      comparisons: r.comparisons.map((c) =>
        finish(c, r.guardrail ? c.absolute.pValue : (adjustedOf.get(c) ?? null), comparing, {
          perTreatment: r.perTreatment,
          direction: r.desiredDirection,
          guardrail: r.guardrail,
        }),
      ),
    }))
    return {
      flag: req.flag,
      environmentId: env.id,
      from: iso(req.from),
      to: iso(req.to),
      rule: req.rule ?? null,
      baseline,
      alpha,
      minKeys,
      mode: {
        test: sequentialTuning === undefined ? 'fixed-horizon' : 'sequential',
        sequentialTuning: sequentialTuning ?? null,
        cuped,
        correction,
        note: exposedBefore
          ? `the flag has impressions in the ${Math.round(preExposureMs(metrics) / 86_400_000)} days before from: keys exposed then have treated time in their pre-exposure values, which CUPED would partly remove from the effect; start the window when the experiment started`
          : null,
      },
      exposure: { keys: seenTreatments.reduce((s, t) => s + perTreatment[t]!, 0), perTreatment, excludedKeys },
      srm: {
        pValue: srm.pValue,
        chiSquared: srm.chiSquared,
        mismatch: srm.pValue < SRM_THRESHOLD,
        expected: srm.expected,
      },
      metrics: metricsOut,
    }
  }
}

export const TIMESERIES_INTERVALS = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const
export type TimeseriesInterval = keyof typeof TIMESERIES_INTERVALS
export const MAX_TIMESERIES_POINTS = 100

/** One point of a results timeseries: the results of [from, to] (cumulative), or why there are none yet. */
export interface TimeseriesPoint {
  readonly to: string
  readonly results: ExperimentResults | null
  readonly note: string | null
}

type Pending = Omit<ComparisonView, 'adjustedPValue' | 'significant' | 'impact' | 'note' | 'guardrail'> & {
  readonly reason: string | null
}

/** What a request compares: its treatments against the baseline, at alpha, with at least minKeys keys each, how. */
interface Comparing {
  readonly treatments: readonly string[]
  readonly baseline: string
  readonly alpha: number
  readonly minKeys: number
  readonly sequentialTuning: number | undefined
  readonly cuped: boolean
}

/** The longest pre-exposure window of the metrics, with the attribution margin before exposure. */
const preExposureMs = (metrics: readonly Metric[]) =>
  ATTRIBUTION_MS + Math.max(0, ...metrics.map((m) => m.preExposureDays ?? DEFAULT_PRE_EXPOSURE_DAYS)) * 86_400_000

/** A number ClickHouse answered; a sum beyond a double comes back as null (it writes inf so): NaN, never 0. */
const number = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : Number.NaN)

function metricResult(
  m: Metric & { guardrail: boolean },
  i: number,
  { treatments, baseline, alpha, sequentialTuning, cuped }: Comparing,
  sums: Map<string, Record<string, unknown>>,
  cap: MetricResult['cap'],
) {
  const proportion = m.type === 'percent_of_keys'
  const covariates = new Map<string, CovariateSums>()
  const summaries = new Map<string, Summary>()
  for (const t of treatments) {
    const r = sums.get(t)!
    const s: CovariateSums = {
      n: number(r[`n${i}`]),
      sum: number(r[`s${i}`]),
      sumSquares: number(r[`q${i}`]),
      preSum: cuped ? number(r[`ps${i}`]) : 0,
      preSumSquares: cuped ? number(r[`pq${i}`]) : 0,
      sumProducts: cuped ? number(r[`pp${i}`]) : 0,
    }
    covariates.set(t, s)
    summaries.set(t, proportion ? proportionSummary(s) : meanSummary(s))
  }
  const perTreatment = Object.fromEntries(
    [...summaries].map(([t, s]) => [t, { keys: s.n, mean: s.mean, variance: s.variance, sum: s.sum }]),
  )
  const worseIf = !m.guardrail ? undefined : m.desiredDirection === 'increase' ? 'decrease' : 'increase'
  const options = { alpha, sequentialTuning, worseIf } as const
  const comparisons: Pending[] = treatments
    .filter((t) => t !== baseline)
    .map((t) => {
      let a = summaries.get(baseline)!
      let b = summaries.get(t)!
      let adjustment: Pending['cuped'] = null
      if (cuped) {
        // θ pooled over the two arms compared, as gbstats does.
        const arms = [covariates.get(baseline)!, covariates.get(t)!] as const
        const theta = cupedTheta(arms, proportion)
        const before = a.variance / a.n + b.variance / b.n
        a = cupedSummary(arms[0], theta, proportion)
        b = cupedSummary(arms[1], theta, proportion)
        const after = a.variance / a.n + b.variance / b.n
        adjustment = { theta, varianceReduction: before > 0 && Number.isFinite(after) ? 1 - after / before : null }
      }
      const c = compare(a, b, options)
      return {
        treatment: t,
        baseline,
        absolute: c.absolute,
        relative: c.relative,
        degreesOfFreedom: c.degreesOfFreedom,
        reason: c.reason,
        cuped: adjustment,
      }
    })
  return {
    metricId: m.id,
    name: m.name,
    type: m.type,
    desiredDirection: m.desiredDirection,
    guardrail: m.guardrail,
    cap,
    cuped: cuped
      ? {
          preExposureDays: m.preExposureDays ?? DEFAULT_PRE_EXPOSURE_DAYS,
          varianceReduction: cupedVarianceReduction([...covariates.values()], proportion),
        }
      : null,
    perTreatment,
    comparisons,
  }
}

function finish(
  c: Pending,
  adjustedPValue: number | null,
  { alpha, minKeys }: Comparing,
  {
    perTreatment,
    direction,
    guardrail,
  }: {
    perTreatment: Readonly<Record<string, TreatmentStats>>
    direction: 'increase' | 'decrease'
    guardrail: boolean
  },
): ComparisonView {
  const { reason, ...rest } = c
  const small = [c.baseline, c.treatment].filter((t) => perTreatment[t]!.keys < minKeys)
  const significant = adjustedPValue !== null && adjustedPValue < alpha && small.length === 0
  const better = direction === 'increase' ? c.absolute.estimate > 0 : c.absolute.estimate < 0
  const worse = direction === 'increase' ? c.absolute.estimate < 0 : c.absolute.estimate > 0
  const note =
    reason ?? (small.length > 0 ? `fewer than ${minKeys} keys in ${small.join(' and ')}: not called significant` : null)
  return {
    ...rest,
    adjustedPValue,
    significant,
    impact: significant ? (better ? 'desired' : 'undesired') : 'inconclusive',
    note,
    guardrail: !guardrail ? null : significant ? 'failing' : worse ? 'at risk' : 'ok',
  }
}

function checkRequest(req: ResultsRequest, alpha: number, minKeys: number, metricsOptional: boolean): void {
  checkWindow(req.from, req.to)
  const problems = []
  if (req.flag.length === 0 || req.flag.length > MAX_NAME)
    problems.push({ field: 'flag', problem: `must be 1 to ${MAX_NAME} characters` })
  if ((req.metricIds.length === 0 && !metricsOptional) || req.metricIds.some((id) => id === ''))
    problems.push({ field: 'metrics', problem: 'must be metric ids separated by commas, none empty' })
  if (req.metricIds.length > MAX_METRICS_PER_REQUEST)
    problems.push({
      field: 'metrics',
      problem: `names ${req.metricIds.length} metrics; at most ${MAX_METRICS_PER_REQUEST} per request`,
    })
  if (new Set(req.metricIds).size !== req.metricIds.length)
    problems.push({ field: 'metrics', problem: 'names a metric twice' })
  if (!(alpha >= 1e-6 && alpha < 0.5))
    problems.push({ field: 'alpha', problem: 'must be at least 0.000001 and below 0.5' })
  if (!Number.isSafeInteger(minKeys) || minKeys < 2)
    problems.push({ field: 'minKeys', problem: 'must be an integer of at least 2' })
  if (req.rule !== undefined && (req.rule === '' || req.rule.length > MAX_NAME || !req.rule.isWellFormed()))
    problems.push({ field: 'rule', problem: `must be well-formed text of 1 to ${MAX_NAME} characters` })
  if (req.baseline !== undefined && (req.baseline.length === 0 || req.baseline.length > MAX_NAME))
    problems.push({ field: 'baseline', problem: `must be 1 to ${MAX_NAME} characters` })
  if (req.correction !== undefined && !CORRECTIONS.includes(req.correction))
    problems.push({ field: 'correction', problem: `must be one of ${CORRECTIONS.join(', ')}` })
  if (req.sequentialTuning !== undefined) {
    if (!(Number.isFinite(req.sequentialTuning) && req.sequentialTuning >= 1 && req.sequentialTuning <= 1e12))
      problems.push({ field: 'sequentialTuning', problem: 'must be a number from 1 to 1000000000000' })
    else if (req.sequential !== true)
      problems.push({ field: 'sequentialTuning', problem: 'applies only with sequential=true' })
  }
  for (const id of req.guardrails ?? [])
    if (!req.metricIds.includes(id))
      problems.push({
        field: 'guardrails',
        problem: `names ${JSON.stringify(id.slice(0, 64))}, not one of the metrics`,
      })
  if (req.weights !== undefined) problems.push(...weightProblems(req.weights))
  if (problems.length > 0) throw invalid(problems, 'invalid results request')
}

function weightProblems(weights: Readonly<Record<string, number>>) {
  const problems = []
  const entries = Object.entries(weights)
  if (entries.length === 0 || entries.length > MAX_TREATMENTS)
    problems.push({ field: 'weights', problem: `must give 1 to ${MAX_TREATMENTS} treatments a weight` })
  for (const [t, w] of entries)
    if (!(Number.isFinite(w) && w > 0))
      problems.push({
        field: 'weights',
        problem: `weight of ${JSON.stringify(t.slice(0, 64))} must be a positive number`,
      })
  if (entries.some(([t]) => t === '' || t.length > MAX_NAME))
    problems.push({ field: 'weights', problem: `treatment names must be 1 to ${MAX_NAME} characters` })
  return problems
}

function checkWindow(from: number, to: number): void {
  const problems = []
  for (const [field, v] of [['from', from] as const, ['to', to] as const]) {
    if (!Number.isSafeInteger(v) || v < 0 || v > MAX_EPOCH_MS)
      problems.push({ field, problem: 'must be a time between 1970 and 2106 (epoch ms or ISO 8601)' })
  }
  if (problems.length === 0 && to <= from) problems.push({ field: 'to', problem: 'must be after from' })
  if (problems.length === 0 && to - from > MAX_WINDOW_MS)
    problems.push({ field: 'to', problem: 'must be at most 366 days after from' })
  if (problems.length > 0) throw invalid(problems, 'invalid window')
}

/**
 * A time given as epoch ms (digits) or ISO 8601 (a date alone is UTC midnight; a date-time needs its offset); INVALID
 * naming the field otherwise, and for a date that does not exist (2026-02-30, 2026-04-31): Date.parse would roll it
 * over into the next month.
 */
export function parseTime(field: string, text: string): number {
  if (/^\d{1,13}$/.test(text)) return Number(text)
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2})))?$/.exec(text)
  const ms = iso ? Date.parse(text) : Number.NaN
  if (!iso || !Number.isFinite(ms))
    throw invalid([
      { field, problem: 'must be epoch milliseconds or an ISO 8601 date-time with its offset (Z or ±hh:mm)' },
    ])
  const [year, month, day, hour = '0', minute = '0', second = '0', offsetHours = '0', offsetMinutes = '0'] = iso
    .slice(1)
    .map((part) => part ?? undefined)
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate()
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysInMonth)
    throw invalid([{ field, problem: `${text.slice(0, 10)} is not a date of the calendar` }])
  if (
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second) > 59 ||
    Number(offsetHours) > 23 ||
    Number(offsetMinutes) > 59
  )
    throw invalid([{ field, problem: `${JSON.stringify(text)} is not a time of day` }])
  return ms
}

/** `on:50,off:50` as weights; INVALID naming the entry that is not `<treatment>:<positive number>`. */
export function parseWeights(text: string): Record<string, number> {
  const weights: Record<string, number> = Object.create(null) as Record<string, number>
  for (const part of text.split(',')) {
    const at = part.lastIndexOf(':')
    const name = part.slice(0, at).trim()
    const weight = Number(part.slice(at + 1))
    if (at <= 0 || name === '' || !(Number.isFinite(weight) && weight > 0))
      throw invalid([
        { field: 'weights', problem: `${JSON.stringify(part.slice(0, 64))} is not <treatment>:<positive number>` },
      ])
    if (Object.hasOwn(weights, name))
      throw invalid([{ field: 'weights', problem: `names ${JSON.stringify(name.slice(0, 64))} twice` }])
    weights[name] = weight
  }
  return weights
}

const iso = (ms: number) => new Date(ms).toISOString()

/** `items` in order, in pages whose sizes add up to at most `max` (an item larger than `max` alone). */
function pages<T>(items: readonly T[], size: (item: T) => number, max: number): T[][] {
  const out: T[][] = []
  let page: T[] = []
  let used = 0
  for (const item of items) {
    if (page.length > 0 && used + size(item) > max) {
      out.push(page)
      page = []
      used = 0
    }
    page.push(item)
    used += size(item)
  }
  if (page.length > 0) out.push(page)
  return out
}
