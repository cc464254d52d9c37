// Alerts as incidents: one record per (integration, dedup key), written by the alerts sink's script
// in the same call as the stream entries and the Kafka offset (lua/alerts-write.lua), acknowledged or
// resolved by the API (lua/alerts-act.lua) and by the auto-resolve job (lua/alerts-auto-resolve.lua).
// The keys and the lifecycle are described in lua/alert-lifecycle.lua. Lists read an index (a zset by
// last notification) of the status, or of the open alerts with one field's value, so listing the
// open alerts of one integration, severity, service, environment or team does not scan the others.
import type { AlertStatus, NormalizedAlert } from '../../pipeline/alerts/render.js'
import { alertStreamKeys, entryFieldMap, type AlertStreamKeys } from './alert-streams.js'
import type { RedisClient } from './client.js'
import { RedisState, type RedisContext } from './redis-state.js'

export const ALERT_LIST_STATUSES = [
  'open',
  'firing',
  'suppressed',
  'inhibited',
  'acknowledged',
  'resolved',
  'all',
] as const
/**
 * An alert's status: a firing alert that arrived in a maintenance window is suppressed until the window ends; one
 * inhibited by another (an alert rule's inhibit) until its source resolves.
 */
export type AlertRecordStatus = AlertStatus | 'suppressed' | 'inhibited'
export type AlertListStatus = (typeof ALERT_LIST_STATUSES)[number]
export const ALERT_FILTERS = ['integrationId', 'severity', 'service', 'environment', 'team'] as const
export type AlertFilter = (typeof ALERT_FILTERS)[number]

export interface AlertHistoryEntry {
  event: string
  at: number
  by?: string
  requestId?: string
  /** The entry of the all-alerts stream that said it (none for a repeat kept out of the streams). */
  entryId?: string
}

/** An incident: the normalized fields of its last firing notification, and its lifecycle. */
export interface AlertRecord extends Pick<
  NormalizedAlert,
  | 'integrationId'
  | 'dedupKey'
  | 'severity'
  | 'description'
  | 'source'
  | 'service'
  | 'environment'
  | 'team'
  | 'correlationId'
  | 'customFields'
> {
  id: string
  accountId: string
  status: AlertRecordStatus
  /** When the last notification says the alert happened (ISO 8601). */
  timestamp: string
  /** Notifications received for this incident. */
  count: number
  firstSeenAt: number
  lastSeenAt: number
  acknowledgedAt?: number
  acknowledgedBy?: string
  resolvedAt?: number
  resolvedBy?: string
  lastRequestId?: string
  /** The incident of the same key before this one, when it was resolved and the key fired again. */
  previousAlertId?: string
  /** Tags the alert rules added, the rule set's version and the rules that changed its last firing notification. */
  tags?: string[]
  rulesVersion?: number
  rulesApplied?: string[]
  /** The maintenance window that suppressed it (the last one), and when that window ends (while suppressed). */
  suppressedBy?: string
  suppressedUntil?: number
  /** The incident it is in (none for alerts stored before incidents existed). */
  incidentId?: string
  /** The alert that inhibits it (while inhibited). */
  inhibitedBy?: string
  history: AlertHistoryEntry[]
}

/** An alert the rules dropped, kept a day. */
export interface DroppedAlert {
  readonly id: string
  readonly requestId: string
  readonly integrationId: string
  readonly dedupKey: string
  readonly rule: string
  readonly receivedAt: string
}

/**
 * An integration's lifecycle counts: notifications ignored (acknowledge or resolve of nothing open), dedup keys that
 * rendered empty, unknown statuses, alerts the rules dropped, incidents opened suppressed by a maintenance window.
 */
export interface LifecycleCounts {
  readonly ignored: number
  readonly dedupFallback: number
  readonly statusUnknown: number
  readonly dropped: number
  readonly suppressed: number
  readonly overBudget: number
}

export interface AlertQuery {
  readonly status: AlertListStatus
  readonly filters: Partial<Record<AlertFilter, string>>
  readonly limit: number
  readonly cursor?: string
}

/** How many index entries one list call may read to fill a page when filters are checked per record. */
const MAX_EXAMINED = 5000

export type ActOutcome =
  { kind: 'ok'; alert: AlertRecord } | { kind: 'not_found' } | { kind: 'unchanged'; alert: AlertRecord; status: string }

export class AlertStore extends RedisState {
  private readonly streams: (accountId: string) => AlertStreamKeys

  constructor(context: RedisContext) {
    super(context)
    this.streams = (accountId) => alertStreamKeys(context.prefix, context.cluster, accountId)
  }

  private records(accountId: string): string {
    return this.ka(accountId, 'alerts', 'acct', accountId, 'records')
  }

  private index(accountId: string, group: string): string {
    return this.ka(accountId, 'alerts', 'acct', accountId, 'idx', group)
  }

  /**
   * Whose alert keys a sweep goes through: each account's on a cluster, the shared ones ('' stands for all) with one
   * Redis.
   */
  private async sweptAccounts(): Promise<string[]> {
    return this.cluster ? this.redis.zrange(this.k('accounts'), 0, -1) : ['']
  }

