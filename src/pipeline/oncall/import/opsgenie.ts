// Opsgenie's API export read as Sluice schedules and escalation policies (the formats of its REST API v2:
// `GET /v2/schedules?expand=rotation`, `GET /v2/schedules/{id}/overrides`, `GET /v2/escalations`; docs/on-call.md says
// how to make the file). The export file: {"schedules": [...], "overrides": {"<schedule id>": [...]}, "escalations":
// [...]}, each list as the API answers it or bare; overrides may also sit in their schedule.
//
// Opsgenie's rules, as its documentation gives them, and how they map:
// - A rotation is a layer: turns of `length` hours, days or weeks from `startDate` (its first handoff), participants in
//   order. Users are mapped; a team, an escalation or `none` (an empty turn) has no Sluice equivalent: reported.
// - A time restriction masks a rotation (its turns go on counting): `time-of-day` every day (an end before the start
//   runs past midnight); each `weekday-and-time-of-day` entry is one continuous window from its start day and time to
//   its end day and time (e.g. Friday 17:00 to Monday 08:00). Hours are the schedule's zone's.
// - Where rotations overlap, Opsgenie notifies everyone on call; Sluice pages the later layer's responder: reported.
// - An override replaces whoever is on call; one limited to some rotations is reported (Sluice's replace all).
// - Escalation rules fire at their `delay` counted from the alert's creation, while it is not acknowledged: rules are
//   grouped by delay into steps, each waiting until the next delay; `repeat.count` repeats after `waitInterval`.
import { WEEKDAYS } from '../../alerts/windows.js'
import { ESCALATION_LIMITS, type EscalationStep, type EscalationTarget } from '../escalation.js'
import type { Layer, Override, Restriction, RotationUnit } from '../schedules.js'
import {
  count,
  hhmm,
  isObject,
  keepLayers,
  listOf,
  named,
  overlapReport,
  text,
  wallClock,
  weeklyWindow,
  zoneOf,
  type ImportPlan,
  type Json,
  type PlannedPolicy,
  type PlannedSchedule,
  type ReportLine,
  type SourcePerson,
} from './plan.js'

const UNITS: Record<string, RotationUnit> = { hourly: 'hours', daily: 'days', weekly: 'weeks' }
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
/** Minutes per Opsgenie duration unit. */
const MINUTES: Record<string, number> = {
  days: 1440,
  hours: 60,
  minutes: 1,
  seconds: 1 / 60,
  miliseconds: 1 / 60_000,
  milliseconds: 1 / 60_000,
}

/** Reads an Opsgenie export; `now` is when overlaps are looked for (the coming weeks). */
export function fromOpsgenie(file: unknown, now: number): ImportPlan {
  const report: ReportLine[] = []
  const people = new Map<string, SourcePerson>()
  const person = (r: Json): string | undefined => {
    const id = text(r['id']) ?? text(r['username'])
    if (!id) return undefined
    const names = [text(r['username']), text(r['name'])].filter((n): n is string => n !== undefined)
    if (!people.has(id)) people.set(id, { id, names })
    return id
  }
  if (!isObject(file)) return { source: 'opsgenie', people: [], schedules: [], policies: [], report: [notObject] }
  const overrideLists = isObject(file['overrides']) ? file['overrides'] : {}
  const schedules: PlannedSchedule[] = []
  listOf(file['schedules'], 'schedules', report).forEach((s, i) => {
    const at = `schedules[${named(s, i)}]`
    const id = text(s['id']) ?? text(s['name'])
    if (!id) return report.push({ at, problem: 'has no id nor name: skipped' })
    if (s['enabled'] === false) return report.push({ at, problem: 'is disabled in Opsgenie: not imported' })
    const timeZone = zoneOf(s['timezone'])
    if (!timeZone)
      return report.push({ at, problem: `its timezone ${JSON.stringify(s['timezone'])} is not an IANA zone: skipped` })
    const layers = keepLayers(
      listOf(s['rotations'], `${at}.rotations`, report).flatMap((r, j) => {
        const layer = rotation(r, `${at}.rotations[${named(r, j)}]`, timeZone, person, report)
        return layer ? [layer] : []
      }),
      at,
      report,
    )
    if (layers.length === 0) return report.push({ at, problem: 'has no rotation Sluice can take: skipped' })
    const overrides = listOf(
      own(overrideLists, id) ?? own(overrideLists, text(s['name']) ?? '') ?? s['overrides'],
      `${at}.overrides`,
      report,
    ).flatMap((o, j) => {
      const made = override(o, `${at}.overrides[${text(o['alias']) ? JSON.stringify(o['alias']) : j}]`, person, report)
      return made ? [made] : []
    })
    const planned: PlannedSchedule = {
      sourceId: id,
      from: at,
      definition: { name: text(s['name']) ?? id, timeZone, layers, overrides },
    }
    schedules.push(planned)
    report.push(...overlapReport(planned, now, () => true, 'Opsgenie notifies everyone on call in either'))
  })
  const policies = listOf(file['escalations'], 'escalations', report).flatMap((e, i) => {
    const made = escalation(e, `escalations[${named(e, i)}]`, person, report)
    return made ? [made] : []
  })
  return { source: 'opsgenie', people: [...people.values()], schedules, policies, report }
}

