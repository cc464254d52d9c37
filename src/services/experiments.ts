// Experiment results as a use case, whoever asks (the results API or `sluice experiments`): the
// request's rules (window, alpha, weights, baseline, limits), the two queries (exposures; per-treatment
// sums of each metric's per-key values), and the statistics over their sums.
import { experimentsQuery, metricsQuery, type MetricType, type Tables, type Window } from '../analysis/queries.js'
import type { ClickHouseClient } from '@clickhouse/client'
import { clickhouseRunner, type AnalysisLimits, type QueryRunner } from '../analysis/clickhouse.js'
import {
  benjaminiHochberg,
  meanSummary,
  proportionSummary,
  sampleRatio,
  welch,
  type Comparison,
  type Summary,
} from '../analysis/statistics.js'
import { invalid, Refusal } from '../shared/errors.js'
import type { Metric } from '../state/redis/metrics.js'
import type { Environment, Workspace } from '../state/redis/tenancy.js'
import type { MetricService } from './metrics.js'

export const MAX_METRICS_PER_REQUEST = 20
export const MAX_TREATMENTS = 20
export const MAX_WINDOW_MS = 366 * 24 * 3600 * 1000
export const DEFAULT_MIN_KEYS = 355
export const SRM_THRESHOLD = 0.001
export const MAX_FLAGS_LISTED = 1000
const MAX_EPOCH_MS = 4_294_967_295_000
const MAX_NAME = 250

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
}

export interface MetricResult {
  readonly metricId: string
  readonly name: string
  readonly type: MetricType
  readonly desiredDirection: 'increase' | 'decrease'
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
): ExperimentService {
  const db = settings.database
  return new ExperimentService(
    clickhouseRunner(client, settings),
    { events: `${db}.events`, impressions: `${db}.impressions` },
    metrics,
  )
}

export class ExperimentService {
  constructor(
    private readonly run: QueryRunner,
    private readonly tables: Tables,
    private readonly metrics: MetricService,
  ) {}

  /**
   * The flags with impressions in the environment within [from, to] (default: the 30 days before now), with their
   * treatments.
   */
  async flags(
    env: Environment,
    fromText?: string,
    toText?: string,
  ): Promise<{ from: number; to: number; flags: FlagSeen[] }> {
    const to = toText === undefined ? Date.now() : parseTime('to', toText)
    const from = fromText === undefined ? to - 30 * 24 * 3600 * 1000 : parseTime('from', fromText)
    checkWindow(from, to)
    const rows = await this.run(experimentsQuery(this.tables, env.id, from, to, MAX_FLAGS_LISTED))
    const flags = rows.map((r) => ({
      flag: String(r['flag']),
      treatments: (r['treatments'] as string[]).slice().sort(),
      keys: Number(r['keys']),
      impressions: Number(r['impressions']),
      firstImpressionAt: new Date(Number(r['firstImpressionMs'])).toISOString(),
      lastImpressionAt: new Date(Number(r['lastImpressionMs'])).toISOString(),
    }))
    return { from, to, flags }
  }

