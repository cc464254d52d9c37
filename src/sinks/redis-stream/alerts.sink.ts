// Writes normalized alerts to Redis streams: one per integration, one for all alerts, and one for
// rejections. Exactly once across replays: a Lua script adds each message's entries and records its
// offset, and does nothing for an offset already recorded; one call writes a run of up to 100
// messages. Messages of a batch are written in order: a refused message ends its run, and a run
// whose predecessor is not recorded (Redis refused it) is left alone, so the consumer can store that
// one as a rejection and then write the rest.
// Streams are trimmed by entry count and by age. The script is state/redis/lua/alerts-write.lua.
// On a Redis Cluster every account's keys (streams, records, offsets) share its slot (keys.ts): the
// messages of a batch are written per account, each account's in order with its own offsets, and
// each account's writes wait for a replica (WAIT) before the batch counts as stored, so a failover
// (Redis replicates asynchronously) cannot lose a write whose Kafka offset is then committed.
import { hash } from 'node:crypto'
import { Cluster } from 'ioredis'
import type { NormalizedAlert } from '../../pipeline/alerts/render.js'
import type { IncidentGroup, InhibitPairs } from '../../pipeline/incidents/grouping.js'
import { AppError, fromRedis } from '../../shared/errors.js'
import {
  alertStreamKeys,
  entryFieldMap,
  PAYLOAD_SAMPLES,
  type AlertStreamKeys,
} from '../../state/redis/alert-streams.js'
import type { RedisClient } from '../../state/redis/client.js'
import { argsOf, defineScripts, queueScript } from '../../state/redis/scripts.js'

export interface AlertRejection {
  readonly integrationId: string
  readonly requestId: string
  readonly reason: string
  readonly payload: string
  readonly receivedAt: string
}

/** An alert an alert rule dropped: kept a day in the account's dropped-alerts stream, so its request can be found. */
export interface DroppedEntry {
  readonly requestId: string
  readonly integrationId: string
  readonly dedupKey: string
  /** The rule that dropped it. */
  readonly rule: string
  readonly receivedAt: string
}

export interface MessageWrite {
  readonly topic: string
  readonly partition: number
  readonly offset: bigint
  /** The account the message was sent to (its webhook's), '' when unknown: whose keys it is written to on a cluster. */
  readonly accountId?: string
  readonly integrationId: string
  readonly alerts: readonly NormalizedAlert[]
  readonly rejections: readonly AlertRejection[]
  /** Set for a message replayed from an edge's spool: skipped when its request's entries are stored. */
  readonly replayOf?: { readonly requestId: string; readonly receivedAtMs: number }
  /** The lifecycle of the message's alerts: whose they are, when they were received, and the integration's settings. */
  readonly lifecycle?: AlertLifecycle
  /** The payload as received, kept among the integration's recent payloads (a PayloadSample's JSON). */
  readonly sample?: string
  /** The message's alerts that the account's rules dropped. */
  readonly dropped?: readonly DroppedEntry[]
  /** What the rules linked each alert to (by index): its incident group, its inhibition pairs. */
  readonly links?: readonly (AlertLinks | undefined)[]
}

/** An alert's links, decided by the rules: its incident group (none: an incident of its own), its inhibition. */
export interface AlertLinks {
  readonly group?: IncidentGroup
  readonly inhibit?: InhibitPairs
}

/** One of an integration's recent payloads: the payload itself when at most PAYLOAD_SAMPLES.maxBytes. */
export interface PayloadSample {
  readonly requestId: string
  readonly receivedAt: number
  readonly bytes: number
  readonly payload: unknown
}

export interface AlertLifecycle {
  readonly accountId: string
  /** The message's request (recorded, so that a replay of a message that wrote no entry is known). */
  readonly requestId: string
  readonly receivedAtMs: number
  /** Write repeats of an open incident to the streams too (else a repeat only updates its record). */
  readonly emitRepeats: boolean
  /** A firing incident not heard of for this long is resolved (0: never). */
  readonly autoResolveAfterMs: number
  /** Alerts whose dedup key rendered empty, and whose status nobody knows (counted per integration). */
  readonly dedupFallbacks: number
  readonly unknownStatuses: number
}

/** Messages per script call: a run of them is written in one call, and Redis is not held for long. */
const MESSAGES_PER_CALL = 100
/** Stream entries per script call, at most (a message with more is written alone). */
const ENTRIES_PER_CALL = 1200
const entriesOf = (m: MessageWrite) => m.alerts.length + m.rejections.length
/** KEYS of the script: offsets, all alerts, rejections, then the integrations' streams (1-based). */
const FIRST_INTEGRATION_KEY = 4

