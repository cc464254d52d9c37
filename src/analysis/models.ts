// The statistic models of experiment results, as gbstats' models/statistics.py: what each kind of
// metric's sufficient statistics (n, Σx, Σx², and under CUPED Σpre, Σpre², Σx·pre, as ClickHouse sums
// them per treatment) say of a treatment — its mean, its per-key variance, and the regression-adjusted
// mean and variance — and the variance of an effect between two of them (the delta method for the
// relative lift). The frequentist tests (frequentist.ts) and the Bayesian one (bayesian.ts) both start
// from these moments.

/** What ClickHouse sums per treatment: keys, Σx and Σx² of the per-key values. */
export interface Sums {
  readonly n: number
  readonly sum: number
  readonly sumSquares: number
}

export interface Summary {
  readonly n: number
  /** The mean compared: regression-adjusted under CUPED (μ − θ·μpre), else the sample mean. */
  readonly mean: number
  /** Sample variance (n − 1) for means; p(1 − p) for proportions; the adjusted variance under CUPED. */
  readonly variance: number
  readonly sum: number
  /** The sample mean before any adjustment: the relative lift divides by it (as gbstats does). */
  readonly unadjustedMean?: number
  /** Why no test can use it (a quantile of too few values to bound), if so. */
  readonly reason?: string
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

/** What CUPED needs of a treatment beyond its sums: Σpre, Σpre² and Σ(x·pre) over the same keys. */
export interface CovariateSums extends Sums {
  readonly preSum: number
  readonly preSumSquares: number
  readonly sumProducts: number
}

const summarize = (s: Pick<Sums, 'n' | 'sum' | 'sumSquares'>, proportion: boolean) =>
  proportion ? proportionSummary(s) : meanSummary(s)
const covariance = (s: CovariateSums) => (s.n > 1 ? (s.sumProducts - (s.sum * s.preSum) / s.n) / (s.n - 1) : 0)

/** The sums of several arms' keys together. */
function pooled(arms: readonly CovariateSums[]): CovariateSums {
  return arms.reduce(
    (j, s) => ({
      n: j.n + s.n,
      sum: j.sum + s.sum,
      sumSquares: j.sumSquares + s.sumSquares,
      preSum: j.preSum + s.preSum,
      preSumSquares: j.preSumSquares + s.preSumSquares,
      sumProducts: j.sumProducts + s.sumProducts,
    }),
    { n: 0, sum: 0, sumSquares: 0, preSum: 0, preSumSquares: 0, sumProducts: 0 },
  )
}

/**
 * θ of the regression adjustment, pooled over the arms given: Cov(x, pre)/Var(pre) of their keys together (0 when
 * either variance is 0), as gbstats' compute_theta.
 */
export function cupedTheta(arms: readonly CovariateSums[], proportion: boolean): number {
  const joint = pooled(arms)
  const post = summarize(joint, proportion).variance
  const pre = summarize({ n: joint.n, sum: joint.preSum, sumSquares: joint.preSumSquares }, proportion).variance
  if (pre === 0 || post === 0) return 0
  return covariance(joint) / pre
}

/**
 * The share of the variance of the arms' values (together) that their pre-exposure values explain with θ pooled over
 * them: 1 − Var(x − θ·pre)/Var(x); null when Var(x) is 0 or the sums overflow.
 */
export function cupedVarianceReduction(arms: readonly CovariateSums[], proportion: boolean): number | null {
  const joint = pooled(arms)
  const before = summarize(joint, proportion).variance
  const after = cupedSummary(joint, cupedTheta(arms, proportion), proportion).variance
  return before > 0 && Number.isFinite(after) ? 1 - after / before : null
}

/** A treatment's regression-adjusted summary: mean μ − θ·μpre, variance σ² + θ²σpre² − 2θ·Cov (gbstats). */
export function cupedSummary(s: CovariateSums, theta: number, proportion: boolean): Summary {
  const post = summarize(s, proportion)
  const pre = summarize({ n: s.n, sum: s.preSum, sumSquares: s.preSumSquares }, proportion)
  const variance = s.n > 1 ? post.variance + theta ** 2 * pre.variance - 2 * theta * covariance(s) : 0
  return {
    n: s.n,
    mean: post.mean - theta * pre.mean,
    variance: Math.max(0, variance),
    sum: s.sum,
    unadjustedMean: post.mean,
  }
}

/**
 * The variance of the estimated effect of b against a: σa²/na + σb²/nb for the absolute difference; for the lift
 * (μb − μa)/μa the delta method's σb²/(nb·μa²) + σa²·μb²/(na·μa⁴), μ unadjusted (as gbstats' frequentist_variance).
 */
export function effectVariance(a: Summary, b: Summary, relative: boolean): number {
  if (!relative) return a.variance / a.n + b.variance / b.n
  const ma = a.unadjustedMean ?? a.mean
  const mb = b.unadjustedMean ?? b.mean
  return b.variance / (b.n * ma ** 2) + (a.variance * mb ** 2) / (a.n * ma ** 4)
}

/**
 * A quantile's figures as ClickHouse gives them: the values counted n, the quantile ν, its estimate, and the sample
 * size n* of the bounds picked with them (0: none could be picked).
 */
export interface QuantileSums {
  readonly n: number
  readonly nu: number
  readonly estimate: number
  readonly nStar: number
  readonly lower: number
  readonly upper: number
}

/**
 * GrowthBook's sums for the variance of the share of a treatment's events at or below its quantile when events are
 * clustered in keys: per key s (its events at or below) and d (its events), over the keys.
 */
export interface ClusterSums {
  readonly keys: number
  readonly sum: number
  readonly sumSquares: number
  readonly denominatorSum: number
  readonly denominatorSumSquares: number
  readonly sumProducts: number
}

/** Φ⁻¹(0.975): gbstats computes a quantile's bounds at 95 % whatever the request's alpha. */
export const Z_975 = 1.959963984540054

/**
 * A quantile's summary, as gbstats' QuantileStatistic (0.8): the mean is the quantile; the per-value variance is
 * n* · (n − 1)/n · ((upper − lower)/(2z))², so that variance/n is the quantile's variance by the order-statistic
 * (binomial) method, floored at 1e-5 from 100 values on. With `clusters` (events of one key correlated,
 * QuantileClusteredStatistic) it is scaled by the design effect: the clustered variance of the share of events at or
 * below the quantile over its independent value ν(1 − ν)/n. Too few values for bounds on either side of the quantile
 * (or none picked below 1,000 values) give a `reason` instead of a test.
 */
export function quantileSummary(q: QuantileSums, clusters?: ClusterSums): Summary {
  const { n, nu } = q
  let init = n <= 1 ? 0 : (q.nStar / n) * (n - 1) * ((q.upper - q.lower) / (2 * Z_975)) ** 2
  if (clusters !== undefined) {
    const k = clusters.keys
    if (n <= 1 || nu === 0 || k <= 1 || clusters.denominatorSum <= 0) init = 0
    else {
      const ms = clusters.sum / k
      const md = clusters.denominatorSum / k
      const vs = (clusters.sumSquares / k - ms ** 2) * (k / (k - 1))
      const vd = (clusters.denominatorSumSquares / k - md ** 2) * (k / (k - 1))
      const cov = (clusters.sumProducts / k - ms * md) * (k / (k - 1))
      const clustered = (vs - (2 * ms * cov) / md + (ms ** 2 * vd) / md ** 2) / (k * md ** 2)
      init = (init * clustered) / ((nu * (1 - nu)) / n)
    }
  }
  const variance = n < 100 ? init : Math.max(init, 1e-5)
  const tooFew = n <= (Z_975 ** 2 * nu) / (1 - nu) || n <= (Z_975 ** 2 * (1 - nu)) / nu || (init <= 0 && n < 1000)
  return {
    n,
    mean: q.estimate,
    variance,
    sum: Number.NaN,
    ...(tooFew ? { reason: `too few values (${n}) to bound the ${nu} quantile` } : {}),
  }
}
