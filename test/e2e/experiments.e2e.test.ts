// Experiment results end to end, checked against independent implementations. A generated experiment
// (3 treatments, a known effect, events before and long after exposure, keys that saw two treatments,
// keys without events, impressions outside the window, events of another traffic type and another
// environment, a metric whose baseline mean is 0) goes through the real intake (edge, Kafka, events
// consumer, ClickHouse). The test computes each key's metric values itself, straight from what it
// sent and the attribution rules, and has scipy (ttest_ind with equal_var=False, chisquare,
// false_discovery_control) and GrowthBook's gbstats compute the statistics from them; Sluice's
// answer must agree to 1e-6 relative. Also: the metrics API (scopes, roles, audit), and bad input,
// including SQL in every parameter, answered 400 or 404 with the tables intact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { close, independent as statsOf, seeded } from '../support/stats.js'
import { createTestEnv, postEvents, sendExperiment, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const KEYS = 4000
const FLAG = 'checkout_redesign'
const T0 = 1_764_000_000_000
const FROM = T0
const TO = T0 + 2 * 3600_000
const MIN = 60_000
const TREATMENTS = ['off', 'on', 'v2'] as const
const WEIGHTS = { off: 40, on: 40, v2: 20 }

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let env: string

// A seeded generator: the same experiment every run.
const rand = seeded(42)
const int = (n: number) => Math.floor(rand() * n)

interface Imp {
  k: string
  t: string
  m: number
  r: string
}
interface Ev {
  eventTypeId: string
  trafficTypeName: string
  key: string
  timestamp: number
  value?: number | null
  properties?: Record<string, unknown>
}
const impressions: Imp[] = []
const events: Ev[] = []
const otherEnvEvents: Ev[] = []

function generate(): void {
  for (let i = 0; i < KEYS; i++) {
    const key = `user-${i}`
    const u = rand()
    const treatment = u < 0.4 ? 'off' : u < 0.8 ? 'on' : 'v2'
    const first = FROM + int(TO - FROM - 10 * MIN) + 5 * MIN
    const label = i % 5 === 0 ? 'in segment beta' : 'default rule'
    impressions.push({ k: key, t: treatment, m: first, r: label })
    // Repeats, some under another rule with the same treatment (kept).
    if (i % 3 === 0)
      impressions.push({
        k: key,
        t: treatment,
        m: first + int(5 * MIN) + 1,
        r: i % 2 ? 'default rule' : 'in segment beta',
      })
    // Before the window with another treatment: outside the window, so not an exclusion.
    if (i % 17 === 0)
      impressions.push({ k: key, t: treatment === 'on' ? 'off' : 'on', m: FROM - 30 * MIN, r: 'default rule' })
    // A second treatment inside the window: excluded.
    if (i % 53 === 0)
      impressions.push({ k: key, t: treatment === 'on' ? 'v2' : 'on', m: first + 2 * MIN, r: 'default rule' })
    if (i % 10 < 3) continue // keys without events
    const lift = treatment === 'on' ? 1 : treatment === 'v2' ? 0.5 : 0
    const purchases = int(3 + lift * 2)
    for (let p = 0; p < purchases; p++) {
      const amount = Math.round((20 + rand() * 80 + lift * 15) * 100) / 100
      events.push({
        eventTypeId: 'purchase',
        trafficTypeName: 'user',
        key,
        timestamp: first + int(60 * MIN),
        value: p % 4 === 3 ? null : amount,
        properties: { amount, plan: rand() < 0.6 ? 'pro' : 'free', seats: int(5) },
      })
    }
    for (let v = 0; v < 1 + int(4); v++)
      events.push({ eventTypeId: 'visit', trafficTypeName: 'user', key, timestamp: first + int(60 * MIN) })
    // Only the treatments upgrade: the baseline mean of this metric is 0.
    if (treatment !== 'off' && rand() < 0.3)
      events.push({ eventTypeId: 'upgrade', trafficTypeName: 'user', key, timestamp: first + MIN })
    // Around the attribution bounds: 20 min before exposure (out), 10 before (in), 14 after `to` (in), 16 after (out).
    if (i % 7 === 0)
      events.push({
        eventTypeId: 'purchase',
        trafficTypeName: 'user',
        key,
        timestamp: first - 20 * MIN,
        value: 500,
        properties: { amount: 500, plan: 'pro' },
      })
    if (i % 7 === 1)
      events.push({
        eventTypeId: 'purchase',
        trafficTypeName: 'user',
        key,
        timestamp: first - 10 * MIN,
        value: 7,
        properties: { amount: 7, plan: 'pro' },
      })
    if (i % 11 === 0)
      events.push({
        eventTypeId: 'purchase',
        trafficTypeName: 'user',
        key,
        timestamp: TO + 14 * MIN,
        value: 3,
        properties: { amount: 3, plan: 'pro' },
      })
    if (i % 11 === 1)
      events.push({
        eventTypeId: 'purchase',
        trafficTypeName: 'user',
        key,
        timestamp: TO + 16 * MIN,
        value: 900,
        properties: { amount: 900, plan: 'pro' },
      })
    // Another traffic type with the same key, and another environment: never counted.
    if (i % 13 === 0)
      events.push({ eventTypeId: 'purchase', trafficTypeName: 'account', key, timestamp: first + MIN, value: 1000 })
    if (i % 13 === 1)
      otherEnvEvents.push({
        eventTypeId: 'purchase',
        trafficTypeName: 'user',
        key,
        timestamp: first + MIN,
        value: 1000,
      })
  }
}

const METRICS = [
  {
    name: 'Purchases per user',
    trafficType: 'user',
    eventTypeId: 'purchase',
    type: 'count_per_key',
    desiredDirection: 'increase',
  },
  {
    name: 'Revenue per user (capped)',
    trafficType: 'user',
    eventTypeId: 'purchase',
    type: 'sum_per_key',
    cap: 150,
    desiredDirection: 'increase',
  },
  {
    name: 'Average pro amount',
    trafficType: 'user',
    eventTypeId: 'purchase',
    type: 'average_per_key',
    valueProperty: 'amount',
    propertyFilter: { property: 'plan', operator: 'equals', value: 'pro' },
    desiredDirection: 'increase',
  },
  {
    name: 'Purchases per visit',
    trafficType: 'user',
    eventTypeId: 'purchase',
    type: 'ratio_per_key',
    denominatorEventTypeId: 'visit',
    desiredDirection: 'increase',
  },
  {
    name: 'Buyers',
    trafficType: 'user',
    eventTypeId: 'purchase',
    type: 'percent_of_keys',
    desiredDirection: 'increase',
  },
  {
    name: 'Upgrades per user',
    trafficType: 'user',
    eventTypeId: 'upgrade',
    type: 'count_per_key',
    desiredDirection: 'increase',
  },
] as const
const metricIds: string[] = []

/** Each key's metric values, computed here from what was sent and the attribution rules (not by Sluice). */
function expected(rule?: string) {
  const byKey = new Map<string, Imp[]>()
  for (const i of impressions) if (i.m >= FROM && i.m <= TO) byKey.set(i.k, [...(byKey.get(i.k) ?? []), i])
  const eventsOf = new Map<string, Ev[]>()
  for (const e of events) eventsOf.set(e.key, [...(eventsOf.get(e.key) ?? []), e])
  const exposure: Record<string, number> = {}
  let excluded = 0
  const values = METRICS.map(
    () => Object.fromEntries(TREATMENTS.map((t) => [t, [] as number[]])) as Record<string, number[]>,
  )
  for (const [key, imps] of byKey) {
    const ofRule = rule === undefined ? imps : imps.filter((i) => i.r === rule)
    if (ofRule.length === 0) continue
    if (new Set(imps.map((i) => i.t)).size > 1) {
      excluded++
      continue
    }
    const treatment = imps[0]!.t
    exposure[treatment] = (exposure[treatment] ?? 0) + 1
    const first = Math.min(...ofRule.map((i) => i.m))
    const counted = (eventsOf.get(key) ?? []).filter(
      (e) => e.trafficTypeName === 'user' && e.timestamp >= first - 15 * MIN && e.timestamp <= TO + 15 * MIN,
    )
    const of = (type: string) => counted.filter((e) => e.eventTypeId === type)
    const purchases = of('purchase')
    const withValue = purchases.filter((e) => e.value !== null && e.value !== undefined)
    const pro = purchases.filter((e) => e.properties?.['plan'] === 'pro')
    const perKey: (number | undefined)[] = [
      purchases.length,
      Math.min(
        withValue.reduce((s, e) => s + e.value!, 0),
        150,
      ),
      pro.length > 0 ? pro.reduce((s, e) => s + Number(e.properties!['amount']), 0) / pro.length : undefined,
      of('visit').length > 0 ? purchases.length / of('visit').length : undefined,
      purchases.length > 0 ? 1 : 0,
      of('upgrade').length,
    ]
    perKey.forEach((v, m) => {
      if (v !== undefined) values[m]![treatment]!.push(v)
    })
  }
  return { exposure, excluded, values }
}

const independent = (input: unknown) => statsOf<Json>('test/compat/experiment_stats.py', input)

async function call(
  method: string,
  path: string,
  body?: unknown,
  key = demo.adminApiKey,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} }
}