  async get(accountId: string, id: string): Promise<AlertRecord | undefined> {
    const json = await this.redis.hget(this.records(accountId), id)
    return json ? parseAlertRecord(json) : undefined
  }

  /**
   * A page of an account's alerts, newest last notification first. The index is the status's, or for
   * open alerts the smallest of the filters'; other filters are checked per record, reading at most
   * MAX_EXAMINED index entries per call (the cursor then says where to go on).
   */
  async list(accountId: string, q: AlertQuery): Promise<{ alerts: AlertRecord[]; nextCursor: string | null }> {
    const filters = ALERT_FILTERS.filter((f) => q.filters[f] !== undefined).map((f) => [f, q.filters[f]!] as const)
    // Of the open alerts' indexes the filters name, the smallest is read; the other filters are checked per record.
    let indexed: (typeof filters)[number] | undefined
    if (q.status === 'open' && filters.length > 0) {
      const sizes = await Promise.all(
        filters.map(([f, v]) => this.redis.zcard(this.index(accountId, `open:${f}:${v}`))),
      )
      indexed = filters[sizes.indexOf(Math.min(...sizes))]
    }
    const key = this.index(accountId, indexed ? `open:${indexed[0]}:${indexed[1]}` : q.status)
    const rest = filters.filter((f) => f !== indexed)
    let cursor = decodeCursor(q.cursor)
    const alerts: AlertRecord[] = []
    let examined = 0
    for (;;) {
      const want = Math.min(1000, Math.max(q.limit * 2, 100))
      const entries = await indexPage(this.redis, key, cursor, want)
      if (entries.length === 0) return { alerts, nextCursor: null }
      const json = await this.redis.hmget(this.records(accountId), ...entries.map((e) => e.id))
      for (const [i, e] of entries.entries()) {
        examined++
        cursor = e
        const raw = json[i]
        if (!raw) continue
        const alert = parseAlertRecord(raw)
        if (rest.some(([f, v]) => alert[f] !== v)) continue
        alerts.push(alert)
        if (alerts.length === q.limit) return { alerts, nextCursor: encodeCursor(e) }
      }
      if (entries.length < want) return { alerts, nextCursor: null }
      if (examined >= MAX_EXAMINED) return { alerts, nextCursor: encodeCursor(cursor!) }
    }
  }

  /** Acknowledges or resolves an alert, writing the change to its streams; `by` says who. */
  async act(
    accountId: string,
    id: string,
    action: 'acknowledge' | 'resolve',
    by: string,
    maxLen: number,
  ): Promise<ActOutcome> {
    const now = Date.now()
    const keys = this.streams(accountId)
    const [kind, json, status] = (await this.scripts.alertsAct(
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
    )) as [string, string?, string?]
    if (kind === 'ok') return { kind, alert: parseAlertRecord(json!) }
    if (kind === 'unchanged') return { kind, alert: parseAlertRecord(json!), status: status! }
    return { kind: 'not_found' }
  }

  /**
   * Resolves up to `limit` firing alerts whose silence has passed, per call of the script (per account on a cluster);
   * their ids.
   */
  async autoResolve(now: number, limit: number, maxLen: number): Promise<string[]> {
    const resolved: string[] = []
    for (const account of await this.sweptAccounts())
      resolved.push(...(await this.sweep('alertsAutoResolve', account, now, limit, maxLen)))
    return resolved
  }

  /**
   * One call of a sweeping script (auto-resolve, release) over an account's keys: its arguments begin with the key
   * prefix, now (ms), a limit, now (ISO), the streams' maxlen and the deleted-integrations set; `extra` follow.
   */
  private async sweep(
    script: 'alertsAutoResolve' | 'alertsRelease',
    account: string,
    now: number,
    limit: number,
    maxLen: number,
    ...extra: (string | number)[]
  ): Promise<string[]> {
    const keys = this.streams(account)
    const args = [keys.prefix, now, limit, new Date(now).toISOString(), maxLen, keys.deleted, ...extra]
    return (await this.scripts[script](keys.all, ...args)) as string[]
  }

  /**
   * Releases up to `limit` suppressed alerts whose maintenance window has ended, per call of the script (per account
   * on a cluster): each fires again with a triggered event. Their ids.
   */
  async release(now: number, limit: number, maxLen: number): Promise<string[]> {
    const released: string[] = []
    for (const account of await this.sweptAccounts())
      released.push(...(await this.sweep('alertsRelease', account, now, limit, maxLen, '', 0, '', '')))
    return released
  }

  /**
   * Continues the inhibition scans sources left pending (more targets than one call changes): a page per call, the
   * accounts in turn, at most `calls` calls (per account's node on a cluster). How many accounts still have some.
   */
  async inhibitContinue(maxLen: number, calls: number): Promise<number> {
    let left = 0
    for (const account of await this.sweptAccounts()) {
      const keys = this.streams(account)
      for (let n = 0; n < calls; n++) {
        const pending = Number(await this.scripts.alertsInhibitContinue(keys.all, keys.prefix, maxLen))
        if (pending === 0 || n === calls - 1) {
          left += pending
          break
        }
      }
    }
    return left
  }

