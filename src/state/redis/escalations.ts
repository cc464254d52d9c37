// Running escalations: one per incident that a policy pages, each a state (where it is in its policy) and a due time.
// Steps are claimed with a lease and fired by one script call that checks the step is still the one claimed and the
// incident still triggered: each step fires once, whatever process fires it and however often it is claimed.
// Each account's steps are claimed apart, a share per account in turn (jobs/escalation.job.ts), so one account's storm
// of escalations cannot delay another's steps; an account runs at most SLUICE_ESCALATIONS_PER_ACCOUNT at once.
// Keys (P: the account's alert prefix, alert-streams.ts; on a cluster every key of an account shares its slot):
//   P esc:due:<account>                zset "<account>\n<incident>" -> when its next step is due (its lease's end
//                                      while claimed); on a cluster P esc:due (P is the account's)
//   P esc:next                         one Redis: zset account -> when its earliest step is due (lua/escalation-index)
//   P esc:states                       hash "<account>\n<incident>" -> JSON EscalationState
//   P esc:started:<account>:<incident> set once an escalation started (kept as long as deliveries)
//   {admin} esc:accounts               set: accounts that had escalations (a cluster's shards, polled in turn)
//   {admin} jobs:lease:<job>           which process runs an exclusive job (jobs/runner.ts)
import type { NotifiedAlert } from '../../pipeline/notify/messages.js'
import type { EscalationPosition } from '../../pipeline/oncall/escalation.js'
import type { IncidentRecord, IncidentTimelineEntry } from './incidents.js'
import type { NewDelivery, NotifyStore } from './notify.js'
import { alertStreamKeys } from './alert-streams.js'
import { RedisState, type RedisContext } from './redis-state.js'

export interface EscalationState extends EscalationPosition {
  readonly accountId: string
  readonly incidentId: string
  /** Steps fired so far: the step a claim read is fired only while this is unchanged. */
  readonly seq: number
  /** When this step is (was) due: the next one's wait counts from it, so late firing does not push the policy. */
  readonly dueAt: number
  readonly startedAt: number
  /** Policies handed over to so far (a bound against loops saved in a race). */
  readonly handovers: number
  /** The alert that opened the incident, as its pages show it. */
  readonly alert: NotifiedAlert
}

export interface ClaimedStep {
  readonly member: string
  readonly state: EscalationState
}

/** A step's outcome: the deliveries it makes, its timeline entry and what comes after it. */
export interface StepFiring {
  readonly deliveries: readonly NewDelivery[]
  readonly entry: IncidentTimelineEntry
  /** The state after the step, undefined when the escalation ends with it. */
  readonly next?: EscalationState
  readonly ttlMs: number
}

export type StartOutcome = 'started' | 'before' | 'full'

export type FireOutcome = { kind: 'fired' } | { kind: 'stopped'; status: string } | { kind: 'stale' | 'paused' }

export class EscalationStore extends RedisState {
  constructor(
    context: RedisContext,
    private readonly notify: NotifyStore,
  ) {
    super(context)
  }

  keys(accountId: string) {
    const P = alertStreamKeys(this.prefix, this.cluster, accountId).prefix
    return {
      due: this.cluster ? `${P}esc:due` : `${P}esc:due:${accountId}`,
      /** The index of accounts by their earliest due step: one Redis only. */
      index: this.cluster ? '' : `${P}esc:next`,
      states: `${P}esc:states`,
      started: (incidentId: string) => `${P}esc:started:${accountId}:${incidentId}`,
      incidents: `${P}alerts:acct:${accountId}:incidents`,
    }
  }

  private get accountsKey(): string {
    return this.k('esc', 'accounts')
  }

  static member(accountId: string, incidentId: string): string {
    return `${accountId}\n${incidentId}`
  }

  /**
   * Starts an incident's escalation, once ever, unless its account has `cap` running: then `refusal` goes on the
   * incident's timeline instead.
   */
  async start(
    state: EscalationState,
    s: { ttlMs: number; cap: number; refusal: IncidentTimelineEntry },
  ): Promise<StartOutcome> {
    const { accountId, incidentId } = state
    const k = this.keys(accountId)
    if (this.cluster) await this.redis.sadd(this.accountsKey, accountId)
    const started = await this.scripts.escalationStart(
      k.due,
      k.states,
      EscalationStore.member(accountId, incidentId),
      JSON.stringify(state),
      state.dueAt,
      k.started(incidentId),
      s.ttlMs,
      k.index,
      accountId,
      s.cap,
      k.incidents,
      incidentId,
      JSON.stringify(s.refusal),
    )
    return started === 1 ? 'started' : started === 2 ? 'full' : 'before'
  }

