// The notify role: Sluice as the first reader of its own alert streams. A consumer group
// (sluice-notify) reads the all-alerts stream; each entry of a lifecycle event becomes one delivery per
// destination it is routed to (the alert rules' `notify` actions, else the account's default route),
// stored with the entry's acknowledgement in one script call. Deliveries are sent by every process
// of the role from a due set in Redis: claimed with a lease (a process killed while sending leaves
// them to be sent again once the lease ends: at least once, with the delivery id as the receiver's
// idempotency key), retried with exponential backoff and jitter (Retry-After honoured), given up into
// the dead letter after the give-up time. Per destination: a rate limit shared through Redis, a
// concurrency limit and a circuit breaker in each process, so one slow or failing receiver delays no
// other; deliveries held back by the rate limit are sent together as one digest message.
import type { Logger } from '../shared/logger.js'
import { KeyedCache } from '../shared/versioned-cache.js'
import type { Metrics } from '../shared/metrics.js'
import type { OutboundPolicy } from '../shared/outbound.js'
import type { SecretBox } from '../shared/secret-box.js'
import { dampingDelayMs, updatePeriodMs, type StoredDestination } from '../pipeline/notify/destinations.js'
import {
  deliveryId,
  MESSAGE_LIMITS,
  NOTIFY_EVENTS,
  type IncidentUpdate,
  type NotifiedAlert,
  type NotifyEvent,
  type NotifyItem,
} from '../pipeline/notify/messages.js'
import { digests, openDestination, send, type OpenedDestination, type SendOutcome } from '../sinks/notify/senders.js'
import type { RulesAndWindowsStore } from '../state/redis/rules-and-windows.js'
import { entryFieldMap } from '../state/redis/alert-streams.js'
import type { AlertRecord, AlertStore } from '../state/redis/alerts.js'
import type { IncidentStore } from '../state/redis/incidents.js'
import type { RedisClient } from '../state/redis/client.js'
import type { IntegrationStore } from '../state/redis/integrations.js'
import { integrationCache, type IntegrationCache } from './alerts.consumer.js'
import {
  NOTIFY_GROUP,
  type ClaimedDelivery,
  type DeliveryData,
  type NewDelivery,
  type NotifyStore,
  type PageData,
  type Settlement,
} from '../state/redis/notify.js'
import type { RateLimiter } from '../state/redis/rate-limits.js'

export interface NotifyConsumerOptions {
  /** A Redis Cluster: each account has its own stream and due set (shards); else one of each. */
  readonly cluster: boolean
  readonly consumerName: string
  /** How long a claimed delivery is held by its process before another may send it. */
  readonly leaseMs: number
  /** A delivery still failing this long after it was made goes to the dead letter. */
  readonly giveUpMs: number
  /** How long settled deliveries and their log are kept. */
  readonly retentionMs: number
  readonly refreshMs: number
  /** Base of the console links in messages. */
  readonly consoleUrl: string
  readonly policy: OutboundPolicy
  /** The shared rate limit of one destination. */
  readonly limiter: (d: StoredDestination) => RateLimiter
  readonly metrics: Metrics
  readonly log: Logger
  /** How long one stream read waits for new entries (below the Redis command deadline). */
  readonly blockMs: number
  readonly pollMs?: number
  readonly claimBatch?: number
  /**
   * Starts the escalation of an incident that opened (once; jobs/escalation.job.ts): by the policy its rules gave, or
   * the account's default. Called before the entry is acknowledged.
   */
  readonly escalate?: (start: EscalationStart) => Promise<void>
  /** The signed acknowledge and resolve links of an email page to a responder. */
  readonly pageLinks?: (
    accountId: string,
    incidentId: string,
    userId: string,
  ) => { readonly acknowledge: string; readonly resolve: string }
}

export interface EscalationStart {
  readonly accountId: string
  readonly incidentId: string
  /** The policy the first rule applied to its alert that names one gave. */
  readonly policyId?: string
  readonly alert: NotifiedAlert
  readonly now: number
}

/** What the rules applied to an alert say of its notifications: destinations, and an escalation policy. */
interface RuleActions {
  readonly notify: readonly string[]
  readonly escalate?: string
}

const BACKOFF = { firstMs: 2000, maxMs: 10 * 60_000 } as const
const BREAKER = { failures: 5, firstMs: 15_000, maxMs: 5 * 60_000 } as const
/** Entries read per call, and how idle another consumer's entries must be before this one takes them. */
const READ_COUNT = 200
const RECLAIM_EVERY_MS = 10_000
/** Settlements kept while Redis cannot take them (beyond: their deliveries are sent again after the lease). */
const MAX_UNSETTLED = 100_000

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export { deliveryId }

