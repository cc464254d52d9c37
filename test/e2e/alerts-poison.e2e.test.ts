// Poison corpus for alert webhooks and mappings, on real Kafka and Redis: hostile payloads (at the
// edge and written to Kafka directly, on every partition), mappings that reach built-in methods or
// explode combinatorially, and a message Redis itself refuses. Afterwards every valid alert is stored
// once, every poison message is a rejection with its reason, /test never answered 500, and the
// process is alive, ready and caught up.
import { Kafka, logLevel } from 'kafkajs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { ALERT_HEADERS } from '../../src/broker/messages/alerts.js'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, waitFor, waitForZeroLag, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_INTEGRATION_REFRESH_MS: '200' })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts'])
}, 120_000)
afterAll(async () => t?.close())

async function call(
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${demo.adminApiKey}`,
      ...(body !== undefined ? { 'content-type': contentType } : {}),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
}

const post = (integration: Record<string, unknown>, payload: string, contentType = 'application/json') =>
  fetch(`${service.url}${new URL(String(integration['webhookUrl'])).pathname}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: payload,
  })

const entries = async (key: string) =>
  (await t.redis.xrange(key, '-', '+')).map(([, f]) =>
    Object.fromEntries(Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i]!, f[2 * i + 1]!])),
  )

const HOSTILE_MAPPING = {
  severity: '{{webhook.sev}}',
  description: 'obj {{webhook.obj}} arr {{webhook.arr}}',
  source: 'poison-test',
  correlationId: '{{webhook.id}}',
  defaults: { severity: 'warning' },
  customFields: {
    // Array.prototype.join on a {length: 1e8} object once built a 100 MB string from 30 bytes.
    join: '{{#webhook.x}}{{webhook.arr.join}}{{/webhook.x}}',
    // Object.prototype methods reached from a section once answered 500 in /test.
    getter: '{{#webhook}}{{__defineGetter__}}{{/webhook}}',
  },
}

it('renders hostile mappings safely and within budget; /test never answers 500', async () => {
  const created = await call('POST', '/api/v1/integrations', { name: 'Hostile', mapping: HOSTILE_MAPPING })
  expect(created.status).toBe(201)
  const id = String(created.body['id'])
  const test = await call('POST', `/api/v1/integrations/${id}/test`, {
    payload: { sev: 'critical', id: 'x', obj: { a: 1 }, arr: [1, 2], x: { length: 100_000_000 } },
  })
  expect(test.status).toBe(200)
  expect(test.body['rejected']).toEqual([])
  const [alert] = test.body['alerts'] as Record<string, unknown>[]
  expect(alert).toMatchObject({ severity: 'critical', description: 'obj {"a":1} arr [1,2]', customFields: {} })

  // A text/plain body is not silently replaced by the example: 415.
  expect((await call('POST', `/api/v1/integrations/${id}/test`, '{"payload":{}}', 'text/plain')).status).toBe(415)

  // Save-time limits name the field; a combinatorial template within the depth limit hits the work budget.
  const deep = await call('POST', '/api/v1/integrations', {
    name: 'Deep',
    mapping: {
      ...HOSTILE_MAPPING,
      customFields: {},
      description: '{{#webhook.a}}{{#b}}{{#c}}{{#d}}x{{/d}}{{/c}}{{/b}}{{/webhook.a}}',
    },
  })
  expect(deep.status).toBe(400)
  expect((deep.body['details'] as unknown[])[0]).toEqual({
    field: 'mapping.description',
    problem: 'sections nest deeper than 3 levels',
  })
  const bomb = await call('POST', '/api/v1/integrations', {
    name: 'Bomb',
    mapping: {
      ...HOSTILE_MAPPING,
      customFields: {},
      description: 'x{{#webhook.a}}{{#webhook.a}}{{#webhook.a}}0123456789{{/webhook.a}}{{/webhook.a}}{{/webhook.a}}',
    },
  })
  expect(bomb.status).toBe(201)
  const started = Date.now()
  const exploded = await call('POST', `/api/v1/integrations/${String(bomb.body['id'])}/test`, {
    payload: { sev: 'info', a: Array.from({ length: 1000 }, (_, i) => i) },
  })
  expect(exploded.status).toBe(200)
  expect(exploded.body).toEqual({
    alerts: [],
    rejected: [{ index: 0, reason: expect.stringMatching(/more than (500000 steps|64 KiB|65536 characters|1000 ms)/) }],
  })
  expect(Date.now() - started).toBeLessThan(10_000)
})

