// A results request as asked (by the results API, `sluice experiments` or the checks role): its fields,
// the limits on them, and the checks that refuse a bad one naming the field; times and weights parsed
// from their text forms.
import type { Dimension } from '../../analysis/queries.js'
import { EVENT_TYPE_ID } from '../../pipeline/events.js'
import { invalid } from '../../shared/errors.js'
import { PROPERTY_NAME } from '../metrics.js'
import { ATTRIBUTE_ID } from '../../state/redis/identities.js'
import { CORRECTION_SCOPES, MAX_SLICES, type CorrectionScope } from './slices.js'

export const MAX_METRICS_PER_REQUEST = 20
export const MAX_TREATMENTS = 20
export const MAX_WINDOW_MS = 366 * 24 * 3600 * 1000
export const DEFAULT_MIN_KEYS = 355
const MAX_EPOCH_MS = 4_294_967_295_000
export const MAX_NAME = 250
export const DEFAULT_SEQUENTIAL_TUNING = 5000
export const CORRECTIONS = ['bh', 'holm', 'none'] as const
export type Correction = (typeof CORRECTIONS)[number]
export const ENGINES = ['frequentist', 'bayesian'] as const
export type Engine = (typeof ENGINES)[number]
export const PRIORS = ['flat', 'proper'] as const
export type PriorKind = (typeof PRIORS)[number]
/** GrowthBook's default proper prior on the relative lift: N(0, 0.3²). */
export const DEFAULT_PRIOR_VARIANCE = 0.09
const MAX_PRIOR = 1e6

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
  /** Frequentist tests (p-values, corrected) or the Bayesian reading (chance to win, risk, credible intervals). */
  readonly engine?: Engine | undefined
  /** Under engine=bayesian: a flat prior on the effect, or a proper one (Gaussian, on the relative lift). */
  readonly prior?: PriorKind | undefined
  readonly priorMean?: number | undefined
  readonly priorVariance?: number | undefined
  /** The results broken down by this dimension too, its top `maxSlices` values and the others. */
  readonly dimension?: Dimension | undefined
  readonly maxSlices?: number | undefined
  /** The family the slices' comparisons are corrected in (default all). */
  readonly correctionScope?: CorrectionScope | undefined
}

/** `rule`, or `event:<event type>:<property>`, as a dimension; INVALID naming the field otherwise. */
export function parseDimension(text: string): Dimension {
  if (text === 'rule') return { kind: 'rule' }
  const m = /^event:([^:]+):(.+)$/.exec(text)
  if (m && EVENT_TYPE_ID.test(m[1]!) && PROPERTY_NAME.test(m[2]!))
    return { kind: 'event', eventTypeId: m[1]!, property: m[2]! }
  const i = /^identity:([^:]{1,100}):(.+)$/.exec(text)
  if (i && ATTRIBUTE_ID.test(i[2]!)) return { kind: 'identity', trafficType: i[1]!, attribute: i[2]! }
  throw invalid([
    {
      field: 'dimension',
      problem:
        "must be rule, event:<event type>:<property> (the property of the key's first event of that type) or identity:<traffic type>:<attribute> (an attribute of the key's identity)",
    },
  ])
}

type Problem = { field: string; problem: string }

/** A prior's fields, those given: its kind, a mean within ±1e6, a variance above 0 and at most 1e6. */
export function priorProblems(p: Pick<ResultsRequest, 'prior' | 'priorMean' | 'priorVariance'>): Problem[] {
  const problems = []
  if (p.prior !== undefined && !PRIORS.includes(p.prior))
    problems.push({ field: 'prior', problem: `must be one of ${PRIORS.join(', ')}` })
  if (p.priorMean !== undefined && !(Number.isFinite(p.priorMean) && Math.abs(p.priorMean) <= MAX_PRIOR))
    problems.push({ field: 'priorMean', problem: `must be a number from -${MAX_PRIOR} to ${MAX_PRIOR}` })
  if (
    p.priorVariance !== undefined &&
    !(Number.isFinite(p.priorVariance) && p.priorVariance > 0 && p.priorVariance <= MAX_PRIOR)
  )
    problems.push({ field: 'priorVariance', problem: `must be a number above 0 and at most ${MAX_PRIOR}` })
  return problems
}

/**
 * The engine's own fields as asked (before the workspace's defaults fill the rest): the prior only under the Bayesian
 * engine, its mean and variance only when proper and within bounds; sequential tests and corrections only under the
 * frequentist one (the Bayesian reading has neither).
 */
export function engineProblems(asked: ResultsRequest, engine: Engine): Problem[] {
  const problems = priorProblems(asked)
  if (!ENGINES.includes(engine)) problems.push({ field: 'engine', problem: `must be one of ${ENGINES.join(', ')}` })
  for (const field of ['prior', 'priorMean', 'priorVariance'] as const)
    if (asked[field] !== undefined && engine !== 'bayesian')
      problems.push({ field, problem: 'applies only with engine=bayesian' })
  if (asked.prior === 'flat')
    for (const field of ['priorMean', 'priorVariance'] as const)
      if (asked[field] !== undefined) problems.push({ field, problem: 'applies only with prior=proper' })
  if (engine === 'bayesian') {
    if (asked.sequential === true)
      problems.push({
        field: 'sequential',
        problem: 'applies only with engine=frequentist (a Bayesian reading is not sequential)',
      })
    if (asked.correction !== undefined)
      problems.push({
        field: 'correction',
        problem: 'applies only with engine=frequentist (a Bayesian reading has no p-values to correct)',
      })
  }
  return problems
}

export function checkRequest(req: ResultsRequest, alpha: number, minKeys: number, metricsOptional: boolean): void {
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
  if (
    req.maxSlices !== undefined &&
    !(Number.isInteger(req.maxSlices) && req.maxSlices >= 1 && req.maxSlices <= MAX_SLICES)
  )
    problems.push({ field: 'maxSlices', problem: `must be a whole number from 1 to ${MAX_SLICES}` })
  if (req.correctionScope !== undefined && !CORRECTION_SCOPES.includes(req.correctionScope))
    problems.push({ field: 'correctionScope', problem: `must be one of ${CORRECTION_SCOPES.join(', ')}` })
  for (const field of ['maxSlices', 'correctionScope'] as const)
    if (req[field] !== undefined && req.dimension === undefined)
      problems.push({ field, problem: 'applies only with a dimension' })
  if (problems.length > 0) throw invalid(problems, 'invalid results request')
}

export function weightProblems(weights: Readonly<Record<string, number>>) {
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

export function checkWindow(from: number, to: number): void {
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
