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

  /** Positions ("offset:index") of one partition's offset range already stored in either table. */
  async storedPositions(topic: string, partition: number, fromOffset: bigint, toOffset: bigint): Promise<Set<string>> {
    // NOTE: ClickHouse 18.16 has no query parameters; every value here is a number or a quoted literal.
    const where = `source_topic = ${quote(topic)} AND source_partition = ${Math.trunc(partition)}
      AND source_offset >= ${fromOffset.toString()} AND source_offset <= ${toOffset.toString()}`
    const result = await this.client.query({
      query: `SELECT toString(source_offset) AS o, source_index AS i FROM ${this.database}.events WHERE ${where}
        UNION ALL SELECT toString(source_offset) AS o, source_index AS i FROM ${this.database}.event_rejections WHERE ${where}`,
      format: 'JSONEachRow',
    })
    const rows = await result.json<{ o: string; i: number }>()
    return new Set(rows.map((r) => `${r.o}:${r.i}`))
  }
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}
