// Erasure and retention on the real stack (and on the current engine, project current-engine). A person's keys are
// erased as a job: their events, impressions and unique keys are gone, other keys' rows untouched, the job reports
// what it deleted, and the same request again names the same job. Retention: on a server with TTLs each table has the
// TTL of its setting (changed when the setting changes, and applied by a merge); on ClickHouse 18.16 the checks role
// deletes what is past retention. Another account's environment is a 404, an SDK key a 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { adminCaller, createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let intake: RunningService
let checks: RunningService | undefined
let demo: DemoAccount
let env: string
let sdkKey: string
let ttl: boolean
const NOW = Date.now()
const DAY = 86_400_000
const KEYS = ['alice', 'bob', 'carol', '<b>dave</b>']
const call = adminCaller(
  () => intake.url,
  () => demo.adminApiKey,
)
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Json })
const erase = async (keys: unknown) =>
  json(await call(`/api/v1/environments/${env}/erasures`, { method: 'POST', body: JSON.stringify({ keys }) }))
const job = async (id: string) => json(await call(`/api/v1/environments/${env}/erasures/${id}`))

/** Rows per key in a table. */
async function rowsByKey(table: string): Promise<Record<string, number>> {
  const rows = await t.query<{ key: string; n: string }>(
    `SELECT key, count() AS n FROM {db}.${table} GROUP BY key ORDER BY key`,
  )
  return Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]))
}

/** Sends each key's events (2 per key), impressions (1 per key, 2 for alice) and unique keys, and waits for them. */
async function send(): Promise<void> {
  const events = KEYS.flatMap((key) =>
    [1, 2].map((i) => ({ eventTypeId: 'e', trafficTypeName: 'user', key, timestamp: NOW + i })),
  )
  // A refused record each for alice and bob (no event type): erased with the rest of alice's.
  const refused = ['alice', 'bob'].map((key) => ({ trafficTypeName: 'user', key, timestamp: NOW }))
  expect((await postEvents(intake.url, sdkKey, [...events, ...refused])).status).toBe(202)
  const post = (path: string, body: unknown) =>
    fetch(`${intake.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sdkKey}` },
      body: JSON.stringify(body),
    })
  const impressions = [...KEYS, 'alice'].map((k, i) => ({ k, t: 'on', m: NOW + i, c: 1, r: 'r' }))
  expect((await post('/api/testImpressions/bulk', [{ f: 'flag', i: impressions }])).status).toBe(202)
  expect((await post('/api/v1/keys/ss', { keys: [{ f: 'flag', ks: KEYS }] })).status).toBe(202)
}

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  sdkKey = demo.environments[0]!.serverSideSdkKey
  // No checks role yet: the jobs wait in the queue until the test starts one.
  intake = await t.start(['edge', 'admin', 'events'])
  ttl =
    (await t.query<{ name: string }>(`SELECT name FROM system.settings WHERE name = 'materialize_ttl_after_modify'`))
      .length === 1
  await send()
  await waitFor('rows stored', async () =>
    (await t.count('events')) === 8 &&
    (await t.count('impressions')) === 5 &&
    (await t.count('unique_keys')) === 4 &&
    (await t.count('event_rejections')) === 2
      ? true
      : undefined,
  )
}, 120_000)
afterAll(async () => t?.close())

