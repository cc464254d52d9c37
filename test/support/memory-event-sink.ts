// An in-memory stand-in for the ClickHouse events sink, for unit tests of the events consumer: it
// refuses rows whose key starts with "refused" (as ClickHouse refuses data), rejections whose raw
// copy holds "refused-twice", and fails the next `outages` inserts as an outage.
import type { EventRow, RejectionRow } from '../../src/pipeline/events.js'
import { AppError } from '../../src/shared/errors.js'
import type { StoredPart } from '../../src/sinks/clickhouse/events.sink.js'

export class MemorySink {
  events: EventRow[] = []
  rejections: RejectionRow[] = []
  inserts = 0
  outages = 0
  async insertEvents(rows: readonly EventRow[]) {
    this.inserts++
    if (this.outages > 0) {
      this.outages--
      throw new AppError('SINK_UNAVAILABLE', 'clickhouse: connect ECONNREFUSED', true)
    }
    if (rows.some((r) => r.key.startsWith('refused'))) throw new AppError('SINK_REFUSED_DATA', 'Code: 117, Incorrect data', false)
    this.events.push(...rows)
  }
  async insertRejections(rows: readonly RejectionRow[]) {
    if (rows.some((r) => r.raw.includes('refused-twice'))) throw new AppError('SINK_REFUSED_DATA', 'Code: 131, Too large string', false)
    this.rejections.push(...rows)
  }
  async recordIntent() {}
  async intendedThrough() {
    return undefined
  }
  async storedPositions() {
    return new Set<string>()
  }
  async storedParts(parts: readonly StoredPart[]) {
    const wanted = new Set(parts.map((p) => `${p.requestId}:${p.part}`))
    return new Set([...this.events, ...this.rejections].map((r) => `${r.request_id}:${r.request_part}`).filter((id) => wanted.has(id)))
  }
}
