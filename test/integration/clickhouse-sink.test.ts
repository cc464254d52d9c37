// The ClickHouse table sink on both engines (the 18.16 server and a current 26.x, see engines.ts):
// rows sent as TabSeparated come back exactly as built, whatever their strings and numbers hold
// (tabs, line breaks, backslashes, NUL, \N, Unicode); rows over more months than one insert may hold
// are stored; the reads that exactly-once rests on (intents, stored positions, replayed parts) find
// what is stored and nothing else, and stay under ClickHouse's query size.
import { randomBytes } from 'node:crypto'
import type { ClickHouseClient } from '@clickhouse/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventRow } from '../../src/pipeline/events.js'
import { rejectionRow } from '../../src/pipeline/rows.js'
import { createLogger } from '../../src/shared/logger.js'
import { probeCapabilities, type ClickHouseCapabilities } from '../../src/sinks/clickhouse/capabilities.js'
import { byMonths, ClickHouseTableSink } from '../../src/sinks/clickhouse/table.sink.js'
import { EVENT_REJECTIONS, EVENTS, IMPRESSION_REJECTIONS, IMPRESSIONS } from '../../src/sinks/clickhouse/tables.js'
import type { ImpressionRow } from '../../src/pipeline/impressions.js'
import { migrate } from '../../src/sinks/clickhouse/migrations.js'
import { eventRow, impressionRows } from '../support/rows.js'
import { ENGINES, type Engine } from '../support/engines.js'

