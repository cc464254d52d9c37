// A topic of SDK data (events, impressions) → rows for ClickHouse tables (a RowCodec per topic, in
// its own thin file) → the table sink → commit (by the broker adapter).
// Exactly once into ClickHouse without insert deduplication (ClickHouse 18.16 has none): every row
// carries its (partition, offset, index), and before each insert the consumer records the last
// offset it may write (an intent). A batch is "suspect" when rows of it may already be stored: the
// first batch after a start, a rebalance or an error, and every batch up to the highest intent any
// earlier owner of the partition recorded. For a suspect batch the stored positions are read first
// and skipped. Offsets are committed only after every insert succeeded. Rows ClickHouse refuses as
// data are isolated and stored as rejections (same position), so no record can stall a partition.
import type { Logger } from '../shared/logger.js'
import type { Metrics } from '../shared/metrics.js'
import { REPLAY_HEADER, type BatchContext, type InboundBatch, type InboundMessage } from '../broker/ports.js'
import { identityOf } from '../broker/messages/records.js'
import type { CompiledPlan } from '../pipeline/plans.js'
import type { MessageIdentity, RejectionRow, RowOrigin, SourcePosition } from '../pipeline/rows.js'
import { AppError, failureKind } from '../shared/errors.js'
import type { ClickHouseTableSink } from '../sinks/clickhouse/table.sink.js'
import { positionKey, type Table, type TableRows } from '../sinks/clickhouse/tables.js'
import { retrying } from './retry.js'
import type { TailFeed } from './tail.feed.js'

/** What a topic's consumer knows of its messages: how one becomes rows, and which tables they go to. */
export interface RowCodec {
  /** Every table the topic's rows go to, in the order they are inserted (rejections apart). */
  readonly tables: readonly Table[]
  readonly rejections: Table<RejectionRow>
  /**
   * Reads what decoding the messages needs (their environments' tracking plans) first, for this batch alone (batches of
   * partitions consumed at once each have their own); throws only an AppError.
   */
  prepare?(messages: readonly InboundMessage[]): Promise<DecodeContext>
  /** Turns one message into rows and rejections. Never throws, whatever the message holds. */
  decode(
    message: InboundMessage,
    position: (index: number) => SourcePosition,
    out: DecodedRows,
    context?: DecodeContext,
  ): void
  /** The rejection of a row ClickHouse refused, with the record it was made from. */
  refused(table: Table, row: RowOrigin, reason: string, record: unknown): RejectionRow
}

/** What a batch's messages are decoded with, read before (RowCodec.prepare). */
export interface DecodeContext {
  /** The tracking plans of the batch's environments, by environment id (none: no plan). */
  readonly plans?: ReadonlyMap<string, CompiledPlan>
}

/** The rows of a batch, by table, and its rejections. */
export class DecodedRows {
  readonly rows = new Map<Table, RowOrigin[]>()
  readonly rejections: RejectionRow[] = []
  /** The record each row was made from, beside it (same index): its raw copy if ClickHouse refuses the row. */
  private readonly records = new Map<Table, unknown[]>()

  add<R extends RowOrigin>(table: Table<R>, row: R, record: unknown): void {
    let rows = this.rows.get(table)
    if (!rows) {
      this.rows.set(table, (rows = []))
      this.records.set(table, [])
    }
    rows.push(row)
    this.records.get(table)!.push(record)
  }

  reject(rejection: RejectionRow): void {
    this.rejections.push(rejection)
  }

  /** Rows' indexes, built at the first refusal: most batches never need them. */
  private indexes?: Map<RowOrigin, number>

  /** The record a row was made from (looked up only for a row ClickHouse refused). */
  recordOf(table: Table, row: RowOrigin): unknown {
    if (!this.indexes) {
      this.indexes = new Map()
      for (const rows of this.rows.values()) rows.forEach((r, i) => this.indexes!.set(r, i))
    }
    return this.records.get(table)?.[this.indexes.get(row) ?? -1]
  }

