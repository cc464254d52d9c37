// The wire format shared by the topics of SDK data (events, impressions): each Kafka message holds a
// JSON array of records of one request; the request's metadata travels in headers. A large body
// becomes several messages, each at most maxBytes; every message of a request has its identity
// (request id, part) and the request id as key, so all its copies land in one partition, in order.
import { MAX_TIMESTAMP_MS, type EnvelopeMeta, type MessageIdentity } from '../../pipeline/rows.js'
import { PART_HEADER, type OutboundMessage } from '../ports.js'

export const ORIGIN_HEADERS = {
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
    as = 'as JSON',
  ) {
    super(`record ${index} is ${bytes} bytes ${as}, above the per-record limit of ${limit} bytes`)
  }
}

/** The headers of a request's messages, without the part (each message has its own). */
export function originHeaders(meta: EnvelopeMeta): Record<string, string> {
  return {
    [ORIGIN_HEADERS.environment]: meta.environmentId,
    [ORIGIN_HEADERS.account]: meta.accountId,
    [ORIGIN_HEADERS.receivedAt]: String(meta.receivedAtMs),
    [ORIGIN_HEADERS.sdkVersion]: meta.sdkVersion,
    [ORIGIN_HEADERS.requestId]: meta.requestId,
  }
}

/** How a request's records are cut into messages. */
export interface MessageSizing {
  /** The body's length: how many messages the records need, at a first guess. */
  readonly bodyBytes: number
  readonly maxBytes: number
  /** The records' JSON as sent: the one message when it fits (the body is not serialized again). */
  readonly text?: string | undefined
}

export interface RecordMessagesOptions extends MessageSizing {
  /** Halves a record too large for one message (an impressions group into two groups), or undefined when it cannot. */
  readonly split?: (record: object) => readonly [object, object] | undefined
}

/**
 * Splits records into messages of at most maxBytes. Slices are sized from the body's length and
 * halved until they fit, so typical bodies are serialized once; a single record that does not fit
 * is split by options.split, or refused (RecordTooLargeError, naming its index).
 */
export function encodeRecordMessages(
  records: readonly object[],
  headers: Record<string, string>,
  requestId: string,
  options: RecordMessagesOptions,
): OutboundMessage[] {
  const { bodyBytes, maxBytes, text, split } = options
  const messages: OutboundMessage[] = []
  // Ordered by request id: every copy of a message (a replay from the edge spool) lands in the
  // partition of the first, after it, so the consumer that owns it sees both in order.
  const push = (value: Buffer) =>
    messages.push({
      key: requestId,
      value,
      headers: { ...headers, [PART_HEADER]: String(messages.length) },
      ordered: true,
    })
  const emit = (slice: readonly object[], firstIndex: number): void => {
    const value = Buffer.from(JSON.stringify(slice), 'utf8')
    if (value.length <= maxBytes) push(value)
    else if (slice.length > 1) {
      const mid = Math.ceil(slice.length / 2)
      emit(slice.slice(0, mid), firstIndex)
      emit(slice.slice(mid), firstIndex + mid)
    } else {
      const halves = split?.(slice[0]!)
      if (!halves) throw new RecordTooLargeError(firstIndex, value.length - 2, maxBytes)
      emit([halves[0]], firstIndex)
      emit([halves[1]], firstIndex)
    }
  }
  const whole = text === undefined || records.length === 0 ? undefined : Buffer.from(text, 'utf8')
  if (whole && whole.length <= maxBytes) {
    push(whole)
    return messages
  }
  // Too large for one message: cut the text as sent between records (not serialized again), unless a record alone is
  // too large.
  const parts = whole && splitArrayText(whole, maxBytes)
  if (parts) {
    for (const part of parts) push(part)
    return messages
  }
  const pieces = Math.max(1, Math.ceil(bodyBytes / (maxBytes * 0.75)))
  const step = Math.max(1, Math.ceil(records.length / pieces))
  for (let start = 0; start < records.length; start += step) emit(records.slice(start, start + step), start)
  return messages
}

const [OPEN, CLOSE, OPEN_OBJECT, CLOSE_OBJECT, COMMA, QUOTE, BACKSLASH] = [0x5b, 0x5d, 0x7b, 0x7d, 0x2c, 0x22, 0x5c]

