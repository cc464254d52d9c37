// What a notification says, per destination kind: pure functions from alert events to the request a
// sender makes (a webhook's body, Slack's Block Kit, a PagerDuty Events API v2 event, an email's parts).
// One event, or a digest of many (a storm of one destination becomes one message of N alerts). Every
// alert text is data: JSON-escaped in webhook bodies, mrkdwn-escaped for Slack, HTML-escaped in email.
import { createHash } from 'node:crypto'
import { WorkBudget, type WorkLimits } from '../../shared/budget.js'
import { renderTemplate, rootView, toView } from '../alerts/moustache.js'

/** The lifecycle events a destination may be sent. `repeated`: a reminder of an alert firing unacknowledged. */
export const NOTIFY_EVENTS = ['triggered', 'reopened', 'acknowledged', 'resolved', 'repeated'] as const
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

/** One delivery's content: the event, the alert as it was then, and the link to it in the console. */
export interface NotifyItem {
  readonly deliveryId: string
  readonly event: NotifyEvent
  readonly alert: NotifiedAlert
  readonly link: string
}

export const MESSAGE_LIMITS = {
  /** Alerts listed one by one in a Slack digest (the rest are counted, and every one is in the link's list). */
  slackListed: 40,
  /** Characters of one Slack section's text (Slack's limit is 3000). */
  slackSectionChars: 2900,
  /** A description's characters in a title line. */
  titleChars: 200,
} as const

const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text)

export function title(item: NotifyItem): string {
  const a = item.alert
  return `[${item.event.toUpperCase()}] ${a.severity}: ${cut(a.description, MESSAGE_LIMITS.titleChars)}`
}

const alertJson = (a: NotifiedAlert) => ({
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

const itemJson = (i: NotifyItem) => ({
  deliveryId: i.deliveryId,
  event: i.event,
  alert: alertJson(i.alert),
  link: i.link,
})

/** The message id of a digest (or a single delivery): the same deliveries give the same id. */
export function messageId(items: readonly NotifyItem[]): string {
  if (items.length === 1) return items[0]!.deliveryId
  const hash = createHash('sha256')
  for (const i of items) hash.update(`${i.deliveryId}\n`)
  return `digest_${hash.digest('base64url').slice(0, 22)}`
}

// ---------------------------------------------------------------- generic webhook

/** Strings of a view escaped for a JSON string (the template puts them in quotes). */
function jsonEscaped(value: unknown): unknown {
  if (typeof value === 'string') return JSON.stringify(value).slice(1, -1)
  if (Array.isArray(value)) return value.map(jsonEscaped)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonEscaped(v)]))
  return value
}

/**
 * What rendering one message's body template may cost (a digest's alerts all together): an account's template must not
 * take a notify process's time from every other account's deliveries.
 */
export const BODY_TEMPLATE_LIMITS: WorkLimits = { maxSteps: 100_000, maxCpuMs: 50 }

/**
 * A generic webhook's body: the default JSON, or the destination's moustache template over
 * {event, alert, link, deliveryId, digest, count, alerts: [{event, alert, link, deliveryId}]} (for one
 * event, alerts holds it alone). In a template for JSON, text values are JSON-escaped (put them in quotes).
 */
export function webhookBody(
  items: readonly NotifyItem[],
  template?: string,
  json = true,
  budget = new WorkBudget(BODY_TEMPLATE_LIMITS, 'rendering settings.bodyTemplate'),
): string {
  const first = items[0]!
  if (template === undefined) {
    if (items.length === 1) return JSON.stringify({ type: `alert.${first.event}`, ...itemJson(first) })
    return JSON.stringify({ type: 'alert.digest', count: items.length, alerts: items.map(itemJson) })
  }
  const all = items.map(itemJson)
  const fields = { ...all[0]!, digest: items.length > 1, count: items.length, alerts: all }
  const view = toView(json ? jsonEscaped(fields) : fields) as Record<string, unknown>
  return renderTemplate(template, rootView(view), budget)
}

// ---------------------------------------------------------------- Slack

/** Slack's mrkdwn control characters as entities (so alert text cannot make links or mentions). */
export const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

