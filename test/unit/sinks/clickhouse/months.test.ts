// ClickHouse refuses an insert over more than 100 partitions (current releases): the sink splits rows
// of more months into inserts of at most 50 UTC months, keeping every row, and leaves the usual batch whole.
import { expect, it } from 'vitest'
import type { RowOrigin } from '../../../../src/pipeline/rows.js'
import { byMonths, MONTHS_PER_INSERT } from '../../../../src/sinks/clickhouse/table.sink.js'
import { EVENTS, UNIQUE_KEYS } from '../../../../src/sinks/clickhouse/tables.js'

const month = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 7)

it('splits rows of 1,000 months into inserts of at most 50 months and keeps every row once', () => {
  const rows = Array.from(
    { length: 3000 },
    (_, i) => ({ timestamp: Date.UTC(1971, i % 1000, 3) / 1000, n: i }) as unknown as RowOrigin,
  )
  const parts = byMonths(EVENTS, rows)
  expect(parts.length).toBe(20)
  for (const part of parts)
    expect(new Set(part.map((r) => month((r as unknown as { timestamp: number }).timestamp))).size).toBeLessThanOrEqual(
      MONTHS_PER_INSERT,
    )
  expect(
    parts
      .flat()
      .map((r) => (r as unknown as { n: number }).n)
      .sort((a, b) => a - b),
  ).toEqual(rows.map((_, i) => i))
})

it('leaves a batch of a few months whole, and reads the month of a Date column', () => {
  const rows = Array.from(
    { length: 100 },
    (_, i) => ({ timestamp: 1_764_000_000 + i * 86_400 }) as unknown as RowOrigin,
  )
  expect(byMonths(EVENTS, rows)).toEqual([rows])
  expect(byMonths(EVENTS, [])).toEqual([])
  const days = Array.from(
    { length: 120 },
    (_, i) =>
      ({ day: `${2000 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01` }) as unknown as RowOrigin,
  )
  expect(byMonths(UNIQUE_KEYS, days).map((p) => p.length)).toEqual([50, 50, 20])
})
