// The events consumer against real Kafka and ClickHouse: replays after a lost commit and a ClickHouse
// outage add no duplicate and lose nothing.
import { createServer, connect, type Server, type Socket } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { Kafka, logLevel } from 'kafkajs'
import { groupIds } from '../../src/broker/topics.js'
import { createTestEnv, event, postEvents, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const batch = (from: number, n: number) => [
  ...Array.from({ length: n - 1 }, (_, i) => event(from + i)),
  { eventTypeId: 'x', key: 'no-traffic-type', timestamp: 1 },
]

it('replays from offset 0 after lost commits without storing anything twice', async () => {
  // Small fetches: the replay spans many batches, and only the first starts where the commit was.
  t = await createTestEnv({ KAFKA_SESSION_TIMEOUT_MS: '6000', SLUICE_CONSUMER_FETCH_MAX_BYTES: String(1024 * 1024) })
  const env = t
  const key = (await env.bootstrap()).environments[0]!.serverSideSdkKey
  let service = await env.start()
  for (let r = 0; r < 30; r++) expect((await postEvents(service.url, key, batch(r * 2000, 2000))).status).toBe(202)
  await waitFor('60,000 records stored', async () =>
    (await env.count('events')) + (await env.count('event_rejections')) === 60_000 ? true : undefined,
  )
  const topic = service.container.topics.events
  await service.stop()

  // As if every insert had happened but no commit: the group starts again from the beginning.
  const admin = new Kafka({ brokers: [...env.config.kafka.brokers], logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  await admin.resetOffsets({ groupId: groupIds(env.config).events, topic, earliest: true })
  await admin.disconnect()

  service = await env.start()
  const last = await postEvents(service.url, key, batch(100_000, 50))
  expect(last.status).toBe(202)
  // Its events and its rejection are two inserts: wait for both.
  const stored = async (table: 'events' | 'event_rejections') =>
    env.count(table, `request_id = '${String(last.body['requestId'])}'`)
  await waitFor('the new request stored', async () =>
    (await stored('events')) === 49 && (await stored('event_rejections')) === 1 ? true : undefined,
  )
  expect(await env.count('events')).toBe(30 * 1999 + 49)
  expect(await env.count('event_rejections')).toBe(31)
  const [u] = await env.query<{ n: string }>(
    'SELECT uniqExact(source_partition, source_offset, source_index) AS n FROM {db}.events',
  )
  expect(Number(u!.n)).toBe(30 * 1999 + 49)
})

it('holds events while ClickHouse is unreachable and stores each exactly once when it is back', async () => {
  const proxy = await cuttableProxy(new URL(process.env['CLICKHOUSE_URL'] ?? 'http://127.0.0.1:8123'))
  try {
    t = await createTestEnv()
    const env = t
    const key = (await env.bootstrap()).environments[0]!.serverSideSdkKey
    const service = await env.start(['edge', 'events'], { CLICKHOUSE_URL: `http://127.0.0.1:${proxy.port}` })
    proxy.cut()
    for (let r = 0; r < 5; r++) expect((await postEvents(service.url, key, batch(r * 1000, 1000))).status).toBe(202)
    await waitFor('insert errors', async () => {
      const metrics = await (await fetch(`${service.url}/metrics`)).text()
      return /sluice_sink_errors_total\{sink="clickhouse",kind="retriable"\} [1-9]/.test(metrics) ? true : undefined
    })
    expect(await env.count('events')).toBe(0)
    proxy.restore()
    await waitFor(
      '5,000 records stored',
      async () => ((await env.count('events')) + (await env.count('event_rejections')) >= 5000 ? true : undefined),
      60_000,
    )
    await new Promise((r) => setTimeout(r, 1000))
    expect(await env.count('events')).toBe(5 * 999)
    expect(await env.count('event_rejections')).toBe(5)
  } finally {
    await proxy.close()
  }
})

/** A TCP proxy to ClickHouse whose connection can be cut (every socket reset, new ones refused). */
async function cuttableProxy(
  target: URL,
): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  let down = false
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    if (down) return client.destroy()
    const upstream = connect(Number(target.port || 8123), target.hostname)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => undefined)
      s.on('close', () => {
        sockets.delete(s)
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    cut: () => {
      down = true
      for (const s of sockets) s.destroy()
    },
    restore: () => {
      down = false
    },
    close: () => new Promise((r) => server.close(() => r())),
  }
}
