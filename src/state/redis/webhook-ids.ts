// The message ids (Standard Webhooks' `webhook-id`) each integration has accepted, so that a captured signed
// message replayed within its timestamp tolerance is recognized and not published again. An id is claimed
// before its message is published (SET NX, for a short time) and marked accepted after (for about twice the
// tolerance: as long as its signed timestamp can pass); a publish that fails gives the id back, so the
// sender's retry is taken. Only ids of verified requests come here: a forger cannot spend one.
//
// Shared by every edge through Redis. When Redis does not answer within SHARED_TIMEOUT_MS (paused, away, or
// refusing), this process decides from its own memory of the ids it saw (bounded, oldest forgotten first), so the
// webhook edge keeps answering; a replay sent to another edge during such an outage may then be taken.
import { createHash } from 'node:crypto'
import type { Logger } from '../../shared/logger.js'
import type { RedisClient } from './client.js'
import { SHARED_TIMEOUT_MS } from './rate-limits.js'

/** new: this request publishes the message; duplicate: accepted before; in progress: another request holds it. */
export type IdClaim = 'new' | 'duplicate' | 'in progress'

export interface WebhookIds {
  /** Claims a message id of an integration for `ttlMs` once accepted. */
  claim(integrationId: string, messageId: string): Promise<IdClaim>
  /** The claimed message is published: its id is remembered for ttlMs. */
  accepted(integrationId: string, messageId: string, ttlMs: number): Promise<void>
  /** The claimed message was not published: its id is given back. */
  release(integrationId: string, messageId: string): Promise<void>
}

/** How long a claim holds before its message is published (a process that dies mid-publish frees it then). */
export const CLAIM_MS = 60_000
/** Ids this process remembers (for when Redis does not answer), at most. */
export const MAX_REMEMBERED_IDS = 100_000
/** Log at most one "decided in memory" line per interval. */
const FALLBACK_LOG_MS = 10_000

const PENDING = 'pending'
const ACCEPTED = 'accepted'
type State = typeof PENDING | typeof ACCEPTED

/** A bounded map of ids to their state until a time; the oldest written is forgotten first. */
class Remembered {
  private readonly entries = new Map<string, { state: State; until: number }>()
  constructor(private readonly max: number) {}

  get(key: string, now: number): State | undefined {
    const e = this.entries.get(key)
    if (e && e.until <= now) this.entries.delete(key)
    return e && e.until > now ? e.state : undefined
  }

  set(key: string, state: State, until: number, now: number): void {
    this.entries.delete(key)
    this.entries.set(key, { state, until })
    // Expired entries at the front go first; past the bound, the oldest written.
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.max && e.until > now) break
      this.entries.delete(k)
    }
  }

  delete(key: string): void {
    this.entries.delete(key)
  }

  get size(): number {
    return this.entries.size
  }
}

/**
 * The ids under `<prefix>webhook-id:<integration id>:<SHA-256 of the id>` (a hash: any id is a short key with no
 * brace to move its Redis Cluster slot), with this process's memory beside them.
 */
export function webhookIds(
  redis: RedisClient,
  prefix: string,
  log?: Logger,
  options: { timeoutMs?: number; maxRemembered?: number } = {},
): WebhookIds & { readonly remembered: number } {
  const timeoutMs = options.timeoutMs ?? SHARED_TIMEOUT_MS
  const local = new Remembered(options.maxRemembered ?? MAX_REMEMBERED_IDS)
  const keyOf = (integrationId: string, messageId: string) =>
    `${integrationId}:${createHash('sha256').update(messageId).digest('base64url')}`
  let loggedAt = 0
  /** The command's answer, or undefined when Redis failed or did not answer in time (the command may still land). */
  const shared = async <T>(what: string, command: () => Promise<T>): Promise<T | undefined> => {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    })
    const running = command()
    try {
      return await Promise.race([running, late])
    } catch (err) {
      running.catch(() => undefined)
      const now = Date.now()
      if (log && now - loggedAt >= FALLBACK_LOG_MS) {
        loggedAt = now
        log.warn({ err, what }, 'webhook ids decided in this process: Redis did not answer')
      }
      return undefined
    } finally {
      clearTimeout(timer)
    }
  }
  return {
    get remembered() {
      return local.size
    },
    async claim(integrationId, messageId) {
      const key = keyOf(integrationId, messageId)
      const now = Date.now()
      const known = local.get(key, now)
      if (known) return known === ACCEPTED ? 'duplicate' : 'in progress'
      // Held here at once: a concurrent request of this process sees it before Redis answers.
      local.set(key, PENDING, now + CLAIM_MS, now)
      const answer = await shared('claim', async (): Promise<IdClaim> => {
        const k = `${prefix}webhook-id:${key}`
        if ((await redis.set(k, PENDING, 'PX', CLAIM_MS, 'NX')) === 'OK') return 'new'
        // Gone between the two commands (its publish failed): not known to be accepted, so retry later.
        return (await redis.get(k)) === ACCEPTED ? 'duplicate' : 'in progress'
      })
      if (answer === undefined || answer === 'new') return 'new'
      local.delete(key)
      return answer
    },
    async accepted(integrationId, messageId, ttlMs) {
      const key = keyOf(integrationId, messageId)
      const now = Date.now()
      local.set(key, ACCEPTED, now + ttlMs, now)
      await shared('accepted', () => redis.set(`${prefix}webhook-id:${key}`, ACCEPTED, 'PX', ttlMs))
    },
    async release(integrationId, messageId) {
      const key = keyOf(integrationId, messageId)
      local.delete(key)
      await shared('release', () => redis.del(`${prefix}webhook-id:${key}`))
    },
  }
}
