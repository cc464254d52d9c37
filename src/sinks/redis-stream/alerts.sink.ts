// Writes normalized alerts to Redis streams: one per integration, one for all alerts, and one for
// rejections. Exactly once across replays: a Lua script adds each message's entries and records its
// offset, and does nothing for an offset already recorded; one call writes a run of up to 100
// messages. Messages of a batch are written in order: a refused message ends its run, and a run
// whose predecessor is not recorded (Redis refused it) is left alone, so the consumer can store that
// one as a rejection and then write the rest.
// Streams are trimmed by entry count and by age. The script is state/redis/lua/alerts-write.lua.
import type { Redis } from 'ioredis'
import type { NormalizedAlert } from '../../pipeline/alerts/render.js'
import { AppError, fromRedis } from '../../shared/errors.js'
import { alertStreamKeys, PAYLOAD_SAMPLES } from '../../state/redis/alert-streams.js'
import { defineScripts, queueScript } from '../../state/redis/scripts.js'

export interface AlertRejection {
  readonly integrationId: string
  readonly requestId: string
  readonly reason: string
  readonly payload: string
  readonly receivedAt: string
}

export interface MessageWrite {
  readonly topic: string
  readonly partition: number
  readonly offset: bigint
  readonly integrationId: string
  readonly alerts: readonly NormalizedAlert[]
  readonly rejections: readonly AlertRejection[]
  /** Set for a message replayed from an edge's spool: skipped when its request's entries are stored. */
  readonly replayOf?: { readonly requestId: string; readonly receivedAtMs: number }
  /** The lifecycle of the message's alerts: whose they are, when they were received, and the integration's settings. */
  readonly lifecycle?: AlertLifecycle
  /** The payload as received, kept among the integration's recent payloads (a PayloadSample's JSON). */
  readonly sample?: string
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

export class RedisAlertSink {
  private readonly keys: ReturnType<typeof alertStreamKeys>

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly maxLen: number,
    private readonly maxAgeMs: number,
  ) {
    this.keys = alertStreamKeys(prefix)
    defineScripts(redis)
  }

  /**
   * Writes the messages of one batch of one partition, in order, in one round trip: runs of up to
   * MESSAGES_PER_CALL messages (a replay alone), one script call each. Throws a retriable AppError
   * when Redis cannot be reached or is in a state that passes (OOM, loading); a message Redis refuses
   * for what it holds is reported as an AppError in its place, and the messages after it as 'blocked'
   * (never without a refusal before them).
   */
  async write(messages: readonly MessageWrite[], perCall = MESSAGES_PER_CALL, before = '-1'): Promise<WriteResult[]> {
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
        // Its entries go as one JSON argument (arrays of fields): one argument per field was most of the cost of a call.
        const fields = [...m.alerts, ...m.rejections].map(entryFields)
        const l = m.lifecycle
        args.push(
          m.offset.toString(),
          index,
          m.alerts.length,
          m.rejections.length,
          m.replayOf ? 1 : 0,
          m.replayOf?.requestId ?? l?.requestId ?? '',
          m.replayOf?.receivedAtMs ?? l?.receivedAtMs ?? 0,
          JSON.stringify(fields),
        )
        args.push(l?.accountId ?? '', m.integrationId, l?.emitRepeats ? 1 : 0, l?.autoResolveAfterMs ?? 0, l?.dedupFallbacks ?? 0, l?.unknownStatuses ?? 0, m.sample ?? '')
        entries += entriesOf(m)
        run.push(m)
      }
      const keys = [this.keys.offsets, this.keys.all, this.keys.rejections, ...[...streams.keys()].map((id) => this.keys.integration(id))]
      const previous = start > 0 ? messages[start - 1]!.offset.toString() : before
      queueScript(
        pipeline,
        'alertsWrite',
        keys.length,
        ...keys,
        `${run[0]!.topic}:${run[0]!.partition}`,
        this.maxLen,
        this.maxAgeMs,
        previous,
        run.length,
        this.prefix,
        PAYLOAD_SAMPLES.count,
        PAYLOAD_SAMPLES.ttlMs,
        ...args,
      )
      runs.push(run)
      start += run.length
    }
    let replies: [Error | null, unknown][]
    try {
      replies = (await pipeline.exec()) ?? []
    } catch (err) {
      throw fromRedis(err)
    }
    const results: WriteResult[] = []
    for (const [r, run] of runs.entries()) {
      const [err, value] = replies[r] ?? [new Error('no reply from redis'), undefined]
      if (err) {
        const e = fromRedis(err)
        if (e.retriable) throw e
        if (perCall === 1) {
          results.push(e)
          continue
        }
        // Refused as a whole (not one message's stream): from this run on, written one message per
        // call to find which (the calls queued behind it found their predecessor unrecorded and did nothing).
        results.push(...(await this.write(messages.slice(results.length), 1, results.length > 0 ? messages[results.length - 1]!.offset.toString() : before)))
        break
      }
      const each = value as (number | string)[]
      results.push(...run.map((_, i): WriteResult => (i >= each.length ? 'blocked' : each[i] === 1 ? 'written' : each[i] === 0 ? 'already' : refused(String(each[i])))))
    }
    return results
  }

  /** Newest first, entries before the stream id `before` (exclusive) when given. */
  async recent(integrationId: string, limit: number, before?: string): Promise<{ id: string; fields: Record<string, string> }[]> {
    const end = before ? `(${before}` : '+'
    const entries = await this.redis.xrevrange(this.keys.integration(integrationId), end, '-', 'COUNT', limit)
    return entries.map(([id, flat]) => {
      const fields: Record<string, string> = {}
      for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!
      return { id, fields }
    })
  }

  /** The integration's recent payloads, newest first, none older than PAYLOAD_SAMPLES.ttlMs. */
  async payloads(integrationId: string): Promise<PayloadSample[]> {
    const since = Date.now() - PAYLOAD_SAMPLES.ttlMs
    const all = await this.redis.lrange(this.keys.payloads(integrationId), 0, PAYLOAD_SAMPLES.count - 1)
    return all.flatMap((json) => {
      try {
        const p = JSON.parse(json) as PayloadSample
        return typeof p.receivedAt === 'number' && p.receivedAt >= since ? [p] : []
      } catch {
        return [] // never written so by the script; skipped rather than failing the list
      }
    })
  }

  async deletePayloads(integrationId: string): Promise<void> {
    await this.redis.del(this.keys.payloads(integrationId))
  }

  async deleteStream(integrationId: string): Promise<void> {
    await this.redis.del(this.keys.integration(integrationId), this.keys.payloads(integrationId))
  }
}
