// HTTP in, ClickHouse rows out, through real Kafka, ClickHouse and Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/app/container.js'
import { checkReadiness } from '../../src/app/readiness.js'
import { createLogger } from '../../src/shared/logger.js'
import { startService, type RunningService } from '../../src/app/service.js'
import { loadConfig } from '../../src/config/index.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, event, postEvents, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let key: string

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  key = demo.environments[0]!.serverSideSdkKey
  service = await t.start()
})
afterAll(async () => t?.close())

const rowsOf = (requestId: unknown) => `request_id = '${String(requestId)}'`

describe('POST /api/events/bulk', () => {
  it('turns accepted events into ClickHouse rows with normalized fields', async () => {
    const body = [
      event(1, { timestamp: 1_700_000_000_123 }),
      { eventTypeId: 'page.view', trafficTypeName: 'user', key: 'k2', timestamp: '1645557823', properties: null },
      { eventTypeId: 'signup', trafficTypeName: 'account', key: 'k3', timestamp: '1645557823456.9', value: null },
    ]
    const res = await postEvents(service.url, key, body, { SplitSDKVersion: 'nodejs-10.28.0' })
    expect(res.status).toBe(202)
    expect(res.body).toMatchObject({ accepted: 3 })
    expect(res.headers.get('x-request-id')).toBe(res.body['requestId'])

    const where = rowsOf(res.body['requestId'])
    await waitFor('3 rows', async () => ((await t.count('events', where)) === 3 ? true : undefined))
    const rows = await t.query<Record<string, unknown>>(
      `SELECT environment_id, account_id, traffic_type, event_type, key, toUnixTimestamp(timestamp) AS ts, timestamp_ms, timestamp_raw,
              value, properties, sdk_version, source_topic FROM {db}.events WHERE ${where} ORDER BY key`,
    )
    const env = demo.environments[0]!
    expect(rows).toEqual([
      {
        environment_id: env.id,
        account_id: demo.accountId,
        traffic_type: 'user',
        event_type: 'page.view',
        key: 'k2',
        ts: 1645557823,
        timestamp_ms: '1645557823000',
        timestamp_raw: '1645557823',
        value: null,
        properties: '{}',
        sdk_version: 'nodejs-10.28.0',
        source_topic: service.container.topics.events,
      },
      {
        environment_id: env.id,
        account_id: demo.accountId,
        traffic_type: 'account',
        event_type: 'signup',
        key: 'k3',
        ts: 1645557823,
        timestamp_ms: '1645557823456',
        timestamp_raw: '1645557823456.9',
        value: null,
        properties: '{}',
        sdk_version: 'nodejs-10.28.0',
        source_topic: service.container.topics.events,
      },
      {
        environment_id: env.id,
        account_id: demo.accountId,
        traffic_type: 'user',
        event_type: 'checkout',
        key: 'user-1',
        ts: 1700000000,
        timestamp_ms: '1700000000123',
        timestamp_raw: '1700000000123',
        value: 1,
        properties: '{"plan":"pro","seats":1,"trial":false}',
        sdk_version: 'nodejs-10.28.0',
        source_topic: service.container.topics.events,
      },
    ])
  })

  it('puts invalid records in event_rejections with a reason naming the field, beside the valid ones', async () => {
    const body = [
      event(1),
      { trafficTypeName: 'user', key: 'a', timestamp: 1 },
      event(2, { value: 'ten' }),
      event(3, { properties: { nested: { no: 1 } } }),
      event(4, { timestamp: '12:30' }),
      event(5, { eventTypeId: 'has space' }),
      event(6, { key: '' }),
      event(7),
    ]
    const res = await postEvents(service.url, key, body)
    expect(res.status).toBe(202)
    const where = rowsOf(res.body['requestId'])
    await waitFor('all 8 records stored', async () =>
      (await t.count('events', where)) + (await t.count('event_rejections', where)) === 8 ? true : undefined,
    )
    expect(await t.count('events', where)).toBe(2)
    const rejections = await t.query<{ reason: string; raw: string; source_index: number }>(
      `SELECT reason, raw, source_index FROM {db}.event_rejections WHERE ${where} ORDER BY source_index`,
    )
    expect(rejections.map((r) => [r.source_index, r.reason])).toEqual([
      [1, 'eventTypeId is required'],
      [2, 'value must be a number or null'],
      [3, 'properties.nested must be a string (at most 32768 characters), number, boolean or null'],
      [4, 'timestamp must be a non-negative number or a string of decimal digits (epoch seconds or milliseconds)'],
      [5, 'eventTypeId must be a string of 1 to 80 letters, digits or - _ . : starting with a letter or digit'],
      [6, 'key must be a string of 1 to 250 characters'],
    ])
    expect(JSON.parse(rejections[1]!.raw)).toEqual(body[2])
    const metrics = await (await fetch(`${service.url}/metrics`)).text()
    expect(metrics).toMatch(/sluice_events_rejected_total [1-9]/)
  })

  it('keeps a resent request as separate events', async () => {
    const body = [event(100), event(101)]
    const first = await postEvents(service.url, key, body)
    const second = await postEvents(service.url, key, body)
    expect([first.status, second.status]).toEqual([202, 202])
    const where = `key IN ('user-100', 'user-101') AND request_id IN ('${String(first.body['requestId'])}', '${String(second.body['requestId'])}')`
    await waitFor('4 rows', async () => ((await t.count('events', where)) === 4 ? true : undefined))
  })

  it('accepts a 5 MiB body as several Kafka messages and stores every event', async () => {
    const filler = 'x'.repeat(400)
    const body = Array.from({ length: 10_000 }, (_, i) => event(i, { properties: { note: filler, i } }))
    const json = JSON.stringify(body)
    expect(json.length).toBeGreaterThan(5 * 1024 * 1024)
    const res = await postEvents(service.url, key, json)
    expect(res.status).toBe(202)
    expect(res.body['accepted']).toBe(10_000)
    const where = rowsOf(res.body['requestId'])
    await waitFor('10,000 rows', async () => ((await t.count('events', where)) === 10_000 ? true : undefined), 60_000)
    const [stats] = await t.query<{ messages: string; distinct_keys: string }>(
      `SELECT uniqExact(source_partition, source_offset) AS messages, uniqExact(key) AS distinct_keys FROM {db}.events WHERE ${where}`,
    )
    // 5 MiB cannot fit in one message under the broker's 1 MiB limit.
    expect(Number(stats!.messages)).toBeGreaterThanOrEqual(7)
    expect(Number(stats!.distinct_keys)).toBe(10_000)
  })

  it('answers 401 for a missing, unknown or revoked key', async () => {
    for (const k of [undefined, 'sdk_srv_unknown']) {
      const res = await postEvents(service.url, k, [event(1)])
      expect(res.status).toBe(401)
      expect(res.body).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' })
      expect(String(res.body['message'])).toMatch(/SDK key/)
    }
    const admin = await postEvents(service.url, demo.adminApiKey, [event(1)])
    expect(admin.status).toBe(401)

    const staging = demo.environments[1]!.clientSideSdkKey
    expect((await postEvents(service.url, staging, [event(1)])).status).toBe(202)
    expect(await t.tenancy.revokeApiKey(staging)).toBe(true)
    const started = Date.now()
    await waitFor(
      'revoked key refused',
      async () => ((await postEvents(service.url, staging, [event(1)])).status === 401 ? true : undefined),
      10_000,
    )
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('answers 400 for malformed JSON, a non-array, a non-object record and prototype poisoning', async () => {
    const cases: [string, RegExp][] = [
      ['[{"eventTypeId": "a",', /not valid JSON/],
      ['{"eventTypeId":"a"}', /body must be array/],
      ['[{"eventTypeId":"a"}, 42]', /body\[1\] must be object/],
      ['[{"eventTypeId":"a","__proto__":{"admin":true}}]', /forbidden key/],
      ['[{"constructor":{"prototype":{"admin":true}}}]', /forbidden key/],
      ['', /empty/],
    ]
    for (const [body, message] of cases) {
      const res = await postEvents(service.url, key, body)
      expect(res.status, body).toBe(400)
      expect(res.body['code']).toBe('BAD_REQUEST')
      expect(String(res.body['message'])).toMatch(message)
    }
  })

  it('answers 415 for a content type other than JSON', async () => {
    const res = await postEvents(service.url, key, JSON.stringify([event(1)]), { 'content-type': 'text/csv' })
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Content-Type must be application/json' })
  })

  it('answers 413 above the body and record limits, and for one oversize record', async () => {
    const tooMany = await postEvents(
      service.url,
      key,
      Array.from({ length: 500_001 }, () => ({})),
    )
    expect(tooMany.status).toBe(413)
    expect(String(tooMany.body['message'])).toMatch(/500001 records is above the limit of 500000/)

    const megabyte = 'y'.repeat(1024 * 1024)
    const tooBig = await postEvents(
      service.url,
      key,
      Array.from({ length: 11 }, () => ({ k: megabyte })),
    )
    expect(tooBig.status).toBe(413)
    expect(String(tooBig.body['message'])).toMatch(/larger than the limit of 10485760 bytes/)

    // A valid record larger than a Kafka message (30 properties at their limit of 32,768 characters) refuses the
    // request; an invalid one (a property over that limit) is refused alone, as a rejection naming the field.
    const wide = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, 'x'.repeat(32_768)]))
    const oneHuge = await postEvents(service.url, key, [event(1), event(2, { properties: wide })])
    expect(oneHuge.status).toBe(413)
    expect(String(oneHuge.body['message'])).toMatch(/record 1 is \d+ bytes as stored, above the per-record limit/)
    const oneBad = await postEvents(service.url, key, [event(1), event(2, { properties: { blob: megabyte } })])
    expect(oneBad.status).toBe(202)
    expect(oneBad.body['accepted']).toBe(2)
    const bad = `request_id = '${String(oneBad.body['requestId'])}'`
    await waitFor('the invalid record refused, the other stored', async () =>
      (await t.count('events', bad)) === 1 && (await t.count('event_rejections', bad)) === 1 ? true : undefined,
    )
    const [refused] = await t.query<{ reason: string }>(`SELECT reason FROM {db}.event_rejections WHERE ${bad}`)
    expect(refused!.reason).toMatch(/^properties\.blob must be a string \(at most 32768 characters\)/)

    // Each refusal is counted with the limit that caused it.
    const metrics = await (await fetch(`${service.url}/metrics`)).text()
    for (const limit of ['records', 'body_bytes', 'record_bytes']) {
      expect(metrics).toMatch(
        new RegExp(
          `sluice_http_errors_total\\{route="/api/events/bulk",code="PAYLOAD_TOO_LARGE",limit="${limit}"\\} 1`,
        ),
      )
    }
  })
})

