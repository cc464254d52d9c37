// Notification destinations, the default route and deliveries as use cases: create, change, delete and
// list destinations (every URL and mail host checked against the outbound policy when saved, again
// when sent; secrets sealed, shown once), send a test message, set the default route, read an alert's
// delivery log and the dead letter, and send a dead delivery again.
import { randomBytes, randomUUID } from 'node:crypto'
import { checkTemplate } from '../pipeline/alerts/render.js'
import {
  DEFAULT_LIMITS,
  DESTINATION_KINDS,
  PAGERDUTY_EVENTS_URL,
  secretHint,
  type DestinationKind,
  type DestinationLimits,
  type EmailSecurity,
  type StoredDestination,
  dampingDelayMs,
} from '../pipeline/notify/destinations.js'
import { DEFAULT_EVENTS, NOTIFY_EVENTS, type NotifyEvent, type NotifyItem } from '../pipeline/notify/messages.js'
import { invalid, Refusal, type FieldProblem } from '../shared/errors.js'
import { checkHost, checkUrl, headerProblem, OutboundError, type OutboundPolicy } from '../shared/outbound.js'
import type { SecretBox } from '../shared/secret-box.js'
import { openDestination, send, type SendOutcome } from '../sinks/notify/senders.js'
import type { Delivery, NotifyStore } from '../state/redis/notify.js'

export const NOTIFY_LIMITS = {
  maxDestinations: 100,
  maxNameChars: 200,
  maxHeaders: 20,
  maxTemplateChars: 16 * 1024,
  maxRecipients: 20,
  maxRouteLength: 20,
} as const

/** A destination as given to the API (secrets in clear; omitted ones keep their stored value on a change). */
export interface DestinationInput {
  readonly name: string
  readonly kind: DestinationKind
  readonly enabled?: boolean
  readonly events?: readonly NotifyEvent[]
  readonly repeatAfterMinutes?: number
  readonly delay?: string
  readonly limits?: Partial<DestinationLimits>
  readonly settings: Readonly<Record<string, unknown>>
}

/** A destination as shown: no secret, only hints of them. */
export interface DestinationView {
  readonly id: string
  readonly name: string
  readonly kind: DestinationKind
  readonly enabled: boolean
  readonly events: readonly NotifyEvent[]
  readonly repeatAfterMinutes?: number
  readonly delay?: string
  readonly limits: DestinationLimits
  readonly settings: Record<string, unknown>
  readonly createdAt: string
  readonly updatedAt: string
}

