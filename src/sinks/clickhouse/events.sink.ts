// Writes event rows and rejections to ClickHouse. Each row carries its source (topic, partition,
// offset, index), which is what makes replays exact: before writing rows that may already be there
// (after a restart, a rebalance or a failed insert), the consumer asks which positions exist.
// Every failure leaves as an AppError: SINK_REFUSED_DATA when ClickHouse refused the rows themselves
// (the consumer then isolates and rejects them), SINK_UNAVAILABLE otherwise (waited out).
// An insert that failed without an answer (a timeout, a cut connection) may still be running, or
// even still unread in the server's socket buffer, and land later: before the next insert or check of
// stored positions, such inserts are killed by query id and confirmed gone, so the check sees all
// there will ever be. Inserts get a long deadline (CLICKHOUSE_REQUEST_TIMEOUT_MS) so that a paused
// server is waited for rather than raced.
import { randomUUID } from 'node:crypto'
import type { ClickHouseClient } from '@clickhouse/client'
import type { EventRow, RejectionRow } from '../../pipeline/events.js'
import { AppError, fromClickHouse } from '../../shared/errors.js'
import { tsvStream } from './tsv.js'

const ORIGIN_COLUMNS = [
  'environment_id',
  'account_id',
  'received_at',
  'received_at_ms',
  'sdk_version',
  'request_id',
  'request_part',
  'source_topic',
  'source_partition',
  'source_offset',
  'source_index',
] as const
/** Every column of a row, the order they are sent in (a unit test checks them against the rows built). */
export const EVENT_COLUMNS: readonly (keyof EventRow)[] = [...ORIGIN_COLUMNS, 'traffic_type', 'event_type', 'key', 'timestamp', 'timestamp_ms', 'timestamp_raw', 'value', 'properties']
export const REJECTION_COLUMNS: readonly (keyof RejectionRow)[] = [...ORIGIN_COLUMNS, 'reason', 'raw']
interface IntentRow {
  topic: string
  partition: number
  last_offset: string
  at: number
}
const INTENT_COLUMNS: readonly (keyof IntentRow)[] = ['topic', 'partition', 'last_offset', 'at']
/** The DateTime columns of the three tables (epoch seconds in the rows). */
export const DATE_TIME_COLUMNS = ['timestamp', 'received_at', 'at']

export class ClickHouseEventSink {
  /** Query ids of inserts that failed without a definite answer. */
  private unsettled: string[] = []

  constructor(
    private readonly client: ClickHouseClient,
    private readonly database: string,
  ) {}

  insertEvents(rows: readonly EventRow[]): Promise<void> {
    return this.insert('events', rows, EVENT_COLUMNS)
  }

  insertRejections(rows: readonly RejectionRow[]): Promise<void> {
    return this.insert('event_rejections', rows, REJECTION_COLUMNS)
  }

  /** Records, before an insert, the last offset it may write (see event_consumer_intents). */
  recordIntent(topic: string, partition: number, lastOffset: bigint): Promise<void> {
    return this.insert('event_consumer_intents', [{ topic, partition, last_offset: lastOffset.toString(), at: Math.floor(Date.now() / 1000) }], INTENT_COLUMNS)
  }

  private async insert<T extends object>(table: string, rows: readonly T[], columns: readonly (keyof T & string)[]): Promise<void> {
    if (rows.length === 0) return
    await this.settle()
    const queryId = randomUUID()
    try {
      await this.client.insert({
        table: `${this.database}.${table}`,
        values: tsvStream(rows, columns, DATE_TIME_COLUMNS as (keyof T & string)[]),
        format: 'TabSeparated',
        columns: columns as unknown as [string, ...string[]],
        query_id: queryId,
      })
    } catch (err) {
      const e = fromClickHouse(err)
      if (e.retriable) this.unsettled.push(queryId)
      throw e
    }
  }

  /** Kills the inserts that failed without an answer and waits until none of them runs. */
  private async settle(): Promise<void> {
    if (this.unsettled.length === 0) return
    const ids = this.unsettled.map(quote).join(', ')
    try {
      await this.client.command({ query: `KILL QUERY WHERE query_id IN (${ids}) SYNC` })
    } catch (err) {
      throw fromClickHouse(err)
    }
    const [running] = await this.query<{ n: string }>(`SELECT count() AS n FROM system.processes WHERE query_id IN (${ids})`)
    if (Number(running?.n ?? 0) > 0) throw new AppError('SINK_UNAVAILABLE', 'clickhouse: an abandoned insert is still running', true)
    this.unsettled = []
  }

