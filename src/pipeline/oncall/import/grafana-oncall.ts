// Grafana OnCall's API export read as Sluice schedules and escalation policies (the formats of its public API v1:
// `GET /api/v1/users/`, `/api/v1/schedules/`, `/api/v1/on_call_shifts/`, `/api/v1/escalation_chains/`,
// `/api/v1/escalation_policies/`; docs/on-call.md says how to make the file). The export file: {"users": [...],
// "schedules": [...], "on_call_shifts": [...], "escalation_chains": [...], "escalation_policies": [...]}, each list as
// the API answers it (paginated `results`) or bare.
//
// OnCall's rules (its docs and its code, engine/apps/schedules), and how they map:
// - A shift (rolling_users, recurrent_event, single_event) is a layer: occurrences from `start` every `interval`
//   hours, days or weeks (on `by_day` days for weekly shifts), each on call for `duration`; rolling users take the
//   occurrences' turns group by group from `start_rotation_from_user_index`, from the first occurrence at or after
//   `rotation_start`. A `duration` shorter than the turn becomes restrictions. Times are the shift's `time_zone`, else
//   the schedule's for calendar schedules and UTC for web ones.
// - Where shifts overlap, the higher `level` wins (Sluice: a later layer); shifts of one level that overlap are all on
//   call: reported (Sluice pages the later layer's responder). A group of several users is on call together: Sluice
//   takes the first, reported.
// - An `override` shift is an override (it wins over every level).
// - An escalation chain's policies run in `position` order: notify steps page, `wait` steps wait, and
//   `repeat_escalation` starts again from the first (5 times). Steps Sluice has no equivalent of are reported.
import { DateTime } from 'luxon'
import { WEEKDAYS } from '../../alerts/windows.js'
import { ESCALATION_LIMITS, type EscalationStep, type EscalationTarget } from '../escalation.js'
import type { Layer, Override, Restriction, RotationUnit } from '../schedules.js'
import {
  array,
  count,
  isObject,
  keepLayers,
  listOf,
  named,
  overlapReport,
  text,
  weeklyWindow,
  zoneOf,
  type ImportPlan,
  type Json,
  type PlannedPolicy,
  type PlannedSchedule,
  type ReportLine,
  type SourcePerson,
} from './plan.js'

const UNITS: Record<string, { unit: RotationUnit; minutes: number }> = {
  hourly: { unit: 'hours', minutes: 60 },
  daily: { unit: 'days', minutes: 1440 },
  weekly: { unit: 'weeks', minutes: 10080 },
}
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']
/** How many times OnCall's `repeat_escalation` runs a chain again (MAX_TIMES_REPEAT). */
const ONCALL_REPEATS = 5
const NAIVE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/

/** Reads a Grafana OnCall export; `now` is when overlaps are looked for (the coming weeks). */
export function fromGrafanaOnCall(file: unknown, now: number): ImportPlan {
  const report: ReportLine[] = []
  if (!isObject(file))
    return {
      source: 'grafana-oncall',
      people: [],
      schedules: [],
      policies: [],
      report: [{ at: '(file)', problem: 'is not a JSON object: nothing was read' }],
    }
  const people = new Map<string, SourcePerson>()
  for (const u of listOf(file['users'], 'users', report)) {
    const id = text(u['id'])
    if (id) people.set(id, { id, names: [text(u['email']), text(u['username'])].filter((n) => n !== undefined) })
  }
  const person = (id: unknown) => {
    if (typeof id !== 'string' || id.length === 0) return undefined
    if (!people.has(id)) people.set(id, { id, names: [] })
    return id
  }
  const shiftsById = new Map(
    listOf(file['on_call_shifts'], 'on_call_shifts', report).map((s, i): [string, Json] => [
      text(s['id']) ?? `#${i}`,
      s,
    ]),
  )
  const schedules: PlannedSchedule[] = []
  listOf(file['schedules'], 'schedules', report).forEach((s, i) => {
    const at = `schedules[${named(s, i)}]`
    const id = text(s['id'])
    if (!id) return report.push({ at, problem: 'has no id: skipped' })
    if (s['type'] === 'ical')
      return report.push({ at, problem: 'is an iCal schedule (its shifts live at an outside address): not imported' })
    if (text(s['ical_url_overrides']))
      report.push({ at, problem: 'takes overrides from an iCal address: those were not imported' })
    const timeZone = zoneOf(s['time_zone']) ?? 'UTC'
    if (!zoneOf(s['time_zone']))
      report.push({ at, problem: `its time_zone ${JSON.stringify(s['time_zone'])} is not an IANA zone: UTC was used` })
    const ids = new Set([
      ...(Array.isArray(s['shifts']) ? s['shifts'].filter((x) => typeof x === 'string') : []),
      ...[...shiftsById].filter(([, x]) => x['schedule'] === id).map(([k]) => k),
    ])
    const layers: { level: number; layer: Layer }[] = []
    const overrides: Override[] = []
    for (const sid of ids) {
      const shift = shiftsById.get(sid)
      const where = `${at}.shifts[${JSON.stringify(sid)}]`
      if (!shift) {
        report.push({ at: where, problem: 'is not among the export’s on_call_shifts: skipped' })
        continue
      }
      const zone = zoneOf(shift['time_zone']) ?? (s['type'] === 'calendar' ? timeZone : 'UTC')
      if (shift['type'] === 'override') {
        const o = override(shift, where, zone, person, report)
        if (o) overrides.push(o)
        continue
      }
      const layer = layerOf(shift, where, zone, timeZone, person, report)
      if (layer) layers.push({ level: count(shift['level']) ?? 0, layer })
    }
    // The highest level last (a later layer wins); a stable sort keeps the order of one level.
    layers.sort((a, b) => a.level - b.level)
    const kept = keepLayers(layers, at, report)
    if (kept.length === 0) return report.push({ at, problem: 'has no shift Sluice can take as a layer: skipped' })
    const planned: PlannedSchedule = {
      sourceId: id,
      from: at,
      definition: { name: text(s['name']) ?? id, timeZone, layers: kept.map((l) => l.layer), overrides },
    }
    schedules.push(planned)
    report.push(
      ...overlapReport(
        planned,
        now,
        (a, b) => kept[a]!.level === kept[b]!.level,
        'shifts of one level are all on call in OnCall',
      ),
    )
  })
  const steps = listOf(file['escalation_policies'], 'escalation_policies', report)
  const policies = listOf(file['escalation_chains'], 'escalation_chains', report).flatMap((c, i) => {
    const made = chain(c, `escalation_chains[${named(c, i)}]`, steps, person, report)
    return made ? [made] : []
  })
  return { source: 'grafana-oncall', people: [...people.values()], schedules, policies, report }
}

