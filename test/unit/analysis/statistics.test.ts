// The statistics against published values: GrowthBook's gbstats test vector for the two-sided t-test
// (packages/stats/tests/frequentist/test_tests.py, rounded there to 5 decimals), and textbook cases
// of Benjamini–Hochberg and the chi-squared goodness of fit. Exact agreement with scipy and gbstats on
// generated experiments is checked end to end in test/e2e/experiments.e2e.test.ts.
import { describe, expect, it } from 'vitest'
import { benjaminiHochberg } from '../../../src/analysis/corrections.js'
import { sampleRatio, welch } from '../../../src/analysis/frequentist.js'
import { meanSummary, proportionSummary } from '../../../src/analysis/models.js'

const round5 = (x: number) => Math.round(x * 1e5) / 1e5

describe('welch', () => {
  // a = control (n 3407, mean 0.41, sd 3.9), b = variation (n 3461, mean 0.70, sd 6.2), as sums.
  const a = meanSummary({ n: 3407, sum: 1396.87, sumSquares: 52377.9767 })
  const b = meanSummary({ n: 3461, sum: 2422.7, sumSquares: 134698.29 })

  it('matches the published gbstats vector on the absolute difference', () => {
    const c = welch(a, b, 0.05)
    expect(round5(c.absolute.estimate)).toBe(0.29)
    expect(c.absolute.ci!.map((x) => round5(x!))).toEqual([0.04538, 0.53462])
    expect(round5(c.absolute.pValue!)).toBe(0.02016)
  })

  it('matches the published gbstats vector on the relative lift (delta method)', () => {
    const c = welch(a, b, 0.05)
    expect(round5(c.relative.estimate)).toBe(0.70732)
    expect(c.relative.ci!.map((x) => round5(x!))).toEqual([-0.03526, 1.44989])
    expect(round5(c.relative.pValue!)).toBe(0.06191)
    expect(c.relative.of).toBe('baseline-mean')
  })

  it('reports the absolute change as the relative one when the baseline mean is 0', () => {
    const zero = meanSummary({ n: 400, sum: 0, sumSquares: 0 })
    const some = meanSummary({ n: 400, sum: 40, sumSquares: 40 })
    const c = welch(zero, some, 0.05)
    expect(c.relative.of).toBe('absolute-change')
    expect(c.relative.estimate).toBe(c.absolute.estimate)
    expect(c.relative.pValue).toBe(c.absolute.pValue)
  })

  it('gives no p-value when it cannot test (fewer than 2 keys, or no variance at all)', () => {
    expect(
      welch(meanSummary({ n: 1, sum: 1, sumSquares: 1 }), meanSummary({ n: 10, sum: 5, sumSquares: 5 }), 0.05).absolute
        .pValue,
    ).toBeNull()
    const c = welch(
      meanSummary({ n: 10, sum: 10, sumSquares: 10 }),
      meanSummary({ n: 10, sum: 10, sumSquares: 10 }),
      0.05,
    )
    expect(c.absolute.pValue).toBeNull()
    expect(c.reason).toMatch(/zero variance/)
  })

  it('refuses to test sums that overflowed a double rather than reading them as 0', () => {
    const c = welch(
      meanSummary({ n: 400, sum: 1e160, sumSquares: Number.NaN }),
      meanSummary({ n: 400, sum: 40, sumSquares: 40 }),
      0.05,
    )
    expect(c.absolute.pValue).toBeNull()
    expect(c.reason).toMatch(/overflow/)
  })

  it('uses p(1 − p) as the variance of a proportion', () => {
    expect(proportionSummary({ n: 200, sum: 50 })).toEqual({ n: 200, mean: 0.25, variance: 0.1875, sum: 50 })
  })
})

describe('benjaminiHochberg', () => {
  it('adjusts as p·m/rank, monotone from the largest, nulls left out', () => {
    // m = 4: sorted 0.01, 0.02, 0.03, 0.5 → 0.04, 0.04, 0.04, 0.5.
    expect(benjaminiHochberg([0.03, null, 0.01, 0.5, 0.02])).toEqual([0.04, null, 0.04, 0.5, 0.04])
    expect(benjaminiHochberg([0.9, 0.95])).toEqual([0.95, 0.95])
    // A p-value that is not a number is not a test: the others are adjusted as if it were absent.
    const adjusted = benjaminiHochberg([1e-9, 0.01, Number.NaN, 0.5])
    expect(adjusted[2]).toBeNull()
    ;[3e-9, 0.015, null, 0.5].forEach((want, i) =>
      want === null ? undefined : expect(adjusted[i]).toBeCloseTo(want, 12),
    )
  })
})

describe('sampleRatio', () => {
  it('is the chi-squared goodness of fit against the weights', () => {
    // 1 degree of freedom: chi² 3.841459 is the 0.95 quantile.
    const n = 10_000
    const delta = Math.sqrt((3.841458820694124 * n) / 4)
    const s = sampleRatio({ on: n / 2 + delta, off: n / 2 - delta }, { on: 50, off: 50 })
    expect(s.chiSquared).toBeCloseTo(3.841458820694124, 9)
    expect(s.pValue).toBeCloseTo(0.05, 9)
    expect(s.expected).toEqual({ on: 0.5, off: 0.5 })
    expect(sampleRatio({ a: 100, b: 300 }, { a: 1, b: 3 }).pValue).toBe(1)
    // Weights near the largest double do not overflow into a silent pass.
    const huge = sampleRatio({ on: 6000, off: 4000 }, { on: 1e308, off: 1e308 })
    expect(huge.expected).toEqual({ on: 0.5, off: 0.5 })
    expect(huge.pValue).toBeLessThan(1e-10)
  })
})
