// Maintenance windows on a fake clock: one-off and weekly windows across DST changes, with the
// expected instants worked out by hand from each zone's offsets (America/New_York: EST -05:00, EDT
// -04:00 from 2026-03-08 02:00 local to 2026-11-01 02:00 local; Europe/Berlin: CET +01:00, CEST
// +02:00 from 2026-03-29 02:00 local to 2026-10-25 03:00 local).
import fc from 'fast-check'
import { IANAZone } from 'luxon'
import { describe, expect, it, vi } from 'vitest'
import { WorkBudget } from '../../../../src/shared/budget.js'
import { luxonOccurrences } from '../../../support/luxon-windows.js'
import {
  activeAt,
  checkWindow,
  HOLD_HORIZON_MS,
  occurrences,
  suppressingWindow,
  WEEKDAYS,
  type WindowSchedule,
} from '../../../../src/pipeline/alerts/windows.js'

const at = (iso: string) => Date.parse(iso)
const weekly = (timeZone: string, days: string[], start: string, end: string) =>
  ({ kind: 'weekly', timeZone, days, start, end }) as WindowSchedule

describe('weekly windows keep their local hours across DST', () => {
  const ny = weekly('America/New_York', ['sun'], '00:00', '04:00')

  it('New York, Sunday 00:00 to 04:00: the week before, of, and after DST begins', () => {
    expect(occurrences(ny, at('2026-03-01T00:00Z'), at('2026-03-02T00:00Z'))).toEqual([
      { start: at('2026-03-01T05:00Z'), end: at('2026-03-01T09:00Z') },
    ])
    // 2026-03-08: 02:00 EST jumps to 03:00 EDT; the window is three hours long that night.
    expect(occurrences(ny, at('2026-03-08T00:00Z'), at('2026-03-09T00:00Z'))).toEqual([
      { start: at('2026-03-08T05:00Z'), end: at('2026-03-08T08:00Z') },
    ])
    expect(occurrences(ny, at('2026-03-15T00:00Z'), at('2026-03-16T00:00Z'))).toEqual([
      { start: at('2026-03-15T04:00Z'), end: at('2026-03-15T08:00Z') },
    ])
    expect(activeAt(ny, at('2026-03-08T07:59:59Z'))).toBeDefined()
    expect(activeAt(ny, at('2026-03-08T08:00:00Z'))).toBeUndefined()
    expect(activeAt(ny, at('2026-03-08T04:59:59Z'))).toBeUndefined()
  })

  it('New York, a start in the skipped hour moves forward by it; in the repeated hour it is the first', () => {
    expect(activeAt(weekly('America/New_York', ['sun'], '02:30', '05:00'), at('2026-03-08T07:29Z'))).toBeUndefined()
    expect(activeAt(weekly('America/New_York', ['sun'], '02:30', '05:00'), at('2026-03-08T07:30Z'))).toEqual({
      start: at('2026-03-08T07:30Z'),
      end: at('2026-03-08T09:00Z'),
    })
    // 2026-11-01: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    expect(activeAt(weekly('America/New_York', ['sun'], '01:30', '03:00'), at('2026-11-01T05:30Z'))).toEqual({
      start: at('2026-11-01T05:30Z'),
      end: at('2026-11-01T08:00Z'),
    })
  })

  it('Berlin, Saturday 22:00 to 06:00 over the night DST ends: nine hours, ending at 06:00 CET', () => {
    const berlin = weekly('Europe/Berlin', ['sat'], '22:00', '06:00')
    const on = activeAt(berlin, at('2026-10-25T04:59Z'))
    expect(on).toEqual({ start: at('2026-10-24T20:00Z'), end: at('2026-10-25T05:00Z') })
    expect(activeAt(berlin, at('2026-10-25T05:00Z'))).toBeUndefined()
    // The Saturday DST begins: 22:00 CET to 06:00 CEST is seven hours.
    expect(activeAt(berlin, at('2026-03-28T21:00Z'))).toEqual({
      start: at('2026-03-28T21:00Z'),
      end: at('2026-03-29T04:00Z'),
    })
  })

  it('only on its days; several days; across a month', () => {
    const weekdays = weekly('Europe/Berlin', ['mon', 'tue', 'wed', 'thu', 'fri'], '12:00', '13:00')
    // 2026-11-28 is a Saturday, 2026-11-30 a Monday.
    expect(activeAt(weekdays, at('2026-11-28T11:30Z'))).toBeUndefined()
    expect(activeAt(weekdays, at('2026-11-30T11:30Z'))).toBeDefined()
    expect(occurrences(weekdays, at('2026-11-01T00:00Z'), at('2026-12-01T00:00Z'))).toHaveLength(21)
  })
})

