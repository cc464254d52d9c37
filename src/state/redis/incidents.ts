// Incidents: groups of an account's alerts, decided by the alert lifecycle script as it writes each new alert
// (lua/incidents.lua describes the keys and the status), acknowledged or resolved through their alerts
// (lua/incidents-act.lua). Lists read an index of the status (a zset by last change), as alerts do.
import type { Severity } from '../../pipeline/alerts/render.js'
import { alertStreamKeys, type AlertStreamKeys } from './alert-streams.js'
import { decodeCursor, encodeCursor, indexPage, parseAlertRecord, type AlertRecord } from './alerts.js'
import { RedisState, type RedisContext } from './redis-state.js'

export const INCIDENT_STATUSES = ['pending', 'triggered', 'acknowledged', 'suppressed', 'resolved'] as const
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number]
export const INCIDENT_LIST_STATUSES = ['open', ...INCIDENT_STATUSES, 'all'] as const
export type IncidentListStatus = (typeof INCIDENT_LIST_STATUSES)[number]

/** Who an escalation step paged, and how (or why it could not). */
export interface PagedTarget {
  kind: 'user' | 'destination' | 'schedule' | 'policy'
  id: string
  /** A user's name, a destination's or a policy's name, as it was when paged. */
  name?: string
  /** For a user: the schedule they were on call in, the contact method, and the destination it went through. */
  schedule?: string
  method?: string
  via?: string
  afterMinutes?: number
  /** Nothing was sent to it, and why. */
  problem?: string
}

export interface IncidentTimelineEntry {
  /** For `merged`: the other incident. */
  incidentId?: string
  /** For `escalated`: the policy, its run (0: the first) and step, and who was paged. */
  policyId?: string
  round?: number
  step?: number
  paged?: PagedTarget[]
  /**
   * triggered, acknowledged, resolved, joined (an alert joined), opened or pending (made, not told), closed (resolved,
   * never told), escalated (a step of its escalation policy paged), not-escalated (its account was at its cap).
   */
  event: string
  at: number
  by?: string
  alertId?: string
}

export interface IncidentRecord {
  id: string
  accountId: string
  /** Its group key: g:<rule>\n<rendered key> for a rule's group, a:<integration>:<dedup key> for an alert's own. */
  key: string
  title: string
  status: IncidentStatus
  /** The highest severity of its open alerts (its last one's when none is open). */
  severity: Severity
  firstSeenAt: number
  lastSeenAt: number
  lastAlertAt: number
  /** 0: alerts join until it resolves. */
  windowMs: number
  minAlerts: number
  /** Open alerts, all alerts that joined, firing and acknowledged ones among the open. */
  open: number
  alerts: number
  firing: number
  acked: number
  /** Alerts of its key that went to a continuation incident once it was full. */
  overflow?: number
  rule?: string
  previousIncidentId?: string
  acknowledgedAt?: number
  acknowledgedBy?: string
  resolvedAt?: number
  resolvedBy?: string
  /** The incident it was merged into (it is then resolved). */
  mergedInto?: string
  /** The incident it is being merged into, while its alerts move a page at a time. */
  mergingInto?: string
  /** Whether a destination was told of it (triggered); one never told resolves without a word. */
  told?: boolean
  timeline: IncidentTimelineEntry[]
}

export interface IncidentQuery {
  readonly status: IncidentListStatus
  readonly limit: number
  readonly cursor?: string
}

export type IncidentMergeOutcome =
  { kind: 'ok'; incident: IncidentRecord } | { kind: 'not_found' | 'same' | 'resolved' | 'full' | 'merging' }

export type IncidentRemoveOutcome =
  { kind: 'ok'; alert: AlertRecord } | { kind: 'not_found' | 'not_member' | 'not_open' | 'last' }

export type IncidentActOutcome =
  | { kind: 'ok'; incident: IncidentRecord }
  | { kind: 'not_found' }
  | { kind: 'unchanged'; incident: IncidentRecord; status: string }

/** Alerts one call of the acknowledge or resolve script changes (a page of the incident's members). */
const ACT_PAGE = 500
/** Alerts one call of the merge script moves. */
const MERGE_PAGE = 500
const HOUR_MS = 3_600_000
/** How long noise figures and damping marks are kept (as lua/incidents.lua keeps the figures). */
const NOISE_KEPT_MS = 8 * 86_400_000

/** An integration's noise figures over some hours (lua/incidents.lua counts them per hour). */
export interface NoiseCounts {
  received: number
  alerts: number
  incidents: number
  inhibited: number
  transient: number
}
export const NOISE_FIGURES = ['received', 'alerts', 'incidents', 'inhibited', 'transient'] as const

export class IncidentStore extends RedisState {
  private readonly streams: (accountId: string) => AlertStreamKeys

  constructor(context: RedisContext) {
    super(context)
    this.streams = (accountId) => alertStreamKeys(context.prefix, context.cluster, accountId)
  }

