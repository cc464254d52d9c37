// Poison corpus for event intake, on real Kafka, ClickHouse and Redis: valid events interleaved, on
// every partition, with every kind of record that used to stop storage for all tenants (a lone
// surrogate made ClickHouse refuse the whole insert forever; deep nesting overflowed the stack) and
// with a record ClickHouse itself refuses (a throwIf column added to this test's table). Afterwards
// every valid event is stored exactly once, every poison record is a rejection with its reason, the
// process is alive, ready, and its lag is back to 0.
import { Kafka, logLevel } from 'kafkajs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { EVENT_HEADERS } from '../../src/broker/messages/events.js'
import { createTestEnv, event, postEvents, waitFor, waitForZeroLag, type TestEnv } from '../support/harness.js'
import { POISON_EVENTS } from '../support/hostile.js'

let t: TestEnv
let service: RunningService
let key: string
let environmentId: string

const REFUSED_KEY = 'clickhouse-refuses-me'

/** Poison records the edge accepts (202) and the consumer must reject one by one, with the reason expected. */
const POISON: readonly [string, Record<string, unknown>, RegExp][] = [
  ...POISON_EVENTS,
  ['a row ClickHouse refuses', { key: REFUSED_KEY }, /^clickhouse refused the row: .*throwIf/],
]

beforeAll(async () => {
  t = await createTestEnv()
  const demo = await t.bootstrap()
  key = demo.environments[0]!.serverSideSdkKey
  environmentId = demo.environments[0]!.id
  service = await t.start(['edge', 'events'])
  // Real ClickHouse refusing a real row: a column whose default throws for one key.
  await t.clickhouse.command({
    query: `ALTER TABLE ${t.config.clickhouse.database}.events ADD COLUMN refused UInt8 MATERIALIZED throwIf(key = '${REFUSED_KEY}')`,
  })
}, 120_000)

afterAll(async () => {
  await t?.close()
})

