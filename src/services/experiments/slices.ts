// Results broken down by a dimension: per slice (one of the top values of the dimension among the exposed keys, or the
// rest as "other"), its keys per treatment, its sample ratio check and every metric's comparisons as the whole
// experiment's, corrected over the family the request's scope says (every slice × metric × treatment, each metric's,
// or each slice's); and each slice's differential impact: whether its effect differs from that of the rest of the keys
// (Welch's test of the difference of the two effects, two-sided, Bonferroni over the slices).
import tCdf from '@stdlib/stats-base-dists-t-cdf'
import { adjust } from '../../analysis/corrections.js'
import { sampleRatio } from '../../analysis/frequentist.js'
import { meanSummary, proportionSummary, type Summary } from '../../analysis/models.js'
import type { Dimension } from '../../analysis/queries.js'
import type { Metric } from '../../state/redis/metrics.js'
import {
  finish,
  metricResult,
  number,
  type Comparing,
  type ComparisonView,
  type MetricResult,
} from './metric-results.js'
import type { Correction } from './request.js'

export const CORRECTION_SCOPES = ['all', 'metric', 'slice'] as const
export type CorrectionScope = (typeof CORRECTION_SCOPES)[number]
export const DEFAULT_MAX_SLICES = 10
export const MAX_SLICES = 20

/** A slice's differential impact on one comparison: its effect against the rest's, Bonferroni over the slices. */
export interface DifferentialImpact {
  /** The slice's effect (the absolute difference of the means) minus that of the keys outside it. */
  readonly difference: number
  readonly pValue: number | null
  readonly adjustedPValue: number | null
  /** The effect differs significantly from the rest's. */
  readonly flagged: boolean
}

export interface SliceComparison extends ComparisonView {
  readonly differentialImpact: DifferentialImpact | null
  /** The comparisons its p-value was corrected with (the scope's family), itself included. */
  readonly familySize: number
}

export interface SliceResult {
  /** The dimension's value; null for the other values together. */
  readonly value: string | null
  readonly exposure: { readonly keys: number; readonly perTreatment: Readonly<Record<string, number>> }
  readonly srm: { readonly pValue: number; readonly chiSquared: number; readonly mismatch: boolean }
  readonly metrics: readonly (Omit<MetricResult, 'comparisons'> & { comparisons: readonly SliceComparison[] })[]
}

export interface Breakdown {
  readonly dimension: Dimension
  readonly maxSlices: number
  readonly correctionScope: CorrectionScope
  /** Differential impact is flagged where its Bonferroni-adjusted p-value is below alpha. */
  readonly slices: readonly SliceResult[]
  /** Quantile metrics are not broken down (a quantile of a slice is not a share of the whole's). */
  readonly note: string | null
}

/** The parts of a results request the breakdown shares. */
export interface Sliced {
  readonly specs: readonly Metric[]
  readonly comparing: Comparing
  readonly guardrail: (m: Metric) => boolean
  readonly weights: Readonly<Record<string, number>>
  readonly correction: Correction
  readonly srmThreshold: number
  /** Each metric's cap in the whole experiment's results (the slices' values are capped alike). */
  readonly caps: readonly MetricResult['cap'][]
  /** The whole experiment's row per treatment (the rest of a slice is it less the slice). */
  readonly whole: ReadonlyMap<string, Record<string, unknown>>
}

/**
 * The breakdown from the sliced results query's rows (top, slice, treatment): the slices in the order of `values`
 * (the most keys first), then the others'.
 */
