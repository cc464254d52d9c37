// An in-memory stand-in for the ClickHouse table sink, for unit tests of the ClickHouse consumer: it
// keeps rows by table; it refuses rows whose key starts with "refused" (as ClickHouse refuses data),
// rejections whose raw copy holds "refused-twice", and fails the next `outages` inserts as an outage.
// `storedButRefused`: the next inserts store their rows and still answer with a data code (as a
// cluster's server reports a replica dying under its insert: "Attempt to read after eof").
// `refusedQueries`: the next inserts are refused as statements (SINK_REFUSED_QUERY).
import { eventOfColumns } from '../../src/broker/messages/events.js'
import type { MessageIdentity, RejectionRow, RowOrigin } from '../../src/pipeline/rows.js'
import { AppError } from '../../src/shared/errors.js'
import type { ClickHouseTableSink } from '../../src/sinks/clickhouse/table.sink.js'
import type { Table, TableRows } from '../../src/sinks/clickhouse/tables.js'

export class MemorySink {
  readonly tables = new Map<string, RowOrigin[]>()
  inserts = 0
  outages = 0
  storedButRefused = 0
  refusedQueries = 0

  rows<R extends RowOrigin>(table: Table<R> | string): R[] {
    return (this.tables.get(typeof table === 'string' ? table : table.name) ?? []) as R[]
  }

  async insert(table: Table, encoded: readonly RowOrigin[]) {
    // Rows of the events topic's lines hold their columns encoded: kept as ClickHouse would store them.
    const rows = encoded.map((r) => {
      const { tsv, ...row } = r as RowOrigin & { tsv?: Buffer }
      return tsv === undefined ? r : { ...row, ...eventOfColumns(tsv) }
    })
    const isRejection = table.columns.includes('reason')
    if (!isRejection) {
      this.inserts++
      if (this.outages > 0) {
        this.outages--
        throw new AppError('SINK_UNAVAILABLE', 'clickhouse: connect ECONNREFUSED', true)
      }
      if (this.refusedQueries > 0) {
        this.refusedQueries--
        throw new AppError(
          'SINK_REFUSED_QUERY',
          'clickhouse refused the insert into events (code 497): Not enough privileges',
          false,
        )
      }
      if (this.storedButRefused > 0) {
        this.storedButRefused--
        this.tables.set(table.name, [...this.rows(table), ...rows])
        throw new AppError(
          'SINK_REFUSED_DATA',
          'Code: 32, e.displayText() = DB::Exception: Attempt to read after eof: while receiving packet from 127.0.0.1:9204',
          false,
        )
      }
      if (rows.some((r) => String((r as unknown as { key?: unknown }).key).startsWith('refused')))
        throw new AppError('SINK_REFUSED_DATA', 'Code: 117, Incorrect data', false)
    } else if (rows.some((r) => (r as RejectionRow).raw.includes('refused-twice')))
      throw new AppError('SINK_REFUSED_DATA', 'Code: 131, Too large string', false)
    this.tables.set(table.name, [...this.rows(table), ...rows])
  }
  async recordIntent() {}
  async intendedThrough() {
    return undefined
  }
  /** As ClickHouse answers it: every stored position of the partition within the rows' offsets, theirs or not. */
  async storedPositions(topic: string, partition: number, batch: readonly TableRows[], rejections: TableRows) {
    const offsets = [...batch.flatMap((b) => b.rows), ...rejections.rows].map((r) => BigInt(r.source_offset))
    if (offsets.length === 0) return new Set<string>()
    const [min, max] = [offsets.reduce((a, b) => (b < a ? b : a)), offsets.reduce((a, b) => (b > a ? b : a))]
    const found = [...batch.map((b) => b.table), rejections.table]
      .flatMap((t) => this.rows(t))
      .filter(
        (r) =>
          r.source_topic === topic &&
          r.source_partition === partition &&
          BigInt(r.source_offset) >= min &&
          BigInt(r.source_offset) <= max,
      )
    return new Set(found.map(position))
  }
  async storedParts(tables: readonly Table[], parts: readonly MessageIdentity[]) {
    const wanted = new Set(parts.map((p) => `${p.requestId}:${p.part}`))
    return new Set(
      tables
        .flatMap((t) => this.rows(t))
        .map((r) => `${r.request_id}:${r.request_part}`)
        .filter((id) => wanted.has(id)),
    )
  }

  /** As the consumer takes it. */
  get sink(): ClickHouseTableSink {
    return this as unknown as ClickHouseTableSink
  }
}

const position = (r: RowOrigin) => `${r.source_offset}:${r.source_index}`
