// events topic → validate (pipeline) → ClickHouse (sink) → commit (by the broker adapter).
// Exactly once into ClickHouse without insert deduplication (ClickHouse 18.16 has none): every row
// carries its (partition, offset, index). A batch is "suspect" when rows of it may already be stored:
// the first batch after a start or rebalance, a retry after a failed insert, and every batch up to
// the highest offset a previous owner of the partition stored. For a suspect batch the stored
// positions are read first and skipped. Offsets are committed only after both inserts succeeded.
import type { Logger } from '../app/logger.js'
import type { Metrics } from '../app/metrics.js'
import type { BatchContext, InboundBatch, InboundMessage } from '../broker/ports.js'
import { processEvent, rejectionRow, type EnvelopeMeta, type EventRow, type RejectionRow } from '../pipeline/events.js'
import type { ClickHouseEventSink } from '../sinks/clickhouse/events.sink.js'
import { EVENT_HEADERS } from '../pipeline/event-messages.js'

const MAX_BACKOFF_MS = 5000

interface PartitionState {
  /** The offset after the last batch this process stored. */
  next: bigint
  /** Batches up to this offset may hold rows stored earlier (by a killed or replaced owner). */
  suspectThrough: bigint
}

export class EventsConsumer {
  private readonly partitions = new Map<number, PartitionState>()
  /** One batch per partition at a time, even if the client library overlaps them in a rebalance. */
  private readonly locks = new Map<number, Promise<void>>()

  constructor(
    private readonly sink: ClickHouseEventSink,
    private readonly metrics: Metrics,
    private readonly log: Logger,
  ) {}

  /** After a rebalance nothing is known about what other members stored. */
  readonly reset = (): void => {
    this.partitions.clear()
  }

  readonly handle = async (batch: InboundBatch, ctx: BatchContext): Promise<void> => {
    const previous = this.locks.get(batch.partition) ?? Promise.resolve()
    const current = previous.then(() => this.process(batch, ctx))
    const settled = current.catch(() => undefined)
    this.locks.set(batch.partition, settled)
    try {
      await current
    } finally {
      if (this.locks.get(batch.partition) === settled) this.locks.delete(batch.partition)
    }
  }

  private async process(batch: InboundBatch, ctx: BatchContext): Promise<void> {
    const first = batch.messages[0]!.offset
    const last = batch.messages[batch.messages.length - 1]!.offset
    const events: EventRow[] = []
    const rejections: RejectionRow[] = []
    for (const message of batch.messages) decodeMessage(batch, message, events, rejections)

    const state = this.partitions.get(batch.partition)
    let suspect = !state || state.next !== first || first <= state.suspectThrough
    let suspectThrough = state?.suspectThrough ?? -1n
    for (let attempt = 0; ; attempt++) {
      try {
        let ev = events
        let rj = rejections
        if (suspect) {
          const stored = await this.sink.storedFrom(batch.topic, batch.partition, first, last)
          if (stored.maxOffset !== undefined && stored.maxOffset > suspectThrough) suspectThrough = stored.maxOffset
          if (stored.positions.size > 0) {
            const fresh = (r: EventRow | RejectionRow) => !stored.positions.has(`${r.source_offset}:${r.source_index}`)
            ev = events.filter(fresh)
            rj = rejections.filter(fresh)
            this.log.info({ partition: batch.partition, first: String(first), last: String(last), skipped: stored.positions.size }, 'replayed rows already stored; skipped')
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
        suspect = true
        this.metrics.sinkErrors.inc()
        this.log.warn({ err, partition: batch.partition, attempt }, 'clickhouse insert failed; retrying')
        if (!ctx.shouldContinue()) throw err
        await new Promise((r) => setTimeout(r, Math.min(MAX_BACKOFF_MS, 100 * 2 ** attempt)))
        await ctx.heartbeat()
        if (!ctx.shouldContinue()) throw err
      }
    }
    this.partitions.set(batch.partition, { next: last + 1n, suspectThrough })
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
