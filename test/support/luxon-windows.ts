// The weekly windows' occurrences as luxon works them out, call by call (the implementation Sluice had before its
// zone tables, pipeline/alerts/zone-clock.ts): the oracle the fast one is checked against.
import { DateTime } from 'luxon'
import { WEEKDAYS, type Occurrence, type WindowSchedule } from '../../src/pipeline/alerts/windows.js'

export function luxonOccurrences(
  schedule: WindowSchedule & { kind: 'weekly' },
  fromMs: number,
  toMs: number,
): Occurrence[] {
  const zone = schedule.timeZone
  const [sh, sm] = schedule.start.split(':').map(Number) as [number, number]
  const [eh, em] = schedule.end.split(':').map(Number) as [number, number]
  const overnight = eh * 60 + em <= sh * 60 + sm
  const out: Occurrence[] = []
  // From the day before fromMs (an occurrence that began then may still run), local days in the zone.
  let day = DateTime.fromMillis(fromMs, { zone }).startOf('day').minus({ days: 1 })
  const last = DateTime.fromMillis(toMs, { zone }).startOf('day')
  for (let guard = 0; day <= last && guard < 800; guard++, day = day.plus({ days: 1 })) {
    if (!schedule.days.includes(WEEKDAYS[day.weekday - 1]!)) continue
    const start = day.set({ hour: sh, minute: sm }).toMillis()
    const endDay = overnight ? day.plus({ days: 1 }) : day
    const end = endDay.set({ hour: eh, minute: em }).toMillis()
    if (start < toMs && end > fromMs && end > start) out.push({ start, end })
  }
  return out
}
