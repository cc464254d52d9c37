// Quantile metrics end to end: a generated experiment of page-load latencies (lognormal, each key with its own typical
// latency, so a key's events are correlated; the treatment slower by 15 %) goes through the real intake (edge, Kafka,
// events consumer, ClickHouse). From what it sent, test/compat/quantile_stats.py picks each treatment's quantile and
// bounds as ClickHouse and GrowthBook do and runs gbstats 0.8.0 (QuantileClusteredStatistic for the events' p90 and
// p99, QuantileStatistic for the keys' median; the t-test, the Bayesian effect test, the one-sided test of a
// guardrail); Sluice's answer must agree to 1e-6 relative.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, defineMetric, sendExperiment, type TestEnv } from '../support/harness.js'
import { close, closeEstimate, independent, mulberry32 } from '../support/stats.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const FLAG = 'faster_checkout'
const FROM = 1_767_225_600_000
const TO = FROM + 6 * 3_600_000
const KEYS = 1600

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let env: string

const rand = mulberry32(1234)
const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
const impressions: object[] = []
const events: object[] = []
/** Each treatment's keys' latencies, in the order sent. */
const latencies: Record<string, number[][]> = { off: [], on: [] }

function generate(): void {
  for (let i = 0; i < KEYS; i++) {
    const key = `shopper-${i}`
    const treatment = i % 2 ? 'on' : 'off'
    const first = FROM + Math.floor(rand() * (TO - FROM - 3_600_000))
    impressions.push({ k: key, t: treatment, m: first, r: 'default rule' })
    const typical = 6 + 0.4 * normal() + (treatment === 'on' ? Math.log(1.15) : 0)
    const own: number[] = []
    for (let e = Math.floor(rand() * 8); e > 0; e--) {
      const ms = Math.round(Math.exp(typical + 0.5 * normal()) * 1000) / 1000
      own.push(ms)
      events.push({ eventTypeId: 'page_load', trafficTypeName: 'user', key, timestamp: first + 60_000, value: ms })
    }
    latencies[treatment]!.push(own)
  }
}

const METRICS = [
  { name: 'p90 load', type: 'quantile_of_events', quantile: 0.9, of: 'events' },
  { name: 'p99 load', type: 'quantile_of_events', quantile: 0.99, of: 'events' },
  { name: 'median key load', type: 'quantile_per_key', quantile: 0.5, of: 'keys' },
] as const
const ids: string[] = []

async function results(query: string): Promise<Json> {
  const res = await fetch(
    `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results?metrics=${ids.join(',')}&from=${FROM}&to=${TO}&${query}`,
    { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
  )
  const body = (await res.json()) as Json
  expect(res.status, JSON.stringify(body)).toBe(200)
  return body
}

let reference: Json

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_ADMIN_RATE_PER_SECOND: '1000', SLUICE_ADMIN_BURST: '1000' })
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  service = await t.start(['edge', 'admin', 'events'])
  generate()
  await sendExperiment(t, service.url, demo.environments[0]!.serverSideSdkKey, FLAG, impressions, events)
  for (const m of METRICS) {
    const { status, body } = await defineMetric(service.url, demo, {
      name: m.name,
      eventTypeId: 'page_load',
      type: m.type,
      quantile: m.quantile,
      desiredDirection: 'decrease',
    })
    expect(status, JSON.stringify(body)).toBe(201)
    expect(body['quantile']).toBe(m.quantile)
    ids.push(body['id'] as string)
  }
  reference = independent<Json>('test/compat/quantile_stats.py', {
    alpha: 0.05,
    baseline: 'off',
    metrics: METRICS.map((m, i) => ({
      id: String(i),
      nu: m.quantile,
      of: m.of,
      inverse: true,
      worseIf: 'increase',
      values: latencies,
    })),
  })
}, 180_000)
afterAll(async () => t?.close())

