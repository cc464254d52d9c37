// Notification state in Redis: each account's destinations and default route, and the deliveries.
// Keys (P: the account's alert prefix, alert-streams.ts; on a cluster every key of an account shares its slot):
//   P notify:acct:<a>:destinations          hash id → destination JSON (secrets sealed)
//   P notify:acct:<a>:destinations:version  counter, bumped by every change (the notify processes' caches)
//   P notify:acct:<a>:route                 the default route: JSON list of destination ids
//   P notify:due                            zset delivery id → when it is due (per shard; one Redis: one)
//   P notify:d:<delivery>                   hash: data (JSON: account, destination, alert, event), status
//                                           (pending, delivered, dead, cancelled), attempts, log (JSON), nextAt,
//                                           giveUpAt, lastStatus, lastError, createdAt, updatedAt, deliveredAt
//   P notify:acct:<a>:alert:<alert>         zset: the alert's deliveries by when each is due (its delivery log)
//   P notify:acct:<a>:dest:<destination>   zset: the destination's last 200 deliveries by when each is due
//   P notify:acct:<a>:routes:<alert>        JSON list: the destinations the alert was routed to when it opened
//   P notify:acct:<a>:dead                  zset: the account's dead letter (deliveries given up) by time
//   P notify:acct:<a>:volume:<hour>         hash <destination>:delivered|failed|dead → deliveries in that hour (hours
//                                           since the epoch), kept VOLUME_KEEP_MS
//   {admin} notify:accounts                 set: accounts with destinations (a cluster's shards)
import type { StoredDestination } from '../../pipeline/notify/destinations.js'
import type { IncidentUpdate, NotifiedAlert, NotifyEvent } from '../../pipeline/notify/messages.js'
import { alertStreamKeys } from './alert-streams.js'
import { RedisState } from './redis-state.js'
import { queueScript } from './scripts.js'

/** The consumer group of the notify role on the alert streams. */
export const NOTIFY_GROUP = 'sluice-notify'

/** Attempts kept in a delivery's log. */
export const DELIVERY_LOG_SIZE = 20

/** A delivery's fixed part, written when it is created. */
export interface DeliveryData {
  readonly accountId: string
  readonly destinationId: string
  readonly alertId: string
  /** The stream entry it was made from ('' for a reminder). */
  readonly entryId: string
  readonly event: NotifyEvent
  readonly alert: NotifiedAlert
  /** For a reminder: which one it is (1, 2, ...). */
  readonly reminder?: number
  /** The incident the alert stands for (its events are the incident's). */
  readonly incidentId?: string
  /** For `updated`: the place of the first alert it tells among its incident's (the ones after it are told too). */
  readonly since?: number
  /** A page of an escalation step: sent alone, only while its incident is still triggered. */
  readonly page?: PageData
}

/** What an escalation step's delivery carries besides the alert: whose page, and where in the destination it goes. */
export interface PageData {
  readonly policyId: string
  readonly round: number
  readonly step: number
  /** The responder paged (none: a destination paged as such). */
  readonly userId?: string
  /** An email destination sends it to this address alone. */
  readonly to?: string
  /** A Slack destination mentions this member. */
  readonly mention?: string
}

