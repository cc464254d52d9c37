// Escalation policies and responders' contact methods of an account: saved when they mean something (every target
// exists: schedules, users, destinations, policies; no loop of policies handing over to each other; contact methods
// through destinations of their kind), and the account's default policy (the one an incident follows when no rule
// gives it one). Running escalations are the escalation job's (jobs/escalation.job.ts).
import { lazy } from '../shared/lazy.js'
import { Ajv } from 'ajv'
import { PolicySchema, policyProblems, type PolicyDefinition } from '../pipeline/oncall/escalation.js'
import { ProfileSchema, profileProblems, type ResponderProfile } from '../pipeline/oncall/responders.js'
import type { StoredDestination } from '../pipeline/notify/destinations.js'
import { invalid, Refusal, type FieldProblem } from '../shared/errors.js'
import { fieldProblems } from '../shared/field-problems.js'
import type { DirectoryStore } from '../state/redis/directory.js'
import type { EscalationState, EscalationStore } from '../state/redis/escalations.js'
import type { RedisStores } from '../state/redis/index.js'
import type { OnCallStore, StoredPolicy, StoredProfile } from '../state/redis/oncall.js'
import { ESCALATION_LIMITS } from '../pipeline/oncall/escalation.js'

export type { PolicyDefinition, ResponderProfile }

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true })
const validPolicy = lazy(() => ajv.compile(PolicySchema))
const validProfile = lazy(() => ajv.compile(ProfileSchema))

export interface EscalationDeps {
  readonly oncall: OnCallStore
  readonly escalations: EscalationStore
  readonly directory: DirectoryStore
  /** The account's notification destinations. */
  readonly destinations: (accountId: string) => Promise<readonly StoredDestination[]>
  /** The escalation policy ids the account's rules name. */
  readonly rulePolicies: (accountId: string) => Promise<ReadonlySet<string>>
}

export class EscalationService {
  constructor(private readonly deps: EscalationDeps) {}

  list(accountId: string): Promise<StoredPolicy[]> {
    return this.deps.oncall.policies(accountId)
  }

  async get(accountId: string, id: string): Promise<StoredPolicy> {
    const policy = await this.deps.oncall.policy(accountId, id)
    if (!policy) throw new Refusal('NOT_FOUND', `no escalation policy ${id}`)
    return policy
  }

  /** Saves a new policy (id undefined) or a policy's new version; 400s name the field, 409 a stale version. */
  async save(
    accountId: string,
    body: PolicyDefinition & { version?: number },
    updatedBy: string,
    id?: string,
  ): Promise<StoredPolicy> {
    const { version, ...policy } = body
    const problems = await this.problems(accountId, policy, id)
    if (problems.length > 0) throw invalid(problems, 'the policy was not saved')
    const saved = await this.deps.oncall.savePolicy(accountId, policy, updatedBy, id, version)
    if (saved === 'missing') throw new Refusal('NOT_FOUND', `no escalation policy ${id}`)
    if (saved === 'stale')
      throw new Refusal('CONFLICT', `policy ${id} changed since version ${version}: read it again, then replace it`)
    if (saved === 'full')
      throw new Refusal(
        'CONFLICT',
        `this account has ${ESCALATION_LIMITS.policies} escalation policies, the most it may keep`,
      )
    return saved
  }

  /**
   * What keeps a policy (new, or the new version of `id`) from being saved, each naming its field. `pending`: schedules
   * and policies about to be made (an import's dry run), taken as the account's.
   */
  async problems(
    accountId: string,
    policy: PolicyDefinition,
    id?: string,
    pending: ReadonlyMap<string, PolicyDefinition | 'schedule'> = new Map(),
  ): Promise<FieldProblem[]> {
    const valid = validPolicy()
    if (!valid(policy)) return fieldProblems(valid.errors ?? [], 'body')
    const others = new Map((await this.deps.oncall.policies(accountId)).map((p) => [p.id, p as PolicyDefinition]))
    for (const [k, v] of pending) if (v !== 'schedule') others.set(k, v)
    others.delete(id ?? '')
    const problems = policyProblems(id, policy, others)
    problems.push(...(await this.unknownTargets(accountId, policy, pending)))
    return problems
  }

