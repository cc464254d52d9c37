// On-call schedules: who is on call at an instant, and the shifts of a span. Pure functions of (schedule, span).
//
// A schedule has an IANA zone and layers. Each layer is a rotation: its responders take turns of a length (hours, days
// or weeks), in order, from a first handoff given as a wall-clock date and time in the zone. Turns of days and weeks
// hand off at the same wall-clock time across DST changes (a turn that spans one is an hour shorter or longer); turns
// of hours are that many hours. A layer may end, and may be restricted to times of the week (e.g. mon-fri 09:00-17:00
// local): outside them it has no one on call, and its turns go on counting. Where several layers have someone on call
// the later one in the list (the higher) wins; an override (one responder for a span) wins over every layer, and a
// later override over an earlier one. A shift is a span with one responder on call; spans with no one are gaps.
//
// Wall-clock times are resolved as maintenance windows resolve them (luxon, fold 0): a time in the hour skipped in
// spring is moved forward by that hour (02:30 becomes 03:30), and one in the hour repeated in autumn is its first
// occurrence. test/integration/oncall-shifts.test.ts checks the shifts against dateutil's rrule and zoneinfo.
import { DateTime, IANAZone } from 'luxon'
import type { FieldProblem } from '../../shared/errors.js'
import { WEEKDAYS, type Weekday } from '../alerts/windows.js'
import { inZone, offsetAt } from '../alerts/zone-clock.js'

export const ROTATION_UNITS = ['hours', 'days', 'weeks'] as const
export type RotationUnit = (typeof ROTATION_UNITS)[number]

export interface Restriction {
  /** Days of the week the span starts on. */
  readonly days: readonly Weekday[]
  /** Wall-clock HH:MM; a `to` at or before `from` ends the next day (00:00 to 00:00: the whole day). */
  readonly from: string
  readonly to: string
}

export interface Layer {
  readonly name: string
  /** The first handoff: a wall-clock date and time in the schedule's zone, YYYY-MM-DDTHH:MM. */
  readonly start: string
  /** When the layer stops, as `start`; absent: never. */
  readonly end?: string
  readonly rotation: { readonly unit: RotationUnit; readonly length: number }
  /** Responder ids, in the order they take turns. */
  readonly responders: readonly string[]
  /** When the layer is on call; absent: always. */
  readonly restrictions?: readonly Restriction[]
}

export interface Override {
  readonly responder: string
  /** ISO 8601 instants. */
  readonly from: string
  readonly to: string
}

export interface ScheduleDefinition {
  readonly name: string
  readonly timeZone: string
  readonly layers: readonly Layer[]
  readonly overrides?: readonly Override[]
}

/** A span of [start, end) epoch ms with one responder on call. */
export interface Shift {
  readonly start: number
  readonly end: number
  readonly responder: string
}

export const SCHEDULE_LIMITS = {
  layers: 10,
  respondersPerLayer: 100,
  restrictionsPerLayer: 14,
  overrides: 500,
  /** The longest override. */
  overrideMs: 92 * 86_400_000,
  /** The longest turn, by unit. */
  length: { hours: 24 * 366, days: 366, weeks: 52 } as Record<RotationUnit, number>,
  /** The longest span shifts are computed for at once. */
  spanMs: 400 * 86_400_000,
  /** Handoffs and layers' starts and ends lie within these years. */
  firstYear: 2000,
  lastYear: 2200,
} as const

const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)$/
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/

/** A wall-clock YYYY-MM-DDTHH:MM, checked (a real date within the years a schedule may use), as its parts. */
function localParts(text: string): { year: number; month: number; day: number; hour: number; minute: number } | null {
  const m = LOCAL.exec(text)
  if (!m) return null
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number]
  const naive = DateTime.fromObject({ year, month, day, hour, minute }, { zone: 'utc' })
  if (!naive.isValid || year < SCHEDULE_LIMITS.firstYear || year > SCHEDULE_LIMITS.lastYear) return null
  return { year, month, day, hour, minute }
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,3})?)?(Z|[+-](?:0\d|1[0-4]):[0-5]\d)$/

