// The statistics of experiment results, as pure functions over sufficient statistics (n, Σx, Σx²):
// Welch's two-sided t-test on the absolute difference and on the relative lift (delta method), with
// confidence intervals; proportions with variance p(1 − p); Benjamini–Hochberg adjusted p-values;
// the sample ratio check (chi-squared goodness of fit). The t and chi-squared distributions are
// stdlib's (@stdlib/stats-base-dists-*): ports of Boost's incomplete beta and gamma functions, kept
// and tested against reference values, where a hand-written series would drift in the tails.
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf'
import tCdf from '@stdlib/stats-base-dists-t-cdf'
import tQuantile from '@stdlib/stats-base-dists-t-quantile'

/** What ClickHouse sums per treatment: keys, Σx and Σx² of the per-key values. */
export interface Sums {
  readonly n: number
  readonly sum: number
  readonly sumSquares: number
}

export interface Summary {
  readonly n: number
  readonly mean: number
  /** Sample variance (n − 1) for means; p(1 − p) for proportions. */
  readonly variance: number
  readonly sum: number
}

/** A sample mean's summary; variance (Σx² − (Σx)²/n)/(n − 1), 0 below two keys. */
export function meanSummary({ n, sum, sumSquares }: Sums): Summary {
  const mean = n > 0 ? sum / n : 0
  // Rounding can leave a hair below zero when every value is equal.
  const variance = n > 1 ? Math.max(0, (sumSquares - (sum * sum) / n) / (n - 1)) : 0
  return { n, mean, variance, sum }
}

/** A proportion's summary: the share of keys with the event, variance p(1 − p). */
export function proportionSummary({ n, sum }: Pick<Sums, 'n' | 'sum'>): Summary {
  const mean = n > 0 ? sum / n : 0
  return { n, mean, variance: mean * (1 - mean), sum }
}

export interface Estimate {
  readonly estimate: number
  /** [lower, upper] at 1 − alpha; null when the test cannot be run (see TestOutcome.reason). */
  readonly ci: readonly [number, number] | null
  readonly pValue: number | null
}

export interface Comparison {
  readonly absolute: Estimate
  /** The lift relative to the baseline mean; the absolute change when the baseline mean is 0. */
  readonly relative: Estimate & { readonly of: 'baseline-mean' | 'absolute-change' }
  /** Welch–Satterthwaite degrees of freedom (null when both variances are 0). */
  readonly degreesOfFreedom: number | null
  /** Why no p-value could be computed, if so. */
  readonly reason: string | null
}

/**
 * Welch's two-sided t-test of treatment b against baseline a. The absolute estimate is μb − μa with
 * Var = σa²/na + σb²/nb; the relative one (μb − μa)/μa with the delta method's
 * Var = σb²/(nb·μa²) + σa²·μb²/(na·μa⁴). Both use the Welch–Satterthwaite degrees of freedom.
 */
export function welch(a: Summary, b: Summary, alpha: number): Comparison {
  const absEstimate = b.mean - a.mean
  const relativeOf = a.mean === 0 ? 'absolute-change' : 'baseline-mean'
  const relEstimate = a.mean === 0 ? absEstimate : absEstimate / a.mean
  const none = (reason: string): Comparison => ({
    absolute: { estimate: absEstimate, ci: null, pValue: null },
    relative: { estimate: relEstimate, ci: null, pValue: null, of: relativeOf },
    degreesOfFreedom: null,
    reason,
  })
  if (![a.n, a.mean, a.variance, b.n, b.mean, b.variance].every(Number.isFinite))
    return none('the values are too large: their sums overflow a double (cap the metric)')
  if (a.n < 2 || b.n < 2) return none('each treatment needs at least 2 keys with a value')
  const va = a.variance / a.n
  const vb = b.variance / b.n
  if (va + vb === 0) return none('both treatments have zero variance')
  if (!Number.isFinite(va + vb)) return none('the values are too large: their sums overflow a double (cap the metric)')
  const dof = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1))
  const absVariance = va + vb
  const relVariance =
    a.mean === 0 ? absVariance : b.variance / (b.n * a.mean ** 2) + (a.variance * b.mean ** 2) / (a.n * a.mean ** 4)
  return {
    absolute: tTest(absEstimate, absVariance, dof, alpha),
    relative: { ...tTest(relEstimate, relVariance, dof, alpha), of: relativeOf },
    degreesOfFreedom: dof,
    reason: null,
  }
}

function tTest(estimate: number, variance: number, dof: number, alpha: number): Estimate {
  const se = Math.sqrt(variance)
  const width = tQuantile(1 - alpha / 2, dof) * se
  // Two-sided: 2·P(T ≤ −|t|), computed on the lower tail so small p-values keep their digits.
  const pValue = Math.min(1, 2 * tCdf(-Math.abs(estimate / se), dof))
  return { estimate, ci: [estimate - width, estimate + width], pValue }
}

/**
 * Benjamini–Hochberg adjusted p-values, in the order given (nulls and non-numbers stay null and are not counted):
 * p(i)·m/i, made monotone from the largest down, capped at 1.
 */
export function benjaminiHochberg(pValues: readonly (number | null)[]): (number | null)[] {
  const ranked = pValues
    .flatMap((p, index) => (p === null || !Number.isFinite(p) ? [] : [{ p, index }]))
    .sort((x, y) => x.p - y.p)
  const m = ranked.length
  const adjusted: (number | null)[] = pValues.map(() => null)
  let running = 1
  for (let i = m - 1; i >= 0; i--) {
    const r = ranked[i]!
    running = Math.min(running, (r.p * m) / (i + 1))
    adjusted[r.index] = Math.min(1, running)
  }
  return adjusted
}

export interface SampleRatio {
  readonly chiSquared: number
  readonly degreesOfFreedom: number
  readonly pValue: number
  /** Expected share of keys per treatment (the weights, normalized). */
  readonly expected: Readonly<Record<string, number>>
}

/**
 * Pearson's chi-squared goodness of fit of the keys per treatment against the expected weights:
 * Σ (observed − expected)² / expected over the treatments, k − 1 degrees of freedom.
 */
export function sampleRatio(
  observed: Readonly<Record<string, number>>,
  weights: Readonly<Record<string, number>>,
): SampleRatio {
  const names = Object.keys(weights)
  // Scaled by the largest first, so no sum of weights overflows.
  const largest = Math.max(...names.map((t) => weights[t]!))
  const totalWeight = names.reduce((s, t) => s + weights[t]! / largest, 0)
  const total = names.reduce((s, t) => s + (observed[t] ?? 0), 0)
  const expected = Object.fromEntries(names.map((t) => [t, weights[t]! / largest / totalWeight]))
  let chiSquared = 0
  for (const t of names) {
    const e = expected[t]! * total
    if (e > 0) chiSquared += ((observed[t] ?? 0) - e) ** 2 / e
  }
  const degreesOfFreedom = names.length - 1
  const pValue = total === 0 || degreesOfFreedom < 1 ? 1 : 1 - chisquareCdf(chiSquared, degreesOfFreedom)
  return { chiSquared, degreesOfFreedom, pValue, expected }
}