/** A naive local time of `zone` as an instant, or undefined. */
function instantIn(value: unknown, zone: string): DateTime | undefined {
  if (typeof value !== 'string' || !NAIVE.test(value)) return undefined
  const t = DateTime.fromISO(value, { zone })
  return t.isValid ? t : undefined
}

const wall = (t: DateTime, zone: string) => t.setZone(zone).toFormat("yyyy-MM-dd'T'HH:mm")

/** Whether two zones keep one offset from each other all year (a shift's turns then keep their wall-clock time). */
function sameClock(a: string, b: string, at: DateTime): boolean {
  if (a === b) return true
  return Array.from({ length: 12 }, (_, m) => at.plus({ months: m })).every(
    (t) => t.setZone(a).offset - t.setZone(b).offset === at.setZone(a).offset - at.setZone(b).offset,
  )
}

function layerOf(
  shift: Json,
  at: string,
  zone: string,
  scheduleZone: string,
  person: (id: unknown) => string | undefined,
  report: ReportLine[],
): Layer | undefined {
  const skip = (problem: string) => void report.push({ at, problem: `${problem}: skipped` })
  const type = shift['type']
  if (type !== 'rolling_users' && type !== 'recurrent_event' && type !== 'single_event')
    return skip(`its type ${JSON.stringify(type)} is not rolling_users, recurrent_event, single_event nor override`)
  const start = instantIn(shift['start'], zone)
  if (!start) return skip('its start is not a time YYYY-MM-DDTHH:MM:SS')
  const durationS = typeof shift['duration'] === 'number' && shift['duration'] > 0 ? shift['duration'] : undefined
  if (durationS === undefined) return skip('has no duration')
  const minutes = Math.round(durationS / 60)
  if (!sameClock(zone, scheduleZone, start))
    report.push({
      at,
      problem: `is kept in ${zone}, the schedule in ${scheduleZone}: Sluice hands over at the schedule's wall-clock time, an hour apart from OnCall's while only one of the zones is on summer time`,
    })
  // Who takes the turns: rolling users group by group (from the index), else the shift's users together.
  const groups: unknown[][] =
    type === 'rolling_users' ? array(shift['rolling_users']).map(array) : [array(shift['users'])]
  const from = type === 'rolling_users' ? (count(shift['start_rotation_from_user_index']) ?? 0) : 0
  const rotated =
    groups.length > 0 ? [...groups.slice(from % groups.length), ...groups.slice(0, from % groups.length)] : []
  const responders: string[] = []
  rotated.forEach((g, k) => {
    if (g.length > 1)
      report.push({
        at,
        problem: `${type === 'rolling_users' ? `its group ${k + 1} has` : 'has'} ${g.length} users on call together; a Sluice turn has one: the first (${String(g[0])}) was taken`,
      })
    const id = person(g[0])
    if (id) responders.push(id)
  })
  if (responders.length === 0) return skip('has no user')
  const name = (text(shift['name']) ?? `shift ${at}`).slice(0, 200)
  if (type === 'single_event') {
    const end = start.plus({ minutes })
    return {
      name,
      start: wall(start, scheduleZone),
      end: wall(end, scheduleZone),
      rotation: { unit: 'days', length: 1 },
      responders,
    }
  }
  const frequency = UNITS[String(shift['frequency'])]
  if (!frequency) return skip(`its frequency ${JSON.stringify(shift['frequency'])} is not hourly, daily or weekly`)
  const interval = count(shift['interval'] ?? 1)
  if (interval === undefined || interval < 1) return skip('its interval is not a whole number from 1')
  const nonEmpty = (k: string) => Array.isArray(shift[k]) && (shift[k] as unknown[]).length > 0
  if (nonEmpty('by_month') || nonEmpty('by_monthday')) return skip('repeats by month or day of the month')
  const byDay = nonEmpty('by_day')
    ? [...new Set((shift['by_day'] as unknown[]).map((d) => DAYS.indexOf(String(d))))].sort()
    : []
  if (byDay.includes(-1)) return skip('has a by_day that is not MO to SU')
  const turn = interval * frequency.minutes
  // The first turn: the first occurrence at or after rotation_start.
  let first = start
  const rotationStart = instantIn(shift['rotation_start'], zone)
  if (rotationStart && rotationStart > start) {
    const unit = frequency.unit
    const k = Math.ceil(rotationStart.diff(start, unit).get(unit) / interval - 1e-9)
    first = start.plus({ [unit]: k * interval })
  }
  let restrictions: Restriction[] = []
  // (A daily shift on every day of the week is a daily shift.)
  if (byDay.length > 0 && !(frequency.unit === 'days' && byDay.length === 7)) {
    if (frequency.unit !== 'weeks')
      return skip(
        `turns of a ${String(shift['frequency'])} shift that move on only on its by_day days (Sluice's turns count every day)`,
      )
    if (interval > 1 || minutes > 1440)
      return skip('occurs on some days of every other week, or for more than a day each time')
    const startDay = (start.setZone(zone).weekday + 6) % 7
    const weekStart = Math.max(0, DAYS.indexOf(text(shift['week_start']) ?? 'MO'))
    const firstInWeek = byDay.slice().sort((a, b) => ((a - weekStart + 7) % 7) - ((b - weekStart + 7) % 7))[0]!
    if (startDay !== firstInWeek)
      report.push({
        at,
        problem: `starts on ${WEEKDAYS[startDay]}, not on its week's first day (${WEEKDAYS[firstInWeek]}): OnCall hands over on the week's first day, Sluice a week after the start`,
      })
    const minuteOfDay = start.setZone(zone).hour * 60 + start.setZone(zone).minute
    restrictions = byDay.flatMap((d) => weeklyWindow(d, minuteOfDay, minutes))
  } else if (minutes < turn) {
    const local = start.setZone(zone)
    const minuteOfDay = local.hour * 60 + local.minute
    if (frequency.unit === 'days' && interval === 1)
      restrictions = WEEKDAYS.flatMap((_, d) => weeklyWindow(d, minuteOfDay, minutes))
    else if (frequency.unit === 'weeks' && interval === 1)
      restrictions = weeklyWindow((local.weekday + 6) % 7, minuteOfDay, minutes)
    else
      return skip(
        `is on call ${minutes} minutes of each ${turn}-minute turn, which Sluice's weekly restrictions cannot say`,
      )
  } else if (minutes > turn && responders.length > 1)
    report.push({
      at,
      problem: 'its occurrences overlap (a duration longer than the turn): Sluice hands over at each turn',
    })
  const until = shift['until'] === undefined || shift['until'] === null ? undefined : instantIn(shift['until'], zone)
  if (shift['until'] && !until) report.push({ at, problem: 'its until is not a time: the layer was left open' })
  return {
    name,
    start: wall(first, scheduleZone),
    ...(until && { end: wall(until, scheduleZone) }),
    rotation: { unit: frequency.unit, length: interval },
    responders,
    ...(restrictions.length > 0 && { restrictions: merged(restrictions) }),
  }
}