const TEMPLATE_ROOTS = ['event', 'alert', 'link', 'deliveryId', 'digest', 'count', 'alerts']
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
const EMAIL = /^[^\s@<>()",;:\\[\]]{1,64}@[A-Za-z0-9.-]{1,253}$/
const iso = (ms: number) => new Date(ms).toISOString()

export class NotifyService {
  constructor(
    private readonly store: NotifyStore,
    private readonly box: SecretBox,
    private readonly policy: OutboundPolicy,
    private readonly giveUpMs: number,
    private readonly retentionMs: number,
  ) {}

  async list(accountId: string): Promise<{ destinations: DestinationView[]; route: string[] }> {
    const { list, route } = await this.store.destinations(accountId)
    return { destinations: list.map(view), route }
  }

  async get(accountId: string, id: string): Promise<DestinationView> {
    return view(await this.stored(accountId, id))
  }

  private async stored(accountId: string, id: string): Promise<StoredDestination> {
    const d = await this.store.destination(accountId, id)
    if (!d) throw new Refusal('NOT_FOUND', 'no such notification destination')
    return d
  }

  /** A new destination; a webhook's signing secret is in the answer, once. */
  async create(
    accountId: string,
    input: DestinationInput,
  ): Promise<{ destination: DestinationView; signingSecret?: string }> {
    if ((await this.store.destinations(accountId)).list.length >= NOTIFY_LIMITS.maxDestinations)
      throw new Refusal('CONFLICT', `an account has at most ${NOTIFY_LIMITS.maxDestinations} notification destinations`)
    const now = Date.now()
    const signingSecret = input.kind === 'webhook' ? `whsec_${randomBytes(24).toString('base64')}` : undefined
    const d = await this.build(
      `dst_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      input,
      undefined,
      now,
      signingSecret,
    )
    await this.store.saveDestination(accountId, d)
    return { destination: view(d), ...(signingSecret ? { signingSecret } : {}) }
  }

  async update(accountId: string, id: string, input: DestinationInput): Promise<DestinationView> {
    const old = await this.stored(accountId, id)
    if (old.kind !== input.kind)
      throw invalid([{ field: 'kind', problem: `cannot change (${old.kind}): make a new destination` }])
    const d = await this.build(id, input, old, Date.now())
    await this.store.saveDestination(accountId, d)
    return view(d)
  }

  async delete(accountId: string, id: string): Promise<void> {
    if (!(await this.store.deleteDestination(accountId, id)))
      throw new Refusal('NOT_FOUND', 'no such notification destination')
  }

  async route(accountId: string): Promise<string[]> {
    return (await this.store.destinations(accountId)).route
  }

  async saveRoute(accountId: string, ids: readonly string[]): Promise<string[]> {
    const known = await this.destinationIds(accountId)
    const problems = ids.flatMap((id, i) =>
      known.has(id) ? [] : [{ field: `destinations[${i}]`, problem: `"${id.slice(0, 64)}" is not a destination` }],
    )
    if (problems.length > 0) throw invalid(problems, 'the route was not saved')
    const unique = [...new Set(ids)]
    await this.store.saveRoute(accountId, unique)
    return unique
  }

  async destinationIds(accountId: string): Promise<Set<string>> {
    return new Set((await this.store.destinations(accountId)).list.map((d) => d.id))
  }

  /** Sends a test message now (not queued, not retried) and says what the receiver answered. */
  async test(accountId: string, id: string): Promise<SendOutcome> {
    const d = await this.stored(accountId, id)
    const opened = openDestination(d, this.box)
    if (typeof opened === 'string') throw new Refusal('CONFLICT', `the destination cannot be sent to: ${opened}`)
    const item: NotifyItem = {
      deliveryId: `test-${randomUUID()}`,
      event: 'triggered',
      alert: {
        id: 'test',
        status: 'firing',
        severity: 'info',
        description: `Test notification from Sluice to ${d.name}`,
        source: 'sluice',
        tags: ['test'],
        customFields: {},
      },
      link: '',
    }
    return send(opened, [item], this.policy)
  }

  async alertDeliveries(accountId: string, alertId: string): Promise<ReturnType<typeof deliveryView>[]> {
    return (await this.store.alertDeliveries(accountId, alertId)).map(deliveryView)
  }

  async destinationDeliveries(
    accountId: string,
    id: string,
    limit: number,
  ): Promise<ReturnType<typeof deliveryView>[]> {
    await this.stored(accountId, id)
    return (await this.store.destinationDeliveries(accountId, id, limit)).map(deliveryView)
  }

  /** Deliveries per hour over the last `hours` (the current one last), in all and per destination. */
  async volume(accountId: string, hours: number) {
    const counted = await this.store.volume(accountId, hours, Date.now())
    return counted.map(({ at, destinations }) => {
      const total = { delivered: 0, failed: 0, dead: 0 }
      for (const c of Object.values(destinations)) {
        total.delivered += c.delivered
        total.failed += c.failed
        total.dead += c.dead
      }
      return { at: new Date(at).toISOString(), total, destinations }
    })
  }

  async deadLetter(accountId: string, limit: number): Promise<ReturnType<typeof deliveryView>[]> {
    return (await this.store.dead(accountId, limit)).map(deliveryView)
  }

  async retry(accountId: string, deliveryId: string): Promise<ReturnType<typeof deliveryView>> {
    const now = Date.now()
    const ok = await this.store.requeue(accountId, deliveryId, now, now + this.giveUpMs, this.retentionMs)
    const d = await this.store.delivery(accountId, deliveryId)
    if (!d) throw new Refusal('NOT_FOUND', 'no such delivery')
    if (!ok) throw new Refusal('CONFLICT', `the delivery is ${d.status}, not in the dead letter`)
    return deliveryView(d)
  }

  /**
   * The stored form of an input, every field checked (400 naming it), URLs against the outbound policy; then, only
   * for an input without a problem, a missing SLUICE_SECRETS_KEY when a secret must be sealed (409).
   */
  private async build(
    id: string,
    input: DestinationInput,
    old: StoredDestination | undefined,
    now: number,
    signingSecret?: string,
  ): Promise<StoredDestination> {
    const problems: FieldProblem[] = []
    let keyMissing = false
    const seal = (plain: string): string => {
      if (this.box.available) return this.box.seal(plain)
      keyMissing = true
      return ''
    }
    const name = input.name.trim()
    if (!name || name.length > NOTIFY_LIMITS.maxNameChars)
      problems.push({ field: 'name', problem: `must be 1 to ${NOTIFY_LIMITS.maxNameChars} characters` })
    const events = [...new Set(input.events ?? DEFAULT_EVENTS)]
    if (events.length === 0)
      problems.push({ field: 'events', problem: `must name at least one of ${NOTIFY_EVENTS.join(', ')}` })
    const limits = { ...DEFAULT_LIMITS[input.kind], ...input.limits }
    if (input.delay !== undefined && !dampingDelayMs(input.delay))
      problems.push({ field: 'delay', problem: 'must be a duration from "10s" to "1h" (s, m or h)' })
    if (input.kind === 'pagerduty' && limits.maxDigest !== 1)
      problems.push({ field: 'limits.maxDigest', problem: 'must be 1 for PagerDuty (one event per alert)' })
    const s = input.settings
    const str = (field: string, required = true): string | undefined => {
      const v = s[field]
      if (v === undefined && !required) return undefined
      if (typeof v !== 'string' || v.length === 0 || v.length > 2048 || !v.isWellFormed()) {
        problems.push({ field: `settings.${field}`, problem: 'must be text of 1 to 2048 characters' })
        return undefined
      }
      return v
    }
    const url = async (field: string, given: string | undefined): Promise<void> => {
      if (given === undefined) return
      try {
        await checkUrl(given, this.policy)
      } catch (err) {
        if (!(err instanceof OutboundError)) throw err
        problems.push({ field: `settings.${field}`, problem: err.message })
      }
    }
    const known = (fields: readonly string[]) => {
      for (const k of Object.keys(s))
        if (!fields.includes(k))
          problems.push({ field: `settings.${k}`, problem: `is not a setting of a ${input.kind} destination` })
    }
    const common = {
      id,
      name,
      enabled: input.enabled ?? true,
      events,
      ...(input.repeatAfterMinutes !== undefined ? { repeatAfterMinutes: input.repeatAfterMinutes } : {}),
      ...(input.delay !== undefined ? { delay: input.delay } : {}),
      limits,
      createdAt: old?.createdAt ?? now,
      updatedAt: now,
    }
    let d: StoredDestination | undefined
    switch (input.kind) {
      case 'webhook': {
        known(['url', 'headers', 'bodyTemplate', 'contentType'])
        const u = str('url')
        await url('url', u)
        const contentType = str('contentType', false) ?? 'application/json'
        const typeProblem = headerProblem('content-type', contentType)
        if (typeProblem) problems.push({ field: 'settings.contentType', problem: typeProblem })
        const bodyTemplate = s['bodyTemplate']
        if (bodyTemplate !== undefined) {
          if (typeof bodyTemplate !== 'string' || bodyTemplate.length > NOTIFY_LIMITS.maxTemplateChars)
            problems.push({
              field: 'settings.bodyTemplate',
              problem: `must be a template of at most ${NOTIFY_LIMITS.maxTemplateChars} characters`,
            })
          else {
            const checked = checkTemplate(bodyTemplate, TEMPLATE_ROOTS)
            if (typeof checked === 'string') problems.push({ field: 'settings.bodyTemplate', problem: checked })
          }
        }
        const headers = s['headers']
        let sealedHeaders: Record<string, string> | undefined
        if (headers !== undefined) {
          if (
            headers === null ||
            typeof headers !== 'object' ||
            Array.isArray(headers) ||
            Object.keys(headers).length > NOTIFY_LIMITS.maxHeaders
          )
            problems.push({
              field: 'settings.headers',
              problem: `must be an object of at most ${NOTIFY_LIMITS.maxHeaders} headers`,
            })
          else {
            sealedHeaders = {}
            const oldHeaders = old?.kind === 'webhook' ? (old.settings.headers ?? {}) : {}
            for (const [k, v] of Object.entries(headers as Record<string, unknown>)) {
              const field = `settings.headers.${k}`
              if (!HEADER_NAME.test(k) || headerProblem(k, '') || RESERVED_HEADERS.has(k.toLowerCase()))
                problems.push({
                  field: `settings.headers.${JSON.stringify(k.slice(0, 64)).slice(1, -1)}`,
                  problem: 'is not a header Sluice lets you set',
                })
              else if (v === null && oldHeaders[k]) {
                // A value stored before values were checked (an earlier version) is not kept unchecked.
                const stored = this.box.open(oldHeaders[k])
                const problem = stored === undefined ? undefined : headerProblem(k, stored)
                if (problem) problems.push({ field, problem: `is stored with a value that ${problem}: give a new one` })
                else sealedHeaders[k] = oldHeaders[k]
              } else if (typeof v !== 'string' || v.length > 4096)
                problems.push({
                  field,
                  problem: 'must be text of at most 4096 characters (null keeps the stored value)',
                })
              else {
                const problem = headerProblem(k, v)
                if (problem) problems.push({ field, problem })
                else sealedHeaders[k] = seal(v)
              }
            }
          }
        }
        const secret = signingSecret ?? (old?.kind === 'webhook' ? old.settings.signingSecret : undefined)
        if (u && secret)
          d = {
            ...common,
            kind: 'webhook',
            settings: {
              url: u,
              contentType,
              ...(sealedHeaders ? { headers: sealedHeaders } : {}),
              ...(typeof bodyTemplate === 'string' ? { bodyTemplate } : {}),
              signingSecret: signingSecret ? seal(signingSecret) : secret,
            },
          }
        break
      }
      case 'slack': {
        known(['url'])
        // On a change, a url left out keeps the stored one (it is the secret).
        const given = str('url', old === undefined)
        await url('url', given)
        if (given && !problems.length)
          d = { ...common, kind: 'slack', settings: { url: seal(given), urlHint: urlHint(given) } }
        else if (!given && old?.kind === 'slack') d = { ...common, kind: 'slack', settings: old.settings }
        break
      }
      case 'pagerduty': {
        known(['routingKey', 'url'])
        // On a change, a routingKey left out keeps the stored one.
        const key = str('routingKey', old === undefined)
        const u = str('url', false) ?? PAGERDUTY_EVENTS_URL
        await url('url', u)
        const routingKey = key ? seal(key) : old?.kind === 'pagerduty' ? old.settings.routingKey : undefined
        const hint = key ? secretHint(key) : old?.kind === 'pagerduty' ? old.settings.routingKeyHint : ''
        if (routingKey) d = { ...common, kind: 'pagerduty', settings: { routingKey, routingKeyHint: hint, url: u } }
        break
      }
      case 'email': {
        known(['host', 'port', 'security', 'username', 'password', 'from', 'to'])
        const host = str('host')
        const port = s['port'] ?? 587
        if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
          problems.push({ field: 'settings.port', problem: 'must be a port number' })
        const security = (s['security'] ?? 'starttls') as EmailSecurity
        if (!['tls', 'starttls', 'none'].includes(security))
          problems.push({ field: 'settings.security', problem: 'must be tls, starttls or none' })
        if (host) {
          try {
            await checkHost(host, this.policy)
          } catch (err) {
            if (!(err instanceof OutboundError)) throw err
            problems.push({ field: 'settings.host', problem: err.message })
          }
        }
        const username = str('username', false)
        const password = s['password']
        if (password !== undefined && password !== null && (typeof password !== 'string' || password.length > 1024))
          problems.push({ field: 'settings.password', problem: 'must be text of at most 1024 characters' })
        const from = str('from')
        if (from && !EMAIL.test(from)) problems.push({ field: 'settings.from', problem: 'must be an email address' })
        const to = s['to']
        if (!Array.isArray(to) || to.length === 0 || to.length > NOTIFY_LIMITS.maxRecipients)
          problems.push({
            field: 'settings.to',
            problem: `must be a list of 1 to ${NOTIFY_LIMITS.maxRecipients} addresses`,
          })
        else
          to.forEach((a, i) => {
            if (typeof a !== 'string' || !EMAIL.test(a))
              problems.push({ field: `settings.to[${i}]`, problem: 'must be an email address' })
          })
        const sealedPassword =
          typeof password === 'string'
            ? seal(password)
            : password === undefined && old?.kind === 'email'
              ? old.settings.password
              : undefined
        if (host && from && Array.isArray(to))
          d = {
            ...common,
            kind: 'email',
            settings: {
              host,
              port: port as number,
              security,
              ...(username ? { username } : {}),
              ...(sealedPassword ? { password: sealedPassword } : {}),
              from,
              to: to as string[],
            },
          }
        break
      }
      default:
        problems.push({ field: 'kind', problem: `must be one of ${DESTINATION_KINDS.join(', ')}` })
    }
    if (problems.length > 0 || !d)
      throw invalid(
        problems.length ? problems : [{ field: 'settings', problem: 'is incomplete' }],
        'the destination was not saved',
      )
    if (keyMissing) throw new Refusal('CONFLICT', 'notification secrets need SLUICE_SECRETS_KEY, which is not set')
    return d
  }
}

function urlHint(raw: string): string {
  const u = new URL(raw)
  return `${u.protocol}//${u.host}/…${u.pathname.slice(-4)}`
}

function view(d: StoredDestination): DestinationView {
  let settings: Record<string, unknown>
  switch (d.kind) {
    case 'webhook':
      settings = {
        url: d.settings.url,
        contentType: d.settings.contentType,
        headers: Object.keys(d.settings.headers ?? {}),
        ...(d.settings.bodyTemplate !== undefined ? { bodyTemplate: d.settings.bodyTemplate } : {}),
      }
      break
    case 'slack':
      settings = { urlHint: d.settings.urlHint }
      break
    case 'pagerduty':
      settings = { routingKeyHint: d.settings.routingKeyHint, url: d.settings.url }
      break
    case 'email': {
      const { password, ...rest } = d.settings
      settings = { ...rest, hasPassword: password !== undefined }
      break
    }
  }
  return {
    id: d.id,
    name: d.name,
    kind: d.kind,
    enabled: d.enabled,
    events: d.events,
    ...(d.repeatAfterMinutes !== undefined ? { repeatAfterMinutes: d.repeatAfterMinutes } : {}),
    ...(d.delay !== undefined ? { delay: d.delay } : {}),
    limits: d.limits,
    settings,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
  }
}

export function deliveryView(d: Delivery) {
  return {
    id: d.id,
    destinationId: d.data.destinationId,
    alertId: d.data.alertId,
    event: d.data.event,
    status: d.status,
    attempts: d.attempts,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAt) : null,
    giveUpAt: iso(d.giveUpAt),
    deliveredAt: d.deliveredAt ? iso(d.deliveredAt) : null,
    lastStatus: d.lastStatus ?? null,
    lastError: d.lastError ?? null,
    log: d.log.map((a) => ({ ...a, at: iso(a.at) })),
    alert: d.data.alert,
  }
}
