// On-call schedules of an account, and the secret addresses of their calendar feeds.
//
// Keys (prefix p, account a):
//   p:schedules:a          hash id -> JSON schedule (its definition, version, who changed it last)
//   p:oncall-feed:<sha256 of the token>   JSON {accountId, scheduleId | userId} (the admin slot: a feed's request
//                          names no account)
//   p:oncall-feeds:a       set of the account's feeds' hashes (at most MAX_FEEDS)
//   p:escalation-policies:a  hash id -> JSON policy (as schedules)
//   p:escalation-default:a the id of the account's default policy ('' or absent: none)
//   p:responders:a         hash user id -> JSON responder profile (contact methods, notification rules)
//   p:responder-slack:a    hash Slack member id -> user id (the profiles' Slack contact methods; field "\n" once
//                          built from every profile, so a click is one lookup, not a read of every profile)
//   p:oncall-slack:a       the account's Slack app signing secret, sealed (SecretBox)
//   p:oncall-used:a:<what> a Slack request's signature or an email link's nonce, once used (expiring)
// Schedules, policies and profiles count against the account's stored bytes (SLUICE_ACCOUNT_STORED_BYTES), as rules
// and plans do.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { ESCALATION_LIMITS, type PolicyDefinition } from '../../pipeline/oncall/escalation.js'
import type { ResponderProfile } from '../../pipeline/oncall/responders.js'
import type { ScheduleDefinition } from '../../pipeline/oncall/schedules.js'
import { RedisState } from './redis-state.js'

/** Schedules one account may keep. */
export const MAX_SCHEDULES = 200
/** Calendar feeds one account may keep (each a secret address someone subscribed to). */
export const MAX_FEEDS = 1000

interface Versioned {
  readonly id: string
  readonly version: number
  readonly updatedAt: number
  readonly updatedBy: string
}
export interface StoredSchedule extends ScheduleDefinition, Versioned {}
export interface StoredPolicy extends PolicyDefinition, Versioned {}
export interface StoredProfile extends ResponderProfile {
  readonly userId: string
  readonly updatedAt: number
}

/** What saveVersioned answers besides the saved object. */
type SaveRefusal = 'missing' | 'stale' | 'full'

/** Whose shifts a calendar feed shows: one schedule's, or one responder's in every schedule of the account. */
export type FeedSubject = { readonly scheduleId: string } | { readonly userId: string }
export type Feed = FeedSubject & { readonly accountId: string }

const feedHash = (token: string) => createHash('sha256').update(token).digest('hex')

/** The field of the Slack member index that says it was built from every profile. */
const BUILT = '\n'
const slackMembers = (p: ResponderProfile): string[] =>
  p.contactMethods.flatMap((m) => (m.kind === 'slack' ? [m.memberId] : []))

export class OnCallStore extends RedisState {
  private schedulesKey = (a: string) => this.ka(a, 'schedules', a)
  private feedKey = (hash: string) => this.k('oncall-feed', hash)
  private policiesKey = (a: string) => this.ka(a, 'escalation-policies', a)
  private defaultKey = (a: string) => this.ka(a, 'escalation-default', a)
  private profilesKey = (a: string) => this.ka(a, 'responders', a)
  private slackKey = (a: string) => this.ka(a, 'oncall-slack', a)
  private slackMembersKey = (a: string) => this.ka(a, 'responder-slack', a)

  async schedules(accountId: string): Promise<StoredSchedule[]> {
    return this.all<StoredSchedule>(this.schedulesKey(accountId))
  }

  async schedule(accountId: string, id: string): Promise<StoredSchedule | undefined> {
    return this.one<StoredSchedule>(this.schedulesKey(accountId), id)
  }

  /**
   * Creates a schedule (id undefined) or replaces one whose version is `expected` (any, when undefined). 'missing':
   * no such schedule; 'stale': changed since `expected`; 'full': the account has MAX_SCHEDULES.
   */
  saveSchedule(
    accountId: string,
    definition: ScheduleDefinition,
    updatedBy: string,
    id?: string,
    expected?: number,
  ): Promise<StoredSchedule | SaveRefusal> {
    return this.saveVersioned(accountId, this.schedulesKey(accountId), 'schedule', MAX_SCHEDULES, definition, {
      updatedBy,
      id,
      expected,
    })
  }

  /** Removes a schedule; false when there was none. */
  removeSchedule(accountId: string, id: string): Promise<boolean> {
    return this.removeVersioned(accountId, this.schedulesKey(accountId), 'schedule', id)
  }

