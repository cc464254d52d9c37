// Validation and normalization of tracking events. Pure: records in, rows or rejections out.
import { lazy } from '../shared/lazy.js'
import { readFileSync } from 'node:fs'
import { Ajv, type ErrorObject } from 'ajv'
import { safeJson } from '../shared/json-checks.js'
import { tsvDateTime, tsvField } from '../shared/tsv.js'
import {
  loneSurrogate,
  MAX_RAW_CHARS,
  MAX_TIMESTAMP_MS,
  rejectionRow,
  rowOrigin,
  type EnvelopeMeta,
  type RejectionRow,
  type RowOrigin,
  type SourcePosition,
} from './rows.js'

const eventSchema = JSON.parse(readFileSync(new URL('../../schemas/event.json', import.meta.url), 'utf8')) as {
  properties: { eventTypeId: { pattern: string } }
}
const validateEvent = lazy(() => new Ajv({ allErrors: false, strict: true, strictTypes: false }).compile(eventSchema))

/** An event type id as the events schema accepts it (metric definitions name event types with it). */
export const EVENT_TYPE_ID = new RegExp(eventSchema.properties.eventTypeId.pattern)

/** Below this a timestamp is read as seconds, at or above as milliseconds (see docs/sdk-and-import.md). */
export const SECONDS_THRESHOLD = 100_000_000_000

export interface EventRow extends RowOrigin {
  traffic_type: string
  event_type: string
  key: string
  timestamp: number
  timestamp_ms: number
  timestamp_raw: string
  value: number | null
  properties: string
}

/**
 * An event row as the consumer makes it from a line of the events topic: the origin, the two columns
 * the sink reads (where the rows are, which month), and the event's columns already encoded (tsv).
 */
export interface EncodedEventRow extends RowOrigin {
  event_type: string
  timestamp: number
  tsv: Buffer
}

export type EventOutcome =
  { readonly ok: true; readonly row: EventRow } | { readonly ok: false; readonly rejection: RejectionRow }

export type TimestampResult =
  { readonly ok: true; readonly ms: number; readonly raw: string } | { readonly ok: false; readonly reason: string }

/** Seconds are told from milliseconds by size: a value below 1e11 is seconds (1e11 ms is 1973-03-03). */
export function normalizeTimestamp(value: number | string): TimestampResult {
  const raw = String(value)
  const n = typeof value === 'number' ? value : Number(value)
  if (!Number.isFinite(n) || n < 0) return { ok: false, reason: 'timestamp must be a finite, non-negative epoch time' }
  const ms = Math.floor(n < SECONDS_THRESHOLD ? n * 1000 : n)
  if (ms > MAX_TIMESTAMP_MS)
    return { ok: false, reason: 'timestamp is after 2106-02-07T06:28:15Z, the latest time stored' }
  return { ok: true, ms, raw }
}

/** A record that passed every check, with its normalized timestamp. */
interface CheckedEvent {
  readonly ok: true
  readonly event: {
    eventTypeId: string
    trafficTypeName: string
    key: string
    value?: number | null
    properties?: Record<string, string | number | boolean | null> | null
  }
  readonly ms: number
  readonly raw: string
}

/**
 * Checks one record against schemas/event.json and what a schema cannot say (the timestamp's range,
 * well-formed Unicode): the record as a valid event, or the reason naming the field. Never throws.
 */
function checkEvent(record: unknown): CheckedEvent | { readonly ok: false; readonly reason: string } {
  try {
    // NOTE: ajv's "number" excludes Infinity and NaN (JSON.parse turns 1e400 into Infinity).
    const validate = validateEvent()
    if (!validate(record)) return { ok: false, reason: describeError(validate.errors?.[0]) }
    const event = record as CheckedEvent['event'] & { timestamp: number | string }
    const ts = normalizeTimestamp(event.timestamp)
    if (!ts.ok) return ts
    // The schema cannot say "well-formed Unicode": a lone surrogate would make ClickHouse refuse the
    // whole insert (a high one) or store invalid UTF-8 (a low one). Names and ids are ASCII by pattern.
    if (!event.key.isWellFormed()) return { ok: false, reason: loneSurrogate('key') }
    const properties = event.properties
    for (const name in properties) {
      const value = properties[name]
      if (!name.isWellFormed())
        return {
          ok: false,
          reason: loneSurrogate(`properties name ${JSON.stringify(name.toWellFormed().slice(0, 64))}`),
        }
      if (typeof value === 'string' && !value.isWellFormed())
        return { ok: false, reason: loneSurrogate(`properties.${name}`) }
    }
    return { ok: true, event, ms: ts.ms, raw: ts.raw }
  } catch (err) {
    return { ok: false, reason: `record could not be processed: ${err instanceof Error ? err.message : String(err)}` }
  }
}

