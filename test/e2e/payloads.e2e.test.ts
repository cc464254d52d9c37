// An integration's recent payloads (the samples the console's mapping editor starts from): the alerts
// consumer keeps each payload as received in the same script call that stores its alerts (so a
// replayed message adds none), the last 20, whole up to 64 KiB, readable only by an admin key of the
// integration's account, gone with the integration.
import { Kafka, logLevel, type Admin } from 'kafkajs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import type { DemoAccount } from '../../src/state/redis/store.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let admin: Admin

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts'])
  admin = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
})
afterAll(async () => {
  await admin?.disconnect()
  await t?.close()
})

async function call(method: string, path: string, body?: unknown, key = demo.adminApiKey): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} }
}

/** Every message of the alerts topic is recorded in the sink's offsets hash (written in the same script as the payloads). */
async function caughtUp(): Promise<void> {
  const topic = service.container.topics.alerts
  await waitFor('the alerts consumer to catch up', async () => {
    const ends = await admin.fetchTopicOffsets(topic)
    const done = await t.redis.hgetall(alertStreamKeys(t.config.redis.keyPrefix).offsets)
    return ends.every((p) => Number(p.high) === 0 || Number(done[`${topic}:${p.partition}`] ?? -1) >= Number(p.high) - 1) ? true : undefined
  })
}

const alertmanager = (i: number, extra: Json = {}) => ({
  version: '4',
  status: 'firing',
  commonLabels: { alertname: `Probe${i}`, team: 'payments' },
  alerts: [{ status: 'firing', labels: { alertname: `Probe${i}`, severity: 'critical', team: 'payments' }, annotations: { summary: `probe ${i}` }, startsAt: new Date().toISOString() }],
  ...extra,
})

it('keeps the last 20 payloads as received, newest first, whole up to 64 KiB, for admin keys of the account only', async () => {
  const created = await call('POST', '/api/v1/integrations', { name: 'probe', template: 'alertmanager' })
  expect(created.status).toBe(201)
  const id = String(created.body['id'])
  const path = new URL(String(created.body['webhookUrl'])).pathname
  const sent: { requestId: string; body: unknown }[] = []
  for (let i = 0; i < 23; i++) {
    // One payload above 64 KiB (kept as its size and time), one the mapping rejects (no alerts): both kept.
    const body = i === 20 ? alertmanager(i, { padding: 'x'.repeat(70 * 1024) }) : i === 21 ? { unrelated: [1, 2, 3], note: '<img src=x onerror=alert(1)>' } : alertmanager(i)
    const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect(res.status).toBe(202)
    sent.push({ requestId: ((await res.json()) as { requestId: string }).requestId, body })
  }
  await caughtUp()
  const res = await call('GET', `/api/v1/integrations/${id}/payloads`)
  expect(res.status).toBe(200)
  const payloads = res.body['payloads'] as Json[]
  const newest = sent.slice(-20).reverse()
  expect(payloads.map((p) => p['requestId'])).toEqual(newest.map((s) => s.requestId))
  for (const [i, p] of payloads.entries()) {
    const body = newest[i]!.body
    const bytes = Buffer.byteLength(JSON.stringify(body))
    expect(p['bytes']).toBe(bytes)
    if (bytes > 64 * 1024) expect(p).toMatchObject({ kept: false, payload: null })
    else expect(p).toMatchObject({ kept: true, payload: body })
    expect(Date.parse(String(p['receivedAt']))).toBeGreaterThan(Date.now() - 120_000)
  }
  expect(payloads.filter((p) => !p['kept'])).toHaveLength(1)

  // Only an admin key of the account, not restricted to workspaces or environments, reads them.
  const other = await t.store.createAccount('other')
  const { key: stranger } = await t.store.createApiKey({ kind: 'admin', accountId: other.id, name: 'stranger' })
  expect((await call('GET', `/api/v1/integrations/${id}/payloads`, undefined, stranger)).status).toBe(404)
  const { key: scoped } = await t.store.createApiKey({ kind: 'admin', accountId: demo.accountId, name: 'one env', environmentIds: [demo.environments[0]!.id] })
  expect((await call('GET', `/api/v1/integrations/${id}/payloads`, undefined, scoped)).status).toBe(403)
  expect((await call('GET', `/api/v1/integrations/${id}/payloads`, undefined, demo.environments[0]!.serverSideSdkKey)).status).toBe(401)

  // Gone with the integration.
  expect((await call('DELETE', `/api/v1/integrations/${id}`)).status).toBe(200)
  expect(await t.redis.exists(alertStreamKeys(t.config.redis.keyPrefix).payloads(id))).toBe(0)
})