export function breakdown(
  rows: readonly Record<string, unknown>[],
  values: readonly string[],
  s: Sliced,
  dimension: Dimension,
  maxSlices: number,
  scope: CorrectionScope,
): Breakdown {
  const bySlice = new Map<string | null, Map<string, Record<string, unknown>>>()
  for (const r of rows) {
    const t = String(r['treatment'])
    if (t === '') continue // keys of more than one treatment
    const value = Number(r['top']) === 1 ? String(r['slice']) : null
    if (!bySlice.has(value)) bySlice.set(value, new Map())
    bySlice.get(value)!.set(t, r)
  }
  const order = [...values.filter((v) => bySlice.has(v)), ...(bySlice.has(null) ? [null] : [])]
  const metrics = s.specs.flatMap((m, i) => (m.quantile === null || m.quantile === undefined ? [{ m, i }] : []))
  const slices = order.map((value) => {
    const sums = bySlice.get(value)!
    const perTreatment: Record<string, number> = Object.create(null) as Record<string, number>
    for (const t of s.comparing.treatments) perTreatment[t] = Number(sums.get(t)?.['keys'] ?? 0)
    // A treatment with no key in the slice: its sums are 0 (no test, a note).
    const filled = new Map(s.comparing.treatments.map((t) => [t, sums.get(t) ?? ZERO]))
    const srm = sampleRatio(perTreatment, s.weights)
    return {
      value,
      filled,
      exposure: { keys: Object.values(perTreatment).reduce((a, b) => a + b, 0), perTreatment },
      srm: { pValue: srm.pValue, chiSquared: srm.chiSquared, mismatch: srm.pValue < s.srmThreshold },
      results: metrics.map(({ m, i }) =>
        metricResult({ ...m, guardrail: s.guardrail(m) }, i, s.comparing, filled, s.caps[i] ?? null),
      ),
    }
  })
  // The correction's families: the scope's groups of the non-guardrail comparisons.
  const families = new Map<string, { c: object; p: number | null }[]>()
  slices.forEach((slice, k) =>
    slice.results.forEach((r) => {
      if (r.guardrail) return
      const family = scope === 'all' ? '' : scope === 'metric' ? r.metricId : String(k)
      if (!families.has(family)) families.set(family, [])
      families.get(family)!.push(...r.comparisons.map((c) => ({ c, p: c.absolute.pValue })))
    }),
  )
  const adjusted = new Map<object, { p: number | null; size: number }>()
  for (const members of families.values()) {
    const ps = members.map((x) => x.p)
    const size = ps.filter((p) => p !== null && Number.isFinite(p)).length
    const out = adjust(ps, s.correction)
    members.forEach((x, j) => adjusted.set(x.c, { p: out[j] ?? null, size }))
  }
  const out: SliceResult[] = slices.map((slice) => ({
    value: slice.value,
    exposure: slice.exposure,
    srm: slice.srm,
    metrics: slice.results.map((r, j) => {
      const i = metrics[j]!.i
      return {
        ...r,
        comparisons: r.comparisons.map((c) => {
          const a = adjusted.get(c)
          const view = finish(c, r.guardrail ? c.absolute.pValue : (a?.p ?? null), s.comparing, {
            perTreatment: r.perTreatment,
            direction: r.desiredDirection,
            guardrail: r.guardrail,
          })
          return {
            ...view,
            familySize: r.guardrail ? 1 : (a?.size ?? 0),
            differentialImpact: differential(slice.filled, s.whole, i, c.baseline, c.treatment, r.type, {
              slices: slices.length,
              alpha: s.comparing.alpha,
            }),
          }
        }),
      }
    }),
  }))
  return {
    dimension,
    maxSlices,
    correctionScope: scope,
    slices: out,
    note: metrics.length < s.specs.length ? 'quantile metrics are not broken down: a slice has its own quantile' : null,
  }
}

/** A row of a treatment without keys: every sum 0. */
const ZERO: Record<string, unknown> = new Proxy({}, { get: () => 0 })

type Sums = { n: number; sum: number; sumSquares: number }
const sumsOf = (r: Record<string, unknown> | undefined, i: number): Sums => ({
  n: number(r?.[`n${i}`] ?? 0),
  sum: number(r?.[`s${i}`] ?? 0),
  sumSquares: number(r?.[`q${i}`] ?? 0),
})

/**
 * The slice's effect against the rest's (the whole less the slice, by their sums): Welch's test of the difference of
 * the two absolute effects, (μb − μa)slice − (μb − μa)rest over √(Σ σ²/n) of the four arms, with the
 * Welch–Satterthwaite degrees of freedom, two-sided, times the slices (Bonferroni); null when an arm on either side has
 * fewer than 2 keys.
 */
function differential(
  slice: ReadonlyMap<string, Record<string, unknown>>,
  whole: ReadonlyMap<string, Record<string, unknown>>,
  i: number,
  baseline: string,
  treatment: string,
  type: string,
  { slices, alpha }: { slices: number; alpha: number },
): DifferentialImpact | null {
  const summary = (x: Sums): Summary => (type === 'percent_of_keys' ? proportionSummary(x) : meanSummary(x))
  const minus = (x: Sums, y: Sums): Sums => ({
    n: x.n - y.n,
    sum: x.sum - y.sum,
    sumSquares: x.sumSquares - y.sumSquares,
  })
  const [sa, sb] = [sumsOf(slice.get(baseline), i), sumsOf(slice.get(treatment), i)]
  const arms = [sa, sb, minus(sumsOf(whole.get(baseline), i), sa), minus(sumsOf(whole.get(treatment), i), sb)].map(
    summary,
  )
  if (arms.some((a) => !(a.n >= 2) || !Number.isFinite(a.mean) || !Number.isFinite(a.variance))) return null
  const [a, b, ra, rb] = arms as [Summary, Summary, Summary, Summary]
  const difference = b.mean - a.mean - (rb.mean - ra.mean)
  const v = arms.map((x) => x.variance / x.n)
  const variance = v.reduce((x, y) => x + y, 0)
  if (!(variance > 0)) return { difference, pValue: null, adjustedPValue: null, flagged: false }
  const dof = variance ** 2 / arms.reduce((acc, x, k) => acc + v[k]! ** 2 / (x.n - 1), 0)
  const pValue = Math.min(1, 2 * tCdf(-Math.abs(difference / Math.sqrt(variance)), dof))
  const adjustedPValue = Math.min(1, pValue * slices)
  return { difference, pValue, adjustedPValue, flagged: adjustedPValue < alpha }
}