/**
 * The event a stream entry tells destinations, if any: an alert's lifecycle event, or for an alert of an incident the
 * incident's (incidentEvent: triggered, acknowledged, resolved; nothing when the alert only joined it or changed
 * nothing it says); `merged`: the incident named was merged into another and is closed.
 */
export function eventOf(f: Record<string, string>): NotifyEvent | undefined {
  // An incident merged into another is closed: where it was told, it is told resolved (lua/incidents-merge.lua).
  if (f['event'] === 'merged') return f['incidentId'] && f['incidentEvent'] === 'resolved' ? 'resolved' : undefined
  const event = f['event'] as NotifyEvent | undefined
  if (!event || !NOTIFY_EVENTS.includes(event)) return undefined
  if (f['incidentId'] === undefined) return event
  const told = f['incidentEvent']
  if (told !== 'triggered' && told !== 'acknowledged' && told !== 'resolved') return undefined
  return told === 'triggered' && event === 'reopened' ? event : told
}

/** An alert record as a notification shows it. */
export function recordAlert(r: AlertRecord): NotifiedAlert {
  return {
    id: r.id,
    status: r.status,
    severity: r.severity,
    description: r.description,
    ...(r.source ? { source: r.source } : {}),
    ...(r.service ? { service: r.service } : {}),
    ...(r.environment ? { environment: r.environment } : {}),
    ...(r.team ? { team: r.team } : {}),
    dedupKey: r.dedupKey,
    integrationId: r.integrationId,
    count: r.count,
    receivedAt: new Date(r.firstSeenAt).toISOString(),
    ...(r.incidentId ? { incidentId: r.incidentId } : {}),
    tags: r.tags ?? [],
    customFields: r.customFields ?? {},
  }
}

/** The alert of a stream entry's fields. */
export function notifiedAlert(f: Record<string, string>): NotifiedAlert {
  const json = <T>(text: string | undefined, fallback: T): T => {
    try {
      return text ? (JSON.parse(text) as T) : fallback
    } catch {
      return fallback
    }
  }
  return {
    id: f['alertId'] ?? '',
    status: f['status'] ?? 'firing',
    severity: f['severity'] ?? 'warning',
    description: f['description'] ?? '',
    ...(f['source'] ? { source: f['source'] } : {}),
    ...(f['service'] ? { service: f['service'] } : {}),
    ...(f['environment'] ? { environment: f['environment'] } : {}),
    ...(f['team'] ? { team: f['team'] } : {}),
    ...(f['dedupKey'] ? { dedupKey: f['dedupKey'] } : {}),
    ...(f['integrationId'] ? { integrationId: f['integrationId'] } : {}),
    ...(f['count'] ? { count: Number(f['count']) } : {}),
    ...(f['receivedAt'] ? { receivedAt: f['receivedAt'] } : {}),
    ...(f['incidentId'] ? { incidentId: f['incidentId'] } : {}),
    tags: json<string[]>(f['tags'], []),
    customFields: json<Record<string, string>>(f['customFields'], {}),
  }
}

/** A destination as a page is sent through it: an email destination to the responder's address alone. */
function paged(d: OpenedDestination, page: PageData | undefined): OpenedDestination {
  return page?.to && d.kind === 'email' ? { ...d, settings: { ...d.settings, to: [page.to] } } : d
}

interface AccountDestinations {
  readonly byId: ReadonlyMap<string, StoredDestination>
  readonly route: readonly string[]
}

class Breaker {
  failures = 0
  openUntil = 0
  cooldownMs: number = BREAKER.firstMs
  /** A trial request is in flight (half-open). */
  trial = false

  /** When a request may go now: 0, else the time the breaker lets one through. */
  blockedUntil(now: number): number {
    if (this.failures < BREAKER.failures) return 0
    if (now < this.openUntil || this.trial) return Math.max(this.openUntil, now + 1000)
    return 0
  }

  record(ok: boolean, now: number): void {
    this.trial = false
    if (ok) {
      this.failures = 0
      this.cooldownMs = BREAKER.firstMs
      return
    }
    this.failures++
    if (this.failures >= BREAKER.failures) {
      this.openUntil = now + this.cooldownMs
      this.cooldownMs = Math.min(this.cooldownMs * 2, BREAKER.maxMs)
    }
  }
}

/**
 * The notify role's consumer: reads the alert streams as a consumer group, routes each alert event into deliveries per
 * destination (stored with the entry's acknowledgement), and delivers what is due, within each destination's limits.
 */
