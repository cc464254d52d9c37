// Experiment results as a use case, whoever asks (the results API or `sluice experiments`): the
// orchestrator. It fills a request from the flag's saved settings and the workspace's defaults, asks
// ClickHouse for the sums (percentile caps first when a metric has one; per-treatment sums of each
// metric's per-key values, with the pre-exposure sums under CUPED), and hands them to the metric results
// (metric-results.ts), which the statistic models and tests (analysis/) compute; then the correction
// over the family of comparisons and the sample ratio check.
import {
  ATTRIBUTION_MS,
  capsQuery,
  DEFAULT_PRE_EXPOSURE_DAYS,
  experimentsQuery,
  exposuresByDayQuery,
  impressionsBeforeQuery,
  metricsQuery,
  QUANTILE_TYPES,
  topSlicesQuery,
  quantileClustersQuery,
  quantilesQueries,
  type Dimension,
  type SliceSource,
  type Tables,
  type Window,
} from '../../analysis/queries.js'
import type { ClickHouseClient } from '@clickhouse/client'
import { clickhouseRunner, type AnalysisLimits, type QueryRunner } from '../../analysis/clickhouse.js'
import { adjust } from '../../analysis/corrections.js'
import { sampleRatio } from '../../analysis/frequentist.js'
import { AppError, invalid, Refusal } from '../../shared/errors.js'
import type { ExperimentDefaults, ExperimentStore, FlagSettings } from '../../state/redis/experiments.js'
import type { Metric } from '../../state/redis/metrics.js'
import type { Environment, Workspace } from '../../state/redis/tenancy.js'
import type { MetricService } from '../metrics.js'
import { FLAT_PRIOR, type GaussianPrior } from '../../analysis/bayesian.js'
import { identitySource, type IdentityReader } from './identity-dimension.js'
import { checkPowerRequest, powerAnswer, type PowerAnswer, type PowerRequest } from './power.js'
import { breakdown, CORRECTION_SCOPES, DEFAULT_MAX_SLICES, type Breakdown, type Sliced } from './slices.js'
import {
  finish,
  metricResult,
  number,
  quantileFromGrid,
  type Comparing,
  type MetricResult,
  type TreatmentQuantile,
} from './metric-results.js'
import {
  checkRequest,
  checkWindow,
  CORRECTIONS,
  DEFAULT_MIN_KEYS,
  DEFAULT_PRIOR_VARIANCE,
  DEFAULT_SEQUENTIAL_TUNING,
  engineProblems,
  ENGINES,
  priorProblems,
  MAX_NAME,
  MAX_TREATMENTS,
  parseDimension,
  parseTime,
  weightProblems,
  type Correction,
  type Engine,
  type ResultsRequest,
} from './request.js'

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

