// The frequentist tests of experiment results, as gbstats' frequentist/tests.py: Welch's t-test on the
// absolute difference and on the relative lift (delta method), with confidence intervals, two-sided or
// one-sided (guardrails); the always-valid alternative (sequential testing); and the sample ratio check
// (chi-squared goodness of fit). The t and chi-squared distributions are stdlib's
// (@stdlib/stats-base-dists-*): ports of Boost's incomplete beta and gamma functions, kept and tested
// against reference values, where a hand-written series would drift in the tails.
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf'
import tCdf from '@stdlib/stats-base-dists-t-cdf'
import tQuantile from '@stdlib/stats-base-dists-t-quantile'
import { effectVariance, type Summary } from './models.js'

export interface Estimate {
  readonly estimate: number
  /**
   * [lower, upper] at 1 − alpha; null when the test cannot be run (see Comparison.reason). A one-sided test bounds
   * one side only: the other is null.
   */
  readonly ci: readonly [number | null, number | null] | null
  readonly pValue: number | null
}

export interface Comparison {
  readonly absolute: Estimate
  /** The lift relative to the baseline mean; the absolute change when the baseline mean is 0. */
  readonly relative: Estimate & { readonly of: 'baseline-mean' | 'absolute-change' }
  /** Welch–Satterthwaite degrees of freedom (null when both variances are 0, and for sequential tests). */
  readonly degreesOfFreedom: number | null
  /** Why no p-value could be computed, if so. */
  readonly reason: string | null
}

/**
 * How a comparison is tested: two-sided, or one-sided against the direction that is bad (`worseIf`: a guardrail whose
 * desired direction is increase is worse if it decreases); fixed-horizon (Welch's t), or sequential with the
 * Gaussian-mixture confidence sequence's tuning parameter (the sample size it is tightest at).
 */
export interface TestOptions {
  readonly alpha: number
  readonly sequentialTuning?: number | undefined
  readonly worseIf?: 'decrease' | 'increase' | undefined
}

/**
 * Treatment b against baseline a. The absolute estimate is μb − μa with Var = σa²/na + σb²/nb; the relative one
 * (μb − μa)/μa with the delta method's Var = σb²/(nb·μa²) + σa²·μb²/(na·μa⁴), μ unadjusted in the denominators. A
 * fixed-horizon test is Welch's t with the Welch–Satterthwaite degrees of freedom; a sequential one the always-valid
 * interval and p-value of Howard et al.'s normal mixture (Waudby-Smith et al. 2023, eq. 9 and 155), as gbstats'
 * SequentialTwoSidedTTest.
 */
export function welch(a: Summary, b: Summary, alpha: number): Comparison {
  return compare(a, b, { alpha })
}

export function compare(a: Summary, b: Summary, options: TestOptions): Comparison {
  const ma = a.unadjustedMean ?? a.mean
  const mb = b.unadjustedMean ?? b.mean
  const absEstimate = b.mean - a.mean
  const relativeOf = ma === 0 ? 'absolute-change' : 'baseline-mean'
  const relEstimate = ma === 0 ? absEstimate : absEstimate / ma
  const none = (reason: string): Comparison => ({
    absolute: { estimate: absEstimate, ci: null, pValue: null },
    relative: { estimate: relEstimate, ci: null, pValue: null, of: relativeOf },
    degreesOfFreedom: null,
    reason,
  })
  const unusable = a.reason ?? b.reason
  if (unusable !== undefined) return none(unusable)
  if (![a.n, a.mean, a.variance, ma, b.n, b.mean, b.variance, mb].every(Number.isFinite))
    return none('the values are too large: their sums overflow a double (cap the metric)')
  if (a.n < 2 || b.n < 2) return none('each treatment needs at least 2 keys with a value')
  const va = a.variance / a.n
  const vb = b.variance / b.n
  if (va + vb === 0) return none('both treatments have zero variance')
  if (!Number.isFinite(va + vb)) return none('the values are too large: their sums overflow a double (cap the metric)')
  const dof = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1))
  const absVariance = effectVariance(a, b, false)
  const relVariance = ma === 0 ? absVariance : effectVariance(a, b, true)
  const test = (estimate: number, variance: number) =>
    options.sequentialTuning === undefined
      ? tTest(estimate, variance, dof, options)
      : sequentialTest(estimate, variance, a.n + b.n, options.sequentialTuning, options)
  return {
    absolute: test(absEstimate, absVariance),
    relative: { ...test(relEstimate, relVariance), of: relativeOf },
    degreesOfFreedom: options.sequentialTuning === undefined ? dof : null,
    reason: null,
  }
}