  async results(ws: Workspace, env: Environment, req: ResultsRequest): Promise<ExperimentResults> {
    const alpha = req.alpha ?? 0.05
    const minKeys = req.minKeys ?? DEFAULT_MIN_KEYS
    checkRequest(req, alpha, minKeys)
    const metrics = await this.metrics.many(ws, req.metricIds)
    const window: Window = { environmentId: env.id, flag: req.flag, from: req.from, to: req.to, rule: req.rule }
    const rows = await this.run(metricsQuery(this.tables, window, metrics))

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
    // The weights name the treatments analysed (others seen are only counted); by default all of them.
    if (req.weights === undefined && seenTreatments.length > MAX_TREATMENTS)
      throw invalid([
        {
          field: 'weights',
          problem: `are required: flag ${req.flag} shows ${seenTreatments.length} treatments ${where}; name at most ${MAX_TREATMENTS} to compare`,
        },
      ])
    const weights = req.weights ?? Object.fromEntries(seenTreatments.map((t) => [t, 1]))
    const unknown = Object.keys(weights).filter((t) => !seen(t))
    if (unknown.length > 0)
      throw invalid([
        {
          field: 'weights',
          problem: `names ${unknown.map((t) => JSON.stringify(t.slice(0, 64))).join(', ')}, not a treatment ${where}; they are ${seenTreatments.join(', ')}`,
        },
      ])
    const treatments = Object.keys(weights).sort()
    const baseline = req.baseline ?? (treatments.includes('off') ? 'off' : undefined)
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
    const comparing: Comparing = { treatments, baseline, alpha, minKeys }
    const results = metrics.map((m, i) => metricResult(m, i, comparing, sums))
    // Benjamini–Hochberg over every comparison of the request (all metrics, all treatments).
    const flat = results.flatMap((r) => r.comparisons)
    const adjusted = benjaminiHochberg(flat.map((c) => c.absolute.pValue))
    let at = 0
    const metricsOut = results.map((r, ri) => ({
      ...r,
      comparisons: r.comparisons.map((c) =>
        finish(c, adjusted[at++] ?? null, comparing, {
          perTreatment: r.perTreatment,
          direction: metrics[ri]!.desiredDirection,
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

type Pending = Omit<ComparisonView, 'adjustedPValue' | 'significant' | 'impact' | 'note'> & {
  readonly reason: string | null
}

/** What a request compares: its treatments against the baseline, at alpha, with at least minKeys keys each. */
interface Comparing {
  readonly treatments: readonly string[]
  readonly baseline: string
  readonly alpha: number
  readonly minKeys: number
}

function metricResult(
  m: Metric,
  i: number,
  { treatments, baseline, alpha }: Comparing,
  sums: Map<string, Record<string, unknown>>,
) {
  const summaries = new Map<string, Summary>()
  for (const t of treatments) {
    const r = sums.get(t)!
    // A sum beyond a double comes back as null (ClickHouse writes inf so): kept as NaN, never as 0.
    const number = (v: unknown) =>
      typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : Number.NaN
    const s = { n: number(r[`n${i}`]), sum: number(r[`s${i}`]), sumSquares: number(r[`q${i}`]) }
    summaries.set(t, m.type === 'percent_of_keys' ? proportionSummary(s) : meanSummary(s))
  }
  const perTreatment = Object.fromEntries(
    [...summaries].map(([t, s]) => [t, { keys: s.n, mean: s.mean, variance: s.variance, sum: s.sum }]),
  )
  const base = summaries.get(baseline)!
  const comparisons: Pending[] = treatments
    .filter((t) => t !== baseline)
    .map((t) => {
      const c = welch(base, summaries.get(t)!, alpha)
      return {
        treatment: t,
        baseline,
        absolute: c.absolute,
        relative: c.relative,
        degreesOfFreedom: c.degreesOfFreedom,
        reason: c.reason,
      }
    })
  return { metricId: m.id, name: m.name, type: m.type, desiredDirection: m.desiredDirection, perTreatment, comparisons }
}

function finish(
  c: Pending,
  adjustedPValue: number | null,
  { alpha, minKeys }: Comparing,
  {
    perTreatment,
    direction,
  }: { perTreatment: Readonly<Record<string, TreatmentStats>>; direction: 'increase' | 'decrease' },
): ComparisonView {
  const { reason, ...rest } = c
  const small = [c.baseline, c.treatment].filter((t) => perTreatment[t]!.keys < minKeys)
  const significant = adjustedPValue !== null && adjustedPValue < alpha && small.length === 0
  const better = direction === 'increase' ? c.absolute.estimate > 0 : c.absolute.estimate < 0
  const note =
    reason ?? (small.length > 0 ? `fewer than ${minKeys} keys in ${small.join(' and ')}: not called significant` : null)
  return {
    ...rest,
    adjustedPValue,
    significant,
    impact: significant ? (better ? 'desired' : 'undesired') : 'inconclusive',
    note,
  }
}

function checkRequest(req: ResultsRequest, alpha: number, minKeys: number): void {
  checkWindow(req.from, req.to)
  const problems = []
  if (req.flag.length === 0 || req.flag.length > MAX_NAME)
    problems.push({ field: 'flag', problem: `must be 1 to ${MAX_NAME} characters` })
  if (req.metricIds.length === 0 || req.metricIds.some((id) => id === ''))
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
  if (req.weights !== undefined) {
    const entries = Object.entries(req.weights)
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
  }
  if (problems.length > 0) throw invalid(problems, 'invalid results request')
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
 * naming the field otherwise.
 */
export function parseTime(field: string, text: string): number {
  const ms = /^\d{1,13}$/.test(text)
    ? Number(text)
    : /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(text)
      ? Date.parse(text)
      : Number.NaN
  if (!Number.isFinite(ms))
    throw invalid([
      { field, problem: 'must be epoch milliseconds or an ISO 8601 date-time with its offset (Z or ±hh:mm)' },
    ])
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