it('stores every valid alert once and rejects every poison message with its reason, and keeps going', async () => {
  const target = await call('POST', '/api/v1/integrations', { name: 'Target', mapping: HOSTILE_MAPPING })
  const refusing = await call('POST', '/api/v1/integrations', { name: 'Refused by Redis', mapping: HOSTILE_MAPPING })
  // A mapping saved before the depth limit existed (written to Redis as is): refused when rendered.
  const legacy = await call('POST', '/api/v1/integrations', { name: 'Legacy', mapping: HOSTILE_MAPPING })
  const legacyKey = `${t.config.redis.keyPrefix}integration:${String(legacy.body['id'])}`
  const record = JSON.parse((await t.redis.get(legacyKey))!) as { mapping: Record<string, unknown> }
  record.mapping['description'] =
    '{{#webhook.arr}}{{#webhook.arr}}{{#webhook.arr}}{{#webhook.arr}}{{#webhook.arr}}x{{/webhook.arr}}{{/webhook.arr}}{{/webhook.arr}}{{/webhook.arr}}{{/webhook.arr}}'
  await t.redis.set(legacyKey, JSON.stringify(record))
  for (const r of [target, refusing, legacy]) expect(r.status).toBe(201)
  const targetId = String(target.body['id'])
  const streams = alertStreamKeys(t.config.redis.keyPrefix)
  // Redis refuses XADD to a key that is not a stream (WRONGTYPE): a deterministic refusal.
  await t.redis.set(streams.integration(String(refusing.body['id'])), 'not a stream')

  const valid = (n: number) => JSON.stringify({ sev: 'warning', id: `valid-${n}`, obj: { n }, arr: [n] })
  let validCount = 0
  const expected: [RegExp, number][] = []

  // What the edge refuses whole (400 naming where): malformed Unicode, numbers beyond a double, depth.
  const edgeRefusals: [string, string][] = [
    ['{"sev":"critical","obj":"a\\ud800"}', 'body.obj contains a lone UTF-16 surrogate (malformed Unicode)'],
    ['{"sev":"critical","n":1e400}', 'body.n is a number beyond the range of a double'],
    [`{"a":${'['.repeat(80)}${']'.repeat(80)}}`, ''],
  ]
  for (const [payload, message] of edgeRefusals) {
    const res = await post(target.body, payload)
    expect(res.status).toBe(400)
    if (message) expect(((await res.json()) as { message: string }).message).toBe(message)
  }
  // Valid JSON labelled text/plain is any JSON to a webhook: accepted.
  expect((await post(target.body, valid(0), 'text/plain')).status).toBe(202)
  validCount++

  // Through the edge: valid alerts around the one Redis refuses and the legacy mapping's.
  expect((await post(target.body, valid(1))).status).toBe(202)
  expect((await post(refusing.body, valid(2))).status).toBe(202)
  expected.push([/^redis refused the entries of this message: redis: WRONGTYPE/, 1])
  expect((await post(legacy.body, valid(3))).status).toBe(202)
  expected.push([/^sections nest deeper than 3 levels/, 1])
  expect((await post(target.body, valid(4))).status).toBe(202)
  validCount += 2

  // Written to Kafka directly (an older edge, another writer), on every partition.
  const kafka = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING })
  const producer = kafka.producer()
  await producer.connect()
  const headers = (requestId: string, extra: Record<string, string> = {}) => ({
    [ALERT_HEADERS.integration]: targetId,
    [ALERT_HEADERS.account]: demo.accountId,
    [ALERT_HEADERS.receivedAt]: String(Date.now()),
    [ALERT_HEADERS.requestId]: requestId,
    ...extra,
  })
  const direct: [string, RegExp, Record<string, string>?][] = [
    ['{"sev":"critical","obj":"a\\udc00"}', /^payload\.obj contains a lone UTF-16 surrogate/],
    [
      `{"sev":"critical","obj":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      /^payload\.obj(\[0\])+… nests deeper than 64 levels/,
    ],
    ['{"sev":"critical","n":1e400}', /^payload\.n is a number beyond the range of a double/],
    ['{"sev":"critical"', /^payload could not be rendered: /],
    ['not gzip', /^message could not be decoded: /, { [ALERT_HEADERS.encoding]: 'gzip' }],
  ]
  for (let partition = 0; partition < t.config.kafka.partitions; partition++) {
    const messages = direct.map(([value, , extra], i) => ({
      partition,
      value,
      headers: headers(`direct-${partition}-${i}`, extra),
    }))
    messages.splice(2, 0, { partition, value: valid(100 + partition), headers: headers(`direct-valid-${partition}`) })
    validCount++
    await producer.send({ topic: service.container.topics.alerts, messages })
  }
  await producer.disconnect()
  for (const [, reason] of direct) expected.push([reason, t.config.kafka.partitions])

  // After all of it, intake goes on.
  expect((await post(target.body, valid(5))).status).toBe(202)
  validCount++

  const rejectionsWanted = expected.reduce((n, [, c]) => n + c, 0)
  await waitFor(
    'every alert stored or rejected',
    async () => {
      const stored = await t.redis.xlen(streams.integration(targetId))
      const rejected = await t.redis.xlen(streams.rejections)
      return stored >= validCount && rejected >= rejectionsWanted ? true : undefined
    },
    60_000,
  )
  await new Promise((r) => setTimeout(r, 1000))

  const alerts = await entries(streams.integration(targetId))
  expect(alerts).toHaveLength(validCount)
  expect(new Set(alerts.map((a) => a['correlationId'])).size).toBe(validCount)
  const rejections = await entries(streams.rejections)
  expect(rejections).toHaveLength(rejectionsWanted)
  for (const [pattern, n] of expected)
    expect(
      rejections.filter((r) => pattern.test(r['reason'] ?? '')),
      String(pattern),
    ).toHaveLength(n)
  // The stream Redis refused is untouched, and nothing of the refused message went to alerts:all.
  expect(await t.redis.type(streams.integration(String(refusing.body['id'])))).toBe('string')
  expect((await entries(streams.all)).filter((a) => a['integrationId'] === refusing.body['id'])).toEqual([])

  expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
  await waitForZeroLag(service.url, 'alerts', t.config.kafka.partitions)
  expect((await fetch(`${service.url}/readyz`)).status).toBe(200)
  const metrics = await (await fetch(`${service.url}/metrics`)).text()
  expect(metrics).toMatch(/^sluice_sink_errors_total\{sink="redis",kind="data"\} [1-9]/m)
}, 120_000)