export interface DeliveryAttempt {
  readonly at: number
  readonly result: 'delivered' | 'retry' | 'give-up'
  readonly status?: number
  readonly error?: string
  readonly ms: number
  /** The message carried this many alert events (a digest when above 1). */
  readonly events: number
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dead' | 'cancelled'

export interface Delivery {
  readonly id: string
  readonly data: DeliveryData
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly log: readonly DeliveryAttempt[]
  readonly nextAt: number
  readonly giveUpAt: number
  readonly createdAt: number
  readonly updatedAt: number
  readonly deliveredAt?: number
  readonly lastStatus?: string
  readonly lastError?: string
}

/** A delivery claimed for sending. */
export interface ClaimedDelivery {
  readonly id: string
  readonly data: DeliveryData
  readonly attempts: number
  readonly giveUpAt: number
  /** For `updated`: the incident and its alerts added, read when it is sent. */
  update?: IncidentUpdate
}

export interface NewDelivery {
  readonly id: string
  readonly data: DeliveryData
  readonly dueAt: number
  readonly giveUpAt: number
}

export type SettleOutcome = 'postpone' | 'retry' | 'delivered' | 'dead' | 'cancelled'

export interface Settlement {
  readonly id: string
  readonly outcome: SettleOutcome
  readonly nextAt?: number
  readonly attempt?: DeliveryAttempt
  /** The destination it was tried on: a try is counted in its hour's volume. */
  readonly destinationId?: string
}

/** How long an hour's count of deliveries per destination is kept. */
export const VOLUME_KEEP_MS = 8 * 24 * 3_600_000

const HOUR_MS = 3_600_000

/** One hour's deliveries of a destination: delivered, tried and failed (retried later), given up. */
export interface VolumeCounts {
  delivered: number
  failed: number
  dead: number
}

export class NotifyStore extends RedisState {
  /** The keys of an account's notification state. */
  keys(accountId: string) {
    const streams = alertStreamKeys(this.prefix, this.cluster, accountId)
    const P = streams.prefix
    const a = `${P}notify:acct:${accountId}:`
    return {
      stream: streams.all,
      destinations: `${a}destinations`,
      version: `${a}destinations:version`,
      route: `${a}route`,
      due: `${P}notify:due`,
      delivery: `${P}notify:d:`,
      alertLog: (alertId: string) => `${a}alert:${alertId}`,
      destinationLog: `${a}dest:`,
      routes: (alertId: string) => `${a}routes:${alertId}`,
      dead: `${a}dead`,
      volume: (hour: number) => `${a}volume:${hour}`,
    }
  }

  private get accountsKey(): string {
    return this.k('notify', 'accounts')
  }

  // ------------------------------------------------------------ destinations

  async destinations(accountId: string): Promise<{ version: string; list: StoredDestination[]; route: string[] }> {
    const k = this.keys(accountId)
    const res = await this.redis.multi().get(k.version).hgetall(k.destinations).get(k.route).exec()
    const version = (res?.[0]?.[1] as string | null) ?? '0'
    const all = (res?.[1]?.[1] as Record<string, string> | null) ?? {}
    const route = JSON.parse((res?.[2]?.[1] as string | null) ?? '[]') as string[]
    const list = Object.values(all)
      .map((j) => JSON.parse(j) as StoredDestination)
      .sort((x, y) => x.createdAt - y.createdAt || x.id.localeCompare(y.id))
    return { version, list, route }
  }

  async destinationsVersion(accountId: string): Promise<string> {
    return (await this.redis.get(this.keys(accountId).version)) ?? '0'
  }

  async destination(accountId: string, id: string): Promise<StoredDestination | undefined> {
    const json = await this.redis.hget(this.keys(accountId).destinations, id)
    return json ? (JSON.parse(json) as StoredDestination) : undefined
  }

  /** Saves a destination; a CONFLICT when the account's stored bytes would pass its budget (nothing saved). */
  async saveDestination(accountId: string, d: StoredDestination): Promise<void> {
    const k = this.keys(accountId)
    const text = JSON.stringify(d)
    await this.ensureGroup(accountId)
    await this.tx.optimistic<void>([this.bytesKey(accountId)], async (conn) => {
      const field = `destination:${d.id}`
      const { queue } = await this.chargeBytes(
        conn,
        accountId,
        { [field]: Buffer.byteLength(text) },
        'this destination',
        {
          stored: { [field]: await conn.hstrlen(k.destinations, d.id) },
        },
      )
      const tx = conn.multi().hset(k.destinations, d.id, text).incr(k.version)
      queue(tx)
      return { tx, result: undefined }
    })
    await this.redis.sadd(this.accountsKey, accountId)
  }

  /**
   * The notify consumer group on the stream the account's alerts go to, made (at the stream's end) when the account's
   * first destination is saved: every alert event from then on is read, however late a notify process starts.
   */
  async ensureGroup(accountId: string): Promise<void> {
    try {
      await this.redis.xgroup('CREATE', this.keys(accountId).stream, NOTIFY_GROUP, '$', 'MKSTREAM')
    } catch (err) {
      if (!String((err as Error).message).includes('BUSYGROUP')) throw err
    }
  }

  /** Removes a destination, and its id from the default route. False when there was none. */
  async deleteDestination(accountId: string, id: string): Promise<boolean> {
    const k = this.keys(accountId)
    const route = (await this.destinations(accountId)).route.filter((r) => r !== id)
    const res = await this.redis
      .multi()
      .hdel(k.destinations, id)
      .set(k.route, JSON.stringify(route))
      .incr(k.version)
      .hdel(this.bytesKey(accountId), `destination:${id}`)
      .exec()
    return (res?.[0]?.[1] as number) === 1
  }

