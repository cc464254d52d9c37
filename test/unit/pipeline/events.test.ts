import { describe, expect, it } from 'vitest'
import { normalizeTimestamp, processEvent } from '../../../src/pipeline/events.js'
import { MAX_RAW_CHARS, MAX_TIMESTAMP_MS, ORIGIN_COLUMNS, rowOrigin } from '../../../src/pipeline/rows.js'

const meta = {
  environmentId: 'env',
  accountId: 'acc',
  receivedAtMs: 1_700_000_000_999,
  sdkVersion: 'nodejs-10',
  requestId: 'req',
}
const source = { topic: 'events', partition: 2, offset: 41n, index: 3 }
const base = { eventTypeId: 'checkout', trafficTypeName: 'user', key: 'u1', timestamp: 1_700_000_000_000 }

describe('normalizeTimestamp', () => {
  it.each([
    [1_700_000_000_000, 1_700_000_000_000, '1700000000000'],
    [1_700_000_000, 1_700_000_000_000, '1700000000'],
    ['1645557823', 1_645_557_823_000, '1645557823'],
    ['1645557823.5', 1_645_557_823_500, '1645557823.5'],
    ['1645557823456.9', 1_645_557_823_456, '1645557823456.9'],
    [4_000_000_000, 4_000_000_000_000, '4000000000'],
    [100_000_000_000, 100_000_000_000, '100000000000'],
    [0, 0, '0'],
  ])('%s → %s ms', (input, ms, raw) => {
    expect(normalizeTimestamp(input)).toEqual({ ok: true, ms, raw })
  })

  it('refuses what a DateTime cannot hold', () => {
    expect(normalizeTimestamp(99_999_999_999)).toMatchObject({ ok: false, reason: expect.stringMatching(/after 2106/) })
    expect(normalizeTimestamp(MAX_TIMESTAMP_MS + 1)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/after 2106/),
    })
    expect(normalizeTimestamp(Infinity)).toMatchObject({ ok: false })
    expect(normalizeTimestamp(-1)).toMatchObject({ ok: false })
  })
})