/** A refusal the script reports in a message's place (as fromRedis reports a refused command). */
const refused = (text: string) => new AppError('SINK_REFUSED_DATA', `redis: ${text}`, false)

/** What writing one message came to: written now, already written before, left for later, or refused (data). */
export type WriteResult = 'written' | 'already' | 'blocked' | AppError

/** Stream entry fields of an alert or a rejection: flat strings; an alert's customFields as JSON. */
function entryFields(entry: NormalizedAlert | AlertRejection): string[] {
  const fields: string[] = []
  for (const [k, v] of Object.entries(entry)) {
    if (v === undefined) continue
    fields.push(k, typeof v === 'string' ? v : JSON.stringify(v))
  }
  return fields
}

/** An alert's fields that tell its delivery rather than what it says: left out of its digest. */
const DELIVERY_FIELDS = new Set(['status', 'receivedAt', 'requestId', 'dedupKey', 'integrationId'])

/**
 * What an alert says (every entry field but its delivery's), as a digest: a firing repeat whose digest is its open
 * record's changes nothing but the record's count and times, and the script counts it without decoding the record
 * (LC.repeated, alert-lifecycle.lua). SHA-256: a sender cannot make two contents that pass for one.
 */
export function contentDigest(fields: readonly string[]): string {
  // Each field as its name, its value's length and its value: no two contents make the same text.
  let said = ''
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i]!
    if (!DELIVERY_FIELDS.has(name)) said += `${name}\u0000${fields[i + 1]!.length}\u0000${fields[i + 1]!}`
  }
  return hash('sha256', said, 'base64url').slice(0, 22)
}

/** A dropped alert's record as stream entry fields. */
const droppedFields = (d: DroppedEntry): string[] => Object.entries(d).flat() as string[]

/** On a cluster: replicas each account's writes must reach (WAIT), and how long one WAIT may take. */
export interface ReplicaWait {
  readonly replicas: number
  readonly timeoutMs: number
}

/** Where the sink writes and how its streams are bounded. */
export interface AlertSinkOptions {
  /** REDIS_KEY_PREFIX. */
  readonly prefix: string
  /** Entries a stream keeps, about (XADD MAXLEN ~). */
  readonly maxLen: number
  /** Entries older than this are trimmed. */
  readonly maxAgeMs: number
  /** A Redis Cluster: keys per account (hash tags). */
  readonly cluster?: boolean
  readonly wait?: ReplicaWait
}

export class RedisAlertSink {
  private readonly keys: (accountId: string) => AlertStreamKeys
  private readonly maxLen: number
  private readonly maxAgeMs: number
  private readonly cluster: boolean
  private readonly wait: ReplicaWait

  constructor(
    private readonly redis: RedisClient,
    { prefix, maxLen, maxAgeMs, cluster = false, wait = { replicas: 0, timeoutMs: 0 } }: AlertSinkOptions,
  ) {
    this.maxLen = maxLen
    this.maxAgeMs = maxAgeMs
    this.cluster = cluster
    this.wait = wait
    this.keys = (accountId) => alertStreamKeys(prefix, cluster, accountId)
    defineScripts(redis)
  }

  /**
   * Writes the messages of one batch of one partition: each account's messages in order (with one
   * Redis, all of them: the keys are shared), the accounts side by side. Throws a retriable AppError
   * when Redis cannot be reached, is in a state that passes (OOM, loading, a failover), or no replica
   * took the writes in time; a message Redis refuses for what it holds is reported as an AppError in
   * its place, and its account's messages after it as 'blocked' (never without a refusal before them).
   */
  async write(messages: readonly MessageWrite[]): Promise<WriteResult[]> {
    // The messages' indexes by account ('' for all of them with one Redis, where accounts share the keys).
    const groups = new Map<string, number[]>()
    messages.forEach((m, i) => {
      const account = this.cluster ? (m.accountId ?? '') : ''
      const group = groups.get(account)
      if (group) group.push(i)
      else groups.set(account, [i])
    })
    const results: WriteResult[] = new Array<WriteResult>(messages.length)
    await Promise.all(
      [...groups].map(async ([account, indexes]) => {
        const written = await this.writeInOrder(
          this.keys(account),
          indexes.map((i) => messages[i]!),
        )
        indexes.forEach((i, j) => (results[i] = written[j]!))
      }),
    )
    return results
  }

