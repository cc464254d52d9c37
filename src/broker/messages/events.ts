// The wire format of the events topic, shared by the edge (writer) and the events consumer (reader):
// each Kafka message holds a JSON array of records of one request; the request's metadata travels
// in headers. A large body becomes several messages, each at most maxBytes.
import { PART_HEADER, type OutboundMessage } from '../ports.js'
import type { EnvelopeMeta } from '../../pipeline/events.js'

export const EVENT_HEADERS = {
  environment: 'sluice-environment',
  account: 'sluice-account',
  receivedAt: 'sluice-received-at',
  sdkVersion: 'sluice-sdk-version',
  requestId: 'sluice-request-id',
  part: PART_HEADER,
} as const

export class RecordTooLargeError extends Error {
  override readonly name = 'RecordTooLargeError'
  constructor(
    readonly index: number,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`record ${index} is ${bytes} bytes as JSON, above the per-record limit of ${limit} bytes`)
  }
}

/**
 * Splits records into messages of at most maxBytes; `text`, the records' JSON as sent, is the one
 * message when it fits. Slices are sized from the body's length and
 * halved until they fit, so typical bodies are serialized once.
 */
export function encodeEventMessages(records: readonly object[], bodyBytes: number, meta: EnvelopeMeta, maxBytes: number, text?: string): OutboundMessage[] {
  const headers = {
    [EVENT_HEADERS.environment]: meta.environmentId,
    [EVENT_HEADERS.account]: meta.accountId,
    [EVENT_HEADERS.receivedAt]: String(meta.receivedAtMs),
    [EVENT_HEADERS.sdkVersion]: meta.sdkVersion,
    [EVENT_HEADERS.requestId]: meta.requestId,
  }
  const messages: OutboundMessage[] = []
  const pieces = Math.max(1, Math.ceil(bodyBytes / (maxBytes * 0.75)))
  const step = Math.max(1, Math.ceil(records.length / pieces))
  const emit = (start: number, end: number): void => {
    const value = Buffer.from(JSON.stringify(records.slice(start, end)), 'utf8')
    if (value.length <= maxBytes) {
      // Ordered by request id: every copy of a message (a replay from the edge spool) lands in the
      // partition of the first, after it, so the consumer that owns it sees both in order.
      messages.push({ key: meta.requestId, value, headers: { ...headers, [PART_HEADER]: String(messages.length) }, ordered: true })
    } else if (end - start === 1) {
      throw new RecordTooLargeError(start, value.length - 2, maxBytes)
    } else {
      const mid = start + Math.ceil((end - start) / 2)
      emit(start, mid)
      emit(mid, end)
    }
  }
  // A body that fits one message is published as it was sent (the JSON array of its records).
  const whole = text === undefined || records.length === 0 ? undefined : Buffer.from(text, 'utf8')
  if (whole && whole.length <= maxBytes) {
    messages.push({ key: meta.requestId, value: whole, headers: { ...headers, [PART_HEADER]: '0' }, ordered: true })
    return messages
  }
  for (let start = 0; start < records.length; start += step) emit(start, Math.min(records.length, start + step))
  return messages
}
