// The notification kinds, each a module of its own (settings, limits, render, send): adding a kind is adding its
// module here and its stored settings' type beside the others (pipeline/notify/destinations.ts).
import type { DestinationKind } from '../../../pipeline/notify/destinations.js'
import { email } from './email.js'
import type { NotifyKind } from './kind.js'
import { pagerduty } from './pagerduty.js'
import { slack } from './slack.js'
import { webhook } from './webhook.js'

export const NOTIFY_KINDS: { readonly [K in DestinationKind]: NotifyKind<K> } = { webhook, slack, pagerduty, email }

/** The module of a kind (typed loosely: the caller holds a destination whose settings are of that kind). */
export const kindOf = (kind: DestinationKind) => NOTIFY_KINDS[kind] as unknown as NotifyKind<DestinationKind>