export const INSTANT_PROBLEM = `must be an ISO 8601 time with its offset (Z or ±HH:MM), between ${SCHEDULE_LIMITS.firstYear} and ${SCHEDULE_LIMITS.lastYear}`

/**
 * An ISO 8601 time with its offset (Z or ±HH:MM: never the reader's own zone), of a real date within the years a
 * schedule may use, as epoch ms; undefined otherwise. Overrides and the API's query times are read with it.
 */
export function instantText(text: string): number | undefined {
  const m = INSTANT.exec(text)
  if (!m) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  if (year < SCHEDULE_LIMITS.firstYear || year > SCHEDULE_LIMITS.lastYear) return undefined
  const ms = Date.parse(text)
  return Number.isFinite(ms) ? ms : undefined
}

/**
 * The instant of a wall-clock time (given as the epoch ms of its parts read as UTC) in a zone, as Python's zoneinfo
 * reads it with fold 0: in the hour repeated in autumn, its first occurrence; in the hour skipped in spring, the
 * offset before the change (02:30 becomes 03:30). By the zone's offsets (zone-clock.ts: luxon's, read once per block),
 * not luxon's DateTime.fromObject, whose answer in those hours depends on the offset of the day it runs.
 */
export function instantOf(naiveMs: number, zone: string): number {
  const before = offsetAt(zone, naiveMs - DAY_MS)
  const after = offsetAt(zone, naiveMs + DAY_MS)
  const first = naiveMs - before * 60_000
  if (before === after || offsetAt(zone, first) === before) return first
  const second = naiveMs - after * 60_000
  return offsetAt(zone, second) === after ? second : first
}

const naiveOf = (text: string) => DateTime.fromISO(text, { zone: 'utc' }).toMillis()

