// The Bayesian reading against GrowthBook's published values: gbstats 0.8.0's own tests
// (tests/bayesian/test_tests.py, TestEffectBayesianABTest) and its pipeline test (tests/test_gbstats.py,
// the Bayesian analysis of MULTI_DIMENSION's dimension "one"), to the digits they publish.
import { describe, expect, it } from 'vitest'
import { bayesianEffect, FLAT_PRIOR, type BayesianEffect } from '../../../src/analysis/bayesian.js'
import { meanSummary, proportionSummary, quantileSummary } from '../../../src/analysis/models.js'

const relative = { relative: true, prior: FLAT_PRIOR, alpha: 0.05 } as const
const near = (actual: number, expected: number, digits: number) => expect(actual).toBeCloseTo(expected, digits)

/** Every figure gbstats' test publishes for one result (to 5 places; its baseline risk of the first to 4). */
function published(
  r: BayesianEffect,
  want: { expected: number; ci: [number, number]; sd: number; chanceToWin: number; risk: [number, number] },
  riskDigits = 5,
) {
  near(r.expected, want.expected, 5)
  near(r.ci[0], want.ci[0], 5)
  near(r.ci[1], want.ci[1], 5)
  near(r.sd, want.sd, 5)
  near(r.chanceToWin, want.chanceToWin, 5)
  near(r.risk.baseline, want.risk[0], riskDigits)
  near(r.risk.treatment, want.risk[1], 5)
  expect(r.reason).toBeNull()
}

describe('bayesianEffect', () => {
  it('matches gbstats on two proportions (flat prior, relative)', () => {
    const r = bayesianEffect(proportionSummary({ n: 100, sum: 49 }), proportionSummary({ n: 100, sum: 51 }), relative)
    published(
      r,
      { expected: 0.04082, ci: [-0.24779, 0.32943], sd: 0.14725, chanceToWin: 0.60918, risk: [0.0814, 0.04058] },
      4,
    )
  })

  it('matches gbstats on two sample means, with a flat prior and with a proper one', () => {
    const a = meanSummary({ n: 10, sum: 100, sumSquares: 1002.25 })
    const b = meanSummary({ n: 10, sum: 105, sumSquares: 1111.5 })
    published(bayesianEffect(a, b, relative), {
      expected: 0.05,
      ci: [-0.02, 0.12],
      sd: 0.03572,
      chanceToWin: 0.91923,
      risk: [0.05131, 0.00131],
    })
    published(bayesianEffect(a, b, { ...relative, prior: { mean: 0.1, variance: 0.1, proper: true } }), {
      expected: 0.05063,
      ci: [-0.01893, 0.12019],
      sd: 0.03549,
      chanceToWin: 0.92315,
      risk: [0.05186, 0.00123],
    })
  })

  it("matches gbstats' pipeline to 9 places, and reads an inverse metric the other way round", () => {
    const baseline = meanSummary({ n: 100, sum: 270, sumSquares: 848.79 })
    const v1 = meanSummary({ n: 120, sum: 300, sumSquares: 869 })
    const r = bayesianEffect(baseline, v1, relative)
    near(r.expected, -0.074074074, 9)
    near(r.chanceToWin, 0.071834168, 9)
    near(r.risk.treatment, 0.075691131, 9)
    const inverse = bayesianEffect(baseline, v1, { ...relative, inverse: true })
    near(inverse.chanceToWin, 1 - 0.071834168, 9)
    near(inverse.risk.treatment, 0.001617057, 9)
    expect(inverse.expected).toBe(r.expected)
  })

  it('gives the neutral answer, with the reason, when it cannot infer', () => {
    const empty = proportionSummary({ n: 0, sum: 0 })
    expect(bayesianEffect(empty, empty, relative)).toMatchObject({
      chanceToWin: 0.5,
      expected: 0,
      reason: expect.any(String),
    })
    const zero = proportionSummary({ n: 50, sum: 0 })
    expect(bayesianEffect(zero, proportionSummary({ n: 50, sum: 5 }), relative).reason).toMatch(/baseline mean is 0/)
    const constant = meanSummary({ n: 5, sum: 10, sumSquares: 20 })
    expect(bayesianEffect(constant, constant, { ...relative, relative: false }).reason).toMatch(/zero variance/)
    const huge = { n: 2, mean: Infinity, variance: 1, sum: Infinity }
    expect(bayesianEffect(huge, huge, relative).reason).toMatch(/overflow/)
  })

  it('keeps the risks apart by the posterior mean, and each at least 0', () => {
    for (const [sa, sb] of [
      [30, 70],
      [70, 30],
      [50, 50],
    ] as const) {
      const r = bayesianEffect(proportionSummary({ n: 100, sum: sa }), proportionSummary({ n: 100, sum: sb }), relative)
      near(r.risk.baseline - r.risk.treatment, r.expected, 12)
      expect(Math.min(r.risk.baseline, r.risk.treatment)).toBeGreaterThanOrEqual(0)
    }
  })
})

describe('quantiles (gbstats 0.8.0 tests/bayesian/test_tests.py, the 0.9 quantile fixture)', () => {
  // n* = n: the bounds are those of the values' own count.
  const control = quantileSummary({
    n: 11054,
    nu: 0.9,
    estimate: 7.157987489967789,
    nStar: 11054,
    lower: 7.098780136176828,
    upper: 7.217194843758751,
  })
  const treatment = quantileSummary({
    n: 10861,
    nu: 0.9,
    estimate: 7.694499927525767,
    nStar: 10861,
    lower: 7.64180598628119,
    upper: 7.747193868770344,
  })
  const close = (actual: number, expected: number) =>
    expect(Math.abs(actual - expected) / Math.abs(expected)).toBeLessThan(1e-8)

  it.each([
    ['absolute, flat prior', false, FLAT_PRIOR, 0.5365124375579775, [0.45725595891154214, 0.6157689162044129]],
    [
      'absolute, proper prior of variance 1e6',
      false,
      { mean: 0, variance: 1e6, proper: true },
      0.536512437540855,
      [0.4572559588956844, 0.6157689161860256],
    ],
    [
      'relative, proper prior of variance 1e6',
      true,
      { mean: 0, variance: 1e6, proper: true },
      0.07495297222736319,
      [0.06341005842481906, 0.08649588602990732],
    ],
    [
      'absolute, proper prior of variance 1',
      false,
      { mean: 0, variance: 1, proper: true },
      0.536495315442269,
      [0.4572401014910488, 0.6157505293934893],
    ],
    [
      'relative, proper prior of variance 1',
      true,
      { mean: 0, variance: 1, proper: true },
      0.07495037261804469,
      [0.06340765898986044, 0.08649308624622894],
    ],
  ] as const)('%s', (_name, rel, prior, expected, ci) => {
    // gbstats' fixture gives its prior on the relative scale (its default prior_type), rescaled for an absolute effect.
    const r = bayesianEffect(control, treatment, { relative: rel, prior, alpha: 0.05 })
    close(r.expected, expected)
    close(r.ci[0], ci[0])
    close(r.ci[1], ci[1])
  })

  it('refuses a quantile too extreme for its count, as gbstats calls its variance zero', () => {
    const few = quantileSummary({ n: 300, nu: 0.99, estimate: 5, nStar: 200, lower: 4, upper: 6 })
    expect(few.reason).toMatch(/too few values \(300\) to bound the 0.99 quantile/)
    expect(bayesianEffect(few, treatment, relative).reason).toBe(few.reason)
  })
})