export interface ExperimentResults {
  readonly flag: string
  readonly environmentId: string
  readonly from: string
  readonly to: string
  readonly rule: string | null
  readonly baseline: string
  readonly alpha: number
  readonly minKeys: number
  /** How the results were computed: the engine and its prior, the test, its tuning, CUPED, and the correction. */
  readonly mode: {
    readonly engine: Engine
    /** The Bayesian engine's prior on the effect: flat, or proper on the relative lift; null under the frequentist. */
    readonly prior:
      | { readonly proper: false }
      | { readonly proper: true; readonly mean: number; readonly variance: number; readonly scale: 'relative' }
      | null
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
  /** The results by slice of the request's dimension; null without one. */
  readonly dimension: Breakdown | null
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
  identities?: IdentityReader,
): ExperimentService {
  const db = settings.database
  return new ExperimentService(
    clickhouseRunner(client, settings),
    { events: `${db}.events`, impressions: `${db}.impressions` },
    metrics,
    store,
    identities,
  )
}

export const BUILT_IN_DEFAULTS: ExperimentDefaults = {
  engine: 'frequentist',
  sequential: false,
  sequentialTuning: DEFAULT_SEQUENTIAL_TUNING,
  cuped: false,
  correction: 'bh',
  prior: 'flat',
  priorMean: 0,
  priorVariance: DEFAULT_PRIOR_VARIANCE,
  correctionScope: 'all',
  checksDimension: 'rule',
}

export class ExperimentService {
  constructor(
    private readonly run: QueryRunner,
    private readonly tables: Tables,
    private readonly metrics: MetricService,
    /** Flags' saved settings and the workspace's defaults, when kept (absent: the built-in defaults). */
    private readonly store?: ExperimentStore,
    /** The identities' attributes, for breakdowns by one (absent: such a breakdown is refused). */
    private readonly identities?: IdentityReader,
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
    if (!ENGINES.includes(defaults.engine))
      problems.push({ field: 'engine', problem: `must be one of ${ENGINES.join(', ')}` })
    problems.push(...priorProblems(defaults))
    if (!CORRECTION_SCOPES.includes(defaults.correctionScope))
      problems.push({ field: 'correctionScope', problem: `must be one of ${CORRECTION_SCOPES.join(', ')}` })
    if (defaults.checksDimension !== null)
      try {
        parseDimension(defaults.checksDimension)
      } catch (err) {
        if (!(err instanceof Refusal)) throw err
        problems.push(...(err.details ?? []).map((d) => ({ ...d, field: 'checksDimension' })))
      }
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
   * The keys and days an experiment needs to detect an effect on one metric (power.ts): the metric's results over the
   * window (frequentist, fixed-horizon, without CUPED: its baseline's mean and variance, the treatments' shares), and
   * the keys first exposed each day of it.
   */
  async power(ws: Workspace, env: Environment, req: PowerRequest): Promise<PowerAnswer> {
    checkPowerRequest(req)
    const results = await this.results(ws, env, {
      flag: req.flag,
      metricIds: [req.metricId],
      from: req.from,
      to: req.to,
      baseline: req.baseline,
      weights: req.weights,
      rule: req.rule,
      alpha: req.alpha,
      engine: 'frequentist',
      sequential: false,
      cuped: false,
    })
    const window: Window = { environmentId: env.id, flag: req.flag, from: req.from, to: req.to, rule: req.rule }
    const perDay = await this.run(exposuresByDayQuery(this.tables, window))
    return powerAnswer(
      req,
      results,
      perDay.map((r) => ({ day: Number(r['day']), keys: Number(r['keys']) })),
    )
  }

  /**
   * Each quantile metric's figures per treatment (undefined for the others): its quantile and the bounds of the n*
   * picked from the quantiles query's rows, and for event-level ones the clusters query's sums at those quantiles.
   */
  private async quantiles(
    window: Window,
    specs: readonly Metric[],
    answers: readonly (readonly Record<string, unknown>[])[],
  ): Promise<(Map<string, TreatmentQuantile> | undefined)[]> {
    const rows = answers.flat()
    const out = specs.map((m, i) => {
      if (!QUANTILE_TYPES.includes(m.type)) return undefined
      const perTreatment = new Map<string, TreatmentQuantile>()
      for (const r of rows)
        if (Array.isArray(r[`qq${i}`]))
          perTreatment.set(String(r['treatment']), {
            sums: quantileFromGrid(m.quantile!, number(r[`qn${i}`]), (r[`qq${i}`] as unknown[]).map(number)),
          })
      return perTreatment
    })
    // The treatments with a quantile to count the keys' events at or below (none without values: no clusters).
    const at = out.map((q, i) => {
      if (specs[i]!.type !== 'quantile_of_events' || !q) return undefined
      const found = new Map(
        [...q].flatMap(([t, x]) => (Number.isFinite(x.sums.estimate) ? [[t, x.sums.estimate] as const] : [])),
      )
      return found.size > 0 ? found : undefined
    })
    if (at.every((q) => q === undefined)) return out
    const clustered = out.map((q, i) => (at[i] ? q : undefined))
    for (const r of await this.run(quantileClustersQuery(this.tables, window, specs, at)))
      clustered.forEach((q, i) => {
        const x = q?.get(String(r['treatment']))
        if (x)
          x.clusters = {
            keys: number(r[`cu${i}`]),
            sum: number(r[`cs${i}`]),
            sumSquares: number(r[`css${i}`]),
            denominatorSum: number(r[`cd${i}`]),
            denominatorSumSquares: number(r[`cdd${i}`]),
            sumProducts: number(r[`cp${i}`]),
          }
      })
    return out
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
    const engine = asked.engine ?? defaults.engine
    const problems = engineProblems(asked, engine)
    if (problems.length > 0) throw invalid(problems, 'invalid results request')
    // The workspace's sequential and correction defaults are the frequentist engine's; its prior the Bayesian one's.
    const bayesian = engine === 'bayesian'
    const sequential = asked.sequential ?? (!bayesian && defaults.sequential)
    const properAsked = asked.priorMean !== undefined || asked.priorVariance !== undefined
    const proper = (asked.prior ?? (properAsked ? 'proper' : defaults.prior)) === 'proper'
    const req: ResultsRequest = {
      ...asked,
      engine,
      sequential,
      sequentialTuning: asked.sequentialTuning ?? (sequential ? defaults.sequentialTuning : undefined),
      cuped: asked.cuped ?? defaults.cuped,
      correction: bayesian ? 'none' : (asked.correction ?? defaults.correction),
      baseline: asked.baseline ?? saved.baseline ?? undefined,
      correctionScope: asked.correctionScope ?? (asked.dimension ? defaults.correctionScope : undefined),
    }
    const prior: GaussianPrior | undefined = !bayesian
      ? undefined
      : proper
        ? {
            proper,
            mean: asked.priorMean ?? defaults.priorMean,
            variance: asked.priorVariance ?? defaults.priorVariance,
          }
        : FLAT_PRIOR
    const savedWeights = asked.weights === undefined ? saved.weights : null
    const alpha = req.alpha ?? 0.05
    const minKeys = req.minKeys ?? DEFAULT_MIN_KEYS
    checkRequest(req, alpha, minKeys, metricsOptional)
    const metrics = await this.metrics.many(ws, req.metricIds)
    const source = req.dimension === undefined ? undefined : await this.sliceSource(env, req.dimension)
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
    const quantileMetrics = specs.some((m) => QUANTILE_TYPES.includes(m.type))
    const [rows, before, quantileRows] = await Promise.all([
      this.run(metricsQuery(this.tables, window, specs, { cuped })),
      cuped ? this.run(impressionsBeforeQuery(this.tables, window, preExposureMs(metrics))) : Promise.resolve([]),
      quantileMetrics
        ? Promise.all(quantilesQueries(this.tables, window, specs).map((q) => this.run(q)))
        : Promise.resolve([]),
    ])
    const quantiles = await this.quantiles(window, specs, quantileRows)
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
    const comparing: Comparing = { treatments, baseline, alpha, minKeys, sequentialTuning, cuped, prior }
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
        quantiles[i],
      ),
    )
    // The correction's family: every comparison of the request (all metrics, all treatments) but the guardrails'.
    const family = results.flatMap((r) => (r.guardrail ? [] : r.comparisons))
    const pValues = family.map((c) => c.absolute.pValue)
    const adjusted = adjust(pValues, correction)
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
    const dimension =
      source === undefined
        ? null
        : await this.breakdown(window, req, source, specs, {
            specs,
            comparing,
            guardrail: (m) => m.guardrail === true || guardrails.has(m.id),
            weights,
            correction,
            srmThreshold: SRM_THRESHOLD,
            caps: results.map((r) => r.cap),
            whole: sums,
          })
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
        engine,
        prior: prior === undefined ? null : prior.proper ? { ...prior, scale: 'relative' } : { proper: false },
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
      dimension,
    }
  }

  /**
   * The results by slice: the top values of the dimension among the exposed keys (one statement, its memory bounded
   * by the number of slices), then the sums grouped by slice and treatment (one statement).
   */
  private async breakdown(
    window: Window,
    req: ResultsRequest,
    source: SliceSource,
    specs: readonly Metric[],
    sliced: Sliced,
  ): Promise<Breakdown> {
    const maxSlices = req.maxSlices ?? DEFAULT_MAX_SLICES
    const [top] = await this.run(topSlicesQuery(this.tables, window, source, maxSlices))
    const values = ((top?.['top'] as unknown[] | undefined) ?? []).map(String)
    const rows = await this.run(
      metricsQuery(this.tables, window, specs, { cuped: req.cuped === true, slices: { dimension: source, values } }),
    )
    return breakdown(rows, values, sliced, req.dimension!, maxSlices, req.correctionScope ?? 'all')
  }

  /** The dimension as the queries read it: an identity attribute's values are read from Redis first. */
  private async sliceSource(env: Environment, d: Dimension): Promise<SliceSource> {
    if (d.kind !== 'identity') return d
    if (!this.identities)
      throw invalid([{ field: 'dimension', problem: 'cannot be an identity attribute here (no identities are kept)' }])
    return identitySource(await this.identities(env, d.trafficType, d.attribute))
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

/** The longest pre-exposure window of the metrics, with the attribution margin before exposure. */
const preExposureMs = (metrics: readonly Metric[]) =>
  ATTRIBUTION_MS + Math.max(0, ...metrics.map((m) => m.preExposureDays ?? DEFAULT_PRE_EXPOSURE_DAYS)) * 86_400_000

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