/** A valid IANA zone's canonical name (`utc` is `UTC`, `america/new_york` is `America/New_York`). */
export const canonicalZone = (zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone

/** What is wrong with a schedule's meaning (its shape is the API's schema), each naming its place. */
export function scheduleProblems(s: ScheduleDefinition): FieldProblem[] {
  const problems: FieldProblem[] = []
  if (!IANAZone.isValidZone(s.timeZone))
    problems.push({ field: 'timeZone', problem: `${JSON.stringify(s.timeZone)} is not an IANA time zone` })
  if (s.layers.length > SCHEDULE_LIMITS.layers)
    problems.push({ field: 'layers', problem: `must hold at most ${SCHEDULE_LIMITS.layers} layers` })
  s.layers.slice(0, SCHEDULE_LIMITS.layers).forEach((layer, i) => {
    const at = `layers[${i}]`
    const start = localParts(layer.start)
    if (!start)
      problems.push({
        field: `${at}.start`,
        problem: `must be a wall-clock date and time YYYY-MM-DDTHH:MM between ${SCHEDULE_LIMITS.firstYear} and ${SCHEDULE_LIMITS.lastYear}`,
      })
    if (layer.end !== undefined) {
      if (!localParts(layer.end)) problems.push({ field: `${at}.end`, problem: 'must be as start: YYYY-MM-DDTHH:MM' })
      else if (start && naiveOf(layer.end) <= naiveOf(layer.start))
        problems.push({ field: `${at}.end`, problem: 'must be after the layer’s start' })
    }
    const { unit, length } = layer.rotation
    const most = SCHEDULE_LIMITS.length[unit]
    if (!Number.isSafeInteger(length) || length < 1 || length > most)
      problems.push({ field: `${at}.rotation.length`, problem: `must be a whole number of ${unit} from 1 to ${most}` })
    if (layer.responders.length === 0 || layer.responders.length > SCHEDULE_LIMITS.respondersPerLayer)
      problems.push({
        field: `${at}.responders`,
        problem: `must hold 1 to ${SCHEDULE_LIMITS.respondersPerLayer} responders`,
      })
    const restrictions = layer.restrictions ?? []
    if (restrictions.length > SCHEDULE_LIMITS.restrictionsPerLayer)
      problems.push({
        field: `${at}.restrictions`,
        problem: `must hold at most ${SCHEDULE_LIMITS.restrictionsPerLayer} restrictions`,
      })
    restrictions.slice(0, SCHEDULE_LIMITS.restrictionsPerLayer).forEach((r, j) => {
      for (const key of ['from', 'to'] as const)
        if (!HHMM.test(r[key]))
          problems.push({ field: `${at}.restrictions[${j}].${key}`, problem: 'must be a wall-clock time HH:MM' })
      if (r.days.length === 0 || r.days.some((d) => !WEEKDAYS.includes(d)))
        problems.push({ field: `${at}.restrictions[${j}].days`, problem: `must be days among ${WEEKDAYS.join(', ')}` })
    })
  })
  const overrides = s.overrides ?? []
  if (overrides.length > SCHEDULE_LIMITS.overrides)
    problems.push({ field: 'overrides', problem: `must hold at most ${SCHEDULE_LIMITS.overrides} overrides` })
  overrides.slice(0, SCHEDULE_LIMITS.overrides).forEach((o, i) => {
    const from = instantText(o.from)
    const to = instantText(o.to)
    if (from === undefined) problems.push({ field: `overrides[${i}].from`, problem: INSTANT_PROBLEM })
    else if (to === undefined) problems.push({ field: `overrides[${i}].to`, problem: INSTANT_PROBLEM })
    else if (to <= from) problems.push({ field: `overrides[${i}].to`, problem: 'must be after from' })
    else if (to - from > SCHEDULE_LIMITS.overrideMs)
      problems.push({
        field: `overrides[${i}].to`,
        problem: `an override lasts at most ${SCHEDULE_LIMITS.overrideMs / DAY_MS} days`,
      })
  })
  return problems
}

/** A layer's turns that overlap [from, to), each clipped to the span, the layer's start and end. */
export function layerTurns(layer: Layer, zone: string, from: number, to: number): Shift[] {
  const { unit, length } = layer.rotation
  const naiveStart = naiveOf(layer.start)
  const first = instantOf(naiveStart, zone)
  const end = layer.end === undefined ? Infinity : instantOf(naiveOf(layer.end), zone)
  // Turn k starts at handoff(k): hours are absolute; days and weeks keep the wall-clock time.
  const handoff =
    unit === 'hours'
      ? (k: number) => first + k * length * HOUR_MS
      : (k: number) => instantOf(naiveStart + k * length * (unit === 'weeks' ? 7 : 1) * DAY_MS, zone)
  const approxMs = length * (unit === 'hours' ? HOUR_MS : unit === 'days' ? DAY_MS : 7 * DAY_MS)
  let k = Math.max(0, Math.floor((from - first) / approxMs) - 1)
  while (handoff(k + 1) <= from) k++
  const turns: Shift[] = []
  for (let start = handoff(k); start < to && start < end; k++) {
    const next = handoff(k + 1)
    const s = Math.max(start, from)
    const e = Math.min(next, to, end)
    if (e > s) turns.push({ start: s, end: e, responder: layer.responders[k % layer.responders.length]! })
    start = next
  }
  return turns
}

/** The spans of [from, to) a layer's restrictions allow, in order, merged where they touch. */
function allowed(restrictions: readonly Restriction[], zone: string, from: number, to: number): [number, number][] {
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))
  const rules = restrictions.map((r) => {
    const [a, b] = [minutes(r.from), minutes(r.to)]
    return { days: new Set(r.days), startMs: a * 60_000, endMs: (b <= a ? DAY_MS : 0) + b * 60_000 }
  })
  const spans: [number, number][] = []
  // Local dates from two days before `from` (a span that starts the day before and ends the next) to the day of `to`.
  const local = inZone(zone, from)
  const naiveDay0 = Date.UTC(local.year, local.month - 1, local.day - 2)
  const days = Math.ceil((to - from) / DAY_MS) + 4
  for (let d = 0; d < days; d++) {
    const naiveDay = naiveDay0 + d * DAY_MS
    const weekday = WEEKDAYS[(new Date(naiveDay).getUTCDay() + 6) % 7]!
    for (const r of rules) {
      if (!r.days.has(weekday)) continue
      const s = instantOf(naiveDay + r.startMs, zone)
      const e = instantOf(naiveDay + r.endMs, zone)
      if (e > from && s < to && e > s) spans.push([Math.max(s, from), Math.min(e, to)])
    }
  }
  spans.sort((a, b) => a[0] - b[0])
  const merged: [number, number][] = []
  for (const span of spans) {
    const last = merged.at(-1)
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1])
    else merged.push([...span])
  }
  return merged
}

