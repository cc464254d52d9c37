// The ClickHouse consumer with the impressions codec, on an in-memory sink: a batch that decodes into
// more rows than one step holds is stored in steps, every row once; a group with a huge bad flag
// costs one short raw copy per impression, not the flag each time; a refused row's raw copy gets its
// group's flag back.
import { expect, it } from 'vitest'
import { IMPRESSION_HEADERS } from '../../../src/broker/messages/impressions.js'
import type { InboundBatch } from '../../../src/broker/ports.js'
import { ClickHouseConsumer, MAX_ROWS_PER_STEP } from '../../../src/consumers/clickhouse.consumer.js'
import { IMPRESSIONS_CODEC } from '../../../src/consumers/impressions.consumer.js'
import type { ImpressionRejectionRow, UniqueKeyRow } from '../../../src/pipeline/impressions.js'
import { createLogger } from '../../../src/shared/logger.js'
import { createMetrics } from '../../../src/shared/metrics.js'
import { IMPRESSION_REJECTIONS, IMPRESSIONS, UNIQUE_KEYS } from '../../../src/sinks/clickhouse/tables.js'
import { MemorySink } from '../../support/memory-table-sink.js'

const headers = (kind: string) => ({
  [IMPRESSION_HEADERS.environment]: 'env',
  [IMPRESSION_HEADERS.receivedAt]: '1764000000000',
  [IMPRESSION_HEADERS.requestId]: 'r',
  [IMPRESSION_HEADERS.kind]: kind,
})
const consume = async (sink: MemorySink, messages: { kind: string; records: unknown[] }[]) => {
  const consumer = new ClickHouseConsumer(IMPRESSIONS_CODEC, sink.sink, createMetrics(), createLogger('silent'))
  const batch: InboundBatch = {
    topic: 'impressions',
    partition: 0,
    highWatermark: BigInt(messages.length),
    messages: messages.map((m, i) => ({
      offset: BigInt(i),
      value: Buffer.from(JSON.stringify(m.records)),
      headers: headers(m.kind),
    })),
  }
  await consumer.handle(batch, { signal: new AbortController().signal })
}

it('stores a batch of more unique keys than one step holds in steps, each key once', async () => {
  const sink = new MemorySink()
  const perMessage = 120_000
  const messages = [0, 1, 2, 3].map((m) => ({
    kind: 'unique_keys_ss',
    records: [{ f: 'flag', ks: Array.from({ length: perMessage }, (_, k) => `k${m}-${k}`) }],
  }))
  await consume(sink, messages)
  const keys = sink.rows<UniqueKeyRow>(UNIQUE_KEYS).map((r) => r.key)
  expect(keys.length).toBe(4 * perMessage)
  expect(new Set(keys).size).toBe(4 * perMessage)
  // 480,000 rows in steps of at most MAX_ROWS_PER_STEP (whole messages each): more than one insert.
  expect(sink.inserts).toBeGreaterThanOrEqual(Math.ceil((4 * perMessage) / (MAX_ROWS_PER_STEP + perMessage)))
})

it('keeps each rejection of a group with a huge bad flag short (the flag is cut, not copied per impression)', async () => {
  const sink = new MemorySink()
  const flag = 'F'.repeat(600_000)
  await consume(sink, [
    {
      kind: 'impressions',
      records: [{ f: flag, i: Array.from({ length: 2000 }, (_, k) => ({ k: `u${k}`, t: 'on', m: 1 })) }],
    },
  ])
  const rejections = sink.rows<ImpressionRejectionRow>(IMPRESSION_REJECTIONS)
  expect(rejections).toHaveLength(2000)
  for (const r of rejections) {
    expect(r.reason).toMatch(/^f must be a flag name/)
    expect(r.raw.length).toBeLessThan(400)
  }
  expect(JSON.parse(rejections[7]!.raw)).toEqual({
    f: `${'F'.repeat(256)}… (600000 characters)`,
    k: 'u7',
    t: 'on',
    m: 1,
  })
})

it("gives a refused impression's raw copy its group's flag back", async () => {
  const sink = new MemorySink()
  await consume(sink, [
    {
      kind: 'impressions',
      records: [
        {
          f: 'checkout',
          i: [
            { k: 'ok-1', t: 'on', m: 5 },
            { k: 'refused-1', t: 'off', m: 6 },
          ],
        },
      ],
    },
  ])
  expect(sink.rows(IMPRESSIONS).length).toBe(1)
  const [r] = sink.rows<ImpressionRejectionRow>(IMPRESSION_REJECTIONS)
  expect(r).toMatchObject({
    kind: 'impressions',
    source_index: 1,
    reason: expect.stringMatching(/^clickhouse refused the row/),
  })
  expect(JSON.parse(r!.raw)).toEqual({ f: 'checkout', k: 'refused-1', t: 'off', m: 6 })
})