function tTest(estimate: number, variance: number, dof: number, { alpha, worseIf }: TestOptions): Estimate {
  const se = Math.sqrt(variance)
  const t = estimate / se
  if (worseIf === undefined) {
    const width = tQuantile(1 - alpha / 2, dof) * se
    // Two-sided: 2·P(T ≤ −|t|), computed on the lower tail so small p-values keep their digits.
    const pValue = Math.min(1, 2 * tCdf(-Math.abs(t), dof))
    return { estimate, ci: [estimate - width, estimate + width], pValue }
  }
  // One-sided: the p-value of "it got worse", and the interval bounding the side that tells.
  const width = tQuantile(1 - alpha, dof) * se
  return worseIf === 'decrease'
    ? { estimate, ci: [null, estimate + width], pValue: tCdf(t, dof) }
    : { estimate, ci: [estimate - width, null], pValue: tCdf(-t, dof) }
}

/**
 * The Gaussian-mixture confidence sequence: with N keys in both arms, s² = Var·N and ρ² = (−2 ln α + ln(−2 ln α + 1))
 * / tuning, the half-width is √s²·√(2(Nρ² + 1)·ln(√(Nρ² + 1)/α)/(Nρ)²) and the p-value 1/e with the e-value
 * exp(ρ²·S/(2(Nρ² + 1)))/√(Nρ² + 1), S = estimate²·N/Var. One-sided at alpha is the side of the two-sided sequence at
 * 2·alpha (its p-value halved on the side that tells).
 */
/** ρ² of the mixture: (−2 ln α + ln(−2 ln α + 1)) / tuning. */
const mixtureRho2 = (level: number, tuning: number) =>
  (-2 * Math.log(level) + Math.log(-2 * Math.log(level) + 1)) / tuning

/** The confidence sequence's half-width at n keys of the two arms, the effect's variance `variance`, at `level`. */
export function sequentialHalfWidth(variance: number, n: number, tuning: number, level: number): number {
  const rho2 = mixtureRho2(level, tuning)
  return (
    Math.sqrt(variance * n) *
    Math.sqrt((2 * (n * rho2 + 1) * Math.log(Math.sqrt(n * rho2 + 1) / level)) / (n * n * rho2))
  )
}

function sequentialTest(
  estimate: number,
  variance: number,
  n: number,
  tuning: number,
  { alpha, worseIf }: TestOptions,
): Estimate {
  const level = worseIf === undefined ? alpha : 2 * alpha
  const rho2 = mixtureRho2(level, tuning)
  const width = sequentialHalfWidth(variance, n, tuning, level)
  const tr2p1 = n * rho2 + 1
  // ln of the e-value, so a very large one does not overflow to a p-value of 0 before it must.
  const logE = (rho2 * ((estimate * estimate * n) / variance)) / (2 * tr2p1) - 0.5 * Math.log(tr2p1)
  const twoSided = Math.min(1, Math.exp(-logE))
  if (worseIf === undefined) return { estimate, ci: [estimate - width, estimate + width], pValue: twoSided }
  const worse = worseIf === 'decrease' ? estimate < 0 : estimate > 0
  const pValue = worse ? twoSided / 2 : 1 - twoSided / 2
  return worseIf === 'decrease'
    ? { estimate, ci: [null, estimate + width], pValue }
    : { estimate, ci: [estimate - width, null], pValue }
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
