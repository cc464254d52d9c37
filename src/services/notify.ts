// Notification destinations, the default route and deliveries as use cases: create, change, delete and
// list destinations (every URL and mail host checked against the outbound policy when saved, again
// when sent; secrets sealed, shown once), send a test message, set the default route, read an alert's
// delivery log and the dead letter, and send a dead delivery again.
import { randomUUID } from 'node:crypto'
import {
  DESTINATION_KINDS,
  dampingDelayMs,
  type DestinationKind,
  type DestinationLimits,
  type StoredDestination,
} from '../pipeline/notify/destinations.js'
import { DEFAULT_EVENTS, NOTIFY_EVENTS, type NotifyEvent, type NotifyItem } from '../pipeline/notify/messages.js'
import { invalid, Refusal } from '../shared/errors.js'
import type { OutboundPolicy } from '../shared/outbound.js'
import type { SecretBox } from '../shared/secret-box.js'
import { kindOf, NOTIFY_KINDS } from '../sinks/notify/kinds/index.js'
import { SettingsCheck } from '../sinks/notify/kinds/kind.js'
import { openDestination, send, type SendOutcome } from '../sinks/notify/senders.js'
import type { Delivery, NotifyStore } from '../state/redis/notify.js'

/** Each kind's settings as the API takes them (the OpenAPI shows them). */
export const KIND_SETTINGS = Object.fromEntries(Object.values(NOTIFY_KINDS).map((k) => [k.kind, k.schema]))

export const NOTIFY_LIMITS = {
  maxDestinations: 100,
  maxNameChars: 200,
  maxRouteLength: 20,
} as const

/** A destination as given to the API (secrets in clear; omitted ones keep their stored value on a change). */
export interface DestinationInput {
  readonly name: string
  readonly kind: DestinationKind
  readonly enabled?: boolean
  readonly events?: readonly NotifyEvent[]
  readonly repeatAfterMinutes?: number
  readonly updateAfterMinutes?: number
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
  readonly updateAfterMinutes?: number
  readonly delay?: string
  readonly limits: DestinationLimits
  readonly settings: Record<string, unknown>
  readonly createdAt: string
  readonly updatedAt: string
}

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
    const signingSecret = Object.hasOwn(NOTIFY_KINDS, input.kind) ? kindOf(input.kind).newSecret?.() : undefined
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
    if (!Object.hasOwn(NOTIFY_KINDS, input.kind))
      throw invalid([{ field: 'kind', problem: `must be one of ${DESTINATION_KINDS.join(', ')}` }])
    const kind = kindOf(input.kind)
    const check = new SettingsCheck(this.box, this.policy, signingSecret)
    const name = input.name.trim()
    if (!name || name.length > NOTIFY_LIMITS.maxNameChars)
      check.problem('name', `must be 1 to ${NOTIFY_LIMITS.maxNameChars} characters`)
    const events = [...new Set(input.events ?? DEFAULT_EVENTS)]
    if (events.length === 0) check.problem('events', `must name at least one of ${NOTIFY_EVENTS.join(', ')}`)
    const limits = { ...kind.limits, ...input.limits }
    // Checked here too: the CLI gives a file's JSON as it is.
    for (const [field, max] of [
      ['repeatAfterMinutes', 10_080],
      ['updateAfterMinutes', 1440],
    ] as const) {
      const v = input[field]
      if (v !== undefined && (!Number.isInteger(v) || v < 1 || v > max))
        check.problem(field, `must be a whole number of minutes from 1 to ${max}`)
    }
    if (input.delay !== undefined && !dampingDelayMs(input.delay))
      check.problem('delay', 'must be a duration from "10s" to "1h" (s, m or h)')
    if (!kind.digests && limits.maxDigest !== 1)
      check.problem('limits.maxDigest', `must be 1 for a ${kind.kind} destination (one event per message)`)
    const settings = check.shape(input.settings, kind)
      ? await kind.settings(input.settings, check, old?.settings)
      : undefined
    if (check.problems.length > 0 || !settings)
      throw invalid(
        check.problems.length ? check.problems : [{ field: 'settings', problem: 'is incomplete' }],
        'the destination was not saved',
      )
    if (check.keyMissing)
      throw new Refusal('CONFLICT', 'notification secrets need SLUICE_SECRETS_KEY, which is not set')
    return {
      id,
      name,
      enabled: input.enabled ?? true,
      events,
      ...(input.repeatAfterMinutes !== undefined ? { repeatAfterMinutes: input.repeatAfterMinutes } : {}),
      ...(input.updateAfterMinutes !== undefined ? { updateAfterMinutes: input.updateAfterMinutes } : {}),
      ...(input.delay !== undefined ? { delay: input.delay } : {}),
      limits,
      createdAt: old?.createdAt ?? now,
      updatedAt: now,
      kind: kind.kind,
      settings,
    } as StoredDestination
  }
}

function view(d: StoredDestination): DestinationView {
  return {
    id: d.id,
    name: d.name,
    kind: d.kind,
    enabled: d.enabled,
    events: d.events,
    ...(d.repeatAfterMinutes !== undefined ? { repeatAfterMinutes: d.repeatAfterMinutes } : {}),
    ...(d.updateAfterMinutes !== undefined ? { updateAfterMinutes: d.updateAfterMinutes } : {}),
    ...(d.delay !== undefined ? { delay: d.delay } : {}),
    limits: d.limits,
    settings: kindOf(d.kind).view(d.settings),
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
