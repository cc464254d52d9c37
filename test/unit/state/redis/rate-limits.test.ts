// The shared rate limiter when Redis cannot be reached: the decision comes from the local fallback
// with the same settings, quickly (a Redis outage must neither block nor unlimit requests). No Redis
// is needed: the clients point at a port nothing listens on, or at a local socket that never answers.
import { createServer, type Server, type Socket } from 'node:net'
import { Redis } from 'ioredis'
import { afterEach, describe, expect, it } from 'vitest'
import { SHARED_TIMEOUT_MS, sharedRateLimiter, type RateDecision } from '../../../../src/state/redis/rate-limits.js'

const clients: Redis[] = []
const servers: Server[] = []
const sockets: Socket[] = []

afterEach(async () => {
  for (const c of clients.splice(0)) c.disconnect()
  for (const s of sockets.splice(0)) s.destroy()
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => s.close(() => resolve()))
})

/** A client that cannot connect (nothing listens on port 1) and never retries. */
function unreachable(): Redis {
  const redis = new Redis('redis://127.0.0.1:1', {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  redis.on('error', () => undefined)
  clients.push(redis)
  return redis
}

/**
 * A client connected to a socket that accepts commands and never answers them, except the
 * CLIENT SETINFO calls ioredis makes before it is ready.
 */
async function silent(): Promise<Redis> {
  const server = createServer((socket) => {
    sockets.push(socket)
    socket.on('data', (data) => socket.write('+OK\r\n'.repeat(data.toString().split('SETINFO').length - 1)))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  redis.on('error', () => undefined)
  clients.push(redis)
  await new Promise<void>((resolve) => redis.once('ready', () => resolve()))
  return redis
}

/** A client whose server answers every script call with an error, `delayMs` late. */
async function slowFailing(delayMs: number): Promise<Redis> {
  const server = createServer((socket) => {
    sockets.push(socket)
    socket.on('data', (data) => {
      const text = data.toString()
      const setinfo = text.split('SETINFO').length - 1
      if (setinfo) socket.write('+OK\r\n'.repeat(setinfo))
      const scripts = text.split(/EVALSHA|EVAL/i).length - 1
      if (scripts) setTimeout(() => socket.destroyed || socket.write('-ERR busy\r\n'.repeat(scripts)), delayMs)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  redis.on('error', () => undefined)
  clients.push(redis)
  await new Promise<void>((resolve) => redis.once('ready', () => resolve()))
  return redis
}

async function timed(
  take: () => RateDecision | Promise<RateDecision>,
): Promise<{ decision: RateDecision; ms: number }> {
  const started = performance.now()
  const decision = await take()
  return { decision, ms: performance.now() - started }
}

describe('sharedRateLimiter without Redis', () => {
  it('takes leases of a twentieth of a large burst, and still lets exactly the burst pass', async () => {
    const limiter = sharedRateLimiter(unreachable(), 'test:', 'lease', { ratePerSecond: 10, burst: 100 })
    const decisions: RateDecision[] = []
    for (let i = 0; i < 101; i++) decisions.push(await limiter.take('busy'))
    expect(decisions.slice(0, 100).every((d) => d.wait === 0)).toBe(true)
    expect(decisions[100]!.wait).toBeGreaterThanOrEqual(1)
    // Remaining counts down by one per request, leases or not.
    expect(decisions.slice(0, 100).map((d) => d.remaining)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i))
    expect((await limiter.take('another')).wait).toBe(0)
  })

  it('lets concurrent requests of a key wait for one lease instead of each taking one', async () => {
    const limiter = sharedRateLimiter(unreachable(), 'test:', 'herd', { ratePerSecond: 100, burst: 100 })
    const decisions = await Promise.all(Array.from({ length: 150 }, async () => limiter.take('busy')))
    expect(decisions.filter((d) => d.wait === 0)).toHaveLength(100)
    const roomy = sharedRateLimiter(unreachable(), 'test:', 'roomy', { ratePerSecond: 100_000, burst: 100_000 })
    expect(
      (await Promise.all(Array.from({ length: 500 }, async () => roomy.take('busy')))).every((d) => d.wait === 0),
    ).toBe(true)
  })

  it('decides quickly from the local fallback, allowing the burst', async () => {
    const limiter = sharedRateLimiter(unreachable(), 'test:', 'api', { ratePerSecond: 1, burst: 3 })
    const results = []
    for (let i = 0; i < 3; i++) results.push(await timed(() => limiter.take('client-1')))
    for (const { ms } of results) expect(ms).toBeLessThan(500)
    expect(results.map((r) => r.decision.wait)).toEqual([0, 0, 0])
    expect(results.map((r) => r.decision.remaining)).toEqual([2, 1, 0])
    for (const { decision } of results) expect(decision.fullInSeconds).toBeGreaterThanOrEqual(1)
  })

  it('refuses the (burst + 1)-th take in a row with a wait of at least a second', async () => {
    const limiter = sharedRateLimiter(unreachable(), 'test:', 'api', { ratePerSecond: 2, burst: 4 })
    for (let i = 0; i < 4; i++) expect((await limiter.take('client-1')).wait).toBe(0)
    const { decision, ms } = await timed(() => limiter.take('client-1'))
    expect(ms).toBeLessThan(500)
    expect(decision.wait).toBeGreaterThanOrEqual(1)
    // The window is burst / rate = 2 s.
    expect(decision.wait).toBeLessThanOrEqual(2)
    expect(decision.remaining).toBe(0)
    expect(decision.fullInSeconds).toBe(decision.wait)
    expect((await limiter.take('client-1')).wait).toBeGreaterThanOrEqual(1)
  })

  it('keeps keys and limiters apart', async () => {
    const redis = unreachable()
    const api = sharedRateLimiter(redis, 'test:', 'api', { ratePerSecond: 1, burst: 1 })
    const login = sharedRateLimiter(redis, 'test:', 'login', { ratePerSecond: 1, burst: 1 })
    expect((await api.take('a')).wait).toBe(0)
    expect((await api.take('a')).wait).toBeGreaterThanOrEqual(1)
    expect((await api.take('b')).wait).toBe(0)
    expect((await login.take('a')).wait).toBe(0)
  })

  it('also falls back after a connection attempt failed', async () => {
    const redis = unreachable()
    await redis.connect().catch(() => undefined)
    const limiter = sharedRateLimiter(redis, 'test:', 'api', { ratePerSecond: 1, burst: 2 })
    const waits = []
    for (let i = 0; i < 3; i++) {
      const { decision, ms } = await timed(() => limiter.take('k'))
      expect(ms).toBeLessThan(500)
      waits.push(decision.wait)
    }
    expect(waits.slice(0, 2)).toEqual([0, 0])
    expect(waits[2]).toBeGreaterThanOrEqual(1)
  })

  it('decides alone when a connected Redis does not answer within the shared timeout', async () => {
    const limiter = sharedRateLimiter(await silent(), 'test:', 'api', { ratePerSecond: 1, burst: 2 })
    const first = await timed(() => limiter.take('k'))
    expect(first.decision.wait).toBe(0)
    expect(first.ms).toBeGreaterThanOrEqual(SHARED_TIMEOUT_MS - 5)
    expect(first.ms).toBeLessThan(900)
    expect((await limiter.take('k')).wait).toBe(0)
    const third = await timed(() => limiter.take('k'))
    expect(third.decision.wait).toBeGreaterThanOrEqual(1)
    expect(third.ms).toBeLessThan(900)
  })

  // The late error must not take a second local point for the same request (the fallback would then
  // allow half the burst).
  it('takes one local point per request when Redis fails slower than the shared timeout', async () => {
    const limiter = sharedRateLimiter(await slowFailing(200), 'test:', 'api', { ratePerSecond: 1, burst: 4 })
    const decisions: RateDecision[] = []
    for (let i = 0; i < 4; i++) {
      decisions.push(await limiter.take('k'))
      await new Promise((r) => setTimeout(r, 250))
    }
    expect(decisions.map((d) => d.wait)).toEqual([0, 0, 0, 0])
    expect(decisions.map((d) => d.remaining)).toEqual([3, 2, 1, 0])
  })
})