/** Restrictions of one time span on several days as one restriction with those days. */
function merged(list: Restriction[]): Restriction[] {
  const by = new Map<string, Set<Restriction['days'][number]>>()
  for (const r of list) {
    const key = `${r.from}-${r.to}`
    by.set(key, new Set([...(by.get(key) ?? []), ...r.days]))
  }
  return [...by].map(([key, days]) => ({
    days: WEEKDAYS.filter((d) => days.has(d)),
    from: key.slice(0, 5),
    to: key.slice(6),
  }))
}

function override(
  shift: Json,
  at: string,
  zone: string,
  person: (id: unknown) => string | undefined,
  report: ReportLine[],
): Override | undefined {
  const users = [...array(shift['users']), ...array(shift['rolling_users']).flatMap(array)]
  const user = person(users[0])
  const start = instantIn(shift['start'], zone)
  const seconds = typeof shift['duration'] === 'number' ? shift['duration'] : 0
  if (!user || !start || !(seconds > 0))
    return void report.push({ at, problem: 'is an override with no user, start or duration: not imported' })
  if (new Set(users).size > 1)
    report.push({
      at,
      problem: `overrides with ${new Set(users).size} users; a Sluice override has one: the first was taken`,
    })
  return {
    responder: user,
    from: start.toUTC().toISO({ suppressMilliseconds: true })!,
    to: start.plus({ seconds }).toUTC().toISO({ suppressMilliseconds: true })!,
  }
}

