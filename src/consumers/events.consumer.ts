// events topic → validate (pipeline) → ClickHouse (sink) → commit (by the broker adapter).
// Exactly once into ClickHouse without insert deduplication (ClickHouse 18.16 has none): every row
// carries its (partition, offset, index), and before each insert the consumer records the last
// offset it may write (an intent). A batch is "suspect" when rows of it may already be stored: the
// first batch after a start, a rebalance or an error, and every batch up to the highest intent any
// earlier owner of the partition recorded. For a suspect batch the stored positions are read first
// and skipped. Offsets are committed only after both inserts succeeded.
import type { Logger } from '../app/logger.js'
import type { Metrics } from '../app/metrics.js'
import type { BatchContext, InboundBatch, InboundMessage } from '../broker/ports.js'
import { processEvent, rejectionRow, type EnvelopeMeta, type EventRow, type RejectionRow } from '../pipeline/events.js'
import type { ClickHouseEventSink } from '../sinks/clickhouse/events.sink.js'
import { EVENT_HEADERS } from '../pipeline/event-messages.js'
import { retrying } from './retry.js'

/**
 * An intent covers this many offsets past the batch being written, so one small intent insert serves
 * many batches; after a crash the new owner checks (through the sort key) up to that far.
 */
const INTENT_LOOKAHEAD = 1000n

interface PartitionState {
  /** The offset after the last batch this process stored. */
  next: bigint
  /** Batches up to this offset may hold rows stored earlier (by a killed or replaced owner, from its intents). */
  suspectThrough: bigint
  /** This process's recorded intent for the partition reaches this offset. */
  intentThrough: bigint
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
    try {
      await this.store(batch, ctx)
    } catch (err) {
      // Whatever was written before the failure is unknown: the redelivery must check.
      this.partitions.delete(batch.partition)
      throw err
    }
  }

  private async store(batch: InboundBatch, ctx: BatchContext): Promise<void> {
    const { topic, partition } = batch
    const first = batch.messages[0]!.offset
    const last = batch.messages[batch.messages.length - 1]!.offset
    const events: EventRow[] = []
    const rejections: RejectionRow[] = []
    for (const message of batch.messages) decodeMessage(batch, message, events, rejections)

    const log = this.log.child({ partition })
    const state = this.partitions.get(partition)
    let suspectThrough = state?.suspectThrough ?? -1n
    let intentThrough = state?.intentThrough ?? -1n
    let suspect = !state || state.next !== first
    if (!state) {
      const intended = await retrying(ctx, log, 'reading consumer intents', () => this.sink.intendedThrough(topic, partition), this.metrics.sinkErrors)
      if (intended !== undefined && intended > suspectThrough) suspectThrough = intended
    }
    const written = await retrying(ctx, log, 'clickhouse insert', async () => {
      let ev = events
      let rj = rejections
      if (suspect || first <= suspectThrough) {
        const stored = await this.sink.storedPositions(topic, partition, events, rejections)
        if (stored.size > 0) {
          const fresh = (r: EventRow | RejectionRow) => !stored.has(`${r.source_offset}:${r.source_index}`)
          ev = events.filter(fresh)
          rj = rejections.filter(fresh)
          log.info({ first: String(first), last: String(last), skipped: stored.size }, 'replayed rows already stored; skipped')
        }
      }
      // From here on a failure may leave part of the batch stored: a retry must check again.
      suspect = true
      if (last > intentThrough) {
        await this.sink.recordIntent(topic, partition, last + INTENT_LOOKAHEAD)
        intentThrough = last + INTENT_LOOKAHEAD
      }
      const end = this.metrics.insertSeconds.startTimer()
      await this.sink.insertEvents(ev)
      await this.sink.insertRejections(rj)
      end()
      return { events: ev.length, rejections: rj.length }
    }, this.metrics.sinkErrors)
    this.metrics.insertBatchRows.observe(written.events + written.rejections)
    this.metrics.eventsInserted.inc(written.events)
    this.metrics.eventsRejected.inc(written.rejections)
    log.debug({ first: String(first), last: String(last), ...written }, 'batch inserted')
    this.partitions.set(partition, { next: last + 1n, suspectThrough, intentThrough })
    this.metrics.consumerLag.set({ topic, partition: String(partition) }, Number(batch.highWatermark - last - 1n))
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
