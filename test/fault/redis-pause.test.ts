// Redis paused (SIGSTOP): event intake keeps answering 202 from its in-memory key copy; every admin,
// integrations and settings request is answered 503 with Retry-After in its API's own error body
// within about the command deadline, however many arrive (nothing piles up); and everything works
// again by itself once Redis is back. Once, such requests hung with no answer for as long as Redis
// was away. Under webhook load, every notification of a repeating alert is counted once through the
// pause. Redis is a private instance.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { adminCaller, event, postEvents, waitFor, type TestEnv } from '../support/harness.js'
import { startFaultEnv, type FaultEnv } from '../support/private-stack.js'

let env: FaultEnv
let stack: FaultEnv['stack']
let t: TestEnv
let service: RunningService
let demo: DemoAccount

beforeAll(async () => {
  env = await startFaultEnv(['redis'], { SLUICE_REDIS_COMMAND_TIMEOUT_MS: '1000' }, [
    'edge',
    'admin',
    'events',
    'alerts',
  ])
  ;({ stack, t, service, demo } = env)
}, 240_000)

afterAll(async () => {
  env?.stack.resume('redis')
  await env?.close()
})

const admin = adminCaller(
  () => service.url,
  () => demo.adminApiKey,
)

it('answers 503 with Retry-After in each API shape while Redis is paused, and recovers by itself', async () => {
  expect((await admin('/internal/api/v2/workspaces')).status).toBe(200)
  stack.pause('redis')
  try {
    const started = Date.now()
    const split = await admin('/internal/api/v2/workspaces')
    expect(split.status).toBe(503)
    expect(split.headers.get('retry-after')).toBe('5')
    expect(await split.json()).toMatchObject({
      code: 503,
      message: expect.stringMatching(/did not answer in time/),
      transactionId: expect.any(String),
    })

    const integrations = await admin('/api/v1/integrations')
    expect(integrations.status).toBe(503)
    expect(await integrations.json()).toMatchObject({
      statusCode: 503,
      code: 'UNAVAILABLE',
      requestId: expect.any(String),
    })

    const settings = await fetch(
      `${service.url}/gateway/ng/api/settings?accountIdentifier=${demo.accountId}&category=SCIM`,
      { headers: { 'x-api-key': demo.personalAccessToken! } },
    )
    expect(settings.status).toBe(503)
    expect(await settings.json()).toMatchObject({ status: 'ERROR', correlationId: expect.any(String) })
    expect(Date.now() - started).toBeLessThan(10_000)

    // Many at once, writes among them: each is answered; none waits for Redis to come back.
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? admin('/internal/api/v2/workspaces').then((r) => r.status)
          : admin('/api/v1/integrations', {
              method: 'POST',
              body: JSON.stringify({ name: `n${i}`, template: 'generic' }),
            }).then((r) => r.status),
      ),
    )
    expect(new Set(burst)).toEqual(new Set([503]))
    expect(Date.now() - started).toBeLessThan(40_000)

    // Event intake does not need Redis: keys are known in memory.
    expect((await postEvents(service.url, demo.environments[0]!.serverSideSdkKey, [event(1)])).status).toBe(202)
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
  } finally {
    stack.resume('redis')
  }
  await waitFor(
    'admin requests served again',
    async () => ((await admin('/internal/api/v2/workspaces')).status === 200 ? true : undefined),
    20_000,
  )
  const created = await admin('/api/v1/integrations', {
    method: 'POST',
    body: JSON.stringify({ name: 'after', template: 'generic' }),
  })
  expect(created.status).toBe(201)
  await waitFor('the event stored', async () => ((await t.count('events')) === 1 ? true : undefined), 30_000)
}, 120_000)

it('counts every notification of a repeating alert once and puts each alert in its incident once when Redis pauses 10 s under webhook load (the lifecycle state is written with the offset)', async () => {
  const created = await admin('/api/v1/integrations', {
    method: 'POST',
    body: JSON.stringify({ name: 'repeating', template: 'generic' }),
  })
  expect(created.status).toBe(201)
  const integration = (await created.json()) as { id: string; webhookUrl: string }
  // Its alerts grouped into one incident: the grouping is written with each alert and its offset.
  const rules = await admin('/api/v1/alert-rules', {
    method: 'PUT',
    body: JSON.stringify({ rules: [{ id: 'db', name: 'db', group: { by: ['source'], until: 'resolved' } }] }),
  })
  expect(rules.status).toBe(200)
  await new Promise((r) => setTimeout(r, 1000))
  const KEYS = 20
  const sent = new Map<string, number>()
  let running = true
  let n = 0
  const load = (async () => {
    while (running) {
      const id = `k${n++ % KEYS}`
      const res = await fetch(integration.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id, severity: 'critical', message: `disk ${id}`, source: 'db', status: 'firing' }),
      })
      if (res.status === 202) sent.set(id, (sent.get(id) ?? 0) + 1)
      await new Promise((r) => setTimeout(r, 120))
    }
  })()
  const accepted = () => [...sent.values()].reduce((a, b) => a + b, 0)
  await new Promise((r) => setTimeout(r, 3000))
  stack.pause('redis')
  await new Promise((r) => setTimeout(r, 10_000))
  stack.resume('redis')
  await new Promise((r) => setTimeout(r, 3000))
  // At least 50 notifications in all: on a loaded machine the senders need longer after the pause to get there.
  await waitFor('50 notifications accepted', async () => (accepted() > 50 ? true : undefined), 30_000).catch(
    () => undefined,
  )
  running = false
  await load
  const total = accepted()
  expect(total).toBeGreaterThan(50)
  const counted = async () => {
    const { alerts } = await t.state.alerts.list(demo.accountId, {
      status: 'open',
      filters: { integrationId: integration.id },
      limit: 100,
    })
    return new Map(alerts.map((a) => [a.dedupKey, a.count]))
  }
  await waitFor(
    `${total} notifications counted`,
    async () => ([...(await counted()).values()].reduce((a, b) => a + b, 0) >= total ? true : undefined),
    60_000,
  )
  await new Promise((r) => setTimeout(r, 2000))
  expect(await counted()).toEqual(sent)
  // Each of the 20 alerts joined the one incident once.
  const { alerts } = await t.state.alerts.list(demo.accountId, {
    status: 'open',
    filters: { integrationId: integration.id },
    limit: 100,
  })
  const incidentIds = [...new Set(alerts.map((a) => a.incidentId))]
  expect(incidentIds).toHaveLength(1)
  const incident = await t.state.incidents.get(demo.accountId, incidentIds[0]!)
  expect({ alerts: incident?.alerts, open: incident?.open }).toEqual({ alerts: KEYS, open: KEYS })
  expect((await t.state.incidents.members(demo.accountId, incidentIds[0]!, 100)).total).toBe(KEYS)
}, 120_000)