export class NotifyConsumer {
  private stopping = false
  private loops: Promise<void>[] = []
  private wake: (() => void) | undefined
  private readonly groupsMade = new Set<string>()
  /** Each account's destinations, checked against their version after refreshMs. */
  private readonly destinations: KeyedCache<AccountDestinations>
  private readonly rulesNotify = new Map<string, ReadonlyMap<string, RuleActions>>()
  /** Integration records, for the account an entry's integration belongs to (the alerts consumer's cache). */
  private readonly integrationCache: IntegrationCache
  private readonly inFlight = new Map<string, number>()
  private readonly breakers = new Map<string, Breaker>()
  private readonly opened = new Map<string, { updatedAt: number; d: OpenedDestination }>()
  private readonly sends = new Set<Promise<void>>()
  /** Per destination (account, id): claimed messages waiting for a free slot. */
  private readonly backlog = new Map<string, { at: number; items: ClaimedDelivery[] }[]>()
  private readonly unsettled: { account: string; s: Settlement }[] = []
  private shards: string[] = ['']
  private shardsAt = 0
  private lastReclaim = 0

  constructor(
    private readonly store: NotifyStore,
    private readonly alerts: AlertStore,
    private readonly incidents: IncidentStore,
    private readonly rulesAndWindows: RulesAndWindowsStore,
    integrations: IntegrationStore,
    private readonly secrets: SecretBox,
    /** A connection of its own: the stream read blocks it. */
    private readonly reader: RedisClient,
    private readonly options: NotifyConsumerOptions,
  ) {
    this.integrationCache = integrationCache(integrations, options.refreshMs * 10)
    this.destinations = new KeyedCache(
      {
        version: (accountId) => store.destinationsVersion(accountId),
        load: async (accountId) => {
          const { list, route } = await store.destinations(accountId)
          return { byId: new Map(list.map((d) => [d.id, d])), route }
        },
      },
      { refreshMs: options.refreshMs },
    )
  }

  start(): void {
    if (this.loops.length > 0) return
    this.loops = [this.readLoop(), this.deliverLoop()]
  }

  /** Stops reading and claiming, and waits for the messages in flight (each bounded by the send timeout). */
  async stop(): Promise<void> {
    this.stopping = true
    this.wake?.()
    await Promise.all(this.loops)
    // What waits for a slot is due again now, for the other processes.
    for (const queue of this.backlog.values()) {
      const held = queue.splice(0).flatMap((c) => c.items)
      if (held.length > 0)
        await this.settle(
          held[0]!.data.accountId,
          held.map((c) => ({ id: c.id, outcome: 'postpone', nextAt: Date.now() })),
        )
    }
    this.backlog.clear()
    await Promise.all([...this.sends])
    await this.flushUnsettled().catch(() => undefined)
  }

  // ------------------------------------------------------------------ reading the streams

  private async refreshShards(): Promise<void> {
    if (!this.options.cluster || Date.now() - this.shardsAt < this.options.refreshMs) return
    this.shards = await this.store.accounts()
    this.shardsAt = Date.now()
  }

  private async ensureGroup(shard: string): Promise<void> {
    if (this.groupsMade.has(shard)) return
    await this.store.ensureGroup(shard)
    this.groupsMade.add(shard)
  }

  private async readLoop(): Promise<void> {
    const log = this.options.log
    while (!this.stopping) {
      try {
        await this.refreshShards()
        let read = 0
        // Decided once per turn: a turn that ends past the interval without having reclaimed must not count as one
        // (the blocking read below takes up to blockMs), or entries whose read was lost stay pending for ever.
        const reclaim = Date.now() - this.lastReclaim > RECLAIM_EVERY_MS
        for (const shard of this.shards) {
          await this.ensureGroup(shard)
          const stream = this.store.keys(shard).stream
          const entries: [string, string[]][] = []
          if (reclaim) {
            // Entries another consumer of the group read and never acknowledged (it was killed): taken over.
            const claimed = (await this.reader.xautoclaim(
              stream,
              NOTIFY_GROUP,
              this.options.consumerName,
              this.options.leaseMs,
              '0-0',
              'COUNT',
              READ_COUNT,
            )) as [string, [string, string[]][]]
            entries.push(...claimed[1].filter((e) => e[1] !== null))
          }
          const block = this.options.cluster || this.shards.length > 1 ? [] : ['BLOCK', this.options.blockMs]
          const res = (await this.reader.xreadgroup(
            'GROUP',
            NOTIFY_GROUP,
            this.options.consumerName,
            'COUNT',
            READ_COUNT,
            ...(block as ['BLOCK', number]),
            'STREAMS',
            stream,
            '>',
          )) as [string, [string, string[]][]][] | null
          if (res) entries.push(...res[0]![1])
          for (const [id, fields] of entries) await this.routeEntry(shard, id, fields)
          read += entries.length
        }
        if (reclaim) this.lastReclaim = Date.now()
        if (read > 0) this.wake?.()
        else if (this.options.cluster || this.shards.length !== 1) await pause(this.options.pollMs ?? 250)
      } catch (err) {
        if (String((err as Error).message).includes('NOGROUP')) this.groupsMade.clear()
        else if (!this.stopping) log.warn({ err }, 'reading the alert streams failed; retried in a second')
        await pause(1000)
      }
    }
  }