describe('erasure', () => {
  let id: string

  it('queues a job for the keys; the same keys again (any order, repeated) are the same job', async () => {
    const first = await erase(['alice', '<b>dave</b>', 'alice'])
    expect(first.status, JSON.stringify(first.body)).toBe(202)
    expect(first.body).toMatchObject({
      environmentId: env,
      status: 'pending',
      keys: ['<b>dave</b>', 'alice'],
      requests: 1,
      attempts: 0,
    })
    id = first.body['id']
    const again = await erase(['<b>dave</b>', 'alice'])
    // Waiting still: the same job, which now covers what was received until this request too.
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ id, status: 'pending', requests: 2 })
    expect(Date.parse(again.body['requestedAt'])).toBeGreaterThanOrEqual(Date.parse(first.body['requestedAt']))
    const list = await json(await call(`/api/v1/environments/${env}/erasures`))
    expect(list.body['erasures']).toEqual([expect.objectContaining({ id, status: 'pending' })])
  })

  it("the checks role runs it: the keys' rows are gone from every table, other keys' rows untouched", async () => {
    checks ??= await t.start(['checks'], { SLUICE_JOB_LEASE_SECONDS: '5' })
    const done = await waitFor('erasure done', async () => {
      const j = (await job(id)).body
      return j['status'] === 'done' || j['status'] === 'failed' ? j : undefined
    })
    expect(done).toMatchObject({
      status: 'done',
      attempts: 1,
      deleted: { events: 4, impressions: 3, unique_keys: 2, event_rejections: 1, impression_rejections: 0 },
      // A finished job keeps only how many keys it erased.
      keys: [],
      keyCount: 2,
    })
    expect(Date.parse(done['finishedAt'])).toBeGreaterThanOrEqual(Date.parse(done['startedAt']))
    expect(await rowsByKey('events')).toEqual({ bob: 2, carol: 2 })
    expect(await rowsByKey('impressions')).toEqual({ bob: 1, carol: 1 })
    expect(await rowsByKey('unique_keys')).toEqual({ bob: 1, carol: 1 })
    // alice's refused record is gone, bob's kept.
    expect(await t.count('event_rejections')).toBe(1)
  })

  it('the same request once it is done runs again, for what arrived since: idempotent', async () => {
    const again = await erase(['alice', '<b>dave</b>'])
    expect(again.status).toBe(202)
    expect(again.body).toMatchObject({ id, status: 'pending', requests: 3, keys: ['<b>dave</b>', 'alice'] })
    const done = await waitFor('erasure done again', async () => {
      const j = (await job(id)).body
      return j['status'] === 'done' ? j : undefined
    })
    expect(done['deleted']).toEqual({
      events: 0,
      impressions: 0,
      unique_keys: 0,
      event_rejections: 0,
      impression_rejections: 0,
      event_violations: 0,
    })
    expect(await rowsByKey('events')).toEqual({ bob: 2, carol: 2 })
  })

  it('`sluice erase` and `sluice erasures` queue and show the same jobs', async () => {
    const queued = await runSluice(['erase', '--environment', env, '--key', 'bob', '--json'], t.env)
    expect(queued.code, queued.stderr).toBe(0)
    const bob = JSON.parse(queued.stdout) as Json
    expect(bob).toMatchObject({ keys: ['bob'], environmentId: env })
    await waitFor('bob erased', async () => ((await job(bob['id'])).body['status'] === 'done' ? true : undefined))
    expect(await rowsByKey('events')).toEqual({ carol: 2 })
    const shown = await runSluice(['erasures', '--environment', env], t.env)
    expect(shown.stdout).toMatch(
      new RegExp(
        `^${bob['id']}\\s+done .*deleted 2 events, 1 impressions, 1 unique_keys, 1 event_rejections, 0 impression_rejections`,
        'm',
      ),
    )
    expect(shown.stdout).toContain(id)
  })

  it('refuses bad keys with the field named, and answers 404 for another account and 401 for an SDK key', async () => {
    for (const [keys, field] of [
      [[], 'keys'],
      [Array.from({ length: 1001 }, (_, i) => `k${i}`), 'keys'],
      [['ok', 'x'.repeat(251)], 'keys[1]'],
      [['ok', 'lone-\ud800'], 'keys[1]'],
      ['alice', 'keys'],
    ] as const) {
      const res = await erase(keys)
      expect(res.status, JSON.stringify(res.body)).toBe(400)
      expect(JSON.stringify(res.body)).toContain(field)
    }
    expect((await job('er_nope')).status).toBe(404)
    const other = await t.tenancy.createAccount('other')
    const ws = await t.tenancy.createWorkspace(other.id, 'Other')
    const otherEnv = await t.tenancy.createEnvironment(ws.id, 'Prod')
    const routes = [`erasures`, `erasures/${id}`]
    for (const route of routes) {
      expect((await call(`/api/v1/environments/${otherEnv.id}/${route}`)).status, route).toBe(404)
      const sdk = await fetch(`${intake.url}/api/v1/environments/${env}/${route}`, {
        headers: { authorization: `Bearer ${sdkKey}` },
      })
      expect(sdk.status, route).toBe(401)
    }
    const post = await call(`/api/v1/environments/${otherEnv.id}/erasures`, {
      method: 'POST',
      body: JSON.stringify({ keys: ['carol'] }),
    })
    expect(post.status).toBe(404)
    expect(await rowsByKey('events')).toEqual({ carol: 2 })
  })
})

