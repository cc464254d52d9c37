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

  /**
   * What is already stored for one partition from `fromOffset` on: the positions ("offset:index")
   * within [fromOffset, toOffset], and the highest offset stored at or after fromOffset (a previous
   * owner of the partition may have written further than the batch at hand).
   */
  async storedFrom(topic: string, partition: number, fromOffset: bigint, toOffset: bigint): Promise<{ positions: Set<string>; maxOffset?: bigint }> {
    // NOTE: ClickHouse 18.16 has no query parameters; every value here is a number or a quoted literal.
    const where = `source_topic = ${quote(topic)} AND source_partition = ${Math.trunc(partition)} AND source_offset >= ${fromOffset.toString()}`
    const from = (table: string, extra = '') => `SELECT source_offset, source_index FROM ${this.database}.${table} WHERE ${where}${extra}`
    const inRange = ` AND source_offset <= ${toOffset.toString()}`
    const [positions, max] = await Promise.all([
      this.client.query({
        query: `SELECT toString(source_offset) AS o, source_index AS i FROM (${from('events', inRange)} UNION ALL ${from('event_rejections', inRange)})`,
        format: 'JSONEachRow',
      }),
      this.client.query({
        query: `SELECT toString(max(source_offset)) AS m, count() AS n FROM (${from('events')} UNION ALL ${from('event_rejections')})`,
        format: 'JSONEachRow',
      }),
    ])
    const rows = await positions.json<{ o: string; i: number }>()
    const [agg] = await max.json<{ m: string; n: string }>()
    return {
      positions: new Set(rows.map((r) => `${r.o}:${r.i}`)),
      ...(agg && Number(agg.n) > 0 ? { maxOffset: BigInt(agg.m) } : {}),
    }
  }
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}
