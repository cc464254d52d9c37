// Writes normalized alerts to Redis streams: one per integration, one for all alerts, and one for
// rejections. Exactly once across replays: one Lua script per Kafka message adds its entries and
// records the message's offset, and does nothing for an offset already recorded. Messages of a batch
// are written in order: a message whose predecessor in the batch is not recorded yet (Redis refused
// it) is left alone, so the consumer can store that one as a rejection and then write the rest.
// Streams are trimmed by entry count and by age.
import type { Redis } from 'ioredis'
import type { NormalizedAlert } from '../../pipeline/alerts.js'
import { AppError, fromRedis } from '../../shared/errors.js'

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

// KEYS: offsets hash, all-alerts stream, integration stream, rejections stream
// ARGV: offset field, offset, previous offset in the batch (-1 for the first), maxlen, max age (ms),
//       alert count, rejection count, replay (1 or 0), request id, received at (ms),
//       then per entry: field count, fields...
// Returns 1 written, 0 already written, 2 left alone (the previous message is not written).
/** How far before its receipt a replay's first copy may carry a Redis stream id (clocks of edge and Redis differ). */
const REPLAY_CLOCK_SKEW_MS = 300_000
/** Entries read per stream when checking a replay; a first copy further away than this is not found. */
const REPLAY_SCAN_ENTRIES = 20_000

const WRITE_MESSAGE = `
local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
if last >= tonumber(ARGV[2]) then return 0 end
if tonumber(ARGV[3]) >= 0 and last < tonumber(ARGV[3]) then return 2 end
-- Scripts are not rolled back on an error: refuse before the first write, not half-way.
local targets = {}
if tonumber(ARGV[6]) > 0 then targets = {KEYS[2], KEYS[3]} end
if tonumber(ARGV[7]) > 0 then table.insert(targets, KEYS[4]) end
for _, key in ipairs(targets) do
  local t = redis.call('TYPE', key)['ok']
  if t ~= 'none' and t ~= 'stream' then
    return redis.error_reply('WRONGTYPE ' .. key .. ' holds a ' .. t .. ', not a stream')
  end
end
-- A replay from an edge's spool: its first copy (or an earlier replay) wrote entries carrying its
-- request id to the integration's stream or the rejections stream, after the request was received.
if ARGV[8] == '1' then
  local from = tostring(math.max(0, tonumber(ARGV[10]) - ${REPLAY_CLOCK_SKEW_MS}))
  for _, key in ipairs({KEYS[3], KEYS[4]}) do
    if redis.call('TYPE', key)['ok'] == 'stream' then
      for _, entry in ipairs(redis.call('XRANGE', key, from, '+', 'COUNT', ${REPLAY_SCAN_ENTRIES})) do
        local f = entry[2]
        for j = 1, #f - 1, 2 do
          if f[j] == 'requestId' and f[j + 1] == ARGV[9] then
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
            return 0
          end
        end
      end
    end
  end
end
local maxlen = ARGV[4]
local now = redis.call('TIME')
local minid = tostring(math.max(0, tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) - tonumber(ARGV[5])))
local i = 11
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
  -- Only streams written to are trimmed (by age): a message touches no other key.
  if n > 0 then
    for _, key in ipairs(streams) do redis.call('XTRIM', key, 'MINID', '~', minid) end
  end
end
add({KEYS[2], KEYS[3]}, tonumber(ARGV[6]))
add({KEYS[4]}, tonumber(ARGV[7]))
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`

/** What writing one message came to: written now, already written before, left for later, or refused (data). */
export type WriteResult = 'written' | 'already' | 'blocked' | AppError

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
    private readonly maxAgeMs: number,
  ) {
    this.keys = alertStreamKeys(prefix)
    redis.defineCommand('sluiceWriteAlerts', { numberOfKeys: 4, lua: WRITE_MESSAGE })
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
        `${m.topic}:${m.partition}`, m.offset.toString(), previous, this.maxLen, this.maxAgeMs, m.alerts.length, m.rejections.length,
        m.replayOf ? 1 : 0, m.replayOf?.requestId ?? '', m.replayOf?.receivedAtMs ?? 0,
      ]
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