  /**
   * Writes messages whose keys share a prefix, in order, in one round trip: runs of up to
   * MESSAGES_PER_CALL messages (a replay alone), one script call each, then WAIT on a cluster.
   */
  private async writeInOrder(
    keys: AlertStreamKeys,
    messages: readonly MessageWrite[],
    perCall = MESSAGES_PER_CALL,
    before = '-1',
  ): Promise<WriteResult[]> {
    const pipeline = this.redis.pipeline()
    const runs: MessageWrite[][] = []
    for (let start = 0; start < messages.length;) {
      const run: MessageWrite[] = []
      const streams = new Map<string, number>()
      const args: (string | number)[] = []
      let entries = 0
      for (const m of messages.slice(start, start + perCall)) {
        // A replay scans its streams for its first copy: one per call, so Redis is not held long.
        if (run.length > 0 && (entries + entriesOf(m) > ENTRIES_PER_CALL || m.replayOf || run[0]!.replayOf)) break
        let index = streams.get(m.integrationId)
        if (index === undefined) streams.set(m.integrationId, (index = FIRST_INTEGRATION_KEY + streams.size))
        // Its entries go as one JSON argument (arrays of fields): one argument per field was most of the cost of a
        // call.
        const fields = [...m.alerts, ...m.rejections].map(entryFields)
        const l = m.lifecycle
        // An alert's digest and links go with its fields (the script takes them off the entry it writes).
        if (l?.accountId) for (let i = 0; i < m.alerts.length; i++) fields[i]!.push('digest', contentDigest(fields[i]!))
        m.links?.forEach((l, i) => {
          if (l?.group) fields[i]!.push('incidentGroup', JSON.stringify(l.group))
          if (l?.inhibit) fields[i]!.push('inhibit', JSON.stringify(l.inhibit))
        })
        args.push(
          ...argsOf('alertsWrite', 'record', {
            offset: m.offset.toString(),
            stream: index,
            alerts: m.alerts.length,
            rejections: m.rejections.length,
            replay: m.replayOf ? 1 : 0,
            requestId: m.replayOf?.requestId ?? l?.requestId ?? '',
            receivedAtMs: m.replayOf?.receivedAtMs ?? l?.receivedAtMs ?? 0,
            entries: JSON.stringify(fields),
            accountId: l?.accountId ?? '',
            integrationId: m.integrationId,
            emitRepeats: l?.emitRepeats ? 1 : 0,
            autoResolveAfterMs: l?.autoResolveAfterMs ?? 0,
            dedupFallbacks: l?.dedupFallbacks ?? 0,
            unknownStatuses: l?.unknownStatuses ?? 0,
            sample: m.sample ?? '',
            dropped: m.dropped?.length ? JSON.stringify(m.dropped.map(droppedFields)) : '',
          }),
        )
        entries += entriesOf(m)
        run.push(m)
      }
      const scriptKeys = [
        keys.offsets,
        keys.all,
        keys.rejections,
        ...[...streams.keys()].map((id) => keys.integration(id)),
      ]
      const previous = start > 0 ? messages[start - 1]!.offset.toString() : before
      queueScript(
        pipeline,
        'alertsWrite',
        scriptKeys.length,
        ...scriptKeys,
        ...argsOf('alertsWrite', 'header', {
          offsetField: `${run[0]!.topic}:${run[0]!.partition}`,
          maxLen: this.maxLen,
          maxAgeMs: this.maxAgeMs,
          before: previous,
          messages: run.length,
          prefix: keys.prefix,
          samples: PAYLOAD_SAMPLES.count,
          samplesTtlMs: PAYLOAD_SAMPLES.ttlMs,
        }),
        ...args,
      )
      runs.push(run)
      start += run.length
    }
    // WAIT answers once the replicas have everything this connection wrote before it (the script
    // calls); INFO says how many replicas the node has (a master whose replicas are all away, e.g. a
    // replica just promoted, has none a failover could promote: its writes go on as with one Redis).
    if (this.wait.replicas > 0) pipeline.info('replication').call('WAIT', this.wait.replicas, this.wait.timeoutMs)
    let replies: [Error | null, unknown][]
    try {
      replies = (await pipeline.exec()) ?? []
    } catch (err) {
      throw this.outage(fromRedis(err))
    }
    if (this.wait.replicas > 0) {
      const [infoErr, info] = replies[runs.length] ?? [new Error('no reply from redis'), undefined]
      const [err, acked] = replies[runs.length + 1] ?? [new Error('no reply from redis'), undefined]
      // Any error here (e.g. WAIT sent to a node that has just become a replica) is the cluster's state, not the
      // data's.
      if (infoErr || err)
        throw this.outage(
          new AppError('SINK_UNAVAILABLE', `redis: ${(infoErr ?? err)!.message}`, true, { cause: infoErr ?? err }),
        )
      // Replicas WAIT can count: online ones, not those still in a full sync.
      const replicas = (String(info).match(/^slave\d+:.*\bstate=online\b/gm) ?? []).length
      if (Number(acked) < Math.min(this.wait.replicas, replicas)) {
        throw new AppError(
          'SINK_UNAVAILABLE',
          `redis: the alert writes of ${keys.prefix} reached ${Number(acked)} of ${Math.min(this.wait.replicas, replicas)} replicas within ${this.wait.timeoutMs} ms`,
          true,
        )
      }
    }
    const results: WriteResult[] = []
    for (const [r, run] of runs.entries()) {
      const [err, value] = replies[r] ?? [new Error('no reply from redis'), undefined]
      if (err) {
        const e = fromRedis(err)
        if (e.retriable) throw this.outage(e)
        if (perCall === 1) {
          results.push(e)
          continue
        }
        // Refused as a whole (not one message's stream): from this run on, written one message per
        // call to find which (the calls queued behind it found their predecessor unrecorded and did nothing).
        results.push(
          ...(await this.writeInOrder(
            keys,
            messages.slice(results.length),
            1,
            results.length > 0 ? messages[results.length - 1]!.offset.toString() : before,
          )),
        )
        break
      }
      const each = value as (number | string)[]
      results.push(
        ...run.map((_, i): WriteResult =>
          i >= each.length
            ? 'blocked'
            : each[i] === 1
              ? 'written'
              : each[i] === 0
                ? 'already'
                : refused(String(each[i])),
        ),
      )
    }
    return results
  }