describe('erasure of refused records, whatever form their key was sent in', () => {
  // A refused record is kept as the record received (JSON text), so its key can be anything a client sent: a number, an
  // object such as Split's {matchingKey, bucketingKey}, an array, escapes and whitespace in the body. It is the
  // person's when a field named like the key (`key` of an event; `k` or `ks` of an impression or unique keys) holds
  // the key: as text, as a number written the same way, or as a value of the object or array given there. Each
  // record carries a `case` field naming it, so the test sees which are left.
  const Q = 'q "x" \\ é\t😀'
  const base = `"trafficTypeName":"user","timestamp":${NOW}`
  /** Refused events (no eventTypeId), sent as text so that whitespace and escapes reach the edge as written. */
  const events = [
    `{${base},"case":"number","key":42}`,
    `{${base},"case":"number-written-42.0", "key" : 42.0 }`,
    `{${base},"case":"escaped-and-spaced" , "key" :  "\\u0034\\u0032" }`,
    `{${base},"case":"split-key-object","key":{"matchingKey":"42","bucketingKey":"b-1"}}`,
    `{${base},"case":"nested-id","key":{"id":"42"}}`,
    `{${base},"case":"in-array","key":["42"]}`,
    `{"properties":{"key":"someone-else"},${base},"case":"after-a-nested-key","key":"42"}`,
    `{${base},"case":"q-text","key":${JSON.stringify(Q)}}`,
    `{${base},"case":"q-nested","key":{"matchingKey":${JSON.stringify(Q)}}}`,
    // Other people's: kept.
    `{${base},"case":"keep-420","key":420}`,
    `{${base},"case":"keep-4.2","key":4.2}`,
    `{${base},"case":"keep-42-space","key":"42 "}`,
    `{${base},"case":"keep-42-as-name","key":{"42":"x"}}`,
    `{${base},"case":"keep-42-elsewhere","key":"other","properties":{"id":"42","note":"\\"key\\":\\"42\\""}}`,
    `{${base},"case":"keep-q-prefix","key":${JSON.stringify(Q.slice(0, -2))}}`,
  ]
  const impression = (k: string, c: string) => `{"case":"${c}","k":${k},"t":5,"m":${NOW},"c":1,"r":"r"}`
  /** Refused impressions (a treatment that is not text) and unique keys (a key that is not text). */
  const impressions = [
    impression('42', 'number'),
    impression('{"matchingKey":"42","bucketingKey":"b"}', 'split-key-object'),
    impression('"42"', 'text'),
    impression('"other"', 'keep-other'),
  ]
  const kept = (cases: string[]) => cases.filter((c) => c.startsWith('keep-')).sort()
  const eventCases = events.map((e) => /"case":"([^"]+)"/.exec(e)![1]!)
  const casesLeft = async (table: string) =>
    (
      await t.query<{ c: string }>(
        `SELECT visitParamExtractString(raw, 'case') AS c FROM {db}.${table} WHERE position(raw, '"case":') > 0 ORDER BY c`,
      )
    ).map((r) => r.c)

  beforeAll(async () => {
    checks ??= await t.start(['checks'], { SLUICE_JOB_LEASE_SECONDS: '5' })
    const post = (path: string, body: string) =>
      fetch(`${intake.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${sdkKey}` },
        body,
      })
    expect((await postEvents(intake.url, sdkKey, `[${events.join(',\n ')}]`)).status).toBe(202)
    expect((await post('/api/testImpressions/bulk', `[{"f":"flag","i":[${impressions.join(',')}]}]`)).status).toBe(202)
    // Server-side unique keys: 42 refused ({"f":"flag","ks":[42]} kept), "ok-key" stored; client-side: {"k":42,...}.
    expect((await post('/api/v1/keys/ss', '{"keys":[{"f":"flag","ks":[42,"ok-key"]}]}')).status).toBe(202)
    expect((await post('/api/v1/keys/cs', '{"keys":[{"k":42,"fs":["flag"]},{"k":"keep","fs":[7]}]}')).status).toBe(202)
    await waitFor('refused records stored', async () =>
      (await t.count('event_rejections', `position(raw, '"case":') > 0`)) === events.length &&
      (await t.count('impression_rejections', `position(raw, '"case":') > 0`)) === impressions.length &&
      (await t.count('impression_rejections', `position(raw, '"ks":[42]') > 0 OR position(raw, '"fs":[') > 0`)) === 3
        ? true
        : undefined,
    )
  })

  it('erasing 42 and a key with quotes, a backslash, a tab and emoji removes their refused records, and only theirs', async () => {
    const queued = await erase(['42', Q])
    expect(queued.status, JSON.stringify(queued.body)).toBe(202)
    const done = await waitFor('erasure done', async () => {
      const j = (await job(queued.body['id'])).body
      return j['status'] === 'done' || j['status'] === 'failed' ? j : undefined
    })
    expect(await casesLeft('event_rejections')).toEqual(kept(eventCases))
    expect(await casesLeft('impression_rejections')).toEqual(['keep-other'])
    // The unique keys refused for 42 (server side, in ks; client side, k) are gone; the other client-side one stays.
    expect(await t.count('impression_rejections', `position(raw, '"ks":[42]') > 0`)).toBe(0)
    expect(
      (
        await t.query<{ raw: string }>(`SELECT raw FROM {db}.impression_rejections WHERE position(raw, '"fs":[') > 0`)
      ).map((r) => r.raw),
    ).toEqual(['{"k":"keep","fs":[7]}'])
    // The job counted what it deleted with the same selection: 9 refused events, 3 impressions and 2 unique keys.
    expect(done).toMatchObject({
      status: 'done',
      deleted: { events: 0, impressions: 0, unique_keys: 0, event_rejections: 9, impression_rejections: 5 },
    })
  })
})