function chain(
  c: Json,
  at: string,
  all: readonly Json[],
  person: (id: unknown) => string | undefined,
  report: ReportLine[],
): PlannedPolicy | undefined {
  const id = text(c['id'])
  if (!id) return void report.push({ at, problem: 'has no id: skipped' })
  const policies = all
    .filter((p) => p['escalation_chain_id'] === id)
    .sort((a, b) => (count(a['position']) ?? 0) - (count(b['position']) ?? 0))
  const steps: { targets: EscalationTarget[]; waitMinutes: number }[] = []
  let leading = 0
  let repeat = 0
  for (const [k, p] of policies.entries()) {
    const where = `${at}.policies[${count(p['position']) ?? k}]`
    const type = String(p['type'])
    if (type === 'wait') {
      const m = Math.ceil((typeof p['duration'] === 'number' ? p['duration'] : 0) / 60)
      if (steps.length > 0) steps.at(-1)!.waitMinutes += m
      else leading += m
      continue
    }
    if (type === 'repeat_escalation') {
      repeat = ONCALL_REPEATS
      if (k < policies.length - 1)
        report.push({
          at: where,
          problem:
            'repeats the chain before its last step: Sluice repeats from the end, so the steps after it were left out',
        })
      break
    }
    const targets: EscalationTarget[] =
      type === 'notify_persons'
        ? (Array.isArray(p['persons_to_notify']) ? p['persons_to_notify'] : []).flatMap((u) => {
            const pid = person(u)
            return pid ? [{ kind: 'user' as const, id: pid }] : []
          })
        : type === 'notify_on_call_from_schedule' && text(p['notify_on_call_from_schedule'])
          ? [{ kind: 'schedule', id: text(p['notify_on_call_from_schedule'])! }]
          : []
    if (targets.length === 0) {
      report.push({
        at: where,
        problem:
          type === 'notify_persons' || type === 'notify_on_call_from_schedule'
            ? 'names no one to notify: skipped'
            : `is a ${JSON.stringify(type)} step, which Sluice has no equivalent of: skipped`,
      })
      continue
    }
    if (p['important'] === true)
      report.push({
        at: where,
        problem: 'notifies as "important": Sluice pages by each responder’s rules for the urgency',
      })
    // No wait since the last notify step: they page together.
    const last = steps.at(-1)
    if (last && last.waitMinutes === 0) last.targets.push(...targets)
    else steps.push({ targets, waitMinutes: 0 })
  }
  if (steps.length === 0) return void report.push({ at, problem: 'has no step Sluice can take: skipped' })
  if (leading > 0)
    report.push({
      at,
      problem: `waits ${leading} minutes before its first step; Sluice pages a policy's first step at once`,
    })
  const out: EscalationStep[] = steps.slice(0, ESCALATION_LIMITS.steps).map((s) => {
    if (s.targets.length > ESCALATION_LIMITS.targetsPerStep || s.waitMinutes > ESCALATION_LIMITS.waitMinutes)
      report.push({
        at,
        problem: `a step pages ${s.targets.length} and waits ${s.waitMinutes} minutes; Sluice's steps page ${ESCALATION_LIMITS.targetsPerStep} and wait ${ESCALATION_LIMITS.waitMinutes} at most: cut to those`,
      })
    return {
      targets: s.targets.slice(0, ESCALATION_LIMITS.targetsPerStep),
      waitMinutes: Math.min(s.waitMinutes, ESCALATION_LIMITS.waitMinutes),
    }
  })
  if (steps.length > ESCALATION_LIMITS.steps)
    report.push({
      at,
      problem: `has ${steps.length} steps; a Sluice policy has ${ESCALATION_LIMITS.steps}: the rest were left out`,
    })
  return {
    sourceId: id,
    from: at,
    definition: { name: (text(c['name']) ?? id).slice(0, 200), steps: out, ...(repeat > 0 && { repeat }) },
  }
}
