// On-call shifts against an independent implementation (test/compat/oncall_shifts.py: dateutil's rrule for handoffs and
// restrictions, zoneinfo for the wall clock), shift by shift over a year: rotations of hours, days and weeks, handoffs
// in the hour skipped in spring and the hour repeated in autumn, restrictions by day and overnight, layers, overrides
// across DST changes, in New York, Berlin, Sydney and Kolkata.
// (In the integration project: the stats venv is made by `npm test`, after the unit tests have run.)
import { describe, expect, it } from 'vitest'
import {
  onCallAt,
  scheduleProblems,
  shifts,
  type Layer,
  type ScheduleDefinition,
  type Shift,
} from '../../src/pipeline/oncall/schedules.js'
import { independent, seeded } from '../support/stats.js'

const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Kolkata']
const FROM = Date.UTC(2026, 0, 1)
const TO = Date.UTC(2027, 0, 1)
const iso = (ms: number) => new Date(ms).toISOString()

/** A random schedule of `zone`: 1-3 layers of random rotations, some restricted, and a few overrides. */
function randomSchedule(random: () => number, zone: string): ScheduleDefinition {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const people = ['ana', 'bo', 'chen', 'dee', 'eli', 'fay']
  const layers: Layer[] = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => {
    const unit = pick(['hours', 'days', 'weeks'] as const)
    // Handoffs at times DST changes skip or repeat (02:30, 01:30; 03:00 in Sydney's), and ordinary ones.
    const time = pick(['02:30', '01:30', '03:00', '09:00', '00:00', '17:45'])
    const month = String(1 + Math.floor(random() * 12)).padStart(2, '0')
    const layer: Layer = {
      name: `layer ${i}`,
      start: `2025-${month}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}T${time}`,
      rotation: {
        unit,
        length: unit === 'hours' ? pick([8, 12, 36]) : unit === 'days' ? pick([1, 2, 3]) : pick([1, 2]),
      },
      responders: people.slice(0, 1 + Math.floor(random() * people.length)).map((p) => `${p}${i}`),
      ...(random() < 0.5 && {
        restrictions: pick([
          [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'] as const, from: '09:00', to: '17:00' }],
          [{ days: ['fri', 'sat'] as const, from: '22:00', to: '06:00' }],
          [
            { days: ['sun'] as const, from: '00:00', to: '00:00' },
            { days: ['wed'] as const, from: '01:30', to: '03:30' },
          ],
        ]).map((r) => ({ ...r, days: [...r.days] })),
      }),
      ...(random() < 0.3 && { end: `2026-${pick(['03', '07', '10'])}-${pick(['08', '15', '29'])}T${time}` }),
    }
    return layer
  })
  const overrides = Array.from({ length: Math.floor(random() * 4) }, () => {
    // Overrides around the DST changes of the year (March, April, October, November) and elsewhere.
    const start = Date.UTC(2026, pick([2, 3, 9, 10, 6]), 1 + Math.floor(random() * 28), Math.floor(random() * 24))
    return { responder: pick(['zed', 'yan']), from: iso(start), to: iso(start + (1 + random() * 96) * 3_600_000) }
  })
  return { name: 'random', timeZone: zone, layers, overrides }
}

describe('shifts over a year', () => {
  it.each(ZONES)('in %s: 12 random schedules, shift by shift as dateutil and zoneinfo compute them', (zone) => {
    const random = seeded(ZONES.indexOf(zone) + 50)
    for (let n = 0; n < 12; n++) {
      const schedule = randomSchedule(random, zone)
      expect(scheduleProblems(schedule)).toEqual([])
      const ours = shifts(schedule, FROM, TO)
      const theirs = independent<Shift[]>('test/compat/oncall_shifts.py', { schedule, from: FROM, to: TO })
      expect(ours.length, JSON.stringify(schedule)).toBeGreaterThan(0)
      expect(ours.map((s) => `${iso(s.start)} ${iso(s.end)} ${s.responder}`)).toEqual(
        theirs.map((s) => `${iso(s.start)} ${iso(s.end)} ${s.responder}`),
      )
      // Who is on call at an instant is the shift holding it.
      for (let k = 0; k < 20; k++) {
        const at = FROM + Math.floor(random() * (TO - FROM))
        expect(onCallAt(schedule, at)).toBe(ours.find((s) => s.start <= at && at < s.end)?.responder)
      }
    }
  })

  it('handoffs in the hour skipped and the hour repeated are zoneinfo’s fold 0, whatever the day it runs', () => {
    for (const time of ['01:30', '02:30']) {
      const schedule: ScheduleDefinition = {
        name: 'edges',
        timeZone: 'America/New_York',
        layers: [
          { name: 'l', start: `2026-02-20T${time}`, rotation: { unit: 'days', length: 1 }, responders: ['a', 'b'] },
        ],
      }
      for (const [from, to] of [
        [Date.UTC(2026, 2, 6), Date.UTC(2026, 2, 11)],
        [Date.UTC(2026, 9, 30), Date.UTC(2026, 10, 4)],
      ] as const) {
        const theirs = independent<Shift[]>('test/compat/oncall_shifts.py', { schedule, from, to })
        expect(shifts(schedule, from, to)).toEqual(theirs)
      }
    }
    // 02:30 on 8 March does not exist: the handoff is at 03:30 EDT; 01:30 on 1 November comes twice: the first, EDT.
    const handoffs = (time: string, day: number) =>
      shifts(
        {
          name: 'x',
          timeZone: 'America/New_York',
          layers: [
            { name: 'l', start: `2026-02-20T${time}`, rotation: { unit: 'days', length: 1 }, responders: ['a', 'b'] },
          ],
        },
        day,
        day + 86_400_000,
      ).map((x) => iso(x.start))
    expect(handoffs('02:30', Date.UTC(2026, 2, 8))).toEqual(['2026-03-08T00:00:00.000Z', '2026-03-08T07:30:00.000Z'])
    expect(handoffs('01:30', Date.UTC(2026, 10, 1))).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-01T05:30:00.000Z'])
  })

  it('a daily handoff keeps its wall-clock time across the DST changes (Berlin, 09:00)', () => {
    const schedule: ScheduleDefinition = {
      name: 'berlin',
      timeZone: 'Europe/Berlin',
      layers: [{ name: 'l', start: '2026-03-27T09:00', rotation: { unit: 'days', length: 1 }, responders: ['a', 'b'] }],
    }
    const around = shifts(schedule, Date.UTC(2026, 2, 28), Date.UTC(2026, 2, 31))
    expect(around.map((s) => [iso(s.start), s.responder])).toEqual([
      ['2026-03-28T00:00:00.000Z', 'a'],
      ['2026-03-28T08:00:00.000Z', 'b'], // 09:00 CET
      ['2026-03-29T07:00:00.000Z', 'a'], // 09:00 CEST: the turn that spanned the change was 23 hours
      ['2026-03-30T07:00:00.000Z', 'b'],
    ])
  })
})
