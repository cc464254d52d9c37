import { describe, expect, it } from 'vitest'
import { EVENT_HEADERS, encodeEventMessages } from '../../../../src/broker/messages/events.js'
import { RecordTooLargeError } from '../../../../src/broker/messages/records.js'

const meta = { environmentId: 'env', accountId: 'acc', receivedAtMs: 123, sdkVersion: 'v', requestId: 'req' }

describe('encodeEventMessages', () => {
  it('keeps every record, in order, in messages no larger than the limit', () => {
    const records = Array.from({ length: 5000 }, (_, i) => ({ i, pad: 'x'.repeat(i % 700) }))
    const body = JSON.stringify(records)
    const max = 64 * 1024
    const messages = encodeEventMessages(records, body.length, meta, max)
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
    const messages = encodeEventMessages(records, 10, meta, 20_000)
    for (const m of messages) expect(m.value.length).toBeLessThanOrEqual(20_000)
    expect(messages.flatMap((m) => JSON.parse(m.value.toString()) as unknown[])).toHaveLength(100)
  })

  it('names a single record larger than a message', () => {
    const records = [{ a: 1 }, { b: 'x'.repeat(50_000) }]
    expect(() => encodeEventMessages(records, 50_020, meta, 20_000)).toThrow(RecordTooLargeError)
    expect(() => encodeEventMessages(records, 50_020, meta, 20_000)).toThrow(/record 1 is 500\d\d bytes/)
  })

  it('publishes the body as sent when it fits one message, and splits the records when it does not', () => {
    const records = [
      { eventTypeId: 'a', key: 'k1' },
      { eventTypeId: 'b', key: 'k2' },
    ]
    const text = ' [ {"eventTypeId":"a","key":"k1"} , {"eventTypeId":"b","key":"k2"} ] '
    const [one, ...rest] = encodeEventMessages(records, text.length, meta, 20_000, text)
    expect(rest).toEqual([])
    expect(one!.value.toString()).toBe(text)
    expect(one!.headers[EVENT_HEADERS.part]).toBe('0')
    const big = Array.from({ length: 100 }, (_, i) => ({ s: `${i}`.repeat(400) }))
    const split = encodeEventMessages(big, 50_000, meta, 20_000, JSON.stringify(big))
    expect(split.length).toBeGreaterThan(1)
    expect(split.flatMap((m) => JSON.parse(m.value.toString()) as unknown[])).toEqual(big)
  })
})
