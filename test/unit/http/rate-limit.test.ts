// The per-process token buckets, on an injected clock: `burst` requests at once, refilled at
// `ratePerSecond`, the decision's wait / remaining / fullInSeconds, keys apart, and memory bounded
// by forgetting the least recently used bucket beyond 100,000 keys.
import { describe, expect, it } from 'vitest'
import { TokenBuckets } from '../../../src/http/rate-limit.js'

function clock(start = 1_700_000_000_000) {
  let t = start
  return { now: () => t, advance: (ms: number) => void (t += ms) }
}

describe('TokenBuckets', () => {
  it('allows the burst at once, then refuses with a wait of at least one second', () => {
    const c = clock()
    const limiter = new TokenBuckets({ ratePerSecond: 2, burst: 5 }, c.now)
    const decisions = Array.from({ length: 5 }, () => limiter.take('k'))
    expect(decisions.map((d) => d.wait)).toEqual([0, 0, 0, 0, 0])
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0])
    const refused = limiter.take('k')
    expect(refused.wait).toBeGreaterThanOrEqual(1)
    expect(refused).toEqual({ wait: 1, remaining: 0, fullInSeconds: 3 })
  })

  it('does not take a token for a refused request', () => {
    const c = clock()
    const limiter = new TokenBuckets({ ratePerSecond: 1, burst: 1 }, c.now)
    expect(limiter.take('k').wait).toBe(0)
    for (let i = 0; i < 10; i++) expect(limiter.take('k').wait).toBe(1)
    c.advance(1000)
    expect(limiter.take('k').wait).toBe(0)
  })

  it('refills at the rate', () => {
    const c = clock()
    const limiter = new TokenBuckets({ ratePerSecond: 2, burst: 5 }, c.now)
    for (let i = 0; i < 5; i++) limiter.take('k')
    c.advance(499)
    expect(limiter.take('k').wait).toBeGreaterThanOrEqual(1)
    c.advance(1) // 500 ms at 2/s: one token.
    expect(limiter.take('k')).toMatchObject({ wait: 0, remaining: 0 })
    expect(limiter.take('k').wait).toBeGreaterThanOrEqual(1)
    c.advance(1500) // three tokens
    expect([limiter.take('k').wait, limiter.take('k').wait, limiter.take('k').wait, limiter.take('k').wait]).toEqual([
      0, 0, 0, 1,
    ])
  })

  it('never holds more than the burst, however long the key was idle', () => {
    const c = clock()
    const limiter = new TokenBuckets({ ratePerSecond: 10, burst: 3 }, c.now)
    limiter.take('k')
    c.advance(3_600_000)
    const waits = Array.from({ length: 4 }, () => limiter.take('k').wait)
    expect(waits).toEqual([0, 0, 0, 1])
  })

  it('waits as long as one token takes at a slow rate', () => {
    const c = clock()
    const limiter = new TokenBuckets({ ratePerSecond: 0.5, burst: 1 }, c.now)
    expect(limiter.take('k').wait).toBe(0)
    expect(limiter.take('k')).toEqual({ wait: 2, remaining: 0, fullInSeconds: 2 })
    c.advance(1000)
    expect(limiter.take('k')).toEqual({ wait: 1, remaining: 0, fullInSeconds: 1 })
    c.advance(1000)
    expect(limiter.take('k').wait).toBe(0)
  })

  it('says how many requests are left and when the bucket is full again', () => {
    const c = clock()
    const limiter = new TokenBuckets({ ratePerSecond: 1, burst: 10 }, c.now)
    expect(limiter.take('k')).toEqual({ wait: 0, remaining: 9, fullInSeconds: 1 })
    limiter.take('k')
    expect(limiter.take('k')).toEqual({ wait: 0, remaining: 7, fullInSeconds: 3 })
    c.advance(1500) // 8.5 tokens
    expect(limiter.take('k')).toEqual({ wait: 0, remaining: 7, fullInSeconds: 3 })
    c.advance(10_000)
    expect(limiter.take('k')).toEqual({ wait: 0, remaining: 9, fullInSeconds: 1 })
  })

  it('keeps keys apart', () => {
    const c = clock()
    const limiter = new TokenBuckets({ ratePerSecond: 1, burst: 2 }, c.now)
    limiter.take('a')
    limiter.take('a')
    expect(limiter.take('a').wait).toBeGreaterThanOrEqual(1)
    expect(limiter.take('b')).toEqual({ wait: 0, remaining: 1, fullInSeconds: 1 })
    expect(limiter.take('b').wait).toBe(0)
    expect(limiter.take('b').wait).toBeGreaterThanOrEqual(1)
    expect(limiter.take('a').wait).toBeGreaterThanOrEqual(1)
  })

  it('uses Date.now when no clock is given', () => {
    const limiter = new TokenBuckets({ ratePerSecond: 0.001, burst: 1 })
    expect(limiter.take('k').wait).toBe(0)
    expect(limiter.take('k').wait).toBeGreaterThanOrEqual(1)
  })

  describe('bounded memory', () => {
    const exhaust = (limiter: TokenBuckets, key: string) => {
      expect(limiter.take(key).wait).toBe(0)
      expect(limiter.take(key).wait).toBeGreaterThanOrEqual(1)
    }

    it('remembers 100,000 keys', () => {
      const c = clock()
      const limiter = new TokenBuckets({ ratePerSecond: 0.001, burst: 1 }, c.now)
      exhaust(limiter, 'old')
      for (let i = 0; i < 99_999; i++) limiter.take(`k${i}`)
      expect(limiter.take('old').wait).toBeGreaterThanOrEqual(1)
    })

    it('forgets the least recently used key beyond 100,000: it starts full again', () => {
      const c = clock()
      const limiter = new TokenBuckets({ ratePerSecond: 0.001, burst: 1 }, c.now)
      exhaust(limiter, 'old')
      exhaust(limiter, 'recent')
      for (let i = 0; i < 99_998; i++) limiter.take(`k${i}`) // 100,000 buckets
      expect(limiter.take('old').wait).toBeGreaterThanOrEqual(1) // used again: now the most recent
      limiter.take('one-more') // 100,001: the least recently used goes, which is 'recent'
      expect(limiter.take('recent')).toMatchObject({ wait: 0, remaining: 0 })
      expect(limiter.take('old').wait).toBeGreaterThanOrEqual(1)
    })
  })
})
