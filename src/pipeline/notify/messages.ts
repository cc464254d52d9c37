// What every notification is made of, whatever its kind: the lifecycle events, the alert as a message shows it, one
// delivery's item, its title and JSON, and a message's id. One event, or a digest of many (a storm of one destination
// becomes one message of N alerts). Each kind renders these its own way (sinks/notify/kinds/<kind>.ts).
import { createHash } from 'node:crypto'

/**
 * The lifecycle events a destination may be sent. `repeated`: a reminder of an alert (or incident) firing
 * unacknowledged; `updated`: an open incident's alerts added, at most once every updateAfterMinutes (asked for only).
 */
export const NOTIFY_EVENTS = ['triggered', 'reopened', 'acknowledged', 'resolved', 'repeated', 'updated'] as const
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number]
export const DEFAULT_EVENTS: readonly NotifyEvent[] = ['triggered', 'reopened', 'acknowledged', 'resolved']

/** The alert as a notification shows it (its stream entry's fields, or its record's). */
export interface NotifiedAlert {
  readonly id: string
  readonly status: string
  readonly severity: string
  readonly description: string
  readonly source?: string
  readonly service?: string
  readonly environment?: string
  readonly team?: string
  readonly dedupKey?: string
  readonly integrationId?: string
  readonly count?: number
  readonly receivedAt?: string
  readonly tags?: readonly string[]
  readonly customFields?: Readonly<Record<string, string>>
  /** The incident it is in: what destinations are told about (one alert stands for its incident). */
  readonly incidentId?: string
}

/** What an `updated` message tells: the incident as it is now and the alerts added since its last update. */
export interface IncidentUpdate {
  readonly incident: {
    readonly id: string
    readonly title: string
    readonly status: string
    readonly severity: string
    /** Its alerts in all, and the open ones among them. */
    readonly alerts: number
    readonly open: number
  }
  /** How many alerts joined since the last update, and the first of them (at most UPDATE_LISTED). */
  readonly added: number
  readonly alerts: readonly NotifiedAlert[]
}

/** One delivery's content: the event, the alert as it was then, and the link to it (its incident) in the console. */
export interface NotifyItem {
  readonly deliveryId: string
  readonly event: NotifyEvent
  readonly alert: NotifiedAlert
  readonly link: string
  readonly update?: IncidentUpdate
  /** A page of an escalation step: its step, and the Slack member it mentions. */
  readonly page?: { readonly step: number; readonly round: number; readonly mention?: string }
  /** An email page's signed links that acknowledge or resolve the incident as its responder. */
  readonly actions?: { readonly acknowledge: string; readonly resolve: string }
}

export const MESSAGE_LIMITS = {
  /** Alerts listed one by one in a Slack digest (the rest are counted, and every one is in the link's list). */
  slackListed: 40,
  /** Characters of one Slack section's text (Slack's limit is 3000). */
  slackSectionChars: 2900,
  /** A description's characters in a title line. */
  titleChars: 200,
  /** Alerts an `updated` message lists (the rest are counted). */
  updateListed: 20,
} as const

/** Text cut to n characters, an ellipsis marking the cut. */
export const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text)

export function title(item: NotifyItem): string {
  const a = item.alert
  const u = item.update
  if (u)
    return `[UPDATED] ${u.incident.severity}: ${cut(u.incident.title, MESSAGE_LIMITS.titleChars)} (${u.added} alert${u.added === 1 ? '' : 's'} added, ${u.incident.open} open)`
  if (item.page)
    return `[PAGE] ${a.severity}: ${cut(a.description, MESSAGE_LIMITS.titleChars)} (escalation step ${item.page.step + 1})`
  return `[${item.event.toUpperCase()}] ${a.severity}: ${cut(a.description, MESSAGE_LIMITS.titleChars)}`
}

export const alertJson = (a: NotifiedAlert) => ({
  id: a.id,
  status: a.status,
  severity: a.severity,
  description: a.description,
  ...(a.source !== undefined ? { source: a.source } : {}),
  ...(a.service !== undefined ? { service: a.service } : {}),
  ...(a.environment !== undefined ? { environment: a.environment } : {}),
  ...(a.team !== undefined ? { team: a.team } : {}),
  ...(a.dedupKey !== undefined ? { dedupKey: a.dedupKey } : {}),
  ...(a.integrationId !== undefined ? { integrationId: a.integrationId } : {}),
  ...(a.count !== undefined ? { count: a.count } : {}),
  ...(a.receivedAt !== undefined ? { receivedAt: a.receivedAt } : {}),
  ...(a.incidentId !== undefined ? { incidentId: a.incidentId } : {}),
  tags: a.tags ?? [],
  customFields: a.customFields ?? {},
})

export const itemJson = (i: NotifyItem) => ({
  deliveryId: i.deliveryId,
  event: i.event,
  alert: alertJson(i.alert),
  link: i.link,
  ...(i.update
    ? { incident: i.update.incident, added: i.update.added, addedAlerts: i.update.alerts.map(alertJson) }
    : {}),
  ...(i.page ? { page: { step: i.page.step + 1, round: i.page.round + 1 } } : {}),
})

/** A delivery's id: the same entry and destination give the same id (a replayed entry creates nothing twice). */
export function deliveryId(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 22)
}

/** The message id of a digest (or a single delivery): the same deliveries give the same id. */
export function messageId(items: readonly NotifyItem[]): string {
  if (items.length === 1) return items[0]!.deliveryId
  const hash = createHash('sha256')
  for (const i of items) hash.update(`${i.deliveryId}\n`)
  return `digest_${hash.digest('base64url').slice(0, 22)}`
}

/** "3 triggered, 1 resolved": how many events of each kind a digest holds. */
export function countBy(values: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ')
}
