// Power and duration of an experiment, as GrowthBook computes them before an experiment starts
// (packages/shared/src/power/power.ts): the power of a two-sided test of one treatment against the
// baseline at N keys in all, given the metric's mean and per-key variance (the same in both arms), the
// minimum detectable effect (the relative lift, with the delta method's variance at the lift's treatment
// mean, or the absolute change) and each arm's share of the keys. Fixed-horizon:
// 1 − Φ(z − δ/se) + Φ(−z − δ/se); sequential: the same with the confidence sequence's half-width at the
// keys of the two arms in place of z·se. The keys needed are the fewest with at least the power asked
// for; the days to reach them follow the measured growth of the distinct exposed keys, a power law
// K(d) = a·d^b fitted to the cumulative keys of each day (b below 1 when returning keys are counted once).
import normalCdf from '@stdlib/stats-base-dists-normal-cdf'
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile'
import { sequentialHalfWidth } from './frequentist.js'

export interface PowerInputs {
  /** The metric's mean in the baseline, and its per-key variance. */
  readonly mean: number
  readonly variance: number
  /** The effect to detect: a lift relative to the mean (0.05: 5 %), or an absolute change. */
  readonly mde: number
  readonly relative: boolean
  readonly alpha: number
  /** The baseline's and the treatment's shares of all keys (each above 0, together at most 1). */
  readonly shares: { readonly baseline: number; readonly treatment: number }
  /** Sequential testing with this tuning parameter; fixed-horizon without. */
  readonly sequentialTuning?: number | undefined
}

/** The variance of the effect's estimate at `keys` in all (the delta method's at the lift's treatment mean). */
function effectVariance(keys: number, x: PowerInputs): number {
  const a = keys * x.shares.baseline
  const b = keys * x.shares.treatment
  if (!x.relative) return x.variance / a + x.variance / b
  return (x.variance / x.mean ** 2) * (1 / b + (1 + x.mde) ** 2 / a)
}

/** The two-sided test's power at `keys` keys in all. */
export function powerAt(keys: number, x: PowerInputs): number {
  const variance = effectVariance(keys, x)
  const se = Math.sqrt(variance)
  const delta = Math.abs(x.mde)
  const halfWidth =
    x.sequentialTuning === undefined
      ? normalQuantile(1 - x.alpha / 2, 0, 1) * se
      : sequentialHalfWidth(variance, keys * (x.shares.baseline + x.shares.treatment), x.sequentialTuning, x.alpha)
  return 1 - normalCdf((halfWidth - delta) / se, 0, 1) + normalCdf((-halfWidth - delta) / se, 0, 1)
}

/** Keys in all beyond which the answer is "under-powered" (no search goes past it). */
export const MAX_KEYS = 1e12

/** The fewest keys in all (a whole number) at which the power is at least `target`; null past MAX_KEYS. */
export function keysNeeded(x: PowerInputs, target: number): number | null {
  const enough = (n: number) => powerAt(n, x) >= target
  let high = 2
  while (!enough(high)) {
    if (high >= MAX_KEYS) return null
    high = Math.min(MAX_KEYS, high * 2)
  }
  let low = high / 2
  if (low < 2 || enough(low)) return high <= 2 ? 2 : low
  // Power grows with the keys: the boundary lies in (low, high].
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2)
    if (enough(mid)) high = mid
    else low = mid
  }
  return high
}

/** Cumulative distinct keys K(d) = a·d^b at d days since the start. */
export interface Growth {
  readonly a: number
  readonly b: number
}

/**
 * The growth fitted to the cumulative keys at points in time (days since the start, above 0), by least squares on
 * their logarithms, over the points with keys; one such point (or keys that did not grow) is read as linear growth at
 * the average rate. Null with no key.
 */
export function fitGrowth(points: readonly { days: number; keys: number }[]): Growth | null {
  const logs = points.flatMap((p) => (p.keys > 0 && p.days > 0 ? [{ x: Math.log(p.days), y: Math.log(p.keys) }] : []))
  if (logs.length === 0) return null
  const last = points[points.length - 1]!
  if (logs.every((p) => p.y === logs[0]!.y)) return { a: last.keys / last.days, b: 1 }
  const mx = logs.reduce((s, p) => s + p.x, 0) / logs.length
  const my = logs.reduce((s, p) => s + p.y, 0) / logs.length
  const sxy = logs.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0)
  const sxx = logs.reduce((s, p) => s + (p.x - mx) ** 2, 0)
  const b = sxy / sxx
  return { a: Math.exp(my - b * mx), b }
}

/** The days since the start at which K(d) reaches `keys`, or Infinity when the keys do not grow. */
export function daysToReach(growth: Growth, keys: number): number {
  if (!(growth.b > 0) || !(growth.a > 0)) return Infinity
  return (keys / growth.a) ** (1 / growth.b)
}
