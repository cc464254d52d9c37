// Token buckets per key (a webhook address, an admin API key), in this process's memory: `burst` requests at once,
// refilled at `ratePerSecond`. Each edge process limits on its own; with N edges behind a balancer
// an address gets up to N times the rate. Idle buckets are forgotten, so memory stays bounded.

const MAX_BUCKETS = 100_000

interface Bucket {
  tokens: number
  at: number
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>()

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes a token. wait: 0 when allowed, else the seconds until one is available; remaining: whole
   * tokens left; fullInSeconds: until the bucket is full again.
   */
  take(key: string): { wait: number; remaining: number; fullInSeconds: number } {
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
