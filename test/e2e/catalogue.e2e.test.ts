// The Data Hub's catalogue on the real stack: the event types an environment received (counts over 24 hours, 7 and 30
// days by receive time, the share with a value, the SDK versions) and one type's property names, their types and fill
// rate, checked against what the test sent; the flags its impressions named with their treatments. Rows received
// 10, 40 and 100 days ago are written into ClickHouse directly (the intake stamps the time of receipt), so each
// window is tested. `sluice event-types` and `sluice flags-seen` print the same documents. Another account's
// environment is a 404 on every route, and an SDK key a 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { propertySampleQuery } from '../../src/analysis/datahub.js'
import { bind } from '../../src/analysis/sql.js'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let env: string
const NOW = Date.now()
const DAY = 86_400_000

const get = async (path: string, key = demo.adminApiKey) => {
  const res = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
  return { status: res.status, body: (await res.json()) as Json }
}

// Six checkouts (four with a value), properties of every type, a name that is markup; three page views.
const checkouts = [
  { value: 10, properties: { plan: 'pro', seats: 3, trial: false, '<b>name</b>': 'x' } },
  { value: 20, properties: { plan: 'free', seats: 1 } },
  { value: 0, properties: { plan: null, seats: 2.5 } },
  { value: 7, properties: { plan: 'pro' } },
  { value: null, properties: { seats: '4' } },
  { properties: null },
].map((e, i) => ({ eventTypeId: 'checkout', trafficTypeName: 'user', key: `u${i}`, timestamp: NOW - i, ...e }))
const pageViews = [1, 2, 3].map((i) => ({
  eventTypeId: 'page_view',
  trafficTypeName: 'user',
  key: `p${i}`,
  timestamp: NOW,
}))

/** A checkout row as stored, received `daysAgo` days ago (with a value and one property). */
function oldCheckout(daysAgo: number, eventType = 'checkout') {
  const ms = NOW - daysAgo * DAY
  return {
    environment_id: env,
    account_id: demo.accountId,
    traffic_type: 'user',
    event_type: eventType,
    key: `old-${daysAgo}`,
    timestamp: Math.floor(ms / 1000),
    timestamp_ms: ms,
    timestamp_raw: String(ms),
    value: 1,
    properties: JSON.stringify({ plan: 'legacy' }),
    received_at: Math.floor(ms / 1000),
    received_at_ms: ms,
    sdk_version: 'import-job-1',
    request_id: `old-${daysAgo}`,
  }
}

/** What the test expects of a property: records that had it by type, out of `records` (computed from what was sent). */
function expectedProperties(records: readonly (Record<string, unknown> | null)[]) {
  const byName = new Map<string, Record<string, number>>()
  for (const p of records)
    for (const [name, v] of Object.entries(p ?? {})) {
      const type = v === null ? 'null' : typeof v
      const types = byName.get(name) ?? {}
      types[type] = (types[type] ?? 0) + 1
      byName.set(name, types)
    }
  return [...byName].map(([name, types]) => ({
    name,
    types,
    fillRate: Object.values(types).reduce((a, b) => a + b, 0) / records.length,
  }))
}

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  service = await t.start(['edge', 'admin', 'events'])
  const sdkKey = demo.environments[0]!.serverSideSdkKey
  const sent = [
    await postEvents(service.url, sdkKey, checkouts, { SplitSDKVersion: 'nodejs-10.28.0' }),
    await postEvents(service.url, sdkKey, pageViews, { SplitSDKVersion: 'python-10.7.0' }),
  ]
  for (const s of sent) expect(s.status, JSON.stringify(s.body)).toBe(202)
  const impressions = await fetch(`${service.url}/api/testImpressions/bulk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${sdkKey}`, SplitSDKVersion: 'go-6.10.0' },
    body: JSON.stringify([
      { f: 'new_checkout', i: ['on', 'off', 'on'].map((tr, i) => ({ k: `k${i}`, t: tr, m: NOW, c: 1, r: 'r' })) },
      { f: 'banner', i: [{ k: 'k0', t: 'v2', m: NOW, c: 1, r: 'r' }] },
    ]),
  })
  expect(impressions.status).toBe(202)
  await waitFor('rows stored', async () =>
    (await t.count('events')) === 9 && (await t.count('impressions')) === 4 ? true : undefined,
  )
  await t.clickhouse.insert({
    table: `${t.config.clickhouse.database}.events`,
    format: 'JSONEachRow',
    values: [oldCheckout(10), oldCheckout(40), oldCheckout(100), oldCheckout(100, 'retired')],
  })
}, 120_000)
afterAll(async () => t?.close())

