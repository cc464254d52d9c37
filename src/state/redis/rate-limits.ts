// Rate limits shared by every process through Redis (rate-limiter-flexible): N edges behind a
// balancer allow an address or a key its rate once, not N times. When Redis cannot be reached (not
// connected, or no answer within SHARED_TIMEOUT_MS) the decision falls back to a limiter in this
// process's memory with the same settings, so a Redis outage neither blocks nor unlimits requests.
//
// A limit is `burst` requests per window of burst / rate seconds: the same average rate and burst
// as a token bucket, counted in fixed windows (at a window's edge up to two bursts can pass).
import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible'

/** wait: 0 when allowed, else seconds until a request may pass; remaining: requests left now; fullInSeconds: until the limit is whole again. */
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

/** A limiter shared through Redis under `<prefix>rate:<name>:`, with a local fallback. */
export function sharedRateLimiter(redis: Redis, prefix: string, name: string, limit: RateLimit): RateLimiter {
  const settings = { points: limit.burst, duration: Math.max(1, Math.ceil(limit.burst / limit.ratePerSecond)) }
  const local = new RateLimiterMemory({ ...settings, keyPrefix: `${name}-local` })
  // Only the wrapper falls back (on an error or after the timeout): one local point per request, even
  // when Redis fails after the timeout.
  const shared = new RateLimiterRedis({ ...settings, storeClient: redis, keyPrefix: `${prefix}rate:${name}`, rejectIfRedisNotReady: true })
  const limiter = new RLWrapperTimeouts({ limiter: shared, timeoutMs: SHARED_TIMEOUT_MS, insuranceLimiter: local })
  return {
    take: async (key) => {
      try {
        const res = await limiter.consume(key)
        return { wait: 0, remaining: res.remainingPoints, fullInSeconds: Math.ceil(res.msBeforeNext / 1000) }
      } catch (refused) {
        if (!(refused instanceof RateLimiterRes)) throw refused
        const seconds = Math.max(1, Math.ceil(refused.msBeforeNext / 1000))
        return { wait: seconds, remaining: 0, fullInSeconds: seconds }
      }
    },
  }
}