/** A key of the export's own (never `__proto__` or `constructor` reached through the prototype). */
const own = (o: Json, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined)

const notObject: ReportLine = { at: '(file)', problem: 'is not a JSON object: nothing was read' }

function rotation(
  r: Json,
  at: string,
  zone: string,
  person: (r: Json) => string | undefined,
  report: ReportLine[],
): Layer | undefined {
  const unit = UNITS[String(r['type'])]
  if (!unit)
    return void report.push({
      at,
      problem: `its type ${JSON.stringify(r['type'])} is not hourly, daily or weekly: skipped`,
    })
  const length = count(r['length'] ?? 1)
  if (length === undefined || length < 1)
    return void report.push({ at, problem: 'its length is not a whole number from 1: skipped' })
  const start = wallClock(r['startDate'], zone)
  if (!start) return void report.push({ at, problem: 'its startDate is not a time with an offset: skipped' })
  const end = r['endDate'] === undefined || r['endDate'] === null ? undefined : wallClock(r['endDate'], zone)
  if (r['endDate'] && !end) report.push({ at, problem: 'its endDate is not a time with an offset: it was left open' })
  const responders: string[] = []
  listOf(r['participants'], `${at}.participants`, report).forEach((p, k) => {
    const id = p['type'] === 'user' ? person(p) : undefined
    if (id) return responders.push(id)
    report.push({
      at: `${at}.participants[${k}]`,
      problem:
        p['type'] === 'none'
          ? 'is "none" (a turn with no one on call): Sluice rotations take turns among people, so it was left out and the later turns come earlier'
          : `is a ${JSON.stringify(p['type'])}, not a user: Sluice rotations take turns among people, so it was left out and the later turns come earlier`,
    })
  })
  if (responders.length === 0) return void report.push({ at, problem: 'has no user among its participants: skipped' })
  const restrictions = timeRestriction(r['timeRestriction'], `${at}.timeRestriction`, report)
  if (restrictions === null) return undefined
  return {
    name: (text(r['name']) ?? `rotation ${at}`).slice(0, 200),
    start,
    ...(end && { end }),
    rotation: { unit, length },
    responders,
    ...(restrictions.length > 0 && { restrictions }),
  }
}

