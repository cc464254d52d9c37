// Roles connect to what they need only: an edge-only process starts, is ready and answers 202 with
// ClickHouse unreachable (Kafka holds the events), and an events consumer started later stores them;
// an admin-only process needs Redis alone; each /readyz asks only about the services of its roles,
// and each process serves only its roles' routes.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, event, postEvents, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let demo: DemoAccount

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
}, 120_000)
afterAll(async () => t?.close())

it('an edge-only process takes events while ClickHouse is unreachable; an events consumer stores them later', async () => {
  const edge = await t.start(['edge'], { CLICKHOUSE_URL: 'http://127.0.0.1:1' })
  const ready = await fetch(`${edge.url}/readyz`)
  expect(ready.status).toBe(200)
  expect(await ready.json()).toEqual({ status: 'ready', checks: { kafka: 'ok', redis: 'ok', spool: 'ok' } })

  const key = demo.environments[0]!.serverSideSdkKey
  const res = await postEvents(
    edge.url,
    key,
    Array.from({ length: 50 }, (_, i) => event(i, { eventTypeId: 'roles.edge_only' })),
  )
  expect(res.status).toBe(202)
  expect(res.body['spooled']).toBeUndefined()

  const consumer = await t.start(['events'])
  const consumerReady = await fetch(`${consumer.url}/readyz`)
  expect(await consumerReady.json()).toEqual({
    status: 'ready',
    checks: { kafka: 'ok', clickhouse: 'ok', redis: 'ok', 'events-consumer': 'ok', 'impressions-consumer': 'ok' },
  })
  await waitFor(
    'the events stored',
    async () => {
      const [row] = await t.query<{ n: string }>(
        `SELECT count() AS n FROM {db}.events WHERE event_type = 'roles.edge_only'`,
      )
      return Number(row?.n) === 50 ? true : undefined
    },
    60_000,
  )
})

it('an admin-only process serves the admin APIs with Kafka and ClickHouse unreachable, and no ingest route', async () => {
  const admin = await t.start(['admin'], { KAFKA_BROKERS: '127.0.0.1:1', CLICKHOUSE_URL: 'http://127.0.0.1:1' })
  const ready = await fetch(`${admin.url}/readyz`)
  expect(await ready.json()).toEqual({ status: 'ready', checks: { redis: 'ok' } })
  const workspaces = await fetch(`${admin.url}/internal/api/v2/workspaces`, {
    headers: { authorization: `Bearer ${demo.adminApiKey}` },
  })
  expect(workspaces.status).toBe(200)
  expect(((await workspaces.json()) as { totalCount: number }).totalCount).toBe(1)
  const events = await postEvents(admin.url, demo.environments[0]!.serverSideSdkKey, [event(1)])
  expect(events.status).toBe(404)
})

it('an edge-only process serves no admin API', async () => {
  const edge = await t.start(['edge'])
  const res = await fetch(`${edge.url}/internal/api/v2/workspaces`, {
    headers: { authorization: `Bearer ${demo.adminApiKey}` },
  })
  expect(res.status).toBe(404)
  expect(
    (await fetch(`${edge.url}/api/v1/integrations`, { headers: { authorization: `Bearer ${demo.adminApiKey}` } }))
      .status,
  ).toBe(404)
})
