// Acknowledging and resolving an incident where its page arrived: a Slack message's buttons (an interaction request,
// signed by the account's Slack app, from a Slack member who is one of the account's responders) and an email's links
// (signed by Sluice, bound to the incident and the responder, expiring, used once). Acting on a resolved incident, or
// on one of another account, says so and changes nothing. pipeline/oncall/page-actions.ts checks the signatures.
import { createHash, randomBytes } from 'node:crypto'
import {
  LINK_TTL_MS,
  linkClaims,
  linkToken,
  PAGE_ACTIONS,
  SLACK_ACTION_IDS,
  SLACK_MAX_AGE_S,
  slackButtons,
  slackRefusal,
  type PageAction,
} from '../pipeline/oncall/page-actions.js'
import type { SecretBox } from '../shared/secret-box.js'
import { isActive, type DirectoryStore } from '../state/redis/directory.js'
import type { IncidentRecord, IncidentStore } from '../state/redis/incidents.js'
import type { OnCallStore } from '../state/redis/oncall.js'

const LINK_PURPOSE = 'incident action link'
const DONE: Record<PageAction, string> = { acknowledge: 'acknowledged', resolve: 'resolved' }

export interface PageActionsDeps {
  readonly oncall: OnCallStore
  readonly incidents: IncidentStore
  readonly directory: DirectoryStore
  readonly secrets: SecretBox
  /** Entries kept per alert stream (an acknowledge or resolve writes one per alert). */
  readonly streamMaxLen: number
  /** The address Sluice is reached at (links are made with it). */
  readonly publicBaseUrl: () => string
}

/** Slack's answer to an interaction: the message (replacing the page, or seen only by the member), and its status. */
export interface SlackAnswer {
  readonly status: number
  readonly message: {
    readonly text: string
    readonly replace_original?: boolean
    readonly response_type?: 'ephemeral'
    readonly blocks?: readonly unknown[]
  }
  /** Where Slack takes the updated message (the interaction's response_url), when it was Slack's. */
  readonly responseUrl?: string
}

/** What a link says, before it is used: the incident and the action, or why it cannot be used. */
export type LinkView =
  | { readonly ok: true; readonly action: PageAction; readonly incident: IncidentRecord }
  | { readonly ok: false; readonly status: number; readonly problem: string }

const ephemeral = (status: number, text: string): SlackAnswer => ({
  status,
  message: { text, response_type: 'ephemeral', replace_original: false },
})

export class PageActions {
  constructor(private readonly deps: PageActionsDeps) {}

  /** Sets (or, with null, removes) the signing secret of the account's Slack app, sealed. */
  async setSlackSigningSecret(accountId: string, secret: string | null): Promise<void> {
    await this.deps.oncall.setSlackSigningSecret(
      accountId,
      secret === null ? undefined : this.deps.secrets.seal(secret),
    )
  }

  async slackAppSet(accountId: string): Promise<boolean> {
    return (await this.deps.oncall.slackSigningSecret(accountId)) !== undefined
  }

  /** Handles a Slack interaction request of the account's app: its body as sent, its two signature headers. */
  async slack(
    accountId: string,
    headers: { timestamp?: string; signature?: string },
    body: string,
    now: number,
    admit: () => Promise<void>,
  ): Promise<SlackAnswer> {
    const sealed = await this.deps.oncall.slackSigningSecret(accountId)
    const secret = sealed === undefined ? undefined : this.deps.secrets.open(sealed)
    // An account without a Slack app answers as a wrong signature does: no oracle of which accounts have one.
    if (secret === undefined) return ephemeral(401, 'not signed by this account’s Slack app')
    const refused = slackRefusal(secret, headers.timestamp, headers.signature, body, Math.floor(now / 1000))
    if (refused) return ephemeral(401, refused)
    // Rated once it is Slack's: a stranger's requests cannot spend the account's budget.
    await admit()
    let payload: unknown
    try {
      payload = JSON.parse(new URLSearchParams(body).get('payload') ?? '')
    } catch {
      return ephemeral(400, 'the request has no payload (JSON) field')
    }
    const field = (o: unknown, k: string): unknown =>
      typeof o === 'object' && o !== null && Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined
    const url = field(payload, 'response_url')
    const responseUrl = typeof url === 'string' ? url : undefined
    const answer = (a: SlackAnswer): SlackAnswer => (responseUrl ? { ...a, responseUrl } : a)
    const clicked: unknown = (field(payload, 'actions') as unknown[] | undefined)?.[0]
    const actionId = String(field(clicked, 'action_id'))
    // Own keys only: an action_id of "constructor" is no action.
    const action = Object.hasOwn(SLACK_ACTION_IDS, actionId) ? SLACK_ACTION_IDS[actionId] : undefined
    const incidentId = field(clicked, 'value')
    const memberId = field(field(payload, 'user'), 'id')
    if (!action || typeof incidentId !== 'string' || incidentId.length > 100 || typeof memberId !== 'string')
      return ephemeral(400, 'not a button of a Sluice page (sluice_acknowledge or sluice_resolve, with an incident id)')
    // A signed request seen before within its 5 minutes: a replay, not a click.
    const seen = createHash('sha256').update(headers.signature!).digest('hex')
    if (!(await this.deps.oncall.firstUse(accountId, `slack:${seen}`, 2 * SLACK_MAX_AGE_S * 1000)))
      return ephemeral(409, 'this request was already handled (a replay)')
    const responder = await this.deps.oncall.responderBySlackMember(accountId, memberId)
    if (!responder)
      return answer(
        ephemeral(
          200,
          `Slack member ${memberId} is not a responder of this account: add it to your contact methods in Sluice`,
        ),
      )
    const done = await this.act(accountId, incidentId, action, responder.userId)
    if (typeof done === 'string') return answer(ephemeral(200, done))
    const who = await this.name(accountId, responder.userId)
    const text = `${DONE[action][0]!.toUpperCase()}${DONE[action].slice(1)} by ${who}: ${done.title}`.replace(
      /[&<>]/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!,
    )
    return answer({
      status: 200,
      message: {
        replace_original: true,
        text,
        blocks: [
          { type: 'section', text: { type: 'plain_text', text: text.slice(0, 2900) } },
          ...(done.status === 'acknowledged' ? [slackButtons(done.id, ['resolve'])] : []),
        ],
      },
    })
  }

