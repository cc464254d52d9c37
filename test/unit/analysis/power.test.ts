// Power and duration (src/analysis/power.ts): GrowthBook's published power vector for the fixed-horizon test, the keys
// needed at the boundary of the power asked for, the growth of distinct keys, and the sequential case by simulation:
// 2,000 seeded experiments with the computed keys, each tested by Sluice's own sequential test (frequentist.ts, what
// the results API runs), reach the stated power within 2 points. The fixed-horizon case against statsmodels is
// test/integration/power-statsmodels.test.ts.
import { describe, expect, it } from 'vitest'
import { compare } from '../../../src/analysis/frequentist.js'
import { meanSummary } from '../../../src/analysis/models.js'
import { daysToReach, fitGrowth, keysNeeded, powerAt, type PowerInputs } from '../../../src/analysis/power.js'
import { mulberry32 } from '../../support/stats.js'

describe('power', () => {
  it("is GrowthBook's for its published vector (shared/src/power/power.test.ts: 3 variations, 400,000 keys)", () => {
    const x: PowerInputs = {
      mean: 10,
      variance: 3909.9997749994377,
      mde: 0.05,
      relative: true,
      alpha: 0.05,
      shares: { baseline: 1 / 3, treatment: 1 / 3 },
    }
    expect(powerAt(400_000, x)).toBeCloseTo(0.52144, 5)
  })

  it('needs the fewest keys with at least the power asked for', () => {
    for (const x of [
      { mean: 3, variance: 4, mde: 0.02, relative: true, alpha: 0.05, shares: { baseline: 0.5, treatment: 0.5 } },
      { mean: 0.1, variance: 0.09, mde: -0.1, relative: true, alpha: 0.01, shares: { baseline: 0.2, treatment: 0.3 } },
      { mean: 50, variance: 900, mde: 2, relative: false, alpha: 0.1, shares: { baseline: 0.5, treatment: 0.25 } },
      {
        mean: 1,
        variance: 1,
        mde: 0.1,
        relative: true,
        alpha: 0.05,
        shares: { baseline: 0.5, treatment: 0.5 },
        sequentialTuning: 5000,
      },
    ] satisfies PowerInputs[]) {
      for (const target of [0.5, 0.8, 0.95]) {
        const n = keysNeeded(x, target)!
        expect(powerAt(n, x)).toBeGreaterThanOrEqual(target)
        expect(powerAt(n - 1, x)).toBeLessThan(target)
      }
    }
    // An effect too small for any number of keys within reach.
    expect(
      keysNeeded(
        { mean: 1, variance: 1e6, mde: 1e-9, relative: true, alpha: 0.05, shares: { baseline: 0.5, treatment: 0.5 } },
        0.8,
      ),
    ).toBeNull()
  })

  it('sequential: the keys computed reach the stated power within 2 points over 2,000 simulated experiments', () => {
    const rand = mulberry32(48)
    const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
    const x: PowerInputs = {
      mean: 1,
      variance: 1,
      mde: 0.1,
      relative: true,
      alpha: 0.05,
      shares: { baseline: 0.5, treatment: 0.5 },
      sequentialTuning: 5000,
    }
    const target = 0.8
    const n = keysNeeded(x, target)!
    const perArm = Math.round(n / 2)
    const looks = 20
    let atTheEnd = 0
    let atAnyLook = 0
    for (let e = 0; e < 2000; e++) {
      const arms = [0, 1].map(() => ({ n: 0, sum: 0, sumSquares: 0 }))
      let any = false
      for (let look = 1; look <= looks; look++) {
        const upTo = Math.round((perArm * look) / looks)
        arms.forEach((arm, i) => {
          const mean = i === 0 ? x.mean : x.mean * (1 + x.mde)
          for (; arm.n < upTo; arm.n++) {
            const v = mean + normal()
            arm.sum += v
            arm.sumSquares += v * v
          }
        })
        const c = compare(meanSummary(arms[0]!), meanSummary(arms[1]!), {
          alpha: x.alpha,
          sequentialTuning: x.sequentialTuning,
        })
        const rejected = c.relative.pValue! < x.alpha
        any ||= rejected
        if (look === looks && rejected) atTheEnd++
      }
      if (any) atAnyLook++
    }
    // The power is that of the test at the planned keys; stopping at an earlier look only adds to it.
    expect(Math.abs(atTheEnd / 2000 - target)).toBeLessThanOrEqual(0.02)
    expect(atAnyLook / 2000).toBeGreaterThanOrEqual(target - 0.02)
    // Sequential tests need more keys than a fixed-horizon one for the same power.
    expect(n).toBeGreaterThan(keysNeeded({ ...x, sequentialTuning: undefined }, target)!)
  })
})

describe('growth of distinct keys', () => {
  it('recovers a power law, reads a linear one, and gives the days to reach a number of keys', () => {
    const law = [1, 2, 3, 4, 5, 6, 7].map((d) => ({ days: d, keys: 1000 * d ** 0.7 }))
    const g = fitGrowth(law)!
    expect(g.a).toBeCloseTo(1000, 6)
    expect(g.b).toBeCloseTo(0.7, 9)
    expect(daysToReach(g, 1000 * 20 ** 0.7)).toBeCloseTo(20, 6)
    expect(fitGrowth([{ days: 0.5, keys: 300 }])).toEqual({ a: 600, b: 1 })
    expect(fitGrowth([{ days: 1, keys: 0 }])).toBeNull()
    // Keys that stopped coming: no day reaches more.
    expect(daysToReach({ a: 5, b: 0 }, 10)).toBe(Infinity)
  })
})