/**
 * Validates one record against schemas/event.json and turns it into a row, or a rejection naming
 * the field. Never throws: whatever the record holds, the outcome is a row or a rejection. The
 * record-by-record path of the releases before the events topic's lines: the consumer no longer
 * uses it; the tests hold eventLine to it, and the bench makes its raw-insert rows with it.
 */
export function processEvent(record: unknown, meta: EnvelopeMeta, source: SourcePosition): EventOutcome {
  const checked = checkEvent(record)
  if (!checked.ok) return { ok: false, rejection: rejectionRow(checked.reason, record, meta, source) }
  const { event, ms, raw } = checked
  // The event's columns set on rowOrigin's object (see rowOrigin for why).
  const row = rowOrigin(meta, source) as EventRow
  row.traffic_type = event.trafficTypeName
  row.event_type = event.eventTypeId
  row.key = event.key
  row.timestamp = Math.floor(ms / 1000)
  row.timestamp_ms = ms
  row.timestamp_raw = raw
  row.value = event.value ?? null
  row.properties = JSON.stringify(event.properties ?? {})
  return { ok: true, row }
}

/**
 * One record as a line of the events topic (broker/messages/events.ts): an event's own columns as
 * the sink inserts them (TabSeparated, after the origin columns), or the rejection naming the field
 * with the record's raw copy. The edge makes it once per record; the consumer adds the origin.
 */
export function eventLine(record: unknown): string {
  const checked = checkEvent(record)
  if (!checked.ok) return `${REJECTED_LINE}\t${tsvField(checked.reason)}\t${tsvField(safeJson(record, MAX_RAW_CHARS))}`
  const { event, ms, raw } = checked
  const value = event.value
  // JSON.stringify escapes every control character, so of TabSeparated's specials only a backslash can be in its text.
  const properties = event.properties ? JSON.stringify(event.properties) : '{}'
  // Type and traffic type are ASCII without specials (by pattern), and so is the timestamp's text (digits and a point).
  return (
    EVENT_LINE +
    '\t' +
    event.trafficTypeName +
    '\t' +
    event.eventTypeId +
    '\t' +
    tsvField(event.key) +
    '\t' +
    tsvDateTime(Math.floor(ms / 1000)) +
    '\t' +
    ms +
    '\t' +
    raw +
    '\t' +
    (value === undefined || value === null ? '\\N' : value) +
    '\t' +
    (properties.includes('\\') ? properties.replaceAll('\\', '\\\\') : properties)
  )
}

/** The first field of a line: an event's columns follow, or a rejection's reason and raw copy. */
export const EVENT_LINE = 'E'
export const REJECTED_LINE = 'R'

const FIELD_RULES: Record<string, string> = {
  eventTypeId: 'eventTypeId must be a string of 1 to 80 letters, digits or - _ . : starting with a letter or digit',
  trafficTypeName:
    'trafficTypeName must be a string of 1 to 80 letters, digits or - _ . starting with a letter or digit',
  key: 'key must be a string of 1 to 250 characters',
  timestamp: 'timestamp must be a non-negative number or a string of decimal digits (epoch seconds or milliseconds)',
  value: 'value must be a number or null',
}

function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'record is invalid'
  if (error.keyword === 'required') return `${String(error.params['missingProperty'])} is required`
  if (error.instancePath === '') return 'record must be a JSON object'
  const [, field, property] = error.instancePath.split('/')
  if (field === 'properties') {
    if (property === undefined) {
      if (error.keyword === 'maxProperties') return 'properties must have at most 300 entries'
      if (error.keyword === 'propertyNames') return 'properties names must be at most 255 characters'
      return 'properties must be an object or null'
    }
    return `properties.${property} must be a string (at most 32768 characters), number, boolean or null`
  }
  return FIELD_RULES[field ?? ''] ?? `${field ?? 'record'} ${error.message ?? 'is invalid'}`
}
