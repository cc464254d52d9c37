// How the alerts consumer drives the sink's answers, with a scripted in-memory sink (the real sink
// on Redis is test/integration/alerts-sink.test.ts): a refused message becomes a rejection entry,
// the messages after it are written next, and nothing is counted stored that was not written.
import { NO_RULES_OR_WINDOWS } from '../../../src/pipeline/alerts/rules-and-windows.js'
import { expect, it } from 'vitest'
import { encodeAlertMessage } from '../../../src/broker/messages/alerts.js'
import type { InboundBatch } from '../../../src/broker/ports.js'
import { AlertsConsumer, integrationCache } from '../../../src/consumers/alerts.consumer.js'
import { AppError } from '../../../src/shared/errors.js'
import { createLogger } from '../../../src/shared/logger.js'
import { createMetrics } from '../../../src/shared/metrics.js'
import type { MessageWrite, RedisAlertSink, WriteResult } from '../../../src/sinks/redis-stream/alerts.sink.js'
import type { IntegrationRecord, IntegrationStore } from '../../../src/state/redis/integrations.js'

const noRulesOrWindows = { get: () => Promise.resolve(NO_RULES_OR_WINDOWS) }

const mapping = { severity: 'warning', description: '{{webhook.n}}', source: 'test' }
const store = {
  byId: (id: string) => Promise.resolve({ id, mapping } as unknown as IntegrationRecord),
} as unknown as IntegrationStore

function batchOf(count: number): InboundBatch {
  const messages = Array.from({ length: count }, (_, i) => {
    const m = encodeAlertMessage(
      JSON.stringify({ n: i }),
      { integrationId: 'i1', accountId: 'a1', receivedAtMs: 1_700_000_000_000, requestId: `r${i}` },
      1 << 20,
    )!
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
  const consumer = new AlertsConsumer(
    integrationCache(store, 60_000),
    noRulesOrWindows,
    sink as unknown as RedisAlertSink,
    metrics,
    createLogger('silent'),
  )
  await consumer.handle(batchOf(5), { signal: new AbortController().signal })
  return metrics
}

it('stores a rejection entry in place of a refused message, then the messages after it', async () => {
  const refusal = new AppError('SINK_REFUSED_DATA', 'redis: WRONGTYPE', false)
  const sink = new ScriptedSink([
    (ms) => ms.map((_, i): WriteResult => (i === 1 ? refusal : i < 1 ? 'written' : 'blocked')),
    (ms) => ms.map((): WriteResult => 'written'),
  ])
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
  const consumer = new AlertsConsumer(
    integrationCache(store, 60_000),
    noRulesOrWindows,
    sink as unknown as RedisAlertSink,
    createMetrics(),
    createLogger('silent'),
  )
  await consumer.handle(batchOf(25), { signal: new AbortController().signal })
  const sent = sink.calls[0]!
  expect(sent.slice(0, 5).every((m) => m.sample === undefined)).toBe(true)
  expect(sent.slice(5).map((m) => JSON.parse(m.sample!) as unknown)).toEqual(
    Array.from({ length: 20 }, (_, k) => ({
      requestId: `r${k + 5}`,
      receivedAt: 1_700_000_000_000,
      bytes: JSON.stringify({ n: k + 5 }).length,
      payload: { n: k + 5 },
    })),
  )
  const refusal = new AppError('SINK_REFUSED_DATA', 'redis: WRONGTYPE', false)
  const refused = new ScriptedSink([
    (ms) => ms.map((_, i): WriteResult => (i === 0 ? refusal : 'blocked')),
    (ms) => ms.map((): WriteResult => 'written'),
  ])
  await run(refused)
  expect(refused.calls[1]![0]!.sample).toBeUndefined()
})
