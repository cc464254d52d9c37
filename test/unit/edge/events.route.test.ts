// The ingest routes' answers when Kafka cannot take the data or the process is draining. Kafka is the
// in-memory broker, unavailable; the spool is a real one on disk: the body goes there (202), or,
// when it is full, 503.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, expect, it } from 'vitest'
import { createLogger } from '../../../src/shared/logger.js'
import { createMetrics } from '../../../src/shared/metrics.js'
import type { ApiKeyCache } from '../../../src/auth/api-keys.js'
import { MemoryBroker } from '../../../src/broker/memory.js'
import { errorHandler } from '../../../src/http/errors.js'
import { installSchemaValidation } from '../../../src/http/schemas.js'
import { SdkIntake } from '../../../src/edge/sdk-intake.js'
import { eventRoutes } from '../../../src/edge/events.route.js'
import { SpoolingIntake } from '../../../src/edge/spool/intake.js'

const principal = { environmentId: 'env', accountId: 'acc', kind: 'server' as const }
const apiKeys = { lookup: async (key: string) => (key === 'good' ? principal : undefined) } as unknown as ApiKeyCache
let app: FastifyInstance | undefined
let broker: MemoryBroker | undefined
let intake: SpoolingIntake | undefined
const dirs: string[] = []

afterEach(async () => {
  await app?.close()
  await intake?.close()
  await broker?.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function build(draining: boolean, spoolMaxBytes = 1 << 20) {
  const log = createLogger('silent')
  broker = new MemoryBroker()
  broker.available = false
  const dir = mkdtempSync(join(tmpdir(), 'sluice-spool-test-'))
  dirs.push(dir)
  const metrics = createMetrics()
  intake = new SpoolingIntake(broker, { dir, maxBytes: spoolMaxBytes, afterMs: 200 }, metrics, log)
  await intake.open()
  app = Fastify()
  installSchemaValidation(app)
  app.setErrorHandler(errorHandler)
  const sdk = new SdkIntake({
    intake,
    apiKeys,
    metrics: createMetrics(),
    maxBodyBytes: 8 << 20,
    beaconMaxBodyBytes: 65536,
    maxRecords: 10_000,
    rateLimit: { ratePerSecond: 1000, burst: 1000 },
    messageMaxBytes: 768 * 1024,
    isDraining: () => draining,
  })
  await app.register(eventRoutes, { sdk, topic: 'events', format: 'lines' })
  return app
}

const post = (a: FastifyInstance) =>
  a.inject({
    method: 'POST',
    url: '/api/events/bulk',
    headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
    payload: [{ eventTypeId: 'e' }],
  })

it('answers 202 from the spool when Kafka does not acknowledge, and says so', async () => {
  const a = await build(false)
  const [first, second] = await Promise.all([post(a), post(a)])
  for (const res of [first, second]) {
    expect(res.statusCode).toBe(202)
    expect(res.json()).toMatchObject({ accepted: 1, spooled: true })
  }
  expect(intake!.state()).toMatchObject({ spooling: true, spool: { entries: 2, messages: 2 } })
}, 60_000)

it('answers 503 with Retry-After when Kafka does not acknowledge and the spool is full', async () => {
  const a = await build(false, 100)
  const [first, second] = await Promise.all([post(a), post(a)])
  for (const res of [first, second]) {
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.json()).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/nothing was accepted/) })
  }
  expect(intake!.state()).toMatchObject({ spool: { entries: 0 } })
}, 60_000)

it('answers 503 while draining, before touching Kafka', async () => {
  const res = await post(await build(true))
  expect(res.statusCode).toBe(503)
  expect(res.json()).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/shutting down/) })
})