/** A layer's on-call spans in [from, to): its turns within its restrictions. */
export function layerShifts(layer: Layer, zone: string, from: number, to: number): Shift[] {
  const turns = layerTurns(layer, zone, from, to)
  if (!layer.restrictions || layer.restrictions.length === 0) return turns
  const spans = allowed(layer.restrictions, zone, from, to)
  const out: Shift[] = []
  let j = 0
  for (const turn of turns) {
    while (j < spans.length && spans[j]![1] <= turn.start) j++
    for (let i = j; i < spans.length && spans[i]![0] < turn.end; i++) {
      const s = Math.max(turn.start, spans[i]![0])
      const e = Math.min(turn.end, spans[i]![1])
      if (e > s) out.push({ start: s, end: e, responder: turn.responder })
    }
  }
  return out
}

/**
 * The schedule's shifts in [from, to): who is on call, overrides over the highest layer with someone, adjacent spans of
 * one responder joined; gaps (no one on call) are not shifts.
 */
export function shifts(schedule: ScheduleDefinition, from: number, to: number): Shift[] {
  if (!(to > from)) return []
  // Sources from the lowest to the highest: the layers in order, then the overrides (each its own, a later one higher)
  // joined into one.
  const overrides = (schedule.overrides ?? []).flatMap((o) => {
    const s = Math.max(instantText(o.from) ?? Infinity, from)
    const e = Math.min(instantText(o.to) ?? -Infinity, to)
    return e > s ? [[{ start: s, end: e, responder: o.responder }]] : []
  })
  return layered([
    ...schedule.layers.map((layer) => layerShifts(layer, schedule.timeZone, from, to)),
    layered(overrides),
  ])
}

/** Sources of spans (each in order, not overlapping), lowest first, as one: the highest with someone at each time. */
function layered(sources: readonly Shift[][]): Shift[] {
  const bounds = [...new Set(sources.flatMap((list) => list.flatMap((x) => [x.start, x.end])))].sort((a, b) => a - b)
  const at = sources.map(() => 0)
  const out: Shift[] = []
  for (let b = 0; b + 1 < bounds.length; b++) {
    const [s, e] = [bounds[b]!, bounds[b + 1]!]
    let responder: string | undefined
    for (let i = sources.length - 1; i >= 0 && responder === undefined; i--) {
      const list = sources[i]!
      while (at[i]! < list.length && list[at[i]!]!.end <= s) at[i]!++
      const x = list[at[i]!]
      if (x && x.start <= s) responder = x.responder
    }
    if (responder === undefined) continue
    const last = out.at(-1)
    if (last && last.end === s && last.responder === responder) out[out.length - 1] = { ...last, end: e }
    else out.push({ start: s, end: e, responder })
  }
  return out
}

/** Who is on call at an instant (undefined: no one). */
export function onCallAt(schedule: ScheduleDefinition, at: number): string | undefined {
  return shifts(schedule, at, at + 1)[0]?.responder
}
