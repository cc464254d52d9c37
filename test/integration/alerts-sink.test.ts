// The alert streams sink on a real Redis: a batch is written in runs of messages, one script call
// each, exactly once per offset, in order; a message Redis refuses ends its run and blocks the runs
// after it, and a run that Redis refuses as a whole is retried one message per call to find which.
import { NO_RULES_OR_WINDOWS } from '../../src/pipeline/alerts/rules-and-windows.js'
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { NormalizedAlert } from '../../src/pipeline/alerts/render.js'
import { RedisAlertSink, type MessageWrite, type WriteResult } from '../../src/sinks/redis-stream/alerts.sink.js'
import { AppError } from '../../src/shared/errors.js'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import { encodeAlertMessage } from '../../src/broker/messages/alerts.js'
import { AlertsConsumer, integrationCache } from '../../src/consumers/alerts.consumer.js'
import { createLogger } from '../../src/shared/logger.js'
import { createMetrics } from '../../src/shared/metrics.js'
import type { IntegrationRecord, IntegrationStore } from '../../src/state/redis/integrations.js'

const noRulesOrWindows = { get: () => Promise.resolve(NO_RULES_OR_WINDOWS) }

let redis: Redis
let prefix: string
let sink: RedisAlertSink
let streams: ReturnType<typeof alertStreamKeys>