  /** The acknowledge and resolve links of an email page to a responder. */
  emailLinks(accountId: string, incidentId: string, userId: string, now: number): Record<PageAction, string> {
    const links = {} as Record<PageAction, string>
    for (const action of PAGE_ACTIONS) {
      const claims = {
        accountId,
        incidentId,
        userId,
        action,
        expiresAt: now + LINK_TTL_MS,
        nonce: randomBytes(12).toString('base64url'),
      }
      const token = linkToken(claims, (data) => this.deps.secrets.mac(LINK_PURPOSE, data))
      links[action] = `${this.deps.publicBaseUrl()}/api/v1/oncall/act/${token}`
    }
    return links
  }

  /** What a link would do (nothing is changed: mail scanners open links). */
  async link(token: string, now: number): Promise<LinkView> {
    const claims = linkClaims(token, (data, mac) => this.deps.secrets.verifyMac(LINK_PURPOSE, data, mac))
    if (typeof claims === 'string') return { ok: false, status: 403, problem: claims }
    if (claims.expiresAt < now) return { ok: false, status: 403, problem: 'this link has expired' }
    const incident = await this.deps.incidents.get(claims.accountId, claims.incidentId)
    if (!incident) return { ok: false, status: 404, problem: 'no such incident' }
    return { ok: true, action: claims.action, incident }
  }

  /** Uses a link, once: acts on its incident as its responder. */
  async useLink(
    token: string,
    now: number,
    admit: (accountId: string) => Promise<void>,
  ): Promise<{ status: number; text: string }> {
    const claims = linkClaims(token, (data, mac) => this.deps.secrets.verifyMac(LINK_PURPOSE, data, mac))
    if (typeof claims === 'string') return { status: 403, text: claims }
    if (claims.expiresAt < now) return { status: 403, text: 'this link has expired' }
    await admit(claims.accountId)
    if (!(await this.deps.oncall.firstUse(claims.accountId, `link:${claims.nonce}`, LINK_TTL_MS * 2)))
      return { status: 409, text: 'this link was used already' }
    const done = await this.act(claims.accountId, claims.incidentId, claims.action, claims.userId)
    if (typeof done === 'string') return { status: 409, text: done }
    const who = await this.name(claims.accountId, claims.userId)
    return { status: 200, text: `${DONE[claims.action]} by ${who}: ${done.title}` }
  }

  /** Acts on an incident as a responder: the incident after, or what stopped it (nothing changed). */
  private async act(
    accountId: string,
    incidentId: string,
    action: PageAction,
    userId: string,
  ): Promise<IncidentRecord | string> {
    const [user] = await this.deps.directory.usersById(accountId, [userId])
    if (!user || !isActive(user)) return 'you are no longer an active user of this account: nothing changed'
    const outcome = await this.deps.incidents.act(
      accountId,
      incidentId,
      action,
      `user:${userId}`,
      this.deps.streamMaxLen,
    )
    if (outcome.kind === 'not_found') return `no incident ${incidentId} in this account`
    if (outcome.kind === 'unchanged')
      return outcome.status === 'resolved'
        ? `the incident is resolved already${outcome.incident.resolvedBy ? ` (by ${outcome.incident.resolvedBy})` : ''}: nothing changed`
        : `the incident is acknowledged already${outcome.incident.acknowledgedBy ? ` (by ${outcome.incident.acknowledgedBy})` : ''}`
    return outcome.incident
  }

  private async name(accountId: string, userId: string): Promise<string> {
    const [user] = await this.deps.directory.usersById(accountId, [userId])
    return user?.displayName ?? user?.userName ?? userId
  }
}
