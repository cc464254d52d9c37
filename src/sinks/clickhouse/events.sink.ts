// Writes event rows and rejections to ClickHouse. Each row carries its source (topic, partition,
// offset, index), which is what makes replays exact: before writing rows that may already be there
// (after a restart, a rebalance or a failed insert), the consumer asks which positions exist.
import type { ClickHouseClient } from '@clickhouse/client'
import type { EventRow, RejectionRow } from '../../pipeline/events.js'

export class ClickHouseEventSink {
  constructor(
    private readonly client: ClickHouseClient,
    private readonly database: string,
  ) {}

  async insertEvents(rows: readonly EventRow[]): Promise<void> {
    if (rows.length > 0) await this.client.insert({ table: `${this.database}.events`, values: [...rows], format: 'JSONEachRow' })
  }

  async insertRejections(rows: readonly RejectionRow[]): Promise<void> {
    if (rows.length > 0) await this.client.insert({ table: `${this.database}.event_rejections`, values: [...rows], format: 'JSONEachRow' })
  }

  /** Records, before an insert, the last offset it may write (see event_consumer_intents). */
  async recordIntent(topic: string, partition: number, lastOffset: bigint): Promise<void> {
    await this.client.insert({
      table: `${this.database}.event_consumer_intents`,
      format: 'JSONEachRow',
      values: [{ topic, partition, last_offset: lastOffset.toString(), at: Math.floor(Date.now() / 1000) }],
    })
  }

  /** The highest offset any owner of the partition was about to write, or undefined. */
  async intendedThrough(topic: string, partition: number): Promise<bigint | undefined> {
    const result = await this.client.query({
      query: `SELECT toString(max(last_offset)) AS m, count() AS n FROM ${this.database}.event_consumer_intents
        WHERE topic = ${quote(topic)} AND partition = ${Math.trunc(partition)}`,
      format: 'JSONEachRow',
    })
    const [row] = await result.json<{ m: string; n: string }>()
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
    if (rejections.length > 0) {
      selects.push(`SELECT toString(source_offset) AS o, source_index AS i FROM ${this.database}.event_rejections
        WHERE environment_id IN (${list(rejections.map((r) => r.environment_id))}) AND received_at BETWEEN ${range(rejections.map((r) => r.received_at))}
        AND ${source}`)
    }
    const result = await this.client.query({ query: selects.join(' UNION ALL '), format: 'JSONEachRow' })
    return new Set((await result.json<{ o: string; i: number }>()).map((r) => `${r.o}:${r.i}`))
  }
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}
