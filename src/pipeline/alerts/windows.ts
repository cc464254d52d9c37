// Maintenance windows: times when an account's matching alerts are stored as suppressed rather than
// told. Pure functions of (window, alert, clock): check a window as it is saved, say whether one is
// active at a time (and until when), and list occurrences for a calendar.
// A window is one-off ({"kind": "once", "from", "to"}: ISO 8601 times) or weekly ({"kind": "weekly",
// "timeZone": "Europe/Berlin", "days": ["mon", ...], "start": "22:00", "end": "02:00"}: wall-clock
// times in a named IANA zone; an end at or before the start ends the next day). Wall-clock times are
// resolved by luxon in the zone, so a window keeps its local hours across DST changes: a time in the
// hour skipped in spring is moved forward by that hour (02:30 becomes 03:30), and one in the hour
// repeated in autumn is its first occurrence (the earlier instant).
import { DateTime, IANAZone } from 'luxon'
import type { WorkBudget } from '../../shared/budget.js'
import {
  checkCondition,
  ConditionChecks,
  type CompiledCondition,
  type ConditionProblem,
  type ConditionSubject,
} from './conditions.js'
import { atTime, inZone, plusDays, startOfDay } from './zone-clock.js'

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEKDAYS)[number]

export type WindowSchedule =
  | { readonly kind: 'once'; readonly from: string; readonly to: string }
  | {
      readonly kind: 'weekly'
      readonly timeZone: string
      readonly days: readonly Weekday[]
      readonly start: string
      readonly end: string
    }

export interface MaintenanceWindow {
  readonly id: string
  readonly name: string
  /** Which alerts it quiets; absent: all of the account's. */
  readonly when?: unknown
  readonly schedule: WindowSchedule
}

export interface CompiledWindow {
  readonly window: MaintenanceWindow
  readonly when?: CompiledCondition
}

export interface Occurrence {
  readonly start: number
  readonly end: number
}

export const WINDOW_LIMITS = {
  maxWindows: 200,
  maxNameChars: 200,
  /** Longest one-off window. */
  maxOnceMs: 366 * 86_400_000,
} as const

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Checks a window's name, condition and schedule as it is saved; `at` names where it is in the request. `checks`:
 * what the conditions of an account's windows may cost all together.
 */
export function checkWindow(
  raw: unknown,
  at: string,
  checks = new ConditionChecks(),
): { ok: true; window: CompiledWindow } | { ok: false; problems: ConditionProblem[] } {
  if (!isObject(raw)) return { ok: false, problems: [{ field: at, problem: 'must be a window object' }] }
  const problems: ConditionProblem[] = []
  const known = new Set(['id', 'name', 'when', 'schedule'])
  for (const k of Object.keys(raw))
    if (!known.has(k)) problems.push({ field: `${at}.${k}`, problem: 'is not a window field' })
  const name = raw['name']
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > WINDOW_LIMITS.maxNameChars)
    problems.push({ field: `${at}.name`, problem: `must be 1 to ${WINDOW_LIMITS.maxNameChars} characters` })
  let when: CompiledCondition | undefined
  if (raw['when'] !== undefined) {
    const checked = checkCondition(raw['when'], `${at}.when`, checks)
    if (checked.ok) when = checked.condition
    else problems.push(...checked.problems)
  }
  problems.push(...scheduleProblems(raw['schedule'], `${at}.schedule`))
  if (problems.length > 0) return { ok: false, problems }
  const window = raw as unknown as MaintenanceWindow
  return { ok: true, window: when ? { window, when } : { window } }
}