describe('one-off windows', () => {
  it('run from `from` to `to`, whatever the offsets written', () => {
    const once = { kind: 'once', from: '2026-12-01T22:00:00+01:00', to: '2026-12-02T01:00:00Z' } as const
    expect(activeAt(once, at('2026-12-01T20:59:59Z'))).toBeUndefined()
    expect(activeAt(once, at('2026-12-01T21:00:00Z'))).toEqual({
      start: at('2026-12-01T21:00Z'),
      end: at('2026-12-02T01:00Z'),
    })
    expect(activeAt(once, at('2026-12-02T01:00:00Z'))).toBeUndefined()
  })
})

describe('suppressingWindow', () => {
  it('finds the first window running and matching the alert, with the end of its occurrence', () => {
    const w = (id: string, when?: unknown) => {
      const checked = checkWindow(
        {
          id,
          name: id,
          ...(when ? { when } : {}),
          schedule: { kind: 'once', from: '2026-12-01T00:00:00Z', to: '2026-12-01T02:00:00Z' },
        },
        'w',
      )
      if (!checked.ok) throw new Error(JSON.stringify(checked.problems))
      return checked.window
    }
    const windows = [w('db-only', { field: 'service', equals: 'db' }), w('all')]
    const subject = (service: string) => ({ alert: { service } })
    expect(suppressingWindow(windows, subject('db'), at('2026-12-01T01:00Z'), new WorkBudget())).toEqual({
      id: 'db-only',
      until: at('2026-12-01T02:00Z'),
    })
    expect(suppressingWindow(windows, subject('api'), at('2026-12-01T01:00Z'), new WorkBudget())).toEqual({
      id: 'all',
      until: at('2026-12-01T02:00Z'),
    })
    expect(suppressingWindow(windows, subject('api'), at('2026-12-01T02:00Z'), new WorkBudget())).toBeUndefined()
  })
})

describe('a hold lasts as long as the cover', () => {
  const compiled = (id: string, schedule: unknown, when?: unknown) => {
    const checked = checkWindow({ id, name: id, schedule, ...(when ? { when } : {}) }, 'w')
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems))
    return checked.window
  }
  it('a weekend of Saturday and Sunday, all day, holds an alert of Saturday until Monday 00:00', () => {
    const weekend = compiled('weekend', {
      kind: 'weekly',
      timeZone: 'Europe/Berlin',
      days: ['sat', 'sun'],
      start: '00:00',
      end: '00:00',
    })
    // Saturday 2026-11-28 10:00 in Berlin (UTC+1); Monday 00:00 is 2026-11-29T23:00Z.
    expect(suppressingWindow([weekend], { alert: {} }, at('2026-11-28T09:00Z'), new WorkBudget())).toEqual({
      id: 'weekend',
      until: at('2026-11-29T23:00Z'),
    })
  })
  it('overlapping windows hold until the last of them ends, and only those matching the alert count', () => {
    const deploy = compiled('deploy', { kind: 'once', from: '2026-12-01T22:00:00Z', to: '2026-12-01T23:00:00Z' })
    const night = compiled(
      'night',
      { kind: 'once', from: '2026-12-01T22:30:00Z', to: '2026-12-02T06:00:00Z' },
      { field: 'service', equals: 'db' },
    )
    const windows = [deploy, night]
    expect(suppressingWindow(windows, { alert: { service: 'db' } }, at('2026-12-01T22:10Z'), new WorkBudget())).toEqual(
      {
        id: 'deploy',
        until: at('2026-12-02T06:00Z'),
      },
    )
    expect(
      suppressingWindow(windows, { alert: { service: 'api' } }, at('2026-12-01T22:10Z'), new WorkBudget()),
    ).toEqual({
      id: 'deploy',
      until: at('2026-12-01T23:00Z'),
    })
  })
  it('a window that never ends holds for the horizon, not for ever', () => {
    const always = compiled('always', {
      kind: 'weekly',
      timeZone: 'UTC',
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      start: '00:00',
      end: '00:00',
    })
    const t = at('2026-12-01T12:00Z')
    const windows = [always]
    expect(suppressingWindow(windows, { alert: {} }, t, new WorkBudget())).toEqual({
      id: 'always',
      until: t + HOLD_HORIZON_MS,
    })
    // A later alert holds for its own horizon, not the earlier one's (found by the property below in CI).
    for (const later of [t + 1, t + 86_400_000, t + 40 * 86_400_000])
      expect(suppressingWindow(windows, { alert: {} }, later, new WorkBudget())).toEqual({
        id: 'always',
        until: later + HOLD_HORIZON_MS,
      })
  })
})

