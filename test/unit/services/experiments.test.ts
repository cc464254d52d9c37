// The results request's own rules that need no engine: times as the API reads them.
import { describe, expect, it } from 'vitest'
import { parseTime } from '../../../src/services/experiments.js'
import { Refusal } from '../../../src/shared/errors.js'

describe('parseTime', () => {
  it('refuses dates the calendar does not have, instead of rolling them into the next month', () => {
    for (const text of [
      '2026-02-30',
      '2026-04-31',
      '2026-02-29T12:00:00Z',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-01-01T24:00:00Z',
      '2026-01-01T12:60Z',
      '2026-01-01T12:00:60Z',
      '2026-01-01T12:00:00+25:00',
    ]) {
      const error = (() => {
        try {
          parseTime('from', text)
        } catch (e) {
          return e
        }
      })()
      expect(error, text).toBeInstanceOf(Refusal)
      expect((error as Refusal).details, text).toEqual([expect.objectContaining({ field: 'from' })])
    }
  })
  it('reads real dates, leap days, offsets, fractions and epoch milliseconds', () => {
    expect(parseTime('to', '2028-02-29T12:00:00Z')).toBe(Date.UTC(2028, 1, 29, 12))
    expect(parseTime('to', '2026-03-01')).toBe(Date.UTC(2026, 2, 1))
    expect(parseTime('to', '2026-12-31T23:59:59Z')).toBe(Date.UTC(2026, 11, 31, 23, 59, 59))
    expect(parseTime('to', '2026-03-01T10:00+02:00')).toBe(Date.UTC(2026, 2, 1, 8))
    expect(parseTime('to', '2026-03-01T10:00:00.123Z')).toBe(Date.UTC(2026, 2, 1, 10, 0, 0, 123))
    expect(parseTime('to', '1764000000000')).toBe(1764000000000)
  })
})