describe('quantile metrics against gbstats', () => {
  it('each treatment: the quantile, and the t-test of the difference, absolute and relative', async () => {
    const r = await results('')
    ;(r['metrics'] as Json[]).forEach((m, i) => {
      const ref = reference[String(i)]
      expect(m['quantile']).toBe(METRICS[i]!.quantile)
      for (const tr of ['off', 'on']) {
        const arm = ref['arms'][tr]
        expect(arm['zero'], `${m['name']} ${tr}`).toBe(false)
        expect(arm['nStar']).toBeGreaterThan(0)
        expect(m['perTreatment'][tr]['keys']).toBe(arm['n'])
        close(m['perTreatment'][tr]['mean'], arm['estimate'], `${m['name']} ${tr} quantile`)
        close(m['perTreatment'][tr]['variance'], arm['variance'], `${m['name']} ${tr} variance`)
      }
      const c = m['comparisons'][0]
      for (const kind of ['absolute', 'relative'])
        closeEstimate(c[kind], ref['on']['fixed'][kind], `${m['name']} ${kind}`)
    })
    // 15 % slower at every quantile, with about 800 keys and 3,000 events per arm: the events' p90 says so.
    expect(r['metrics'][0]['comparisons'][0]).toMatchObject({ significant: true, impact: 'undesired' })
  })

  it('the Bayesian reading of a quantile, and a quantile as a guardrail (p99 must not rise)', async () => {
    const b = await results('engine=bayesian')
    ;(b['metrics'] as Json[]).forEach((m, i) => {
      for (const kind of ['absolute', 'relative']) {
        const got = m['comparisons'][0]['bayesian'][kind]
        const want = reference[String(i)]['on']['bayesian'][kind]
        close(got['expected'], want['expected'], `${m['name']} ${kind} expected`)
        close(got['ci'][0], want['ci'][0], `${m['name']} ${kind} ci 0`)
        close(got['ci'][1], want['ci'][1], `${m['name']} ${kind} ci 1`)
        close(got['chanceToWin'], want['chanceToWin'], `${m['name']} ${kind} chance`)
        close(got['risk']['baseline'], want['risk'][0], `${m['name']} ${kind} risk 0`)
        close(got['risk']['treatment'], want['risk'][1], `${m['name']} ${kind} risk 1`)
      }
    })
    const g = await results(`guardrails=${ids.join(',')}`)
    ;(g['metrics'] as Json[]).forEach((m, i) => {
      const c = m['comparisons'][0]
      for (const kind of ['absolute', 'relative'])
        closeEstimate(c[kind], reference[String(i)]['on']['oneSided'][kind], `${m['name']} one-sided ${kind}`)
      expect(c['guardrail']).toBe(c['significant'] ? 'failing' : c['absolute']['estimate'] > 0 ? 'at risk' : 'ok')
    })
    expect(g['metrics'][0]['comparisons'][0]['guardrail']).toBe('failing')
  })

  it('refuses a quantile of 0, 1 or none, a cap on a quantile, and a quantile on another type, naming the field', async () => {
    const define = async (body: Json) => {
      const res = await defineMetric(service.url, demo, {
        name: `bad ${Math.random()}`,
        eventTypeId: 'page_load',
        desiredDirection: 'decrease',
        ...body,
      })
      expect(res.status, JSON.stringify(body)).toBe(400)
      return JSON.stringify(res.body)
    }
    for (const quantile of [0, 1, 1.5, -0.1])
      expect(await define({ type: 'quantile_of_events', quantile })).toContain('quantile')
    expect(await define({ type: 'quantile_of_events' })).toMatch(/quantile.*is required/)
    expect(await define({ type: 'quantile_per_key', quantile: 0.9, cap: 100 })).toMatch(/cap/)
    expect(await define({ type: 'quantile_per_key', quantile: 0.9, capPercentile: 0.99 })).toMatch(/capPercentile/)
    expect(await define({ type: 'sum_per_key', quantile: 0.9 })).toMatch(/quantile.*is only for/)
  })
})