  async policies(accountId: string): Promise<StoredPolicy[]> {
    return this.all<StoredPolicy>(this.policiesKey(accountId))
  }

  async policy(accountId: string, id: string): Promise<StoredPolicy | undefined> {
    return this.one<StoredPolicy>(this.policiesKey(accountId), id)
  }

  /** As saveSchedule, for an escalation policy (at most ESCALATION_LIMITS.policies). */
  savePolicy(
    accountId: string,
    definition: PolicyDefinition,
    updatedBy: string,
    id?: string,
    expected?: number,
  ): Promise<StoredPolicy | SaveRefusal> {
    const key = this.policiesKey(accountId)
    return this.saveVersioned(accountId, key, 'policy', ESCALATION_LIMITS.policies, definition, {
      updatedBy,
      id,
      expected,
    })
  }

  /** Removes a policy (and its being the account's default); false when there was none. */
  async removePolicy(accountId: string, id: string): Promise<boolean> {
    const removed = await this.removeVersioned(accountId, this.policiesKey(accountId), 'policy', id)
    if (removed) await this.scripts.swapIfEqual(this.defaultKey(accountId), id, '')
    return removed
  }

  /** The account's default escalation policy: the one an incident no rule gave a policy follows. */
  async defaultPolicy(accountId: string): Promise<string | undefined> {
    return (await this.redis.get(this.defaultKey(accountId))) || undefined
  }

  async setDefaultPolicy(accountId: string, id: string | undefined): Promise<void> {
    await this.redis.set(this.defaultKey(accountId), id ?? '')
  }

  async profile(accountId: string, userId: string): Promise<StoredProfile | undefined> {
    return this.one<StoredProfile>(this.profilesKey(accountId), userId)
  }

  async profiles(accountId: string, userIds: readonly string[]): Promise<Map<string, StoredProfile>> {
    if (userIds.length === 0) return new Map()
    const json = await this.redis.hmget(this.profilesKey(accountId), ...userIds)
    return new Map(json.flatMap((j, i) => (j ? [[userIds[i]!, JSON.parse(j) as StoredProfile] as const] : [])))
  }

  /** Replaces a responder's contact methods and notification rules. */
  async saveProfile(accountId: string, userId: string, profile: ResponderProfile): Promise<StoredProfile> {
    const key = this.profilesKey(accountId)
    const index = this.slackMembersKey(accountId)
    return this.tx.optimistic<StoredProfile>([key, index, this.bytesKey(accountId)], async (conn) => {
      const next: StoredProfile = { userId, ...profile, updatedAt: Date.now() }
      const text = JSON.stringify(next)
      const { queue } = await this.chargeBytes(
        conn,
        accountId,
        { [`responder:${userId}`]: Buffer.byteLength(text) },
        `the contact methods of ${JSON.stringify(userId)}`,
      )
      const before = await conn.hget(key, userId)
      const members = slackMembers(next)
      const gone = before ? slackMembers(JSON.parse(before) as StoredProfile).filter((m) => !members.includes(m)) : []
      const tx = conn.multi().hset(key, userId, text)
      if (gone.length > 0) tx.hdel(index, ...gone)
      if (members.length > 0) tx.hset(index, Object.fromEntries(members.map((m) => [m, userId])))
      queue(tx)
      return { tx, result: next }
    })
  }

  /** The account's Slack app signing secret, sealed (undefined: none set). */
  async slackSigningSecret(accountId: string): Promise<string | undefined> {
    return (await this.redis.get(this.slackKey(accountId))) ?? undefined
  }

  async setSlackSigningSecret(accountId: string, sealed: string | undefined): Promise<void> {
    if (sealed === undefined) await this.redis.del(this.slackKey(accountId))
    else await this.redis.set(this.slackKey(accountId), sealed)
  }

