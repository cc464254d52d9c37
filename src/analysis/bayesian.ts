// The Bayesian reading of a comparison, as GrowthBook's gbstats computes it (0.8, bayesian/tests.py
// EffectBayesianABTest): the effect (absolute, or relative to the baseline mean) has a Gaussian
// likelihood N(Δ̂, V̂) from the same delta-method moments as the frequentist test, and a Gaussian prior
// that is either flat (the posterior is the likelihood) or proper (precision-weighted with it). From the
// posterior N(μ, σ²): the chance that the treatment beats the baseline, the credible interval, and the
// risk of each choice, the expected loss E[max(−Δ, 0)] of choosing the treatment and E[max(Δ, 0)] of
// keeping the baseline, in closed form (μ·Φ(μ/σ) + σ·φ(μ/σ), and that minus μ) rather than through
// truncated normal means. A metric where lower is better (inverse) reads the chance and the risks the
// other way round. Pure functions over the Summary of each treatment (models.ts).
import normalCdf from '@stdlib/stats-base-dists-normal-cdf'
import normalPdf from '@stdlib/stats-base-dists-normal-pdf'
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile'
import { effectVariance, type Summary } from './models.js'

/** A Gaussian prior on the effect: flat unless proper (its mean and variance then count). */
export interface GaussianPrior {
  readonly mean: number
  readonly variance: number
  readonly proper: boolean
}

/** A flat prior: the posterior is the data's likelihood. */
export const FLAT_PRIOR: GaussianPrior = { mean: 0, variance: 1, proper: false }

export interface BayesianOptions {
  /** The effect as a lift relative to the baseline mean, or as the absolute difference of the means. */
  readonly relative: boolean
  readonly prior: GaussianPrior
  /** Which scale the prior is given on (it is rescaled by the baseline's mean to the effect's); relative by default. */
  readonly priorScale?: 'relative' | 'absolute'
  /** The credible interval is at 1 − alpha. */
  readonly alpha: number
  /** Lower is better (a latency, an error rate): the chance and the risks are of the effect being negative. */
  readonly inverse?: boolean
}

export interface BayesianEffect {
  /** The posterior mean of the effect, and its standard deviation. */
  readonly expected: number
  readonly sd: number
  /** The credible interval at 1 − alpha: the posterior's alpha/2 and 1 − alpha/2 quantiles. */
  readonly ci: readonly [number, number]
  /** The posterior probability that the treatment is better than the baseline. */
  readonly chanceToWin: number
  /** Expected loss of keeping the baseline and of choosing the treatment, on the effect's scale. */
  readonly risk: { readonly baseline: number; readonly treatment: number }
  /** Why nothing could be inferred (the answer is then gbstats' neutral one: chance 0.5, no effect, no risk). */
  readonly reason: string | null
}

const neutral = (reason: string): BayesianEffect => ({
  expected: 0,
  sd: 0,
  ci: [0, 0],
  chanceToWin: 0.5,
  risk: { baseline: 0, treatment: 0 },
  reason,
})

/** Treatment b against baseline a. */
export function bayesianEffect(a: Summary, b: Summary, options: BayesianOptions): BayesianEffect {
  const ua = a.unadjustedMean ?? a.mean
  const ub = b.unadjustedMean ?? b.mean
  const unusable = a.reason ?? b.reason
  if (unusable !== undefined) return neutral(unusable)
  if (![a.n, a.mean, a.variance, ua, b.n, b.mean, b.variance, ub].every(Number.isFinite))
    return neutral('the values are too large: their sums overflow a double (cap the metric)')
  if (options.relative && (a.mean === 0 || ua === 0)) return neutral('the baseline mean is 0: no relative effect')
  if (a.n === 0 || b.n === 0) return neutral('a treatment has no keys')
  if (a.variance <= 0 || b.variance <= 0) return neutral('a treatment has zero variance')
  // The likelihood: the effect's estimate and its variance (delta method for the relative lift).
  const estimate = options.relative ? (b.mean - a.mean) / ua : b.mean - a.mean
  const variance = effectVariance(a, b, options.relative)
  const prior = onScale(options.prior, options.priorScale ?? 'relative', options.relative, ua)
  const precision = 1 / variance + (prior.proper ? 1 / prior.variance : 0)
  const mu = prior.proper ? (estimate / variance + prior.mean / prior.variance) / precision : estimate
  const sigma = Math.sqrt(1 / precision)
  if (!Number.isFinite(mu) || !(sigma > 0)) return neutral('the posterior has no spread')
  const belowZero = normalCdf(0, mu, sigma)
  // E[max(Δ, 0)] = μΦ(μ/σ) + σφ(μ/σ); E[max(−Δ, 0)] is that minus μ.
  const z = mu / sigma
  const gain = mu * normalCdf(z, 0, 1) + sigma * normalPdf(z, 0, 1)
  const loss = gain - mu
  return {
    expected: mu,
    sd: sigma,
    ci: [normalQuantile(options.alpha / 2, mu, sigma), normalQuantile(1 - options.alpha / 2, mu, sigma)],
    chanceToWin: options.inverse ? belowZero : 1 - belowZero,
    risk: options.inverse ? { baseline: loss, treatment: gain } : { baseline: gain, treatment: loss },
    reason: null,
  }
}

/** The prior on the effect's scale: a relative prior times |baseline mean| for an absolute effect, and back. */
function onScale(
  prior: GaussianPrior,
  scale: 'relative' | 'absolute',
  relative: boolean,
  baselineMean: number,
): GaussianPrior {
  if (relative && scale === 'absolute')
    return { ...prior, mean: prior.mean / Math.abs(baselineMean), variance: prior.variance / baselineMean ** 2 }
  if (!relative && scale === 'relative')
    return { ...prior, mean: prior.mean * Math.abs(baselineMean), variance: prior.variance * baselineMean ** 2 }
  return prior
}
