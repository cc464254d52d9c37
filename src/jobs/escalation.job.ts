// The escalation job: fires the due steps of running escalations. A step pages its targets: a notification destination
// as such; a responder (or whoever is on call in a schedule when it fires) by their contact methods, per their
// notification rules for the incident's urgency, each through a destination (the responder's webhook destination, or
// an email or Slack destination of the account); then the escalation waits the step's minutes for the next step, runs
// the policy again while it has runs left, or goes on in the policy a step hands over to. Pages are deliveries of the
// notify role (its retries, limits, breaker and dead letter), made in the same script call that moves the escalation on
// and writes the step on the incident's timeline (state/redis/escalations.ts): each step fires once. Exclusive (one
// process holds its lease); a step claimed by a process killed before firing it fires after its claim's lease.
// Accounts take turns: each round claims at most SHARE due steps of every account with steps due, so an account's
// storm of escalations delays another account's step by one round, not by its own firing time. A tick ends after
// TICK_MS (the rest is due at the next, which reads again which accounts have steps due, so a step that came due
// meanwhile waits at most a tick behind a backlog, not the backlog); a round cut short goes on from the account after
// the last served. An account runs at most `perAccount` escalations (an incident past it is not escalated, and its
// timeline says why).
import { deliveryId } from '../pipeline/notify/messages.js'
import { nextPosition, type PolicyDefinition } from '../pipeline/oncall/escalation.js'
import { pagesOf, urgencyOf } from '../pipeline/oncall/responders.js'
import { shifts } from '../pipeline/oncall/schedules.js'
import type { DestinationKind, StoredDestination } from '../pipeline/notify/destinations.js'
import type { Logger } from '../shared/logger.js'
import { isActive, type DirectoryStore } from '../state/redis/directory.js'
import type { ClaimedStep, EscalationState, EscalationStore } from '../state/redis/escalations.js'
import type { IncidentTimelineEntry, PagedTarget } from '../state/redis/incidents.js'
import type { NewDelivery, NotifyStore, PageData } from '../state/redis/notify.js'
import type { OnCallStore, StoredPolicy, StoredProfile } from '../state/redis/oncall.js'
import type { Job } from './runner.js'

/** Handovers one escalation follows at most (loops are refused when saved; this bounds one saved in a race). */
export const MAX_HANDOVERS = 10
/** Steps claimed of one account per round, accounts claimed from at once, and steps fired at once. */
const SHARE = 20
const ACCOUNTS_AT_ONCE = 10
const AT_ONCE = 20
/** How long one tick fires steps before it leaves the rest to the next. */
const TICK_MS = 1000

export interface EscalationJobOptions {
  /** How long a claimed step is held by its process before another may fire it. */
  readonly leaseMs: number
  /** Pages still failing this long after they were made go to the dead letter. */
  readonly giveUpMs: number
  /** How long pages (deliveries) and the start markers are kept. */
  readonly retentionMs: number
  readonly everyMs: number
  /** Escalations an account may run at once (SLUICE_ESCALATIONS_PER_ACCOUNT). */
  readonly perAccount: number
  readonly log: Logger
  /** Told of each step fired: how late it fired (ms after it was due), and its account. */
  readonly onFired?: (latenessMs: number, accountId: string) => void
}

/** What one tick reads of an account once, for every step of it. */
interface AccountView {
  readonly policies: Map<string, StoredPolicy | undefined>
  /** Each schedule's on-call responder at the tick's time ('' : no one), or undefined: no such schedule. */
  readonly onCall: Map<string, { name: string; who: string } | undefined>
  destinations?: StoredDestination[]
}

export class EscalationJob implements Job {
  readonly name = 'escalation'
  readonly exclusive = true
  /**
   * Takes its lease as the process starts; its first tick moves the escalations of the former shared due set
   * (EscalationStore.migrate).
   */
  readonly atStart = true
  readonly everyMs: number
  private migrated = false
  /** The last account served by a tick: the next begins after it. */
  private lastServed = ''
  /** When each account at its cap was last said to be (the log's warning). */
  private readonly capWarnedAt = new Map<string, number>()

  constructor(
    private readonly escalations: EscalationStore,
    private readonly oncall: OnCallStore,
    private readonly notify: NotifyStore,
    private readonly directory: DirectoryStore,
    private readonly options: EscalationJobOptions,
  ) {
    this.everyMs = options.everyMs
  }

