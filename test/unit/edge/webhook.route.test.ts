// The webhook routes' replay defences, with the intake and the address lookup faked: a Standard Webhooks message id
// is published once (a replay is answered 200 as a duplicate, a concurrent one 409), a message Kafka could not take
// gives its id back so the sender's retry is published, a request refused before publishing spends no id, and the
// Opsgenie path calls are refused on an HMAC integration (the signature does not cover the path) and taken with a
// token. Redis is a map, or refuses every command: the edge keeps answering from its memory of ids.
import { createHmac, createHash } from 'node:crypto'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import type { AuthOutcome } from '../../../src/auth/sender-auth.js'
import type { SenderAuthReports } from '../../../src/auth/sender-auth-reports.js'
import type { AddressLookup, WebhookAddressCache } from '../../../src/auth/webhooks.js'
import { PublishError, type OutboundMessage } from '../../../src/broker/ports.js'
import { webhookRoutes } from '../../../src/edge/webhook.route.js'
import type { Intake } from '../../../src/edge/spool/intake.js'
import { errorHandler } from '../../../src/http/errors.js'
import { installSchemaValidation } from '../../../src/http/schemas.js'
import { createMetrics } from '../../../src/shared/metrics.js'
import type { RedisClient } from '../../../src/state/redis/client.js'
import type { SenderAuth } from '../../../src/state/redis/sender-auth.js'
import { webhookIds } from '../../../src/state/redis/webhook-ids.js'

const KEY = Buffer.alloc(32, 9)
const ADDRESS = 'hook-address-0123456789'

/** SET (NX, PX), GET and DEL over a map: the shared Redis of the edges. */
function mapRedis(): RedisClient {
  const store = new Map<string, string>()
  return {
    async set(key: string, value: string, _px: string, _ms: number, nx?: string) {
      if (nx && store.has(key)) return null
      store.set(key, value)
      return 'OK'
    },
    async get(key: string) {
      return store.get(key) ?? null
    },
    async del(key: string) {
      return store.delete(key) ? 1 : 0
    },
  } as unknown as RedisClient
}
const refusing = {
  set: async () => Promise.reject(new Error('LOADING')),
  get: async () => Promise.reject(new Error('LOADING')),
  del: async () => Promise.reject(new Error('LOADING')),
} as unknown as RedisClient

/** An intake that fails the next `failures` publishes, then holds what it is given (a gate can hold one open). */
class FakeIntake implements Intake {
  published: OutboundMessage[] = []
  failures = 0
  gate?: Promise<void>
  /** Called when a publish begins. */
  onAccept = () => undefined as void
  async accept(_topic: string, messages: readonly OutboundMessage[]) {
    this.onAccept()
    if (this.gate) await this.gate
    if (this.failures > 0) {
      this.failures--
      throw new PublishError('PUBLISH_TIMEOUT', 'kafka did not answer')
    }
    this.published.push(...messages)
    return { spooled: false }
  }
}

let app: FastifyInstance | undefined
afterEach(async () => app?.close())

async function build(auth: SenderAuth | undefined, redis: RedisClient = mapRedis()) {
  const intake = new FakeIntake()
  const outcomes: AuthOutcome[] = []
  const found: AddressLookup = {
    route: { integrationId: 'int_1', accountId: 'acc', rateLimitStatus: 429, ...(auth ? { auth } : {}) },
    hash: createHash('sha256').update(ADDRESS).digest('hex'),
    secrets:
      auth?.scheme === 'hmac'
        ? [{ id: 's1', key: KEY }]
        : [{ id: 's1', hash: createHash('sha256').update('token-0123456789abcdef').digest() }],
  }
  app = Fastify()
  installSchemaValidation(app, true)
  app.setErrorHandler(errorHandler)
  await app.register(webhookRoutes, {
    intake,
    routes: { lookup: async (id: string) => (id === ADDRESS ? found : undefined) } as unknown as WebhookAddressCache,
    metrics: createMetrics(),
    topic: 'alerts',
    maxBodyBytes: 1 << 20,
    messageMaxBytes: 768 * 1024,
    rateLimiter: { take: () => ({ wait: 0, remaining: 100, fullInSeconds: 0 }) },
    rateLimit: { ratePerSecond: 100, burst: 100 },
    isDraining: () => false,
    senderAuth: { record: (_: string, o: AuthOutcome) => outcomes.push(o) } as unknown as SenderAuthReports,
    webhookIds: webhookIds(redis, 'p:'),
  })
  return { app, intake, outcomes }
}

const standardWebhooks: SenderAuth = {
  scheme: 'hmac',
  preset: 'standard-webhooks',
  toleranceSeconds: 300,
  secrets: [],
}
const body = JSON.stringify({ status: 'firing', alerts: [{ labels: { alertname: 'Disk' } }] })
const signed = (id: string, ts = String(Math.floor(Date.now() / 1000)), payload = body) => ({
  'content-type': 'application/json',
  'webhook-id': id,
  'webhook-timestamp': ts,
  'webhook-signature': `v1,${createHmac('sha256', KEY).update(`${id}.${ts}.${payload}`).digest('base64')}`,
})
const post = (
  a: FastifyInstance,
  headers: Record<string, string>,
  url = `/api/v1/webhook/${ADDRESS}`,
  payload = body,
) => a.inject({ method: 'POST', url, headers, payload })