/**
 * A JSON array's UTF-8 text (valid JSON, as parsed before) cut between its elements into arrays of at
 * most maxBytes each, in order; undefined when an element alone does not fit or the text is not an
 * array. One pass over the bytes: the structural characters are ASCII, which UTF-8 never uses inside
 * a multi-byte character, so they are found by byte, outside strings.
 */
export function splitArrayText(json: Buffer, maxBytes: number): Buffer[] | undefined {
  // A byte order mark, then JSON whitespace, then the array's bracket: anything else is not an array.
  let i = json[0] === 0xef && json[1] === 0xbb && json[2] === 0xbf ? 3 : 0
  while (json[i] === 0x20 || json[i] === 0x09 || json[i] === 0x0a || json[i] === 0x0d) i++
  if (json[i] !== OPEN) return undefined
  // Element boundaries: the offsets of the commas between elements, and of the closing bracket.
  const ends: number[] = []
  const first = i + 1
  let depth = 0
  let inString = false
  for (i = first; i < json.length; i++) {
    const c = json[i]!
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN || c === OPEN_OBJECT) depth++
    else if (c === CLOSE || c === CLOSE_OBJECT) {
      if (depth === 0) {
        ends.push(i)
        break
      }
      depth--
    } else if (c === COMMA && depth === 0) ends.push(i)
  }
  if (ends.length === 0 || json[ends.at(-1)!] !== CLOSE) return undefined
  const parts: Buffer[] = []
  // A part is "[" + elements from `start` to the boundary before the next part + "]".
  let start = first
  let last = -1 // the end of the last element that fits in the part being filled
  const emit = (end: number) => {
    const part = Buffer.allocUnsafe(end - start + 2)
    part[0] = OPEN
    json.copy(part, 1, start, end)
    part[part.length - 1] = CLOSE
    parts.push(part)
  }
  for (const end of ends) {
    if (end - start + 2 > maxBytes) {
      // The element ending here does not fit beside the ones before it: they make a part, it starts the next.
      if (last < 0) return undefined
      emit(last)
      start = last + 1
      if (end - start + 2 > maxBytes) return undefined
    }
    last = end
  }
  emit(last)
  return parts
}

/**
 * The records of a message the edge wrote: its text and, when it is a JSON array from an
 * environment (headers say which), the array; else `records` is undefined (rejected whole, as text).
 */
export function recordsOf(message: { readonly value: Buffer; readonly headers: Readonly<Record<string, string>> }): {
  text: string
  records: unknown[] | undefined
} {
  const text = message.value.toString('utf8')
  if (!message.headers[ORIGIN_HEADERS.environment]) return { text, records: undefined }
  let records: unknown
  try {
    records = JSON.parse(text)
  } catch {
    return { text, records: undefined }
  }
  return { text, records: Array.isArray(records) ? records : undefined }
}

/** A message's metadata from its headers; what is missing or out of range is empty, or now. */
export function metaOf(headers: Readonly<Record<string, string>>): EnvelopeMeta {
  const receivedAtMs = Number(headers[ORIGIN_HEADERS.receivedAt])
  return {
    environmentId: headers[ORIGIN_HEADERS.environment] ?? '',
    accountId: headers[ORIGIN_HEADERS.account] ?? '',
    receivedAtMs:
      Number.isSafeInteger(receivedAtMs) && receivedAtMs >= 0 && receivedAtMs <= MAX_TIMESTAMP_MS
        ? receivedAtMs
        : Date.now(),
    sdkVersion: headers[ORIGIN_HEADERS.sdkVersion] ?? '',
    requestId: headers[ORIGIN_HEADERS.requestId] ?? '',
    part: partOf(headers),
  }
}

/** A message's identity (with where its rows would be), or undefined when it has none (not written by the edge). */
export function identityOf(headers: Readonly<Record<string, string>>): MessageIdentity | undefined {
  const requestId = headers[ORIGIN_HEADERS.requestId]
  const environmentId = headers[ORIGIN_HEADERS.environment]
  const receivedAtMs = Number(headers[ORIGIN_HEADERS.receivedAt])
  if (!requestId || !environmentId || !Number.isSafeInteger(receivedAtMs)) return undefined
  return { requestId, part: partOf(headers), environmentId, receivedAt: Math.floor(receivedAtMs / 1000) }
}

function partOf(headers: Readonly<Record<string, string>>): number {
  const part = Number(headers[ORIGIN_HEADERS.part] ?? 0)
  return Number.isSafeInteger(part) && part >= 0 && part < 2 ** 32 ? part : 0
}