  /**
   * Starts the escalation of an incident that opened, once: by the policy its rules gave, else the account's default
   * (none: nothing escalates). Its first step is due at once.
   */
  async start(s: {
    accountId: string
    incidentId: string
    policyId?: string
    alert: EscalationState['alert']
    now: number
  }): Promise<void> {
    const policyId = s.policyId ?? (await this.oncall.defaultPolicy(s.accountId))
    if (!policyId) return
    const { accountId, incidentId, alert, now } = s
    const state: EscalationState = {
      accountId,
      incidentId,
      policyId,
      round: 0,
      step: 0,
      seq: 0,
      dueAt: now,
      startedAt: now,
      handovers: 0,
      alert,
    }
    const { perAccount: cap, retentionMs: ttlMs, log } = this.options
    const problem = `the account has ${cap} escalations running (SLUICE_ESCALATIONS_PER_ACCOUNT)`
    const refusal: IncidentTimelineEntry = {
      event: 'not-escalated',
      at: now,
      policyId,
      paged: [{ kind: 'policy', id: policyId, problem }],
    }
    if ((await this.escalations.start(state, { ttlMs, cap, refusal })) !== 'full') return
    // Once a minute per account at most: an account at its cap may open incidents by the hundred a second.
    if (now - (this.capWarnedAt.get(accountId) ?? -Infinity) < 60_000) return
    this.capWarnedAt.set(accountId, now)
    log.warn({ accountId, incidentId, policyId, cap }, 'incidents are not escalated: the account is at its cap')
  }

  async tick(now: number, stopping: () => boolean): Promise<void> {
    if (!this.migrated) {
      const moved = await this.escalations.migrate()
      if (moved > 0) this.options.log.info({ moved }, 'running escalations moved to their accounts’ due sets')
      this.migrated = true
    }
    const views = new Map<string, AccountView>()
    const ends = performance.now() + TICK_MS
    const over = () => stopping() || performance.now() > ends
    const due = (await this.escalations.dueAccounts(now)).sort()
    const from = Math.max(
      0,
      due.findIndex((a) => a > this.lastServed),
    )
    // Rounds: every account with steps due gives up to SHARE of them; those that gave SHARE have more.
    for (let accounts = [...due.slice(from), ...due.slice(0, from)]; accounts.length > 0 && !over();) {
      const more: string[] = []
      for (let i = 0; i < accounts.length && !over(); i += ACCOUNTS_AT_ONCE) {
        const some = accounts.slice(i, i + ACCOUNTS_AT_ONCE)
        this.lastServed = some[some.length - 1]!
        const claims = await Promise.all(some.map((a) => this.escalations.claim(a, now, this.options.leaseMs, SHARE)))
        claims.forEach((c, k) => c.length === SHARE && more.push(some[k]!))
        const claimed = claims.flat()
        for (let j = 0; j < claimed.length; j += AT_ONCE)
          await Promise.all(claimed.slice(j, j + AT_ONCE).map((c) => this.fireLogged(c, now, views)))
      }
      accounts = more
    }
  }

  private async fireLogged(c: ClaimedStep, now: number, views: Map<string, AccountView>): Promise<void> {
    try {
      await this.fire(c, now, views)
    } catch (err) {
      // Left claimed: it fires again after its lease.
      this.options.log.warn(
        { err, accountId: c.state.accountId, incidentId: c.state.incidentId },
        'an escalation step could not fire; it is tried again after its lease',
      )
    }
  }

