// The health answer's freshness figures per hour against numpy's nearest-rank quantiles (test/compat, the stats venv)
// on seeded random hours: skewed times, canaries not queryable in time, an hour with none seen.
// (In the integration project: the stats venv is made by `npm test`, after the unit tests have run.)
import { expect, it } from 'vitest'
import { freshnessHours } from '../../src/services/freshness.js'
import { independent, seeded } from '../support/stats.js'

it('p50 and p95 per hour are numpy’s nearest-rank quantiles, newest hour first', () => {
  const random = seeded(49)
  const hours: [number, number[]][] = Array.from({ length: 30 }, (_, h) => [
    496_000 + h,
    Array.from({ length: 1 + Math.floor(random() * 180) }, () =>
      random() < 0.05 ? -1 : Math.round(100 * Math.exp(2 * random())),
    ),
  ])
  hours.push([496_100, [-1, -1]])
  const want = independent<
    { hour: number; canaries: number; p50: number | null; p95: number | null; notQueryable: number }[]
  >('test/compat/freshness_quantiles.py', { hours })
  const got = freshnessHours(new Map(hours))
  expect(got.map((h) => h.hour)).toEqual(
    [...hours].sort(([a], [b]) => b - a).map(([hour]) => new Date(hour * 3_600_000).toISOString()),
  )
  for (const w of want) {
    const g = got.find((h) => h.hour === new Date(w.hour * 3_600_000).toISOString())!
    expect({ canaries: g.canaries, p50: g.p50Ms, p95: g.p95Ms, notQueryable: g.notQueryable }).toEqual({
      canaries: w.canaries,
      p50: w.p50,
      p95: w.p95,
      notQueryable: w.notQueryable,
    })
  }
})