  async saveRoute(accountId: string, ids: readonly string[]): Promise<void> {
    const k = this.keys(accountId)
    await this.redis.multi().set(k.route, JSON.stringify(ids)).incr(k.version).exec()
    await this.redis.sadd(this.accountsKey, accountId)
  }

  /** The accounts with notification settings (the shards a cluster's notify processes read). */
  async accounts(): Promise<string[]> {
    return this.redis.smembers(this.accountsKey)
  }

  // ------------------------------------------------------------ deliveries

  /**
   * Creates deliveries (each once) and acknowledges the stream entry they come from, in one script call. `routes`:
   * the destinations an opening alert (or incident: `routesId`) was routed to, kept for its later events.
   */
  async route(
    accountId: string,
    entryId: string,
    deliveries: readonly NewDelivery[],
    opts: { now: number; ttlMs: number; alertId?: string; routesId?: string; routes?: readonly string[] },
  ): Promise<number> {
    const routesId = opts.routesId ?? opts.alertId
    const k = this.keys(accountId)
    const args: (string | number)[] = [
      NOTIFY_GROUP,
      entryId,
      opts.now,
      opts.ttlMs,
      k.delivery,
      opts.alertId ? k.alertLog(opts.alertId) : '',
      routesId && opts.routes ? k.routes(routesId) : '',
      JSON.stringify(opts.routes ?? []),
      k.destinationLog,
    ]
    for (const d of deliveries) args.push(d.id, JSON.stringify(d.data), d.dueAt, d.giveUpAt, d.data.destinationId)
    return (await this.scripts.notifyRoute(k.due, k.stream, ...args)) as number
  }

  /** The destinations an alert (or an incident) was routed to when it opened, if known. */
  async routesOf(accountId: string, alertId: string): Promise<string[] | undefined> {
    const json = await this.redis.get(this.keys(accountId).routes(alertId))
    return json ? (JSON.parse(json) as string[]) : undefined
  }

  /** Claims up to `limit` due deliveries of the shard of `accountId` (with one Redis: of every account). */
  async claim(accountId: string, now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    const k = this.keys(accountId)
    const flat = (await this.scripts.notifyClaim(k.due, now, leaseMs, limit, k.delivery)) as string[]
    const out: ClaimedDelivery[] = []
    for (let i = 0; i + 3 < flat.length; i += 4)
      out.push({
        id: flat[i]!,
        data: JSON.parse(flat[i + 1]!) as DeliveryData,
        attempts: Number(flat[i + 2]),
        giveUpAt: Number(flat[i + 3]),
      })
    return out
  }

  /** Records outcomes of claimed deliveries (one pipeline). */
  async settle(accountId: string, settlements: readonly Settlement[], now: number, ttlMs: number): Promise<void> {
    if (settlements.length === 0) return
    const k = this.keys(accountId)
    const pipe = this.redis.pipeline()
    for (const s of settlements) {
      const a = s.attempt
      queueScript(
        pipe,
        'notifySettle',
        k.due,
        k.dead,
        k.volume(Math.floor(now / HOUR_MS)),
        k.delivery + s.id,
        s.id,
        s.outcome,
        s.nextAt ?? now,
        now,
        ttlMs,
        a ? JSON.stringify(a) : '',
        a?.status ?? '',
        a?.error ?? '',
        DELIVERY_LOG_SIZE,
        0,
        s.destinationId ?? '',
        VOLUME_KEEP_MS,
      )
    }
    const res = await pipe.exec()
    const failed = res?.find(([err]) => err)
    if (failed) throw failed[0] as Error
  }

