// Rate limits shared by every process through Redis (rate-limiter-flexible): N edges behind a
// balancer allow an address or a key its rate once, not N times. When Redis cannot be reached (not
// connected, or no answer within SHARED_TIMEOUT_MS) the decision falls back to a limiter in this
// process's memory with the same settings, so a Redis outage neither blocks nor unlimits requests.
//
// A late answer must neither count twice nor be lost. While a key's Redis call is late, the key is decided here and
// the points it takes are owed to Redis; when the call settles, they are paid if it was only late (under a second:
// the same traffic, counted in its window), and the late call's own points are given back if it ran a second or more
// after it was sent (a paused Redis runs every queued command at once when it resumes: those belong to windows that
// are over). Before this, a Redis paused for 15 s under two processes received 30 leases at once on resuming, and
// requests far within the limit were refused for a second.
//
// A limit is `burst` requests per window of burst / rate seconds: the same average rate and burst
// as a token bucket, counted in fixed windows (at a window's edge up to two bursts can pass).
import type { RedisClient } from './client.js'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'

/**
 * wait: 0 when allowed, else seconds until a request may pass; remaining: requests left now; fullInSeconds: until the
 * limit is whole again.
 */
export interface RateDecision {
  readonly wait: number
  readonly remaining: number
  readonly fullInSeconds: number
}

export interface RateLimiter {
  take(key: string): RateDecision | Promise<RateDecision>
}

export interface RateLimit {
  readonly ratePerSecond: number
  readonly burst: number
}

/** How long a decision waits for Redis before this process decides alone. */
export const SHARED_TIMEOUT_MS = 100

/** A Redis answer this late (or a window late, if longer) is to a command that ran in a window after its own. */
const STALE_AFTER_MS = 1000

/** Share of a limit's burst a process takes from Redis at once (its lease), and serves from memory. */
const LEASE_SHARE = 20
/** Keys whose lease a process remembers (least recently used forgotten first). */
const MAX_LEASES = 100_000

/**
 * A limiter shared through Redis under `<prefix>rate:<name>:`, with a local fallback. A process
 * counts in Redis a lease of burst/20 requests at a time and serves them from memory until the
 * window ends, so a busy key costs a Redis call per twentieth of its burst, not per request; across N
 * processes up to N leases (5% of the burst each) may go unused or be served late in a window. A
 * small burst (under 40) leases one request: every request is counted in Redis.
 */
