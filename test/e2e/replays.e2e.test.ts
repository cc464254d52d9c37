// Replays of refused records on the real stack. 10,000 events are refused by a tracking plan in block mode (and 10 more
// for a rule the fix leaves in place); the plan is fixed, a dry run says what a replay would do, and the replay run by
// the checks role stores each refused record exactly once, the 10 refused again as rejections of their own. A second
// replay of the same filter stores nothing more. Impressions' rejections (as an earlier release refused them: written
// to the table here) are replayed the same way, telemetry left out as not replayable. The replays are listed with who
// asked, the filter and the counts.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
const REFRESH_MS = 100

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  service = await t.start(['edge', 'events', 'admin', 'checks'], {
    SLUICE_INTEGRATION_REFRESH_MS: String(REFRESH_MS),
  })
}, 120_000)

afterAll(async () => t?.close())

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${demo.adminApiKey}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json()) as Json }
}

async function savePlan(env: string, plan: unknown): Promise<number> {
  const now = await call('GET', `/api/v1/environments/${env}/tracking-plan`)
  const baseVersion = now.status === 404 ? 0 : (now.body['version'] as number)
  const saved = await call('PUT', `/api/v1/environments/${env}/tracking-plan`, { plan, baseVersion })
  expect(saved.status, JSON.stringify(saved.body)).toBe(200)
  await new Promise((r) => setTimeout(r, 3 * REFRESH_MS))
  return saved.body['version'] as number
}

const planWith = (plans: string[]) => ({
  mode: 'block',
  unplannedEvents: 'allow',
  unplannedProperties: 'allow',
  events: {
    checkout: {
      value: { minimum: 0 },
      properties: { plan: { type: 'string', enum: plans, required: true } },
    },
  },
})

/** Runs a replay to its end: its final state. */
async function replay(env: string, filter: Json): Promise<Json> {
  const queued = await call('POST', `/api/v1/environments/${env}/replays`, filter)
  expect(queued.status, JSON.stringify(queued.body)).toBe(202)
  expect(queued.body).toMatchObject({ status: 'pending', published: 0, requestedBy: expect.stringMatching(/^key:/) })
  return waitFor(
    `replay ${queued.body['id']} finished`,
    async () => {
      const job = (await call('GET', `/api/v1/environments/${env}/replays/${queued.body['id']}`)).body
      return job['status'] === 'done' || job['status'] === 'failed' ? job : undefined
    },
    120_000,
  )
}

it('10,000 events refused by a plan are stored exactly once after the fix; a second replay stores nothing more', async () => {
  const env = demo.environments[0]!
  const where = `environment_id = '${env.id}'`
  const blocking = await savePlan(env.id, planWith(['free', 'pro']))
  // 10,000 checkouts of a plan the plan does not list yet, and 10 of a negative value, which stays refused.
  const sent = Date.now()
  for (let body = 0; body < 10; body++) {
    const events = Array.from({ length: 1000 }, (_, i) => ({
      eventTypeId: 'checkout',
      trafficTypeName: 'user',
      key: `team-${body * 1000 + i}`,
      timestamp: sent,
      value: 10,
      properties: { plan: 'team' },
    }))
    if (body === 0)
      for (let i = 0; i < 10; i++)
        events.push({ ...events[i]!, key: `negative-${i}`, value: -1, properties: { plan: 'free' } })
    expect((await postEvents(service.url, env.serverSideSdkKey, events)).status).toBe(202)
  }
  await waitFor('10,010 refused', async () =>
    (await t.count('event_rejections', where)) === 10_010 ? true : undefined,
  )
  expect(await t.count('events', where)).toBe(0)

  // The dry run under the blocking plan: nothing would be stored.
  const filter = { kind: 'events', eventType: 'checkout', reason: `tracking plan v${blocking}` }
  const before = await call('POST', `/api/v1/environments/${env.id}/replays/dry-run`, filter)
  expect(before.status, JSON.stringify(before.body)).toBe(200)
  expect(before.body).toMatchObject({
    selected: 10_010,
    alreadyReplayed: 0,
    examined: 10_010,
    complete: true,
    accepted: 0,
  })

  const fixed = await savePlan(env.id, planWith(['free', 'pro', 'team']))
  const dry = await call('POST', `/api/v1/environments/${env.id}/replays/dry-run`, filter)
  expect(dry.body).toMatchObject({
    selected: 10_010,
    alreadyReplayed: 0,
    examined: 10_010,
    accepted: 10_000,
    stillRefused: 10,
    notReplayable: 0,
    planVersion: fixed,
  })
  expect(dry.body['refusals']).toHaveLength(1)
  expect(dry.body['refusals'][0]).toMatchObject({
    reason: expect.stringMatching(new RegExp(`^tracking plan v${fixed}: value `)),
    records: 10,
  })
  expect(JSON.parse(dry.body['refusals'][0]['examples'][0] as string)).toMatchObject({ key: /^negative-/ })

  const replayAt = Date.now()
  const done = await replay(env.id, filter)
  expect(done).toMatchObject({
    status: 'done',
    published: 10_010,
    notReplayable: 0,
    stored: 10_000,
    refusedAgain: 10,
    attempts: 1,
  })
  // Every refused checkout stored once, as received (its receive time kept), each from its own rejection.
  const [stored] = await t.query<{ n: string; keys: string; origins: string; late: string }>(
    `SELECT count() AS n, uniqExact(key) AS keys, uniqExact(request_id) AS origins,
            countIf(received_at_ms >= ${replayAt}) AS late
     FROM {db}.events WHERE ${where}`,
  )
  expect(stored).toEqual({ n: '10000', keys: '10000', origins: '10000', late: '0' })
  const positions = await t.query<{ n: string }>(
    `SELECT count() AS n FROM {db}.events AS e WHERE ${where} AND request_id NOT IN (
       SELECT concat('replay:${done['id']}:', source_topic, ':', toString(source_partition), ':',
                     toString(source_offset), ':', toString(source_index))
       FROM {db}.event_rejections WHERE ${where} AND NOT startsWith(request_id, 'replay:'))`,
  )
  expect(positions[0]!.n).toBe('0')
  // The 10 refused again are rejections of their own, naming the plan's version now.
  expect(await t.count('event_rejections', `${where} AND startsWith(request_id, 'replay:')`)).toBe(10)

  // Again: the 10,000 are already replayed; the 10 refused again are taken (once), and refused once more.
  const after = await call('POST', `/api/v1/environments/${env.id}/replays/dry-run`, { kind: 'events' })
  expect(after.body).toMatchObject({ selected: 10_020, alreadyReplayed: 10_010, accepted: 0, stillRefused: 10 })
  const second = await replay(env.id, { kind: 'events' })
  expect(second).toMatchObject({ status: 'done', published: 10, stored: 0, refusedAgain: 10 })
  expect(await t.count('events', where)).toBe(10_000)

  // The audit: who asked, the filter, the counts, newest first.
  const list = await call('GET', `/api/v1/environments/${env.id}/replays`)
  expect(list.body['replays'].map((r: Json) => [r['id'], r['filter']['reason'] ?? null, r['stored']])).toEqual([
    [second['id'], null, 0],
    [done['id'], filter.reason, 10_000],
  ])
}, 300_000)