describe.each(ENGINES)('on $name', ({ make }) => {
  let engine: Engine
  let client: ClickHouseClient
  let db: string
  let sink: ClickHouseTableSink
  let capabilities: ClickHouseCapabilities

  beforeAll(async () => {
    engine = make()
    client = engine.client()
    db = `test_sink_${randomBytes(4).toString('hex')}`
    await migrate(client, { database: db }, createLogger('silent'))
    capabilities = await probeCapabilities(client)
    // The sink's own client: on chDB a connection keeps the settings it was sent.
    sink = new ClickHouseTableSink(engine.client(), { database: db, capabilities })
  })

  afterAll(async () => {
    await client.command({ query: `DROP DATABASE IF EXISTS ${db}` })
    await engine.close()
  })

  it('knows what the server can do: async inserts (turned off for its inserts) and deduplication tokens only on the current engine', () => {
    expect(capabilities).toMatchObject(
      engine.current
        ? { asyncInsert: true, quorumParallel: true, deduplicationToken: true }
        : { asyncInsert: false, quorumParallel: false, deduplicationToken: false },
    )
    expect(capabilities.version).toMatch(engine.current ? /^26\./ : /^\d+\./)
  })

  const HOSTILE = [
    'tab\there',
    'line\nbreak',
    'carriage\rreturn',
    'back\\slash',
    'nul\0byte',
    '\\N',
    '\\t literal',
    'é ü 中文 😀',
    '"quoted" \'single\'',
    '',
    ' ',
    '{"json":"text"}',
  ]
  const NUMBERS = [0, 1.5, -2.25, 1e300, 1e-310, 123456789.125, null]

  it('stores event rows and rejections exactly as built, hostile strings and numbers included', async () => {
    const meta = {
      environmentId: 'env\t1',
      accountId: 'acc\n1',
      receivedAtMs: 1_700_000_000_123,
      sdkVersion: 'python-10.2.0\\',
      requestId: 'req',
      part: 2,
    }
    const rows: EventRow[] = []
    HOSTILE.forEach((s, i) => {
      rows.push(
        eventRow(
          {
            eventTypeId: `type_${i}`,
            trafficTypeName: 'user',
            key: s || 'k',
            timestamp: 1_700_000_000_000 + i,
            value: NUMBERS[i % NUMBERS.length],
            properties: { s, n: i },
          },
          meta,
          { topic: 'events', partition: 1, offset: BigInt(2 ** 40 + i), index: i },
        ),
      )
    })
    await sink.insert(EVENTS, rows)
    const stored = await (
      await client.query({ query: `SELECT * FROM ${db}.events ORDER BY source_index`, format: 'JSONEachRow' })
    ).json<Record<string, unknown>>()
    expect(stored).toHaveLength(rows.length)
    stored.forEach((got, i) => {
      const want = rows[i]!
      for (const column of [
        'environment_id',
        'account_id',
        'traffic_type',
        'event_type',
        'key',
        'timestamp_raw',
        'properties',
        'sdk_version',
        'request_id',
        'source_topic',
      ]) {
        expect(got[column], column).toBe(want[column as keyof EventRow])
      }
      expect(Number(got['timestamp_ms'])).toBe(want.timestamp_ms)
      expect(Number(got['received_at_ms'])).toBe(want.received_at_ms)
      expect(got['value']).toBe(want.value === null ? null : want.value)
      expect(String(got['source_offset'])).toBe(want.source_offset)
      expect([got['source_partition'], got['source_index'], got['request_part']]).toEqual([1, i, 2])
    })
    // DateTime columns from epoch seconds.
    const [times] = await (
      await client.query({
        query: `SELECT toUnixTimestamp(timestamp) AS t, toUnixTimestamp(received_at) AS r FROM ${db}.events WHERE source_index = 3`,
        format: 'JSONEachRow',
      })
    ).json<{ t: number; r: number }>()
    expect([Number(times!.t), Number(times!.r)]).toEqual([rows[3]!.timestamp, rows[3]!.received_at])

    // Epoch seconds of any length: ClickHouse reads a four-digit value as a year unless it is padded.
    const early = [0, 5, 1234, 99_999].map((seconds, i) => {
      return eventRow({ eventTypeId: 'early', trafficTypeName: 'user', key: 'k', timestamp: seconds }, meta, {
        topic: 'early',
        partition: 0,
        offset: 0n,
        index: i,
      })
    })
    await sink.insert(EVENTS, early)
    const earlyStored = await (
      await client.query({
        query: `SELECT toUnixTimestamp(timestamp) AS t FROM ${db}.events WHERE source_topic = 'early' ORDER BY source_index`,
        format: 'JSONEachRow',
      })
    ).json<{ t: number }>()
    expect(earlyStored.map((r) => Number(r.t))).toEqual([0, 5, 1234, 99_999])

    const rejections = HOSTILE.map((s, i) =>
      rejectionRow(`reason ${s}`, { raw: s }, meta, { topic: 'events', partition: 0, offset: BigInt(i), index: 0 }),
    )
    await sink.insert(EVENT_REJECTIONS, rejections)
    const storedRejections = await (
      await client.query({
        query: `SELECT reason, raw FROM ${db}.event_rejections ORDER BY source_offset`,
        format: 'JSONEachRow',
      })
    ).json<{ reason: string; raw: string }>()
    expect(storedRejections).toEqual(rejections.map((r) => ({ reason: r.reason, raw: r.raw })))
  })

  it('stores rows spread over more months than ClickHouse takes in one insert (max_partitions_per_insert_block), each once', async () => {
    const meta = {
      environmentId: 'env-months',
      accountId: 'acc',
      receivedAtMs: 1_700_000_000_000,
      sdkVersion: 's',
      requestId: 'months',
      part: 0,
    }
    // 240 months, one event each, from 2000 on; and a rejection batch over as many receive times.
    const rows = Array.from({ length: 240 }, (_, i) => {
      return eventRow(
        { eventTypeId: 'monthly', trafficTypeName: 'user', key: `k${i}`, timestamp: Date.UTC(2000, i, 15) },
        meta,
        {
          topic: 'months',
          partition: 0,
          offset: BigInt(i),
          index: 0,
        },
      )
    })
    expect(byMonths(EVENTS, rows).length).toBeGreaterThan(2)
    await sink.insert(EVENTS, rows)
    const [stored] = await (
      await client.query({
        query: `SELECT count() AS n, uniqExact(toYYYYMM(timestamp)) AS months FROM ${db}.events WHERE source_topic = 'months'`,
        format: 'JSONEachRow',
      })
    ).json<{ n: string; months: string }>()
    expect([Number(stored!.n), Number(stored!.months)]).toEqual([240, 240])
  })

  it('checks stored positions and replayed parts of batches with thousands of long flags or request ids (queries stay under max_query_size)', async () => {
    const meta = {
      environmentId: 'env-long',
      accountId: 'acc',
      receivedAtMs: 1_700_000_000_000,
      sdkVersion: 's',
      requestId: 'long',
      part: 0,
      kind: 'impressions',
      impressionsMode: 'DEBUG',
      machineIp: '',
      machineName: '',
    }
    const rows: ImpressionRow[] = []
    rows.push(
      ...impressionRows(
        Array.from({ length: 3000 }, (_, g) => ({
          f: `${'f'.repeat(200)}${g}`,
          i: [{ k: `k${g}`, t: 'on', m: 1_700_000_000_000 }],
        })),
        meta,
        (index) => ({ topic: 'long', partition: 0, offset: 5n, index }),
      ),
    )
    await sink.insert(IMPRESSIONS, rows)
    const stored = await sink.storedPositions('long', 0, [{ table: IMPRESSIONS, rows }], {
      table: IMPRESSION_REJECTIONS,
      rows: [],
    })
    expect(stored.size).toBe(3000)
    const parts = Array.from({ length: 3000 }, (_, i) => ({
      environmentId: `env-${'e'.repeat(60)}${i}`,
      requestId: `${'r'.repeat(60)}${i}`,
      part: 0,
      receivedAt: 1_700_000_000,
    }))
    expect((await sink.storedParts([IMPRESSIONS, IMPRESSION_REJECTIONS], parts)).size).toBe(0)
  })

  it('records intents and reads the highest one of a partition; finds exactly the stored positions and messages of a batch', async () => {
    expect(await sink.intendedThrough('intents', 3)).toBeUndefined()
    await sink.recordIntent('intents', 3, 1000n)
    await sink.recordIntent('intents', 3, 2n ** 62n)
    await sink.recordIntent('intents', 4, 7n)
    expect(await sink.intendedThrough('intents', 3)).toBe(2n ** 62n)
    expect(await sink.intendedThrough('intents', 4)).toBe(7n)

    const meta = {
      environmentId: "env'quote\\",
      accountId: 'acc',
      receivedAtMs: 1_700_000_100_000,
      sdkVersion: 's',
      requestId: "req'1",
      part: 1,
    }
    const rows = Array.from({ length: 10 }, (_, i) => {
      return eventRow(
        {
          eventTypeId: i % 2 ? 'odd-type' : 'even',
          trafficTypeName: 'user',
          key: `k${i}`,
          timestamp: 1_700_000_000_000 + i * 1000,
        },
        meta,
        {
          topic: 'positions',
          partition: 2,
          offset: 10n + BigInt(i >> 1),
          index: i & 1,
        },
      )
    })
    const rejection = rejectionRow('bad', { raw: 1 }, meta, { topic: 'positions', partition: 2, offset: 20n, index: 0 })
    await sink.insert(EVENTS, rows.slice(0, 6))
    await sink.insert(EVENT_REJECTIONS, [rejection])
    const stored = await sink.storedPositions('positions', 2, [{ table: EVENTS, rows }], {
      table: EVENT_REJECTIONS,
      rows: [rejection],
    })
    expect([...stored].sort()).toEqual(['10:0', '10:1', '11:0', '11:1', '12:0', '12:1', '20:0'])
    expect(
      (await sink.storedPositions('positions', 1, [{ table: EVENTS, rows }], { table: EVENT_REJECTIONS, rows: [] }))
        .size,
    ).toBe(0)
    const parts = [
      { environmentId: meta.environmentId, requestId: "req'1", part: 1, receivedAt: 1_700_000_100 },
      { environmentId: meta.environmentId, requestId: "req'1", part: 2, receivedAt: 1_700_000_100 },
    ]
    expect([...(await sink.storedParts([EVENTS, EVENT_REJECTIONS], parts))]).toEqual(["req'1:1"])
  })

  it('after an insert left without a definite answer, stops it (KILL QUERY) and confirms it is gone before the next one', async () => {
    // An insert into a database not made yet fails as a passing state (UNKNOWN_DATABASE): the sink
    // cannot know it did not run, so the next insert first kills it by query id and checks
    // system.processes, on both engines.
    const later = `${db}_later`
    const late = new ClickHouseTableSink(engine.client(), { database: later, capabilities })
    const meta = {
      environmentId: 'env',
      accountId: 'acc',
      receivedAtMs: 1_700_000_000_000,
      sdkVersion: 's',
      requestId: 'settle',
      part: 0,
    }
    const row = eventRow(
      { eventTypeId: 'settle', trafficTypeName: 'user', key: 'k', timestamp: 1_700_000_000_000 },
      meta,
      { topic: 'settle', partition: 0, offset: 0n, index: 0 },
    )
    await expect(late.insert(EVENTS, [row])).rejects.toMatchObject({
      code: 'SINK_UNAVAILABLE',
      retriable: true,
    })
    await migrate(client, { database: later }, createLogger('silent'))
    try {
      await late.insert(EVENTS, [row])
      expect(
        await late.storedPositions('settle', 0, [{ table: EVENTS, rows: [row] }], {
          table: EVENT_REJECTIONS,
          rows: [],
        }),
      ).toEqual(new Set(['0:0']))
    } finally {
      await client.command({ query: `DROP DATABASE IF EXISTS ${later}` })
    }
  })
})
