// The shared rate limits while Redis is paused (SIGSTOP) and when it comes back: requests well within a limit are
// never refused, before, during or after. A paused Redis runs every command queued for it at once when it resumes;
// the limiter used to send one per lease (or per request, for a small burst) while it decided alone, and Redis then
// counted them all in one window: requests at a tenth of the limit were refused for a second (a cluster CI run saw
// ten 429s at 20 webhooks a second under a limit of 100,000). Once Redis is back the limit is shared through it
// again. And an answer that is only late (held in a proxy for a moment) still counts what was decided meanwhile, so
// another process sees it. Redis is a private instance; two clients stand for two processes of the service.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createRedisClient, type RedisClient } from '../../src/state/redis/client.js'
import { sharedRateLimiter, type RateLimit, type RateLimiter } from '../../src/state/redis/rate-limits.js'
import { startPrivateStack, type PrivateStack } from '../support/private-stack.js'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js'

let stack: PrivateStack
let proxy: TcpProxy | undefined
const clients: RedisClient[] = []
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

beforeAll(async () => {
  stack = await startPrivateStack(['redis'])
}, 120_000)

afterAll(async () => {
  stack?.resume('redis')
  for (const c of clients) c.disconnect()
  await proxy?.close()
  await stack?.stop()
})

/** A limiter of one "process": its own connection, with the service's command deadline. */
async function processLimiter(name: string, limit: RateLimit, url = stack.env['REDIS_URL']!): Promise<RateLimiter> {
  const redis = createRedisClient({ url, keyPrefix: 'rl:', commandTimeoutMs: 2000 })
  redis.on('error', () => undefined)
  await redis.connect()
  clients.push(redis)
  return sharedRateLimiter(redis, 'rl:', name, limit)
}

/** Takes from each limiter `perSecond` times a second until stopped; counts the refusals and when they came. */
function steady(limiters: RateLimiter[], key: string, perSecond: number) {
  let stopped = false
  let allowed = 0
  const refused: number[] = []
  const started = Date.now()
  const workers = limiters.map(async (limiter) => {
    while (!stopped) {
      const next = sleep(1000 / perSecond)
      const decision = await limiter.take(key)
      if (decision.wait > 0) refused.push(Date.now() - started)
      else allowed++
      await next
    }
  })
  return {
    stop: async () => {
      stopped = true
      await Promise.all(workers)
      return { allowed, refused }
    },
  }
}

it('refuses nothing within the limits while Redis is paused and after it resumes, and shares the limit again', async () => {
  // Leased (a twentieth of the burst at a time) and counted per request (a burst under 40), each from two processes,
  // at a tenth of the limit or less.
  const large = { ratePerSecond: 2000, burst: 2000 }
  const small = { ratePerSecond: 40, burst: 39 }
  const leased = [await processLimiter('large', large), await processLimiter('large', large)]
  const single = [await processLimiter('small', small), await processLimiter('small', small)]
  const loads = [steady(leased, 'k', 300), steady(single, 'k', 4)]
  await sleep(2000)
  stack.pause('redis')
  await sleep(8000)
  stack.resume('redis')
  await sleep(3000)
  const [a, b] = await Promise.all(loads.map((l) => l.stop()))
  expect(a!.refused, `leased limit: refused at these ms (${a!.allowed} allowed)`).toEqual([])
  expect(b!.refused, `per-request limit: refused at these ms (${b!.allowed} allowed)`).toEqual([])
  expect(a!.allowed).toBeGreaterThan(5000)

  // Shared again: a burst past the limit, from both processes at once, is refused in part, and what passes is
  // about the burst (not a burst per process, as the fallback would allow).
  await sleep(1100)
  const burst = await Promise.all(
    Array.from({ length: 60 }, (_, i) => Promise.resolve(single[i % 2]!.take('fresh')).then((d) => d.wait === 0)),
  )
  const passed = burst.filter(Boolean).length
  expect(passed).toBeGreaterThanOrEqual(small.burst - 2)
  expect(passed).toBeLessThanOrEqual(small.burst)
}, 60_000)

it('counts in Redis what a process decided alone while its answer was late within the window', async () => {
  const redisUrl = new URL(stack.env['REDIS_URL']!)
  proxy = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port) })
  const held = new URL(redisUrl)
  held.port = String(proxy.port)
  // A window of 5 s, leases of 2: one process behind the proxy, another on Redis itself.
  const limit = { ratePerSecond: 10, burst: 50 }
  const slow = await processLimiter('late', limit, held.toString())
  const other = await processLimiter('late', limit)
  proxy.hold()
  const during = await Promise.all(Array.from({ length: 20 }, () => Promise.resolve(slow.take('k'))))
  expect(during.filter((d) => d.wait === 0)).toHaveLength(20)
  proxy.release()
  await sleep(500)
  // The 20 are counted in Redis: of 40 more from the other process, 30 pass.
  const after = await Promise.all(Array.from({ length: 40 }, () => Promise.resolve(other.take('k'))))
  const passed = after.filter((d) => d.wait === 0).length
  expect(passed).toBeGreaterThanOrEqual(28)
  expect(passed).toBeLessThanOrEqual(30)
}, 30_000)

it('a lease given back while the answer was late is not counted in Redis (it used to be, one lease too many)', async () => {
  const redisUrl = new URL(stack.env['REDIS_URL']!)
  const held = new URL(redisUrl)
  held.port = String(proxy!.port)
  // Leases of 2 in a burst of 50: 25 leases pass, the 26th does not fit and is given back, its one request refused.
  const limit = { ratePerSecond: 10, burst: 50 }
  const slow = await processLimiter('given-back', limit, held.toString())
  proxy!.hold()
  const decided = []
  for (let i = 0; i < 51; i++) decided.push(await slow.take('k'))
  expect(decided.filter((d) => d.wait === 0)).toHaveLength(50)
  expect(decided.at(-1)!.wait).toBeGreaterThan(0)
  proxy!.release()
  // What this process counted (50 passed, 1 refused) is what Redis holds once the late answer settled.
  const plain = createRedisClient({ url: stack.env['REDIS_URL']!, keyPrefix: '', commandTimeoutMs: 2000 })
  plain.on('error', () => undefined)
  await plain.connect()
  clients.push(plain)
  const counter = async () => {
    const [key] = await (plain as unknown as { keys: (p: string) => Promise<string[]> }).keys('*given-back*')
    return key ? Number(await plain.get(key)) : 0
  }
  let seen = 0
  for (let i = 0; i < 20 && seen < 51; i++) {
    await sleep(100)
    seen = await counter()
  }
  await sleep(500)
  expect(await counter()).toBe(51)
}, 30_000)
