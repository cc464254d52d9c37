// How the console reads figures and times (console/src/format.ts): counts with their noun, axis counts, how long ago,
// and a time never as the API's ISO string.
import { describe, expect, it } from 'vitest'
import { ago, count, plural, when } from '../../../console/src/format.js'

describe("the console's figures and times", () => {
  it('says a count with its noun, singular only for one', () => {
    expect(plural(1, 'event')).toBe('1 event')
    expect(plural(0, 'event')).toBe('0 events')
    expect(plural(3, 'try', 'tries')).toBe('3 tries')
    expect(plural(12_345, 'record')).toBe('12,345 records')
  })

  it('shortens an axis count', () => {
    expect(count(7)).toBe('7')
    expect(count(1200)).toBe('1,200')
    expect(count(15_000)).toBe('15k')
    expect(count(2_500_000)).toBe('2.5M')
    expect(count(0.5)).toBe('0.5')
  })

  it('says how long ago, in words, and a date beyond two days', () => {
    const at = (ms: number) => new Date(Date.now() - ms).toISOString()
    expect(ago(at(1000), 'none')).toBe('1 second ago')
    expect(ago(at(90_000), 'none')).toBe('90 seconds ago')
    expect(ago(at(30 * 60_000), 'none')).toBe('30 minutes ago')
    expect(ago(at(5 * 3_600_000), 'none')).toBe('5 hours ago')
    expect(ago(at(5 * 86_400_000), 'none')).toMatch(/^on \S+/)
    expect(ago(null, 'no event in 90 days')).toBe('no event in 90 days')
  })

  it('shows a time in the reader’s words, never the ISO string, and a dash for no time', () => {
    const iso = '2026-11-29T03:11:30.000Z'
    expect(when(iso)).not.toContain('T03')
    expect(when(iso)).toMatch(/2026/)
    expect(when(Date.parse(iso))).toBe(when(iso))
    expect(when('not a time')).toBe('–')
  })
})
