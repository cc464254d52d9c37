// events topic → validate (pipeline) → ClickHouse (sink) → commit (by the broker adapter).
// Exactly once into ClickHouse without insert deduplication (ClickHouse 18.16 has none): every row
// carries its (partition, offset, index); when a batch may already be partly stored (first batch
// after a start or rebalance, or a retry after a failed insert) the stored positions are read first
// and skipped. Offsets are committed only after both inserts succeeded.
import type { Logger } from '../app/logger.js'
import type { Metrics } from '../app/metrics.js'
import type { BatchContext, InboundBatch, InboundMessage } from '../broker/ports.js'
import { processEvent, rejectionRow, type EnvelopeMeta, type EventRow, type RejectionRow } from '../pipeline/events.js'
import type { ClickHouseEventSink } from '../sinks/clickhouse/events.sink.js'
import { EVENT_HEADERS } from '../pipeline/event-messages.js'

const MAX_BACKOFF_MS = 5000

export class EventsConsumer {
  /** Per partition, the offset that follows the last batch this process stored. */
  private readonly nextOffset = new Map<number, bigint>()

  constructor(
    private readonly sink: ClickHouseEventSink,
    private readonly metrics: Metrics,
    private readonly log: Logger,
  ) {}

  /** After a rebalance nothing is known about what other members stored. */
  readonly reset = (): void => {
    this.nextOffset.clear()
  }

  readonly handle = async (batch: InboundBatch, ctx: BatchContext): Promise<void> => {
    const first = batch.messages[0]!.offset
    const last = batch.messages[batch.messages.length - 1]!.offset
    const events: EventRow[] = []
    const rejections: RejectionRow[] = []
    for (const message of batch.messages) decodeMessage(batch, message, events, rejections)

    let verify = this.nextOffset.get(batch.partition) !== first
    for (let attempt = 0; ; attempt++) {
      try {
        let ev = events
        let rj = rejections
        if (verify) {
          const stored = await this.sink.storedPositions(batch.topic, batch.partition, first, last)
          if (stored.size > 0) {
            const fresh = (r: EventRow | RejectionRow) => !stored.has(`${r.source_offset}:${r.source_index}`)
            ev = events.filter(fresh)
            rj = rejections.filter(fresh)
            this.log.info({ partition: batch.partition, first: String(first), last: String(last), skipped: stored.size }, 'replayed rows already stored; skipped')
          }
        }
        const end = this.metrics.insertSeconds.startTimer()
        await this.sink.insertEvents(ev)
        await this.sink.insertRejections(rj)
        end()
        this.metrics.insertBatchRows.observe(ev.length + rj.length)
        this.metrics.eventsInserted.inc(ev.length)
        this.metrics.eventsRejected.inc(rj.length)
        this.log.debug({ partition: batch.partition, first: String(first), last: String(last), events: ev.length, rejections: rj.length }, 'batch inserted')
        break
      } catch (err) {
        // The failed insert may have been applied in part: read before writing again.
        verify = true
        this.metrics.sinkErrors.inc()
        this.log.warn({ err, partition: batch.partition, attempt }, 'clickhouse insert failed; retrying')
        if (!ctx.shouldContinue()) throw err
        await new Promise((r) => setTimeout(r, Math.min(MAX_BACKOFF_MS, 100 * 2 ** attempt)))
        await ctx.heartbeat()
        if (!ctx.shouldContinue()) throw err
      }
    }
    this.nextOffset.set(batch.partition, last + 1n)
    this.metrics.consumerLag.set({ topic: batch.topic, partition: String(batch.partition) }, Number(batch.highWatermark - last - 1n))
  }
}

function decodeMessage(batch: InboundBatch, message: InboundMessage, events: EventRow[], rejections: RejectionRow[]): void {
  const h = message.headers
  const meta: EnvelopeMeta = {
    environmentId: h[EVENT_HEADERS.environment] ?? '',
    accountId: h[EVENT_HEADERS.account] ?? '',
    receivedAtMs: Number(h[EVENT_HEADERS.receivedAt] ?? Date.now()),
    sdkVersion: h[EVENT_HEADERS.sdkVersion] ?? '',
    requestId: h[EVENT_HEADERS.requestId] ?? '',
  }
  const position = (index: number) => ({ topic: batch.topic, partition: batch.partition, offset: message.offset, index })
  let records: unknown
  try {
    records = JSON.parse(message.value.toString('utf8'))
  } catch {
    records = undefined
  }
  if (!meta.environmentId || !Array.isArray(records)) {
    rejections.push(rejectionRow('kafka message is not an event batch written by the edge', message.value.toString('utf8'), meta, position(0)))
    return
  }
  records.forEach((record: unknown, index) => {
    const outcome = processEvent(record, meta, position(index))
    if (outcome.ok) events.push(outcome.row)
    else rejections.push(outcome.rejection)
  })
}