function scheduleProblems(s: unknown, at: string): ConditionProblem[] {
  if (!isObject(s) || (s['kind'] !== 'once' && s['kind'] !== 'weekly'))
    return [
      {
        field: at,
        problem: 'must be {"kind": "once", "from", "to"} or {"kind": "weekly", "timeZone", "days", "start", "end"}',
      },
    ]
  const problems: ConditionProblem[] = []
  const fields = s['kind'] === 'once' ? ['kind', 'from', 'to'] : ['kind', 'timeZone', 'days', 'start', 'end']
  for (const k of Object.keys(s))
    if (!fields.includes(k))
      problems.push({ field: `${at}.${k}`, problem: `is not a field of a ${String(s['kind'])} schedule` })
  if (s['kind'] === 'once') {
    const from = time(s['from'])
    const to = time(s['to'])
    if (from === undefined)
      problems.push({
        field: `${at}.from`,
        problem: 'must be an ISO 8601 time with its offset (e.g. 2026-12-01T22:00:00Z)',
      })
    if (to === undefined) problems.push({ field: `${at}.to`, problem: 'must be an ISO 8601 time with its offset' })
    if (from !== undefined && to !== undefined) {
      if (to <= from) problems.push({ field: `${at}.to`, problem: 'must be after from' })
      else if (to - from > WINDOW_LIMITS.maxOnceMs)
        problems.push({ field: `${at}.to`, problem: 'must be within 366 days of from' })
    }
    return problems
  }
  const zone = s['timeZone']
  if (typeof zone !== 'string' || zone.length > 64 || !IANAZone.isValidZone(zone))
    problems.push({ field: `${at}.timeZone`, problem: 'must be an IANA time zone name (e.g. Europe/Berlin)' })
  const days = s['days']
  if (
    !Array.isArray(days) ||
    days.length === 0 ||
    days.length > 7 ||
    !days.every((d) => (WEEKDAYS as readonly unknown[]).includes(d)) ||
    new Set(days).size !== days.length
  )
    problems.push({ field: `${at}.days`, problem: `must be a list of distinct days: ${WEEKDAYS.join(', ')}` })
  for (const k of ['start', 'end'] as const)
    if (typeof s[k] !== 'string' || !HHMM.test(s[k]))
      problems.push({ field: `${at}.${k}`, problem: 'must be a time of day, HH:MM (00:00 to 23:59)' })
  return problems
}

/**
 * Milliseconds of an ISO 8601 time that names its offset (a local time without one is ambiguous); the offset one
 * that a clock can show (RFC 3339's form, within the -12:00 to +14:00 zones use).
 */
function time(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined
  const offset = /(?:Z|([+-])(\d\d):?(\d\d))$/i.exec(v)
  if (!offset) return undefined
  if (offset[1] !== undefined) {
    const minutes = Number(offset[2]) * 60 + Number(offset[3])
    if (Number(offset[3]) > 59 || minutes > (offset[1] === '+' ? 14 * 60 : 12 * 60)) return undefined
  }
  const dt = DateTime.fromISO(v, { setZone: true })
  return dt.isValid ? dt.toMillis() : undefined
}

/**
 * The occurrences of a window that overlap [fromMs, toMs), in order. Wall-clock times are resolved as luxon resolves
 * them (zone-clock.ts): days are walked from the day before fromMs, as luxon's plus({days: 1}) walks them.
 */
export function occurrences(schedule: WindowSchedule, fromMs: number, toMs: number): Occurrence[] {
  if (schedule.kind === 'once') {
    const start = time(schedule.from)!
    const end = time(schedule.to)!
    return start < toMs && end > fromMs ? [{ start, end }] : []
  }
  const zone = schedule.timeZone
  const [sh, sm] = schedule.start.split(':').map(Number) as [number, number]
  const [eh, em] = schedule.end.split(':').map(Number) as [number, number]
  const overnight = eh * 60 + em <= sh * 60 + sm
  const out: Occurrence[] = []
  // From the day before fromMs (an occurrence that began then may still run), local days in the zone.
  let day = plusDays(zone, startOfDay(zone, inZone(zone, fromMs)), -1)
  const last = startOfDay(zone, inZone(zone, toMs)).ms
  for (let guard = 0; day.ms <= last && guard < 800; guard++, day = plusDays(zone, day, 1)) {
    if (!schedule.days.includes(WEEKDAYS[day.weekday - 1]!)) continue
    const start = atTime(zone, day, sh, sm).ms
    const end = atTime(zone, overnight ? plusDays(zone, day, 1) : day, eh, em).ms
    if (start < toMs && end > fromMs && end > start) out.push({ start, end })
  }
  return out
}

