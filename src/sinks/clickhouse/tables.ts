// The tables the consumers write, as the sink needs them: the columns of a row in the order sent,
// which of them are DateTime (sent as epoch seconds), and how stored rows of a batch are found
// through the table's sort key (the DDL is in migrations.ts).
import type { EventRow } from '../../pipeline/events.js'
import type {
  ImpressionCountRow,
  ImpressionRejectionRow,
  ImpressionRow,
  TelemetryRow,
  UniqueKeyRow,
} from '../../pipeline/impressions.js'
import type { ViolationRow } from '../../pipeline/plans.js'
import { ORIGIN_COLUMNS, type RejectionRow, type RowOrigin } from '../../pipeline/rows.js'

interface TableSpec<R extends RowOrigin> {
  readonly name: string
  /** Every column of a row, in the order sent (a unit test checks them against the rows built). */
  readonly columns: readonly (keyof R & string)[]
  /** DateTime columns: epoch seconds in the rows. */
  readonly dateTimes: readonly (keyof R & string)[]
  /**
   * Where rows of a batch can be, from the rows' own values: columns of the sort or partition key,
   * matched by the list of values or by their range, so a position check reads a few ranges.
   */
  readonly locate: readonly { readonly column: keyof R & string; readonly match: 'in' | 'range' }[]
  /** The column of the monthly partition key (epoch seconds, or a YYYY-MM-DD date). */
  readonly partitionBy: keyof R & string
  /** Rows may hold their columns after the origin already encoded, as `tsv` bytes (the events topic's lines). */
  readonly encoded?: boolean
  /** Rows report on records stored in another table (at the same positions): see Table.side. */
  readonly side?: boolean
}

/** A table whose rows are R (any table is a Table<RowOrigin>). */
export interface Table<R extends RowOrigin = RowOrigin> {
  readonly name: string
  readonly columns: readonly string[]
  readonly dateTimes: readonly string[]
  readonly locate: readonly { readonly column: string; readonly match: 'in' | 'range' }[]
  readonly partitionBy: string
  /**
   * Leading columns the rows of one Kafka message share (their origin up to source_index): encoded once per message.
   */
  readonly shared: number
  /** Columns from this index on may come already encoded, as a row's `tsv` bytes (tsvStream). */
  readonly encodedAfter: number
  /**
   * Rows that report on records stored in another table, at the same positions (a tracking plan's violations): their
   * positions are their own, not those of the records (a stored record does not mean its report was stored too).
   */
  readonly side: boolean
  /** Only a type: the rows the table takes. */
  readonly row?: R
}

/** The origin columns before source_index: the same for every row of one Kafka message. */
const SHARED_ORIGIN = ORIGIN_COLUMNS.indexOf('source_index')

/** A table, its columns checked against its row type; every table's columns start with the origin's. */
function table<R extends RowOrigin>(spec: TableSpec<R>): Table<R> {
  if (ORIGIN_COLUMNS.some((c, i) => spec.columns[i] !== c))
    throw new Error(`table ${spec.name}: its columns must start with the origin columns`)
  const { encoded, side, ...rest } = spec
  return {
    ...rest,
    shared: SHARED_ORIGIN,
    encodedAfter: encoded ? ORIGIN_COLUMNS.length : spec.columns.length,
    side: side === true,
  }
}

/** A table and rows for it. */
export interface TableRows<R extends RowOrigin = RowOrigin> {
  readonly table: Table<R>
  readonly rows: readonly R[]
}

/** Rejections (and telemetry) are found by environment and receive time (their sort key). */
const REJECTIONS_LOCATE = [
  { column: 'environment_id', match: 'in' },
  { column: 'received_at', match: 'range' },
] as const