/** A rotation's time restriction as Sluice restrictions ([] none; null: cannot be read, the rotation is skipped). */
function timeRestriction(t: unknown, at: string, report: ReportLine[]): Restriction[] | null {
  if (t === undefined || t === null) return []
  const minuteOf = (x: Json, h: string, m: string) => {
    const hour = count(x[h])
    const minute = count(x[m] ?? 0)
    return hour === undefined || minute === undefined || hour < 0 || hour > 24 || minute < 0 || minute > 59
      ? undefined
      : (hour * 60 + minute) % 1440
  }
  if (isObject(t) && t['type'] === 'time-of-day' && isObject(t['restriction'])) {
    const s = minuteOf(t['restriction'], 'startHour', 'startMin')
    const e = minuteOf(t['restriction'], 'endHour', 'endMin')
    if (s === undefined || e === undefined) {
      report.push({ at, problem: 'has hours or minutes out of range: the rotation was skipped' })
      return null
    }
    return [{ days: [...WEEKDAYS], from: hhmm(Math.floor(s / 60), s % 60), to: hhmm(Math.floor(e / 60), e % 60) }]
  }
  if (isObject(t) && t['type'] === 'weekday-and-time-of-day' && Array.isArray(t['restrictions'])) {
    const out: Restriction[] = []
    for (const [k, x] of t['restrictions'].entries()) {
      const sd = isObject(x) ? DAYS.indexOf(String(x['startDay']).toLowerCase()) : -1
      const ed = isObject(x) ? DAYS.indexOf(String(x['endDay']).toLowerCase()) : -1
      const s = isObject(x) ? minuteOf(x, 'startHour', 'startMin') : undefined
      const e = isObject(x) ? minuteOf(x, 'endHour', 'endMin') : undefined
      if (sd < 0 || ed < 0 || s === undefined || e === undefined) {
        report.push({
          at: `${at}.restrictions[${k}]`,
          problem: 'has a day or time out of range: the rotation was skipped',
        })
        return null
      }
      // One continuous window from the start day and time to the end's (a week round when the end is not after it).
      let minutes = (ed * 1440 + e - (sd * 1440 + s) + 7 * 1440) % (7 * 1440)
      if (minutes === 0) {
        minutes = 7 * 1440
        report.push({
          at: `${at}.restrictions[${k}]`,
          problem: 'ends when it starts: taken as the whole week round (Opsgenie does not document it)',
        })
      }
      if (minutes >= 7 * 1440) return []
      out.push(...weeklyWindow(sd, s, minutes))
    }
    return out
  }
  report.push({
    at,
    problem: 'is not a time-of-day nor a weekday-and-time-of-day restriction: the rotation was skipped',
  })
  return null
}

function override(
  o: Json,
  at: string,
  person: (r: Json) => string | undefined,
  report: ReportLine[],
): Override | undefined {
  const user = isObject(o['user']) && o['user']['type'] === 'user' ? person(o['user']) : undefined
  if (!user) return void report.push({ at, problem: 'is not for a user (e.g. "none"): not imported' })
  const from = typeof o['startDate'] === 'string' ? new Date(o['startDate']) : undefined
  const to = typeof o['endDate'] === 'string' ? new Date(o['endDate']) : undefined
  if (!from || !to || Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()))
    return void report.push({ at, problem: 'has no readable startDate and endDate: not imported' })
  const only = Array.isArray(o['rotations']) ? o['rotations'] : []
  if (only.length > 0)
    report.push({
      at,
      problem: `applies only to some rotations (${only.map((r) => JSON.stringify(isObject(r) ? (r['name'] ?? r['id']) : r)).join(', ')}): a Sluice override replaces whoever is on call in the schedule`,
    })
  return { responder: user, from: from.toISOString(), to: to.toISOString() }
}