  /**
   * A retriable failure; on a cluster the map of slots is read again first (a pipeline answered
   * MOVED, or WAIT refused by a node that became a replica, does not make the client refresh it).
   */
  private outage(err: AppError): AppError {
    if (this.redis instanceof Cluster) this.redis.refreshSlotsCache()
    return err
  }

  /** Newest first, entries before the stream id `before` (exclusive) when given. */
  async recent(
    accountId: string,
    integrationId: string,
    limit: number,
    before?: string,
  ): Promise<{ id: string; fields: Record<string, string> }[]> {
    const end = before ? `(${before}` : '+'
    const entries = await this.redis.xrevrange(
      this.keys(accountId).integration(integrationId),
      end,
      '-',
      'COUNT',
      limit,
    )
    return entries.map(([id, flat]) => ({ id, fields: entryFieldMap(flat) }))
  }

  /**
   * The integration's refused payloads among the last `scan` entries of the (account's) rejections stream, newest
   * first: a bounded read, whatever the stream's length.
   */
  async rejections(accountId: string, integrationId: string, scan = 5000): Promise<AlertRejection[]> {
    const entries = await this.redis.xrevrange(this.keys(accountId).rejections, '+', '-', 'COUNT', scan)
    return entries.flatMap(([, flat]) => {
      const f = entryFieldMap(flat)
      if (f['integrationId'] !== integrationId) return []
      return [
        {
          integrationId,
          requestId: f['requestId'] ?? '',
          reason: f['reason'] ?? '',
          payload: f['payload'] ?? '',
          receivedAt: f['receivedAt'] ?? '',
        },
      ]
    })
  }

  /** When the integration's newest kept payload was received (the edge's time), if it kept one. */
  async lastPayloadAt(accountId: string, integrationId: string): Promise<number | undefined> {
    const json = await this.redis.lindex(this.keys(accountId).payloads(integrationId), 0)
    try {
      const at = json ? (JSON.parse(json) as PayloadSample).receivedAt : undefined
      return typeof at === 'number' ? at : undefined
    } catch {
      return undefined
    }
  }

  /** The integration's recent payloads, newest first, none older than PAYLOAD_SAMPLES.ttlMs. */
  async payloads(accountId: string, integrationId: string): Promise<PayloadSample[]> {
    const since = Date.now() - PAYLOAD_SAMPLES.ttlMs
    const all = await this.redis.lrange(this.keys(accountId).payloads(integrationId), 0, PAYLOAD_SAMPLES.count - 1)
    return all.flatMap((json) => {
      try {
        const p = JSON.parse(json) as PayloadSample
        return typeof p.receivedAt === 'number' && p.receivedAt >= since ? [p] : []
      } catch {
        return [] // never written so by the script; skipped rather than failing the list
      }
    })
  }

  async deletePayloads(accountId: string, integrationId: string): Promise<void> {
    await this.redis.del(this.keys(accountId).payloads(integrationId))
  }

  /**
   * A deleted integration's stream and payloads; on a cluster it is also marked deleted in its account's keys (the
   * alert scripts cannot read the admin slot).
   */
  async deleteStream(accountId: string, integrationId: string): Promise<void> {
    const keys = this.keys(accountId)
    const tx = this.redis.multi().del(keys.integration(integrationId), keys.payloads(integrationId))
    if (keys.deleted) tx.sadd(keys.deleted, integrationId)
    for (const [err] of (await tx.exec()) ?? []) if (err) throw err
  }
}
