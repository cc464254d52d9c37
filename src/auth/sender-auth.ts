// Sender authentication of an integration's webhook address: beyond the secret address, a sender may
// have to prove itself with a bearer token, basic auth, or an HMAC signature of the body. Pure
// functions: what is stored (hashes, sealed HMAC secrets) is resolved by the caller; verify() only
// compares, in constant time, and says why a request failed without echoing what it sent.
// Each scheme holds one or two secrets, so a sender can be moved to a new one without a refused request.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FieldProblem } from '../shared/errors.js'
import { hashKey } from '../state/redis/tenancy.js'
import {
  DEFAULT_TOLERANCE_SECONDS,
  PRESET_HEADERS,
  type HmacPreset,
  type SenderAuth,
} from '../state/redis/sender-auth.js'

/** What a request failed on: said to the sender and counted, never with what it sent. */
export const AUTH_FAILURES = [
  'missing credentials',
  'wrong credentials',
  'missing signature',
  'malformed signature',
  'signature mismatch',
  'missing timestamp',
  'timestamp outside tolerance',
  'secret unavailable',
] as const
export type AuthFailure = (typeof AUTH_FAILURES)[number]

/**
 * messageId: the sender's id of the message (standard-webhooks' webhook-id), signed with it: the key under which a
 * replay is recognized. problem: a header that is not merely wrong but malformed beyond a limit (answered 400).
 */
export type AuthOutcome =
  { ok: true; secretId: string; messageId?: string } | { ok: false; reason: AuthFailure; problem?: FieldProblem }

/** The longest webhook-id taken: ids are remembered per integration, so their size is bounded. */
export const MAX_MESSAGE_ID_CHARS = 256
const MESSAGE_ID = new RegExp(`^[\\x21-\\x7e]{1,${MAX_MESSAGE_ID_CHARS}}$`)

/** A secret ready to compare with: its hash, or the HMAC key bytes (undefined when it could not be unsealed). */
export interface ResolvedSecret {
  readonly id: string
  readonly hash?: Buffer
  readonly key?: Buffer
}

export interface SignedRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  /** The body as received, byte for byte (empty when there is none). */
  readonly body: Buffer
}

/** The HMAC key of a secret as the preset reads it: Standard Webhooks secrets are "whsec_" + base64. */
export function hmacKeyOf(preset: HmacPreset, secret: string): Buffer {
  if (preset === 'standard-webhooks' && secret.startsWith('whsec_')) return Buffer.from(secret.slice(6), 'base64')
  return Buffer.from(secret, 'utf8')
}

/** Whether the header-only schemes can be decided before the body is read. */
export const needsBody = (auth: SenderAuth): boolean => auth.scheme === 'hmac'

const header = (req: SignedRequest, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()]
  return Array.isArray(v) ? v[0] : v
}

/** Constant time in the compared bytes; a length difference answers false (lengths are not secret here). */
function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The secret whose hash is the given one, comparing with every secret (no early exit). */
function matchHash(secrets: readonly ResolvedSecret[], hash: Buffer): string | undefined {
  let found: string | undefined
  for (const s of secrets) if (s.hash && sameBytes(s.hash, hash) && found === undefined) found = s.id
  return found
}

/** Checks a request against the integration's sender authentication. */
export function verifySender(
  auth: SenderAuth,
  secrets: readonly ResolvedSecret[],
  req: SignedRequest,
  nowMs: number,
): AuthOutcome {
  if (auth.scheme === 'bearer') {
    const m = /^Bearer +(\S+) *$/i.exec(header(req, 'authorization') ?? '')
    if (!m) return { ok: false, reason: 'missing credentials' }
    const id = matchHash(secrets, Buffer.from(hashKey(m[1]!), 'hex'))
    return id ? { ok: true, secretId: id } : { ok: false, reason: 'wrong credentials' }
  }
  if (auth.scheme === 'basic') {
    const m = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header(req, 'authorization') ?? '')
    if (!m) return { ok: false, reason: 'missing credentials' }
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) return { ok: false, reason: 'missing credentials' }
    const userOk = sameBytes(
      Buffer.from(hashKey(decoded.slice(0, colon)), 'hex'),
      Buffer.from(hashKey(auth.username ?? ''), 'hex'),
    )
    const id = matchHash(secrets, Buffer.from(hashKey(decoded.slice(colon + 1)), 'hex'))
    return userOk && id ? { ok: true, secretId: id } : { ok: false, reason: 'wrong credentials' }
  }
  return verifyHmac(auth, secrets, req, nowMs)
}

function verifyHmac(auth: SenderAuth, secrets: readonly ResolvedSecret[], req: SignedRequest, nowMs: number) {
  const preset = auth.preset ?? 'grafana'
  const headers = PRESET_HEADERS[preset]
  const signature = header(req, auth.signatureHeader ?? headers.signature)?.trim()
  if (!signature) return fail('missing signature')
  // What is signed, and the signatures the request offers (decoded: compared as bytes).
  let prefix: Buffer
  let offered: Buffer[]
  let messageId: string | undefined
  if (preset === 'github') {
    if (!/^sha256=[0-9a-f]{64}$/i.test(signature)) return fail('malformed signature')
    prefix = Buffer.alloc(0)
    offered = [Buffer.from(signature.slice(7), 'hex')]
  } else {
    const timestamp = header(req, auth.timestampHeader ?? headers.timestamp!)?.trim()
    if (!timestamp) return fail('missing timestamp')
    if (!/^\d{1,12}$/.test(timestamp)) return fail('timestamp outside tolerance')
    const tolerance = auth.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
    if (Math.abs(nowMs / 1000 - Number(timestamp)) > tolerance) return fail('timestamp outside tolerance')
    if (preset === 'grafana') {
      if (!/^[0-9a-f]{64}$/i.test(signature)) return fail('malformed signature')
      prefix = Buffer.from(`${timestamp}:`)
      offered = [Buffer.from(signature, 'hex')]
    } else {
      const id = header(req, headers.id!)
      if (!id) return fail('missing signature')
      if (!MESSAGE_ID.test(id))
        return {
          ok: false as const,
          reason: 'malformed signature' as const,
          problem: {
            field: 'webhook-id',
            problem: `must be 1 to ${MAX_MESSAGE_ID_CHARS} printable ASCII characters without spaces`,
          },
        }
      messageId = id
      prefix = Buffer.from(`${id}.${timestamp}.`)
      // "v1,<base64>" entries separated by spaces; other versions are not ours to check.
      offered = signature
        .split(' ')
        .filter((s) => s.startsWith('v1,'))
        .slice(0, 8)
        .map((s) => Buffer.from(s.slice(3), 'base64'))
      if (offered.length === 0) return fail('malformed signature')
    }
  }
  let unavailable = false
  let found: string | undefined
  for (const s of secrets) {
    if (!s.key) {
      unavailable = true
      continue
    }
    const expected = createHmac('sha256', s.key).update(prefix).update(req.body).digest()
    for (const o of offered) if (sameBytes(expected, o) && found === undefined) found = s.id
  }
  if (found) return { ok: true as const, secretId: found, ...(messageId !== undefined ? { messageId } : {}) }
  return fail(unavailable ? 'secret unavailable' : 'signature mismatch')
}

const fail = (reason: AuthFailure): AuthOutcome => ({ ok: false, reason })
