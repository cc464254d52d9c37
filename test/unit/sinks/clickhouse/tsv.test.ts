import { text } from 'node:stream/consumers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { processEvent } from '../../../../src/pipeline/events.js'
import { rejectionRow } from '../../../../src/pipeline/rows.js'
import { EVENT_REJECTIONS, EVENTS } from '../../../../src/sinks/clickhouse/tables.js'
import { tsvStream } from '../../../../src/sinks/clickhouse/tsv.js'
import { tsvDateTime, tsvField } from '../../../../src/shared/tsv.js'

describe('tsvField', () => {
  it('escapes what TabSeparated gives a meaning to, and nothing else', () => {
    expect(tsvField('plain "quoted" \'single\' é 😀')).toBe('plain "quoted" \'single\' é 😀')
    expect(tsvField('a\tb\nc\rd\\e\0f')).toBe('a\\tb\\nc\\rd\\\\e\\0f')
    expect(tsvField('\\N')).toBe('\\\\N')
    expect(tsvField(null)).toBe('\\N')
    expect(tsvField('')).toBe('')
    expect(tsvField(1.5)).toBe('1.5')
    expect(tsvField(1e300)).toBe('1e+300')
  })
})

describe('tsvDateTime', () => {
  it('gives epoch seconds ten digits (ClickHouse reads 1234 followed by a tab as a year)', () => {
    expect([0, 1234, 1_700_000_000, 4_294_967_295].map(tsvDateTime)).toEqual([
      '0000000000',
      '0000001234',
      '1700000000',
      '4294967295',
    ])
  })
})

describe('tsvStream', () => {
  it('gives one line per row, the columns in the order asked, across chunks', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => ({ b: `x\t${i}`, a: i, c: null }))
    const lines = (await text(tsvStream(rows, ['a', 'b', 'c'], ['a']))).split('\n')
    expect(lines).toHaveLength(2501)
    expect(lines[0]).toBe('0000000000\tx\\t0\t\\N')
    expect(lines[2499]).toBe('0000002499\tx\\t2499\t\\N')
    expect(lines[2500]).toBe('')
  })
})

describe('tsvStream with shared leading columns', () => {
  // The origin columns of a message's rows are encoded once per run of equal values: the text must be
  // what encoding every field of every row gives, whatever the rows repeat or not, escapes included.
  const field = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('\\', '\t', '\n', '\r', '\0', '\\N', 'a\tb'),
    fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    fc.constant(null),
  )
  const origin = fc.record({ a: field, b: field, t: fc.integer({ min: 0, max: 2 ** 32 - 1 }) })
  const rows = fc
    .tuple(
      fc.array(origin, { minLength: 1, maxLength: 4 }),
      fc.array(fc.tuple(fc.nat(), field, field), { maxLength: 2500 }),
    )
    .map(([origins, own]) => own.map(([o, x, y], i) => ({ ...origins[o % origins.length]!, i, x, y })))
  it('gives the text of encoding every field', async () => {
    await fc.assert(
      fc.asyncProperty(rows, fc.integer({ min: 0, max: 6 }), async (rs, shared) => {
        const columns = ['a', 'b', 't', 'i', 'x', 'y'] as const
        expect(await text(tsvStream(rs, columns, ['t'], shared))).toBe(await text(tsvStream(rs, columns, ['t'])))
      }),
      { numRuns: 150 },
    )
  })
})

describe('the columns sent', () => {
  const meta = { environmentId: 'e', accountId: 'a', receivedAtMs: 1, sdkVersion: 's', requestId: 'r' }
  const source = { topic: 't', partition: 0, offset: 0n, index: 0 }
  it('are every field of an event row and of a rejection row', () => {
    const outcome = processEvent(
      {
        eventTypeId: 'click',
        trafficTypeName: 'user',
        key: 'k',
        timestamp: 1_700_000_000_000,
        value: 1,
        properties: { a: 1 },
      },
      meta,
      source,
    )
    expect(outcome.ok).toBe(true)
    if (outcome.ok) expect([...EVENTS.columns].sort()).toEqual(Object.keys(outcome.row).sort())
    expect([...EVENT_REJECTIONS.columns].sort()).toEqual(Object.keys(rejectionRow('r', {}, meta, source)).sort())
  })
})