describe('the event catalogue', () => {
  it('lists each event type received in 90 days with its counts per window, value share and SDK versions', async () => {
    const res = await get(`/api/v1/environments/${env}/event-types`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(Date.parse(res.body['at']) - Date.parse(res.body['since'])).toBe(90 * DAY)
    expect(res.body).toMatchObject({ environmentId: env, truncated: false })
    // The 100-day-old rows are outside the window: `retired` is not listed, checkout's first is 40 days ago.
    expect(res.body['eventTypes']).toEqual([
      {
        eventType: 'checkout',
        firstAt: new Date(NOW - 40 * DAY).toISOString(),
        lastAt: expect.any(String),
        last24h: 6,
        last7d: 6,
        last30d: 7,
        // Of the 7 of the last 30 days, 4 sent and the one of 10 days ago had a value.
        valueShare: 5 / 7,
        sdkVersions: ['import-job-1', 'nodejs-10.28.0'],
      },
      {
        eventType: 'page_view',
        firstAt: expect.any(String),
        lastAt: expect.any(String),
        last24h: 3,
        last7d: 3,
        last30d: 3,
        valueShare: 0,
        sdkVersions: ['python-10.7.0'],
      },
    ])
    const checkout = (res.body['eventTypes'] as Json[])[0]!
    expect(Date.parse(checkout['lastAt'])).toBeGreaterThanOrEqual(NOW - 60_000)
  })

  it("describes one type's properties from its last records: names as sent, types and fill rate", async () => {
    const res = await get(`/api/v1/environments/${env}/event-types/checkout`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({
      eventType: 'checkout',
      last30d: 7,
      sample: 8,
      propertiesTruncated: false,
      cutRecords: 0,
    })
    const sample = [...checkouts.map((c) => c.properties), { plan: 'legacy' }, { plan: 'legacy' }]
    const expected = expectedProperties(sample)
    expect(new Set(res.body['properties'])).toEqual(new Set(expected))
    // Most often present first.
    const rates = (res.body['properties'] as Json[]).map((p) => p['fillRate'] as number)
    expect(rates).toEqual(rates.toSorted((a, b) => b - a))
    expect(res.body['properties'][0]).toEqual({ name: 'plan', types: { string: 5, null: 1 }, fillRate: 6 / 8 })
  })

  it('answers 404 for a type not received in 90 days and 400 for a name that is not an event type id', async () => {
    expect((await get(`/api/v1/environments/${env}/event-types/retired`)).status).toBe(404)
    const bad = await get(`/api/v1/environments/${env}/event-types/${encodeURIComponent('a b')}`)
    expect(bad.status).toBe(400)
  })

  it('lists the flags its impressions named, with treatments and SDK versions', async () => {
    const res = await get(`/api/v1/environments/${env}/flags-seen`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body['flags']).toEqual([
      expect.objectContaining({
        flag: 'new_checkout',
        last24h: 3,
        last30d: 3,
        treatments: ['off', 'on'],
        sdkVersions: ['go-6.10.0'],
      }),
      expect.objectContaining({ flag: 'banner', last24h: 1, treatments: ['v2'], sdkVersions: ['go-6.10.0'] }),
    ])
  })

  it('`sluice event-types` and `sluice flags-seen` print the same documents, or tables', async () => {
    const strip = (d: Json) => ({ ...d, since: undefined, at: undefined })
    const types = await runSluice(['event-types', '--environment', env, '--json'], t.env)
    expect(types.code, types.stderr).toBe(0)
    expect(strip(JSON.parse(types.stdout) as Json)).toEqual(
      strip((await get(`/api/v1/environments/${env}/event-types`)).body),
    )
    const one = await runSluice(['event-types', 'checkout', '--environment', env, '--json'], t.env)
    expect(JSON.parse(one.stdout)).toEqual((await get(`/api/v1/environments/${env}/event-types/checkout`)).body)
    const table = await runSluice(['event-types', '--environment', env], t.env)
    expect(table.stdout).toMatch(/^checkout\s+6\s+6\s+7\s+71%/m)
    const props = await runSluice(['event-types', 'checkout', '--environment', env], t.env)
    expect(props.stdout).toContain('"<b>name</b>"')
    const flags = await runSluice(['flags-seen', '--environment', env], t.env)
    expect(flags.stdout).toMatch(/^new_checkout\s+3\s+3\s+3\s+off, on; go-6.10.0/m)
  })

  it('answers 404 for an environment of another account and 401 for an SDK key, on every route', async () => {
    const other = await t.tenancy.createAccount('other')
    const ws = await t.tenancy.createWorkspace(other.id, 'Other')
    const otherEnv = await t.tenancy.createEnvironment(ws.id, 'Prod')
    for (const route of ['event-types', 'event-types/checkout', 'flags-seen']) {
      expect((await get(`/api/v1/environments/${otherEnv.id}/${route}`)).status, route).toBe(404)
      const sdk = demo.environments[0]!.serverSideSdkKey
      expect((await get(`/api/v1/environments/${env}/${route}`, sdk)).status, route).toBe(401)
    }
  })
})

describe('the properties of large records', () => {
  // A public client-side SDK key can post events whose properties are as large as the edge allows (a record up to
  // the Kafka message limit, 768 KiB): the detail reads only the names of each of its 1,000 records, at most 16 KiB of
  // them, so one request holds a bounded amount in the API process whatever the rows hold. The size is measured on the
  // service's own sample query (what ClickHouse sends to Node) and on the answer. Before, the sample read each record's
  // whole properties: 5.9 MB for the 12 records of 480 KiB here, about 500 MB for 1,000.
  const KiB = 1024
  const BIG = 12
  const MANY = 8
  const long = (n: number, c: string) => c.repeat(n)
  // 16 string properties of 30 KiB each (~480 KiB a record), a number and a boolean.
  const bigRecord = (i: number) => ({
    eventTypeId: 'big_values',
    trafficTypeName: 'user',
    key: `b${i}`,
    timestamp: NOW,
    properties: {
      ...Object.fromEntries(
        Array.from({ length: 16 }, (_, j) => [`s${j}`, long(30 * KiB, String.fromCharCode(97 + j))]),
      ),
      amount: i,
      paid: i % 2 === 0,
    },
  })
  // 300 properties (the most the schema allows) with 250-character names: ~80 KiB of names, past the 16 KiB read.
  const names = Array.from({ length: 300 }, (_, j) => `${String(j).padStart(3, '0')}${'n'.repeat(247)}`)
  const manyRecord = (i: number) => ({
    eventTypeId: 'many_names',
    trafficTypeName: 'user',
    key: `m${i}`,
    timestamp: NOW,
    properties: Object.fromEntries(names.map((n) => [n, i])),
  })
  // Names with quotes, a backslash and emoji; texts that look like members ("fake" and "also" are no property).
  const tricky = [
    { 'a"b': 'x', 'c\\d': 1, 'é😀': true, v: ',"fake":1,{"also":"x"}', e: null, n: -1.5 },
    { v: '\\",\"fake\":', 'a"b': 2 },
  ].map((properties, i) => ({
    eventTypeId: 'tricky',
    trafficTypeName: 'user',
    key: `t${i}`,
    timestamp: NOW,
    properties,
  }))
  /** The bytes ClickHouse sends for the service's property sample of a type (JSON rows, as the service reads them). */
  const sampleBytes = async (eventType: string) => {
    const since = Date.now() - 90 * DAY
    const result = await t.clickhouse.query({
      query: bind(propertySampleQuery(`${t.config.clickhouse.database}.events`, env, eventType, since)),
      format: 'JSONEachRow',
    })
    return Buffer.byteLength(await result.text())
  }

  beforeAll(async () => {
    const sdkKey = demo.environments[0]!.clientSideSdkKey
    const before = await t.count('events')
    for (const batch of [
      Array.from({ length: BIG }, (_, i) => bigRecord(i)),
      Array.from({ length: MANY }, (_, i) => manyRecord(i)),
      tricky,
    ]) {
      const sent = await postEvents(service.url, sdkKey, batch)
      expect(sent.status, JSON.stringify(sent.body)).toBe(202)
    }
    await waitFor('large rows stored', async () =>
      (await t.count('events')) === before + BIG + MANY + tricky.length ? true : undefined,
    )
    const stored = await t.query<{ n: string }>(
      `SELECT max(length(properties)) AS n FROM {db}.events WHERE event_type = 'big_values'`,
    )
    expect(Number(stored[0]!.n)).toBeGreaterThan(480 * KiB)
  }, 120_000)

  it('describes records of 480 KiB from a few hundred bytes of each: every name, type and fill rate, none cut', async () => {
    const res = await fetch(`${service.url}/api/v1/environments/${env}/event-types/big_values`, {
      headers: { authorization: `Bearer ${demo.adminApiKey}` },
    })
    const text = await res.text()
    expect(res.status, text).toBe(200)
    const body = JSON.parse(text) as Json
    expect(body).toMatchObject({ eventType: 'big_values', sample: BIG, cutRecords: 0, propertiesTruncated: false })
    expect(new Set(body['properties'])).toEqual(
      new Set([
        ...Array.from({ length: 16 }, (_, j) => ({ name: `s${j}`, types: { string: BIG }, fillRate: 1 })),
        { name: 'amount', types: { number: BIG }, fillRate: 1 },
        { name: 'paid', types: { boolean: BIG }, fillRate: 1 },
      ]),
    )
    expect(Buffer.byteLength(text)).toBeLessThan(4 * KiB)
    // ClickHouse sent well under a KiB per record of 480 KiB (5.8 MB of properties stored).
    expect(await sampleBytes('big_values')).toBeLessThan(BIG * KiB)
  })

  it('reads names with quotes, backslashes and emoji as sent, and no name from a text that looks like JSON', async () => {
    const res = await get(`/api/v1/environments/${env}/event-types/tricky`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ sample: 2, cutRecords: 0 })
    expect(new Set(res.body['properties'])).toEqual(new Set(expectedProperties(tricky.map((r) => r.properties))))
  })

  it('reads at most 16 KiB of a record whose names alone are larger, and says how many records were cut', async () => {
    const res = await get(`/api/v1/environments/${env}/event-types/many_names`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ eventType: 'many_names', sample: MANY, cutRecords: MANY })
    const found = res.body['properties'] as Json[]
    // The names read are the records' first ones, each in every record of the sample; the rest are not claimed absent
    // from the records, only unread (cutRecords).
    expect(found.length).toBeGreaterThan(40)
    expect(found.length).toBeLessThan(70)
    expect(found.map((p) => p['name']).sort()).toEqual(names.slice(0, found.length))
    for (const p of found) expect(p).toMatchObject({ types: { number: MANY }, fillRate: 1 })
    // What ClickHouse sends is bounded by 16 KiB a record (twice that with JSON's escapes), whatever the rows hold.
    expect(await sampleBytes('many_names')).toBeLessThan(MANY * 17 * KiB)
  })
})