  private async fire(c: ClaimedStep, now: number, views: Map<string, AccountView>): Promise<void> {
    const s = c.state
    const view = views.get(s.accountId) ?? { policies: new Map(), onCall: new Map() }
    views.set(s.accountId, view)
    const policy = await this.policyOf(s.accountId, s.policyId, view)
    const step = policy?.steps[s.step]
    const paged: PagedTarget[] = []
    const deliveries: NewDelivery[] = []
    if (!policy || !step)
      paged.push({ kind: 'policy', id: s.policyId, problem: 'the escalation policy (or this step of it) was removed' })
    else {
      const page = (destination: StoredDestination, target: string, extra: Partial<PageData>, afterMs = 0) => {
        const data: PageData = { policyId: s.policyId, round: s.round, step: s.step, ...extra }
        // Due by the notify role's clock (the wall clock), whatever clock the step fired by.
        const dueAt = Date.now() + afterMs
        deliveries.push({
          id: deliveryId(s.incidentId, 'escalation', String(s.seq), target),
          data: {
            accountId: s.accountId,
            destinationId: destination.id,
            alertId: s.alert.id,
            entryId: '',
            event: 'triggered',
            alert: s.alert,
            incidentId: s.incidentId,
            page: data,
          },
          dueAt,
          giveUpAt: dueAt + this.options.giveUpMs,
        })
      }
      const users: { id: string; schedule?: string }[] = []
      for (const t of step.targets) {
        if (t.kind === 'destination') {
          const d = (await this.destinationsOf(s.accountId, view)).find((x) => x.id === t.id)
          if (!d?.enabled) paged.push({ kind: t.kind, id: t.id, problem: 'no such enabled destination' })
          else {
            page(d, `destination\n${d.id}`, {})
            paged.push({ kind: t.kind, id: t.id, name: d.name })
          }
        } else if (t.kind === 'user') users.push({ id: t.id })
        else if (t.kind === 'schedule') {
          const onCall = await this.onCallOf(s.accountId, t.id, now, view)
          if (!onCall) paged.push({ kind: t.kind, id: t.id, problem: 'no such schedule' })
          else if (!onCall.who) paged.push({ kind: t.kind, id: t.id, name: onCall.name, problem: 'no one is on call' })
          else users.push({ id: onCall.who, schedule: t.id })
        } else {
          const to = await this.policyOf(s.accountId, t.id, view)
          paged.push({ kind: t.kind, id: t.id, ...(to ? { name: to.name } : { problem: 'no such policy' }) })
        }
      }
      const ids = [...new Set(users.map((u) => u.id))]
      const profiles = await this.oncall.profiles(s.accountId, ids)
      const names = new Map((await this.directory.usersById(s.accountId, ids)).map((u) => [u.id, u]))
      // The incident's urgency is its severity now (an alert more severe than the one that opened it may have joined),
      // read when someone is paged by it. (Whether it is still triggered, the fire script decides.)
      const incident = users.length > 0 ? await this.escalations.incident(s.accountId, s.incidentId) : undefined
      const urgency = urgencyOf(incident?.severity ?? s.alert.severity)
      for (const u of users) {
        const user = names.get(u.id)
        const who: PagedTarget = {
          kind: 'user',
          id: u.id,
          ...(user ? { name: user.displayName ?? user.userName } : {}),
          ...(u.schedule ? { schedule: u.schedule } : {}),
        }
        const pages = pagesOf(profiles.get(u.id) ?? { contactMethods: [], rules: [] }, urgency)
        if (!user || !isActive(user)) paged.push({ ...who, problem: 'is no longer an active user of this account' })
        else if (pages.length === 0) paged.push({ ...who, problem: `has no contact method for ${urgency} urgency` })
        for (const { method, afterMs } of user && isActive(user) ? pages : []) {
          const via = await this.through(s.accountId, view, method)
          const how = { method: `${method.kind}:${method.id}`, afterMinutes: afterMs / 60_000 }
          if (typeof via === 'string') {
            paged.push({ ...who, ...how, problem: via })
            continue
          }
          const extra: Partial<PageData> = {
            userId: u.id,
            ...(method.kind === 'email' ? { to: method.address } : {}),
            ...(method.kind === 'slack' ? { mention: method.memberId } : {}),
          }
          page(via, `user\n${u.id}\n${method.id}\n${afterMs}`, extra, afterMs)
          paged.push({ ...who, ...how, via: via.id })
        }
      }
    }
    const next = policy && step ? this.next(s, policy, paged, now) : undefined
    const outcome = await this.escalations.fire(
      c,
      {
        deliveries,
        entry: { event: 'escalated', at: now, policyId: s.policyId, round: s.round, step: s.step, paged },
        ...(next ? { next } : {}),
        ttlMs: this.options.retentionMs,
      },
      now,
    )
    if (outcome.kind === 'fired') this.options.onFired?.(Math.max(0, now - s.dueAt), s.accountId)
  }

  /** The state after a step: its next position (or the end), its wait counted from when this step was due. */
  private next(
    s: EscalationState,
    policy: PolicyDefinition,
    paged: PagedTarget[],
    now: number,
  ): EscalationState | undefined {
    const after = nextPosition(policy, s)
    if (!after) return undefined
    const handover = after.position.policyId !== s.policyId
    if (handover && s.handovers >= MAX_HANDOVERS) {
      paged.push({ kind: 'policy', id: after.position.policyId, problem: `more than ${MAX_HANDOVERS} handovers` })
      return undefined
    }
    return {
      ...s,
      ...after.position,
      seq: s.seq + 1,
      // From when this step was due (late firing does not push the policy), but never before the next tick: an
      // escalation fires one step per tick, so steps of no wait, or a backlog after an outage, do not storm.
      dueAt: Math.max(s.dueAt + after.afterMs, now + 1),
      handovers: s.handovers + (handover ? 1 : 0),
    }
  }

  /** The destination a contact method's page goes through, or why there is none. */
  private async through(
    accountId: string,
    view: AccountView,
    method: StoredProfile['contactMethods'][number],
  ): Promise<StoredDestination | string> {
    const list = await this.destinationsOf(accountId, view)
    const kind: DestinationKind = method.kind
    const id = method.kind === 'webhook' ? method.destinationId : method.via
    const d = id === undefined ? list.find((x) => x.kind === kind && x.enabled) : list.find((x) => x.id === id)
    if (!d)
      return id === undefined
        ? `the account has no enabled ${kind} destination to send it through`
        : `no destination ${id}`
    if (!d.enabled || d.kind !== kind) return `destination ${d.id} is not an enabled ${kind} destination`
    return d
  }

  private async policyOf(accountId: string, id: string, view: AccountView): Promise<StoredPolicy | undefined> {
    if (!view.policies.has(id)) view.policies.set(id, await this.oncall.policy(accountId, id))
    return view.policies.get(id)
  }

  private async onCallOf(
    accountId: string,
    id: string,
    now: number,
    view: AccountView,
  ): Promise<{ name: string; who: string } | undefined> {
    if (!view.onCall.has(id)) {
      const schedule = await this.oncall.schedule(accountId, id)
      view.onCall.set(id, schedule && { name: schedule.name, who: shifts(schedule, now, now + 1)[0]?.responder ?? '' })
    }
    return view.onCall.get(id)
  }

  private async destinationsOf(accountId: string, view: AccountView): Promise<StoredDestination[]> {
    view.destinations ??= (await this.notify.destinations(accountId)).list
    return view.destinations
  }
}