  /** Rows and rejections so far. */
  get size(): number {
    let rows = 0
    for (const r of this.rows.values()) rows += r.length
    return rows + this.rejections.length
  }
}

/**
 * An intent covers this many offsets past the batch being written, so one small intent insert serves
 * many batches; after a crash the new owner checks (through the sort key) up to that far.
 */
const INTENT_LOOKAHEAD = 1000n
const MAX_REASON_CHARS = 2000
/**
 * Rows decoded and inserted at a time: a batch that decodes into more (an 8 MiB fetch of tiny
 * unique keys is over a million rows) is stored in several steps, so memory stays bounded.
 */
export const MAX_ROWS_PER_STEP = 200_000

/** One batch being handled: where it is from, where it logs, and how its sink calls wait out outages. */
interface BatchRun {
  readonly batch: InboundBatch
  readonly log: Logger
  /** Calls the sink until the call succeeds or fails for good (retry.ts), counting each failure. */
  readonly retry: <T>(what: string, attempt: () => Promise<T>) => Promise<T>
  /** Resolves while the partition is surely still this member's (BatchContext.owned): before each read and write. */
  readonly owned: () => Promise<void>
}

/** A step of a batch: its messages first..last (all of them, or as many as one step holds), decoded. */
interface Step {
  readonly first: bigint
  readonly last: bigint
  readonly decoded: DecodedRows
}

interface PartitionState {
  /** The offset after the last batch this process stored. */
  next: bigint
  /** Batches up to this offset may hold rows stored earlier (by a killed or replaced owner, from its intents). */
  suspectThrough: bigint
  /** This process's recorded intent for the partition reaches this offset. */
  intentThrough: bigint
}

export class ClickHouseConsumer {
  private readonly partitions = new Map<number, PartitionState>()
  /** One batch per partition at a time, even if the client library overlaps them in a rebalance. */
  private readonly locks = new Map<number, Promise<void>>()

  constructor(
    private readonly codec: RowCodec,
    private readonly sink: ClickHouseTableSink,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    /** Told how many rows and rejections each batch stored (the events counters). */
    private readonly onStored: (written: { rows: number; rejections: number }) => void = () => undefined,
    /** The live tail, handed each decoded step of records (it keeps those of watched environments). */
    private readonly tail?: TailFeed,
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
    const { topic, partition, messages } = batch
    const log = this.log.child({ partition })
    const failed = (err: AppError) => this.metrics.sinkErrors.inc({ sink: 'clickhouse', kind: failureKind(err) })
    const run: BatchRun = {
      batch,
      log,
      retry: (what, attempt) => retrying(ctx, log, what, attempt, failed),
      owned: ctx.owned ?? (() => Promise.resolve()),
    }
    const skip = await this.replaysAlreadyStored(run)
    const context = this.codec.prepare
      ? await run.retry('reading tracking plans', () => this.codec.prepare!(messages))
      : undefined
    let decoded = new DecodedRows()
    let from = 0
    for (const [i, message] of messages.entries()) {
      if (!skip.has(message.offset))
        this.codec.decode(message, (index) => ({ topic, partition, offset: message.offset, index }), decoded, context)
      if (decoded.size >= MAX_ROWS_PER_STEP || i === messages.length - 1) {
        this.tail?.offerRows(decoded.rows, decoded.rejections, this.codec.rejections.name)
        await this.insertStep(run, { first: messages[from]!.offset, last: message.offset, decoded })
        decoded = new DecodedRows()
        from = i + 1
      }
    }
  }

