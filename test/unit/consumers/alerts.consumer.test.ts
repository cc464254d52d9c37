// How the alerts consumer drives the sink's answers, with a scripted in-memory sink (the real sink
// on Redis is test/integration/alerts-sink.test.ts): a refused message becomes a rejection entry,
// the messages after it are written next, and nothing is counted stored that was not written.
import { expect, it } from 'vitest'
import { encodeAlertMessage } from '../../../src/broker/messages/alerts.js'
import type { InboundBatch } from '../../../src/broker/ports.js'
import { AlertsConsumer, IntegrationCache } from '../../../src/consumers/alerts.consumer.js'
import { AppError } from '../../../src/shared/errors.js'
import { createLogger } from '../../../src/shared/logger.js'
import { createMetrics } from '../../../src/shared/metrics.js'
import type { MessageWrite, RedisAlertSink, WriteResult } from '../../../src/sinks/redis-stream/alerts.sink.js'
import type { IntegrationRecord, IntegrationStore } from '../../../src/state/redis/integrations.js'

const mapping = { severity: 'warning', description: '{{webhook.n}}', source: 'test' }
const store = { byId: (id: string) => Promise.resolve({ id, mapping } as unknown as IntegrationRecord) } as unknown as IntegrationStore

function batchOf(count: number): InboundBatch {
  const messages = Array.from({ length: count }, (_, i) => {
    const m = encodeAlertMessage(JSON.stringify({ n: i }), { integrationId: 'i1', accountId: 'a1', receivedAtMs: 1_700_000_000_000, requestId: `r${i}` }, 1 << 20)!
    return { offset: BigInt(i), value: m.value, headers: m.headers }
  })
  return { topic: 'alerts', partition: 0, highWatermark: BigInt(count), messages }
}

/** Answers each write with the next scripted answer (a function of the messages sent); records the calls. */
class ScriptedSink {
  readonly calls: MessageWrite[][] = []
  constructor(private readonly answers: ((messages: readonly MessageWrite[]) => WriteResult[])[]) {}
  write(messages: readonly MessageWrite[]): Promise<WriteResult[]> {
    this.calls.push([...messages])
    return Promise.resolve(this.answers.shift()!(messages))
  }
}

const run = async (sink: ScriptedSink) => {
  const metrics = createMetrics()
  const consumer = new AlertsConsumer(new IntegrationCache(store, 60_000), sink as unknown as RedisAlertSink, metrics, createLogger('silent'))
  await consumer.handle(batchOf(5), { signal: new AbortController().signal })
  return metrics
}

it('stores a rejection entry in place of a refused message, then the messages after it', async () => {
  const refusal = new AppError('SINK_REFUSED_DATA', 'redis: WRONGTYPE', false)
  const sink = new ScriptedSink([(ms) => ms.map((_, i): WriteResult => (i === 1 ? refusal : i < 1 ? 'written' : 'blocked')), (ms) => ms.map((): WriteResult => 'written')])
  const metrics = await run(sink)
  const second = sink.calls[1]!
  expect(second.map((m) => Number(m.offset))).toEqual([1, 2, 3, 4])
  expect(second[0]!.alerts).toEqual([])
  expect(second[0]!.rejections[0]!.reason).toMatch(/^redis refused the entries of this message: redis: WRONGTYPE/)
  // Messages 0, 2, 3 and 4: one alert each.
  expect(await metrics.registry.getSingleMetricAsString('sluice_alerts_stored_total')).toMatch(/ 4$/m)
})

