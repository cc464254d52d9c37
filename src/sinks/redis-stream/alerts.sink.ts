// Writes normalized alerts to Redis streams: one per integration, one for all alerts, and one for
// rejections. Exactly once across replays: one Lua script per Kafka message adds its entries and
// records the message's offset, and does nothing for an offset already recorded. Messages of a batch
// are written in order: a message whose predecessor in the batch is not recorded yet (Redis refused
// it) is left alone, so the consumer can store that one as a rejection and then write the rest.
// Streams are trimmed by entry count and by age. The script is state/redis/lua/alerts-write.lua.
import type { Redis } from 'ioredis'
import type { NormalizedAlert } from '../../pipeline/alerts/render.js'
import { AppError, fromRedis } from '../../shared/errors.js'
import { alertStreamKeys } from '../../state/redis/alert-streams.js'
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
}

/** What writing one message came to: written now, already written before, left for later, or refused (data). */
export type WriteResult = 'written' | 'already' | 'blocked' | AppError

/** Stream entry fields of an alert: flat strings; customFields as JSON. */
export function alertFields(alert: NormalizedAlert): string[] {
  const fields: string[] = []
  for (const [k, v] of Object.entries(alert)) {
    if (v === undefined) continue
    fields.push(k, typeof v === 'string' ? v : JSON.stringify(v))
  }
  return fields
}

export class RedisAlertSink {
  private readonly keys: ReturnType<typeof alertStreamKeys>

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly maxLen: number,
    private readonly maxAgeMs: number,
  ) {
    this.keys = alertStreamKeys(prefix)
    defineScripts(redis)
  }

  /**
   * Writes the messages of one batch of one partition, in order, in one round trip. Throws a
   * retriable AppError when Redis cannot be reached or is in a state that passes (OOM, loading);
   * a message Redis refuses for what it holds is reported as an AppError in its place.
   */
  async write(messages: readonly MessageWrite[]): Promise<WriteResult[]> {
    const pipeline = this.redis.pipeline()
    messages.forEach((m, index) => {
      const previous = index > 0 ? messages[index - 1]!.offset.toString() : '-1'
      const args: (string | number)[] = [
        `${m.topic}:${m.partition}`,
        m.offset.toString(),
        previous,
        this.maxLen,
        this.maxAgeMs,
        m.alerts.length,
        m.rejections.length,
        m.replayOf ? 1 : 0,
        m.replayOf?.requestId ?? '',
        m.replayOf?.receivedAtMs ?? 0,
      ]
      for (const a of m.alerts) {
        const fields = alertFields(a)
        args.push(fields.length, ...fields)
      }
      for (const r of m.rejections) {
        const fields = Object.entries(r).flat() as string[]
        args.push(fields.length, ...fields)
      }
      queueScript(pipeline, 'alertsWrite', this.keys.offsets, this.keys.all, this.keys.integration(m.integrationId), this.keys.rejections, ...args)
    })
    let results: [Error | null, unknown][]
    try {
      results = (await pipeline.exec()) ?? []
    } catch (err) {
      throw fromRedis(err)
    }
    return results.map(([err, value]): WriteResult => {
      if (err) {
        const e = fromRedis(err)
        if (e.retriable) throw e
        return e
      }
      return value === 1 ? 'written' : value === 0 ? 'already' : 'blocked'
    })
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

  async deleteStream(integrationId: string): Promise<void> {
    await this.redis.del(this.keys.integration(integrationId))
  }
}