  /** The destinations of the alert rules (of the version that shaped the alert) that name some. */
  /** The notification actions of the rules of `version` applied to an alert, in their order. */
  private async ruleActions(accountId: string, f: Record<string, string>): Promise<RuleActions[]> {
    let applied: string[] = []
    try {
      applied = f['rulesApplied'] ? (JSON.parse(f['rulesApplied']) as string[]) : []
    } catch {
      applied = []
    }
    const version = Number(f['rulesVersion'])
    if (applied.length === 0 || !Number.isInteger(version)) return []
    const key = `${accountId}\n${version}`
    let byRule = this.rulesNotify.get(key)
    if (!byRule) {
      const rules = await this.rulesAndWindows.rulesAt(accountId, version)
      byRule = new Map(
        (rules?.rules ?? [])
          .filter((r) => r.notify?.length || r.escalate)
          .map((r) => [r.id, { notify: r.notify ?? [], ...(r.escalate ? { escalate: r.escalate } : {}) }]),
      )
      this.rulesNotify.set(key, byRule)
      if (this.rulesNotify.size > 1000) this.rulesNotify.delete(this.rulesNotify.keys().next().value as string)
    }
    return applied.flatMap((id) => byRule.get(id) ?? [])
  }

  private async targets(accountId: string, f: Record<string, string>, d: AccountDestinations): Promise<string[]> {
    const fromRules = [...new Set((await this.ruleActions(accountId, f)).flatMap((a) => a.notify))]
    return fromRules.length > 0 ? fromRules : [...d.route]
  }

  /** The deliveries of one stream entry, stored with its acknowledgement. */
  private async routeEntry(shard: string, entryId: string, flat: readonly string[]): Promise<void> {
    const f = entryFieldMap(flat)
    const incidentId = f['incidentId']
    const event = eventOf(f)
    const now = Date.now()
    const ack = () => this.store.route(shard, entryId, [], { now, ttlMs: this.options.retentionMs })
    // Suppressed alerts are never sent; `repeated` entries neither (reminders are timed per destination); an alert of
    // an incident only when it changed what the incident says.
    // An alert that joined an open incident (held ones, suppressed or inhibited, are told nothing).
    if (incidentId && f['incidentEvent'] === 'joined' && f['alertId'] && f['integrationId'])
      return f['status'] === 'firing' || f['status'] === 'acknowledged'
        ? this.routeUpdate(entryId, f, incidentId, now, ack)
        : void (await ack())
    if (!event || event === 'repeated' || !f['alertId'] || !f['integrationId']) return void (await ack())
    const accountId = (await this.integrationCache.get(f['integrationId']))?.accountId
    if (!accountId) return void (await ack())
    const opening = event === 'triggered' || event === 'reopened'
    if (opening && incidentId && this.options.escalate) {
      const policyId = (await this.ruleActions(accountId, f)).find((a) => a.escalate)?.escalate
      await this.options.escalate({
        accountId,
        incidentId,
        ...(policyId ? { policyId } : {}),
        alert: notifiedAlert(f),
        now,
      })
    }
    const dests = await this.destinations.get(accountId)
    if (dests.byId.size === 0) return void (await ack())
    const alertId = f['alertId']
    // An incident's later events go where its opening went.
    const routesId = incidentId ?? alertId
    const targets = opening
      ? await this.targets(accountId, f, dests)
      : ((await this.store.routesOf(accountId, routesId)) ?? (await this.targets(accountId, f, dests)))
    const alert = notifiedAlert(f)
    const giveUpAt = now + this.options.giveUpMs
    const deliveries: NewDelivery[] = []
    for (const destinationId of targets) {
      const d = dests.byId.get(destinationId)
      if (!d || !d.enabled) continue
      const data: DeliveryData = {
        accountId,
        destinationId,
        alertId,
        entryId,
        event,
        alert,
        ...(incidentId ? { incidentId } : {}),
      }
      // Damping: an incident's events wait the destination's delay, in order (dispatch drops those of one that
      // resolved meanwhile).
      const delayMs = incidentId && d.delay ? (dampingDelayMs(d.delay) ?? 0) : 0
      if (d.events.includes(event))
        deliveries.push({
          id: deliveryId(entryId, destinationId),
          data,
          dueAt: now + delayMs,
          giveUpAt: giveUpAt + delayMs,
        })
      if (opening && d.events.includes('repeated')) deliveries.push(this.reminder(data, 1, now))
    }
    await this.store.route(accountId, entryId, deliveries, {
      now,
      ttlMs: this.options.retentionMs,
      alertId,
      routesId,
      ...(opening ? { routes: targets } : {}),
    })
  }

