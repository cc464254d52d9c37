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
import { checkCondition, type CompiledCondition, type ConditionProblem, type ConditionSubject } from './conditions.js'

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

/** Checks a window's name, condition and schedule as it is saved; `at` names where it is in the request. */
export function checkWindow(
  raw: unknown,
  at: string,
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
    const checked = checkCondition(raw['when'], `${at}.when`)
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

/** Milliseconds of an ISO 8601 time that names its offset (a local time without one is ambiguous). */
function time(v: unknown): number | undefined {
  if (typeof v !== 'string' || !/(Z|[+-]\d\d:?\d\d)$/i.test(v)) return undefined
  const dt = DateTime.fromISO(v, { setZone: true })
  return dt.isValid ? dt.toMillis() : undefined
}

/** The occurrences of a window that overlap [fromMs, toMs), in order. */
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

/** The occurrence of the window running at `atMs`, if any. */
export function activeAt(schedule: WindowSchedule, atMs: number): Occurrence | undefined {
  return occurrences(schedule, atMs, atMs + 1).find((o) => o.start <= atMs && atMs < o.end)
}

/**
 * What activeAt said of a compiled window, and the span of time it holds for: the occurrence running, or the quiet
 * time until the next one. Resolving wall-clock times in a zone is most of a window's cost, and alerts come in order
 * of time: one answer serves every alert until the span ends.
 */
const spans = new WeakMap<CompiledWindow, { from: number; to: number; on: Occurrence | undefined }>()
const SPAN_AHEAD_MS = 8 * 86_400_000

function activeSpan(w: CompiledWindow, atMs: number): Occurrence | undefined {
  const hit = spans.get(w)
  if (hit && hit.from <= atMs && atMs < hit.to) return hit.on
  const on = activeAt(w.window.schedule, atMs)
  const next = on ? undefined : occurrences(w.window.schedule, atMs, atMs + SPAN_AHEAD_MS)[0]
  spans.set(w, on ? { from: on.start, to: on.end, on } : { from: atMs, to: next?.start ?? atMs + SPAN_AHEAD_MS, on })
  return on
}

/**
 * How far a hold may reach: what a window that never ends (every day, all day) holds is released after this long,
 * and is then an open alert like any other.
 */
export const HOLD_HORIZON_MS = 31 * 86_400_000

/**
 * Extensions worked out, per compiled window list: the matching windows' ids and a start → where the walk ended, and
 * whether that is the stretch's true end (`complete`) or only as far as it walked.
 */
const covers = new WeakMap<readonly CompiledWindow[], Map<string, { end: number; complete: boolean }>>()

/**
 * The first of the windows that is running at `atMs` and matches the alert, and when the alert stops being covered:
 * the end of the unbroken stretch of occurrences of every matching window (a weekend of Saturday and Sunday all day
 * is one stretch; two overlapping windows are one), at most HOLD_HORIZON_MS ahead.
 */
export function suppressingWindow(
  windows: readonly CompiledWindow[],
  subject: ConditionSubject,
  atMs: number,
): { id: string; until: number } | undefined {
  let first: string | undefined
  let until = 0
  const matching: CompiledWindow[] = []
  for (const w of windows) {
    if (w.when && !w.when.matches(subject)) continue
    matching.push(w)
    const on = activeSpan(w, atMs)
    if (!on) continue
    first ??= w.window.id
    until = Math.max(until, on.end)
  }
  if (first === undefined) return undefined
  const horizon = atMs + HOLD_HORIZON_MS
  const key = `${matching.map((w) => w.window.id).join(',')}@${until}`
  let known = covers.get(windows)
  if (!known) covers.set(windows, (known = new Map<string, { end: number; complete: boolean }>()))
  const hit = known.get(key)
  // A walk that stopped short of the stretch's end answers only while this time's horizon is within it.
  if (hit && (hit.complete || horizon <= hit.end)) return { id: first, until: Math.min(hit.end, horizon) }
  // Walked up to a horizon further on than this time needs, so that later alerts of a long stretch reuse it.
  const reach = horizon + HOLD_HORIZON_MS
  let complete = false
  for (let guard = 0; until < reach && guard < 2000; guard++) {
    let next = until
    for (const w of matching) {
      const on = activeAt(w.window.schedule, until)
      if (on && on.end > next) next = on.end
    }
    if (next === until) {
      complete = true
      break
    }
    until = next
  }
  if (known.size >= 1000) known.clear()
  known.set(key, { end: until, complete })
  return { id: first, until: Math.min(until, horizon) }
}