const SEVERITY_MARK: Record<string, string> = {
  critical: ':red_circle:',
  high: ':large_orange_circle:',
  warning: ':large_yellow_circle:',
  info: ':large_blue_circle:',
}

function slackLine(i: NotifyItem): string {
  const a = i.alert
  const where = [a.service, a.environment].filter((x) => x).map((x) => slackEscape(x!))
  return `${SEVERITY_MARK[a.severity] ?? ''} *${i.event}* ${slackEscape(a.severity)}: <${i.link}|${slackEscape(cut(a.description, MESSAGE_LIMITS.titleChars))}>${where.length ? ` (${where.join(', ')})` : ''}`
}

/** Slack incoming webhook body: text (the fallback) and Block Kit sections. */
export function slackBody(items: readonly NotifyItem[]): string {
  if (items.length === 1) {
    const i = items[0]!
    const a = i.alert
    const fields = [
      ['Severity', a.severity],
      ['Status', a.status],
      ...(a.service ? [['Service', a.service]] : []),
      ...(a.environment ? [['Environment', a.environment]] : []),
      ...(a.team ? [['Team', a.team]] : []),
      ...(a.source ? [['Source', a.source]] : []),
    ].map(([k, v]) => ({ type: 'mrkdwn', text: `*${k}*\n${slackEscape(cut(v!, 200))}` }))
    return JSON.stringify({
      text: slackEscape(title(i)),
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: slackLine(i) } },
        { type: 'section', fields: fields.slice(0, 10) },
        { type: 'context', elements: [{ type: 'mrkdwn', text: `<${i.link}|Open in Sluice> · alert ${i.alert.id}` }] },
      ],
    })
  }
  const listed = items.slice(0, MESSAGE_LIMITS.slackListed).map(slackLine)
  const sections: string[] = []
  for (const line of listed) {
    const last = sections.length - 1
    if (last >= 0 && sections[last]!.length + line.length + 1 <= MESSAGE_LIMITS.slackSectionChars)
      sections[last] += `\n${line}`
    else sections.push(cut(line, MESSAGE_LIMITS.slackSectionChars))
  }
  const more = items.length - listed.length
  const counts = countBy(items.map((i) => i.event))
  return JSON.stringify({
    text: `${items.length} alert events: ${counts}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: `${items.length} alert events (${counts})` } },
      ...sections.map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } })),
      ...(more > 0 ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: `and ${more} more` }] }] : []),
    ],
  })
}

function countBy(values: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ')
}

// ---------------------------------------------------------------- PagerDuty Events API v2

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
        ...(a.tags?.length ? { tags: a.tags.join(',') } : {}),
      },
    }
    body['links'] = [{ href: item.link, text: 'Open in Sluice' }]
  }
  return JSON.stringify(body)
}

// ---------------------------------------------------------------- email

export const htmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** An email's subject, plain-text part and HTML part (every alert text escaped). */
export function emailParts(items: readonly NotifyItem[]): { subject: string; text: string; html: string } {
  const subject = cut(
    (items.length === 1
      ? title(items[0]!)
      : `[Sluice] ${items.length} alert events: ${countBy(items.map((i) => i.event))}`
    ).replace(/[\r\n]+/g, ' '),
    250,
  )
  const rows = (i: NotifyItem) =>
    [
      ['Event', i.event],
      ['Severity', i.alert.severity],
      ['Status', i.alert.status],
      ['Description', i.alert.description],
      ['Service', i.alert.service],
      ['Environment', i.alert.environment],
      ['Team', i.alert.team],
      ['Source', i.alert.source],
      ['Alert', i.alert.id],
    ].filter(([, v]) => v !== undefined && v !== '') as [string, string][]
  const text = items
    .map(
      (i) =>
        `${rows(i)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n')}\nLink: ${i.link}`,
    )
    .join('\n\n')
  const html =
    `<!doctype html><html><body>` +
    items
      .map(
        (i) =>
          `<table>${rows(i)
            .map(([k, v]) => `<tr><th align="left">${htmlEscape(k)}</th><td>${htmlEscape(v)}</td></tr>`)
            .join('')}</table><p><a href="${htmlEscape(i.link)}">Open in Sluice</a></p>`,
      )
      .join('<hr>') +
    `</body></html>`
  return { subject, text, html }
}
