import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EVENT_HEADERS, encodeEventMessages } from '../../../../src/broker/messages/events.js'
import { RecordTooLargeError, splitArrayText } from '../../../../src/broker/messages/records.js'
import type { OutboundMessage } from '../../../../src/broker/ports.js'

const meta = { environmentId: 'env', accountId: 'acc', receivedAtMs: 123, sdkVersion: 'v', requestId: 'req' }

describe('encodeEventMessages', () => {
  it('keeps every record, in order, in messages no larger than the limit', () => {
    const records = Array.from({ length: 5000 }, (_, i) => ({ i, pad: 'x'.repeat(i % 700) }))
    const body = JSON.stringify(records)
    const max = 64 * 1024
    const messages = encodeEventMessages(records, meta, { bodyBytes: body.length, maxBytes: max })
    expect(messages.length).toBeGreaterThan(body.length / max)
    for (const m of messages) expect(m.value.length).toBeLessThanOrEqual(max)
    expect(messages.flatMap((m) => JSON.parse(m.value.toString()) as unknown[])).toEqual(records)
    expect(messages[0]!.headers).toEqual({
      [EVENT_HEADERS.environment]: 'env',
      [EVENT_HEADERS.account]: 'acc',
      [EVENT_HEADERS.receivedAt]: '123',
      [EVENT_HEADERS.sdkVersion]: 'v',
      [EVENT_HEADERS.requestId]: 'req',
      [EVENT_HEADERS.part]: '0',
    })
    // Each message's identity is (request id, part); all go to the request's partition, in order.
    expect(messages.map((m) => m.headers[EVENT_HEADERS.part])).toEqual(messages.map((_, i) => String(i)))
    expect(new Set(messages.map((m) => m.key))).toEqual(new Set(['req']))
    expect(messages.every((m) => m.ordered)).toBe(true)
  })

  it('splits further when the body length underestimates the records', () => {
    const records = Array.from({ length: 100 }, () => ({ s: 'é'.repeat(1000) }))
    const messages = encodeEventMessages(records, meta, { bodyBytes: 10, maxBytes: 20_000 })
    for (const m of messages) expect(m.value.length).toBeLessThanOrEqual(20_000)
    expect(messages.flatMap((m) => JSON.parse(m.value.toString()) as unknown[])).toHaveLength(100)
  })

  it('names a single record larger than a message', () => {
    const records = [{ a: 1 }, { b: 'x'.repeat(50_000) }]
    expect(() => encodeEventMessages(records, meta, { bodyBytes: 50_020, maxBytes: 20_000 })).toThrow(
      RecordTooLargeError,
    )
    expect(() => encodeEventMessages(records, meta, { bodyBytes: 50_020, maxBytes: 20_000 })).toThrow(
      /record 1 is 500\d\d bytes/,
    )
  })

  it('publishes the body as sent when it fits one message, and splits the records when it does not', () => {
    const records = [
      { eventTypeId: 'a', key: 'k1' },
      { eventTypeId: 'b', key: 'k2' },
    ]
    const text = ' [ {"eventTypeId":"a","key":"k1"} , {"eventTypeId":"b","key":"k2"} ] '
    const [one, ...rest] = encodeEventMessages(records, meta, { bodyBytes: text.length, maxBytes: 20_000, text: text })
    expect(rest).toEqual([])
    expect(one!.value.toString()).toBe(text)
    expect(one!.headers[EVENT_HEADERS.part]).toBe('0')
    const big = Array.from({ length: 100 }, (_, i) => ({ s: `${i}`.repeat(400) }))
    const split = encodeEventMessages(big, meta, { bodyBytes: 50_000, maxBytes: 20_000, text: JSON.stringify(big) })
    expect(split.length).toBeGreaterThan(1)
    expect(split.flatMap((m) => JSON.parse(m.value.toString()) as unknown[])).toEqual(big)
  })
})

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
          viaRecords = encodeEventMessages(rs, meta, { bodyBytes: text.length, maxBytes: max })
        } catch (err) {
          viaRecords = err as Error
        }
        if (viaRecords instanceof Error) {
          // A record too large alone is refused by either path, naming it.
          expect(() => encodeEventMessages(rs, meta, { bodyBytes: text.length, maxBytes: max, text: text })).toThrow(
            RecordTooLargeError,
          )
          return
        }
        const messages = encodeEventMessages(rs, meta, { bodyBytes: text.length, maxBytes: max, text: text })
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
    const messages = encodeEventMessages(rs, meta, { bodyBytes: text.length, maxBytes: 1500, text: text })
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