  /**
   * An alert that joined an open incident: for each destination its incident went to that asks for `updated`, one
   * update per period of the destination's updateAfterMinutes (the period's first joiner makes it, the others find it
   * made), due when the period ends and telling every alert that joined from that first one on.
   */
  private async routeUpdate(
    entryId: string,
    f: Record<string, string>,
    incidentId: string,
    now: number,
    ack: () => Promise<unknown>,
  ): Promise<void> {
    const accountId = (await this.integrationCache.get(f['integrationId']!))?.accountId
    const routes = accountId ? await this.store.routesOf(accountId, incidentId) : undefined
    const dests = accountId && routes ? await this.destinations.get(accountId) : undefined
    const wanting = (routes ?? []).flatMap((id) => {
      const d = dests?.byId.get(id)
      return d?.enabled && d.events.includes('updated') ? [d] : []
    })
    if (!accountId || wanting.length === 0) return void (await ack())
    const alertId = f['alertId']!
    // One no longer a member (merged or taken out since) adds nothing to this incident's updates.
    const since = await this.incidents.memberNumber(accountId, incidentId, alertId)
    if (since === undefined) return void (await ack())
    const deliveries = wanting.map((d): NewDelivery => {
      const period = updatePeriodMs(d)
      const slot = Math.floor(now / period)
      const dueAt = (slot + 1) * period + (d.delay ? (dampingDelayMs(d.delay) ?? 0) : 0)
      return {
        id: deliveryId(incidentId, d.id, 'updated', String(slot)),
        data: {
          accountId,
          destinationId: d.id,
          alertId,
          entryId,
          event: 'updated',
          alert: notifiedAlert(f),
          incidentId,
          since,
        },
        dueAt,
        giveUpAt: dueAt + this.options.giveUpMs,
      }
    })
    await this.store.route(accountId, entryId, deliveries, { now, ttlMs: this.options.retentionMs, alertId })
  }

  private reminder(of: DeliveryData, n: number, now: number): NewDelivery {
    const d = this.destinations.peek(of.accountId)?.byId.get(of.destinationId)
    const dueAt = now + (d?.repeatAfterMinutes ?? 60) * 60_000
    return {
      id: deliveryId(of.alertId, of.destinationId, of.entryId, 'reminder', String(n)),
      data: { ...of, event: 'repeated', reminder: n },
      dueAt,
      giveUpAt: dueAt + this.options.giveUpMs,
    }
  }

  // ------------------------------------------------------------------ delivering