describe('a Standard Webhooks message id', () => {
  it('is published once: a replay within the tolerance is answered 200 as a duplicate, and published nothing', async () => {
    const { app, intake } = await build(standardWebhooks)
    const headers = signed('msg_1')
    const first = await post(app, headers)
    expect(first.statusCode).toBe(202)
    for (const url of [`/api/v1/webhook/${ADDRESS}`, `/api/v1/webhook/${ADDRESS}/v2/alerts`]) {
      const replay = await post(app, headers, url)
      expect(replay.statusCode).toBe(200)
      expect(replay.json()).toEqual({ requestId: expect.any(String), duplicate: true })
    }
    expect(intake.published).toHaveLength(1)
    expect((await post(app, signed('msg_2'))).statusCode).toBe(202)
    expect(intake.published).toHaveLength(2)
  })

  it('held by a request still publishing: a concurrent one is answered 409 with Retry-After, then a duplicate', async () => {
    const { app, intake } = await build(standardWebhooks)
    let open!: () => void
    intake.gate = new Promise((r) => (open = r))
    const publishing = new Promise<void>((r) => (intake.onAccept = r))
    const headers = signed('msg_1')
    const first = post(app, headers)
    await publishing
    const concurrent = await post(app, headers)
    expect(concurrent.statusCode).toBe(409)
    expect(concurrent.headers['retry-after']).toBe('1')
    expect(concurrent.json()['message']).toMatch(/webhook-id is being accepted right now; retry/)
    intake.gate = undefined
    open()
    expect((await first).statusCode).toBe(202)
    expect((await post(app, headers)).statusCode).toBe(200)
    expect(intake.published).toHaveLength(1)
  })

  it('is given back when Kafka could not take the message: the sender retries and is published', async () => {
    const { app, intake } = await build(standardWebhooks)
    intake.failures = 1
    // The spool is not part of this edge: a failed publish is 503.
    const headers = signed('msg_1')
    expect((await post(app, headers)).statusCode).toBe(503)
    expect((await post(app, headers)).statusCode).toBe(202)
    expect((await post(app, headers)).statusCode).toBe(200)
    expect(intake.published).toHaveLength(1)
  })

  it('is not spent by a request refused before publishing: a forged signature, or a body that is not JSON', async () => {
    const { app, intake } = await build(standardWebhooks)
    const good = signed('msg_1')
    const forged = { ...good, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` }
    expect((await post(app, forged)).statusCode).toBe(401)
    const notJson = '{"a":'
    expect((await post(app, signed('msg_1', undefined, notJson), undefined, notJson)).statusCode).toBe(400)
    expect((await post(app, good)).statusCode).toBe(202)
    expect(intake.published).toHaveLength(1)
  })

  it('over 256 characters is refused with 400 naming webhook-id, counted as a malformed signature', async () => {
    const { app, intake, outcomes } = await build(standardWebhooks)
    const res = await post(app, signed('x'.repeat(257)))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'sender authentication failed: malformed signature',
      details: [{ field: 'webhook-id', problem: 'must be 1 to 256 printable ASCII characters without spaces' }],
    })
    expect(outcomes.at(-1)).toMatchObject({ ok: false, reason: 'malformed signature' })
    expect(intake.published).toHaveLength(0)
  })

  it('when Redis refuses every command: the edge keeps answering, and this process still refuses its replays', async () => {
    const { app, intake } = await build(standardWebhooks, refusing)
    const headers = signed('msg_1')
    expect((await post(app, headers)).statusCode).toBe(202)
    expect((await post(app, headers)).statusCode).toBe(200)
    intake.failures = 1
    const other = signed('msg_2')
    expect((await post(app, other)).statusCode).toBe(503)
    expect((await post(app, other)).statusCode).toBe(202)
    expect(intake.published).toHaveLength(2)
  })
})

describe("Opsgenie's path calls", () => {
  it('are refused with 400 on an HMAC integration, signed or not, before anything is published', async () => {
    const grafana: SenderAuth = { scheme: 'hmac', preset: 'grafana', toleranceSeconds: 300, secrets: [] }
    const { app, intake } = await build(grafana)
    const ts = String(Math.floor(Date.now() / 1000))
    const headers = {
      'x-grafana-alerting-signature': createHmac('sha256', KEY).update(`${ts}:`).digest('hex'),
      'x-grafana-alerting-timestamp': ts,
    }
    for (const h of [headers, {}]) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/webhook/${ADDRESS}/v2/alerts/db-down/close`,
        headers: h,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/does not cover the path.*post \{"alias": …, "action": "close"\}.*signed/),
        details: [{ field: 'path', problem: expect.any(String) }],
      })
    }
    // The create call carries nothing in its path: as the address itself.
    const created = await app.inject({
      method: 'POST',
      url: `/api/v1/webhook/${ADDRESS}/v2/alerts`,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{}',
    })
    expect(created.statusCode).toBe(401) // the signature above is of an empty body
    expect(intake.published).toHaveLength(0)
  })

  it('are taken with a bearer token (no per-request proof to bind), the alias and action added', async () => {
    const { app, intake } = await build({ scheme: 'bearer', secrets: [] })
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/webhook/${ADDRESS}/v2/alerts/db-down/close`,
      headers: { authorization: 'Bearer token-0123456789abcdef' },
    })
    expect(res.statusCode).toBe(202)
    expect(intake.published).toHaveLength(1)
  })
})