it('impressions’ rejections are replayed the same way; telemetry is not replayable', async () => {
  const env = demo.environments[1]!
  const where = `environment_id = '${env.id}'`
  const now = Date.now()
  // Records an earlier release refused by mistake, as it filed them.
  const rejection = (index: number, kind: string, raw: unknown) => ({
    environment_id: env.id,
    account_id: demo.accountId,
    kind,
    reason: 'an earlier release refused it',
    raw: JSON.stringify(raw),
    sdk_version: 'nodejs-10.22.0',
    received_at: Math.floor(now / 1000) - 60,
    received_at_ms: now - 60_000,
    request_id: 'old-request',
    request_part: 0,
    source_topic: 'old.impressions',
    source_partition: 0,
    source_offset: 7,
    source_index: index,
  })
  await t.clickhouse.insert({
    table: `${t.env['CLICKHOUSE_DATABASE']}.impression_rejections`,
    format: 'JSONEachRow',
    values: [
      rejection(0, 'impressions', { f: 'checkout-flow', k: 'user-1', t: 'on', m: now - 60_000, r: 'default rule' }),
      rejection(1, 'impression_counts', { f: 'checkout-flow', m: now - 3_600_000, rc: 42 }),
      rejection(2, 'unique_keys', { f: 'checkout-flow', ks: ['user-2'] }),
      rejection(3, 'telemetry', { oM: 0, st: 'memory' }),
    ],
  })
  const dry = await call('POST', `/api/v1/environments/${env.id}/replays/dry-run`, { kind: 'impressions' })
  expect(dry.body).toMatchObject({ selected: 4, examined: 4, accepted: 3, notReplayable: 1, planVersion: null })
  const done = await replay(env.id, { kind: 'impressions' })
  expect(done).toMatchObject({ status: 'done', published: 3, notReplayable: 1, stored: 3, refusedAgain: 0 })
  const impressions = await t.query<Json>(
    `SELECT flag, key, treatment, label, time_ms, received_at_ms, sdk_version FROM {db}.impressions WHERE ${where}`,
  )
  expect(impressions).toEqual([
    {
      flag: 'checkout-flow',
      key: 'user-1',
      treatment: 'on',
      label: 'default rule',
      time_ms: String(now - 60_000),
      received_at_ms: String(now - 60_000),
      sdk_version: 'nodejs-10.22.0',
    },
  ])
  expect(await t.count('impression_counts', `${where} AND count = 42`)).toBe(1)
  expect(await t.count('unique_keys', `${where} AND key = 'user-2'`)).toBe(1)
  const again = await replay(env.id, { kind: 'impressions' })
  expect(again).toMatchObject({ published: 0, notReplayable: 1, stored: 0 })
}, 120_000)

it('refuses what it cannot do, naming the field', async () => {
  const env = demo.environments[0]!.id
  const bad = [
    [{ kind: 'impressions', eventType: 'checkout' }, 'eventType'],
    [{ kind: 'events', from: '2026-01-01T00:00:00Z', to: '2026-12-01T00:00:00Z' }, 'from'],
    [{ kind: 'events', to: 'yesterday-ish' }, 'to'],
    [{ kind: 'alerts' }, 'kind'],
    [{ kind: 'events', extra: 1 }, 'extra'],
    ['{"kind":"events","__proto__":{"reason":"x"}}', 'proto'],
  ] as const
  for (const [body, field] of bad) {
    const res = await call('POST', `/api/v1/environments/${env}/replays/dry-run`, body)
    expect(res.status, JSON.stringify(body)).toBe(400)
    expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(field)
  }
  expect((await call('GET', `/api/v1/environments/${env}/replays/rp_00`)).status).toBe(404)
})
