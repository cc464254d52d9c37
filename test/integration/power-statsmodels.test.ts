// The fixed-horizon power and the keys needed (src/analysis/power.ts) against statsmodels' NormalIndPower (the stats
// venv, test/compat/power_stats.py) on 300 seeded random cases of an absolute effect: means, variances, effects,
// alphas, targets and unequal shares of the keys. The power agrees to 1e-6 relative; the keys needed are the first
// whole number of keys in all at or past statsmodels' solution.
import { expect, it } from 'vitest'
import { keysNeeded, powerAt, type PowerInputs } from '../../src/analysis/power.js'
import { close, independent, seeded } from '../support/stats.js'

it('agrees with statsmodels NormalIndPower on power and on the keys that reach it', () => {
  const rand = seeded(4848)
  const cases = Array.from({ length: 300 }, () => {
    const variance = 0.01 + 100 * rand() ** 2
    const baseline = 0.1 + 0.4 * rand()
    const x: PowerInputs = {
      mean: 10 * rand(),
      variance,
      mde: (rand() < 0.5 ? -1 : 1) * Math.sqrt(variance) * (0.01 + 0.5 * rand()),
      relative: false,
      alpha: [0.01, 0.05, 0.1][Math.floor(rand() * 3)]!,
      shares: { baseline, treatment: Math.min(1 - baseline, 0.1 + 0.5 * rand()) },
    }
    return { x, keys: Math.round(100 + 1e5 * rand()), target: 0.5 + 0.45 * rand() }
  })
  const { cases: want } = independent<{ cases: { power: number; nobs1: number }[] }>('test/compat/power_stats.py', {
    cases: cases.map(({ x, keys, target }) => ({
      effectSize: Math.abs(x.mde) / Math.sqrt(x.variance),
      ratio: x.shares.treatment / x.shares.baseline,
      alpha: x.alpha,
      nobs1: keys * x.shares.baseline,
      power: target,
    })),
  })
  cases.forEach(({ x, keys, target }, i) => {
    close(powerAt(keys, x), want[i]!.power, `case ${i} power`)
    const all = want[i]!.nobs1 / x.shares.baseline
    const n = keysNeeded(x, target)!
    expect(n, `case ${i} keys`).toBeGreaterThanOrEqual(all * (1 - 1e-9))
    expect(n - 1, `case ${i} keys`).toBeLessThan(all * (1 + 1e-9))
  })
})
