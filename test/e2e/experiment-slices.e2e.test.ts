// Results by dimension end to end: a generated experiment whose keys each visit from one of five platforms (a property
// of their first visit event) and were exposed by one of five rules, where only the keys in cars respond to the
// treatment, goes through the real intake (edge, Kafka, events consumer, ClickHouse). The test computes each slice's
// per-key values from what it sent: gbstats (two-sided t-tests) on each slice's values and statsmodels' multipletests
// on the slices' p-values in each correction scope must agree with Sluice's answer to 1e-6 relative, and the
// differential impact must flag the cars and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, defineMetric, sendExperiment, sendRetrying, type TestEnv } from '../support/harness.js'
import { close, independent, mulberry32 } from '../support/stats.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const FLAG = 'new_onboarding'
const FROM = 1_767_225_600_000
const TO = FROM + 4 * 3_600_000
const KEYS = 3000
const PLATFORMS = ['ios', 'android', 'web', 'tv', 'car'] as const // 'car' responds
const RULES = ['rule a', 'rule b', 'rule c', 'rule d', 'rule e'] as const

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let env: string
const ids: string[] = []

const rand = mulberry32(48)
const impressions: object[] = []
const events: object[] = []
/** Per key: its treatment, platform, rule, purchases. */
const keys: { treatment: string; platform: string; rule: string; purchases: number }[] = []

function generate(): void {
  for (let i = 0; i < KEYS; i++) {
    const key = `user-${i}`
    const treatment = i % 2 ? 'on' : 'off'
    // Platforms of 24, 23, 22, 21 and 10 % of the keys and rules of unequal sizes, so the top values have an order. The
    // responding slice is a small one: a slice's effect is compared with the rest's, which holds a share of it.
    const u = rand()
    const platform = PLATFORMS[u < 0.24 ? 0 : u < 0.47 ? 1 : u < 0.69 ? 2 : u < 0.9 ? 3 : 4]
    const rule = RULES[Math.floor(rand() ** 1.5 * 5)]!
    const first = FROM + Math.floor(rand() * (TO - FROM - 3_600_000))
    impressions.push({ k: key, t: treatment, m: first, r: rule })
    events.push({
      eventTypeId: 'visit',
      trafficTypeName: 'user',
      key,
      // At exposure: the window holds it (it is the first of the key's visits in the window that counts).
      timestamp: first,
      properties: { platform },
    })
    // A later visit from another platform: the first one decides the slice.
    events.push({
      eventTypeId: 'visit',
      trafficTypeName: 'user',
      key,
      timestamp: first + 60_000,
      properties: { platform: 'later' },
    })
    const responds = treatment === 'on' && platform === 'car'
    const purchases = Math.floor(rand() * (responds ? 4.2 : 3)) // 1.62 on average where it responds, else 1
    for (let p = 0; p < purchases; p++)
      events.push({ eventTypeId: 'purchase', trafficTypeName: 'user', key, timestamp: first + 120_000, value: 10 })
    keys.push({ treatment, platform, rule, purchases })
  }
}

async function results(query: string, status = 200): Promise<Json> {
  const res = await fetch(
    `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results?metrics=${ids.join(',')}&from=${FROM}&to=${TO}&${query}`,
    { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
  )
  const body = (await res.json()) as Json
  expect(res.status, JSON.stringify(body).slice(0, 500)).toBe(status)
  return body
}

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_ADMIN_RATE_PER_SECOND: '1000', SLUICE_ADMIN_BURST: '1000' })
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  service = await t.start(['edge', 'admin', 'events'])
  generate()
  await sendExperiment(t, service.url, demo.environments[0]!.serverSideSdkKey, FLAG, impressions, events)
  for (const [name, type] of [
    ['Purchases', 'count_per_key'],
    ['Buyers', 'percent_of_keys'],
  ] as const) {
    const { body } = await defineMetric(service.url, demo, {
      name,
      eventTypeId: 'purchase',
      type,
      desiredDirection: 'increase',
    })
    ids.push(body['id'] as string)
  }
}, 180_000)
afterAll(async () => t?.close())

/** gbstats' two-sided tests of each metric in the keys `of` a slice. */
function reference(of: (k: (typeof keys)[number]) => boolean): Json {
  const values = (f: (k: (typeof keys)[number]) => number) => ({
    off: keys.filter((k) => of(k) && k.treatment === 'off').map(f),
    on: keys.filter((k) => of(k) && k.treatment === 'on').map(f),
  })
  return independent<Json>('test/compat/experiment_methods.py', {
    alpha: 0.05,
    baseline: 'off',
    tunings: [],
    metrics: [
      { id: '0', proportion: false, values: values((k) => k.purchases) },
      { id: '1', proportion: true, values: values((k) => (k.purchases > 0 ? 1 : 0)) },
    ],
  })['metrics']
}

