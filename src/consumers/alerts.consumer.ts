// alerts topic → integration's current mapping → render and normalize (pipeline) → Redis streams
// (sink, exactly once per Kafka message) → commit (by the broker adapter). Only Redis failures are
// retried; anything wrong with a payload becomes a rejection entry, so no message can stall a partition.
import type { Logger } from '../app/logger.js'
import type { Metrics } from '../app/metrics.js'
import type { BatchContext, InboundBatch, InboundMessage } from '../broker/ports.js'
import { decodeAlertMessage } from '../pipeline/alert-messages.js'
import { renderAlerts, type NormalizedAlert } from '../pipeline/alerts.js'
import type { AlertRejection, MessageWrite, RedisAlertSink } from '../sinks/redis-stream/alerts.sink.js'
import type { IntegrationRecord, IntegrationStore } from '../state/integrations.js'
import { retrying } from './retry.js'

const MAX_REJECTED_PAYLOAD_CHARS = 256 * 1024
const MAX_REASON_CHARS = 8 * 1024

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
    const log = this.log.child({ partition: batch.partition })
    const writes = await retrying(ctx, log, 'reading integrations', async () => {
      const out: MessageWrite[] = []
      for (const message of batch.messages) out.push(await this.render(batch, message))
      return out
    }, this.metrics.sinkErrors)
    const written = await retrying(ctx, log, 'writing alert streams', () => this.sink.write(writes), this.metrics.sinkErrors)
    const fresh = writes.filter((_, i) => written[i])
    this.metrics.alertsStored.inc(fresh.reduce((n, w) => n + w.alerts.length, 0))
    this.metrics.alertsRejected.inc(fresh.reduce((n, w) => n + w.rejections.length, 0))
    log.debug({ messages: writes.length, written: fresh.length }, 'alert batch stored')
    if (fresh.length < writes.length) log.info({ skipped: writes.length - fresh.length }, 'replayed messages already stored; skipped')
    const last = batch.messages[batch.messages.length - 1]!.offset
    this.metrics.consumerLag.set({ topic: batch.topic, partition: String(batch.partition) }, Number(batch.highWatermark - last - 1n))
  }

  /** One message's alerts and (at most one) rejection entry. Throws only when Redis cannot be read. */
  private async render(batch: InboundBatch, message: InboundMessage): Promise<MessageWrite> {
    const base = { topic: batch.topic, partition: batch.partition, offset: message.offset }
    let decoded
    try {
      decoded = decodeAlertMessage(message.value, message.headers)
    } catch (err) {
      return { ...base, integrationId: 'unknown', alerts: [], rejections: [rejection('unknown', '', `message could not be decoded: ${String(err)}`, '', Date.now())] }
    }
    const { meta, payloadJson } = decoded
    const reject = (reasons: string[]): MessageWrite => ({
      ...base, integrationId: meta.integrationId, alerts: [], rejections: [rejection(meta.integrationId, meta.requestId, reasons.join('; '), payloadJson, meta.receivedAtMs)],
    })
    const integration = await this.integrations.get(meta.integrationId)
    if (!integration) return reject(['integration no longer exists'])
    try {
      const outcomes = renderAlerts(integration.mapping, JSON.parse(payloadJson), { integrationId: integration.id, requestId: meta.requestId, receivedAtMs: meta.receivedAtMs })
      const alerts: NormalizedAlert[] = []
      const reasons: string[] = []
      outcomes.forEach((o, index) => {
        if (o.ok) alerts.push(o.alert)
        else reasons.push(outcomes.length > 1 ? `alert ${index}: ${o.reason}` : o.reason)
      })
      // The raw payload is kept once per message, whatever the number of rejected alerts in it.
      const rejections = reasons.length > 0 ? reject(reasons).rejections : []
      return { ...base, integrationId: integration.id, alerts, rejections }
    } catch (err) {
      return reject([`payload could not be rendered: ${err instanceof Error ? err.message : String(err)}`])
    }
  }
}

function rejection(integrationId: string, requestId: string, reason: string, payload: string, receivedAtMs: number): AlertRejection {
  return {
    integrationId,
    requestId,
    reason: reason.slice(0, MAX_REASON_CHARS),
    payload: payload.slice(0, MAX_REJECTED_PAYLOAD_CHARS),
    receivedAt: new Date(receivedAtMs).toISOString(),
  }
}