it('stores every valid event once and rejects every poison record with its reason, on every partition, and keeps going', async () => {
  let valid = 0
  const expected = new Map<RegExp, number>()
  const requests: unknown[][] = []
  for (let r = 0; r < 24; r++) {
    const records: unknown[] = []
    for (let i = 0; i < 50; i++) records.push(event(r * 1000 + i))
    valid += 50
    // Each request carries a different poison kind at a different place, so every partition gets each kind.
    const [, patch, reason] = POISON[r % POISON.length]!
    records.splice((r * 7) % 50, 0, { ...event(900_000 + r), ...patch })
    expected.set(reason, (expected.get(reason) ?? 0) + 1)
    requests.push(records)
  }
  for (const records of requests) {
    const res = await postEvents(service.url, key, records)
    expect(res.status, JSON.stringify(res.body)).toBe(202)
  }

  // What the edge itself refuses, whole (400 naming where and the limit): no SDK sends these.
  const huge = await postEvents(
    service.url,
    key,
    '[{"eventTypeId":"e","trafficTypeName":"user","key":"k","timestamp":1,"value":1e400}]',
  )
  expect(huge.status).toBe(400)
  expect(huge.body['message']).toBe('body[0].value is a number beyond the range of a double')
  const deep = await postEvents(
    service.url,
    key,
    `[{"eventTypeId":"e","trafficTypeName":"user","key":"k","timestamp":1,"properties":{"a":${'['.repeat(100)}${']'.repeat(100)}}}]`,
  )
  expect(deep.status).toBe(400)
  expect(deep.body['message']).toMatch(/^body\[0\]\.properties\.a(\[0\])+… nests deeper than 64 levels$/)

  // The same kinds written to Kafka directly (an older edge, another writer), on every partition:
  // the consumer must survive them too. 10,000 levels once overflowed the stack and killed the process.
  const kafka = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING })
  const producer = kafka.producer()
  await producer.connect()
  const headers = (id: string) => ({
    [EVENT_HEADERS.environment]: environmentId,
    [EVENT_HEADERS.account]: 'acc',
    [EVENT_HEADERS.receivedAt]: String(Date.now()),
    [EVENT_HEADERS.sdkVersion]: 'poison-test',
    [EVENT_HEADERS.requestId]: id,
  })
  const direct: [string, RegExp][] = [
    [
      `[{"eventTypeId":"e","trafficTypeName":"user","key":"deep","timestamp":1700000000000,"properties":{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}}]`,
      /^properties\.a must be a string/,
    ],
    [
      '[{"eventTypeId":"e","trafficTypeName":"user","key":"huge","timestamp":1700000000000,"value":1e400}]',
      /^value must be a number or null/,
    ],
    [
      '[{"eventTypeId":"e","trafficTypeName":"user","key":"huge-prop","timestamp":1700000000000,"properties":{"n":-1e999}}]',
      /^properties\.n must be a string/,
    ],
    [`${'['.repeat(50_000)}${']'.repeat(50_000)}`, /^record must be a JSON object/],
    ['not json at all', /^kafka message is not an event batch/],
  ]
  for (let partition = 0; partition < t.config.kafka.partitions; partition++) {
    const messages = direct.map(([value], i) => ({ partition, value, headers: headers(`direct-${partition}-${i}`) }))
    // Valid events between the poison ones, on the same partition.
    messages.splice(2, 0, {
      partition,
      value: JSON.stringify([event(800_000 + partition)]),
      headers: headers(`direct-valid-${partition}`),
    })
    valid += 1
    await producer.send({ topic: `${t.config.kafka.topicPrefix}events`, messages })
    for (const [, reason] of direct) expected.set(reason, (expected.get(reason) ?? 0) + 1)
  }
  await producer.disconnect()

  const poison = [...expected.values()].reduce((a, b) => a + b, 0)
  await waitFor(
    'every record stored or rejected',
    async () => {
      const [e, r] = [await t.count('events'), await t.count('event_rejections')]
      return e >= valid && r >= poison ? true : undefined
    },
    90_000,
  )
  await new Promise((r) => setTimeout(r, 1000))

  const [stored] = await t.query<{ n: string; keys: string; positions: string }>(
    'SELECT count() AS n, uniqExact(key) AS keys, uniqExact(source_partition, source_offset, source_index) AS positions FROM {db}.events',
  )
  expect(Number(stored!.n)).toBe(valid)
  expect(Number(stored!.keys)).toBe(valid)
  expect(Number(stored!.positions)).toBe(valid)
  const partitions = await t.query<{ p: number }>(
    'SELECT DISTINCT source_partition AS p FROM {db}.event_rejections ORDER BY p',
  )
  expect(partitions.map((r) => Number(r.p))).toEqual([0, 1, 2])

  const reasons = (await t.query<{ reason: string }>('SELECT reason FROM {db}.event_rejections')).map((r) => r.reason)
  expect(reasons).toHaveLength(poison)
  for (const [pattern, n] of expected)
    expect(
      reasons.filter((r) => pattern.test(r)),
      String(pattern),
    ).toHaveLength(n)
  // The raw copy of a refused row is kept, and a lone surrogate is kept as its escape, readable.
  const [raw] = await t.query<{ raw: string }>(
    `SELECT raw FROM {db}.event_rejections WHERE reason LIKE 'key contains%' LIMIT 1`,
  )
  expect(raw!.raw).toMatch(/"key":"a\\ud[8c]00b"/)

  // Alive, ready, and caught up (lag is polled from the group's committed offsets).
  expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
  await waitForZeroLag(service.url, 'events', t.config.kafka.partitions)
  const ready = await fetch(`${service.url}/readyz`)
  expect(ready.status).toBe(200)
  const metrics = await (await fetch(`${service.url}/metrics`)).text()
  expect(metrics).toMatch(/^sluice_sink_errors_total\{sink="clickhouse",kind="data"\} [1-9]/m)
  expect(metrics).not.toMatch(/^sluice_unstorable_total\{sink="clickhouse"\} [1-9]/m)

  // And intake still works after all that.
  const after = await postEvents(service.url, key, [event(999_999)])
  expect(after.status).toBe(202)
  await waitFor('a later event stored', async () =>
    (await t.count('events', `key = 'user-999999'`)) === 1 ? true : undefined,
  )
}, 180_000)
