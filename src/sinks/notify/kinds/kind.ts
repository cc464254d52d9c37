// What a notification kind is, as Alertmanager's notify/<kind>/: one module per kind with its settings (the fields the
// API takes, checked and sealed when saved, shown without secrets, opened to send), its limits, how it renders
// messages and how it sends them. Besides the contract: the checks every kind's settings share, and the HTTP POST with
// its outcome classified (delivered, retry with the receiver's Retry-After, give up) that three kinds send with.
import type { TObject } from 'typebox'
import { Value } from 'typebox/value'
import type { DestinationKind, DestinationLimits, StoredDestination } from '../../../pipeline/notify/destinations.js'
import type { NotifyItem } from '../../../pipeline/notify/messages.js'
import { checkHost, checkUrl, guardedRequest, OutboundError, type OutboundPolicy } from '../../../shared/outbound.js'
import type { SecretBox } from '../../../shared/secret-box.js'
import type { FieldProblem } from '../../../shared/errors.js'

export type SendResult = 'delivered' | 'retry' | 'give-up'

export interface SendOutcome {
  readonly result: SendResult
  /** The receiver's status (HTTP status, SMTP reply code), when it answered. */
  readonly status?: number
  /** Why it was not delivered (bounded). */
  readonly error?: string
  /** How long the receiver asked to wait (Retry-After), in ms. */
  readonly retryAfterMs?: number
}

export type SettingsOf<K extends DestinationKind> = Extract<StoredDestination, { kind: K }>['settings']

export interface NotifyKind<K extends DestinationKind> {
  readonly kind: K
  /**
   * The settings as the API takes them: the fields (any other is refused), their types (checked before the kind's own
   * checks) and what each means (the OpenAPI's words). A secret kept on a change is optional here.
   */
  readonly schema: TObject
  /** Per kind: what its receivers take (Slack about one message a second per webhook, PagerDuty a few). */
  readonly limits: DestinationLimits
  /** Whether one message may carry many events (a digest); PagerDuty takes one event per message. */
  readonly digests: boolean
  /** A secret Sluice makes for a new destination and shows once (a webhook's signing secret). */
  readonly newSecret?: () => string
  /**
   * The stored settings of the ones given, every field checked into `check` (a problem names it); secrets sealed.
   * On a change, `old` holds the stored settings: a secret left out keeps its stored value.
   */
  settings(
    given: Readonly<Record<string, unknown>>,
    check: SettingsCheck,
    old?: SettingsOf<K>,
  ): Promise<SettingsOf<K> | undefined>
  /** The settings as shown: no secret, hints of them only. */
  view(s: SettingsOf<K>): Record<string, unknown>
  /** The settings with their secrets opened (kept in memory only while sending), or why they cannot be. */
  open(s: SettingsOf<K>, box: SecretBox): SettingsOf<K> | string
  /** Sends one message (one event, or a digest of several) with opened settings. May throw: a throw is a retry. */
  send(
    s: SettingsOf<K>,
    items: readonly NotifyItem[],
    policy: OutboundPolicy,
    signal?: AbortSignal,
  ): Promise<SendOutcome>
}

/** A JSON pointer as a field's name after `settings`: /headers/X-Token → .headers.X-Token, /to/0 → .to[0]. */
const fieldPath = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('')

/** Opens the named sealed fields of settings, or says which cannot be opened with this process's key. */
export function openFields<S>(s: S, fields: readonly (keyof S & string)[], box: SecretBox): S | string {
  const opened = { ...s } as Record<string, unknown>
  for (const field of fields) {
    if (opened[field] === undefined) continue
    const sealed = opened[field]
    if (typeof sealed !== 'string') return `its ${field} is not stored sealed`
    const plain = box.open(sealed)
    if (plain === undefined) return `its ${field} cannot be opened with this process's SLUICE_SECRETS_KEY`
    opened[field] = plain
  }
  return opened as S
}

/**
 * The checks of one destination's settings while it is saved: problems gathered (each naming its field), secrets
 * sealed, and whether one could not be for want of SLUICE_SECRETS_KEY (told only when nothing else is wrong).
 */
export class SettingsCheck {
  readonly problems: FieldProblem[] = []
  keyMissing = false

