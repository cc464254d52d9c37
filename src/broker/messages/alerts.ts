// The wire format of the alerts topic, shared by the edge (writer) and the alerts consumer (reader):
// one message per webhook request, the payload as JSON (gzip when large), metadata in headers.
import { gunzipSync, gzipSync } from 'node:zlib'
import type { OutboundMessage } from '../ports.js'

export const ALERT_HEADERS = {
  integration: 'sluice-integration',
  account: 'sluice-account',
  receivedAt: 'sluice-received-at',
  requestId: 'sluice-request-id',
  encoding: 'content-encoding',
} as const

export interface AlertMeta {
  readonly integrationId: string
  readonly accountId: string
  readonly receivedAtMs: number
  readonly requestId: string
}

/**
 * The message of one webhook request (the payload's JSON text), or undefined when even compressed it exceeds maxBytes.
 */
export function encodeAlertMessage(
  payloadJson: string,
  meta: AlertMeta,
  maxBytes: number,
): OutboundMessage | undefined {
  let value = Buffer.from(payloadJson, 'utf8')
  const headers: Record<string, string> = {
    [ALERT_HEADERS.integration]: meta.integrationId,
    [ALERT_HEADERS.account]: meta.accountId,
    [ALERT_HEADERS.receivedAt]: String(meta.receivedAtMs),
    [ALERT_HEADERS.requestId]: meta.requestId,
  }
  if (value.length > maxBytes / 2) {
    value = gzipSync(value)
    headers[ALERT_HEADERS.encoding] = 'gzip'
  }
  return value.length <= maxBytes ? { key: meta.integrationId, value, headers } : undefined
}

export function decodeAlertMessage(
  value: Buffer,
  headers: Readonly<Record<string, string>>,
): { meta: AlertMeta; payloadJson: string } {
  const raw = headers[ALERT_HEADERS.encoding] === 'gzip' ? gunzipSync(value) : value
  return {
    meta: {
      integrationId: headers[ALERT_HEADERS.integration] ?? '',
      accountId: headers[ALERT_HEADERS.account] ?? '',
      receivedAtMs: Number(headers[ALERT_HEADERS.receivedAt] ?? Date.now()),
      requestId: headers[ALERT_HEADERS.requestId] ?? '',
    },
    payloadJson: raw.toString('utf8'),
  }
}
