// The wire format of the events topic, shared by the edge (writer) and the events consumer (reader).
//
// Format 2 (header sluice-format: events-lines-2): each Kafka message holds a request's records as
// text lines, one per record, in order, made by pipeline/events.ts's eventLine: "E", then the event's
// own columns as the ClickHouse sink inserts them (TabSeparated, after the origin columns), or "R",
// then the rejection's reason and the record's raw copy. The edge parses and checks each record once;
// the consumer adds each row's origin (headers and Kafka position) and sends the text as is.
//
// Format 1 (no sluice-format header, every release before it): a JSON array of the records as sent
// (records.ts). Messages of it still in Kafka after an upgrade are read through the same eventLine;
// an edge writes it during a rolling upgrade (SLUICE_EVENTS_MESSAGE_FORMAT=json), for consumers of
// the release before.
import { setImmediate } from 'node:timers/promises'
import { eventLine, type EventRow } from '../../pipeline/events.js'
import type { EnvelopeMeta, RowOrigin } from '../../pipeline/rows.js'
import { tsvText } from '../../shared/tsv.js'
import { FORMAT_HEADER, PART_HEADER, type OutboundMessage } from '../ports.js'
import {
  encodeRecordMessages,
  ORIGIN_HEADERS,
  originHeaders,
  RecordTooLargeError,
  recordsOf,
  type MessageSizing,
} from './records.js'

export const EVENT_HEADERS = ORIGIN_HEADERS
export const EVENT_LINES_FORMAT = 'events-lines-2'

const NEWLINE = 0x0a
/** Records checked between two turns of the event loop (about 5 ms of work at worst). */
const RECORDS_PER_SLICE = 10_000

/** How the edge writes events: lines (format 2), or the JSON of the releases before (format 1: rolling upgrades). */
export type EventMessageFormat = 'lines' | 'json'

/**
 * The messages of a request's events. As lines: one message when they fit (the usual body), else cut
 * between lines into messages of at most maxBytes. As JSON: the body's records as sent (records.ts).
 * A record alone above maxBytes refuses the request (RecordTooLargeError, naming it).
 */
export async function encodeEventMessages(
  records: readonly object[],
  meta: EnvelopeMeta,
  sizing: MessageSizing,
  format: EventMessageFormat = 'lines',
): Promise<OutboundMessage[]> {
  if (format === 'json') return encodeRecordMessages(records, originHeaders(meta), meta.requestId, sizing)
  const { maxBytes } = sizing
  const headers = { ...originHeaders(meta), [FORMAT_HEADER]: EVENT_LINES_FORMAT }
  const messages: OutboundMessage[] = []
  // Ordered by request id: every copy of a message (a replay from the edge spool) lands in the partition of the first,
  // after it, so the consumer that owns it sees both in order. Its bytes are copied out of the buffer when most of the
  // buffer is unused (a small body sent without a Content-Length got one of maxBytes): it must not hold memory unseen.
  const push = (used: Buffer) =>
    messages.push({
      key: meta.requestId,
      value: used.length < used.buffer.byteLength / 2 ? Buffer.from(used) : used,
      headers: { ...headers, [PART_HEADER]: String(messages.length) },
      ordered: true,
    })
  // Each line is written into the message being filled (sized from the body, grown up to maxBytes as needed).
  let buffer = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(1024, sizing.bodyBytes + 1024)))
  let used = 0
  for (let index = 0; index < records.length; index++) {
    // A body of many records (up to SLUICE_EVENTS_MAX_RECORDS) is checked in slices, letting other requests run between
    // them: one key's large body must not hold the edge's event loop for its whole check (hundreds of milliseconds).
    if (index % RECORDS_PER_SLICE === RECORDS_PER_SLICE - 1) await setImmediate()
    const line = eventLine(records[index])
    // A UTF-16 unit is at most 3 bytes of UTF-8: the line's exact length is counted only when that much may not fit.
    if (used + line.length * 3 + 1 > buffer.length) {
      const bytes = Buffer.byteLength(line) + 1
      if (bytes > maxBytes) throw new RecordTooLargeError(index, bytes - 1, maxBytes, 'as stored')
      if (used + bytes > maxBytes) {
        push(buffer.subarray(0, used))
        buffer = Buffer.allocUnsafe(maxBytes)
        used = 0
      } else if (used + bytes > buffer.length) {
        const larger = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(2 * buffer.length, used + bytes)))
        buffer.copy(larger, 0, 0, used)
        buffer = larger
      }
    }
    used += buffer.write(line, used)
    buffer[used++] = NEWLINE
  }
  push(buffer.subarray(0, used))
  return messages
}

/**
 * A message's lines as bytes, whichever the format (format 1's records made into lines here); undefined
 * when it is neither (not written by an edge): rejected whole, as text.
 */
export function eventLinesOf(message: {
  readonly value: Buffer
  readonly headers: Readonly<Record<string, string>>
}): Buffer | undefined {
  const format = message.headers[FORMAT_HEADER]
  if (!message.headers[ORIGIN_HEADERS.environment]) return undefined
  if (format === EVENT_LINES_FORMAT) return message.value.length > 0 ? message.value : undefined
  if (format !== undefined) return undefined
  const { records } = recordsOf(message)
  if (!records) return undefined
  let text = ''
  for (const record of records) text += eventLine(record) + '\n'
  return Buffer.from(text, 'utf8')
}

/**
 * The record an event row was made from, as far as its columns tell (the raw copy of a row ClickHouse
 * refused): the fields as sent, the timestamp as its text was, no value or properties when it had none.
 */
export function recordOfColumns(columns: string | Buffer): object {
  const e = eventOfColumns(columns)
  const timestamp = String(Number(e.timestamp_raw)) === e.timestamp_raw ? Number(e.timestamp_raw) : e.timestamp_raw
  return {
    eventTypeId: e.event_type,
    trafficTypeName: e.traffic_type,
    key: e.key,
    timestamp,
    ...(e.value !== null && { value: e.value }),
    ...(e.properties !== '{}' && { properties: parsedOr(e.properties) }),
  }
}

function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** An event's own columns again, from their encoded text (an E line after its "E\t"): for the live tail and tests. */
export function eventOfColumns(columns: string | Buffer): Omit<EventRow, keyof RowOrigin> {
  const [trafficType, eventType, key, timestamp, timestampMs, raw, value, properties] = columns.toString().split('\t')
  return {
    traffic_type: trafficType ?? '',
    event_type: eventType ?? '',
    key: tsvText(key ?? '') ?? '',
    timestamp: Number(timestamp),
    timestamp_ms: Number(timestampMs),
    timestamp_raw: tsvText(raw ?? '') ?? '',
    value: value === undefined || value === '\\N' ? null : Number(value),
    properties: tsvText(properties ?? '') ?? '',
  }
}