  /** Whether this is the first use of `what` (a Slack request's signature, a link's nonce) within `ttlMs`. */
  async firstUse(accountId: string, what: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.ka(accountId, 'oncall-used', accountId, what), '1', 'PX', ttlMs, 'NX')) === 'OK'
  }

  /** The responder whose Slack contact method is this member, if any. */
  async responderBySlackMember(accountId: string, memberId: string): Promise<StoredProfile | undefined> {
    const [found, built] = await this.redis.hmget(this.slackMembersKey(accountId), memberId, BUILT)
    const userId = built ? found : await this.buildSlackIndex(accountId, memberId)
    const profile = userId ? await this.profile(accountId, userId) : undefined
    return profile && slackMembers(profile).includes(memberId) ? profile : undefined
  }

  /** Builds the Slack member index from every profile (once: profiles saved before it existed); `memberId`'s user. */
  private async buildSlackIndex(accountId: string, memberId: string): Promise<string | undefined> {
    const key = this.profilesKey(accountId)
    const index = this.slackMembersKey(accountId)
    return this.tx.optimistic<string | undefined>([key, index], async (conn) => {
      const pairs: Record<string, string> = { [BUILT]: '1' }
      for (const json of Object.values(await conn.hgetall(key))) {
        const p = JSON.parse(json) as StoredProfile
        for (const m of slackMembers(p)) pairs[m] = p.userId
      }
      return {
        tx: conn.multi().del(index).hset(index, pairs),
        result: Object.hasOwn(pairs, memberId) ? pairs[memberId] : undefined,
      }
    })
  }

  private async all<T extends { name: string }>(key: string): Promise<T[]> {
    const all = Object.values(await this.redis.hgetall(key))
    return all.map((json) => JSON.parse(json) as T).sort((a, b) => a.name.localeCompare(b.name))
  }

  private async one<T>(key: string, id: string): Promise<T | undefined> {
    const json = await this.redis.hget(key, id)
    return json ? (JSON.parse(json) as T) : undefined
  }

  /** Creates (id undefined) or replaces an object of a hash of versioned objects, counted in the account's bytes. */
  private async saveVersioned<D extends { name: string }>(
    accountId: string,
    key: string,
    kind: string,
    max: number,
    definition: D,
    { updatedBy, id, expected }: { updatedBy: string; id: string | undefined; expected: number | undefined },
  ): Promise<(D & Versioned) | SaveRefusal> {
    return this.tx.optimistic<(D & Versioned) | SaveRefusal>([key, this.bytesKey(accountId)], async (conn) => {
      const before = id === undefined ? undefined : await conn.hget(key, id)
      if (id !== undefined && !before) return { done: 'missing' }
      if (id === undefined && (await conn.hlen(key)) >= max) return { done: 'full' }
      const version = before ? (JSON.parse(before) as Versioned).version : 0
      if (expected !== undefined && expected !== version) return { done: 'stale' }
      const next = { id: id ?? randomUUID(), ...definition, version: version + 1, updatedAt: Date.now(), updatedBy }
      const text = JSON.stringify(next)
      const { queue } = await this.chargeBytes(
        conn,
        accountId,
        { [`${kind}:${next.id}`]: Buffer.byteLength(text) },
        `${kind} ${JSON.stringify(next.name)}`,
      )
      const tx = conn.multi().hset(key, next.id, text)
      queue(tx)
      return { tx, result: next }
    })
  }

  private async removeVersioned(accountId: string, key: string, kind: string, id: string): Promise<boolean> {
    return this.tx.optimistic<boolean>([key, this.bytesKey(accountId)], async (conn) => {
      if (!(await conn.hexists(key, id))) return { done: false }
      const { queue } = await this.chargeBytes(conn, accountId, { [`${kind}:${id}`]: 0 }, `removing a ${kind}`)
      const tx = conn.multi().hdel(key, id)
      queue(tx)
      return { tx, result: true }
    })
  }

  /**
   * A new secret token for a calendar feed of `subject` (a calendar application fetches it without headers: the token
   * is the credential); 'full' when the account has MAX_FEEDS. Only its hash is kept; the token is shown once.
   */
  async createFeed(accountId: string, subject: FeedSubject): Promise<{ token: string } | 'full'> {
    const feeds = this.ka(accountId, 'oncall-feeds', accountId)
    if ((await this.redis.scard(feeds)) >= MAX_FEEDS) return 'full'
    const token = `ocf_${randomBytes(24).toString('base64url')}`
    const feed: Feed = { accountId, ...subject }
    const hash = feedHash(token)
    await this.redis.set(this.feedKey(hash), JSON.stringify(feed))
    await this.redis.sadd(feeds, hash)
    return { token }
  }

  /** The feed of a token (undefined: none; looked up by the token's hash, so no comparison of secrets is timed). */
  async feed(token: string): Promise<Feed | undefined> {
    const json = await this.redis.get(this.feedKey(feedHash(token)))
    return json ? (JSON.parse(json) as Feed) : undefined
  }

  async removeFeed(token: string): Promise<boolean> {
    const hash = feedHash(token)
    const json = await this.redis.get(this.feedKey(hash))
    if (!json) return false
    const { accountId } = JSON.parse(json) as Feed
    await this.redis.srem(this.ka(accountId, 'oncall-feeds', accountId), hash)
    return (await this.redis.del(this.feedKey(hash))) > 0
  }
}
