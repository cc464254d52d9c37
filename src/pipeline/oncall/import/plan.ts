// What an import of another on-call tool's schedules and escalation policies makes (pipeline/oncall/import/*.ts read
// each tool's API export into it): Sluice schedules and policies whose people, schedules and policies are still named
// by the source tool's ids (the import service maps them to the account's users and to what it creates), and a report
// of what could not be carried over as it was, each naming its place in the export. Also shared: reading an export's
// lists and the overlap check (two layers on call at once: the source tool may page both, Sluice pages the higher).
import { DateTime, IANAZone } from 'luxon'
import type { PolicyDefinition } from '../escalation.js'
import { WEEKDAYS } from '../../alerts/windows.js'
import { layerShifts, SCHEDULE_LIMITS, type Restriction, type ScheduleDefinition } from '../schedules.js'

export const IMPORT_SOURCES = ['opsgenie', 'grafana-oncall'] as const
export type ImportSource = (typeof IMPORT_SOURCES)[number]

/** A person of the source tool: its id there, and the addresses and names that find them among the account's users. */
export interface SourcePerson {
  readonly id: string
  readonly names: readonly string[]
}

export interface PlannedSchedule {
  /** The source tool's id of the schedule (policies name it so). */
  readonly sourceId: string
  /** Responders are source people's ids. */
  readonly definition: ScheduleDefinition
  /** Each layer's name in the source (for the report). */
  readonly from: string
}

export interface PlannedPolicy {
  readonly sourceId: string
  /** Targets name source people, schedules and policies by their source ids; destinations are not imported. */
  readonly definition: PolicyDefinition
  readonly from: string
}

export interface ReportLine {
  /** Where in the export (e.g. `schedules["ops"].rotations["Nights"]`). */
  readonly at: string
  readonly problem: string
}

export interface ImportPlan {
  readonly source: ImportSource
  readonly people: readonly SourcePerson[]
  readonly schedules: readonly PlannedSchedule[]
  readonly policies: readonly PlannedPolicy[]
  readonly report: readonly ReportLine[]
}

/** The most items of one list an export may hold (an export is read whole, in one process: it is bounded). */
export const EXPORT_LIMITS = { items: 5000 } as const

export type Json = Record<string, unknown>

/** A list of the export: an array, or an API answer holding it (Opsgenie's `data`, OnCall's paginated `results`). */
export function listOf(value: unknown, at: string, report: ReportLine[]): Json[] {
  const list = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value['data'])
      ? value['data']
      : isObject(value) && Array.isArray(value['results'])
        ? value['results']
        : value === undefined
          ? []
          : undefined
  if (list === undefined) {
    report.push({ at, problem: 'is not a list (nor an API answer holding one): nothing read from it' })
    return []
  }
  if (list.length > EXPORT_LIMITS.items)
    report.push({ at, problem: `holds ${list.length} items: only the first ${EXPORT_LIMITS.items} were read` })
  return list.slice(0, EXPORT_LIMITS.items).filter((x, i) => {
    if (isObject(x)) return true
    report.push({ at: `${at}[${i}]`, problem: 'is not an object: skipped' })
    return false
  }) as Json[]
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
/** The array a value is, else none. */
export const array = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : [])
export const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined)
export const count = (v: unknown): number | undefined => (Number.isSafeInteger(v) ? (v as number) : undefined)
/** A place named by what people read: the item's name, else its id, else its index. */
export const named = (item: Json, i: number) => JSON.stringify(text(item['name']) ?? text(item['id']) ?? String(i))

/** A valid IANA zone, or undefined. */
export const zoneOf = (v: unknown) => (typeof v === 'string' && IANAZone.isValidZone(v) ? v : undefined)

/** An instant (ISO 8601 with an offset) as the zone's wall clock YYYY-MM-DDTHH:MM, or undefined. */
export function wallClock(instant: unknown, zone: string): string | undefined {
  if (typeof instant !== 'string') return undefined
  const t = DateTime.fromISO(instant, { setZone: true })
  if (!t.isValid || !/(Z|[+-]\d\d:?\d\d)$/.test(instant)) return undefined
  return t.setZone(zone).toFormat("yyyy-MM-dd'T'HH:mm")
}