describe('processEvent', () => {
  it('builds a row with source position and JSON properties', () => {
    const out = processEvent(
      { ...base, value: 2.5, properties: { a: 'x', b: 1, c: true, d: null }, extra: 'ignored' },
      meta,
      source,
    )
    expect(out).toEqual({
      ok: true,
      row: expect.objectContaining({
        environment_id: 'env',
        account_id: 'acc',
        event_type: 'checkout',
        traffic_type: 'user',
        key: 'u1',
        timestamp: 1_700_000_000,
        timestamp_ms: 1_700_000_000_000,
        value: 2.5,
        properties: '{"a":"x","b":1,"c":true,"d":null}',
        received_at: 1_700_000_000,
        received_at_ms: 1_700_000_000_999,
        source_topic: 'events',
        source_partition: 2,
        source_offset: '41',
        source_index: 3,
      }),
    })
  })

  it('accepts what the JS SDK sends: properties null, value absent or null', () => {
    expect(processEvent({ ...base, properties: null }, meta, source).ok).toBe(true)
    expect(processEvent({ ...base, value: null }, meta, source).ok).toBe(true)
  })

  it.each([
    [{ ...base, eventTypeId: undefined }, 'eventTypeId is required'],
    [{ ...base, trafficTypeName: undefined }, 'trafficTypeName is required'],
    [{ ...base, key: undefined }, 'key is required'],
    [{ ...base, timestamp: undefined }, 'timestamp is required'],
    [{ ...base, eventTypeId: '-starts-with-dash' }, /^eventTypeId must be/],
    [{ ...base, eventTypeId: 'x'.repeat(81) }, /^eventTypeId must be/],
    [{ ...base, key: 'k'.repeat(251) }, /^key must be a string of 1 to 250/],
    [{ ...base, key: 7 }, /^key must be/],
    [{ ...base, timestamp: true }, /^timestamp must be/],
    [{ ...base, timestamp: '1e12' }, /^timestamp must be/],
    [{ ...base, timestamp: -5 }, /^timestamp must be/],
    [{ ...base, value: '3' }, 'value must be a number or null'],
    [{ ...base, properties: [] }, 'properties must be an object or null'],
    [{ ...base, properties: { a: [1] } }, /^properties\.a must be a string/],
    [
      { ...base, properties: Object.fromEntries(Array.from({ length: 301 }, (_, i) => [`p${i}`, i])) },
      'properties must have at most 300 entries',
    ],
    [{ ...base, value: Infinity }, 'value must be a number or null'],
    [{ ...base, properties: { big: -Infinity } }, /^properties\.big must be/],
    ['a string', 'record must be a JSON object'],
    // Well-formed Unicode: ClickHouse refused a whole insert for a lone high surrogate, and stored a low one as invalid
    // UTF-8.
    [{ ...base, key: 'a\ud800b' }, 'key contains a lone UTF-16 surrogate (malformed Unicode)'],
    [{ ...base, key: 'a\udc00' }, 'key contains a lone UTF-16 surrogate (malformed Unicode)'],
    [
      { ...base, properties: { plan: '\udbff' } },
      'properties.plan contains a lone UTF-16 surrogate (malformed Unicode)',
    ],
    [
      { ...base, properties: { ['p\ud800']: 1 } },
      'properties name "p\ufffd" contains a lone UTF-16 surrogate (malformed Unicode)',
    ],
  ])('rejects %j with a reason naming the field', (record, reason) => {
    const out = processEvent(record, meta, source)
    expect(out.ok).toBe(false)
    if (!out.ok) {
      expect(out.rejection.reason).toMatch(reason)
      expect(out.rejection).toMatchObject({ environment_id: 'env', source_offset: '41', source_index: 3 })
    }
  })
})

describe('records that once broke the consumer', () => {
  it('keeps a well-formed surrogate pair', () => {
    expect(processEvent({ ...base, key: 'user-😀', properties: { mood: '\ud83d\ude00' } }, meta, source).ok).toBe(true)
  })

  it('turns a record nested 100,000 levels deep into a rejection without throwing', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const out = processEvent({ ...base, properties: { deep } }, meta, source)
    expect(out.ok).toBe(false)
    if (!out.ok) {
      expect(out.rejection.reason).toMatch(/^properties\.deep must be a string/)
      expect(out.rejection.raw).toBe('[value nests deeper than 64 levels; not kept]')
    }
  })

  it('keeps the raw copy of a rejection bounded and well-formed', () => {
    const out = processEvent({ ...base, key: 'k\ud800', properties: { long: 'x'.repeat(400_000) } }, meta, source)
    expect(out.ok).toBe(false)
    if (!out.ok) {
      expect(out.rejection.raw.length).toBe(MAX_RAW_CHARS)
      expect(out.rejection.raw.isWellFormed()).toBe(true)
    }
  })
})

describe('an event row', () => {
  it('has the origin columns rowOrigin gives (its own columns set on the object rowOrigin makes)', () => {
    for (const [m, source] of [
      [
        { ...meta, receivedAtMs: 1_700_000_000_999, part: 3 },
        { topic: 'events', partition: 2, offset: 2n ** 63n - 1n, index: 499 },
      ],
      [meta, { topic: 't', partition: 0, offset: 0n, index: 0 }],
    ] as const) {
      const outcome = processEvent(
        { eventTypeId: 'click', trafficTypeName: 'user', key: 'k', timestamp: 1_700_000_000_000 },
        m,
        source,
      )
      expect(outcome.ok).toBe(true)
      if (outcome.ok)
        expect(Object.fromEntries(ORIGIN_COLUMNS.map((c) => [c, outcome.row[c]]))).toEqual(rowOrigin(m, source))
    }
  })
})
