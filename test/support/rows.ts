// Rows as the pipeline makes them from records, for tests that store them with the table sink: a
// record the pipeline rejects fails the test at once (these tests mean their records to be valid).
import { expect } from 'vitest'
import { processEvent, type EventRow } from '../../src/pipeline/events.js'
import { processImpressionRecords, type ImpressionRow, type SdkMeta } from '../../src/pipeline/impressions.js'
import type { EnvelopeMeta, SourcePosition } from '../../src/pipeline/rows.js'

export function eventRow(record: object, meta: EnvelopeMeta, source: SourcePosition): EventRow {
  const outcome = processEvent(record, meta, source)
  if (!outcome.ok) throw new Error(outcome.rejection.reason)
  return outcome.row
}

/** The impression rows of impression groups ({f, i: [...]}), at positions of one message. */
export function impressionRows(
  groups: readonly object[],
  meta: SdkMeta,
  position: (index: number) => SourcePosition,
): ImpressionRow[] {
  const rows: ImpressionRow[] = []
  processImpressionRecords(groups, meta, position, {
    impression: (row) => rows.push(row),
    count: () => undefined,
    uniqueKey: () => undefined,
    telemetry: () => undefined,
    reject: (r) => expect.fail(r.reason),
  })
  return rows
}