  /**
   * Stores the rows of the messages first..last of a batch (all of it, or a step of it), then records how far it got.
   */
  private async insertStep(run: BatchRun, { first, last, decoded }: Step): Promise<void> {
    const { batch, log } = run
    const { topic, partition } = batch
    const state = this.partitions.get(partition)
    let suspectThrough = state?.suspectThrough ?? -1n
    let intentThrough = state?.intentThrough ?? -1n
    let suspect = !state || state.next !== first
    if (!state) {
      const intended = await run.retry('reading consumer intents', () => this.sink.intendedThrough(topic, partition))
      if (intended !== undefined && intended > suspectThrough) suspectThrough = intended
    }
    const written = await run.retry('clickhouse insert', async () => {
      let tables: TableRows[] = [...decoded.rows].map(([table, rows]) => ({ table, rows }))
      let rejections = decoded.rejections
      // A member evicted while it could not reach the coordinator must not read or write beside the partition's new
      // owner (both would find the batch missing and store it): it waits here until the group answers.
      await run.owned()
      if (suspect || first <= suspectThrough) {
        const stored = await this.sink.storedPositions(topic, partition, tables, {
          table: this.codec.rejections,
          rows: rejections,
        })
        if (stored.size > 0) {
          const fresh = (table: Table) => (r: RowOrigin) => !stored.has(positionKey(table, r))
          tables = tables.map(({ table, rows }) => ({ table, rows: rows.filter(fresh(table)) }))
          rejections = rejections.filter(fresh(this.codec.rejections))
          log.info(
            { first: String(first), last: String(last), skipped: stored.size },
            'replayed rows already stored; skipped',
          )
        }
      }
      // From here on a failure may leave part of the batch stored: a retry must check again.
      suspect = true
      if (last > intentThrough) {
        await this.sink.recordIntent(topic, partition, last + INTENT_LOOKAHEAD)
        intentThrough = last + INTENT_LOOKAHEAD
      }
      await run.owned()
      const end = this.metrics.insertSeconds.startTimer()
      const result = await this.insertIsolating(run, tables, rejections, decoded)
      end()
      return result
    })
    this.metrics.insertBatchRows.observe(written.rows + written.rejections)
    this.onStored(written)
    log.debug({ first: String(first), last: String(last), ...written }, 'batch inserted')
    this.partitions.set(partition, { next: last + 1n, suspectThrough, intentThrough })
  }

  /**
   * The offsets of replayed messages (published again from an edge's spool) whose identity (request
   * id, part) is already stored, or appears earlier in this batch. A replay lands in the partition
   * of its first copy and after it, so what this partition stored is all there is to check.
   */
  private async replaysAlreadyStored({ batch, log, retry }: BatchRun): Promise<Set<bigint>> {
    const skip = new Set<bigint>()
    const replays = batch.messages.filter((m) => m.headers[REPLAY_HEADER] === '1').length
    if (replays === 0) return skip
    const seen = new Set<string>()
    const toCheck: { offset: bigint; identity: MessageIdentity }[] = []
    for (const m of batch.messages) {
      const identity = identityOf(m.headers)
      if (!identity) continue
      const id = `${identity.requestId}:${identity.part}`
      if (m.headers[REPLAY_HEADER] === '1') {
        if (seen.has(id)) skip.add(m.offset)
        else toCheck.push({ offset: m.offset, identity })
      }
      seen.add(id)
    }
    if (toCheck.length > 0) {
      const stored = await retry('checking replayed messages', () =>
        this.sink.storedParts(
          [...this.codec.tables, this.codec.rejections],
          toCheck.map((c) => c.identity),
        ),
      )
      for (const c of toCheck) if (stored.has(`${c.identity.requestId}:${c.identity.part}`)) skip.add(c.offset)
    }
    if (skip.size > 0) {
      this.metrics.replaysSkipped.inc({ topic: batch.topic }, skip.size)
      log.info({ replays, skipped: skip.size }, 'replayed messages already stored; skipped')
    }
    return skip
  }

