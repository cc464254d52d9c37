// One metric's results from its per-treatment sums: the statistic model of each treatment (mean or
// proportion, regression-adjusted under CUPED), each treatment's comparison with the baseline, and
// what the comparison is called once the correction has adjusted its p-value (significant, desired or
// undesired, a guardrail's state).
import { DEFAULT_PRE_EXPOSURE_DAYS, type MetricType } from '../../analysis/queries.js'
import { bayesianEffect, type BayesianEffect, type GaussianPrior } from '../../analysis/bayesian.js'
import { compare, type Comparison } from '../../analysis/frequentist.js'
import { N_STAR_VALUES } from '../../analysis/queries.js'
import {
  cupedSummary,
  quantileSummary,
  type ClusterSums,
  type QuantileSums,
  cupedTheta,
  cupedVarianceReduction,
  meanSummary,
  proportionSummary,
  type CovariateSums,
  type Summary,
} from '../../analysis/models.js'
import type { Metric } from '../../state/redis/metrics.js'

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
  /** Under the Bayesian engine, the posterior of the effect: absolute, and relative to the baseline mean. */
  readonly bayesian: { readonly absolute: BayesianEffect; readonly relative: BayesianEffect } | null
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
  /**
   * A quantile metric's quantile (its treatments' `keys` are then the values counted, events or keys, and `mean` the
   * quantile); null for the others.
   */
  readonly quantile: number | null
  readonly perTreatment: Readonly<Record<string, TreatmentStats>>
  readonly comparisons: readonly ComparisonView[]
}

export type Pending = Omit<ComparisonView, 'adjustedPValue' | 'significant' | 'impact' | 'note' | 'guardrail'> & {
  readonly reason: string | null
}

/** What a request compares: its treatments against the baseline, at alpha, with at least minKeys keys each, how. */
export interface Comparing {
  readonly treatments: readonly string[]
  readonly baseline: string
  readonly alpha: number
  readonly minKeys: number
  readonly sequentialTuning: number | undefined
  readonly cuped: boolean
  /** The Bayesian engine's prior on the relative lift; undefined under the frequentist engine. */
  readonly prior: GaussianPrior | undefined
}

/** A quantile metric's figures of a treatment: its quantile and bounds, and for events the sums of their keys. */
export interface TreatmentQuantile {
  readonly sums: QuantileSums
  clusters?: ClusterSums
}

/**
 * The quantile and bounds from the quantiles query's values (ν, then lower and upper for each n* of the grid), as
 * GrowthBook picks them: the bounds of the largest n* below the values' count (the smallest n* when none is), or when
 * those are equal, of the next smaller n* whose bounds differ; none (n* 0) when no pair differs.
 */
export function quantileFromGrid(nu: number, n: number, values: readonly number[]): QuantileSums {
  const below = N_STAR_VALUES.filter((s) => s < n).length
  for (let j = Math.max(0, below - 1); j >= 0; j--) {
    const [lower, upper] = [values[1 + 2 * j]!, values[2 + 2 * j]!]
    if (lower !== upper) return { n, nu, estimate: values[0]!, nStar: N_STAR_VALUES[j]!, lower, upper }
  }
  return { n, nu, estimate: values[0] ?? Number.NaN, nStar: 0, lower: 0, upper: 0 }
}

/** A number ClickHouse answered; a sum beyond a double comes back as null (it writes inf so): NaN, never 0. */
export const number = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : Number.NaN

export function metricResult(
  m: Metric & { guardrail: boolean },
  i: number,
  { treatments, baseline, alpha, sequentialTuning, cuped, prior }: Comparing,
  sums: Map<string, Record<string, unknown>>,
  cap: MetricResult['cap'],
  quantiles?: ReadonlyMap<string, TreatmentQuantile>,
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
    const q = quantiles?.get(t)
    summaries.set(
      t,
      quantiles
        ? quantileSummary(
            q?.sums ?? { n: 0, nu: m.quantile!, estimate: Number.NaN, nStar: 0, lower: 0, upper: 0 },
            q?.clusters,
          )
        : proportion
          ? proportionSummary(s)
          : meanSummary(s),
    )
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
      // A quantile is compared as it is (gbstats has no regression adjustment of quantiles).
      if (cuped && !quantiles) {
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
      const posterior = (relative: boolean) =>
        bayesianEffect(a, b, { relative, prior: prior!, alpha, inverse: m.desiredDirection === 'decrease' })
      return {
        treatment: t,
        baseline,
        absolute: c.absolute,
        relative: c.relative,
        degreesOfFreedom: c.degreesOfFreedom,
        reason: c.reason,
        cuped: adjustment,
        bayesian: prior === undefined ? null : { absolute: posterior(false), relative: posterior(true) },
      }
    })
  return {
    metricId: m.id,
    name: m.name,
    type: m.type,
    desiredDirection: m.desiredDirection,
    guardrail: m.guardrail,
    cap,
    quantile: m.quantile ?? null,
    cuped:
      cuped && !quantiles
        ? {
            preExposureDays: m.preExposureDays ?? DEFAULT_PRE_EXPOSURE_DAYS,
            varianceReduction: cupedVarianceReduction([...covariates.values()], proportion),
          }
        : null,
    perTreatment,
    comparisons,
  }
}

export function finish(
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
  const tooFew =
    small.length > 0 ? `fewer than ${minKeys} keys in ${small.join(' and ')}: not called significant` : null
  if (c.bayesian !== null) {
    // Called on the relative lift (the absolute change when the baseline mean is 0): the 1 − alpha credible interval
    // excludes 0 (a chance to win of at least 1 − alpha/2, or at most alpha/2); a guardrail fails when the chance it
    // got worse is at least 1 − alpha.
    const posterior = c.bayesian.relative.reason === null ? c.bayesian.relative : c.bayesian.absolute
    const chance = posterior.chanceToWin
    const decided = posterior.reason === null && small.length === 0
    const significant = decided && (guardrail ? chance <= alpha : chance >= 1 - alpha / 2 || chance <= alpha / 2)
    return {
      ...rest,
      adjustedPValue: null,
      significant,
      impact: significant ? (chance > 0.5 ? 'desired' : 'undesired') : 'inconclusive',
      note: posterior.reason ?? tooFew,
      guardrail: !guardrail ? null : significant ? 'failing' : chance < 0.5 ? 'at risk' : 'ok',
    }
  }
  const significant = adjustedPValue !== null && adjustedPValue < alpha && small.length === 0
  const better = direction === 'increase' ? c.absolute.estimate > 0 : c.absolute.estimate < 0
  const worse = direction === 'increase' ? c.absolute.estimate < 0 : c.absolute.estimate > 0
  const note = reason ?? tooFew
  return {
    ...rest,
    adjustedPValue,
    significant,
    impact: significant ? (better ? 'desired' : 'undesired') : 'inconclusive',
    note,
    guardrail: !guardrail ? null : significant ? 'failing' : worse ? 'at risk' : 'ok',
  }
}