  /**
   * The account's deliveries per hour over the last `hours` hours (the current one last), per destination: each
   * hour's start (epoch ms) and what was delivered, failed and given up on each destination that had any.
   */
  async volume(
    accountId: string,
    hours: number,
    now: number,
  ): Promise<{ at: number; destinations: Record<string, VolumeCounts> }[]> {
    const k = this.keys(accountId)
    const last = Math.floor(now / HOUR_MS)
    const pipe = this.redis.pipeline()
    for (let h = last - hours + 1; h <= last; h++) pipe.hgetall(k.volume(h))
    const res = (await pipe.exec()) ?? []
    return res.map(([err, fields], i) => {
      if (err) throw err
      const destinations: Record<string, VolumeCounts> = Object.create(null) as Record<string, VolumeCounts>
      for (const [field, n] of Object.entries(fields as Record<string, string>)) {
        const at = field.lastIndexOf(':')
        const kind = field.slice(at + 1) as keyof VolumeCounts
        const dest = (destinations[field.slice(0, at)] ??= { delivered: 0, failed: 0, dead: 0 })
        if (kind in dest) dest[kind] = Number(n)
      }
      return { at: (last - hours + 1 + i) * HOUR_MS, destinations }
    })
  }

  /** Sends a dead delivery again from now on. False when it is not in the dead letter. */
  async requeue(accountId: string, id: string, now: number, giveUpAt: number, ttlMs: number): Promise<boolean> {
    const k = this.keys(accountId)
    const data = await this.redis.hget(k.delivery + id, 'data')
    if (!data || (JSON.parse(data) as DeliveryData).accountId !== accountId) return false
    const done = await this.scripts.notifySettle(
      k.due,
      k.dead,
      k.volume(Math.floor(now / HOUR_MS)),
      k.delivery + id,
      id,
      'requeue',
      now,
      now,
      ttlMs,
      '',
      '',
      '',
      DELIVERY_LOG_SIZE,
      giveUpAt,
      '',
      VOLUME_KEEP_MS,
    )
    return done === 1
  }

  /** One delivery of the account, or undefined. */
  async delivery(accountId: string, id: string): Promise<Delivery | undefined> {
    const k = this.keys(accountId)
    const [d] = await this.deliveries(k.delivery, [id])
    return d && d.data.accountId === accountId ? d : undefined
  }

  /** An alert's deliveries, in the order they were due. */
  async alertDeliveries(accountId: string, alertId: string, limit = 200): Promise<Delivery[]> {
    const k = this.keys(accountId)
    const ids = await this.redis.zrange(k.alertLog(alertId), 0, limit - 1)
    return (await this.deliveries(k.delivery, ids)).filter((d) => d.data.accountId === accountId)
  }

  /** A destination's last deliveries, the latest due first. */
  async destinationDeliveries(accountId: string, destinationId: string, limit = 50): Promise<Delivery[]> {
    const k = this.keys(accountId)
    const ids = await this.redis.zrevrange(k.destinationLog + destinationId, 0, limit - 1)
    return (await this.deliveries(k.delivery, ids)).filter((d) => d.data.accountId === accountId)
  }

  /** The account's dead letter, newest first. */
  async dead(accountId: string, limit = 100): Promise<Delivery[]> {
    const k = this.keys(accountId)
    const ids = await this.redis.zrevrange(k.dead, 0, limit - 1)
    return (await this.deliveries(k.delivery, ids)).filter((d) => d.status === 'dead')
  }

  /** Deliveries pending (due or leased) in a shard. */
  async pendingCount(accountId: string): Promise<number> {
    return this.redis.zcard(this.keys(accountId).due)
  }

  private async deliveries(prefix: string, ids: readonly string[]): Promise<Delivery[]> {
    if (ids.length === 0) return []
    const pipe = this.redis.pipeline()
    for (const id of ids) pipe.hgetall(prefix + id)
    const res = (await pipe.exec()) ?? []
    const out: Delivery[] = []
    res.forEach(([, h], i) => {
      const f = h as Record<string, string>
      if (!f['data']) return
      out.push({
        id: ids[i]!,
        data: JSON.parse(f['data']) as DeliveryData,
        status: f['status'] as DeliveryStatus,
        attempts: Number(f['attempts'] ?? 0),
        log: JSON.parse(f['log'] ?? '[]') as DeliveryAttempt[],
        nextAt: Number(f['nextAt'] ?? 0),
        giveUpAt: Number(f['giveUpAt'] ?? 0),
        createdAt: Number(f['createdAt'] ?? 0),
        updatedAt: Number(f['updatedAt'] ?? 0),
        ...(f['deliveredAt'] ? { deliveredAt: Number(f['deliveredAt']) } : {}),
        ...(f['lastStatus'] ? { lastStatus: f['lastStatus'] } : {}),
        ...(f['lastError'] ? { lastError: f['lastError'] } : {}),
      })
    })
    return out
  }
}