/** An HH:MM of whole hours and minutes. */
export const hhmm = (h: number, m: number) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`

export interface Overlap {
  readonly from: number
  readonly to: number
  /** Indexes of the layers on call together. */
  readonly layers: readonly [number, number]
}

/**
 * Spans of [from, to) where two layers (of the pairs `both` accepts) each have someone on call: there the source tool
 * pages everyone on call and Sluice the higher layer's responder. The first `most` spans, in time order.
 */
export function overlaps(
  schedule: ScheduleDefinition,
  from: number,
  to: number,
  both: (a: number, b: number) => boolean = () => true,
  most = 5,
): Overlap[] {
  const spans = schedule.layers.map((l) => layerShifts(l, schedule.timeZone, from, to))
  const found: Overlap[] = []
  for (let a = 0; a < spans.length; a++)
    for (let b = a + 1; b < spans.length; b++) {
      if (!both(a, b)) continue
      let i = 0
      let j = 0
      const x = spans[a]!
      const y = spans[b]!
      while (i < x.length && j < y.length) {
        const s = Math.max(x[i]!.start, y[j]!.start)
        const e = Math.min(x[i]!.end, y[j]!.end)
        if (e > s) {
          const last = found.at(-1)
          if (last && last.layers[0] === a && last.layers[1] === b && last.to === s)
            found[found.length - 1] = { ...last, to: e }
          else found.push({ from: s, to: e, layers: [a, b] })
        }
        if (x[i]!.end < y[j]!.end) i++
        else j++
      }
    }
  return found.sort((p, q) => p.from - q.from).slice(0, most)
}

/** Weeks from now an import looks for layers on call together. */
export const OVERLAP_WEEKS = 8

/**
 * Report lines for the layers of a planned schedule on call together in the coming weeks: one per pair of layers, its
 * first span and how many more.
 */
export function overlapReport(
  planned: PlannedSchedule,
  now: number,
  both: (a: number, b: number) => boolean,
  why: string,
): ReportLine[] {
  const { definition } = planned
  if (definition.layers.length < 2 || !zoneOf(definition.timeZone)) return []
  const found = overlaps(definition, now, now + OVERLAP_WEEKS * 7 * 86_400_000, both, Infinity)
  const at = (ms: number) => DateTime.fromMillis(ms, { zone: definition.timeZone }).toFormat("yyyy-MM-dd'T'HH:mm")
  const pairs = new Map<string, Overlap[]>()
  for (const o of found) pairs.set(o.layers.join(), [...(pairs.get(o.layers.join()) ?? []), o])
  return [...pairs.values()].map((list) => {
    const [a, b] = list[0]!.layers.map((k) => JSON.stringify(definition.layers[k]!.name))
    const more = list.length > 1 ? ` and ${list.length - 1} more times in the coming ${OVERLAP_WEEKS} weeks` : ''
    return {
      at: planned.from,
      problem: `layers ${a} and ${b} are both on call from ${at(list[0]!.from)} to ${at(list[0]!.to)} (${definition.timeZone})${more}: ${why}; Sluice pages only the higher layer's (${b})`,
    }
  })
}

/** Layers beyond Sluice's most, reported and left out. */
export function keepLayers<T>(layers: T[], at: string, report: ReportLine[]): T[] {
  if (layers.length <= SCHEDULE_LIMITS.layers) return layers
  report.push({
    at,
    problem: `has ${layers.length} layers; a Sluice schedule holds ${SCHEDULE_LIMITS.layers}: the rest were left out`,
  })
  return layers.slice(0, SCHEDULE_LIMITS.layers)
}

const DAY_MINUTES = 1440

/**
 * One window a week as restrictions: from `day` (0 Monday) at `startMinute` past midnight for `minutes` (under a
 * week). A restriction spans at most a day from its start, so a longer window is whole days from its start time, one
 * restriction with those days, then the rest.
 */
export function weeklyWindow(day: number, startMinute: number, minutes: number): Restriction[] {
  const from = hhmm(Math.floor(startMinute / 60), startMinute % 60)
  const whole = Math.floor(minutes / DAY_MINUTES)
  const rest = minutes % DAY_MINUTES
  const dayOf = (k: number) => WEEKDAYS[(day + k) % 7]!
  const out: Restriction[] = []
  if (whole > 0) out.push({ days: Array.from({ length: whole }, (_, k) => dayOf(k)), from, to: from })
  if (rest > 0) {
    const end = (startMinute + rest) % DAY_MINUTES
    out.push({ days: [dayOf(whole)], from, to: hhmm(Math.floor(end / 60), end % 60) })
  }
  return out
}
