// On-call schedules of an account, and the secret addresses of their calendar feeds.
//
// Keys (prefix p, account a):
//   p:schedules:a          hash id -> JSON schedule (its definition, version, who changed it last)
//   p:oncall-feed:<sha256 of the token>   JSON {accountId, scheduleId | userId} (the admin slot: a feed's request
//                          names no account)
//   p:oncall-feeds:a       set of the account's feeds' hashes (at most MAX_FEEDS)
// A schedule counts against the account's stored bytes (SLUICE_ACCOUNT_STORED_BYTES), as rules and plans do.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { ScheduleDefinition } from '../../pipeline/oncall/schedules.js'
import { RedisState } from './redis-state.js'

/** Schedules one account may keep. */
export const MAX_SCHEDULES = 200
/** Calendar feeds one account may keep (each a secret address someone subscribed to). */
export const MAX_FEEDS = 1000

export interface StoredSchedule extends ScheduleDefinition {
  readonly id: string
  readonly version: number
  readonly updatedAt: number
  readonly updatedBy: string
}

/** Whose shifts a calendar feed shows: one schedule's, or one responder's in every schedule of the account. */
export type FeedSubject = { readonly scheduleId: string } | { readonly userId: string }
export type Feed = FeedSubject & { readonly accountId: string }

const feedHash = (token: string) => createHash('sha256').update(token).digest('hex')

export class OnCallStore extends RedisState {
  private schedulesKey = (a: string) => this.ka(a, 'schedules', a)
  private feedKey = (hash: string) => this.k('oncall-feed', hash)

  async schedules(accountId: string): Promise<StoredSchedule[]> {
    const all = Object.values(await this.redis.hgetall(this.schedulesKey(accountId)))
    return all.map((json) => JSON.parse(json) as StoredSchedule).sort((a, b) => a.name.localeCompare(b.name))
  }

  async schedule(accountId: string, id: string): Promise<StoredSchedule | undefined> {
    const json = await this.redis.hget(this.schedulesKey(accountId), id)
    return json ? (JSON.parse(json) as StoredSchedule) : undefined
  }

  /**
   * Creates a schedule (id undefined) or replaces one whose version is `expected` (any, when undefined). 'missing':
   * no such schedule; 'stale': changed since `expected`; 'full': the account has MAX_SCHEDULES.
   */
  async saveSchedule(
    accountId: string,
    definition: ScheduleDefinition,
    updatedBy: string,
    id?: string,
    expected?: number,
  ): Promise<StoredSchedule | 'missing' | 'stale' | 'full'> {
    const key = this.schedulesKey(accountId)
    return this.tx.optimistic<StoredSchedule | 'missing' | 'stale' | 'full'>(
      [key, this.bytesKey(accountId)],
      async (conn) => {
        const before = id === undefined ? undefined : await conn.hget(key, id)
        if (id !== undefined && !before) return { done: 'missing' }
        if (id === undefined && (await conn.hlen(key)) >= MAX_SCHEDULES) return { done: 'full' }
        const version = before ? (JSON.parse(before) as StoredSchedule).version : 0
        if (expected !== undefined && expected !== version) return { done: 'stale' }
        const next: StoredSchedule = {
          id: id ?? randomUUID(),
          ...definition,
          version: version + 1,
          updatedAt: Date.now(),
          updatedBy,
        }
        const text = JSON.stringify(next)
        const { queue } = await this.chargeBytes(
          conn,
          accountId,
          { [`schedule:${next.id}`]: Buffer.byteLength(text) },
          `schedule ${JSON.stringify(next.name)}`,
        )
        const tx = conn.multi().hset(key, next.id, text)
        queue(tx)
        return { tx, result: next }
      },
    )
  }

  /** Removes a schedule; false when there was none. */
  async removeSchedule(accountId: string, id: string): Promise<boolean> {
    const key = this.schedulesKey(accountId)
    return this.tx.optimistic<boolean>([key, this.bytesKey(accountId)], async (conn) => {
      if (!(await conn.hexists(key, id))) return { done: false }
      const { queue } = await this.chargeBytes(conn, accountId, { [`schedule:${id}`]: 0 }, 'removing a schedule')
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
