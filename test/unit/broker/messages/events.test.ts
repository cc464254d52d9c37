import { text } from 'node:stream/consumers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  EVENT_HEADERS,
  EVENT_LINES_FORMAT,
  encodeEventMessages,
  eventLinesOf,
  eventOfColumns,
} from '../../../../src/broker/messages/events.js'
import {
  encodeRecordMessages,
  originHeaders,
  RecordTooLargeError,
  splitArrayText,
} from '../../../../src/broker/messages/records.js'
import { FORMAT_HEADER, type OutboundMessage } from '../../../../src/broker/ports.js'
import { DecodedRows } from '../../../../src/consumers/clickhouse.consumer.js'
import { EVENTS_CODEC } from '../../../../src/consumers/events.consumer.js'
import { processEvent } from '../../../../src/pipeline/events.js'
import { EVENTS } from '../../../../src/sinks/clickhouse/tables.js'
import { tsvStream } from '../../../../src/sinks/clickhouse/tsv.js'

const meta = { environmentId: 'env', accountId: 'acc', receivedAtMs: 123, sdkVersion: 'v', requestId: 'req' }
const headers = originHeaders(meta)
const sized = (maxBytes: number) => ({ bodyBytes: 0, maxBytes })

const event = (i: number, extra: object = {}) => ({
  eventTypeId: 'checkout',
  trafficTypeName: 'user',
  key: `k${i}`,
  timestamp: 1_700_000_000_000 + i,
  value: i,
  properties: { plan: 'pro', i },
  ...extra,
})

/** The text the sink sends for rows (tsvStream over the events table's columns). */
const sinkText = (rows: readonly object[]) =>
  text(tsvStream(rows, EVENTS.columns as never, EVENTS.dateTimes as never, EVENTS.shared, EVENTS.encodedAfter))

/** A message as the consumer decodes it: its rows and rejections. */
function decode(message: OutboundMessage, partition = 0, offset = 7n) {
  const out = new DecodedRows()
  EVENTS_CODEC.decode(
    { ...message, offset, key: undefined } as never,
    (index) => ({ topic: 'events', partition, offset, index }),
    out,
  )
  return out
}

