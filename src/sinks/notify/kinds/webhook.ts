// A generic webhook: a POST of JSON (or of the destination's body template) to a URL, signed as Standard Webhooks
// says (webhook-id, webhook-timestamp, webhook-signature under a secret Sluice makes and shows once), with headers
// the account sets (sealed: they often carry tokens).
import { createHmac, randomBytes } from 'node:crypto'
import { Type } from 'typebox'
import { checkTemplate } from '../../../pipeline/alerts/render.js'
import { isRenderLimit, renderTemplate, rootView, toView } from '../../../pipeline/alerts/moustache.js'
import { itemJson, messageId, type NotifyItem } from '../../../pipeline/notify/messages.js'
import { WorkBudget, type WorkLimits } from '../../../shared/budget.js'
import { headerProblem } from '../../../shared/outbound.js'
import { cutError, openFields, post, type NotifyKind, type SettingsOf } from './kind.js'

type Settings = SettingsOf<'webhook'>

export const WEBHOOK_LIMITS = { maxHeaders: 20, maxTemplateChars: 16 * 1024 } as const

const TEMPLATE_ROOTS = [
  'event',
  'alert',
  'link',
  'deliveryId',
  'digest',
  'count',
  'alerts',
  'incident',
  'added',
  'addedAlerts',
]
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/
const RESERVED_HEADERS = new Set([
  'content-length',
  'host',
  'content-type',
  'idempotency-key',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'transfer-encoding',
  'connection',
])

/**
 * What rendering one message's body template may cost (a digest's alerts all together): an account's template must not
 * take a notify process's time from every other account's deliveries.
 */
export const BODY_TEMPLATE_LIMITS: WorkLimits = { maxSteps: 100_000, maxCpuMs: 50 }

/** Standard Webhooks' signature (v1: HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's bytes). */
export function signWebhook(secret: string, id: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSec}.${body}`).digest('base64')}`
}

/** Strings of a view escaped for a JSON string (the template puts them in quotes). */
function jsonEscaped(value: unknown): unknown {
  if (typeof value === 'string') return JSON.stringify(value).slice(1, -1)
  if (Array.isArray(value)) return value.map(jsonEscaped)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonEscaped(v)]))
  return value
}

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
    if (items.length === 1)
      return JSON.stringify({ type: `${first.update ? 'incident' : 'alert'}.${first.event}`, ...itemJson(first) })
    return JSON.stringify({ type: 'alert.digest', count: items.length, alerts: items.map(itemJson) })
  }
  const all = items.map(itemJson)
  const fields = { ...all[0]!, digest: items.length > 1, count: items.length, alerts: all }
  const view = toView(json ? jsonEscaped(fields) : fields) as Record<string, unknown>
  return renderTemplate(template, rootView(view), budget)
}

/**
 * The field of a webhook's settings (opened) that no HTTP request can carry, and why: checked when it is saved,
 * and again before every send, for destinations saved before that check.
 */
export function webhookSettingsProblem(s: Settings): string | undefined {
  for (const [name, value] of Object.entries(s.headers ?? {})) {
    const problem = headerProblem(name, value)
    if (problem) return `settings.headers.${JSON.stringify(name).slice(1, -1)} ${problem}`
  }
  const problem = headerProblem('content-type', s.contentType)
  return problem ? `settings.contentType ${problem}` : undefined
}