  /** Targets of a policy's steps that are not the account's (handovers are checked by policyProblems). */
  private async unknownTargets(
    accountId: string,
    policy: PolicyDefinition,
    pending: ReadonlyMap<string, unknown>,
  ): Promise<FieldProblem[]> {
    const targets = policy.steps.flatMap((s, i) =>
      s.targets.map((t, j) => ({ ...t, field: `steps[${i}].targets[${j}].id` })),
    )
    const userIds = [...new Set(targets.filter((t) => t.kind === 'user').map((t) => t.id))]
    const [users, schedules, destinations] = await Promise.all([
      this.deps.directory.usersById(accountId, userIds),
      targets.some((t) => t.kind === 'schedule') ? this.deps.oncall.schedules(accountId) : [],
      targets.some((t) => t.kind === 'destination') ? this.deps.destinations(accountId) : [],
    ])
    const known = {
      user: new Set(users.map((u) => u.id)),
      schedule: new Set(schedules.map((s) => s.id)),
      destination: new Set(destinations.map((d) => d.id)),
    }
    const what = { user: 'a user', schedule: 'a schedule', destination: 'a notification destination' }
    return targets.flatMap((t) =>
      t.kind === 'policy' || known[t.kind].has(t.id) || pending.has(t.id)
        ? []
        : [{ field: t.field, problem: `${JSON.stringify(t.id)} is not ${what[t.kind]} of this account` }],
    )
  }

  /** Removes a policy no other policy hands over to and no rule names (409 naming them otherwise). */
  async remove(accountId: string, id: string): Promise<void> {
    const policies = await this.deps.oncall.policies(accountId)
    const from = policies.filter((p) => p.steps.some((s) => s.targets.some((t) => t.kind === 'policy' && t.id === id)))
    if (from.length > 0)
      throw new Refusal(
        'CONFLICT',
        `policies ${from.map((p) => JSON.stringify(p.name)).join(', ')} hand over to this one: change them first`,
      )
    if ((await this.deps.rulePolicies(accountId)).has(id))
      throw new Refusal('CONFLICT', 'an alert rule escalates by this policy (escalate): change the rules first')
    if (!(await this.deps.oncall.removePolicy(accountId, id)))
      throw new Refusal('NOT_FOUND', `no escalation policy ${id}`)
  }

  defaultPolicy(accountId: string): Promise<string | undefined> {
    return this.deps.oncall.defaultPolicy(accountId)
  }

  /** Sets (or, with null, clears) the policy incidents follow when no rule gives them one. */
  async setDefaultPolicy(accountId: string, id: string | null): Promise<void> {
    if (id !== null) await this.get(accountId, id)
    await this.deps.oncall.setDefaultPolicy(accountId, id ?? undefined)
  }

  async profile(accountId: string, userId: string): Promise<StoredProfile> {
    await this.user(accountId, userId)
    return (
      (await this.deps.oncall.profile(accountId, userId)) ?? { userId, contactMethods: [], rules: [], updatedAt: 0 }
    )
  }

  /** Replaces a responder's contact methods and notification rules; 400s name the field. */
  async saveProfile(accountId: string, userId: string, body: ResponderProfile): Promise<StoredProfile> {
    await this.user(accountId, userId)
    const valid = validProfile()
    if (!valid(body)) throw invalid(fieldProblems(valid.errors ?? [], 'body'), 'the contact methods were not saved')
    const problems = profileProblems(body)
    const destinations = new Map((await this.deps.destinations(accountId)).map((d) => [d.id, d]))
    body.contactMethods.forEach((m, i) => {
      const id = m.kind === 'webhook' ? m.destinationId : m.via
      const field = `contactMethods[${i}].${m.kind === 'webhook' ? 'destinationId' : 'via'}`
      if (id === undefined) return
      const d = destinations.get(id)
      if (!d) problems.push({ field, problem: `${JSON.stringify(id)} is not a notification destination` })
      else if (d.kind !== m.kind) problems.push({ field, problem: `${JSON.stringify(id)} is a ${d.kind} destination` })
    })
    for (const [i, m] of body.contactMethods.entries()) {
      if (m.kind !== 'slack') continue
      const holder = await this.deps.oncall.responderBySlackMember(accountId, m.memberId)
      if (holder && holder.userId !== userId)
        problems.push({ field: `contactMethods[${i}].memberId`, problem: `is the Slack member of another responder` })
    }
    if (problems.length > 0) throw invalid(problems, 'the contact methods were not saved')
    return this.deps.oncall.saveProfile(accountId, userId, body)
  }

  /** Where an incident's escalation is, if it is running. */
  running(accountId: string, incidentId: string): Promise<EscalationState | undefined> {
    return this.deps.escalations.state(accountId, incidentId)
  }

  private async user(accountId: string, userId: string): Promise<void> {
    if ((await this.deps.directory.usersById(accountId, [userId])).length === 0)
      throw new Refusal('NOT_FOUND', `no user ${userId} in this account`)
  }
}

/** The service over the Redis stores (the API's and the command's). */
export function escalationService(state: RedisStores): EscalationService {
  return new EscalationService({
    oncall: state.oncall,
    escalations: state.escalations,
    directory: state.directory,
    destinations: async (accountId) => (await state.notify.destinations(accountId)).list,
    rulePolicies: async (accountId) =>
      new Set((await state.rulesAndWindows.rules(accountId)).rules.flatMap((r) => (r.escalate ? [r.escalate] : []))),
  })
}