  /** The delivery loop's wait: new deliveries (routed, or a destination's backlog drained) end it early. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined
        resolve()
      }, ms)
      this.wake = () => {
        clearTimeout(timer)
        this.wake = undefined
        resolve()
      }
    })
  }

  private async deliverLoop(): Promise<void> {
    const batch = this.options.claimBatch ?? 500
    while (!this.stopping) {
      let claimedAny = false
      try {
        await this.flushUnsettled()
        for (const shard of this.shards) {
          const claimed = await this.store.claim(shard, Date.now(), this.options.leaseMs, batch)
          if (claimed.length > 0) {
            claimedAny = claimed.length === batch
            await this.dispatch(claimed)
          }
        }
      } catch (err) {
        if (!this.stopping) this.options.log.warn({ err }, 'claiming due deliveries failed; retried in a second')
        await this.sleep(1000)
        continue
      }
      if (!claimedAny) await this.sleep(this.options.pollMs ?? 250)
    }
  }

  private async flushUnsettled(): Promise<void> {
    while (this.unsettled.length > 0) {
      const first = this.unsettled[0]!
      const run = this.unsettled.filter((u) => u.account === first.account).slice(0, 500)
      await this.store.settle(
        first.account,
        run.map((u) => u.s),
        Date.now(),
        this.options.retentionMs,
      )
      const done = new Set(run)
      this.unsettled.splice(0, this.unsettled.length, ...this.unsettled.filter((u) => !done.has(u)))
    }
  }

  private async settle(accountId: string, settlements: Settlement[]): Promise<void> {
    try {
      await this.store.settle(accountId, settlements, Date.now(), this.options.retentionMs)
    } catch (err) {
      this.options.log.warn({ err, deliveries: settlements.length }, 'recording deliveries failed; kept to retry')
      for (const s of settlements)
        if (this.unsettled.length < MAX_UNSETTLED) this.unsettled.push({ account: accountId, s })
    }
  }

  /** Sends what was claimed, per destination: within its breaker, concurrency and rate; the rest postponed. */
  private async dispatch(claimed: readonly ClaimedDelivery[]): Promise<void> {
    const groups = new Map<string, ClaimedDelivery[]>()
    for (const c of claimed) {
      const key = `${c.data.accountId}\n${c.data.destinationId}`
      const list = groups.get(key)
      if (list) list.push(c)
      else groups.set(key, [c])
    }
    for (const items of groups.values()) await this.dispatchDestination(items)
  }

  private async dispatchDestination(claimed: ClaimedDelivery[]): Promise<void> {
    const { accountId, destinationId } = claimed[0]!.data
    const now = Date.now()
    const settlements: Settlement[] = []
    const d = (await this.destinations.get(accountId)).byId.get(destinationId)
    if (!d || !d.enabled) {
      const error = d ? 'the destination is disabled' : 'the destination was deleted'
      for (const c of claimed)
        settlements.push({
          id: c.id,
          outcome: 'cancelled',
          attempt: { at: now, result: 'give-up', error, ms: 0, events: 0 },
        })
      return this.settle(accountId, settlements)
    }
    // Reminders of alerts (or incidents) no longer firing (acknowledged, resolved) are cancelled.
    const items: ClaimedDelivery[] = []
    for (const c of claimed) {
      const incidentId = c.data.incidentId
      if (incidentId && d.delay && c.data.event !== 'repeated' && !c.data.page) {
        const opening = c.data.event === 'triggered' || c.data.event === 'reopened'
        if (await this.incidents.damped(accountId, incidentId, destinationId, opening)) {
          settlements.push({ id: c.id, outcome: 'cancelled' })
          continue
        }
      }
      if (c.data.event === 'updated') {
        // Told while its incident is open, with what joined since; nothing once it resolved (or nothing joined).
        c.update = incidentId ? await this.incidentUpdate(c, incidentId) : undefined
        if (!c.update) {
          settlements.push({ id: c.id, outcome: 'cancelled' })
          continue
        }
      }
      if (c.data.event === 'repeated') {
        const firing = c.data.incidentId
          ? (await this.incidents.get(accountId, c.data.incidentId))?.status === 'triggered'
          : (await this.alerts.get(accountId, c.data.alertId))?.status === 'firing'
        if (!firing) {
          settlements.push({ id: c.id, outcome: 'cancelled' })
          continue
        }
      }
      if (c.data.page) {
        // A page of an escalation step: nothing once someone acknowledged, or it resolved.
        const status = c.data.incidentId ? (await this.incidents.get(accountId, c.data.incidentId))?.status : undefined
        if (status !== 'triggered') {
          settlements.push({ id: c.id, outcome: 'cancelled' })
          continue
        }
      }
      items.push(c)
    }
    const key = `${accountId}\n${destinationId}`
    // A page goes alone (to its responder's address, or mentioning them); the others in digests if the kind takes them.
    const chunks: ClaimedDelivery[][] = items.filter((c) => c.data.page).map((c) => [c])
    const rest = items.filter((c) => !c.data.page)
    const size = digests(d) ? d.limits.maxDigest : 1
    for (let i = 0; i < rest.length; i += size) chunks.push(rest.slice(i, i + size))
    // Claimed messages wait here for a free slot of the destination, up to a claim's worth; one that has waited half
    // its lease is handed back (due again) rather than sent late, when another process may already have it.
    const queue = this.backlog.get(key) ?? []
    this.backlog.set(key, queue)
    const room = Math.max(0, (this.options.claimBatch ?? 500) - queue.length)
    queue.push(...chunks.slice(0, room).map((items) => ({ at: now, items })))
    for (const c of chunks.slice(room).flat()) settlements.push({ id: c.id, outcome: 'postpone', nextAt: now + 1000 })
    await this.settle(accountId, settlements)
    await this.pump(d, key)
  }