describe('encodeEventMessages', () => {
  it('writes one line per record, in order, in messages no larger than the limit', async () => {
    const records = Array.from({ length: 5000 }, (_, i) => event(i, { properties: { pad: 'x'.repeat(i % 700) } }))
    const max = 64 * 1024
    const messages = await encodeEventMessages(records, meta, sized(max))
    expect(messages.length).toBeGreaterThan(1)
    for (const m of messages) expect(m.value.length).toBeLessThanOrEqual(max)
    const lines = messages.flatMap((m) => eventLinesOf(m)!.toString().split('\n').slice(0, -1))
    expect(lines).toHaveLength(5000)
    expect(lines.map((l) => eventOfColumns(l.slice(2)).key)).toEqual(records.map((r) => r.key))
    expect(messages[0]!.headers).toEqual({
      [EVENT_HEADERS.environment]: 'env',
      [EVENT_HEADERS.account]: 'acc',
      [EVENT_HEADERS.receivedAt]: '123',
      [EVENT_HEADERS.sdkVersion]: 'v',
      [EVENT_HEADERS.requestId]: 'req',
      [EVENT_HEADERS.part]: '0',
      [FORMAT_HEADER]: EVENT_LINES_FORMAT,
    })
    // Each message's identity is (request id, part); all go to the request's partition, in order.
    expect(messages.map((m) => m.headers[EVENT_HEADERS.part])).toEqual(messages.map((_, i) => String(i)))
    expect(new Set(messages.map((m) => m.key))).toEqual(new Set(['req']))
    expect(messages.every((m) => m.ordered)).toBe(true)
  })

  it('lets other work run while it checks a large body', async () => {
    let ran = false
    setImmediate(() => (ran = true))
    await encodeEventMessages([event(1)], meta, sized(1 << 20))
    expect(ran).toBe(false)
    await encodeEventMessages(
      Array.from({ length: 25_000 }, (_, i) => event(i)),
      meta,
      sized(1 << 20),
    )
    expect(ran).toBe(true)
  })

  it('names a single record larger than a message', async () => {
    const records = [event(0), event(1, { properties: { b: 'x'.repeat(30_000) } }), event(2)]
    await expect(encodeEventMessages(records, meta, sized(20_000))).rejects.toThrow(RecordTooLargeError)
    await expect(encodeEventMessages(records, meta, sized(20_000))).rejects.toThrow(/record 1 is 300\d\d bytes/)
  })

  // The consumer's rows from the edge's lines must be exactly the rows the record-by-record path
  // (processEvent, every release before the lines) made: same text to ClickHouse, same rejections.
  const tricky = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('\t', '\n', '\r', '\0', '\\', '\\N', '\\t', 'é', '😀', '\ud800', 'a\tb\nc'),
  )
  const records = fc.array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          eventTypeId: fc.constantFrom('checkout', 'a.b:c', 'bad type', ''),
          trafficTypeName: fc.constantFrom('user', 'account'),
          key: tricky,
          timestamp: fc.oneof(fc.integer({ min: 0, max: 2 ** 42 }), fc.constantFrom('1700000000', '-1', 'x', 1e300)),
          value: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null), fc.constant('1')),
          properties: fc.oneof(fc.dictionary(tricky, fc.oneof(tricky, fc.double(), fc.boolean())), fc.constant(null)),
        }),
      },
      { weight: 1, arbitrary: fc.anything() },
    ),
    { minLength: 1, maxLength: 20 },
  )

  it('gives the rows and rejections processEvent gives, as the same text', async () => {
    let stored = 0
    await fc.assert(
      fc.asyncProperty(records, async (rs) => {
        const out = decode((await encodeEventMessages(rs as object[], meta, sized(1 << 20)))[0]!)
        const want = rs.map((r, index) =>
          processEvent(r, { ...meta, part: 0 }, { topic: 'events', partition: 0, offset: 7n, index }),
        )
        const rows = want.flatMap((o) => (o.ok ? [o.row] : []))
        expect(await sinkText(out.rows.get(EVENTS) ?? [])).toBe(await sinkText(rows))
        expect(out.rejections).toEqual(want.flatMap((o) => (o.ok ? [] : [o.rejection])))
        stored += rows.length
      }),
      { numRuns: 300 },
    )
    expect(stored).toBeGreaterThan(150)
  })

  it('reads a message of the format before (a JSON array, no format header) as the same rows', async () => {
    const rs = [event(1), { eventTypeId: 'checkout' }, event(2, { key: 'tab\there' })]
    const [lines] = await encodeEventMessages(rs, meta, sized(1 << 20))
    const old: OutboundMessage = {
      key: 'req',
      value: Buffer.from(JSON.stringify(rs)),
      headers: { ...originHeaders(meta), [EVENT_HEADERS.part]: '0' },
    }
    const [a, b] = [decode(lines!), decode(old)]
    expect(await sinkText(a.rows.get(EVENTS)!)).toBe(await sinkText(b.rows.get(EVENTS)!))
    // What an edge writes during a rolling upgrade (SLUICE_EVENTS_MESSAGE_FORMAT=json) is that format.
    const [asJson] = await encodeEventMessages(rs, meta, { ...sized(1 << 20), text: JSON.stringify(rs) }, 'json')
    expect(asJson!.headers).toEqual(old.headers)
    expect(asJson!.value.toString()).toBe(old.value.toString())
    expect(a.rows.get(EVENTS)).toHaveLength(2)
    expect(b.rejections).toEqual(a.rejections)
    expect(b.rejections[0]!.reason).toBe('trafficTypeName is required')
  })

  it('refuses whole a message of an unknown format, or lines no edge writes, naming them', async () => {
    const [good] = await encodeEventMessages([event(1)], meta, sized(1 << 20))
    const future = decode({ ...good!, headers: { ...good!.headers, [FORMAT_HEADER]: 'events-lines-9' } })
    expect(future.rows.size).toBe(0)
    expect(future.rejections.map((r) => r.reason)).toEqual(['kafka message is not an event batch written by the edge'])
    // Lines no edge writes: cut short, of no kind, a date where the DateTime's seconds go (ClickHouse would read it as
    // a date: stored where the exactly-once check does not look), seconds past a DateTime, an event type with a tab.
    const columns = (eventType: string, seconds: string) => `E\tuser\t${eventType}\tk\t${seconds}\t1\t1\t\\N\t{}\n`
    const lines = [
      'E\tuser\tcheckout\tk\n',
      '?\tx\n',
      'E\ta\tb\n',
      columns('checkout', '2000-01-01'),
      columns('checkout', '9999999999'),
      columns('a\\tb', '1700000000'),
      columns('checkout', '1700000000'),
    ]
    const forged = decode({ ...good!, value: Buffer.from(lines.join('')) })
    expect(forged.rejections.map((r) => [r.reason, r.source_index])).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => ['line of an event batch is malformed', i]),
    )
    expect(forged.rows.get(EVENTS)!.map((r) => [r.source_index, (r as { timestamp?: number }).timestamp])).toEqual([
      [6, 1700000000],
    ])
    const empty = decode({ ...good!, value: Buffer.alloc(0) })
    expect(empty.rejections.map((r) => r.reason)).toEqual(['kafka message is not an event batch written by the edge'])
  })
})

