// An upgrade with events still in Kafka: a message as the release before the line format wrote it (the
// body's JSON array as sent, its metadata in headers, no format header) is consumed by this release
// into the same rows and rejections as the same records posted to this release's edge.
import { afterEach, expect, it } from 'vitest'
import { Kafka, logLevel } from 'kafkajs'
import { createTestEnv, event, postEvents, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const records = [
  event(1),
  event(2, { key: 'tab\there, line\nfeed, back\\slash, \\N, é 😀', properties: { 'a\tb': 'c\nd', n: 1.5e300 } }),
  event(3, { timestamp: '1700000000', value: null, properties: null }),
  { eventTypeId: 'checkout', key: 'no-traffic-type', timestamp: 1 },
  event(4, { key: 'lone \ud800' }),
]

const COLUMNS =
  'environment_id, account_id, received_at, sdk_version, request_part, traffic_type, event_type, key, timestamp, ' +
  'timestamp_ms, timestamp_raw, value, properties'

it('consumes a message the previous release wrote as it consumes the same records posted now', async () => {
  t = await createTestEnv()
  const env = t
  const demo = await env.bootstrap()
  const environment = demo.environments[0]!
  const service = await env.start()

  const posted = await postEvents(service.url, environment.serverSideSdkKey, records, {
    splitsdkversion: 'node-11.0.0',
  })
  expect(posted.status).toBe(202)
  const received = Date.now()
  const kafka = new Kafka({ brokers: [...env.config.kafka.brokers], logLevel: logLevel.NOTHING })
  const producer = kafka.producer()
  await producer.connect()
  try {
    // The previous release's wire format, spelled out rather than taken from the code under test.
    await producer.send({
      topic: service.container.topics.events,
      messages: [
        {
          key: 'old-request',
          value: JSON.stringify(records),
          headers: {
            'sluice-environment': environment.id,
            'sluice-account': demo.accountId,
            'sluice-received-at': String(received),
            'sluice-sdk-version': 'node-11.0.0',
            'sluice-request-id': 'old-request',
            'sluice-part': '0',
          },
        },
      ],
    })
  } finally {
    await producer.disconnect()
  }
  const ids = [String(posted.body['requestId']), 'old-request']
  await waitFor('both requests stored', async () =>
    (await env.count('events', `request_id IN ('${ids.join("','")}')`)) === 6 &&
    (await env.count('event_rejections', `request_id IN ('${ids.join("','")}')`)) === 4
      ? true
      : undefined,
  )
  const rows = async (table: string, columns: string, id: string) =>
    (
      await env.query<Record<string, unknown>>(
        `SELECT ${columns} FROM {db}.${table} WHERE request_id = '${id}' ORDER BY source_index`,
      )
    ).map(({ received_at: _, ...row }) => row)
  const [now, old] = [await rows('events', COLUMNS, ids[0]!), await rows('events', COLUMNS, ids[1]!)]
  expect(old).toEqual(now)
  expect(now.map((r) => r['key'])).toEqual(['user-1', records[1]!['key'], 'user-3'])
  expect(now[1]!['properties']).toBe(JSON.stringify({ 'a\tb': 'c\nd', n: 1.5e300 }))
  const reasons = async (id: string) => rows('event_rejections', 'source_index, reason, raw', id)
  expect(await reasons(ids[1]!)).toEqual(await reasons(ids[0]!))
  expect((await reasons(ids[0]!)).map((r) => [r['source_index'], r['reason']])).toEqual([
    [3, 'trafficTypeName is required'],
    [4, 'key contains a lone UTF-16 surrogate (malformed Unicode)'],
  ])
})