describe('POST /api/events/beacon', () => {
  it('accepts the browser SDK text/plain body {entries, token, sdk}', async () => {
    const client = demo.environments[0]!.clientSideSdkKey
    const res = await fetch(`${service.url}/api/events/beacon`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ entries: [event(7, { key: 'beacon-user' })], token: client, sdk: 'javascript-10.28.0' }),
    })
    expect(res.status).toBe(202)
    const { requestId } = (await res.json()) as { requestId: string }
    await waitFor('beacon row', async () =>
      (await t.count(
        'events',
        `request_id = '${requestId}' AND key = 'beacon-user' AND sdk_version = 'javascript-10.28.0'`,
      )) === 1
        ? true
        : undefined,
    )

    const bad = await fetch(`${service.url}/api/events/beacon`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ entries: [], token: 'nope' }),
    })
    expect(bad.status).toBe(401)
  })
})

describe('health, readiness and metrics', () => {
  it('reports alive, ready with all three dependencies, and Prometheus metrics', async () => {
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
    const ready = await fetch(`${service.url}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: {
        kafka: 'ok',
        clickhouse: 'ok',
        redis: 'ok',
        spool: 'ok',
        'events-consumer': 'ok',
        'impressions-consumer': 'ok',
      },
    })
    const metrics = await (await fetch(`${service.url}/metrics`)).text()
    expect(metrics).toMatch(
      /sluice_http_requests_total\{route="\/api\/events\/bulk",method="POST",status_code="202"\} \d+/,
    )
    expect(metrics).toMatch(/sluice_events_accepted_total \d+/)
    expect(metrics).toMatch(/sluice_events_inserted_total [1-9]/)
    expect(metrics).toMatch(/sluice_consumer_lag_messages\{topic="[^"]+",partition="\d"\} \d+/)
    expect(metrics).toMatch(/sluice_clickhouse_insert_rows_bucket/)
    expect(metrics).toMatch(/sluice_clickhouse_insert_seconds_bucket/)
  })

  it('is not ready when a dependency does not answer, and does not start without it', async () => {
    const config = loadConfig({ ...t.env, REDIS_URL: 'redis://127.0.0.1:1' })
    const container = new Container(config, createLogger('silent'))
    try {
      const { ready, checks } = await checkReadiness(container)
      expect(ready).toBe(false)
      expect(checks.kafka).toBe('ok')
      expect(checks.clickhouse).toBe('ok')
      expect(checks.redis).not.toBe('ok')
    } finally {
      await container.close()
    }
    await expect(startService(config, ['edge'], createLogger('silent'))).rejects.toThrow(
      /ECONNREFUSED|connect|Connection/i,
    )
  })
})
