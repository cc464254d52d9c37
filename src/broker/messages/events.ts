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

/** How the edge writes events: lines (format 2), or the JSON of the releases before (format 1: rolling upgrades). */
export type EventMessageFormat = 'lines' | 'json'

/**
 * The messages of a request's events. As lines: one message when they fit (the usual body), else cut
 * between lines into messages of at most maxBytes. As JSON: the body's records as sent (records.ts).
 * A record alone above maxBytes refuses the request (RecordTooLargeError, naming it).
 */
export function encodeEventMessages(
  records: readonly object[],
  meta: EnvelopeMeta,
  sizing: MessageSizing,
  format: EventMessageFormat = 'lines',
): OutboundMessage[] {
  if (format === 'json') return encodeRecordMessages(records, originHeaders(meta), meta.requestId, sizing)
  let text = ''
  for (const record of records) text += eventLine(record) + '\n'
  const value = Buffer.from(text, 'utf8')
  const headers = { ...originHeaders(meta), [FORMAT_HEADER]: EVENT_LINES_FORMAT }
  // Ordered by request id: every copy of a message (a replay from the edge spool) lands in the
  // partition of the first, after it, so the consumer that owns it sees both in order.
  const message = (part: Buffer, index: number): OutboundMessage => ({
    key: meta.requestId,
    value: part,
    headers: { ...headers, [PART_HEADER]: String(index) },
    ordered: true,
  })
  if (value.length <= sizing.maxBytes) return [message(value, 0)]
  return splitLines(value, sizing.maxBytes).map(message)
}

/** Lines (each ending in a line feed, which UTF-8 never uses inside a character) cut into parts of at most maxBytes. */
function splitLines(text: Buffer, maxBytes: number): Buffer[] {
  const parts: Buffer[] = []
  let start = 0
  let line = 0
  while (start < text.length) {
    let end = start
    // Whole lines while they fit.
    for (;;) {
      const next = text.indexOf(NEWLINE, end) + 1
      if (next - start > maxBytes) break
      end = next
      line++
      if (end >= text.length) break
    }
    if (end === start) throw new RecordTooLargeError(line, text.indexOf(NEWLINE, start) - start, maxBytes, 'as stored')
    parts.push(text.subarray(start, end))
    start = end
  }
  return parts
}

/**
 * A message's lines, whichever the format; undefined when it is neither (not written by an edge):
 * rejected whole, as text.
 */
export function eventLinesOf(message: { readonly value: Buffer; readonly headers: Readonly<Record<string, string>> }): {
  text: string
  lines: string[] | undefined
} {
  if (message.headers[FORMAT_HEADER] === EVENT_LINES_FORMAT) {
    const text = message.value.toString('utf8')
    const lines = text.split('\n')
    if (lines.at(-1) === '') lines.pop()
    return { text, lines: message.headers[ORIGIN_HEADERS.environment] ? lines : undefined }
  }
  if (message.headers[FORMAT_HEADER] !== undefined) return { text: message.value.toString('utf8'), lines: undefined }
  const { text, records } = recordsOf(message)
  return { text, lines: records?.map(eventLine) }
}

/**
 * The record an E line was made from, as far as its columns tell (the raw copy of a row ClickHouse
 * refused): the fields as sent, the timestamp as its text was, no value or properties when it had none.
 */
export function recordOfLine(line: string): object {
  const e = eventOfLine(line)
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

/** The event an E line holds, as columns again (for the live tail and a row ClickHouse refused). */
export function eventOfLine(line: string): Omit<EventRow, keyof RowOrigin> {
  const [, trafficType, eventType, key, timestamp, timestampMs, raw, value, properties] = line.split('\t')
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