// The records path of the other SDK topics (impressions): a body's JSON array published as sent.
describe('a body too large for one message, cut between its records as sent', () => {
  // Strings full of what the cut must not be fooled by: brackets, braces, commas, quotes and
  // backslashes inside strings, escapes, multi-byte characters and surrogate pairs.
  const tricky = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom('[', ']', '{', '}', ',', '"', '\\', '\\"', '"]', '\\\\"', 'é', '😀', '\u2028', '\\u0022'),
  )
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      tricky,
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(tricky, tie('value'), { maxKeys: 4 }),
    ),
  }))
  const records = fc.array(fc.dictionary(tricky, value, { minKeys: 1, maxKeys: 4 }), { minLength: 1, maxLength: 60 })
  const spacing = fc.constantFrom(undefined, 1, '\t')

  it('gives the records of the records path, in order, as the text had them, each message within the limit', () => {
    fc.assert(
      fc.property(records, spacing, fc.integer({ min: 64, max: 4096 }), (rs, space, max) => {
        const text = JSON.stringify(rs, null, space)
        const expected = JSON.parse(text) as unknown[]
        let viaRecords: OutboundMessage[] | Error
        try {
          viaRecords = encodeRecordMessages(rs, headers, 'req', { bodyBytes: text.length, maxBytes: max })
        } catch (err) {
          viaRecords = err as Error
        }
        if (viaRecords instanceof Error) {
          // A record too large alone is refused by either path, naming it.
          expect(() =>
            encodeRecordMessages(rs, headers, 'req', { bodyBytes: text.length, maxBytes: max, text: text }),
          ).toThrow(RecordTooLargeError)
          return
        }
        const messages = encodeRecordMessages(rs, headers, 'req', { bodyBytes: text.length, maxBytes: max, text: text })
        for (const m of messages) expect(m.value.length).toBeLessThanOrEqual(max)
        expect(messages.flatMap((m) => JSON.parse(m.value.toString()) as unknown[])).toEqual(expected)
        expect(messages.map((m) => m.headers[EVENT_HEADERS.part])).toEqual(messages.map((_, i) => String(i)))
      }),
      { numRuns: 400 },
    )
  })

  it('cuts the text itself: no record is serialized again (spacing and number spelling kept)', () => {
    const text = `[\n  {"eventTypeId": "a", "value": 1.50, "s": "${'x'.repeat(900)}"},\n  {"eventTypeId": "b", "value": 2e0, "s": "${'y'.repeat(900)}"}\n]`
    const rs = JSON.parse(text) as object[]
    const messages = encodeRecordMessages(rs, headers, 'req', { bodyBytes: text.length, maxBytes: 1500, text: text })
    expect(messages.map((m) => m.value.toString())).toEqual([
      `[\n  {"eventTypeId": "a", "value": 1.50, "s": "${'x'.repeat(900)}"}]`,
      `[\n  {"eventTypeId": "b", "value": 2e0, "s": "${'y'.repeat(900)}"}\n]`,
    ])
  })
})

describe('splitArrayText', () => {
  it('cuts only an array (after a byte order mark and whitespace), and nothing else', () => {
    expect(splitArrayText(Buffer.from('\uFEFF \n[1,2]'), 4)?.map(String)).toEqual(['[1]', '[2]'])
    expect(splitArrayText(Buffer.from('{"a":[1,2]}'), 8)).toBeUndefined()
    expect(splitArrayText(Buffer.from('"[1,2]"'), 4)).toBeUndefined()
    expect(splitArrayText(Buffer.from('[123,4]'), 4)).toBeUndefined()
  })
})
