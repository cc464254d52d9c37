// Token buckets per key in this process's memory: `burst` requests at once, refilled at
// `ratePerSecond`. Used where a limit is per process by design (SDK keys on the event intake's hot
// path); limits that must hold across processes are shared through Redis (state/redis/rate-limits).
// Idle buckets are forgotten, so memory stays bounded.
import type { RateDecision, RateLimit, RateLimiter } from '../state/redis/rate-limits.js'

const MAX_BUCKETS = 100_000

interface Bucket {
  tokens: number
  at: number
}

export class TokenBuckets implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>()
  private readonly ratePerSecond: number
  private readonly burst: number

  constructor(
    limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    ;({ ratePerSecond: this.ratePerSecond, burst: this.burst } = limit)
  }

  take(key: string): RateDecision {
    const now = this.now()
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now }
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.ratePerSecond)
    bucket.at = now
    // Map order is insertion order: re-inserting keeps the least recently used first.
    this.buckets.delete(key)
    this.buckets.set(key, bucket)
    if (this.buckets.size > MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value as string)
    const allowed = bucket.tokens >= 1
    if (allowed) bucket.tokens -= 1
    return {
      wait: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond)),
      remaining: Math.floor(bucket.tokens),
      fullInSeconds: Math.ceil((this.burst - bucket.tokens) / this.ratePerSecond),
    }
  }
}
