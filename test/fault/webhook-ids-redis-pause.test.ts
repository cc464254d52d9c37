// Redis paused (SIGSTOP) under a Standard Webhooks sender: the webhook edge keeps answering signed messages 202
// within about a second, and still answers a replayed webhook-id 200 as a duplicate without publishing it (from
// the ids this process remembers, since Redis cannot be asked); once Redis is back, ids accepted during the pause
// are still duplicates here, and ids accepted since are duplicates on another edge too. Kafka's topic holds each
// message once. Redis is a private instance.
import { createHmac } from 'node:crypto'
import { Kafka, logLevel } from 'kafkajs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'
import { startPrivateStack, type PrivateStack } from '../support/private-stack.js'

let stack: PrivateStack
let t: TestEnv
let service: RunningService
let demo: DemoAccount
type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  stack = await startPrivateStack(['redis'])
  t = await createTestEnv({ ...stack.env, SLUICE_REDIS_COMMAND_TIMEOUT_MS: '1000' })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin'])
}, 240_000)

afterAll(async () => {
  stack?.resume('redis')
  await t?.close()
  await stack?.stop()
})

async function topicSize(): Promise<number> {
  const admin = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    return (await admin.fetchTopicOffsets(service.container.topics.alerts)).reduce((n, p) => n + Number(p.high), 0)
  } finally {
    await admin.disconnect()
  }
}

it('answers signed messages and refuses their replays while Redis is paused, and after', async () => {
  const admin = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, {
      method: path.endsWith('authentication') ? 'PUT' : 'POST',
      headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }))
  const created = await admin('/api/v1/integrations', { name: 'sw', template: 'generic' })
  expect(created.status).toBe(201)
  const set = await admin(`/api/v1/integrations/${created.body['id']}/authentication`, {
    scheme: 'hmac',
    preset: 'standard-webhooks',
  })
  expect(set.status, JSON.stringify(set.body)).toBe(200)
  const key = Buffer.from((set.body['secret']['value'] as string).slice(6), 'base64')
  const hook = created.body['webhookUrl'] as string
  const body = JSON.stringify({ id: 'disk', severity: 'critical', message: 'disk full', status: 'firing' })
  const ts = String(Math.floor(Date.now() / 1000))
  const send = async (msgId: string) => {
    const started = Date.now()
    const res = await fetch(hook, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': msgId,
        'webhook-timestamp': ts,
        'webhook-signature': `v1,${createHmac('sha256', key).update(`${msgId}.${ts}.${body}`).digest('base64')}`,
      },
      body,
    })
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: Date.now() - started }
  }
  // The edge has the new authentication (the admin role in this process changed it).
  await waitFor('the sender authenticated', async () => ((await send('msg_before')).status === 202 ? true : undefined))
  const before = await topicSize()

  stack.pause('redis')
  try {
    const during = [await send('msg_before'), await send('msg_during'), await send('msg_during')]
    expect(during.map((r) => r.status)).toEqual([200, 202, 200])
    expect(during[0]!.body).toEqual({ requestId: expect.any(String), duplicate: true })
    for (const r of during) expect(r.ms, 'answered without waiting for Redis').toBeLessThan(1500)
  } finally {
    stack.resume('redis')
  }
  expect(await topicSize()).toBe(before + 1)

  // Back: what was accepted while it was away is still a duplicate; new ids are shared through Redis again.
  const after = [await send('msg_during'), await send('msg_after'), await send('msg_after'), await send('msg_before')]
  expect(after.map((r) => r.status)).toEqual([200, 202, 200, 200])
  expect(await topicSize()).toBe(before + 2)
  // Another edge on the same Redis sees an id accepted since (its own settings: its own spool folder).
  const other = await t.start(['edge'], { SLUICE_LOG_LEVEL: t.env['SLUICE_LOG_LEVEL']! })
  const replayElsewhere = await fetch(hook.replace(service.url, other.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': 'msg_after',
      'webhook-timestamp': ts,
      'webhook-signature': `v1,${createHmac('sha256', key).update(`msg_after.${ts}.${body}`).digest('base64')}`,
    },
    body,
  })
  expect(replayElsewhere.status).toBe(200)
  expect(await topicSize()).toBe(before + 2)
}, 120_000)
