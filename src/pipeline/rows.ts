// What every row stored in ClickHouse has, whatever the record it came from (an event, an impression,
// a count, a unique key, SDK telemetry): whose it is, when it came, and where in Kafka it came from.
// The source position is what makes replays exact; the request id and part make a message's identity.
import { safeJson } from '../shared/json-checks.js'

/** Largest epoch-ms value that a ClickHouse DateTime column (UInt32 seconds) can hold. */
export const MAX_TIMESTAMP_MS = 4294967295 * 1000

/** The raw copy of a rejected record is cut at this many characters. */
export const MAX_RAW_CHARS = 256 * 1024

/** Metadata the edge attaches to every Kafka message (as headers) of one HTTP request. */
export interface EnvelopeMeta {
  readonly environmentId: string
  readonly accountId: string
  readonly receivedAtMs: number
  readonly sdkVersion: string
  readonly requestId: string
  /** The index of the Kafka message among the messages of its request (0 when it has one). */
  readonly part?: number
}

/**
 * A Kafka message's identity (its request id and part), with what locates its rows: every table has environment_id and
 * received_at.
 */
export interface MessageIdentity {
  readonly requestId: string
  readonly part: number
  readonly environmentId: string
  /** Seconds, as the rows' received_at. */
  readonly receivedAt: number
}

export interface SourcePosition {
  readonly topic: string
  readonly partition: number
  readonly offset: bigint
  readonly index: number
}

export interface RowOrigin {
  environment_id: string
  account_id: string
  received_at: number
  received_at_ms: number
  sdk_version: string
  request_id: string
  request_part: number
  source_topic: string
  source_partition: number
  source_offset: string
  source_index: number
}

export interface RejectionRow extends RowOrigin {
  reason: string
  raw: string
}

/** Columns of RowOrigin, in the order they are sent. */
export const ORIGIN_COLUMNS = [
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
] as const satisfies readonly (keyof RowOrigin)[]

/** A rejection row for any raw value: kept as JSON text, cut at MAX_RAW_CHARS, always storable. */
export function rejectionRow(reason: string, raw: unknown, meta: EnvelopeMeta, source: SourcePosition): RejectionRow {
  return Object.assign(rowOrigin(meta, source), { reason: reason.toWellFormed(), raw: safeJson(raw, MAX_RAW_CHARS) })
}

/** The text of a row's source offset: the rows of one message share it, so it is made once. */
let lastOffset = -1n
let lastOffsetText = '-1'
function offsetText(offset: bigint): string {
  if (offset !== lastOffset) {
    lastOffset = offset
    lastOffsetText = offset.toString()
  }
  return lastOffsetText
}

/**
 * A new row's origin columns. NOTE: on hot paths (events, impressions) set the record's own columns
 * on this object one by one: Object.assign's source object and copy made a row about six times
 * slower to build, a spread about nine times. Rarer rows use Object.assign.
 */
export function rowOrigin(meta: EnvelopeMeta, source: SourcePosition): RowOrigin {
  return {
    environment_id: meta.environmentId,
    account_id: meta.accountId,
    received_at: Math.floor(meta.receivedAtMs / 1000),
    received_at_ms: meta.receivedAtMs,
    sdk_version: meta.sdkVersion,
    request_id: meta.requestId,
    request_part: meta.part ?? 0,
    source_topic: source.topic,
    source_partition: source.partition,
    source_offset: offsetText(source.offset),
    source_index: source.index,
  }
}

/** The origin of a stored row, as metadata and position again (for the rejection of a row ClickHouse refused). */
export function originOf(row: RowOrigin): { meta: EnvelopeMeta; source: SourcePosition } {
  return {
    meta: {
      environmentId: row.environment_id,
      accountId: row.account_id,
      receivedAtMs: row.received_at_ms,
      sdkVersion: row.sdk_version,
      requestId: row.request_id,
      part: row.request_part,
    },
    source: {
      topic: row.source_topic,
      partition: row.source_partition,
      offset: BigInt(row.source_offset),
      index: row.source_index,
    },
  }
}

const LONE_SURROGATE_TEXT = 'contains a lone UTF-16 surrogate (malformed Unicode)'
/** The reason of a field whose text is not well-formed Unicode. */
export const loneSurrogate = (field: string): string => `${field} ${LONE_SURROGATE_TEXT}`