  private key(accountId: string, what: string): string {
    return this.ka(accountId, 'alerts', 'acct', accountId, what)
  }

  async get(accountId: string, id: string): Promise<IncidentRecord | undefined> {
    const json = await this.redis.hget(this.key(accountId, 'incidents'), id)
    return json ? parse(json) : undefined
  }

  /** A page of the incident's alerts in the order they joined, and how many joined. */
  async members(accountId: string, id: string, limit: number): Promise<{ alerts: AlertRecord[]; total: number }> {
    const key = this.key(accountId, `incident-members:${id}`)
    const [ids, total] = await Promise.all([this.redis.zrange(key, 0, limit - 1), this.redis.zcard(key)])
    if (ids.length === 0) return { alerts: [], total }
    const json = await this.redis.hmget(this.key(accountId, 'records'), ...ids)
    // An alert pruned by the retention of resolved alerts is left out.
    return { alerts: json.flatMap((j) => (j ? [parseAlertRecord(j)] : [])), total }
  }

  /** A page of the account's incidents, latest change first. */
  async list(accountId: string, q: IncidentQuery): Promise<{ incidents: IncidentRecord[]; nextCursor: string | null }> {
    const key = this.key(accountId, `incident-idx:${q.status}`)
    // One more than a page: whether there is a next one.
    const entries = await indexPage(this.redis, key, decodeCursor(q.cursor), q.limit + 1)
    const shown = entries.slice(0, q.limit)
    if (shown.length === 0) return { incidents: [], nextCursor: null }
    const json = await this.redis.hmget(this.key(accountId, 'incidents'), ...shown.map((e) => e.id))
    return {
      incidents: json.flatMap((j) => (j ? [parse(j)] : [])),
      nextCursor: entries.length > q.limit ? encodeCursor(shown[shown.length - 1]!) : null,
    }
  }

  /** An alert's place in the order its incident's alerts joined (1, 2, ...), if it is a member. */
  async memberNumber(accountId: string, id: string, alertId: string): Promise<number | undefined> {
    const n = await this.redis.zscore(this.key(accountId, `incident-members:${id}`), alertId)
    return n === null ? undefined : Number(n)
  }

  /**
   * The alerts an update of the incident tells a destination: from the `since`-th that joined (or the first after what
   * the destination was told last), up to `upto` (how many had joined when the update was first read). The range is
   * fixed at that first read, for the update's retries, and the destination marked told up to it, so that the next
   * update starts after it: no alert told twice, none left out. How many, and the first `limit` of them.
   */
  async updateRange(
    accountId: string,
    id: string,
    destinationId: string,
    deliveryId: string,
    since: number,
    upto: number,
    limit: number,
  ): Promise<{ alerts: AlertRecord[]; count: number }> {
    const fixedKey = this.key(accountId, `update-range:${deliveryId}`)
    const toldKey = this.key(accountId, `update-told:${id}:${destinationId}`)
    let range = await this.redis.get(fixedKey)
    if (range === null) {
      const told = Number((await this.redis.get(toldKey)) ?? 0)
      const fresh = `${Math.max(since, told + 1)}:${upto}`
      if ((await this.redis.set(fixedKey, fresh, 'PX', NOISE_KEPT_MS, 'NX')) === 'OK') {
        if (upto > told) await this.redis.set(toldKey, String(upto), 'PX', NOISE_KEPT_MS)
        range = fresh
      } else range = (await this.redis.get(fixedKey)) ?? fresh
    }
    const [from, to] = range.split(':').map(Number) as [number, number]
    if (to < from) return { alerts: [], count: 0 }
    const key = this.key(accountId, `incident-members:${id}`)
    const [ids, count] = await Promise.all([
      this.redis.zrangebyscore(key, from, to, 'LIMIT', 0, limit),
      this.redis.zcount(key, from, to),
    ])
    if (ids.length === 0) return { alerts: [], count }
    const json = await this.redis.hmget(this.key(accountId, 'records'), ...ids)
    return { alerts: json.flatMap((j) => (j ? [parseAlertRecord(j)] : [])), count }
  }

  /** The account's noise figures of the last `hours` hours (to `now`), per integration. */
  async noise(accountId: string, hours: number, now: number): Promise<Map<string, NoiseCounts>> {
    const last = Math.floor(now / HOUR_MS)
    const pipe = this.redis.pipeline()
    for (let h = last - hours + 1; h <= last; h++) pipe.hgetall(this.key(accountId, `noise:${h}`))
    const byIntegration = new Map<string, NoiseCounts>()
    for (const [err, fields] of (await pipe.exec()) ?? []) {
      if (err) throw err
      for (const [field, n] of Object.entries(fields as Record<string, string>)) {
        const at = field.lastIndexOf('|')
        const figure = field.slice(at + 1) as keyof NoiseCounts
        if (!(NOISE_FIGURES as readonly string[]).includes(figure)) continue
        const integration = field.slice(0, at)
        let counts = byIntegration.get(integration)
        if (!counts)
          byIntegration.set(
            integration,
            (counts = { received: 0, alerts: 0, incidents: 0, inhibited: 0, transient: 0 }),
          )
        counts[figure] += Number(n)
      }
    }
    return byIntegration
  }