describe('retention', () => {
  /** A row received `daysAgo` days ago, its request id old-<days> (an event's key too). */
  const old = (daysAgo: number, key?: 'key') => {
    const ms = NOW - daysAgo * DAY
    const row = {
      environment_id: env,
      request_id: `old-${daysAgo}`,
      received_at: Math.floor(ms / 1000),
      received_at_ms: ms,
    }
    return key ? { ...row, key: `old-${daysAgo}` } : row
  }
  const olds = (table: string) => t.count(table, "request_id LIKE 'old-%'")

  it('keeps events 90 days and refused records 30 (the defaults), then not what is older', async () => {
    const db = t.config.clickhouse.database
    await t.clickhouse.insert({
      table: `${db}.events`,
      format: 'JSONEachRow',
      values: [old(89, 'key'), old(91, 'key')],
    })
    await t.clickhouse.insert({ table: `${db}.event_rejections`, format: 'JSONEachRow', values: [old(29), old(31)] })
    if (ttl) {
      const engines = await t.query<{ name: string; engine_full: string }>(
        `SELECT name, engine_full FROM system.tables WHERE database = '${db}' AND name IN ('events', 'event_rejections')`,
      )
      const of = (name: string) => engines.find((e) => e.name === name)!.engine_full
      expect(of('events')).toContain('TTL received_at + toIntervalDay(90)')
      expect(of('event_rejections')).toContain('TTL received_at + toIntervalDay(30)')
      // A merge applies the TTL (the server does so in the background; OPTIMIZE makes it now).
      await t.clickhouse.command({ query: `OPTIMIZE TABLE ${db}.events FINAL` })
      await t.clickhouse.command({ query: `OPTIMIZE TABLE ${db}.event_rejections FINAL` })
    } else {
      // 18.16: the checks role (started above) deletes once a day, the day claimed in Redis; removing today's claim
      // stands for the next day.
      await t.redis.del(...(await t.keys(`${t.config.redis.keyPrefix}*retention:*`)))
    }
    await waitFor('old rows deleted', async () =>
      (await olds('events')) === 1 && (await olds('event_rejections')) === 1 ? true : undefined,
    )
    expect(await t.count('events', "request_id = 'old-89'")).toBe(1)
    expect(await t.count('event_rejections', "request_id = 'old-29'")).toBe(1)
    expect(await rowsByKey('events')).toMatchObject({ carol: 2 })
  })

  it('a changed setting changes the TTL at the next start (servers with TTLs)', async () => {
    if (!ttl) return
    await t.start(['events'], { SLUICE_RETENTION_DAYS: '7', SLUICE_REJECTIONS_RETENTION_DAYS: '0' })
    const db = t.config.clickhouse.database
    const engines = await t.query<{ name: string; engine_full: string }>(
      `SELECT name, engine_full FROM system.tables WHERE database = '${db}' AND name IN ('impressions', 'impression_rejections')`,
    )
    expect(engines.find((e) => e.name === 'impressions')!.engine_full).toContain('TTL received_at + toIntervalDay(7)')
    expect(engines.find((e) => e.name === 'impression_rejections')!.engine_full).not.toContain('TTL')
  })
})