const results = (query: string, key?: string, envId = env, flag = FLAG) =>
  call(
    'GET',
    `/api/v1/environments/${encodeURIComponent(envId)}/experiments/${encodeURIComponent(flag)}/results?${query}`,
    undefined,
    key,
  )
const window = `from=${FROM}&to=${new Date(TO).toISOString()}`

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_ADMIN_RATE_PER_SECOND: '1000', SLUICE_ADMIN_BURST: '1000' })
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  service = await t.start(['edge', 'admin', 'events'])
  generate()
  expect((await postEvents(service.url, demo.environments[1]!.serverSideSdkKey, otherEnvEvents)).status).toBe(202)
  const sdkKey = demo.environments[0]!.serverSideSdkKey
  await sendExperiment(t, service.url, sdkKey, FLAG, impressions, events, otherEnvEvents.length)
  for (const m of METRICS) {
    const res = await call('POST', `/api/v1/workspaces/${demo.workspaceId}/metrics`, m)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    metricIds.push(res.body['id'] as string)
  }
}, 180_000)
afterAll(async () => t?.close())

describe('results against scipy and gbstats', () => {
  it('agrees on exposures, per-treatment values, estimates, intervals, p-values, adjustments and the sample ratio', async () => {
    const res = await results(`metrics=${metricIds.join(',')}&${window}&baseline=off&weights=off:40,on:40,v2:20`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const r = res.body
    const want = expected()
    expect(r['exposure']).toEqual({
      keys: Object.values(want.exposure).reduce((a, b) => a + b, 0),
      perTreatment: want.exposure,
      excludedKeys: want.excluded,
    })
    expect(want.excluded).toBeGreaterThan(50)

    const pValues = (r['metrics'] as Json[]).flatMap((m) =>
      (m['comparisons'] as Json[]).map((c) => c['absolute']['pValue'] as number),
    )
    const ref = independent({
      alpha: 0.05,
      baseline: 'off',
      metrics: METRICS.map((m, i) => ({
        id: String(i),
        proportion: m.type === 'percent_of_keys',
        values: want.values[i],
      })),
      pValues,
      observed: want.exposure,
      expected: WEIGHTS,
    })

    let compared = 0
    ;(r['metrics'] as Json[]).forEach((m, i) => {
      expect(m['metricId']).toBe(metricIds[i])
      const proportion = METRICS[i]!.type === 'percent_of_keys'
      for (const t of TREATMENTS) {
        const values = want.values[i]![t]!
        const mean = values.reduce((a, b) => a + b, 0) / values.length
        expect(m['perTreatment'][t]['keys'], `${m['name']} ${t} keys`).toBe(values.length)
        close(m['perTreatment'][t]['mean'], mean, `${m['name']} ${t} mean`)
      }
      for (const c of m['comparisons'] as Json[]) {
        const x = ref['metrics'][String(i)][c['treatment']]
        const what = `${m['name']} ${c['treatment']}`
        close(
          m['perTreatment'][c['treatment']]['variance'],
          proportion ? x['mean'] * (1 - x['mean']) : x['variance'],
          `${what} variance`,
        )
        // The absolute difference: Welch's t-test as scipy computes it (gbstats' for proportions, whose variance is p(1
        // − p)).
        const abs = proportion ? x['absolute'] : x['welch']
        close(c['absolute']['estimate'], abs['estimate'], `${what} absolute estimate`)
        close(c['absolute']['pValue'], abs['pValue'], `${what} absolute p`)
        close(c['absolute']['ci'][0], abs['ci'][0], `${what} absolute ci low`)
        close(c['absolute']['ci'][1], abs['ci'][1], `${what} absolute ci high`)
        if (!proportion) close(c['degreesOfFreedom'], x['welch']['df'], `${what} degrees of freedom`)
        // The relative lift: gbstats' delta method; with a baseline mean of 0 the absolute change.
        if (x['relative']['error'] === null) {
          expect(c['relative']['of']).toBe('baseline-mean')
          close(c['relative']['estimate'], x['relative']['estimate'], `${what} relative estimate`)
          close(c['relative']['pValue'], x['relative']['pValue'], `${what} relative p`)
          close(c['relative']['ci'][0], x['relative']['ci'][0], `${what} relative ci low`)
          close(c['relative']['ci'][1], x['relative']['ci'][1], `${what} relative ci high`)
        } else {
          expect(m['name']).toBe('Upgrades per user')
          expect(c['relative']).toEqual({ ...c['absolute'], of: 'absolute-change' })
        }
        compared++
      }
    })
    expect(compared).toBe(METRICS.length * 2)
    // Benjamini–Hochberg over all comparisons, in answer order.
    const adjusted = (r['metrics'] as Json[]).flatMap((m) =>
      (m['comparisons'] as Json[]).map((c) => c['adjustedPValue'] as number),
    )
    adjusted.forEach((p, i) => close(p, ref['bh'][i], `adjusted p ${i}`))
    close(r['srm']['pValue'], ref['srm']['pValue'], 'sample ratio p')
    close(r['srm']['chiSquared'], ref['srm']['chiSquared'], 'sample ratio chi²')
    expect(r['srm']['mismatch']).toBe(ref['srm']['pValue'] < 0.001)
    expect(r['srm']['expected']).toEqual({ off: 0.4, on: 0.4, v2: 0.2 })
    // The known effect is found: more purchases in on, called significant and desired.
    const purchases = (r['metrics'] as Json[])[0]!['comparisons'] as Json[]
    expect(purchases.find((c) => c['treatment'] === 'on')).toMatchObject({ significant: true, impact: 'desired' })

    // The published gbstats vector, recomputed by gbstats itself, against Sluice's statistics.
    const { meanSummary } = await import('../../src/analysis/models.js')
    const { welch } = await import('../../src/analysis/frequentist.js')
    const v = welch(
      meanSummary({ n: 3407, sum: 1396.87, sumSquares: 52377.9767 }),
      meanSummary({ n: 3461, sum: 2422.7, sumSquares: 134698.29 }),
      0.05,
    )
    for (const kind of ['absolute', 'relative'] as const) {
      close(v[kind].estimate, ref['vector'][kind]['estimate'], `vector ${kind} estimate`)
      close(v[kind].pValue!, ref['vector'][kind]['pValue'], `vector ${kind} p`)
      close(v[kind].ci![0]!, ref['vector'][kind]['ci'][0], `vector ${kind} ci low`)
      close(v[kind].ci![1]!, ref['vector'][kind]['ci'][1], `vector ${kind} ci high`)
    }
  })

  it('restricts the analysis to one targeting rule', async () => {
    const res = await results(`metrics=${metricIds[0]}&${window}&rule=${encodeURIComponent('in segment beta')}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const want = expected('in segment beta')
    expect(res.body['exposure']).toEqual({
      keys: Object.values(want.exposure).reduce((a, b) => a + b, 0),
      perTreatment: want.exposure,
      excludedKeys: expect.any(Number),
    })
    expect(res.body['rule']).toBe('in segment beta')
    expect(res.body['baseline']).toBe('off')
    for (const t of TREATMENTS)
      expect(res.body['metrics'][0]['perTreatment'][t]['keys']).toBe(want.values[0]![t]!.length)
  })

  it('calls nothing significant below the minimum sample, whatever the p-value', async () => {
    const query = `metrics=${metricIds[0]}&${window}&baseline=off`
    const on = async (extra: string) =>
      ((await results(query + extra)).body['metrics'][0]['comparisons'] as Json[]).find((c) => c['treatment'] === 'on')!
    const enough = await on('')
    expect(enough).toMatchObject({ significant: true, note: null })
    const few = await on('&minKeys=2000')
    expect(few).toMatchObject({ significant: false, impact: 'inconclusive', adjustedPValue: enough['adjustedPValue'] })
    expect(few['note']).toMatch(/fewer than 2000 keys in off and on/)
  })

  it('analyses only the treatments the weights name, still counting the others', async () => {
    const res = await results(`metrics=${metricIds[0]}&${window}&weights=off:1,on:1`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const want = expected()
    expect(res.body['exposure']['perTreatment']).toEqual(want.exposure)
    expect(Object.keys(res.body['srm']['expected']).sort()).toEqual(['off', 'on'])
    expect(Object.keys(res.body['metrics'][0]['perTreatment']).sort()).toEqual(['off', 'on'])
    expect((res.body['metrics'][0]['comparisons'] as Json[]).map((c) => c['treatment'])).toEqual(['on'])
  })

  it('compares properties by type: a number filter skips events without the property, a string filter never matches numbers', async () => {
    const path = `/api/v1/workspaces/${demo.workspaceId}/metrics`
    const seats = await call('POST', path, {
      name: 'Purchases of 3+ seats',
      trafficType: 'user',
      eventTypeId: 'purchase',
      type: 'count_per_key',
      propertyFilter: { property: 'seats', operator: 'greater_than', value: 2 },
      desiredDirection: 'increase',
    })
    const free = await call('POST', path, {
      name: 'Non-pro purchases',
      trafficType: 'user',
      eventTypeId: 'purchase',
      type: 'count_per_key',
      propertyFilter: { property: 'plan', operator: 'not_equals', value: 'pro' },
      desiredDirection: 'increase',
    })
    const text = await call('POST', path, {
      name: 'Seats as text',
      trafficType: 'user',
      eventTypeId: 'purchase',
      type: 'count_per_key',
      propertyFilter: { property: 'seats', operator: 'equals', value: '3' },
      desiredDirection: 'increase',
    })
    const res = await results(`metrics=${seats.body['id']},${free.body['id']},${text.body['id']}&${window}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    // Counted here from what was sent: exposed keys' purchases in the attribution span.
    const want = expected()
    const exposedFirst = new Map<string, number>()
    for (const i of impressions)
      if (i.m >= FROM && i.m <= TO) exposedFirst.set(i.k, Math.min(exposedFirst.get(i.k) ?? Infinity, i.m))
    const treatmentOf = new Map(impressions.filter((i) => i.m >= FROM && i.m <= TO).map((i) => [i.k, i.t]))
    const excluded = new Set(
      [...exposedFirst.keys()].filter(
        (k) => new Set(impressions.filter((i) => i.k === k && i.m >= FROM && i.m <= TO).map((i) => i.t)).size > 1,
      ),
    )
    const sums = [{}, {}, {}] as Record<string, number>[]
    for (const e of events) {
      const first = exposedFirst.get(e.key)
      if (
        first === undefined ||
        excluded.has(e.key) ||
        e.trafficTypeName !== 'user' ||
        e.eventTypeId !== 'purchase' ||
        e.timestamp < first - 15 * MIN ||
        e.timestamp > TO + 15 * MIN
      )
        continue
      const t = treatmentOf.get(e.key)!
      const p = e.properties ?? {}
      if (typeof p['seats'] === 'number' && p['seats'] > 2) sums[0]![t] = (sums[0]![t] ?? 0) + 1
      if (typeof p['plan'] === 'string' && p['plan'] !== 'pro') sums[1]![t] = (sums[1]![t] ?? 0) + 1
    }
    ;(res.body['metrics'] as Json[]).forEach((m, i) => {
      for (const t of TREATMENTS) {
        expect(m['perTreatment'][t]['sum'], `${m['name']} ${t}`).toBe(sums[i]![t] ?? 0)
        expect(m['perTreatment'][t]['keys']).toBe(want.exposure[t])
      }
    })
  })

  it('lists the flags seen in the environment with their treatments', async () => {
    const res = await call('GET', `/api/v1/environments/${env}/experiments?from=${FROM - 3600_000}&to=${TO}`)
    expect(res.status).toBe(200)
    expect(res.body['flags']).toEqual([
      expect.objectContaining({ flag: FLAG, treatments: ['off', 'on', 'v2'], impressions: impressions.length }),
    ])
  })
})

describe('sluice experiments', () => {
  it('prints the same results as the API, as a table or as the JSON document', async () => {
    const args = [
      'experiments',
      'results',
      FLAG,
      '--environment',
      env,
      '--metric',
      metricIds[0]!,
      '--metric',
      metricIds[4]!,
      '--from',
      String(FROM),
      '--to',
      new Date(TO).toISOString(),
    ]
    const api = await results(`metrics=${metricIds[0]},${metricIds[4]}&${window}`)
    const json = await runSluice([...args, '--json'], t.env)
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual(api.body)
    const table = await runSluice(args, t.env)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(`exposed keys: ${api.body['exposure']['keys']}`)
    expect(table.stdout).toMatch(/Purchases per user \(count_per_key, increase is good\)/)
    expect(table.stdout).toMatch(/^on .* significant, desired/m)
    const flags = await runSluice(
      ['experiments', 'flags', '--environment', env, '--from', String(FROM - 3600_000), '--to', String(TO)],
      t.env,
    )
    expect(flags.stdout).toContain(`${FLAG}  off,on,v2`)
    const bad = await runSluice([...args.slice(0, -4), '--from', String(TO), '--to', String(FROM)], t.env)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/to must be after from/)
  })
})

describe('metrics API', () => {
  it('creates, reads, replaces and deletes a metric, each change in the audit log', async () => {
    const path = `/api/v1/workspaces/${demo.workspaceId}/metrics`
    const created = await call('POST', path, {
      name: 'Visits',
      trafficType: 'user',
      eventTypeId: 'visit',
      type: 'count_per_key',
      desiredDirection: 'increase',
    })
    expect(created).toMatchObject({
      status: 201,
      body: { name: 'Visits', type: 'count_per_key', valueProperty: null, cap: null, workspaceId: demo.workspaceId },
    })
    const id = created.body['id'] as string
    expect((await call('GET', `${path}/${id}`)).body).toEqual(created.body)
    expect((await call('POST', path, { ...METRICS[0], name: 'Visits' })).status).toBe(409)
    const replaced = await call('PUT', `${path}/${id}`, {
      name: 'Visits (capped)',
      trafficType: 'user',
      eventTypeId: 'visit',
      type: 'count_per_key',
      cap: 3,
      desiredDirection: 'decrease',
    })
    expect(replaced).toMatchObject({
      status: 200,
      body: { id, name: 'Visits (capped)', cap: 3, createdAt: created.body['createdAt'] },
    })
    expect((await call('DELETE', `${path}/${id}`)).status).toBe(204)
    expect((await call('GET', `${path}/${id}`)).status).toBe(404)
    const audit = (await call('GET', `/api/v1/workspaces/${demo.workspaceId}/metrics-audit`)).body['entries'] as Json[]
    expect(audit.filter((e) => e['metricId'] === id).map((e) => [e['action'], e['name'], e['who']['name']])).toEqual([
      ['delete', 'Visits (capped)', 'demo admin'],
      ['update', 'Visits (capped)', 'demo admin'],
      ['create', 'Visits', 'demo admin'],
    ])
    // The name is free again.
    expect(
      (
        await call('POST', path, {
          name: 'Visits',
          trafficType: 'user',
          eventTypeId: 'visit',
          type: 'count_per_key',
          desiredDirection: 'increase',
        })
      ).status,
    ).toBe(201)
  })

  it('refuses definitions that break a rule, naming the field', async () => {
    const path = `/api/v1/workspaces/${demo.workspaceId}/metrics`
    const base = {
      name: 'x',
      trafficType: 'user',
      eventTypeId: 'purchase',
      type: 'count_per_key',
      desiredDirection: 'increase',
    }
    const cases: [Json, string][] = [
      [{ ...base, type: 'ratio_per_key' }, 'denominatorEventTypeId'],
      [{ ...base, denominatorEventTypeId: 'visit' }, 'denominatorEventTypeId'],
      [{ ...base, valueProperty: 'amount' }, 'valueProperty'],
      [{ ...base, type: 'sum_per_key', valueProperty: 'am"ount' }, 'valueProperty'],
      [{ ...base, type: 'percent_of_keys', cap: 3 }, 'cap'],
      [{ ...base, trafficType: 'account' }, 'trafficType'],
      [{ ...base, eventTypeId: "x' OR 1=1" }, 'eventTypeId'],
      [{ ...base, propertyFilter: { property: 'a', operator: 'greater_than', value: true } }, 'propertyFilter.value'],
      [{ ...base, type: 'median' }, 'type'],
      [{ ...base, desiredDirection: 'up' }, 'desiredDirection'],
      [{ ...base, extra: 1 }, 'extra'],
    ]
    for (const [body, field] of cases) {
      const res = await call('POST', path, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(JSON.stringify(res.body['details'] ?? res.body['message']), JSON.stringify(body)).toContain(field)
    }
  })

  it('lets read-only keys read metrics and results but not change metrics; scoped keys see only their environments', async () => {
    const { key: viewer } = await t.tenancy.createApiKey({
      kind: 'admin',
      accountId: demo.accountId,
      name: 'viewer',
      role: 'segment-viewer',
    })
    const path = `/api/v1/workspaces/${demo.workspaceId}/metrics`
    expect((await call('GET', path, undefined, viewer)).status).toBe(200)
    expect((await results(`metrics=${metricIds[0]}&${window}`, viewer)).status).toBe(200)
    expect((await call('POST', path, METRICS[0], viewer)).status).toBe(403)
    const { key: staging } = await t.tenancy.createApiKey({
      kind: 'admin',
      accountId: demo.accountId,
      name: 'staging only',
      environmentIds: [demo.environments[1]!.id],
    })
    expect((await results(`metrics=${metricIds[0]}&${window}`, staging)).status).toBe(404)
    expect((await results(`metrics=${metricIds[0]}&${window}`, staging, demo.environments[1]!.id)).status).toBe(404) // no impressions there
    expect((await call('POST', path, { ...METRICS[0], name: 'other' }, staging)).status).toBe(403)
    const other = await t.tenancy.createAccount('other')
    const { key: stranger } = await t.tenancy.createApiKey({ kind: 'admin', accountId: other.id, name: 'stranger' })
    expect((await results(`metrics=${metricIds[0]}&${window}`, stranger)).status).toBe(404)
    expect((await call('GET', path, undefined, stranger)).status).toBe(404)
    expect((await results(`metrics=${metricIds[0]}&${window}`, 'not-a-key')).status).toBe(401)
  })
})

describe('bad input', () => {
  it('answers 400 or 404 naming the problem', async () => {
    const m = `metrics=${metricIds[0]}`
    const cases: [string, string, number, RegExp][] = [
      ['unknown flag', `${m}&${window}`, 404, /flag nope has no impressions/],
      ['unknown metric', `metrics=${metricIds[0]},no-such-metric&${window}`, 404, /metric no-such-metric not found/],
      ['inverted window', `${m}&from=${TO}&to=${FROM}`, 400, /to must be after from/],
      ['no end', `${m}&from=${FROM}`, 400, /to/],
      ['window too long', `${m}&from=0&to=${TO}`, 400, /366 days/],
      ['bad time', `${m}&from=yesterday&to=${TO}`, 400, /from must be epoch milliseconds or an ISO 8601/],
      [
        '1,000 metrics',
        `metrics=${Array.from({ length: 1000 }, (_, i) => `m${i}`).join(',')}&${window}`,
        400,
        /at most 20 per request/,
      ],
      ['baseline not in the data', `${m}&${window}&baseline=control`, 400, /"control" is not a treatment/],
      [
        'weights naming an unknown treatment',
        `${m}&${window}&weights=off:1,on:1,v2:1,v3:1`,
        400,
        /"v3", not a treatment/,
      ],
      [
        'weights leaving out the default baseline',
        `${m}&${window}&weights=on:1,v2:1`,
        400,
        /baseline is required \(no treatment is called off\); the treatments are on, v2/,
      ],
      [
        'a baseline without a weight',
        `${m}&${window}&weights=on:1,v2:1&baseline=off`,
        400,
        /"off" is not a treatment .* given a weight/,
      ],
      ['an empty metric id', `metrics=${metricIds[0]},,${metricIds[1]}&${window}`, 400, /none empty/],
      [
        'a date-time without its offset',
        `${m}&from=2025-11-24T16:00:00&to=${TO}`,
        400,
        /from must be epoch milliseconds or an ISO 8601 date-time with its offset/,
      ],
      ['an empty rule', `${m}&${window}&rule=`, 400, /rule/],
      ['alpha too small', `${m}&${window}&alpha=0.000000001`, 400, /alpha/],
      ['bad weights', `${m}&${window}&weights=off:-1,on:1,v2:1`, 400, /not <treatment>:<positive number>/],
      ['alpha', `${m}&${window}&alpha=0.7`, 400, /alpha/],
    ]
    for (const [what, query, status, message] of cases) {
      const flag = what === 'unknown flag' ? 'nope' : FLAG
      const res = await results(query, undefined, env, flag)
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status)
      expect(res.body['message'], what).toMatch(message)
    }
    expect((await results(`${m}&${window}`, undefined, 'no-such-env')).status).toBe(404)
  })

  it('keeps SQL in every parameter a value: nothing runs, every table intact', async () => {
    const sql = ["' OR 1=1 --", "x'); DROP TABLE events; --", "\\' UNION ALL SELECT 1 --", '{p0:String}', '`; SELECT 1']
    const before = [await t.count('impressions'), await t.count('events')]
    for (const s of sql) {
      const q = encodeURIComponent(s)
      expect((await results(`metrics=${metricIds[0]}&${window}`, undefined, env, s)).status).toBe(404) // flag
      expect((await results(`metrics=${metricIds[0]}&${window}`, undefined, s)).status).toBe(404) // environment
      expect((await results(`metrics=${q}&${window}`)).status).toBe(404) // metric id
      expect((await results(`metrics=${metricIds[0]}&${window}&baseline=${q}`)).status).toBe(400)
      expect((await results(`metrics=${metricIds[0]}&${window}&weights=${encodeURIComponent(`${s}:1`)}`)).status).toBe(
        400,
      )
      expect((await results(`metrics=${metricIds[0]}&from=${q}&to=${TO}`)).status).toBe(400)
      // A rule that matches no impression: a flag with no impressions under it.
      expect((await results(`metrics=${metricIds[0]}&${window}&rule=${q}`)).status).toBe(404)
      // A property filter with SQL in its value is stored and compared as text (it matches nothing).
      const created = await call('POST', `/api/v1/workspaces/${demo.workspaceId}/metrics`, {
        name: `sql ${s}`,
        trafficType: 'user',
        eventTypeId: 'purchase',
        type: 'percent_of_keys',
        propertyFilter: { property: 'plan', operator: 'equals', value: s },
        desiredDirection: 'increase',
      })
      expect(created.status).toBe(201)
      const res = await results(`metrics=${created.body['id']}&${window}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      for (const t of TREATMENTS) expect(res.body['metrics'][0]['perTreatment'][t]['sum']).toBe(0)
    }
    expect([await t.count('impressions'), await t.count('events')]).toEqual(before)
  })
})

describe('ClickHouse away', () => {
  it('answers 503 with Retry-After, not a hang, when ClickHouse refuses or does not answer; metrics stay usable', async () => {
    const { createServer } = await import('node:net')
    const held: import('node:net').Socket[] = []
    const silent = createServer((socket) => held.push(socket)) // accepts, never answers: a paused server
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as import('node:net').AddressInfo).port
    try {
      for (const url of [`http://127.0.0.1:${port}`, 'http://127.0.0.1:1']) {
        const admin = await t.start(['admin'], { CLICKHOUSE_URL: url, SLUICE_EXPERIMENT_QUERY_TIMEOUT_MS: '1000' })
        const began = Date.now()
        const res = await fetch(
          `${admin.url}/api/v1/environments/${env}/experiments/${FLAG}/results?metrics=${metricIds[0]}&${window}`,
          { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
        )
        expect(res.status, url).toBe(503)
        expect(res.headers.get('retry-after')).toBe('5')
        expect(Date.now() - began).toBeLessThan(10_000)
        const list = await fetch(`${admin.url}/api/v1/workspaces/${demo.workspaceId}/metrics`, {
          headers: { authorization: `Bearer ${demo.adminApiKey}` },
        })
        expect(list.status).toBe(200)
        await admin.stop()
      }
    } finally {
      for (const s of held) s.destroy()
      silent.close()
    }
  })
})