beforeAll(() => {
  redis = new Redis(inject('services').redisUrl)
  prefix = `test-sink-${randomBytes(4).toString('hex')}:`
  sink = new RedisAlertSink(redis, { prefix: prefix, maxLen: 100_000, maxAgeMs: 3_600_000 })
  streams = alertStreamKeys(prefix)
})

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`)
  if (keys.length > 0) await redis.del(...keys)
  redis.disconnect()
})

const alert = (integrationId: string, requestId: string, n: number): NormalizedAlert => ({
  severity: 'warning',
  description: `alert ${n}`,
  source: 'test',
  dedupKey: `key-${n}`,
  status: 'firing',
  timestamp: new Date(0).toISOString(),
  receivedAt: new Date().toISOString(),
  integrationId,
  requestId,
  customFields: { n: String(n) },
})

/** Message i of partition 0: three alerts of integration a, or of b for every third message. */
function messages(count: number, topic = 'alerts'): MessageWrite[] {
  return Array.from({ length: count }, (_, i) => {
    const integrationId = i % 3 === 2 ? 'b' : 'a'
    return {
      topic,
      partition: 0,
      offset: BigInt(i),
      integrationId,
      alerts: [0, 1, 2].map((n) => alert(integrationId, `req-${i}`, n)),
      rejections: [],
    }
  })
}

const count = (results: WriteResult[], kind: WriteResult) => results.filter((r) => r === kind).length

it('writes a batch of 250 messages in runs, once: a second write finds them all written', async () => {
  const batch = messages(250, 'once')
  const first = await sink.write(batch)
  expect(count(first, 'written')).toBe(250)
  expect(await redis.xlen(streams.all)).toBe(750)
  expect(await redis.xlen(streams.integration('b'))).toBe(83 * 3)
  expect(await redis.hget(streams.offsets, 'once:0')).toBe('249')
  const again = await sink.write(batch)
  expect(count(again, 'already')).toBe(250)
  expect(await redis.xlen(streams.all)).toBe(750)
  // Entries keep their fields, customFields as JSON.
  const [entry] = await redis.xrange(streams.integration('a'), '-', '+', 'COUNT', 1)
  expect(entry?.[1]).toEqual(
    expect.arrayContaining(['description', 'alert 0', 'requestId', 'req-0', 'customFields', '{"n":"0"}']),
  )
})

it('stops at a message whose stream Redis refuses, blocks the rest, and writes them once the refused one is dealt with', async () => {
  await redis.del(streams.all)
  const batch = messages(250, 'refused').map((m, i) => (i === 149 ? { ...m, integrationId: 'broken' } : m))
  await redis.set(streams.integration('broken'), 'not a stream')
  const results = await sink.write(batch)
  expect(count(results, 'written')).toBe(149)
  expect(results[149]).toBeInstanceOf(AppError)
  expect((results[149] as AppError).retriable).toBe(false)
  expect((results[149] as AppError).message).toMatch(/^redis: WRONGTYPE /)
  expect(count(results.slice(150), 'blocked')).toBe(100)
  expect(await redis.xlen(streams.all)).toBe(149 * 3)
  // The consumer stores a rejection in place of the refused message, then writes the rest.
  const substitute: MessageWrite = {
    ...batch[149]!,
    alerts: [],
    rejections: [
      {
        integrationId: 'broken',
        requestId: 'req-149',
        reason: 'refused',
        payload: '',
        receivedAt: new Date().toISOString(),
      },
    ],
  }
  const rest = await sink.write([substitute, ...batch.slice(150)])
  expect(count(rest, 'written')).toBe(101)
  expect(await redis.xlen(streams.all)).toBe(249 * 3)
  expect(await redis.xlen(streams.rejections)).toBe(1)
  expect(await redis.hget(streams.offsets, 'refused:0')).toBe('249')
})

it('stores every field as it was rendered: quotes, backslashes, control characters, NUL, U+2028 and non-BMP text', async () => {
  const text = 'q"uo\\te \u0000 nul \u0001\u001f \u2028 é 😀 \ttab\nline'
  const [m] = messages(1, 'exact')
  const written: MessageWrite = {
    ...m!,
    alerts: [{ ...alert('a', 'req-exact', 0), description: text, customFields: { k: text } }],
  }
  expect(await sink.write([written])).toEqual(['written'])
  const [entry] = await redis.xrevrange(streams.integration('a'), '+', '-', 'COUNT', 1)
  const fields = entry![1]
  expect(fields[fields.indexOf('description') + 1]).toBe(text)
  expect(JSON.parse(fields[fields.indexOf('customFields') + 1]!)).toEqual({ k: text })
  // Every field, in the order of the alert's properties.
  expect(fields.filter((_, i) => i % 2 === 0)).toEqual([
    'severity',
    'description',
    'source',
    'dedupKey',
    'status',
    'timestamp',
    'receivedAt',
    'integrationId',
    'requestId',
    'customFields',
  ])
})

it('writes a message with alerts and a rejection: the alerts to their streams, the rejection to the rejections stream', async () => {
  const [m] = messages(1, 'mixed')
  const rejection = {
    integrationId: 'a',
    requestId: 'req-0',
    reason: 'alert 3: severity "x" is not one of critical, high, warning, info',
    payload: '{"x":1}',
    receivedAt: new Date().toISOString(),
  }
  const [all, rejections] = [await redis.xlen(streams.all), await redis.xlen(streams.rejections)]
  expect(await sink.write([{ ...m!, rejections: [rejection] }])).toEqual(['written'])
  expect(await redis.xlen(streams.all)).toBe(all + 3)
  const [entry] = await redis.xrevrange(streams.rejections, '+', '-', 'COUNT', 1)
  expect(await redis.xlen(streams.rejections)).toBe(rejections + 1)
  expect(entry![1]).toEqual(Object.entries(rejection).flat())
})

it('writes two messages of 700 alerts each (more than one call carries together), each once', async () => {
  const before = await redis.xlen(streams.all)
  const big = (offset: number): MessageWrite => ({
    topic: 'big',
    partition: 0,
    offset: BigInt(offset),
    integrationId: 'a',
    alerts: Array.from({ length: 700 }, (_, n) => alert('a', `req-${offset}`, n)),
    rejections: [],
  })
  expect(await sink.write([big(0), big(1)])).toEqual(['written', 'written'])
  expect(await redis.xlen(streams.all)).toBe(before + 1400)
  expect(await redis.hget(streams.offsets, 'big:0')).toBe('1')
})

it('refuses in its place a message whose entries Redis cannot decode (a lone surrogate, which no rendered alert has), and blocks the rest', async () => {
  const before = await redis.xlen(streams.all)
  const batch = messages(3, 'undecodable').map((m, i) =>
    i === 1 ? { ...m, alerts: [{ ...alert('a', 'req-1', 0), description: 'lone \ud800' }] } : m,
  )
  const results = await sink.write(batch)
  expect(results[0]).toBe('written')
  expect(results[1]).toBeInstanceOf(AppError)
  expect((results[1] as AppError).message).toMatch(/^redis: entries are not valid JSON/)
  expect(results[2]).toBe('blocked')
  expect(await redis.xlen(streams.all)).toBe(before + 3)
  expect(await redis.hget(streams.offsets, 'undecodable:0')).toBe('0')
})

it('through the consumer: a message Redis refuses becomes a rejection entry, and the messages after it are stored, once', async () => {
  // Integration "bad" renders a lone surrogate (its mapping was never checked): Redis refuses its entries.
  const mappings: Record<string, object> = {
    a: { severity: 'info', description: 'n={{webhook.n}}', source: 's' },
    bad: { severity: 'info', description: 'x\ud800', source: 's' },
  }
  const store = {
    byId: (id: string) => Promise.resolve({ id, mapping: mappings[id] } as unknown as IntegrationRecord),
  } as unknown as IntegrationStore
  const metrics = createMetrics({ defaults: false })
  const consumer = new AlertsConsumer(
    integrationCache(store, 60_000),
    noRulesOrWindows,
    sink,
    metrics,
    createLogger('silent'),
  )
  const batch = {
    topic: 'through',
    partition: 0,
    highWatermark: 3n,
    messages: ['a', 'bad', 'a'].map((integrationId, i) => {
      const m = encodeAlertMessage(
        JSON.stringify({ n: i }),
        { integrationId, accountId: 'acc', receivedAtMs: Date.now(), requestId: `through-${i}` },
        1 << 20,
      )!
      return { offset: BigInt(i), value: m.value, headers: m.headers }
    }),
  }
  const [all, rejections] = [await redis.xlen(streams.all), await redis.xlen(streams.rejections)]
  await consumer.handle(batch, { signal: new AbortController().signal })
  await consumer.handle(batch, { signal: new AbortController().signal })
  expect(await redis.xlen(streams.all)).toBe(all + 2)
  expect(await redis.xlen(streams.rejections)).toBe(rejections + 1)
  const [entry] = await redis.xrevrange(streams.rejections, '+', '-', 'COUNT', 1)
  expect(entry![1][entry![1].indexOf('reason') + 1]).toMatch(
    /^redis refused the entries of this message: redis: entries are not valid JSON/,
  )
  expect(await redis.hget(streams.offsets, 'through:0')).toBe('2')
  expect(await metrics.registry.getSingleMetricAsString('sluice_alerts_stored_total')).toMatch(/ 2$/m)
})

it('the script writes nothing of a message whose entries (or dropped alerts) do not match their shape, and refuses it in its place', async () => {
  const keys = [streams.offsets, streams.all, streams.rejections, streams.integration('a')]
  const fields = JSON.stringify([['severity', 'info', 'description', 'd']])
  const call = (offset: number, alerts: number, entries: string, dropped = '') =>
    (redis as unknown as Record<string, (...a: (string | number)[]) => Promise<unknown>>)['sluice_alertsWrite']!(
      keys.length,
      ...keys,
      'shape:0',
      100_000,
      3_600_000,
      offset - 1,
      1,
      prefix,
      20,
      604_800_000,
      offset,
      4,
      alerts,
      0,
      0,
      '',
      0,
      entries,
      '',
      'a',
      0,
      0,
      0,
      0,
      '',
      dropped,
    )
  const before = await redis.xlen(streams.all)
  expect(await call(0, 2, fields)).toEqual(["entries do not match the message's counts"])
  expect(await call(0, 1, JSON.stringify([['severity', 'info', 'description']]))).toEqual([
    'an entry is not a list of field names and values',
  ])
  expect(await call(0, 1, JSON.stringify([['severity', 1]]))).toEqual(['an entry has a field that is not text'])
  // The alerts the rules dropped are checked before anything of the message is written, too.
  expect(await call(0, 1, fields, '[["requestId"]]')).toEqual(['an entry is not a list of field names and values'])
  expect(await call(0, 1, fields, '{"not": "a list"')).toEqual(['dropped alerts are not valid JSON'])
  expect(await redis.xlen(streams.all)).toBe(before)
  expect(await redis.hget(streams.offsets, 'shape:0')).toBeNull()
  expect(await call(0, 1, fields)).toEqual([1])
  expect(await redis.xlen(streams.all)).toBe(before + 1)
})

it('skips a replay whose request is already in its stream, and records its offset', async () => {
  const receivedAtMs = Date.now()
  const [original] = messages(1, 'replay')
  await sink.write([original!])
  const before = await redis.xlen(streams.integration('a'))
  const replay: MessageWrite = { ...original!, offset: 1n, replayOf: { requestId: 'req-0', receivedAtMs } }
  expect(await sink.write([replay])).toEqual(['already'])
  expect(await redis.xlen(streams.integration('a'))).toBe(before)
  expect(await redis.hget(streams.offsets, 'replay:0')).toBe('1')
})

it('finds the message in a run Redis refuses as a whole by writing one message per call', async () => {
  // The offsets hash is read first in every call: a key of another type refuses every call whole.
  const brokenPrefix = `${prefix}broken:`
  const broken = new RedisAlertSink(redis, { prefix: brokenPrefix, maxLen: 100_000, maxAgeMs: 3_600_000 })
  await redis.set(alertStreamKeys(brokenPrefix).offsets, 'not a hash')
  const results = await broken.write(messages(3, 'whole'))
  expect(results).toHaveLength(3)
  for (const r of results) expect(r).toBeInstanceOf(AppError)
  expect((results[0] as AppError).message).toMatch(/WRONGTYPE/)
})

it('keeps a message’s payload sample once, with its alerts: a second write of the batch adds none', async () => {
  const sample = (i: number) =>
    JSON.stringify({ requestId: `req-${i}`, receivedAt: Date.now(), bytes: 2, payload: { i } })
  const batch = messages(6, 'samples').map((m, i) => ({ ...m, integrationId: 'sampled', sample: sample(i) }))
  expect(count(await sink.write(batch), 'written')).toBe(6)
  expect(count(await sink.write(batch), 'already')).toBe(6)
  const kept = await sink.payloads('', 'sampled')
  expect(kept.map((p) => p.requestId)).toEqual(['req-5', 'req-4', 'req-3', 'req-2', 'req-1', 'req-0'])
  expect(await redis.pttl(streams.payloads('sampled'))).toBeGreaterThan(6 * 24 * 3600 * 1000)
  // A key of another type under the payloads name is left alone; the alerts are still written.
  await redis.del(streams.payloads('other'))
  await redis.set(streams.payloads('other'), 'not a list')
  const more = messages(2, 'samples-2').map((m, i) => ({ ...m, integrationId: 'other', sample: sample(i) }))
  expect(count(await sink.write(more), 'written')).toBe(2)
  expect(await redis.get(streams.payloads('other'))).toBe('not a list')
})