  /**
   * Damping, for a destination with a delay, as its delivery of an incident's event comes due: whether it is not sent.
   * An opening is not sent when the incident resolved meanwhile (the destination is marked, and the incident counted
   * transient once, in the hour it resolved); a later event is not sent when its opening was not.
   */
  async damped(accountId: string, incidentId: string, destinationId: string, opening: boolean): Promise<boolean> {
    const mark = this.key(accountId, `damped:${incidentId}:${destinationId}`)
    if (!opening) return (await this.redis.exists(mark)) === 1
    const incident = await this.get(accountId, incidentId)
    if (incident?.status !== 'resolved') return false
    await this.redis.set(mark, '1', 'PX', NOISE_KEPT_MS)
    if (
      (await this.redis.set(this.key(accountId, `transient:${incidentId}`), '1', 'PX', NOISE_KEPT_MS, 'NX')) === 'OK'
    ) {
      const members = await this.members(accountId, incidentId, 1)
      const integration = members.alerts[0]?.integrationId ?? ''
      const hour = this.key(accountId, `noise:${Math.floor((incident.resolvedAt ?? Date.now()) / HOUR_MS)}`)
      await this.redis.multi().hincrby(hour, `${integration}|transient`, 1).pexpire(hour, NOISE_KEPT_MS).exec()
    }
    return true
  }

  /**
   * Merges `from` into `into`: its alerts join `into` (a page per script call, MERGE_PAGE alerts), and it is closed,
   * mergedInto; its destinations are told it resolved. Refused when one is not found, they are one, either is resolved,
   * `into` would hold too many alerts, or `from` is being merged into another.
   */
  async merge(
    accountId: string,
    into: string,
    from: string,
    by: string,
    maxLen: number,
  ): Promise<IncidentMergeOutcome> {
    const keys = this.streams(accountId)
    for (;;) {
      const now = Date.now()
      const [kind, json] = (await this.scripts.incidentsMerge(
        keys.all,
        keys.prefix,
        accountId,
        into,
        from,
        by,
        now,
        new Date(now).toISOString(),
        maxLen,
        keys.deleted,
        MERGE_PAGE,
      )) as [string, string?]
      if (kind === 'more') continue
      if (kind === 'ok') return { kind, incident: parse(json!) }
      return { kind: kind as 'not_found' | 'same' | 'resolved' | 'full' | 'merging' }
    }
  }

  /**
   * Takes an open alert out of an incident into one of its own (told as a new incident when it fires). Refused when
   * the alert is not in it, not open, or its last open alert.
   */
  async remove(
    accountId: string,
    id: string,
    alertId: string,
    by: string,
    maxLen: number,
  ): Promise<IncidentRemoveOutcome> {
    const keys = this.streams(accountId)
    const now = Date.now()
    const [kind, json] = (await this.scripts.incidentsRemove(
      keys.all,
      keys.prefix,
      accountId,
      id,
      alertId,
      by,
      now,
      new Date(now).toISOString(),
      maxLen,
      keys.deleted,
    )) as [string, string?]
    if (kind === 'ok') return { kind, alert: parseAlertRecord(json!) }
    return { kind: kind as 'not_found' | 'not_member' | 'not_open' | 'last' }
  }

  /** Acknowledges or resolves an incident through its open alerts (a page per script call); `by` says who. */
  async act(
    accountId: string,
    id: string,
    action: 'acknowledge' | 'resolve',
    by: string,
    maxLen: number,
  ): Promise<IncidentActOutcome> {
    const keys = this.streams(accountId)
    let cursor = '0'
    for (;;) {
      const now = Date.now()
      const [kind, json, next] = (await this.scripts.incidentsAct(
        keys.all,
        keys.prefix,
        accountId,
        id,
        action,
        by,
        now,
        new Date(now).toISOString(),
        maxLen,
        keys.deleted,
        ACT_PAGE,
        cursor,
      )) as [string, string?, string?]
      if (kind === 'not_found') return { kind }
      if (kind === 'unchanged') return { kind, incident: parse(json!), status: next! }
      if (!next) return { kind: 'ok', incident: parse(json!) }
      cursor = next
    }
  }
}

/** A record as Lua's cjson wrote it: an empty list is `{}`. */
function parse(json: string): IncidentRecord {
  const r = JSON.parse(json) as IncidentRecord & { openBySeverity?: unknown; arrivals?: unknown }
  if (!Array.isArray(r.timeline)) r.timeline = []
  delete r.openBySeverity
  delete r.arrivals
  return r
}