  /**
   * The accounts to claim steps of: with one Redis those with a step due by `now`; on a cluster every account that had
   * escalations (each polled).
   */
  async dueAccounts(now: number): Promise<string[]> {
    if (this.cluster) return this.redis.smembers(this.accountsKey)
    return this.redis.zrangebyscore(this.keys('').index, '-inf', now)
  }

  /**
   * One Redis: moves the escalations of the shared due set that came before each account had its own (a rolling
   * upgrade's) to their accounts' due sets. Returns how many it moved.
   */
  async migrate(): Promise<number> {
    if (this.cluster) return 0
    const k = this.keys('')
    const P = alertStreamKeys(this.prefix, false).prefix
    let moved = 0
    for (let n = 1; n > 0; moved += n) n = Number(await this.scripts.escalationMigrate(`${P}esc:due`, P, k.index))
    return moved
  }

  /** Claims up to `limit` due steps of an account, each leased `leaseMs`. */
  async claim(accountId: string, now: number, leaseMs: number, limit: number): Promise<ClaimedStep[]> {
    const k = this.keys(accountId)
    const flat = (await this.scripts.escalationClaim(
      k.due,
      now,
      leaseMs,
      limit,
      k.states,
      k.index,
      accountId,
    )) as string[]
    const out: ClaimedStep[] = []
    for (let i = 0; i + 1 < flat.length; i += 2)
      out.push({ member: flat[i]!, state: JSON.parse(flat[i + 1]!) as EscalationState })
    return out
  }

  /** Fires a claimed step (see lua/escalation-fire.lua). */
  async fire(claimed: ClaimedStep, firing: StepFiring, now: number): Promise<FireOutcome> {
    const { accountId, incidentId, seq } = claimed.state
    const k = this.keys(accountId)
    const n = this.notify.keys(accountId)
    const args: (string | number)[] = [
      claimed.member,
      seq,
      k.incidents,
      incidentId,
      firing.next ? JSON.stringify(firing.next) : '',
      firing.next?.dueAt ?? 0,
      JSON.stringify(firing.entry),
      now,
      firing.ttlMs,
      n.due,
      n.delivery,
      n.destinationLog,
      k.index,
      accountId,
    ]
    for (const d of firing.deliveries)
      args.push(d.id, JSON.stringify(d.data), d.dueAt, d.giveUpAt, d.data.destinationId)
    const [kind, status] = (await this.scripts.escalationFire(k.due, k.states, ...args)) as string[]
    return kind === 'stopped' ? { kind, status: status! } : { kind: kind as 'fired' | 'stale' | 'paused' }
  }

  /** An incident's severity now (undefined: gone). */
  async incident(accountId: string, incidentId: string): Promise<Pick<IncidentRecord, 'severity'> | undefined> {
    const json = await this.redis.hget(this.keys(accountId).incidents, incidentId)
    return json ? { severity: (JSON.parse(json) as IncidentRecord).severity } : undefined
  }

  /** The running escalation of an incident, if any. */
  async state(accountId: string, incidentId: string): Promise<EscalationState | undefined> {
    const json = await this.redis.hget(this.keys(accountId).states, EscalationStore.member(accountId, incidentId))
    return json ? (JSON.parse(json) as EscalationState) : undefined
  }
}

/** Which process runs an exclusive job: a lease in Redis, taken when free and renewed by its holder. */
export class JobLeases extends RedisState {
  private key = (job: string) => this.k('jobs', 'lease', job)

  /** Whether `owner` holds the job's lease for `ttlMs` more (renewed when it held it, taken when it was free). */
  async hold(job: string, owner: string, ttlMs: number): Promise<boolean> {
    if ((await this.scripts.lockOwned(this.key(job), owner, 'renew', ttlMs)) === 1) return true
    return (await this.redis.set(this.key(job), owner, 'PX', ttlMs, 'NX')) === 'OK'
  }

  async release(job: string, owner: string): Promise<void> {
    await this.scripts.lockOwned(this.key(job), owner, 'release', 0)
  }
}
