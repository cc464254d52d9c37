// Acting on an incident from where its page arrived. Slack: an interaction request is Slack's if its X-Slack-Signature
// is `v0=` and the hex HMAC-SHA256, under the Slack app's signing secret, of `v0:<X-Slack-Request-Timestamp>:<body as
// sent>`, and its timestamp within 5 minutes of now (Slack's "Verifying requests from Slack"). Email: a link carries
// its action, incident, responder and expiry, and Sluice's MAC of them (shared/secret-box.ts); it is used once.
import { createHmac, timingSafeEqual } from 'node:crypto'

/** How far a Slack request's timestamp may be from now (Slack's advice). */
export const SLACK_MAX_AGE_S = 5 * 60
/** How long an email's links work. */
export const LINK_TTL_MS = 24 * 3_600_000
export const PAGE_ACTIONS = ['acknowledge', 'resolve'] as const
export type PageAction = (typeof PAGE_ACTIONS)[number]
/** The action_id of each button of a Slack page. */
export const SLACK_ACTION_IDS: Readonly<Record<string, PageAction>> = {
  sluice_acknowledge: 'acknowledge',
  sluice_resolve: 'resolve',
}

/** Slack's signature of a request body sent at `timestamp` (seconds, as its header has it). */
export function slackSignature(signingSecret: string, timestamp: string, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`
}

/** Why a Slack request is not Slack's (undefined: it is), its signature compared in constant time. */
export function slackRefusal(
  signingSecret: string,
  timestamp: string | undefined,
  signature: string | undefined,
  body: string,
  nowS: number,
): string | undefined {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return 'X-Slack-Request-Timestamp is missing or not a Unix time'
  if (Math.abs(nowS - Number(timestamp)) > SLACK_MAX_AGE_S)
    return 'X-Slack-Request-Timestamp is more than 5 minutes from now (a replay, or a clock far off)'
  if (!signature) return 'X-Slack-Signature is missing'
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, body))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return 'X-Slack-Signature is not the signing secret’s signature of this request'
  return undefined
}

/** What an email link stands for. */
export interface LinkClaims {
  readonly accountId: string
  readonly incidentId: string
  readonly userId: string
  readonly action: PageAction
  readonly expiresAt: number
  /** Random: the link's identity, so it is used once. */
  readonly nonce: string
}

/** A link token: its claims as base64url JSON, a dot, and their MAC (made by `mac`). */
export function linkToken(claims: LinkClaims, mac: (data: string) => string): string {
  const body = Buffer.from(
    JSON.stringify([claims.accountId, claims.incidentId, claims.userId, claims.action, claims.expiresAt, claims.nonce]),
  ).toString('base64url')
  return `${body}.${mac(body)}`
}

/** A token's claims when its MAC is Sluice's (`verify`), or why not; expiry is the caller's to check. */
export function linkClaims(token: string, verify: (data: string, mac: string) => boolean): LinkClaims | string {
  const dot = token.indexOf('.')
  if (dot <= 0 || token.length > 1000) return 'not a link of Sluice'
  const body = token.slice(0, dot)
  if (!verify(body, token.slice(dot + 1))) return 'this link was altered, or not made by this Sluice'
  try {
    const [accountId, incidentId, userId, action, expiresAt, nonce] = JSON.parse(
      Buffer.from(body, 'base64url').toString('utf8'),
    ) as unknown[]
    if (
      typeof accountId === 'string' &&
      typeof incidentId === 'string' &&
      typeof userId === 'string' &&
      (action === 'acknowledge' || action === 'resolve') &&
      typeof expiresAt === 'number' &&
      typeof nonce === 'string'
    )
      return { accountId, incidentId, userId, action, expiresAt, nonce }
  } catch {
    // A MAC over what is not JSON: not one Sluice made.
  }
  return 'not a link of Sluice'
}

/** A Slack actions block of a page's buttons for an incident. */
export function slackButtons(incidentId: string, actions: readonly PageAction[] = PAGE_ACTIONS) {
  return {
    type: 'actions',
    block_id: 'sluice_page',
    elements: actions.map((a) => ({
      type: 'button',
      action_id: `sluice_${a}`,
      text: { type: 'plain_text', text: a === 'acknowledge' ? 'Acknowledge' : 'Resolve' },
      value: incidentId,
      ...(a === 'acknowledge' ? { style: 'primary' } : {}),
    })),
  }
}
