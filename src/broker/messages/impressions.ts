// The wire format of the impressions topic, shared by the edge (writer) and the impressions consumer
// (reader): each Kafka message holds a JSON array of records of one kind (IMPRESSION_KINDS) from one
// request (records.ts): impression groups {f, i}, counts {f, m, rc}, unique-keys entries {f, ks} or
// {k, fs}, or one telemetry body. The SDK's headers travel as message headers.
import type { ImpressionKind, SdkMeta } from '../../pipeline/impressions.js'
import type { OutboundMessage } from '../ports.js'
import { encodeRecordMessages, metaOf, ORIGIN_HEADERS, originHeaders, type MessageSizing } from './records.js'

export const IMPRESSION_HEADERS = {
  ...ORIGIN_HEADERS,
  kind: 'sluice-kind',
  impressionsMode: 'sluice-impressions-mode',
  machineIp: 'sluice-machine-ip',
  machineName: 'sluice-machine-name',
} as const

/** The list inside a record that can be halved when the record alone is larger than a message. */
const SPLITTABLE: Partial<Record<ImpressionKind, string>> = {
  impressions: 'i',
  unique_keys_ss: 'ks',
  unique_keys_cs: 'fs',
}

/** The messages of a request's records of one kind. */
export function encodeImpressionMessages(
  kind: ImpressionKind,
  records: readonly object[],
  meta: SdkMeta,
  sizing: MessageSizing,
): OutboundMessage[] {
  const headers = {
    ...originHeaders(meta),
    [IMPRESSION_HEADERS.kind]: kind,
    [IMPRESSION_HEADERS.impressionsMode]: meta.impressionsMode,
    [IMPRESSION_HEADERS.machineIp]: meta.machineIp,
    [IMPRESSION_HEADERS.machineName]: meta.machineName,
  }
  const list = SPLITTABLE[kind]
  const split = list
    ? (record: object): readonly [object, object] | undefined => {
        const items = (record as Record<string, unknown>)[list]
        if (!Array.isArray(items) || items.length < 2) return undefined
        const mid = Math.ceil(items.length / 2)
        return [
          { ...record, [list]: items.slice(0, mid) },
          { ...record, [list]: items.slice(mid) },
        ]
      }
    : undefined
  return encodeRecordMessages(records, headers, meta.requestId, { ...sizing, split })
}

/** A message's metadata and SDK headers. */
export function sdkMetaOf(headers: Readonly<Record<string, string>>): SdkMeta {
  return {
    ...metaOf(headers),
    kind: headers[IMPRESSION_HEADERS.kind] ?? '',
    impressionsMode: headers[IMPRESSION_HEADERS.impressionsMode] ?? '',
    machineIp: headers[IMPRESSION_HEADERS.machineIp] ?? '',
    machineName: headers[IMPRESSION_HEADERS.machineName] ?? '',
  }
}