it('sends each message’s payload as received, but only the last 20 of an integration in a batch, and none with a substitute', async () => {
  const sink = new ScriptedSink([(ms) => ms.map((): WriteResult => 'written')])
  const consumer = new AlertsConsumer(new IntegrationCache(store, 60_000), sink as unknown as RedisAlertSink, createMetrics(), createLogger('silent'))
  await consumer.handle(batchOf(25), { signal: new AbortController().signal })
  const sent = sink.calls[0]!
  expect(sent.slice(0, 5).every((m) => m.sample === undefined)).toBe(true)
  expect(sent.slice(5).map((m) => JSON.parse(m.sample!) as unknown)).toEqual(
    Array.from({ length: 20 }, (_, k) => ({ requestId: `r${k + 5}`, receivedAt: 1_700_000_000_000, bytes: JSON.stringify({ n: k + 5 }).length, payload: { n: k + 5 } })),
  )
  const refusal = new AppError('SINK_REFUSED_DATA', 'redis: WRONGTYPE', false)
  const refused = new ScriptedSink([(ms) => ms.map((_, i): WriteResult => (i === 0 ? refusal : 'blocked')), (ms) => ms.map((): WriteResult => 'written')])
  await run(refused)
  expect(refused.calls[1]![0]!.sample).toBeUndefined()
})

it('writes a large batch in chunks, in order: a chunk is sent only once the one before is stored, and renders while it is written', async () => {
  const refusal = new AppError('SINK_REFUSED_DATA', 'redis: WRONGTYPE', false)
  const events: string[] = []
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  // The first chunk's write is held until the second chunk has been rendered (its integration read).
  let reads = 0
  const counting = {
    byId: (id: string) => {
      if (++reads === 501) {
        events.push('second chunk rendering')
        release()
      }
      return Promise.resolve({ id, mapping } as unknown as IntegrationRecord)
    },
  } as unknown as IntegrationStore
  const sink = new ScriptedSink([
    (ms) => ms.map((_, i): WriteResult => (i === 7 ? refusal : i < 7 ? 'written' : 'blocked')),
    (ms) => ms.map((): WriteResult => 'written'),
    (ms) => ms.map((): WriteResult => 'written'),
    (ms) => ms.map((): WriteResult => 'written'),
  ])
  const write = sink.write.bind(sink)
  sink.write = async (messages) => {
    events.push(`write from ${messages[0]!.offset}`)
    const answer = await write(messages)
    if (sink.calls.length === 1) await held
    return answer
  }
  const metrics = createMetrics()
  // Every integration read misses the cache (refresh 0): one read per message.
  const consumer = new AlertsConsumer(new IntegrationCache(counting, 0), sink as unknown as RedisAlertSink, metrics, createLogger('silent'))
  await consumer.handle(batchOf(1200), { signal: new AbortController().signal })
  // The refused message's chunk is settled (a rejection in its place, the rest written) before the next chunk is sent.
  expect(sink.calls.map((c) => [Number(c[0]!.offset), Number(c.at(-1)!.offset)])).toEqual([
    [0, 499],
    [7, 499],
    [500, 999],
    [1000, 1199],
  ])
  expect(events.indexOf('second chunk rendering')).toBeLessThan(events.indexOf('write from 500'))
  expect(sink.calls[1]![0]!.rejections[0]!.reason).toMatch(/^redis refused/)
  expect(await metrics.registry.getSingleMetricAsString('sluice_alerts_stored_total')).toMatch(/ 1199$/m)
})

it('leaves a batch (partition lost while rendering) only once the chunk being written is written', async () => {
  const controller = new AbortController()
  let reads = 0
  const failing = {
    byId: (id: string) => {
      if (++reads === 501) {
        // The partition is lost while the second chunk renders, and Redis is away for its integration.
        controller.abort(new Error('partition lost'))
        return Promise.reject(new Error('connection is closed'))
      }
      return Promise.resolve({ id, mapping } as unknown as IntegrationRecord)
    },
  } as unknown as IntegrationStore
  let writeDone = false
  const sink = {
    write: async (messages: readonly MessageWrite[]) => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      writeDone = true
      return messages.map((): WriteResult => 'written')
    },
  }
  const consumer = new AlertsConsumer(new IntegrationCache(failing, 0), sink as unknown as RedisAlertSink, createMetrics(), createLogger('silent'))
  const outcome = await consumer.handle(batchOf(1000), { signal: controller.signal }).then(
    () => 'resolved',
    (err: Error) => `${err.message}; first chunk written: ${writeDone}`,
  )
  expect(outcome).toBe('partition lost; first chunk written: true')
})