  /**
   * The alerts a changed or deleted window suppresses: due at `until`, or released now when that is not later. Read
   * from the window's own index, a page per call of the script (other clients go between pages). Their ids when
   * released.
   */
  async rescheduleSuppressed(accountId: string, windowId: string, until: number, maxLen: number): Promise<string[]> {
    const released: string[] = []
    let cursor = ''
    do {
      const [next, ...ids] = await this.sweep(
        'alertsRelease',
        accountId,
        Date.now(),
        RELEASE_PAGE,
        maxLen,
        windowId,
        until,
        accountId,
        cursor,
      )
      released.push(...ids)
      cursor = next ?? ''
    } while (cursor !== '')
    return released
  }

  /** The alerts the rules dropped in the last day, newest first. */
  async dropped(accountId: string, limit: number): Promise<DroppedAlert[]> {
    const entries = await this.redis.xrevrange(
      this.ka(accountId, 'alerts', 'acct', accountId, 'dropped'),
      '+',
      String(Date.now() - 86_400_000),
      'COUNT',
      limit,
    )
    return entries.map(([id, flat]) => {
      const f = entryFieldMap(flat)
      return {
        id,
        requestId: f['requestId'] ?? '',
        integrationId: f['integrationId'] ?? '',
        dedupKey: f['dedupKey'] ?? '',
        rule: f['rule'] ?? '',
        receivedAt: f['receivedAt'] ?? '',
      }
    })
  }

  /**
   * Removes up to `limit` alerts resolved before `before` (ms), per call of the script (per account on a cluster): the
   * retention of resolved alerts. How many.
   */
  async prune(before: number, limit: number): Promise<number> {
    let removed = 0
    for (const account of await this.sweptAccounts()) {
      const { prefix } = this.streams(account)
      removed += Number(await this.scripts.alertsPrune(`${prefix}alerts:resolved`, prefix, before, limit))
    }
    return removed
  }

  /**
   * An integration's lifecycle counts: notifications ignored (acknowledge or resolve of nothing open), dedup keys that
   * rendered empty, unknown statuses.
   */
  async lifecycleCounts(accountId: string, integrationId: string): Promise<LifecycleCounts> {
    const h = await this.redis.hgetall(this.ka(accountId, 'alerts', 'stats', integrationId))
    return {
      ignored: Number(h['ignored'] ?? 0),
      dedupFallback: Number(h['dedupFallback'] ?? 0),
      statusUnknown: Number(h['statusUnknown'] ?? 0),
      dropped: Number(h['dropped'] ?? 0),
      suppressed: Number(h['suppressed'] ?? 0),
      overBudget: Number(h['overBudget'] ?? 0),
    }
  }
}

/** Held alerts a change of a window reads per call of the release script. */
const RELEASE_PAGE = 500

/** A record as Lua's cjson wrote it: an empty table is `{}` whatever it stood for. */
export function parseAlertRecord(json: string): AlertRecord {
  const r = JSON.parse(json) as AlertRecord & { digest?: string }
  // The digest of what it says is the lifecycle script's (alert-lifecycle.lua LC.repeated), not the record's.
  delete r.digest
  if (!Array.isArray(r.history)) r.history = []
  if (r.customFields === null || typeof r.customFields !== 'object' || Array.isArray(r.customFields))
    r.customFields = {}
  return r
}

/**
 * Up to `want` entries of an index (a zset of ids by a score, read highest first) after `cursor`. Scores are unique but
 * for rare ties (see alert-lifecycle.lua): a little more than a page is read to cover them.
 */
export async function indexPage(
  redis: RedisClient,
  key: string,
  cursor: { id: string; score: number } | undefined,
  want: number,
): Promise<{ id: string; score: number }[]> {
  const page = await redis.zrevrangebyscore(
    key,
    cursor ? cursor.score : '+inf',
    '-inf',
    'WITHSCORES',
    'LIMIT',
    0,
    want + (cursor ? 50 : 0),
  )
  const entries: { id: string; score: number }[] = []
  for (let i = 0; i + 1 < page.length; i += 2) {
    const id = page[i]!
    const score = Number(page[i + 1])
    // Ties in score come in descending id order: skip up to and including the cursor's.
    if (cursor && score === cursor.score && id >= cursor.id) continue
    entries.push({ id, score })
    if (entries.length === want) break
  }
  return entries
}

/** A list cursor: where a page of an index (a zset of ids by score) goes on. */
export function encodeCursor(e: { id: string; score: number }): string {
  return Buffer.from(JSON.stringify([e.score, e.id])).toString('base64url')
}

/** Whether a list cursor is one this store gave out. */
export function isAlertCursor(cursor: string): boolean {
  return decodeCursor(cursor) !== undefined
}

/** The position after which a page goes on, or undefined for the first page or a cursor that is not one of ours. */
export function decodeCursor(cursor: string | undefined): { id: string; score: number } | undefined {
  if (!cursor) return undefined
  try {
    const [score, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[]
    return typeof score === 'number' && Number.isFinite(score) && typeof id === 'string' ? { score, id } : undefined
  } catch {
    return undefined
  }
}