/** The occurrence of the window running at `atMs`, if any. */
export function activeAt(schedule: WindowSchedule, atMs: number): Occurrence | undefined {
  return occurrences(schedule, atMs, atMs + 1).find((o) => o.start <= atMs && atMs < o.end)
}

/**
 * How far a hold may reach: what a window that never ends (every day, all day) holds is released after this long,
 * and is then an open alert like any other.
 */
export const HOLD_HORIZON_MS = 31 * 86_400_000

/**
 * A window list's occurrences, worked out once for a span of time around the alerts' times (a compiled list is one
 * version of an account's windows): each window's, and, per set of windows an alert matched, their stretches of
 * unbroken cover (overlapping or back-to-back occurrences merged). An alert's answer is then a lookup.
 */
interface Cover {
  readonly from: number
  readonly to: number
  readonly occurrences: readonly (readonly Occurrence[])[]
  /** By the indexes of the matching windows: their stretches, in order (a bounded number of sets, oldest out). */
  readonly stretches: Map<string, readonly Occurrence[]>
}
/** A cover reaches back a week (alerts read late) and on two horizons (so that it serves a month of alerts). */
const COVER_BACK_MS = 7 * 86_400_000
const COVER_AHEAD_MS = 2 * HOLD_HORIZON_MS
const STRETCH_SETS = 64
const covers = new WeakMap<readonly CompiledWindow[], Cover>()

function coverOf(windows: readonly CompiledWindow[], atMs: number): Cover {
  const known = covers.get(windows)
  // A stretch reaching the cover's end holds for the horizon, so the cover must reach past it.
  if (known && known.from <= atMs && atMs + HOLD_HORIZON_MS < known.to) return known
  const from = atMs - COVER_BACK_MS
  const to = atMs + COVER_AHEAD_MS
  const cover = {
    from,
    to,
    occurrences: windows.map((w) => occurrences(w.window.schedule, from, to)),
    stretches: new Map<string, readonly Occurrence[]>(),
  }
  covers.set(windows, cover)
  return cover
}

/** The occurrence of a sorted list that holds `atMs`, if any. */
function holding(list: readonly Occurrence[], atMs: number): Occurrence | undefined {
  let lo = 0
  let hi = list.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const o = list[mid]!
    if (o.end <= atMs) lo = mid + 1
    else if (o.start > atMs) hi = mid - 1
    else return o
  }
  return undefined
}

function stretchesOf(cover: Cover, matching: readonly number[], budget: WorkBudget): readonly Occurrence[] {
  const key = matching.join(',')
  let stretches = cover.stretches.get(key)
  if (stretches) return stretches
  const all = matching.flatMap((i) => cover.occurrences[i]!)
  budget.step(all.length)
  all.sort((a, b) => a.start - b.start)
  const merged: Occurrence[] = []
  for (const o of all) {
    const last = merged.at(-1)
    if (last && o.start <= last.end) merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, o.end) }
    else merged.push(o)
  }
  if (cover.stretches.size >= STRETCH_SETS) cover.stretches.delete(cover.stretches.keys().next().value as string)
  cover.stretches.set(key, (stretches = merged))
  return stretches
}

/**
 * The first of the windows that is running at `atMs` and matches the alert, and when the alert stops being covered:
 * the end of the unbroken stretch of occurrences of every matching window (a weekend of Saturday and Sunday all day
 * is one stretch; two overlapping windows are one), at most HOLD_HORIZON_MS ahead. The windows' conditions run within
 * the budget (BUDGET_EXCEEDED past it).
 */
export function suppressingWindow(
  windows: readonly CompiledWindow[],
  subject: ConditionSubject,
  atMs: number,
  budget: WorkBudget,
): { id: string; until: number } | undefined {
  const cover = coverOf(windows, atMs)
  let first: string | undefined
  const matching: number[] = []
  windows.forEach((w, i) => {
    if (w.when && !w.when.matches(subject, budget)) return
    matching.push(i)
    if (first === undefined && holding(cover.occurrences[i]!, atMs)) first = w.window.id
  })
  if (first === undefined) return undefined
  const stretch = holding(stretchesOf(cover, matching, budget), atMs)!
  return { id: first, until: Math.min(stretch.end, atMs + HOLD_HORIZON_MS) }
}
