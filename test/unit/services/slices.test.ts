// Differential impact under the null: 500 simulated A/A experiments of 20 slices (both treatments drawn from one
// distribution in every slice), through the breakdown the results API runs (src/services/experiments/slices.ts). With
// Bonferroni over the slices, an experiment has a flagged slice at most alpha of the time (the family-wise error rate),
// within the simulation's noise. The planted heterogeneous effect, through the real intake, is
// test/e2e/experiment-slices.e2e.test.ts.
import { expect, it } from 'vitest'
import type { Comparing } from '../../../src/services/experiments/metric-results.js'
import { breakdown } from '../../../src/services/experiments/slices.js'
import type { Metric } from '../../../src/state/redis/metrics.js'
import { mulberry32 } from '../../support/stats.js'

const metric: Metric = {
  id: 'm',
  workspaceId: 'ws',
  name: 'Purchases',
  description: '',
  type: 'count_per_key',
  trafficType: 'user',
  eventTypeId: 'purchase',
  desiredDirection: 'increase',
  createdAt: 0,
  updatedAt: 0,
}
const comparing: Comparing = {
  treatments: ['off', 'on'],
  baseline: 'off',
  alpha: 0.05,
  minKeys: 2,
  sequentialTuning: undefined,
  cuped: false,
  prior: undefined,
}

it('flags a slice of an A/A experiment of 20 slices at most alpha of the time (500 simulations)', () => {
  const rand = mulberry32(2020)
  const slices = Array.from({ length: 20 }, (_, k) => `s${k}`)
  let experimentsFlagged = 0
  let slicesFlagged = 0
  for (let e = 0; e < 500; e++) {
    const rows: Record<string, unknown>[] = []
    const whole = new Map<string, Record<string, unknown>>()
    for (const slice of slices)
      for (const treatment of ['off', 'on']) {
        // 150 keys per arm, 0 to 4 purchases each (the same distribution in both arms).
        let sum = 0
        let squares = 0
        for (let k = 0; k < 150; k++) {
          const x = Math.floor(rand() * 5)
          sum += x
          squares += x * x
        }
        rows.push({ top: 1, slice, treatment, keys: 150, n0: 150, s0: sum, q0: squares })
        const w = whole.get(treatment) ?? { keys: 0, n0: 0, s0: 0, q0: 0 }
        whole.set(treatment, {
          keys: Number(w['keys']) + 150,
          n0: Number(w['n0']) + 150,
          s0: Number(w['s0']) + sum,
          q0: Number(w['q0']) + squares,
        })
      }
    const b = breakdown(
      rows,
      slices,
      {
        specs: [metric],
        comparing,
        guardrail: () => false,
        weights: { off: 1, on: 1 },
        correction: 'bh',
        srmThreshold: 0.001,
        caps: [null],
        whole,
      },
      { kind: 'rule' },
      20,
      'all',
    )
    expect(b.slices).toHaveLength(20)
    const flagged = b.slices.filter((s) => s.metrics[0]!.comparisons[0]!.differentialImpact?.flagged).length
    slicesFlagged += flagged
    if (flagged > 0) experimentsFlagged++
  }
  // The family-wise error rate, alpha = 0.05, with two standard errors of 500 experiments of room (about 0.02).
  expect(experimentsFlagged / 500).toBeLessThanOrEqual(0.05 + 2 * Math.sqrt((0.05 * 0.95) / 500))
  // And not a test that flags nothing: the slices flagged are of the order of alpha / 20 each.
  expect(slicesFlagged).toBeGreaterThan(0)
  expect(slicesFlagged / (500 * 20)).toBeLessThanOrEqual(0.05 / 20 + 0.002)
})
