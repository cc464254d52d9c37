// Sender authentication of an integration as a use case: set it up (one secret, generated unless the
// sender made its own, as PagerDuty does), add a second secret to rotate without a gap, retire one,
// turn it off, and read it back without any secret. A secret is in an answer once, when it is made.
// Bearer tokens and passwords are kept as SHA-256 hashes, as API keys are; an HMAC secret must be read
// back to check signatures, so it is sealed with the settings' secrets key (shared/secret-box.ts).
import { randomBytes, randomUUID } from 'node:crypto'
import type { SecretBox } from '../shared/secret-box.js'
import {
  DEFAULT_TOLERANCE_SECONDS,
  HMAC_PRESETS,
  MAX_SECRETS,
  SENDER_AUTH_SCHEMES,
  PRESET_HEADERS,
  type SenderAuth,
  type StoredSecret,
} from '../state/redis/sender-auth.js'
import { invalid, Refusal, type FieldProblem } from '../shared/errors.js'
import type { AuthStats, IntegrationRecord, IntegrationStore } from '../state/redis/integrations.js'
import { hashKey } from '../state/redis/tenancy.js'

export const MIN_TOLERANCE_SECONDS = 30
export const MAX_TOLERANCE_SECONDS = 3600
export const MIN_SECRET_CHARS = 16
export const MAX_SECRET_CHARS = 512
/** Header names a sender may choose (Grafana's hmacConfig lets it name both). */
const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/
/** Printable ASCII without spaces: what every scheme's secret can carry through a header or a config file. */
const SECRET_TEXT = /^[\x21-\x7e]+$/

/** The settings as stored, and the secret to use (generated when absent). */
export type SenderAuthInput = Omit<SenderAuth, 'secrets'> & { readonly secret?: string }

/** What the API shows of a sender authentication: its settings and secrets' ids, never a secret. */
export type SenderAuthView = Omit<SenderAuth, 'secrets'> & {
  readonly secrets: { id: string; createdAt: string; lastUsedAt: string | null }[]
  readonly failures: { count: number; lastAt: string | null; lastReason: string | null }
}

/** A secret as shown once. */
export interface NewSecret {
  readonly id: string
  readonly value: string
}

export class SenderAuthService {
  constructor(
    private readonly integrations: IntegrationStore,
    private readonly secretBox: SecretBox,
  ) {}

  async view(accountId: string, id: string): Promise<SenderAuthView | null> {
    const record = await this.record(accountId, id)
    if (!record.senderAuth) return null
    return viewOf(record.senderAuth, await this.integrations.authStats(record.id))
  }

  /** Sets up (or replaces) the sender authentication with one secret, shown in the answer only. */
  async set(
    accountId: string,
    id: string,
    input: SenderAuthInput,
  ): Promise<{ view: SenderAuthView; secret: NewSecret }> {
    const settings = checkSettings(input)
    const secret = this.newSecret(settings, input.secret)
    const record = await this.integrations.setSenderAuth(accountId, id, () => ({
      ...settings,
      secrets: [secret.stored],
    }))
    return { view: await this.viewOf(found(record)), secret: secret.shown }
  }

  /** A second secret beside the current one: the sender can be moved to it, then the old one retired. */
  async addSecret(accountId: string, id: string, value?: string): Promise<{ view: SenderAuthView; secret: NewSecret }> {
    const current = (await this.record(accountId, id)).senderAuth
    if (!current) throw new Refusal('CONFLICT', 'the integration has no sender authentication; set it up first')
    const secret = this.newSecret(current, value)
    let full = false
    const record = await this.integrations.setSenderAuth(accountId, id, (auth) => {
      full = false
      if (!auth) return auth
      if (auth.secrets.length >= MAX_SECRETS) {
        full = true
        return auth
      }
      return { ...auth, secrets: [...auth.secrets, secret.stored] }
    })
    if (full)
      throw new Refusal(
        'CONFLICT',
        `the integration already has ${MAX_SECRETS} secrets; retire one (DELETE .../authentication/secrets/<id>) first`,
      )
    return { view: await this.viewOf(found(record)), secret: secret.shown }
  }

  /** Retires a secret; the last one cannot be (turn the authentication off instead). */
  async removeSecret(accountId: string, id: string, secretId: string): Promise<SenderAuthView> {
    let problem: Refusal | undefined
    const record = await this.integrations.setSenderAuth(accountId, id, (auth) => {
      problem = undefined
      if (!auth) problem = new Refusal('NOT_FOUND', 'the integration has no sender authentication')
      else if (!auth.secrets.some((s) => s.id === secretId)) problem = new Refusal('NOT_FOUND', 'no such secret')
      else if (auth.secrets.length === 1)
        problem = new Refusal(
          'CONFLICT',
          'this is the only secret; add another first, or turn sender authentication off (DELETE .../authentication)',
        )
      else return { ...auth, secrets: auth.secrets.filter((s) => s.id !== secretId) }
      return auth
    })
    if (problem) throw problem
    return this.viewOf(found(record))
  }

  /** Turns sender authentication off: the address alone is believed again. */
  async clear(accountId: string, id: string): Promise<void> {
    found(await this.integrations.setSenderAuth(accountId, id, () => undefined))
  }

  private async record(accountId: string, id: string): Promise<IntegrationRecord> {
    return found(await this.integrations.get(accountId, id))
  }

  private async viewOf(record: IntegrationRecord): Promise<SenderAuthView> {
    return viewOf(record.senderAuth!, await this.integrations.authStats(record.id))
  }