describe('suppressingWindow remembers an answer for the span it holds', () => {
  it('answers as activeAt does at each time of any sequence (forward, backward, across DST), for weekly windows', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu']
    const time = fc
      .integer({ min: 0, max: 23 })
      .chain((h) =>
        fc.constantFrom(0, 15, 30, 45).map((m) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
      )
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.subarray(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], { minLength: 1 }),
        time,
        time,
        // Around the autumn changes of 2026 (Berlin and New York) and the spring one of the south.
        fc.array(fc.integer({ min: at('2026-03-25T00:00Z'), max: at('2026-04-10T00:00Z') }), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.array(fc.integer({ min: at('2026-10-20T00:00Z'), max: at('2026-11-05T00:00Z') }), { maxLength: 60 }),
        (zone, days, start, end, spring, autumn) => {
          const checked = checkWindow(
            { id: 'w', name: 'w', schedule: { kind: 'weekly', timeZone: zone, days, start, end } },
            'w',
          )
          if (!checked.ok) throw new Error(JSON.stringify(checked.problems))
          const windows = [checked.window]
          const schedule = checked.window.window.schedule
          for (const t of [...spring, ...autumn]) {
            const on = activeAt(schedule, t)
            // Held until the stretch of back-to-back occurrences ends (walked here one by one, without the caches).
            let until = on?.end
            for (let next = until && activeAt(schedule, until); next && until! < t + HOLD_HORIZON_MS;)
              next = activeAt(schedule, (until = next.end))
            const got = suppressingWindow(windows, { alert: {} }, t, new WorkBudget())
            expect(got, `${zone} ${days.join()} ${start}-${end} at ${new Date(t).toISOString()}`).toEqual(
              on ? { id: 'w', until: Math.min(until!, t + HOLD_HORIZON_MS) } : undefined,
            )
          }
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe("occurrences are luxon's to the millisecond (zone tables instead of a zone lookup per call)", () => {
  // Zones with every kind of change: an hour, half an hour (Lord Howe), at midnight (Havana, Asunción), twice within a
  // month (Casablanca's Ramadan), southern summers, a zone without DST, and changes of the base offset.
  const zones = [
    'Europe/Berlin',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'America/Havana',
    'America/Asuncion',
    'Africa/Casablanca',
    'America/Santiago',
    'Pacific/Chatham',
    'Asia/Tehran',
    'America/Nuuk',
    'Europe/London',
    'Pacific/Apia',
    'UTC',
  ]
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`)

  it('for any zone, days, hours and span from 2010 to 2035', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.subarray([...WEEKDAYS], { minLength: 1 }),
        time,
        time,
        fc.integer({ min: at('2010-01-01T00:00Z'), max: at('2035-01-01T00:00Z') }),
        fc.integer({ min: 1, max: 60 * 86_400_000 }),
        (zone, days, start, end, from, span) => {
          const schedule = { kind: 'weekly', timeZone: zone, days, start, end } as const
          expect(occurrences(schedule, from, from + span), `${zone} ${days.join()} ${start}-${end} ${from}`).toEqual(
            luxonOccurrences(schedule, from, from + span),
          )
        },
      ),
      { numRuns: 400 },
    )
  })

  it('on the days of every change of 2026, at every half hour', () => {
    for (const zone of zones) {
      const z = IANAZone.create(zone)
      // The changes of the year, found hour by hour.
      const changes: number[] = []
      for (let t = at('2026-01-01T00:00Z'); t < at('2027-01-01T00:00Z'); t += 3_600_000)
        if (z.offset(t) !== z.offset(t + 3_600_000)) changes.push(t)
      for (const change of changes)
        for (let q = 0; q < 48; q++) {
          const hhmm = `${String(Math.floor(q / 2)).padStart(2, '0')}:${q % 2 ? '30' : '00'}`
          for (const end of ['00:00', hhmm]) {
            const schedule = { kind: 'weekly', timeZone: zone, days: [...WEEKDAYS], start: hhmm, end } as const
            const from = change - 2 * 86_400_000
            expect(occurrences(schedule, from, from + 4 * 86_400_000), `${zone} ${hhmm}-${end}`).toEqual(
              luxonOccurrences(schedule, from, from + 4 * 86_400_000),
            )
          }
        }
    }
  })
})

describe('200 back-to-back weekly windows', () => {
  // The review's case: 200 weekly windows, each a slice of the week in its own zone, together covering it without a
  // gap, so that the stretch of cover never ends: the walk of occurrences it used to take cost minutes per alert.
  const list = Array.from({ length: 200 }, (_, i) => {
    const zone = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney', 'UTC'][i % 5]!
    const checked = checkWindow(
      {
        id: `w${i}`,
        name: `w${i}`,
        when: { field: 'service', matches: `^svc-${i % 7}|.` },
        schedule: { kind: 'weekly', timeZone: zone, days: [...WEEKDAYS], start: '00:00', end: '00:00' },
      },
      `windows.${i}`,
    )
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems))
    return checked.window
  })

  it('hold an alert for the horizon, and each later alert is a lookup: no zone is read again', () => {
    const t0 = at('2026-10-20T12:00Z')
    expect(suppressingWindow(list, { alert: { service: 'svc-1' } }, t0, new WorkBudget())).toEqual({
      id: 'w0',
      until: t0 + HOLD_HORIZON_MS,
    })
    const reads = vi.spyOn(IANAZone.prototype, 'offset')
    try {
      // Alerts over the next three weeks (across Berlin's and New York's autumn changes), each its own budget.
      for (let k = 1; k <= 500; k++) {
        const t = t0 + k * 3_600_000
        const budget = new WorkBudget({ maxSteps: 1_000_000, maxCpuMs: 1000 })
        expect(suppressingWindow(list, { alert: { service: `svc-${k % 7}` } }, t, budget)).toEqual({
          id: 'w0',
          until: t + HOLD_HORIZON_MS,
        })
      }
      expect(reads).not.toHaveBeenCalled()
    } finally {
      reads.mockRestore()
    }
  })

  it('run their conditions within the budget: past it, BUDGET_EXCEEDED', () => {
    const budget = new WorkBudget({ maxSteps: 100, maxCpuMs: 1000 }, 'the windows')
    expect(() => suppressingWindow(list, { alert: { service: 'svc-1' } }, at('2026-10-20T12:00Z'), budget)).toThrow(
      /the windows takes more than 100 steps/,
    )
  })
})

describe('checkWindow', () => {
  const problems = (raw: unknown) => {
    const checked = checkWindow(raw, 'window')
    return checked.ok ? [] : checked.problems.map((p) => p.field)
  }
  it('names each bad field', () => {
    expect(
      problems({
        name: 'x',
        schedule: { kind: 'weekly', timeZone: 'Mars/Olympus', days: ['sun', 'sun'], start: '24:00', end: '1:00' },
      }),
    ).toEqual(['window.schedule.timeZone', 'window.schedule.days', 'window.schedule.start', 'window.schedule.end'])
    expect(
      problems({ name: 'x', schedule: { kind: 'once', from: '2026-12-01T10:00:00', to: '2026-12-01T09:00:00Z' } }),
    ).toEqual(['window.schedule.from'])
    expect(
      problems({ name: 'x', schedule: { kind: 'once', from: '2026-12-01T10:00:00Z', to: '2026-12-01T09:00:00Z' } }),
    ).toEqual(['window.schedule.to'])
    expect(problems({ name: '', schedule: { kind: 'hourly' }, colour: 1 })).toEqual([
      'window.colour',
      'window.name',
      'window.schedule',
    ])
    expect(
      problems({
        name: 'x',
        when: { field: 'severity', equals: 'p9' },
        schedule: { kind: 'once', from: '2026-12-01T10:00:00Z', to: '2026-12-01T11:00:00Z' },
      }),
    ).toEqual(['window.when'])
  })

  it('refuses offsets no clock shows, and takes those zones use', () => {
    const once = (from: string) => problems({ name: 'x', schedule: { kind: 'once', from, to: '2031-01-01T00:00:00Z' } })
    for (const from of ['2030-01-01T00:00:00+25:00', '2030-01-01T00:00:00+99:99', '2030-01-01T00:00:00+01:60'])
      expect(once(from), from).toEqual(['window.schedule.from'])
    for (const from of ['2030-01-01T00:00:00+14:00', '2030-01-01T00:00:00-12:00', '2030-01-01T00:00:00+05:45'])
      expect(once(from), from).toEqual([])
    expect(once('2030-01-01T00:00:00+14:01')).toEqual(['window.schedule.from'])
    expect(once('2030-01-01T00:00:00-12:30')).toEqual(['window.schedule.from'])
  })
})
