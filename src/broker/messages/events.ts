// The wire format of the events topic, shared by the edge (writer) and the events consumer (reader):
// each Kafka message holds a JSON array of event records of one request (records.ts).
import type { EnvelopeMeta } from '../../pipeline/rows.js'
import type { OutboundMessage } from '../ports.js'
import { encodeRecordMessages, ORIGIN_HEADERS, originHeaders, type MessageSizing } from './records.js'

export const EVENT_HEADERS = ORIGIN_HEADERS

/** The messages of a request's events. */
export function encodeEventMessages(
  records: readonly object[],
  meta: EnvelopeMeta,
  sizing: MessageSizing,
): OutboundMessage[] {
  return encodeRecordMessages(records, originHeaders(meta), meta.requestId, sizing)
}