  private newSecret(settings: Omit<SenderAuth, 'secrets'>, given: string | undefined) {
    if (given !== undefined) {
      const problem = secretProblem(settings, given)
      if (problem) throw invalid([{ field: 'secret', problem }])
    }
    const value = given ?? generateSecret(settings)
    const id = `sec_${randomUUID().slice(0, 8)}`
    const createdAt = Date.now()
    let stored: StoredSecret
    if (settings.scheme === 'hmac') {
      if (!this.secretBox.available)
        throw new Refusal(
          'CONFLICT',
          'HMAC secrets are kept encrypted, and no secrets key is set: set SLUICE_SECRETS_KEY on every Sluice process',
        )
      stored = { id, createdAt, sealed: this.secretBox.seal(value) }
    } else stored = { id, createdAt, hash: hashKey(value) }
    return { stored, shown: { id, value } }
  }
}

function found(r: IntegrationRecord | undefined): IntegrationRecord {
  if (!r) throw new Refusal('NOT_FOUND', 'no such integration')
  return r
}

/** The settings of an input, each field checked against its scheme. 400 names each bad field. */
function checkSettings(input: SenderAuthInput): Omit<SenderAuth, 'secrets'> {
  const problems: FieldProblem[] = []
  // The HTTP schema checks these too; the command line comes here without it.
  if (!(SENDER_AUTH_SCHEMES as readonly unknown[]).includes(input.scheme))
    throw invalid([{ field: 'scheme', problem: `must be one of ${SENDER_AUTH_SCHEMES.join(', ')}` }])
  if (input.preset !== undefined && !(HMAC_PRESETS as readonly unknown[]).includes(input.preset))
    problems.push({ field: 'preset', problem: `must be one of ${HMAC_PRESETS.join(', ')}` })
  const t = input.toleranceSeconds
  if (t !== undefined && (!Number.isInteger(t) || t < MIN_TOLERANCE_SECONDS || t > MAX_TOLERANCE_SECONDS))
    problems.push({
      field: 'toleranceSeconds',
      problem: `must be a whole number from ${MIN_TOLERANCE_SECONDS} to ${MAX_TOLERANCE_SECONDS}`,
    })
  const notFor = (field: keyof SenderAuthInput, why: string) => {
    if (input[field] !== undefined) problems.push({ field, problem: why })
  }
  if (input.scheme !== 'basic') notFor('username', 'is only for the basic scheme')
  if (input.scheme !== 'hmac')
    for (const f of ['preset', 'signatureHeader', 'timestampHeader', 'toleranceSeconds'] as const)
      notFor(f, 'is only for the hmac scheme')
  let settings: Omit<SenderAuth, 'secrets'> = { scheme: input.scheme }
  if (input.scheme === 'basic') {
    const u = input.username
    if (typeof u !== 'string' || u.length === 0 || u.length > 128 || !/^[\x21-\x39\x3b-\x7e]+$/.test(u))
      problems.push({ field: 'username', problem: 'is required: 1 to 128 printable characters, no spaces and no ":"' })
    else settings = { ...settings, username: u }
  }
  if (input.scheme === 'hmac') {
    const preset = input.preset ?? 'grafana'
    if (preset !== 'grafana') {
      notFor('signatureHeader', "can be chosen with the grafana preset only (the others' headers are fixed)")
      notFor('timestampHeader', "can be chosen with the grafana preset only (the others' headers are fixed)")
    }
    if (preset === 'github') notFor('toleranceSeconds', 'does not apply: GitHub-style signatures carry no timestamp')
    for (const f of ['signatureHeader', 'timestampHeader'] as const) {
      const v = input[f]
      if (v !== undefined && !HEADER_NAME.test(v))
        problems.push({ field: f, problem: 'must be a header name (letters, digits and "-", at most 64)' })
    }
    const tolerance = input.toleranceSeconds ?? (preset === 'github' ? undefined : DEFAULT_TOLERANCE_SECONDS)
    settings = {
      ...settings,
      preset,
      ...(preset === 'grafana'
        ? {
            signatureHeader: (input.signatureHeader ?? PRESET_HEADERS.grafana.signature).toLowerCase(),
            timestampHeader: (input.timestampHeader ?? PRESET_HEADERS.grafana.timestamp!).toLowerCase(),
          }
        : {}),
      ...(tolerance !== undefined ? { toleranceSeconds: tolerance } : {}),
    }
  }
  if (problems.length > 0) throw invalid(problems)
  return settings
}

function secretProblem(settings: Omit<SenderAuth, 'secrets'>, value: string): string | undefined {
  if (value.length < MIN_SECRET_CHARS || value.length > MAX_SECRET_CHARS || !SECRET_TEXT.test(value))
    return `must be ${MIN_SECRET_CHARS} to ${MAX_SECRET_CHARS} printable characters without spaces (or left out: Sluice makes one)`
  if (settings.preset === 'standard-webhooks' && value.startsWith('whsec_')) {
    const key = Buffer.from(value.slice(6), 'base64')
    if (key.length < 24 || key.toString('base64').replace(/=+$/, '') !== value.slice(6).replace(/=+$/, ''))
      return 'a whsec_ secret must be base64 of at least 24 bytes'
  }
  return undefined
}

function generateSecret(settings: Omit<SenderAuth, 'secrets'>): string {
  if (settings.preset === 'standard-webhooks') return `whsec_${randomBytes(32).toString('base64')}`
  return randomBytes(32).toString('base64url')
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString())

function viewOf(auth: SenderAuth, stats: AuthStats): SenderAuthView {
  const { secrets, ...settings } = auth
  return {
    ...settings,
    secrets: secrets.map((s) => ({
      id: s.id,
      createdAt: new Date(s.createdAt).toISOString(),
      lastUsedAt: iso(stats.lastUsedAt[s.id]),
    })),
    failures: { count: stats.failures, lastAt: iso(stats.lastFailureAt), lastReason: stats.lastFailureReason },
  }
}
