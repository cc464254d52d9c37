// The pipeline loses nothing and doubles nothing across crashes: a consumer process killed with
// SIGKILL in the middle of a backlog of events and impressions, three times, then restarted, leaves
// exactly one row per event and per impression.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { Kafka, logLevel } from 'kafkajs'
import type { RunningService } from '../../src/app/service.js'
import { groupIds } from '../../src/broker/topics.js'
import { createTestEnv, event, postEvents, waitFor, type TestEnv } from '../support/harness.js'
import { exited, spawnSluice } from '../support/cli.js'
import { impressionGroups, postImpressions } from '../support/load.js'

const REQUESTS = 100
const PER_REQUEST = 2000
const TOTAL = REQUESTS * PER_REQUEST
const IMPRESSION_REQUESTS = 40
const IMPRESSIONS = IMPRESSION_REQUESTS * PER_REQUEST

let t: TestEnv
let edge: RunningService
let key: string

beforeAll(async () => {
  // Small fetches make many small batches, so a kill lands between an insert and its commit.
  // A short session lets the group move partitions away from a killed member quickly.
  t = await createTestEnv({ SLUICE_CONSUMER_FETCH_MAX_BYTES: String(1024 * 1024), KAFKA_SESSION_TIMEOUT_MS: '6000' })
  key = (await t.bootstrap()).environments[0]!.serverSideSdkKey
  edge = await t.start(['edge'])
  for (let r = 0; r < REQUESTS; r += 4) {
    const results = await Promise.all(
      [0, 1, 2, 3].map((k) =>
        postEvents(
          edge.url,
          key,
          Array.from({ length: PER_REQUEST }, (_, i) => event((r + k) * PER_REQUEST + i)),
        ),
      ),
    )
    expect(results.map((x) => x.status)).toEqual([202, 202, 202, 202])
  }
  for (let r = 0; r < IMPRESSION_REQUESTS; r += 4) {
    const results = await Promise.all(
      [0, 1, 2, 3].map((k) => postImpressions(edge.url, key, impressionGroups((r + k) * PER_REQUEST, PER_REQUEST))),
    )
    expect(results.map((x) => x.status)).toEqual([202, 202, 202, 202])
  }
}, 300_000)
afterAll(async () => t?.close())

it('kill -9 of a consumer mid-stream, three times: every accepted event and impression is stored exactly once', async () => {
  // At debug level the consumer logs "batch inserted" after a ClickHouse insert and before the
  // offset commit: a kill right on that line hits the window a replay must not double.
  const consumerEnv = { ...t.env, SLUICE_LOG_LEVEL: 'debug' }
  const counts: number[] = []
  for (const killAt of [0.15, 0.4, 0.65]) {
    const child = spawnSluice(['serve', '--roles', 'events'], consumerEnv)
    let armed = false
    let tail = ''
    child.stdout?.on('data', (d: Buffer) => {
      tail = (tail + d.toString()).slice(-2000)
      if (armed && tail.includes('"msg":"batch inserted"')) child.kill('SIGKILL')
    })
    await waitFor(
      `${killAt * 100}% of the rows (consumer log: ${tail.slice(-500)})`,
      async () => ((await t.count('events').catch(() => 0)) >= TOTAL * killAt ? true : undefined),
      120_000,
    )
    tail = ''
    armed = true
    await exited(child)
    counts.push(await t.count('events'))
  }
  // Killed before the end, so there was a backlog left to replay.
  expect(counts[2]!).toBeLessThan(TOTAL)

  const child = spawnSluice(['serve', '--roles', 'events'], consumerEnv)
  try {
    await waitFor(
      'all rows',
      async () =>
        (await t.count('events')) >= TOTAL && (await t.count('impressions')) >= IMPRESSIONS ? true : undefined,
      180_000,
    )
    // Give a duplicate the chance to show up before counting for good.
    await waitFor('consumer caught up', async () => ((await lag()) === 0 ? true : undefined), 60_000)
  } finally {
    child.kill('SIGTERM')
    await exited(child)
  }
  const [stats] = await t.query<{ rows: string; positions: string; keys: string; requests: string }>(
    `SELECT count() AS rows, uniqExact(source_partition, source_offset, source_index) AS positions,
            uniqExact(key) AS keys, uniqExact(request_id) AS requests FROM {db}.events`,
  )
  expect(stats).toEqual({
    rows: String(TOTAL),
    positions: String(TOTAL),
    keys: String(TOTAL),
    requests: String(REQUESTS),
  })
  expect(await t.count('event_rejections')).toBe(0)
  const [impressions] = await t.query<{ rows: string; positions: string; keys: string; requests: string }>(
    `SELECT count() AS rows, uniqExact(source_partition, source_offset, source_index) AS positions,
            uniqExact(key) AS keys, uniqExact(request_id) AS requests FROM {db}.impressions`,
  )
  expect(impressions).toEqual({
    rows: String(IMPRESSIONS),
    positions: String(IMPRESSIONS),
    keys: String(IMPRESSIONS),
    requests: String(IMPRESSION_REQUESTS),
  })
  expect(await t.count('impression_rejections')).toBe(0)
}, 600_000)

/** Messages of the events and impressions topics not yet committed by their consumer groups. */
async function lag(): Promise<number> {
  const admin = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    let sum = 0
    for (const name of ['events', 'impressions'] as const) {
      const topic = edge.container.topics[name]
      const [ends, committed] = await Promise.all([
        admin.fetchTopicOffsets(topic),
        admin.fetchOffsets({ groupId: groupIds(t.config)[name], topics: [topic] }),
      ])
      const done = new Map(committed[0]!.partitions.map((p) => [p.partition, Number(p.offset)]))
      sum += ends.reduce((n, p) => n + Number(p.high) - Math.max(0, done.get(p.partition) ?? 0), 0)
    }
    return sum
  } finally {
    await admin.disconnect()
  }
}
