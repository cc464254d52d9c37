// How the ClickHouse consumer (with the events codec) isolates rows a sink refuses as data, with an in-memory sink (the
// real ClickHouse refusing real rows is in test/e2e/poison.e2e.test.ts): the other rows are stored, each refused row
// becomes a rejection at its own position, a refused rejection is kept without its raw copy, and only outages are
// retried.
import { expect, it } from 'vitest'
import { createLogger } from '../../../src/shared/logger.js'
import { createMetrics } from '../../../src/shared/metrics.js'
import { REPLAY_HEADER, type InboundBatch } from '../../../src/broker/ports.js'
import { ClickHouseConsumer } from '../../../src/consumers/clickhouse.consumer.js'
import { EVENTS_CODEC } from '../../../src/consumers/events.consumer.js'
import { EVENT_HEADERS } from '../../../src/broker/messages/events.js'
import type { EventRow } from '../../../src/pipeline/events.js'
import type { RejectionRow } from '../../../src/pipeline/rows.js'
import { EVENT_REJECTIONS, EVENTS } from '../../../src/sinks/clickhouse/tables.js'
import { MemorySink } from '../../support/memory-table-sink.js'

const headers = {
  [EVENT_HEADERS.environment]: 'env',
  [EVENT_HEADERS.receivedAt]: '1700000000000',
  [EVENT_HEADERS.requestId]: 'r',
}
const record = (key: string) => ({ eventTypeId: 'e', trafficTypeName: 'user', key, timestamp: 1_700_000_000_000 })

function batchOf(keys: string[]): InboundBatch {
  return {
    topic: 'events',
    partition: 0,
    highWatermark: 2n,
    messages: [{ offset: 1n, value: Buffer.from(JSON.stringify(keys.map(record))), headers }],
  }
}

it('stores the good rows and turns each refused row into a rejection at its own position', async () => {
  const sink = new MemorySink()
  const metrics = createMetrics()
  const consumer = new ClickHouseConsumer(EVENTS_CODEC, sink.sink, metrics, createLogger('silent'))
  const keys = Array.from({ length: 64 }, (_, i) =>
    i === 5 || i === 40 ? `refused-${i}` : i === 41 ? 'refused-twice' : `ok-${i}`,
  )
  await consumer.handle(batchOf(keys), { signal: new AbortController().signal })
  expect(sink.rows<EventRow>(EVENTS).map((r) => r.key)).toEqual(keys.filter((k) => k.startsWith('ok')))
  expect(sink.rows<RejectionRow>(EVENT_REJECTIONS).map((r) => [r.source_index, r.reason])).toEqual([
    [5, 'clickhouse refused the row: Code: 117, Incorrect data'],
    [40, 'clickhouse refused the row: Code: 117, Incorrect data'],
    [
      41,
      'clickhouse refused the row: Code: 117, Incorrect data; raw not kept: clickhouse refused it (Code: 131, Too large string)',
    ],
  ])
  expect(sink.rows<RejectionRow>(EVENT_REJECTIONS)[0]!.raw).toBe(JSON.stringify(record('refused-5')))
  expect(sink.rows<RejectionRow>(EVENT_REJECTIONS)[2]!.raw).toBe('')
  // Splitting, not one insert per row: a few dozen inserts for 64 rows with 3 refused.
  expect(sink.inserts).toBeLessThan(40)
  expect(await metrics.registry.getSingleMetricAsString('sluice_sink_errors_total')).toMatch(
    /sink="clickhouse",kind="data"\} [1-9]/,
  )
})

it('waits out an outage and then stores the batch once', async () => {
  const sink = new MemorySink()
  sink.outages = 2
  const consumer = new ClickHouseConsumer(EVENTS_CODEC, sink.sink, createMetrics(), createLogger('silent'))
  await consumer.handle(batchOf(['a', 'b']), { signal: new AbortController().signal })
  expect(sink.rows<EventRow>(EVENTS).map((r) => r.key)).toEqual(['a', 'b'])
  expect(sink.inserts).toBe(3)
})

