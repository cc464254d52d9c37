// The accepted webhook ids: one claim wins, an accepted id is a duplicate (in this process and in another
// sharing the Redis), a released one can be claimed again, and ids expire. When Redis is paused, refuses or
// cannot be reached, each claim is decided within the shared timeout from this process's memory, which stays
// bounded. No Redis is needed: the shared store is a map behind the commands used, or a client that fails.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRedisClient, type RedisClient } from '../../../../src/state/redis/client.js'
import { SHARED_TIMEOUT_MS } from '../../../../src/state/redis/rate-limits.js'
import { CLAIM_MS, webhookIds } from '../../../../src/state/redis/webhook-ids.js'

/** SET (NX, PX), GET and DEL over a map with expiry times: what two processes' clients share. */
function mapRedis() {
  const store = new Map<string, { value: string; until: number }>()
  const live = (key: string) => {
    const e = store.get(key)
    if (e && e.until <= Date.now()) store.delete(key)
    return store.get(key)
  }
  const client = {
    async set(key: string, value: string, px: 'PX', ms: number, nx?: 'NX') {
      if (nx && live(key)) return null
      store.set(key, { value, until: Date.now() + ms })
      return 'OK'
    },
    async get(key: string) {
      return live(key)?.value ?? null
    },
    async del(key: string) {
      return store.delete(key) ? 1 : 0
    },
  }
  return { store, client: client as unknown as RedisClient }
}

/** A Redis that never answers (paused), or refuses every command. */
const paused = { set: () => new Promise(() => {}), get: () => new Promise(() => {}), del: () => new Promise(() => {}) }
const refusing = {
  set: async () => Promise.reject(new Error('READONLY')),
  get: async () => Promise.reject(new Error('READONLY')),
  del: async () => Promise.reject(new Error('READONLY')),
}

const clients: RedisClient[] = []
afterEach(() => {
  vi.useRealTimers()
  for (const c of clients.splice(0)) c.disconnect()
})

const TTL = 630_000

describe('with Redis answering', () => {
  it('lets one claim win, answers a duplicate once accepted, in this process and another', async () => {
    const { client, store } = mapRedis()
    const a = webhookIds(client, 'p:')
    const b = webhookIds(client, 'p:')
    expect(await a.claim('int_1', 'msg_1')).toBe('new')
    // Held while its message is published: another request (here or on another edge) is told to retry.
    expect(await a.claim('int_1', 'msg_1')).toBe('in progress')
    expect(await b.claim('int_1', 'msg_1')).toBe('in progress')
    await a.accepted('int_1', 'msg_1', TTL)
    expect(await a.claim('int_1', 'msg_1')).toBe('duplicate')
    expect(await b.claim('int_1', 'msg_1')).toBe('duplicate')
    // Per integration; the key holds a hash of the id, whatever it holds (braces would move a cluster slot).
    expect(await b.claim('int_2', 'msg_1')).toBe('new')
    expect(await a.claim('int_1', '{msg_2}')).toBe('new')
    expect([...store.keys()].every((k) => /^p:webhook-id:int_\d:[A-Za-z0-9_-]{43}$/.test(k))).toBe(true)
  })

  it('gives an id back when its message was not published: the retry is new', async () => {
    const { client } = mapRedis()
    const a = webhookIds(client, 'p:')
    const b = webhookIds(client, 'p:')
    expect(await a.claim('int_1', 'msg_1')).toBe('new')
    await a.release('int_1', 'msg_1')
    expect(await b.claim('int_1', 'msg_1')).toBe('new')
  })

  it('forgets an accepted id after its time, and a claim never published after CLAIM_MS', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { client } = mapRedis()
    const a = webhookIds(client, 'p:')
    expect(await a.claim('int_1', 'msg_1')).toBe('new')
    await a.accepted('int_1', 'msg_1', TTL)
    vi.advanceTimersByTime(TTL - 1)
    expect(await a.claim('int_1', 'msg_1')).toBe('duplicate')
    vi.advanceTimersByTime(1)
    expect(await a.claim('int_1', 'msg_1')).toBe('new')
    // That claim's process died before publishing: its hold lapses.
    vi.advanceTimersByTime(CLAIM_MS)
    expect(await webhookIds(client, 'p:').claim('int_1', 'msg_1')).toBe('new')
  })
})

describe('without an answer from Redis', () => {
  for (const [name, client] of [
    ['paused', paused],
    ['refusing', refusing],
  ] as const) {
    it(`${name}: decides each claim within the shared timeout from this process's memory`, async () => {
      const ids = webhookIds(client as unknown as RedisClient, 'p:')
      const started = Date.now()
      expect(await ids.claim('int_1', 'msg_1')).toBe('new')
      await ids.accepted('int_1', 'msg_1', TTL)
      // Known here: answered without asking Redis.
      expect(await ids.claim('int_1', 'msg_1')).toBe('duplicate')
      expect(await ids.claim('int_1', 'msg_2')).toBe('new')
      await ids.release('int_1', 'msg_2')
      expect(await ids.claim('int_1', 'msg_2')).toBe('new')
      expect(Date.now() - started).toBeLessThan(SHARED_TIMEOUT_MS * 8)
    })
  }

  it('an unreachable Redis with the service client settings (commands queued offline): answered within the timeout', async () => {
    const redis = createRedisClient({ url: 'redis://127.0.0.1:1', keyPrefix: 'p:' })
    redis.on('error', () => undefined)
    clients.push(redis)
    const ids = webhookIds(redis, 'p:')
    const started = Date.now()
    expect(await ids.claim('int_1', 'msg_1')).toBe('new')
    expect(Date.now() - started).toBeLessThan(SHARED_TIMEOUT_MS * 3)
    await ids.accepted('int_1', 'msg_1', TTL)
    expect(await ids.claim('int_1', 'msg_1')).toBe('duplicate')
  })

  it('remembers a bounded number of ids, the oldest forgotten first', async () => {
    const ids = webhookIds(refusing as unknown as RedisClient, 'p:', undefined, { maxRemembered: 3 })
    for (const id of ['m1', 'm2', 'm3', 'm4', 'm5']) {
      expect(await ids.claim('int_1', id)).toBe('new')
      await ids.accepted('int_1', id, TTL)
    }
    expect(ids.remembered).toBe(3)
    expect(await ids.claim('int_1', 'm5')).toBe('duplicate')
    expect(await ids.claim('int_1', 'm3')).toBe('duplicate')
    expect(await ids.claim('int_1', 'm1')).toBe('new')
    expect(ids.remembered).toBe(3)
  })

  it('drops expired ids first', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const ids = webhookIds(refusing as unknown as RedisClient, 'p:', undefined, { maxRemembered: 100 })
    for (let i = 0; i < 50; i++) {
      await ids.claim('int_1', `m${i}`)
      await ids.accepted('int_1', `m${i}`, 1000)
    }
    vi.advanceTimersByTime(1000)
    expect(await ids.claim('int_1', 'fresh')).toBe('new')
    expect(ids.remembered).toBe(1)
  })
})