export const EVENTS = table<EventRow>({
  name: 'events',
  partitionBy: 'timestamp',
  columns: [
    ...ORIGIN_COLUMNS,
    'traffic_type',
    'event_type',
    'key',
    'timestamp',
    'timestamp_ms',
    'timestamp_raw',
    'value',
    'properties',
  ],
  dateTimes: ['received_at', 'timestamp'],
  encoded: true,
  locate: [
    { column: 'environment_id', match: 'in' },
    { column: 'event_type', match: 'in' },
    { column: 'timestamp', match: 'range' },
  ],
})

export const EVENT_REJECTIONS = table<RejectionRow>({
  name: 'event_rejections',
  partitionBy: 'received_at',
  columns: [...ORIGIN_COLUMNS, 'reason', 'raw'],
  dateTimes: ['received_at'],
  locate: REJECTIONS_LOCATE,
})

/** A tracking plan's report on one event (pipeline/plans.ts): found by its own positions (a side table). */
export const EVENT_VIOLATIONS = table<ViolationRow>({
  name: 'event_violations',
  partitionBy: 'received_at',
  columns: [
    ...ORIGIN_COLUMNS,
    'event_type',
    'key',
    'plan_version',
    'mode',
    'outcome',
    'rules',
    'violations',
    'details',
    'sample',
  ],
  dateTimes: ['received_at'],
  locate: REJECTIONS_LOCATE,
  side: true,
})

/** Where a row's position is found among the stored ones (TableSink.storedPositions). */
export const positionKey = (table: Table, row: RowOrigin): string =>
  table.side ? `${table.name}|${row.source_offset}:${row.source_index}` : `${row.source_offset}:${row.source_index}`

const SDK_COLUMNS = ['impressions_mode', 'machine_ip', 'machine_name'] as const

export const IMPRESSIONS = table<ImpressionRow>({
  name: 'impressions',
  partitionBy: 'time',
  columns: [
    ...ORIGIN_COLUMNS,
    ...SDK_COLUMNS,
    'flag',
    'key',
    'bucketing_key',
    'treatment',
    'label',
    'change_number',
    'time',
    'time_ms',
    'previous_time_ms',
    'properties',
  ],
  dateTimes: ['received_at', 'time'],
  locate: [
    { column: 'environment_id', match: 'in' },
    { column: 'flag', match: 'in' },
    { column: 'time', match: 'range' },
  ],
})

export const IMPRESSION_COUNTS = table<ImpressionCountRow>({
  name: 'impression_counts',
  partitionBy: 'hour',
  columns: [...ORIGIN_COLUMNS, ...SDK_COLUMNS, 'flag', 'hour', 'hour_ms', 'count'],
  dateTimes: ['received_at', 'hour'],
  locate: [
    { column: 'environment_id', match: 'in' },
    { column: 'flag', match: 'in' },
    { column: 'hour', match: 'range' },
  ],
})

export const UNIQUE_KEYS = table<UniqueKeyRow>({
  name: 'unique_keys',
  partitionBy: 'day',
  columns: [...ORIGIN_COLUMNS, ...SDK_COLUMNS, 'flag', 'key', 'day'],
  dateTimes: ['received_at'],
  locate: [
    { column: 'environment_id', match: 'in' },
    { column: 'flag', match: 'in' },
    { column: 'day', match: 'range' },
  ],
})

export const SDK_TELEMETRY = table<TelemetryRow>({
  name: 'sdk_telemetry',
  partitionBy: 'received_at',
  columns: [...ORIGIN_COLUMNS, ...SDK_COLUMNS, 'kind', 'operation_mode', 'storage', 'payload'],
  dateTimes: ['received_at'],
  locate: REJECTIONS_LOCATE,
})

export const IMPRESSION_REJECTIONS = table<ImpressionRejectionRow>({
  name: 'impression_rejections',
  partitionBy: 'received_at',
  columns: [...ORIGIN_COLUMNS, 'kind', 'reason', 'raw'],
  dateTimes: ['received_at'],
  locate: REJECTIONS_LOCATE,
})
