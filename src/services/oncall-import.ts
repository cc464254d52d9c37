// Moving from Opsgenie or Grafana OnCall: their API export read (pipeline/oncall/import/*), its people found among the
// account's users (by user name or email), and its schedules and escalation policies made through the same services
// as the API's, each checked as the API checks it. A dry run checks everything and makes nothing. What exists already
// by name is left as it is (an import run again makes nothing twice); what cannot be made is said, with why, and the
// report says what was carried over differently.
import type { ImportPlan, ImportSource, PlannedPolicy, ReportLine } from '../pipeline/oncall/import/plan.js'
import { fromGrafanaOnCall } from '../pipeline/oncall/import/grafana-oncall.js'
import { fromOpsgenie } from '../pipeline/oncall/import/opsgenie.js'
import type { EscalationTarget, PolicyDefinition } from '../pipeline/oncall/escalation.js'
import type { FieldProblem } from '../shared/errors.js'
import type { DirectoryStore } from '../state/redis/directory.js'
import type { EscalationService } from './escalation.js'
import type { OnCallService } from './oncall.js'

export { IMPORT_SOURCES, type ImportSource } from '../pipeline/oncall/import/plan.js'

export interface ImportedItem {
  /** Where in the export. */
  readonly from: string
  readonly name: string
  readonly outcome: 'created' | 'would be created' | 'exists' | 'not imported'
  /** The Sluice id (created or existing). */
  readonly id?: string
  /** Why it was not imported. */
  readonly problems?: readonly string[]
}

export interface ImportOutcome {
  readonly source: ImportSource
  readonly dryRun: boolean
  readonly schedules: readonly ImportedItem[]
  readonly policies: readonly ImportedItem[]
  /** What was carried over differently, or left out. */
  readonly report: readonly ReportLine[]
}

const said = (problems: readonly FieldProblem[]) => problems.map((p) => `${p.field}: ${p.problem}`)

export class OnCallImportService {
  constructor(
    private readonly oncall: OnCallService,
    private readonly escalation: EscalationService,
    private readonly directory: DirectoryStore,
  ) {}

  /** The plan of an export: what it would make, in the source's terms. */
  plan(source: ImportSource, file: unknown, now: number): ImportPlan {
    return source === 'opsgenie' ? fromOpsgenie(file, now) : fromGrafanaOnCall(file, now)
  }