it('takes a data refusal of rows that were stored anyway as an outage: each row once, none rejected, no half sent again', async () => {
  // A cluster's server reports a replica dying under its insert with a data code ("Attempt to read
  // after eof") after the shard stored the rows: splitting them in halves would store them again.
  const sink = new MemorySink()
  sink.storedButRefused = 1
  const consumer = new ClickHouseConsumer(EVENTS_CODEC, sink.sink, createMetrics(), createLogger('silent'))
  const keys = Array.from({ length: 100 }, (_, i) => `k-${i}`)
  await consumer.handle(batchOf(keys), { signal: new AbortController().signal })
  expect(sink.rows<EventRow>(EVENTS).map((r) => r.key)).toEqual(keys)
  expect(sink.rows(EVENT_REJECTIONS)).toEqual([])
  expect(sink.inserts).toBe(1)
})

it('holds the batch when the sink refuses a statement (not the data, not an outage): says why, stores nothing, rejects nothing, does not spin', async () => {
  const sink = new MemorySink()
  sink.refusedQueries = 1000
  const metrics = createMetrics()
  const consumer = new ClickHouseConsumer(EVENTS_CODEC, sink.sink, metrics, createLogger('silent'))
  const controller = new AbortController()
  const reasons: (string | undefined)[] = []
  const handled = consumer.handle(batchOf(['a', 'b']), {
    signal: controller.signal,
    blocked: (reason) => reasons.push(reason),
  })
  await new Promise((r) => setTimeout(r, 500))
  expect(reasons).toEqual(['clickhouse refused the insert into events (code 497): Not enough privileges'])
  expect(sink.inserts).toBe(1)
  expect(sink.rows(EVENTS)).toEqual([])
  expect(sink.rows(EVENT_REJECTIONS)).toEqual([])
  expect(await metrics.registry.getSingleMetricAsString('sluice_sink_errors_total')).toMatch(
    /sink="clickhouse",kind="refused"\} 1/,
  )
  const stopping = new Error('stopping')
  controller.abort(stopping)
  await expect(handled).rejects.toBe(stopping)
  // Once the statement is taken again (the operator fixed the grant), the batch is stored, once.
  sink.refusedQueries = 0
  await consumer.handle(batchOf(['a', 'b']), { signal: new AbortController().signal })
  expect(sink.rows<EventRow>(EVENTS).map((r) => r.key)).toEqual(['a', 'b'])
})

it('leaves the batch when told to (stopping, partition lost), without storing it', async () => {
  const sink = new MemorySink()
  sink.outages = 1000
  const consumer = new ClickHouseConsumer(EVENTS_CODEC, sink.sink, createMetrics(), createLogger('silent'))
  const controller = new AbortController()
  const lost = new Error('partition lost')
  setTimeout(() => controller.abort(lost), 300)
  await expect(consumer.handle(batchOf(['a']), { signal: controller.signal })).rejects.toBe(lost)
  expect(sink.rows(EVENTS)).toEqual([])
})

it('skips a replayed message whose identity is stored or came earlier in the batch, and stores a replay of what is not', async () => {
  const sink = new MemorySink()
  const consumer = new ClickHouseConsumer(EVENTS_CODEC, sink.sink, createMetrics(), createLogger('silent'))
  const message = (offset: bigint, request: string, part: number, keys: string[], replay = false) => ({
    offset,
    value: Buffer.from(JSON.stringify(keys.map(record))),
    headers: {
      ...headers,
      [EVENT_HEADERS.requestId]: request,
      [EVENT_HEADERS.part]: String(part),
      ...(replay ? { [REPLAY_HEADER]: '1' } : {}),
    },
  })
  const signal = new AbortController().signal
  // First copies of r1 (two parts) and r2 part 0.
  await consumer.handle(
    {
      topic: 'events',
      partition: 0,
      highWatermark: 10n,
      messages: [message(1n, 'r1', 0, ['a']), message(2n, 'r1', 1, ['b']), message(3n, 'r2', 0, ['c'])],
    },
    { signal },
  )
  await consumer.handle(
    {
      topic: 'events',
      partition: 0,
      highWatermark: 10n,
      messages: [
        message(4n, 'r1', 1, ['b'], true), // stored in the first batch: skipped
        message(5n, 'r3', 0, ['d'], true), // never stored: stored now
        message(6n, 'r3', 0, ['d'], true), // the same replay again in this batch: skipped
        message(7n, 'r2', 1, ['e'], true), // another part of r2, never stored: stored
      ],
    },
    { signal },
  )
  expect(sink.rows<EventRow>(EVENTS).map((r) => `${r.request_id}:${r.request_part}:${r.key}`)).toEqual([
    'r1:0:a',
    'r1:1:b',
    'r2:0:c',
    'r3:0:d',
    'r2:1:e',
  ])
})
