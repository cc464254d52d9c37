// The Bayesian reading (src/analysis/bayesian.ts) against GrowthBook's gbstats itself (the pinned 0.8.0 in the stats
// venv, test/compat/bayesian_stats.py) on 400 seeded random experiments: proportions and means, relative and absolute
// effects, flat and proper priors given on either scale, two alphas, metrics where higher or lower is better. Each
// figure agrees to 1e-6 relative. The published vectors are test/unit/analysis/bayesian.test.ts.
import { expect, it } from 'vitest'
import { bayesianEffect } from '../../src/analysis/bayesian.js'
import { meanSummary, proportionSummary } from '../../src/analysis/models.js'
import { close, independent, seeded } from '../support/stats.js'

interface Arm {
  proportion: boolean
  n: number
  sum: number
  sumSquares: number
}

interface Reference {
  expected: number
  sd: number
  ci: [number, number]
  chanceToWin: number
  risk: [number, number]
  error: string | null
}

it('agrees with gbstats on every figure of 400 random experiments', () => {
  const random = seeded(4801)
  const arm = (proportion: boolean, mean: number): Arm => {
    const n = 20 + Math.floor(random() * 5000)
    if (proportion) return { proportion, n, sum: Math.round(n * Math.min(0.95, Math.max(0.02, mean))), sumSquares: 0 }
    let sum = 0
    let sumSquares = 0
    for (let i = 0; i < n; i++) {
      const x = mean * (0.2 + 1.6 * random()) * (random() < 0.1 ? 4 : 1)
      sum += x
      sumSquares += x * x
    }
    return { proportion, n, sum, sumSquares }
  }
  const cases = Array.from({ length: 400 }, () => {
    const proportion = random() < 0.5
    const base = proportion ? 0.05 + 0.5 * random() : 1 + 50 * random()
    const lift = 1 + (random() - 0.5) * 0.3
    return {
      a: arm(proportion, base),
      b: arm(proportion, base * lift),
      relative: random() < 0.6,
      prior: { mean: (random() - 0.5) * 0.2, variance: 0.01 + random() * 0.2, proper: random() < 0.5 },
      priorScale: random() < 0.7 ? ('relative' as const) : ('absolute' as const),
      alpha: random() < 0.5 ? 0.05 : 0.1,
      inverse: random() < 0.3,
    }
  })
  const references = independent<Reference[]>('test/compat/bayesian_stats.py', cases)
  const summary = (s: Arm) => (s.proportion ? proportionSummary(s) : meanSummary(s))
  for (const [i, c] of cases.entries()) {
    const ours = bayesianEffect(summary(c.a), summary(c.b), c)
    const ref = references[i]!
    expect(ours.reason === null, `case ${i}: ${ours.reason} / ${ref.error}`).toBe(ref.error === null)
    close(ours.expected, ref.expected, `case ${i} expected`)
    close(ours.sd, ref.sd, `case ${i} sd`)
    close(ours.ci[0], ref.ci[0], `case ${i} ci lower`)
    close(ours.ci[1], ref.ci[1], `case ${i} ci upper`)
    close(ours.chanceToWin, ref.chanceToWin, `case ${i} chance to win`)
    close(ours.risk.baseline, ref.risk[0], `case ${i} baseline risk`)
    close(ours.risk.treatment, ref.risk[1], `case ${i} treatment risk`)
  }
})