function escalation(
  e: Json,
  at: string,
  person: (r: Json) => string | undefined,
  report: ReportLine[],
): PlannedPolicy | undefined {
  const id = text(e['id']) ?? text(e['name'])
  if (!id) return void report.push({ at, problem: 'has no id nor name: skipped' })
  // Rules by their delay from the alert's creation; those of one delay page together.
  const byDelay = new Map<number, EscalationTarget[]>()
  listOf(e['rules'], `${at}.rules`, report).forEach((r, k) => {
    const where = `${at}.rules[${k}]`
    const delay = isObject(r['delay']) ? r['delay'] : {}
    const amount = typeof delay['timeAmount'] === 'number' ? delay['timeAmount'] : 0
    const unit = MINUTES[text(delay['timeUnit']) ?? 'minutes']
    if (unit === undefined || !(amount >= 0))
      return report.push({ at: where, problem: 'has a delay Sluice cannot read: skipped' })
    const minutes = Math.ceil(amount * unit)
    if (minutes !== amount * unit)
      report.push({ at: where, problem: `its delay is not whole minutes: taken as ${minutes} minutes` })
    if (r['condition'] === 'if-not-closed')
      report.push({
        at: where,
        problem: 'fires while the alert is not closed; Sluice stops escalating once the incident is acknowledged',
      })
    if (r['notifyType'] !== undefined && r['notifyType'] !== 'default')
      report.push({
        at: where,
        problem: `notifies ${JSON.stringify(r['notifyType'])}: Sluice pages the recipient as Opsgenie's "default" does`,
      })
    const recipient = isObject(r['recipient']) ? r['recipient'] : {}
    const target = targetOf(recipient, person)
    if (!target)
      return report.push({
        at: where,
        problem: `its recipient is a ${JSON.stringify(recipient['type'])}, which Sluice cannot page: skipped`,
      })
    byDelay.set(minutes, [...(byDelay.get(minutes) ?? []), target])
  })
  const delays = [...byDelay.keys()].sort((a, b) => a - b)
  if (delays.length === 0) return void report.push({ at, problem: 'has no rule Sluice can take: skipped' })
  if (delays[0]! > 0)
    report.push({
      at,
      problem: `its first rule waits ${delays[0]} minutes after the alert; Sluice pages a policy's first step at once`,
    })
  const repeat = isObject(e['repeat']) ? e['repeat'] : {}
  const runs = count(repeat['count']) ?? 0
  const repeatWait = typeof repeat['waitInterval'] === 'number' ? Math.ceil(repeat['waitInterval']) : 0
  if (runs > ESCALATION_LIMITS.repeat)
    report.push({
      at,
      problem: `repeats ${runs} times; Sluice repeats a policy ${ESCALATION_LIMITS.repeat} times at most`,
    })
  if (repeat['resetRecipientStates'] === true || repeat['closeAlertAfterAll'] === true)
    report.push({ at, problem: 'resets recipient states or closes the alert after repeating: Sluice does neither' })
  const steps: EscalationStep[] = delays.map((d, k) => {
    const targets = byDelay.get(d)!
    if (targets.length > ESCALATION_LIMITS.targetsPerStep)
      report.push({
        at,
        problem: `pages ${targets.length} recipients at ${d} minutes; a Sluice step pages ${ESCALATION_LIMITS.targetsPerStep}: the rest were left out`,
      })
    const next = delays[k + 1]
    const wait = next === undefined ? (runs > 0 ? repeatWait : 0) : next - d
    return {
      targets: targets.slice(0, ESCALATION_LIMITS.targetsPerStep),
      waitMinutes: Math.min(wait, ESCALATION_LIMITS.waitMinutes),
    }
  })
  return {
    sourceId: id,
    from: at,
    definition: {
      name: (text(e['name']) ?? id).slice(0, 200),
      steps: steps.slice(0, ESCALATION_LIMITS.steps),
      ...(runs > 0 && { repeat: Math.min(runs, ESCALATION_LIMITS.repeat) }),
    },
  }
}

function targetOf(r: Json, person: (r: Json) => string | undefined): EscalationTarget | undefined {
  const ref = text(r['id']) ?? text(r['name'])
  if (r['type'] === 'user') {
    const id = person(r)
    return id ? { kind: 'user', id } : undefined
  }
  if (r['type'] === 'schedule' && ref) return { kind: 'schedule', id: ref }
  if (r['type'] === 'escalation' && ref) return { kind: 'policy', id: ref }
  return undefined
}
