// Power and duration end to end: a generated experiment whose keys arrive over 8 days (fewer each day, and exposed
// again on later days, so distinct keys grow less than linearly) goes through the real intake (edge, Kafka, events
// consumer, ClickHouse). The test computes from what it sent each day's first exposures, the baseline's mean and
// variance, the keys statsmodels' NormalIndPower needs for an effect, and numpy's fit of the keys' growth; Sluice's
// answer must agree (1e-6 relative), and say powered, how many more days, or under-powered, as those numbers do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, defineMetric, sendExperiment, type TestEnv } from '../support/harness.js'
import { close, independent, seeded } from '../support/stats.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const DAY = 86_400_000
const FROM = 1_767_225_600_000 // 2026-01-01T00:00:00Z
const TO = FROM + 7.5 * DAY
const FLAG = 'onboarding_v3'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let env: string
let metricId: string

const rand = seeded(4949)
const impressions: { k: string; t: string; m: number; r: string }[] = []
const events: object[] = []
const values: Record<string, number[]> = { off: [], on: [] }
const newPerDay: number[] = []

function generate(): void {
  let i = 0
  for (let d = 0; d < 8; d++) {
    // The last day is half over at the window's end: its keys come in its first 12 hours.
    const count = Math.round(500 * 0.85 ** d * (d === 7 ? 0.5 : 1))
    newPerDay.push(count)
    for (let j = 0; j < count; j++, i++) {
      const key = `player-${i}`
      const treatment = i % 2 ? 'on' : 'off'
      const first = FROM + d * DAY + Math.floor(rand() * (d === 7 ? DAY / 2 - 60_000 : DAY - 60_000))
      impressions.push({ k: key, t: treatment, m: first, r: 'default rule' })
      // Seen again the next day, when the window still runs: one key, counted once.
      if (first + DAY < TO) impressions.push({ k: key, t: treatment, m: first + DAY, r: 'default rule' })
      const purchases = Math.floor((treatment === 'on' ? 3.3 : 3) * rand())
      values[treatment]!.push(purchases)
      for (let p = 0; p < purchases; p++)
        events.push({ eventTypeId: 'purchase', trafficTypeName: 'user', key, timestamp: first + 30_000 })
    }
  }
}

async function power(body: Json): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${service.url}/api/v1/environments/${env}/experiments/${FLAG}/power`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ metric: metricId, from: new Date(FROM).toISOString(), to: String(TO), ...body }),
  })
  return { status: res.status, body: (await res.json()) as Json }
}

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_ADMIN_RATE_PER_SECOND: '1000', SLUICE_ADMIN_BURST: '1000' })
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  service = await t.start(['edge', 'admin', 'events'])
  generate()
  await sendExperiment(t, service.url, demo.environments[0]!.serverSideSdkKey, FLAG, impressions, events)
  const { body } = await defineMetric(service.url, demo, {
    name: 'Purchases',
    eventTypeId: 'purchase',
    type: 'count_per_key',
    desiredDirection: 'increase',
  })
  metricId = body['id'] as string
}, 180_000)
afterAll(async () => t?.close())

describe('power and duration', () => {
  it('measures the baseline and the growth of keys, and needs the keys statsmodels does, powered or days from it', async () => {
    const off = values['off']!
    const mean = off.reduce((a, b) => a + b, 0) / off.length
    const variance = off.reduce((a, b) => a + (b - mean) ** 2, 0) / (off.length - 1)
    const keys = off.length + values['on']!.length
    let sum = 0
    const cumulative = newPerDay.map((n) => (sum += n))
    const points = cumulative.map((k, d) => [Math.min(d + 1, 7.5), k])
    // Absolute effects: a large one (powered now), one needing about 1.3 times the keys so far, a tiny one.
    const z = 1.959963984540054 + 0.8416212335729143
    const effects = [0.5, (2 * z * Math.sqrt(variance)) / Math.sqrt(1.3 * keys), 0.0005]
    const want = independent<{ cases: { nobs1: number }[]; growth: { a: number; b: number } }>(
      'test/compat/power_stats.py',
      {
        cases: effects.map((e) => ({
          effectSize: e / Math.sqrt(variance),
          ratio: 1,
          alpha: 0.05,
          nobs1: 100,
          power: 0.8,
        })),
        growth: points,
      },
    )
    const verdicts = []
    for (const [i, mde] of effects.entries()) {
      const r = await power({ mde, relative: false })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      const a = r.body
      expect(a).toMatchObject({ baseline: 'off', power: 0.8, alpha: 0.05, test: 'fixed-horizon', relative: false })
      expect(a['measured']['keys']).toBe(keys)
      close(a['measured']['mean'], mean, 'baseline mean')
      close(a['measured']['variance'], variance, 'baseline variance')
      expect(a['measured']['days'].map((d: Json) => d['newKeys'])).toEqual(newPerDay)
      expect(a['measured']['days'][0]['day']).toBe('2026-01-01')
      close(a['measured']['growth']['a'], want.growth.a, 'growth a')
      close(a['measured']['growth']['b'], want.growth.b, 'growth b')
      expect(want.growth.b).toBeLessThan(1) // keys grow less than linearly
      const all = (2 * want.cases[i]!.nobs1) / 1 // equal shares: nobs1 is half of all keys
      expect(a['keysNeeded']).toBeGreaterThanOrEqual(all * (1 - 1e-9))
      expect(a['keysNeeded'] - 1).toBeLessThan(all * (1 + 1e-9))
      const days = (a['keysNeeded'] / want.growth.a) ** (1 / want.growth.b)
      if (a['keysNeeded'] <= keys) expect(a).toMatchObject({ verdict: 'powered', moreDays: 0 })
      else if (days <= 366) {
        const more = Math.max(1, Math.ceil(days - 7.5))
        expect(a).toMatchObject({ verdict: 'more days', moreDays: more })
        expect(a['message']).toMatch(new RegExp(`^about ${more} more days at the current rate`))
      } else expect(a).toMatchObject({ verdict: 'under-powered', moreDays: null })
      verdicts.push(a['verdict'])
    }
    expect(verdicts).toEqual(['powered', 'more days', 'under-powered'])
  })

  it('needs more keys for sequential tests, and sluice experiments power prints what the API answers', async () => {
    const fixed = (await power({ mde: 0.1 })).body
    const sequential = (await power({ mde: 0.1, sequential: true })).body
    expect(sequential).toMatchObject({ test: 'sequential', sequentialTuning: 5000, relative: true })
    expect(sequential['keysNeeded']).toBeGreaterThan(fixed['keysNeeded'])
    const cli = await runSluice(
      [
        'experiments',
        'power',
        FLAG,
        '--environment',
        env,
        '--metric',
        metricId,
        '--mde',
        '0.1',
        '--from',
        String(FROM),
        '--to',
        String(TO),
        '--json',
      ],
      t.env,
    )
    expect(cli.code, cli.stderr).toBe(0)
    expect(JSON.parse(cli.stdout)).toEqual(fixed)
  })

  it('refuses an effect of 0, a power out of range and a relative fall of 100 %, naming the field', async () => {
    for (const [body, field] of [
      [{ mde: 0 }, 'mde'],
      [{ mde: -1 }, 'mde'],
      [{ mde: 0.1, power: 1 }, 'power'],
      [{ mde: 0.1, power: 0 }, 'power'],
      [{ mde: 0.1, sequentialTuning: 100 }, 'sequentialTuning'],
      [{ mde: 0.1, weights: { on: -1 } }, 'weights'],
    ] as const) {
      const r = await power(body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(JSON.stringify(r.body), JSON.stringify(body)).toContain(field)
    }
  })
})