  /** An update's incident, open, and the alerts it tells (IncidentStore.updateRange), or undefined: no news. */
  private async incidentUpdate(c: ClaimedDelivery, id: string): Promise<IncidentUpdate | undefined> {
    const { accountId, destinationId } = c.data
    const incident = await this.incidents.get(accountId, id)
    if (incident?.status !== 'triggered' && incident?.status !== 'acknowledged') return undefined
    const joined = await this.incidents.updateRange(
      accountId,
      id,
      destinationId,
      c.id,
      c.data.since ?? 1,
      incident.alerts,
      MESSAGE_LIMITS.updateListed,
    )
    if (joined.count === 0) return undefined
    const { title, status, severity, alerts, open } = incident
    return {
      incident: { id, title, status, severity, alerts, open },
      added: joined.count,
      alerts: joined.alerts.map(recordAlert),
    }
  }

  /** Sends the destination's waiting messages within its breaker, concurrency and rate; postpones them when blocked. */
  private async pump(d: StoredDestination, key: string): Promise<void> {
    const queue = this.backlog.get(key)
    if (!queue) return
    const breaker = this.breakers.get(key) ?? new Breaker()
    this.breakers.set(key, breaker)
    // Only this queue leaves the map: while this pump waited, the queue may have been replaced by a newer one.
    const forget = () => this.backlog.get(key) === queue && this.backlog.delete(key)
    // Held back until `until`. Held by an open breaker (`breakerOpen`), one whose give-up time comes first goes to the
    // dead letter now: a breaker that stays open must not keep a delivery waiting past it. Held by the destination's
    // own rate limit or a backlog gone stale, it was never tried and is only postponed: a storm's tail, sent as digests
    // a second apart on a slow machine, once passed its give-up time waiting its turn and was given up unsent.
    const hold = async (chunks: { items: ClaimedDelivery[] }[], until: number, breakerOpen = false) => {
      const held = chunks.flatMap((c) => c.items)
      if (held.length === 0) return
      const now = Date.now()
      const givenUp = (c: ClaimedDelivery) => breakerOpen && until > c.giveUpAt
      const late = held.filter(givenUp).length
      if (late > 0) this.options.metrics.notificationsDead.inc({ kind: d.kind }, late)
      await this.settle(
        held[0]!.data.accountId,
        held.map((c): Settlement =>
          givenUp(c)
            ? {
                id: c.id,
                outcome: 'dead',
                destinationId: c.data.destinationId,
                attempt: {
                  at: now,
                  result: 'give-up',
                  error: 'not sent: the destination kept failing (its breaker open) until the give-up time',
                  ms: 0,
                  events: 0,
                },
              }
            : { id: c.id, outcome: 'postpone', nextAt: until },
        ),
      )
    }
    while (queue.length > 0 && (this.inFlight.get(key) ?? 0) < d.limits.concurrency) {
      const now = Date.now()
      let stale = 0
      while (stale < queue.length && now - queue[stale]!.at > this.options.leaseMs / 2) stale++
      if (stale > 0) {
        await hold(queue.splice(0, stale), now)
        continue
      }
      // The slot is taken before the rate limit is asked (an await): another pump cannot take it meanwhile.
      const chunk = queue.shift()!
      this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1)
      const blocked = breaker.blockedUntil(now)
      const wait = blocked > 0 ? 0 : (await this.options.limiter(d).take(key)).wait
      if (blocked > 0 || wait > 0) {
        this.inFlight.set(key, (this.inFlight.get(key) ?? 1) - 1)
        queue.unshift(chunk)
        forget()
        return hold(queue.splice(0), blocked > 0 ? blocked : now + Math.ceil(wait * 1000), blocked > 0)
      }
      if (breaker.failures >= BREAKER.failures) breaker.trial = true
      this.launch(d, chunk.items, breaker)
    }
    if (queue.length === 0 && forget()) this.wake?.()
  }

  private openDestination(d: StoredDestination): OpenedDestination | string {
    const hit = this.opened.get(d.id)
    if (hit && hit.updatedAt === d.updatedAt) return hit.d
    const opened = openDestination(d, this.secrets)
    if (typeof opened !== 'string') this.opened.set(d.id, { updatedAt: d.updatedAt, d: opened })
    return opened
  }

  /** Sends one message in the slot pump took for it; its outcome is settled, and the slot freed, when it ends. */
  private launch(d: StoredDestination, chunk: ClaimedDelivery[], breaker: Breaker): void {
    const key = `${chunk[0]!.data.accountId}\n${d.id}`
    const run = async () => {
      const started = Date.now()
      const opened = this.openDestination(d)
      const items: NotifyItem[] = chunk.map((c) => ({
        deliveryId: c.id,
        event: c.data.event,
        alert: c.update ? { ...c.data.alert, status: c.update.incident.status } : c.data.alert,
        // Where the page is read: the incident (its alerts, timeline, Acknowledge), or the alert of one stored before.
        link: c.data.incidentId
          ? `${this.options.consoleUrl}/console/#/incidents?status=all&incident=${encodeURIComponent(c.data.incidentId)}`
          : `${this.options.consoleUrl}/console/#/alerts?alert=${encodeURIComponent(c.data.alertId)}`,
        ...(c.update ? { update: c.update } : {}),
        ...(c.data.page ? { page: c.data.page } : {}),
        ...(c.data.page?.userId && c.data.incidentId && d.kind === 'email' && this.options.pageLinks
          ? { actions: this.options.pageLinks(c.data.accountId, c.data.incidentId, c.data.page.userId) }
          : {}),
      }))
      const outcome: SendOutcome =
        typeof opened === 'string'
          ? { result: 'give-up', error: opened }
          : await send(paged(opened, chunk[0]!.data.page), items, this.options.policy)
      const now = Date.now()
      breaker.record(outcome.result === 'delivered', now)
      const attempt = {
        at: started,
        result: outcome.result,
        ...(outcome.status !== undefined ? { status: outcome.status } : {}),
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
        ms: now - started,
        events: chunk.length,
      }
      const settlements: Settlement[] = []
      const next: NewDelivery[] = []
      for (const c of chunk) {
        if (outcome.result === 'delivered') {
          settlements.push({ id: c.id, outcome: 'delivered', attempt, destinationId: c.data.destinationId })
          if (c.data.event === 'repeated') next.push(this.reminder(c.data, (c.data.reminder ?? 1) + 1, now))
        } else if (outcome.result === 'give-up')
          settlements.push({ id: c.id, outcome: 'dead', attempt, destinationId: c.data.destinationId })
        else {
          const n = c.attempts + 1
          const backoff = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** (n - 1)) * (0.5 + Math.random() / 2)
          const nextAt = now + Math.max(backoff, outcome.retryAfterMs ?? 0)
          settlements.push({
            id: c.id,
            outcome: nextAt > c.giveUpAt ? 'dead' : 'retry',
            nextAt,
            attempt,
            destinationId: c.data.destinationId,
          })
        }
      }
      this.count(d, outcome, chunk, settlements.filter((x) => x.outcome === 'dead').length, now)
      const accountId = chunk[0]!.data.accountId
      await this.settle(accountId, settlements)
      if (next.length > 0)
        await this.store
          .route(accountId, '', next, { now, ttlMs: this.options.retentionMs, alertId: chunk[0]!.data.alertId })
          .catch((err: unknown) => this.options.log.warn({ err }, 'scheduling a reminder failed'))
    }
    const p = run()
      .catch((err: unknown) => this.options.log.error({ err }, 'a delivery failed unexpectedly'))
      .finally(() => {
        this.inFlight.set(key, (this.inFlight.get(key) ?? 1) - 1)
        this.sends.delete(p)
        if (this.backlog.has(key))
          void this.pump(d, key).catch((err: unknown) => this.options.log.warn({ err }, 'sending failed'))
      })
    this.sends.add(p)
  }

  private count(
    d: StoredDestination,
    outcome: SendOutcome,
    chunk: readonly ClaimedDelivery[],
    dead: number,
    now: number,
  ): void {
    const m = this.options.metrics
    m.notificationMessages.inc({ kind: d.kind, result: outcome.result })
    if (outcome.result === 'delivered') {
      m.notificationsDelivered.inc({ kind: d.kind }, chunk.length)
      for (const c of chunk) {
        // The alert was stored when its stream entry was written (the entry id's time).
        const stored = Number(c.data.entryId.split('-')[0])
        if (c.data.event !== 'repeated' && stored > 0) m.notificationLatency.observe((now - stored) / 1000)
      }
    } else if (dead > 0) {
      m.notificationsDead.inc({ kind: d.kind }, dead)
      this.options.log.warn(
        { destinationId: d.id, kind: d.kind, status: outcome.status, error: outcome.error, deliveries: dead },
        'notification given up: in the dead letter',
      )
    }
  }
}
