// Notification destinations as stored: their kind's settings (secrets sealed with the SecretBox, so a
// stored destination never holds one in clear), which lifecycle events they are sent, and their limits. What each
// kind does with its settings is its module's (sinks/notify/kinds/<kind>.ts).
import { parseDuration } from '../incidents/grouping.js'
import type { NotifyEvent } from './messages.js'

export const DESTINATION_KINDS = ['webhook', 'slack', 'pagerduty', 'email'] as const
export type DestinationKind = (typeof DESTINATION_KINDS)[number]

export interface DestinationLimits {
  /** Messages per second (shared by every notify process through Redis), and at once. */
  readonly ratePerSecond: number
  readonly burst: number
  /** Requests in flight at once, per notify process. */
  readonly concurrency: number
  /** Most alert events one digest message carries (1: no digests). */
  readonly maxDigest: number
}

export interface WebhookSettings {
  readonly url: string
  /** Header name → sealed value (they often carry tokens). */
  readonly headers?: Readonly<Record<string, string>>
  readonly bodyTemplate?: string
  readonly contentType: string
  /** Sealed: the key of Sluice's signature (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature). */
  readonly signingSecret: string
}

export interface SlackSettings {
  /** Sealed: an incoming webhook's URL is its credential. */
  readonly url: string
  /** What may be shown of it: host and the last characters. */
  readonly urlHint: string
}

export interface PagerDutySettings {
  /** Sealed: the integration (routing) key. */
  readonly routingKey: string
  readonly routingKeyHint: string
  readonly url: string
}

export type EmailSecurity = 'tls' | 'starttls' | 'none'

export interface EmailSettings {
  readonly host: string
  readonly port: number
  /** tls: TLS from the first byte (465); starttls: STARTTLS required (587); none: neither (a local relay). */
  readonly security: EmailSecurity
  readonly username?: string
  /** Sealed. */
  readonly password?: string
  readonly from: string
  readonly to: readonly string[]
}

interface Common {
  readonly id: string
  readonly name: string
  readonly enabled: boolean
  readonly events: readonly NotifyEvent[]
  /** Re-notify an alert still firing and not acknowledged after this many minutes (unset: never). */
  readonly repeatAfterMinutes?: number
  /** With `updated` among its events: an open incident's alerts added, told at most once this many minutes (5). */
  readonly updateAfterMinutes?: number
  /**
   * Damping: an incident's events wait this long ("30s", "2m"); one resolved meanwhile is not told at all (counted
   * transient). Unset: told at once.
   */
  readonly delay?: string
  readonly limits: DestinationLimits
  readonly createdAt: number
  readonly updatedAt: number
}

export type StoredDestination = Common &
  (
    | { readonly kind: 'webhook'; readonly settings: WebhookSettings }
    | { readonly kind: 'slack'; readonly settings: SlackSettings }
    | { readonly kind: 'pagerduty'; readonly settings: PagerDutySettings }
    | { readonly kind: 'email'; readonly settings: EmailSettings }
  )

/** How often at most an open incident's added alerts are told to a destination (`updated`), in ms. */
export const updatePeriodMs = (d: { readonly updateAfterMinutes?: number }) => (d.updateAfterMinutes ?? 5) * 60_000

/** A destination's damping delay in ms ("10s" to "1h"), or undefined when it is none. */
export function dampingDelayMs(delay: string): number | undefined {
  const ms = parseDuration(delay)
  return ms !== undefined && ms >= 10_000 && ms <= 3_600_000 ? ms : undefined
}
