// PagerDuty's Events API v2: one event per message (no digests), its dedup_key the incident's id, so PagerDuty's
// incident follows Sluice's: trigger, acknowledge, resolve. The routing key is sealed.
import { Type } from 'typebox'
import { cut, type NotifyItem } from '../../../pipeline/notify/messages.js'
import { openFields, post, type NotifyKind } from './kind.js'

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue'

/** What may be shown of a secret: its last four characters. */
export const secretHint = (secret: string) => `…${secret.slice(-4)}`

const PD_SEVERITY: Record<string, string> = { critical: 'critical', high: 'error', warning: 'warning', info: 'info' }

/**
 * A PagerDuty Events API v2 event: trigger (triggered, reopened, repeated), acknowledge or resolve, with dedup_key =
 * the alert's id, so PagerDuty's incident follows the alert's lifecycle. One event per alert (no digests).
 */
export function pagerDutyBody(item: NotifyItem, routingKey: string): string {
  const a = item.alert
  const action = item.event === 'acknowledged' ? 'acknowledge' : item.event === 'resolved' ? 'resolve' : 'trigger'
  const body: Record<string, unknown> = {
    routing_key: routingKey,
    event_action: action,
    dedup_key: a.incidentId ?? a.id,
  }
  if (action === 'trigger') {
    body['payload'] = {
      summary: cut(a.description || a.id, 1024),
      source: cut(a.source || a.service || 'sluice', 255),
      severity: PD_SEVERITY[a.severity] ?? 'warning',
      ...(a.service ? { component: a.service } : {}),
      ...(a.team ? { group: a.team } : {}),
      ...(a.receivedAt ? { timestamp: a.receivedAt } : {}),
      custom_details: {
        ...(a.customFields ?? {}),
        ...(a.environment ? { environment: a.environment } : {}),
        sluiceEvent: item.event,
        ...(item.update ? { alertsAdded: item.update.added, incidentAlerts: item.update.incident.alerts } : {}),
        ...(a.tags?.length ? { tags: a.tags.join(',') } : {}),
      },
    }
    body['links'] = [{ href: item.link, text: 'Open in Sluice' }]
  }
  return JSON.stringify(body)
}

// ------------------------------------------------------------

export const pagerduty: NotifyKind<'pagerduty'> = {
  kind: 'pagerduty',
  schema: Type.Object(
    {
      routingKey: Type.Optional(
        Type.String({
          description: 'the integration key (required when created), sealed; on a change, left out keeps it',
        }),
      ),
      url: Type.Optional(Type.String({ description: `default ${PAGERDUTY_EVENTS_URL}` })),
    },
    { additionalProperties: false },
  ),
  limits: { ratePerSecond: 2, burst: 10, concurrency: 2, maxDigest: 1 },
  digests: false,

  async settings(s, check, old) {
    // On a change, a routingKey left out keeps the stored one.
    const key = check.text(s, 'routingKey', old === undefined)
    const url = check.text(s, 'url', false) ?? PAGERDUTY_EVENTS_URL
    await check.url('url', url)
    const routingKey = key ? check.seal(key) : old?.routingKey
    const routingKeyHint = key ? secretHint(key) : (old?.routingKeyHint ?? '')
    return routingKey !== undefined ? { routingKey, routingKeyHint, url } : undefined
  },

  view: (s) => ({ routingKeyHint: s.routingKeyHint, url: s.url }),
  open: (s, box) => openFields(s, ['routingKey'], box),
  async send(s, items, policy, signal) {
    if (items.length !== 1) throw new Error('PagerDuty takes one event per message')
    return post(s.url, { 'content-type': 'application/json' }, pagerDutyBody(items[0]!, s.routingKey), policy, signal)
  },
}
