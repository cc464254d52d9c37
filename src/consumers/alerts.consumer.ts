// alerts topic → integration's current mapping → render and normalize (pipeline) → Redis streams
// (sink, exactly once per Kafka message) → commit (by the broker adapter).
import type { Logger } from '../app/logger.js'
import type { Metrics } from '../app/metrics.js'
import type { BatchContext, InboundBatch } from '../broker/ports.js'
import { decodeAlertMessage } from '../pipeline/alert-messages.js'
import { renderAlerts, type NormalizedAlert } from '../pipeline/alerts.js'
import type { AlertRejection, MessageWrite, RedisAlertSink } from '../sinks/redis-stream/alerts.sink.js'
import type { IntegrationRecord, IntegrationStore } from '../state/integrations.js'

const MAX_BACKOFF_MS = 5000
const MAX_REJECTED_PAYLOAD_CHARS = 256 * 1024

/** Integration records by id, each re-read from Redis after refreshMs: mapping changes apply within seconds. */
export class IntegrationCache {
  private readonly entries = new Map<string, { record: IntegrationRecord | undefined; at: number }>()

  constructor(
    private readonly store: IntegrationStore,
    private readonly refreshMs: number,
  ) {}

  async get(id: string): Promise<IntegrationRecord | undefined> {
    const hit = this.entries.get(id)
    if (hit && Date.now() - hit.at < this.refreshMs) return hit.record
    const record = await this.store.byId(id)
    this.entries.set(id, { record, at: Date.now() })
    if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value as string)
    return record
  }
}

export class AlertsConsumer {
  constructor(
    private readonly integrations: IntegrationCache,
    private readonly sink: RedisAlertSink,
    private readonly metrics: Metrics,
    private readonly log: Logger,
  ) {}

  readonly handle = async (batch: InboundBatch, ctx: BatchContext): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const writes: MessageWrite[] = []
        for (const message of batch.messages) writes.push(await this.render(batch, message.offset, message.value, message.headers))
        const written = await this.sink.write(writes)
        const fresh = writes.filter((_, i) => written[i])
        this.metrics.alertsStored.inc(fresh.reduce((n, w) => n + w.alerts.length, 0))
        this.metrics.alertsRejected.inc(fresh.reduce((n, w) => n + w.rejections.length, 0))
        this.log.debug({ partition: batch.partition, messages: writes.length, written: fresh.length }, 'alert batch stored')
        if (fresh.length < writes.length) this.log.info({ partition: batch.partition, skipped: writes.length - fresh.length }, 'replayed messages already stored; skipped')
        break
      } catch (err) {
        this.log.warn({ err, partition: batch.partition, attempt }, 'alert batch failed; retrying')
        if (!ctx.shouldContinue()) throw err
        await new Promise((r) => setTimeout(r, Math.min(MAX_BACKOFF_MS, 100 * 2 ** attempt)))
        await ctx.heartbeat()
        if (!ctx.shouldContinue()) throw err
      }
    }
    const last = batch.messages[batch.messages.length - 1]!.offset
    this.metrics.consumerLag.set({ topic: batch.topic, partition: String(batch.partition) }, Number(batch.highWatermark - last - 1n))
  }

  private async render(batch: InboundBatch, offset: bigint, value: Buffer, headers: Readonly<Record<string, string>>): Promise<MessageWrite> {
    const base = { topic: batch.topic, partition: batch.partition, offset }
    let decoded
    try {
      decoded = decodeAlertMessage(value, headers)
    } catch (err) {
      return { ...base, integrationId: 'unknown', alerts: [], rejections: [rejection('unknown', '', `message could not be decoded: ${String(err)}`, '', Date.now())] }
    }
    const { meta, payloadJson } = decoded
    const reject = (reason: string) => rejection(meta.integrationId, meta.requestId, reason, payloadJson, meta.receivedAtMs)
    const integration = await this.integrations.get(meta.integrationId)
    if (!integration) return { ...base, integrationId: meta.integrationId, alerts: [], rejections: [reject('integration no longer exists')] }
    let payload: unknown
    try {
      payload = JSON.parse(payloadJson)
    } catch {
      return { ...base, integrationId: integration.id, alerts: [], rejections: [reject('payload is not JSON')] }
    }
    const alerts: NormalizedAlert[] = []
    const rejections: AlertRejection[] = []
    renderAlerts(integration.mapping, payload, { integrationId: integration.id, requestId: meta.requestId, receivedAtMs: meta.receivedAtMs }).forEach((o, index) => {
      if (o.ok) alerts.push(o.alert)
      else rejections.push(reject(`alert ${index}: ${o.reason}`))
    })
    return { ...base, integrationId: integration.id, alerts, rejections }
  }
}

function rejection(integrationId: string, requestId: string, reason: string, payload: string, receivedAtMs: number): AlertRejection {
  return { integrationId, requestId, reason, payload: payload.slice(0, MAX_REJECTED_PAYLOAD_CHARS), receivedAt: new Date(receivedAtMs).toISOString() }
}