  constructor(
    private readonly box: SecretBox,
    private readonly policy: OutboundPolicy,
    /** The secret Sluice made for a new destination (NotifyKind.newSecret), to be sealed into its settings. */
    readonly created?: string,
  ) {}

  problem(field: string, problem: string): void {
    this.problems.push({ field, problem })
  }

  /**
   * Checks the settings against the kind's schema: a field it does not name is refused, one of the wrong type is
   * named with what it must be. False when any is wrong (the kind's own checks then add nothing).
   */
  shape(given: Readonly<Record<string, unknown>>, kind: NotifyKind<DestinationKind>): boolean {
    const before = this.problems.length
    for (const e of Value.Errors(kind.schema, given)) {
      if (e.keyword === 'additionalProperties')
        for (const k of e.params.additionalProperties)
          this.problem(`settings.${k}`, `is not a setting of a ${kind.kind} destination`)
      else if (e.keyword !== 'boolean' && e.keyword !== 'anyOf')
        this.problem(`settings${fieldPath(e.instancePath)}`, e.message ?? 'is not valid')
    }
    return this.problems.length === before
  }

  /** A text setting of 1 to 2048 well-formed characters; undefined (and no problem) when optional and absent. */
  text(given: Readonly<Record<string, unknown>>, field: string, required = true): string | undefined {
    const v = given[field]
    if (v === undefined && !required) return undefined
    if (typeof v !== 'string' || v.length === 0 || v.length > 2048 || !v.isWellFormed()) {
      this.problem(`settings.${field}`, 'must be text of 1 to 2048 characters')
      return undefined
    }
    return v
  }

  /** A URL Sluice may send to under the outbound policy. */
  async url(field: string, given: string | undefined): Promise<void> {
    if (given !== undefined) await this.outbound(field, () => checkUrl(given, this.policy))
  }

  /** A host Sluice may connect to under the outbound policy. */
  async host(field: string, given: string | undefined): Promise<void> {
    if (given !== undefined) await this.outbound(field, () => checkHost(given, this.policy))
  }

  seal(plain: string): string {
    if (this.box.available) return this.box.seal(plain)
    this.keyMissing = true
    return ''
  }

  open(sealed: string): string | undefined {
    return this.box.open(sealed)
  }

  private async outbound(field: string, check: () => Promise<unknown>): Promise<void> {
    try {
      await check()
    } catch (err) {
      if (!(err instanceof OutboundError)) throw err
      this.problem(`settings.${field}`, err.message)
    }
  }
}

const USER_AGENT = 'Sluice-Notify/1'
const ERROR_CHARS = 300

/** A receiver's words, bounded. */
export const cutError = (text: string) => (text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS)}…` : text)

/** Retry-After as ms: seconds or an HTTP date; undefined when absent or unreadable. Bounded to a day. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (!value) return undefined
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) * 1000 : Date.parse(value) - now
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 86_400_000) : undefined
}

/**
 * POSTs a body through the outbound guard (public addresses only, checked on the address connected to; no redirects;
 * bounded time and answer) and classifies what the receiver answered.
 */
export async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<SendOutcome> {
  let answer
  try {
    answer = await guardedRequest(url, policy, {
      method: 'POST',
      headers: { ...headers, 'user-agent': USER_AGENT },
      body,
      signal,
    })
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    // What the guard refuses (an address not public, a header no request can carry) stays refused: no retry helps.
    const refused = err instanceof OutboundError && err.refused
    return { result: refused ? 'give-up' : 'retry', error: cutError(message) }
  }
  const status = answer.status
  if (status >= 200 && status < 300) return { result: 'delivered', status }
  const text = cutError(answer.body.toString('utf8').replace(/\s+/g, ' ').trim())
  const after = retryAfterMs(answer.headers['retry-after'])
  if (status === 429 || status === 408 || status >= 500)
    return { result: 'retry', status, error: `answered ${status}${text ? `: ${text}` : ''}`, retryAfterMs: after }
  if (status >= 300 && status < 400)
    return { result: 'give-up', status, error: `answered a redirect (${status}); redirects are not followed` }
  return { result: 'give-up', status, error: `answered ${status}${text ? `: ${text}` : ''}` }
}