  async run(
    accountId: string,
    source: ImportSource,
    file: unknown,
    opts: { dryRun: boolean; now: number; by: string },
  ): Promise<ImportOutcome> {
    const plan = this.plan(source, file, opts.now)
    const report = [...plan.report]
    // People: the account's active users by user name and email (case aside).
    const users = new Map<string, string>()
    for (const u of await this.directory.users(accountId)) {
      if (u.active === false) continue
      for (const n of [u.userName, ...(u.emails ?? []).map((e) => e.value)]) users.set(n.toLowerCase(), u.id)
    }
    const people = new Map<string, string>()
    for (const p of plan.people) {
      const found = p.names.map((n) => users.get(n.toLowerCase())).find((id) => id !== undefined)
      if (found) people.set(p.id, found)
      else
        report.push({
          at: `people[${JSON.stringify(p.id)}]`,
          problem: `is not a user of this account (${p.names.length > 0 ? `no active user named ${p.names.map((n) => JSON.stringify(n)).join(' or ')}` : 'the export does not say their email'}): provision them, then import again`,
        })
    }
    const unknown = (ids: readonly string[]) => [...new Set(ids.filter((id) => !people.has(id)))]

    // Schedules, by the source's id and name: Sluice ids (created or existing), or a stand-in on a dry run.
    const scheduleIds = new Map<string, string>()
    const existing = new Map((await this.oncall.list(accountId)).map((s) => [s.name, s.id]))
    const schedules: ImportedItem[] = []
    for (const planned of plan.schedules) {
      const { definition } = planned
      const item = { from: planned.from, name: definition.name }
      const known = (id: string) => [planned.sourceId, definition.name].forEach((k) => scheduleIds.set(k, id))
      const there = existing.get(definition.name)
      if (there) {
        known(there)
        schedules.push({ ...item, outcome: 'exists', id: there })
        continue
      }
      const missing = unknown([
        ...definition.layers.flatMap((l) => l.responders),
        ...(definition.overrides ?? []).map((o) => o.responder),
      ])
      if (missing.length > 0) {
        schedules.push({ ...item, outcome: 'not imported', problems: [notUsers(missing)] })
        continue
      }
      const mapped = {
        ...definition,
        layers: definition.layers.map((l) => ({ ...l, responders: l.responders.map((r) => people.get(r)!) })),
        overrides: (definition.overrides ?? []).map((o) => ({ ...o, responder: people.get(o.responder)! })),
      }
      const problems = await this.oncall.problems(accountId, mapped)
      if (problems.length > 0) schedules.push({ ...item, outcome: 'not imported', problems: said(problems) })
      else if (opts.dryRun) {
        known(`(new schedule ${schedules.length + 1})`)
        schedules.push({ ...item, outcome: 'would be created' })
      } else {
        const saved = await this.oncall.save(accountId, mapped, opts.by)
        known(saved.id)
        existing.set(saved.name, saved.id)
        schedules.push({ ...item, outcome: 'created', id: saved.id })
      }
    }

    // Policies: one handed over to before the one that hands over to it.
    const policyIds = new Map<string, string>()
    const havePolicies = new Map((await this.escalation.list(accountId)).map((p) => [p.name, p.id]))
    const pending = new Map<string, PolicyDefinition | 'schedule'>(
      [...scheduleIds.values()].filter((id) => id.startsWith('(new')).map((id) => [id, 'schedule']),
    )
    const policies: ImportedItem[] = []
    let left = [...plan.policies]
    const handovers = (p: PlannedPolicy) =>
      p.definition.steps.flatMap((s) => s.targets.filter((t) => t.kind === 'policy').map((t) => t.id))
    while (left.length > 0) {
      const ready = left.filter((p) => handovers(p).every((h) => policyIds.has(h) || !left.some((q) => owns(q, h))))
      // A loop of handovers: the rest go as they are, and are refused for it.
      const batch = ready.length > 0 ? ready : left
      left = left.filter((p) => !batch.includes(p))
      for (const planned of batch) {
        const { definition } = planned
        const item = { from: planned.from, name: definition.name }
        const known = (id: string) => [planned.sourceId, definition.name].forEach((k) => policyIds.set(k, id))
        const there = havePolicies.get(definition.name)
        if (there) {
          known(there)
          policies.push({ ...item, outcome: 'exists', id: there })
          continue
        }
        const problems: string[] = []
        const target = (t: EscalationTarget): EscalationTarget => {
          const id =
            t.kind === 'user' ? people.get(t.id) : t.kind === 'schedule' ? scheduleIds.get(t.id) : policyIds.get(t.id)
          if (id === undefined)
            problems.push(
              t.kind === 'user'
                ? notUsers([t.id])
                : `pages ${t.kind === 'schedule' ? 'schedule' : 'by policy'} ${JSON.stringify(t.id)}, which was not imported`,
            )
          return { kind: t.kind, id: id ?? t.id }
        }
        const mapped: PolicyDefinition = {
          ...definition,
          steps: definition.steps.map((s) => ({ ...s, targets: s.targets.map(target) })),
        }
        if (problems.length === 0)
          problems.push(...said(await this.escalation.problems(accountId, mapped, undefined, pending)))
        if (problems.length > 0) policies.push({ ...item, outcome: 'not imported', problems: [...new Set(problems)] })
        else if (opts.dryRun) {
          const stand = `(new policy ${policies.length + 1})`
          known(stand)
          pending.set(stand, mapped)
          policies.push({ ...item, outcome: 'would be created' })
        } else {
          const saved = await this.escalation.save(accountId, mapped, opts.by)
          known(saved.id)
          havePolicies.set(saved.name, saved.id)
          policies.push({ ...item, outcome: 'created', id: saved.id })
        }
      }
    }
    return { source, dryRun: opts.dryRun, schedules, policies, report }
  }
}

/** Whether a planned policy is the one a handover names (by the source's id or name). */
const owns = (p: PlannedPolicy, ref: string) => p.sourceId === ref || p.definition.name === ref

const notUsers = (ids: readonly string[]) =>
  `${ids.map((id) => JSON.stringify(id)).join(', ')} ${ids.length === 1 ? 'is not a user' : 'are not users'} of this account (see the report's people)`