export const webhook: NotifyKind<'webhook'> = {
  kind: 'webhook',
  schema: Type.Object(
    {
      url: Type.String({ description: 'where each message is POSTed' }),
      headers: Type.Optional(
        Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()]), {
          description: `at most ${WEBHOOK_LIMITS.maxHeaders}, sealed when stored; on a change, null keeps a stored value`,
        }),
      ),
      bodyTemplate: Type.Optional(
        Type.String({
          description: `a moustache template over {event, alert, link, deliveryId, digest, count, alerts}, and for an update {incident, added, addedAlerts} (default: Sluice's JSON)`,
        }),
      ),
      contentType: Type.Optional(Type.String({ description: 'default application/json' })),
    },
    { additionalProperties: false },
  ),
  limits: { ratePerSecond: 10, burst: 20, concurrency: 4, maxDigest: 500 },
  digests: true,
  newSecret: () => `whsec_${randomBytes(24).toString('base64')}`,

  async settings(s, check, old) {
    const u = check.text(s, 'url')
    await check.url('url', u)
    const contentType = check.text(s, 'contentType', false) ?? 'application/json'
    const typeProblem = headerProblem('content-type', contentType)
    if (typeProblem) check.problem('settings.contentType', typeProblem)
    const bodyTemplate = s['bodyTemplate']
    if (bodyTemplate !== undefined) {
      if (typeof bodyTemplate !== 'string' || bodyTemplate.length > WEBHOOK_LIMITS.maxTemplateChars)
        check.problem(
          'settings.bodyTemplate',
          `must be a template of at most ${WEBHOOK_LIMITS.maxTemplateChars} characters`,
        )
      else {
        const checked = checkTemplate(bodyTemplate, TEMPLATE_ROOTS)
        if (typeof checked === 'string') check.problem('settings.bodyTemplate', checked)
      }
    }
    const headers = s['headers']
    let sealedHeaders: Record<string, string> | undefined
    if (headers !== undefined) {
      if (
        headers === null ||
        typeof headers !== 'object' ||
        Array.isArray(headers) ||
        Object.keys(headers).length > WEBHOOK_LIMITS.maxHeaders
      )
        check.problem('settings.headers', `must be an object of at most ${WEBHOOK_LIMITS.maxHeaders} headers`)
      else {
        sealedHeaders = {}
        const oldHeaders = old?.headers ?? {}
        for (const [k, v] of Object.entries(headers as Record<string, unknown>)) {
          const field = `settings.headers.${k}`
          if (!HEADER_NAME.test(k) || headerProblem(k, '') || RESERVED_HEADERS.has(k.toLowerCase()))
            check.problem(
              `settings.headers.${JSON.stringify(k.slice(0, 64)).slice(1, -1)}`,
              'is not a header Sluice lets you set',
            )
          else if (v === null && oldHeaders[k]) {
            // A value stored before values were checked (an earlier version) is not kept unchecked.
            const stored = check.open(oldHeaders[k])
            const problem = stored === undefined ? undefined : headerProblem(k, stored)
            if (problem) check.problem(field, `is stored with a value that ${problem}: give a new one`)
            else sealedHeaders[k] = oldHeaders[k]
          } else if (typeof v !== 'string' || v.length > 4096)
            check.problem(field, 'must be text of at most 4096 characters (null keeps the stored value)')
          else {
            const problem = headerProblem(k, v)
            if (problem) check.problem(field, problem)
            else sealedHeaders[k] = check.seal(v)
          }
        }
      }
    }
    const secret = check.created ? check.seal(check.created) : old?.signingSecret
    if (!u || secret === undefined) return undefined
    return {
      url: u,
      contentType,
      ...(sealedHeaders ? { headers: sealedHeaders } : {}),
      ...(typeof bodyTemplate === 'string' ? { bodyTemplate } : {}),
      signingSecret: secret,
    }
  },

  view: (s) => ({
    url: s.url,
    contentType: s.contentType,
    headers: Object.keys(s.headers ?? {}),
    ...(s.bodyTemplate !== undefined ? { bodyTemplate: s.bodyTemplate } : {}),
  }),

  open(s, box) {
    const opened = openFields(s, ['signingSecret'], box)
    if (typeof opened === 'string' || !s.headers) return opened
    const headers: Record<string, string> = {}
    for (const [name, sealed] of Object.entries(s.headers)) {
      const plain = box.open(sealed)
      if (plain === undefined) return `its header ${name} cannot be opened with this process's SLUICE_SECRETS_KEY`
      headers[name] = plain
    }
    return { ...opened, headers }
  },

  async send(s, items, policy, signal) {
    // A destination stored before its headers were checked when saved: given up naming the field, never sent.
    const refused = webhookSettingsProblem(s)
    if (refused) return { result: 'give-up', error: cutError(`not sent: ${refused}; change the destination`) }
    let body: string
    try {
      body = webhookBody(items, s.bodyTemplate, s.contentType.includes('json'))
    } catch (err) {
      // The same template over the same alerts costs the same again: no retry helps.
      if (isRenderLimit(err))
        return { result: 'give-up', error: cutError(`not sent: ${err.message}; change the destination`) }
      throw err
    }
    const id = messageId(items)
    const ts = Math.floor(Date.now() / 1000)
    const headers = {
      ...s.headers,
      'content-type': s.contentType,
      'idempotency-key': id,
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': signWebhook(s.signingSecret, id, ts, body),
    }
    return post(s.url, headers, body, policy, signal)
  },
}
