// Sending a notification, whatever its kind: a destination's secrets opened, one message (one event, or a digest of
// several) rendered and sent by its kind's module (kinds/<kind>.ts), and the outcome classified: delivered, retry
// (with the receiver's Retry-After when it gives one) or give up. Every send goes through the outbound guard.
import type { StoredDestination } from '../../pipeline/notify/destinations.js'
import type { NotifyItem } from '../../pipeline/notify/messages.js'
import type { OutboundPolicy } from '../../shared/outbound.js'
import type { SecretBox } from '../../shared/secret-box.js'
import { kindOf } from './kinds/index.js'
import { cutError, type SendOutcome } from './kinds/kind.js'

export type { SendOutcome, SendResult } from './kinds/kind.js'

/** A destination whose sealed settings are opened (kept in memory only while sending). */
export type OpenedDestination = StoredDestination

/** The destination with its secrets opened, or why they cannot be (a key of this process does not open them). */
export function openDestination(d: StoredDestination, box: SecretBox): OpenedDestination | string {
  const settings = kindOf(d.kind).open(d.settings, box)
  return typeof settings === 'string' ? settings : ({ ...d, settings } as OpenedDestination)
}

/** Whether a destination sends many alert events in one message (its kind takes digests, and its limits allow). */
export const digests = (d: StoredDestination) => kindOf(d.kind).digests && d.limits.maxDigest > 1

/** Sends one message (one event, or a digest of several) to the destination. Never throws. */
export async function send(
  d: OpenedDestination,
  items: readonly NotifyItem[],
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<SendOutcome> {
  try {
    return await kindOf(d.kind).send(d.settings, items, policy, signal)
  } catch (err) {
    return { result: 'retry', error: cutError(err instanceof Error ? err.message : String(err)) }
  }
}
