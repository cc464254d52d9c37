// Writes normalized alerts to Redis streams: one per integration, one for all alerts, and one for
// rejections. Exactly once across replays: one Lua script per Kafka message adds its entries and
// records the message's offset, atomically, and does nothing for an offset already recorded.
import type { Redis } from 'ioredis'
import type { NormalizedAlert } from '../../pipeline/alerts.js'

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
}

// KEYS: offsets hash, all-alerts stream, integration stream, rejections stream
// ARGV: offset field, offset, maxlen, alert count, rejection count, then per entry: field count, fields...
const WRITE_MESSAGE = `
local last = redis.call('HGET', KEYS[1], ARGV[1])
if last and tonumber(last) >= tonumber(ARGV[2]) then return 0 end
local maxlen = ARGV[3]
local i = 6
local function add(streams, n)
  for _ = 1, n do
    local count = tonumber(ARGV[i])
    local fields = {}
    for j = 1, count do fields[j] = ARGV[i + j] end
    i = i + count + 1
    for _, key in ipairs(streams) do
      redis.call('XADD', key, 'MAXLEN', '~', maxlen, '*', unpack(fields))
    end
  end
end
add({KEYS[2], KEYS[3]}, tonumber(ARGV[4]))
add({KEYS[4]}, tonumber(ARGV[5]))
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`

export function alertStreamKeys(prefix: string) {
  return {
    offsets: `${prefix}alerts:offsets`,
    all: `${prefix}alerts:all`,
    rejections: `${prefix}alerts:rejections`,
    integration: (id: string) => `${prefix}alerts:integration:${id}`,
  }
}

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
  ) {
    this.keys = alertStreamKeys(prefix)
    redis.defineCommand('sluiceWriteAlerts', { numberOfKeys: 4, lua: WRITE_MESSAGE })
  }

  /**
   * Writes each message's entries once; messages of one batch share one round trip, in order.
   * Per message: true when written now, false when an earlier delivery already wrote it.
   */
  async write(messages: readonly MessageWrite[]): Promise<boolean[]> {
    const pipeline = this.redis.pipeline()
    for (const m of messages) {
      const args: (string | number)[] = [`${m.topic}:${m.partition}`, m.offset.toString(), this.maxLen, m.alerts.length, m.rejections.length]
      for (const a of m.alerts) {
        const fields = alertFields(a)
        args.push(fields.length, ...fields)
      }
      for (const r of m.rejections) {
        const fields = Object.entries(r).flat()
        args.push(fields.length, ...fields)
      }
      ;(pipeline as unknown as Record<string, (...a: unknown[]) => unknown>)['sluiceWriteAlerts']!(
        this.keys.offsets, this.keys.all, this.keys.integration(m.integrationId), this.keys.rejections, ...args,
      )
    }
    return ((await pipeline.exec()) ?? []).map(([err, value]) => {
      if (err) throw err
      return value === 1
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