  /**
   * Inserts each table's rows, then the rejections. When ClickHouse refuses rows as data (not as an
   * outage), the rows are split in halves until the refused ones are alone; each becomes a rejection
   * carrying ClickHouse's message, and the others are stored. A rejection refused in turn is stored
   * once more without its raw copy; only if that fails too is it given up (logged with its position,
   * counted).
   */
  private async insertIsolating(
    { batch, log }: BatchRun,
    tables: readonly TableRows[],
    rejections: readonly RejectionRow[],
    decoded: DecodedRows,
  ) {
    const { topic, partition } = batch
    const none = { table: this.codec.rejections, rows: [] }
    const refused: RejectionRow[] = []
    let stored = 0
    for (const { table, rows } of tables) {
      const n = await this.isolate(
        table,
        rows,
        (part) => this.sink.insert(table, part),
        (part) => this.sink.storedPositions(topic, partition, [{ table, rows: part }], none),
        (row, err) => {
          // A report on a record stored elsewhere is not a record: it is given up, not refused.
          if (table.side) {
            this.metrics.unstorable.inc({ sink: 'clickhouse' })
            log.error(
              { err, table: table.name, offset: row.source_offset, index: row.source_index },
              'a report row could not be stored; given up',
            )
          } else
            refused.push(
              this.codec.refused(
                table,
                row,
                `clickhouse refused the row: ${err.message}`.slice(0, MAX_REASON_CHARS),
                decoded.recordOf(table, row),
              ),
            )
        },
      )
      if (n > 0) this.metrics.rowsInserted.inc({ table: table.name }, n)
      // A side table's rows report on records counted in their own table.
      if (!table.side) stored += n
    }
    const retry: RejectionRow[] = []
    const insertRejections = (part: readonly RejectionRow[]) => this.sink.insert(this.codec.rejections, part)
    const storedRejections = (part: readonly RejectionRow[]) =>
      this.sink.storedPositions(topic, partition, [], { table: this.codec.rejections, rows: part })
    let rejected = await this.isolate(
      this.codec.rejections,
      [...rejections, ...refused],
      insertRejections,
      storedRejections,
      (row, err) => {
        retry.push({
          ...row,
          reason: `${row.reason}; raw not kept: clickhouse refused it (${err.message.slice(0, 500)})`,
          raw: '',
        })
      },
    )
    rejected += await this.isolate(this.codec.rejections, retry, insertRejections, storedRejections, (row, err) => {
      this.metrics.unstorable.inc({ sink: 'clickhouse' })
      log.error(
        { err, offset: row.source_offset, index: row.source_index, reason: row.reason },
        'a rejection could not be stored; given up',
      )
    })
    if (rejected > 0) this.metrics.rowsInserted.inc({ table: this.codec.rejections.name }, rejected)
    if (refused.length > 0)
      log.warn({ refused: refused.length }, 'clickhouse refused rows as data; stored them as rejections')
    return { rows: stored, rejections: rejected }
  }

  /**
   * Inserts rows, splitting around the ones the sink refuses as data; returns how many were stored.
   * A half is another block than the rows it came from, which ClickHouse cannot recognise as a retry:
   * it is sent only once a consistent read says that none of the refused rows is stored. Some are on
   * a cluster whose server reported a replica's failure with a data code: that is an outage, and the
   * batch is retried whole after the consumer's own read of what is stored.
   */
  private async isolate<R extends RowOrigin>(
    table: Table,
    rows: readonly R[],
    insert: (rows: readonly R[]) => Promise<void>,
    storedOf: (rows: readonly R[]) => Promise<ReadonlySet<string>>,
    onRefused: (row: R, err: AppError) => void,
  ): Promise<number> {
    if (rows.length === 0) return 0
    try {
      await insert(rows)
      return rows.length
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'SINK_REFUSED_DATA') throw err
      const stored = await storedOf(rows)
      const found = rows.filter((r) => stored.has(positionKey(table, r))).length
      if (found > 0)
        throw new AppError(
          'SINK_UNAVAILABLE',
          `clickhouse refused rows as data yet stored ${found} of them: not a refusal of the rows (${err.message})`,
          true,
          { cause: err },
        )
      this.metrics.sinkErrors.inc({ sink: 'clickhouse', kind: 'data' })
      if (rows.length === 1) {
        onRefused(rows[0]!, err)
        return 0
      }
      const mid = Math.ceil(rows.length / 2)
      return (
        (await this.isolate(table, rows.slice(0, mid), insert, storedOf, onRefused)) +
        (await this.isolate(table, rows.slice(mid), insert, storedOf, onRefused))
      )
    }
  }
}
