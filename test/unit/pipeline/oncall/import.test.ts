// Moving from Opsgenie and Grafana OnCall: each tool's API export (fixtures built from their public API docs) read as
// Sluice schedules, whose on-call answers at 20+ sample times are those each tool's own documented rules give (worked
// by hand in the *-expected.json files, with the rule each answer follows). Where the tool pages several people at
// once (Opsgenie's overlapping rotations, OnCall's shifts of one level), Sluice pages one of them and the import
// reports the overlap. The escalation policies and the report of what could not be mapped are checked too.
import { readFileSync } from 'node:fs'
import { DateTime } from 'luxon'
import { describe, expect, it } from 'vitest'
import { fromGrafanaOnCall } from '../../../../src/pipeline/oncall/import/grafana-oncall.js'
import { fromOpsgenie } from '../../../../src/pipeline/oncall/import/opsgenie.js'
import { overlaps, type ImportPlan } from '../../../../src/pipeline/oncall/import/plan.js'
import { onCallAt, scheduleProblems } from '../../../../src/pipeline/oncall/schedules.js'

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../fixtures/oncall-import/${name}`, import.meta.url), 'utf8'))

interface Expected {
  readonly schedule: string
  readonly zone: string
  readonly samples: readonly { at: string; onCall: string[]; why: string }[]
}

const NOW = Date.parse('2024-01-01T00:00:00Z')

/** Each sample: the tool's answer against Sluice's, and the overlap reported where the tool pages several. */
function checkSamples(
  plan: ImportPlan,
  expected: Expected,
  together: (a: string, b: string) => boolean = () => true,
): void {
  const planned = plan.schedules.find((s) => s.definition.name === expected.schedule)!
  expect(planned).toBeDefined()
  expect(scheduleProblems(planned.definition)).toEqual([])
  const email = new Map(plan.people.map((p) => [p.id, p.names.find((n) => n.includes('@'))]))
  const def = planned.definition
  // Where the tool has several layers on call together.
  const found = overlaps(
    def,
    NOW,
    NOW + 8 * 7 * 86_400_000,
    (a, b) => together(def.layers[a]!.name, def.layers[b]!.name),
    Infinity,
  )
  expect(expected.samples.length).toBeGreaterThanOrEqual(20)
  for (const sample of expected.samples) {
    const at = DateTime.fromISO(sample.at, { zone: expected.zone }).toMillis()
    const who = onCallAt(def, at)
    const answer = who === undefined ? undefined : email.get(who)
    const why = `${sample.at}: ${sample.why}`
    if (sample.onCall.length === 0) expect(answer, why).toBeUndefined()
    else if (sample.onCall.length === 1) expect(answer, why).toBe(sample.onCall[0])
    else {
      // The tool pages them all; Sluice pages one of them (the higher layer's), and says so in the report.
      expect(sample.onCall, why).toContain(answer)
      const overlap = found.find((o) => o.from <= at && at < o.to)
      expect(overlap, why).toBeDefined()
      const names = overlap!.layers.map((k) => def.layers[k]!.name)
      expect(
        plan.report.some((r) => r.at === planned.from && names.every((n) => r.problem.includes(JSON.stringify(n)))),
        why,
      ).toBe(true)
    }
  }
  // And where the tool pages one, its layers are not on call together.
  for (const sample of expected.samples.filter((s) => s.onCall.length === 1)) {
    const at = DateTime.fromISO(sample.at, { zone: expected.zone }).toMillis()
    expect(
      found.some((o) => o.from <= at && at < o.to),
      sample.at,
    ).toBe(false)
  }
}

const problemsAt = (plan: ImportPlan, at: string) =>
  plan.report.filter((r) => r.at.startsWith(at)).map((r) => r.problem)

describe('Opsgenie', () => {
  const plan = fromOpsgenie(fixture('opsgenie-export.json'), NOW)

  it("gives Opsgenie's on-call answers at each sample time", () => {
    checkSamples(plan, fixture('opsgenie-expected.json') as Expected)
  })

  it('maps rotations to layers, restrictions to the schedule’s wall clock, overrides to instants', () => {
    const ops = plan.schedules.find((s) => s.sourceId === 'sched-1')!.definition
    expect(ops.timeZone).toBe('Europe/Berlin')
    expect(ops.layers.map((l) => [l.name, l.start, l.end, l.rotation.unit, l.rotation.length])).toEqual([
      ['Days', '2024-01-01T09:00', undefined, 'days', 1],
      ['Nights', '2024-01-01T18:00', undefined, 'weeks', 1],
      ['Weekend backup', '2024-01-06T10:00', '2024-01-15T01:00', 'weeks', 1],
    ])
    expect(ops.layers[1]!.restrictions).toEqual([
      { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '18:00', to: '09:00' },
    ])
    // Saturday 10:00 to Sunday 16:00, one window: a day from Saturday 10:00, then Sunday 10:00 to 16:00.
    expect(ops.layers[2]!.restrictions).toEqual([
      { days: ['sat'], from: '10:00', to: '10:00' },
      { days: ['sun'], from: '10:00', to: '16:00' },
    ])
    expect(ops.overrides).toEqual([
      { responder: 'u-bob', from: '2024-01-03T09:00:00.000Z', to: '2024-01-03T13:00:00.000Z' },
    ])
  })

  it('reports what it could not map, naming the place', () => {
    expect(problemsAt(plan, 'schedules["retired"]')).toEqual(['is disabled in Opsgenie: not imported'])
    const db = problemsAt(plan, 'schedules["db_secondary"].rotations["Business hours"].participants')
    expect(db).toHaveLength(2)
    expect(db[0]).toMatch(/"none" \(a turn with no one on call\)/)
    expect(db[1]).toMatch(/is a "team", not a user/)
    expect(problemsAt(plan, 'schedules["ops_primary"].overrides["ovr-2"]')).toEqual([
      'is not for a user (e.g. "none"): not imported',
    ])
    // Monday 09:00 to Friday 17:00 in New York: one window of four days and eight hours.
    const db2 = plan.schedules.find((s) => s.sourceId === 'sched-2')!.definition
    expect(db2.layers[0]!.restrictions).toEqual([
      { days: ['mon', 'tue', 'wed', 'thu'], from: '09:00', to: '09:00' },
      { days: ['fri'], from: '09:00', to: '17:00' },
    ])
    expect(db2.layers[0]!.start).toBe('2024-01-01T09:00')
    expect(db2.layers[0]!.responders).toEqual(['u-alice', 'u-henry'])
  })

  it('groups escalation rules by delay into steps, with repeats and handovers', () => {
    const ops = plan.policies.find((p) => p.sourceId === 'esc-1')!.definition
    expect(ops).toEqual({
      name: 'ops_escalation',
      steps: [
        { targets: [{ kind: 'schedule', id: 'sched-1' }], waitMinutes: 10 },
        { targets: [{ kind: 'user', id: 'u-erin' }], waitMinutes: 20 },
        { targets: [{ kind: 'policy', id: 'esc-2' }], waitMinutes: 5 },
      ],
      repeat: 2,
    })
    const managers = plan.policies.find((p) => p.sourceId === 'esc-2')!.definition
    expect(managers.steps).toEqual([
      { targets: [{ kind: 'user', id: 'u-frank' }], waitMinutes: 60 },
      { targets: [{ kind: 'schedule', id: 'ops_primary' }], waitMinutes: 15 },
    ])
    const report = problemsAt(plan, 'escalations["ops_escalation"]')
    expect(report.some((p) => /recipient is a "team"/.test(p))).toBe(true)
    expect(report.some((p) => /notifies "next"/.test(p))).toBe(true)
  })

  it('reads hostile or broken exports without throwing, reporting what it skipped', () => {
    for (const bad of [null, [], 'x', { schedules: 'x' }, { schedules: [1, null, { rotations: {} }] }]) {
      const p = fromOpsgenie(bad, NOW)
      expect(p.schedules).toEqual([])
      expect(p.report.length).toBeGreaterThan(0)
    }
    const hostile = fromOpsgenie(
      {
        schedules: [
          {
            id: '__proto__',
            name: 'x',
            timezone: 'Mars/Olympus',
            rotations: [],
          },
          {
            id: 's',
            name: 'y',
            timezone: 'UTC',
            rotations: [
              { name: 'r', type: 'weekly', length: 0, startDate: '2024-01-01T00:00:00Z', participants: [] },
              {
                name: 'q',
                type: 'daily',
                startDate: 'not a date',
                participants: [{ type: 'user', id: 'u' }],
              },
              {
                name: 'z',
                type: 'daily',
                startDate: '2024-01-01T00:00:00Z',
                participants: [{ type: 'user', id: 'u' }],
                timeRestriction: { type: 'time-of-day', restriction: { startHour: 99, endHour: 1 } },
              },
            ],
          },
        ],
      },
      NOW,
    )
    expect(hostile.schedules).toEqual([])
    // An override list looked up by a schedule named "constructor" is not Object's.
    const proto = fromOpsgenie(
      {
        schedules: [
          {
            id: 'constructor',
            name: 'c',
            timezone: 'UTC',
            rotations: [
              {
                name: 'r',
                type: 'daily',
                startDate: '2024-01-01T00:00:00Z',
                participants: [{ type: 'user', id: 'u' }],
              },
            ],
          },
        ],
        overrides: {},
      },
      NOW,
    )
    expect(proto.schedules[0]!.definition.overrides).toEqual([])
    expect(proto.report).toEqual([])
    expect(hostile.report.map((r) => r.problem).join('\n')).toMatch(
      /not an IANA zone[\s\S]*length[\s\S]*startDate[\s\S]*out of range/,
    )
  })
})

describe('Grafana OnCall', () => {
  const plan = fromGrafanaOnCall(fixture('grafana-oncall-export.json'), NOW)

  it("gives OnCall's on-call answers at each sample time", () => {
    // Shifts of one level are on call together.
    const levels = new Map(
      (
        fixture('grafana-oncall-export.json') as { on_call_shifts: { results: { name: string; level?: number }[] } }
      ).on_call_shifts.results.map((s) => [s.name, s.level]),
    )
    checkSamples(plan, fixture('grafana-oncall-expected.json') as Expected, (a, b) => levels.get(a) === levels.get(b))
  })

  it('orders layers by level, makes durations restrictions, overrides instants', () => {
    const platform = plan.schedules.find((s) => s.sourceId === 'SWEB1')!.definition
    expect(platform.layers.map((l) => [l.name, l.start, l.end ?? null])).toEqual([
      ['24x7', '2024-01-01T09:00', null],
      ['weekend extra', '2024-01-13T10:00', null],
      ['business', '2024-01-01T09:00', null],
      ['holiday cover', '2024-01-12T18:00', '2024-01-13T06:00'],
    ])
    expect(platform.layers[2]!.restrictions).toEqual([
      { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' },
    ])
    expect(platform.overrides).toEqual([
      { responder: 'UERIN', from: '2024-01-03T11:00:00Z', to: '2024-01-03T13:00:00Z' },
    ])
  })

  it('reports what it could not map, naming the place', () => {
    expect(problemsAt(plan, 'schedules["from a calendar"]')).toEqual([
      'is an iCal schedule (its shifts live at an outside address): not imported',
    ])
    expect(problemsAt(plan, 'schedules["secondary"]').join('\n')).toMatch(/group 2 has 2 users on call together/)
    expect(problemsAt(plan, 'schedules["platform"]').join('\n')).toMatch(
      /layers "24x7" and "weekend extra" are both on call from 2024-01-13T10:00 to 2024-01-13T16:00 \(Europe\/Berlin\) and \d+ more times/,
    )
  })

  it('reads a chain of escalation policies as steps: notify steps page, waits wait, repeat_escalation repeats', () => {
    expect(plan.policies.map((p) => p.definition)).toEqual([
      {
        name: 'platform-escalation',
        steps: [
          { targets: [{ kind: 'schedule', id: 'SWEB1' }], waitMinutes: 15 },
          { targets: [{ kind: 'user', id: 'UERIN' }], waitMinutes: 30 },
        ],
        repeat: 5,
      },
    ])
    const report = problemsAt(plan, 'escalation_chains["platform-escalation"]').join('\n')
    expect(report).toMatch(/"trigger_webhook" step, which Sluice has no equivalent of/)
    expect(report).toMatch(/notifies as "important"/)
  })

  it('reads hostile or broken exports without throwing', () => {
    for (const bad of [
      null,
      { schedules: { results: 'x' } },
      { on_call_shifts: [{ id: 'x', type: 'rolling_users' }] },
    ]) {
      const p = fromGrafanaOnCall(bad, NOW)
      expect(p.schedules).toEqual([])
    }
    const p = fromGrafanaOnCall(
      {
        schedules: [{ id: 'S', name: 's', type: 'web', time_zone: 'Nowhere/Land', shifts: ['A', 'missing'] }],
        on_call_shifts: [
          {
            id: 'A',
            type: 'rolling_users',
            start: '2024-01-01T00:00:00',
            duration: 3600,
            frequency: 'monthly',
            rolling_users: [['U']],
          },
        ],
      },
      NOW,
    )
    expect(p.schedules).toEqual([])
    expect(p.report.map((r) => r.problem).join('\n')).toMatch(/not an IANA zone[\s\S]*monthly[\s\S]*not among/)
  })
})