export function sharedRateLimiter(redis: RedisClient, prefix: string, name: string, limit: RateLimit): RateLimiter {
  const settings = { points: limit.burst, duration: Math.max(1, Math.ceil(limit.burst / limit.ratePerSecond)) }
  const lease = Math.max(1, Math.floor(limit.burst / LEASE_SHARE))
  const local = new RateLimiterMemory({ ...settings, keyPrefix: `${name}-local` })
  const shared = new RateLimiterRedis({
    ...settings,
    storeClient: redis,
    keyPrefix: `${prefix}rate:${name}`,
    rejectIfRedisNotReady: true,
  })
  // A command that ran a whole window after it was sent ran in a later window than its own.
  const staleAfterMs = Math.max(STALE_AFTER_MS, settings.duration * 1000)
  /** Keys whose Redis call missed the timeout and has not settled, with the points taken here meanwhile. */
  const late = new Map<string, { owed: number }>()
  /** A counter's answer: resolved or refused, rate-limiter-flexible answers the same. */
  const counted = (refused: unknown): RateLimiterRes => {
    if (refused instanceof RateLimiterRes) return refused
    throw refused
  }
  const consumeLocally = (key: string, points: number) => local.consume(key, points).catch(counted)
  /**
   * Takes points from Redis within the shared timeout, else from this process; `giveBack` returns them where they were
   * counted (and, for points owed to a late call, no longer owes them).
   */
  const consume = async (
    key: string,
    points: number,
  ): Promise<{ res: RateLimiterRes; giveBack: () => Promise<unknown> }> => {
    const pending = late.get(key)
    if (pending) {
      pending.owed += points
      return {
        res: await consumeLocally(key, points),
        giveBack: () => {
          pending.owed -= points
          return local.reward(key, points)
        },
      }
    }
    const sentAt = Date.now()
    const call = shared.consume(key, points).catch(counted)
    let timer: NodeJS.Timeout | undefined
    const missed = new Promise<'missed'>((resolve) => (timer = setTimeout(resolve, SHARED_TIMEOUT_MS, 'missed')))
    const first = await Promise.race([call, missed]).catch(() => 'failed' as const)
    clearTimeout(timer)
    if (first instanceof RateLimiterRes) return { res: first, giveBack: () => shared.reward(key, points) }
    let entry: { owed: number } | undefined
    if (first === 'missed' && late.size < MAX_LEASES) {
      const owing = (entry = { owed: 0 })
      late.set(key, owing)
      void call
        .then(
          async () => {
            // Run a window late: its own points counted in a later window than theirs, given back. Else what was
            // decided here meanwhile is paid (or, given back here, taken back from the late call's own points).
            if (Date.now() - sentAt >= staleAfterMs) await shared.reward(key, points)
            else if (owing.owed > 0) await shared.consume(key, owing.owed)
            else if (owing.owed < 0) await shared.reward(key, -owing.owed)
          },
          // Past the client's own command timeout the command is still queued on the connection, and runs (before the
          // reward sent after it): given back. Any other failure counted nothing.
          async (err: unknown) => {
            if (err instanceof Error && err.message === 'Command timed out') await shared.reward(key, points)
          },
        )
        .catch(() => undefined)
        .finally(() => late.delete(key))
    }
    return {
      res: await consumeLocally(key, points),
      giveBack: () => {
        // The late call carries these points to Redis: they are taken back when it settles.
        if (entry) entry.owed -= points
        return local.reward(key, points)
      },
    }
  }
  const leases = new Map<string, { left: number; until: number; remaining: number }>()
  const allowed = (remaining: number, ms: number): RateDecision => ({
    wait: 0,
    remaining,
    fullInSeconds: Math.ceil(ms / 1000),
  })
  /** Lease requests in flight, by key: concurrent requests of a key wait for one instead of each taking a lease. */
  const leasing = new Map<string, Promise<RateDecision>>()
  const take = async (key: string): Promise<RateDecision> => {
    const now = Date.now()
    const held = leases.get(key)
    if (held && held.left > 0 && now < held.until) {
      held.left--
      return allowed(held.remaining + held.left, held.until - now)
    }
    const inFlight = leasing.get(key)
    if (inFlight) {
      await inFlight
      return take(key)
    }
    const decision = renew(key, now)
    if (lease > 1) {
      leasing.set(key, decision)
      void decision.finally(() => leasing.delete(key)).catch(() => undefined)
    }
    return decision
  }
  const renew = async (key: string, now: number): Promise<RateDecision> => {
    leases.delete(key)
    if (lease > 1) {
      const { res, giveBack } = await consume(key, lease)
      if (res.consumedPoints <= limit.burst) {
        leases.set(key, { left: lease - 1, until: now + res.msBeforeNext, remaining: res.remainingPoints })
        if (leases.size > MAX_LEASES) leases.delete(leases.keys().next().value as string)
        return allowed(res.remainingPoints + lease - 1, res.msBeforeNext)
      }
      // Not a whole lease left in this window: give it back, and take this one request alone.
      await giveBack().catch(() => undefined)
    }
    const { res } = await consume(key, 1)
    if (res.consumedPoints <= limit.burst) return allowed(res.remainingPoints, res.msBeforeNext)
    const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000))
    return { wait: seconds, remaining: 0, fullInSeconds: seconds }
  }
  return { take }
}