describe('results by dimension', () => {
  it("by a property of the key's first event: each slice as gbstats computes it, and the planted slice flagged", async () => {
    const r = await results('dimension=event:visit:platform')
    const d = r['dimension']
    expect(d).toMatchObject({ dimension: { kind: 'event', eventTypeId: 'visit', property: 'platform' }, maxSlices: 10 })
    const slices = d['slices'] as Json[]
    // Every platform, the most keys first; no key in "later" (a later visit) and no other.
    const counts = PLATFORMS.map((p) => [p, keys.filter((k) => k.platform === p).length] as const).sort(
      (a, b) => b[1] - a[1],
    )
    expect(slices.map((s) => [s['value'], s['exposure']['keys']])).toEqual(counts)
    for (const s of slices) {
      const ref = reference((k) => k.platform === s['value'])
      ;(s['metrics'] as Json[]).forEach((m, i) => {
        const c = m['comparisons'][0]
        for (const kind of ['absolute', 'relative']) {
          const want = ref[String(i)]['on']['fixed'][kind]
          close(c[kind]['estimate'], want['estimate'], `${s['value']} ${m['name']} ${kind} estimate`)
          close(c[kind]['pValue'], want['pValue'], `${s['value']} ${m['name']} ${kind} p`)
          close(c[kind]['ci'][0], want['ci'][0], `${s['value']} ${m['name']} ${kind} ci`)
        }
      })
    }
    const flagged = (metric: number) =>
      slices
        .filter((s) => s['metrics'][metric]['comparisons'][0]['differentialImpact']?.['flagged'])
        .map((s) => s['value'])
    expect(flagged(0)).toEqual(['car'])
    expect(flagged(1).every((v: string) => v === 'car')).toBe(true)
  })

  it.each(['all', 'metric', 'slice'] as const)(
    'corrects the slices within the %s scope as statsmodels does',
    async (scope) => {
      for (const correction of ['bh', 'holm'] as const) {
        const r = await results(`dimension=event:visit:platform&correctionScope=${scope}&correction=${correction}`)
        const all = (r['dimension']['slices'] as Json[]).flatMap((s, k) =>
          (s['metrics'] as Json[]).map((m, i) => ({
            c: m['comparisons'][0],
            family: scope === 'all' ? 0 : scope === 'metric' ? i : k,
          })),
        )
        const families = [...new Set(all.map((x) => x.family))]
        for (const f of families) {
          const members = all.filter((x) => x.family === f)
          const want = independent<Json>('test/compat/experiment_methods.py', {
            alpha: 0.05,
            baseline: 'off',
            tunings: [],
            metrics: [],
            pValues: members.map((x) => x.c['absolute']['pValue']),
          })[correction]
          members.forEach((x, j) => {
            close(x.c['adjustedPValue'], want[j], `${scope} ${correction} family ${f} member ${j}`)
            expect(x.c['familySize']).toBe(members.length)
          })
        }
      }
    },
  )

  it('by the rule of the first impression: the top values, the rest as other', async () => {
    const r = await results('dimension=rule&maxSlices=3')
    const slices = r['dimension']['slices'] as Json[]
    const counts = RULES.map((rule) => [rule, keys.filter((k) => k.rule === rule).length] as const).sort(
      (a, b) => b[1] - a[1],
    )
    expect(slices.map((s) => s['value'])).toEqual([...counts.slice(0, 3).map((c) => c[0]), null])
    expect(slices.map((s) => s['exposure']['keys'])).toEqual([
      ...counts.slice(0, 3).map((c) => c[1]),
      counts.slice(3).reduce((a, c) => a + c[1], 0),
    ])
    expect(r['dimension']['correctionScope']).toBe('all')
  })

  it('sluice experiments results prints the slices the API answers, the flagged one said so', async () => {
    const args = ['experiments', 'results', FLAG, '--environment', env, '--from', String(FROM), '--to', String(TO)]
    for (const id of ids) args.push('--metric', id)
    args.push('--dimension', 'event:visit:platform', '--correction-scope', 'metric')
    const json = await runSluice([...args, '--json'], t.env)
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual(await results('dimension=event:visit:platform&correctionScope=metric'))
    const table = await runSluice(args, t.env)
    expect(table.stdout).toContain('by visit.platform (top 10; correction within metric)')
    expect(table.stdout).toMatch(/^ {2}Purchases, on: lift .* DIFFERS from the rest/m)
    expect(table.stdout.match(/DIFFERS/g)?.length).toBeGreaterThanOrEqual(1)
    expect(table.stdout).toMatch(/^"car": \d+ keys/m)
  })

  it("by an attribute of the key's identity (Split Admin API identities in Redis): the same slices as gbstats", async () => {
    const admin = { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' }
    const identities = (tt: string, environment: string) =>
      `${service.url}/internal/api/v2/trafficTypes/${tt}/environments/${environment}/identities`
    const types = (await (
      await fetch(`${service.url}/internal/api/v2/trafficTypes/ws/${demo.workspaceId}`, { headers: admin })
    ).json()) as { id: string; name: string }[]
    const user = types.find((tt) => tt.name === 'user')!
    // Each key's device is its platform, but the last 100 keys' identities have no device (the slice ''), and keys of
    // another traffic type's identities are not read.
    const saved = keys.map((k, i) => ({
      key: `user-${i}`,
      values: i < KEYS - 100 ? { device: k.platform } : { x: '1' },
    }))
    for (let i = 0; i < saved.length; i += 1000) {
      const res = await sendRetrying(() =>
        fetch(identities(user.id, env), {
          method: 'POST',
          headers: admin,
          body: JSON.stringify(saved.slice(i, i + 1000)),
        }),
      )
      expect(res.status, await res.text()).toBe(200)
    }
    const r = await results('dimension=identity:user:device')
    expect(r['dimension']['dimension']).toEqual({ kind: 'identity', trafficType: 'user', attribute: 'device' })
    const slices = r['dimension']['slices'] as Json[]
    const device = (i: number) => (i < KEYS - 100 ? keys[i]!.platform : '')
    const counts = [...PLATFORMS, '']
      .map((p) => [p, keys.filter((_k, i) => device(i) === p).length] as const)
      .sort((a, b) => b[1] - a[1])
    expect(slices.map((s) => [s['value'], s['exposure']['keys']])).toEqual(counts)
    for (const s of slices) {
      const ref = reference((k) => device(keys.indexOf(k)) === s['value'])
      ;(s['metrics'] as Json[]).forEach((m, i) => {
        const c = m['comparisons'][0]
        close(c['absolute']['estimate'], ref[String(i)]['on']['fixed']['absolute']['estimate'], `${s['value']} ${i}`)
        close(c['absolute']['pValue'], ref[String(i)]['on']['fixed']['absolute']['pValue'], `${s['value']} ${i} p`)
      })
    }
    expect(
      slices.filter((s) => s['metrics'][0]['comparisons'][0]['differentialImpact']?.['flagged']).map((s) => s['value']),
    ).toEqual(['car'])
    // By the traffic type's id too; an attribute no identity has (an own property only: not Object's constructor) is
    // every key in the slice ''.
    expect((await results(`dimension=identity:${user.id}:device`))['dimension']['slices']).toEqual(slices)
    const none = (await results('dimension=identity:user:constructor'))['dimension']['slices'] as Json[]
    expect(none.map((s) => [s['value'], s['exposure']['keys']])).toEqual([['', KEYS]])
    // A traffic type the workspace has not: 400 naming the field.
    expect(JSON.stringify(await results('dimension=identity:robot:device', 400))).toContain('dimension')
    // More identities than a breakdown reads (in the second environment, read before any query): the limit, named.
    const other = demo.environments[1]!.id
    for (let i = 0; i < 100_001; i += 10_000) {
      const body = Array.from({ length: Math.min(10_000, 100_001 - i) }, (_, j) => ({
        key: `many-${i + j}`,
        values: { device: 'x' },
      }))
      const res = await sendRetrying(() =>
        fetch(identities(user.id, other), { method: 'POST', headers: admin, body: JSON.stringify(body) }),
      )
      expect(res.status, await res.text()).toBe(200)
    }
    const res = await fetch(
      `${service.url}/api/v1/environments/${other}/experiments/${FLAG}/results?metrics=${ids.join(',')}&from=${FROM}&to=${TO}&dimension=identity:user:device`,
      { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
    )
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBeNull()
    expect(((await res.json()) as Json)['message']).toMatch(
      /more than 100000 identities.*event:<event type>:<property>/,
    )
  }, 120_000)

  it('refuses a dimension it cannot read, a number of slices out of range, and a scope without a dimension', async () => {
    for (const [query, field] of [
      ['dimension=browser', 'dimension'],
      ['dimension=event::platform', 'dimension'],
      ['dimension=identity:user:__proto__', 'dimension'],
      ['dimension=identity::device', 'dimension'],
      ['dimension=rule&maxSlices=0', 'maxSlices'],
      ['dimension=rule&maxSlices=21', 'maxSlices'],
      ['correctionScope=slice', 'correctionScope'],
      ['dimension=rule&correctionScope=everything', 'correctionScope'],
    ] as const)
      expect(JSON.stringify(await results(query, 400)), query).toContain(field)
  })
})