  private async query<T>(query: string): Promise<T[]> {
    try {
      const result = await this.client.query({ query, format: 'JSONEachRow' })
      return await result.json<T>()
    } catch (err) {
      throw fromClickHouse(err)
    }
  }

  /** The highest offset any owner of the partition was about to write, or undefined. */
  async intendedThrough(topic: string, partition: number): Promise<bigint | undefined> {
    const [row] = await this.query<{ m: string; n: string }>(
      `SELECT toString(max(last_offset)) AS m, count() AS n FROM ${this.database}.event_consumer_intents
        WHERE topic = ${quote(topic)} AND partition = ${Math.trunc(partition)}`,
    )
    return row && Number(row.n) > 0 ? BigInt(row.m) : undefined
  }

  /**
   * Positions ("offset:index") of the given rows that are already stored. The queries are narrowed
   * by what the rows themselves say (environments, event types, times), so they use each table's
   * sort key instead of scanning it.
   */
  async storedPositions(topic: string, partition: number, events: readonly EventRow[], rejections: readonly RejectionRow[]): Promise<Set<string>> {
    // NOTE: ClickHouse 18.16 has no query parameters; every value here is a number or a quoted literal.
    const all = [...events, ...rejections]
    if (all.length === 0) return new Set()
    await this.settle()
    const offsets = all.map((r) => BigInt(r.source_offset))
    const min = offsets.reduce((a, b) => (b < a ? b : a))
    const max = offsets.reduce((a, b) => (b > a ? b : a))
    const source = `source_topic = ${quote(topic)} AND source_partition = ${Math.trunc(partition)} AND source_offset BETWEEN ${min} AND ${max}`
    const list = (values: Iterable<string>) => [...new Set(values)].map(quote).join(', ')
    const range = (values: number[]) => `${values.reduce((a, b) => Math.min(a, b))} AND ${values.reduce((a, b) => Math.max(a, b))}`
    const selects: string[] = []
    if (events.length > 0) {
      selects.push(`SELECT toString(source_offset) AS o, source_index AS i FROM ${this.database}.events
        WHERE environment_id IN (${list(events.map((r) => r.environment_id))}) AND event_type IN (${list(events.map((r) => r.event_type))})
        AND timestamp BETWEEN ${range(events.map((r) => r.timestamp))} AND ${source}`)
    }
    // Any row may be in event_rejections: an event row that ClickHouse refused was stored there.
    selects.push(`SELECT toString(source_offset) AS o, source_index AS i FROM ${this.database}.event_rejections
      WHERE environment_id IN (${list(all.map((r) => r.environment_id))}) AND received_at BETWEEN ${range(all.map((r) => r.received_at))}
      AND ${source}`)
    const stored = await this.query<{ o: string; i: number }>(selects.join(' UNION ALL '))
    return new Set(stored.map((r) => `${r.o}:${r.i}`))
  }

  /** Which of these message identities have rows stored (events or rejections), as "requestId:part". */
  async storedParts(parts: readonly StoredPart[]): Promise<Set<string>> {
    if (parts.length === 0) return new Set()
    await this.settle()
    const list = (values: Iterable<string>) => [...new Set(values)].map(quote).join(', ')
    const seconds = parts.map((p) => p.receivedAt)
    const where = `environment_id IN (${list(parts.map((p) => p.environmentId))})
      AND received_at BETWEEN ${Math.min(...seconds)} AND ${Math.max(...seconds)}
      AND request_id IN (${list(parts.map((p) => p.requestId))})`
    const stored = await this.query<{ r: string; p: number }>(
      ['events', 'event_rejections'].map((table) => `SELECT DISTINCT request_id AS r, request_part AS p FROM ${this.database}.${table} WHERE ${where}`).join(' UNION ALL '),
    )
    return new Set(stored.map((row) => `${row.r}:${row.p}`))
  }
}

/** A Kafka message's identity, with what locates its rows: (environment, receivedAt) are in both tables' keys or partitions. */
export interface StoredPart {
  readonly requestId: string
  readonly part: number
  readonly environmentId: string
  /** Seconds, as the rows' received_at. */
  readonly receivedAt: number
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}
