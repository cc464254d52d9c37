// Alert webhooks end to end: integrations over HTTP, payloads through real Kafka, normalized alerts
// in real Redis streams.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Kafka, logLevel } from 'kafkajs'
import type { RunningService } from '../../src/app/service.js'
import { ALERT_TEMPLATES } from '../../src/pipeline/alerts/templates.js'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import { isCluster } from '../../src/state/redis/client.js'
import { slotTag } from '../../src/state/redis/keys.js'
import { hashKey, type DemoAccount } from '../../src/state/redis/tenancy.js'
import { exited, spawnSluice } from '../support/cli.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
/**
 * The demo account's alert keys, and what the shared state's keys start with (the suite also runs on a Redis Cluster).
 */
const alertKeys = () => alertStreamKeys(t.config.redis.keyPrefix, isCluster(t.config.redis), demo.accountId)
const adminTag = () => slotTag(t.config.redis.keyPrefix, isCluster(t.config.redis), 'admin')

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_WEBHOOK_ROTATION_OVERLAP_SECONDS: '3',
    SLUICE_INTEGRATION_REFRESH_MS: '200',
    KAFKA_SESSION_TIMEOUT_MS: '6000',
  })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts'])
})
afterAll(async () => t?.close())

interface Res {
  status: number
  body: Record<string, unknown>
  headers: Headers
}

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${demo.adminApiKey}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers }
}

const webhookPath = (integration: Record<string, unknown>) => new URL(String(integration['webhookUrl'])).pathname
const post = (path: string, payload: unknown, contentType = 'application/json') =>
  fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  })

async function create(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await call('POST', '/api/v1/integrations', body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

async function alertsOf(id: unknown, count: number, query = ''): Promise<Record<string, unknown>[]> {
  return waitFor(`${count} alerts`, async () => {
    const res = await call('GET', `/api/v1/integrations/${String(id)}/alerts?limit=100${query}`)
    const alerts = res.body['alerts'] as Record<string, unknown>[]
    return alerts.length >= count ? alerts : undefined
  })
}

async function alertsTopicSize(): Promise<number> {
  const admin = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    return (await admin.fetchTopicOffsets(service.container.topics.alerts)).reduce((n, p) => n + Number(p.high), 0)
  } finally {
    await admin.disconnect()
  }
}

describe('integrations', () => {
  it('creates an Alertmanager integration whose v4 payload of two firing alerts and one resolved gives two complete alerts', async () => {
    const integration = await create({ name: 'Prometheus', description: 'prod alertmanager', template: 'alertmanager' })
    expect(integration).toMatchObject({
      name: 'Prometheus',
      template: 'alertmanager',
      rateLimitStatus: 503,
      mapping: ALERT_TEMPLATES.alertmanager.mapping,
    })
    expect(String(integration['webhookUrl'])).toMatch(/\/api\/v1\/webhook\/[A-Za-z0-9_-]{43}$/)
    expect(String(integration['testCommand'])).toContain(`curl -sS -X POST '${String(integration['webhookUrl'])}'`)

    const res = await post(webhookPath(integration), ALERT_TEMPLATES.alertmanager.example)
    expect(res.status).toBe(202)
    const { requestId } = (await res.json()) as { requestId: string }
    const alerts = await alertsOf(integration['id'], 2)
    // Newest first: the stream keeps payload order, the API reverses it. The third alert of the
    // payload is resolved, and no incident of its fingerprint is open: ignored (and counted).
    expect(alerts.map((a) => [a['severity'], a['description'], a['source'], a['correlationId'], a['event']])).toEqual([
      ['warning', 'p99 latency above 2s on checkout-2', 'checkout', '7a9d44e0b1c2d3e4', 'triggered'],
      ['critical', 'Error rate above 5% on checkout-1', 'checkout', 'c2f1a0d7e5b3a911', 'triggered'],
    ])
    expect(alerts[1]).toMatchObject({
      service: 'checkout',
      environment: 'production',
      team: 'payments',
      timestamp: '2026-11-22T09:58:00.000Z',
      integrationId: integration['id'],
      requestId,
      receivedAt: expect.stringMatching(/Z$/),
      customFields: { alertname: 'HighErrorRate', status: 'firing', instance: 'checkout-1:8080' },
    })
    // The shared stream holds them too.
    expect(await t.redis.xlen(alertKeys().all)).toBeGreaterThanOrEqual(2)
  })

  it.each(['grafana', 'datadog', 'generic'] as const)('maps the %s example completely', async (template) => {
    const integration = await create({ name: template, template })
    expect((await post(webhookPath(integration), ALERT_TEMPLATES[template].example)).status).toBe(202)
    const [alert] = await alertsOf(integration['id'], 1)
    for (const field of [
      'severity',
      'description',
      'source',
      'service',
      'environment',
      'team',
      'correlationId',
      'timestamp',
    ]) {
      expect(alert![field], field).toBeTruthy()
    }
  })

  it('renders a custom mapping: nested paths, array indexes, defaults, severity map, no HTML escaping', async () => {
    const integration = await create({
      name: 'Nagios bridge',
      template: '',
      mapping: {
        severity: '{{webhook.check.state}}',
        description: '{{webhook.check.output}} on {{webhook.hosts.0.name}}',
        source: '{{webhook.origin}}',
        service: '{{webhook.hosts.1.name}}',
        correlationId: 'chk-{{webhook.check.id}}',
        customFields: { region: '{{webhook.hosts.0.tags.region}}' },
        defaults: { severity: 'warning', source: 'nagios', team: 'ops' },
        severityMap: { FIRING: 'critical', Resolved: 'info' },
      },
    })
    expect(integration['template']).toBe('custom')
    const payload = {
      check: { state: 'firing', output: 'Load <5> & "rising" for \'db\'', id: 7 },
      hosts: [{ name: 'db-1', tags: { region: 'eu' } }, { name: 'db-2' }],
    }
    expect((await post(webhookPath(integration), payload)).status).toBe(202)
    const [alert] = await alertsOf(integration['id'], 1)
    expect(alert).toMatchObject({
      severity: 'critical',
      description: 'Load <5> & "rising" for \'db\' on db-1',
      source: 'nagios',
      service: 'db-2',
      team: 'ops',
      correlationId: 'chk-7',
      customFields: { region: 'eu' },
    })
  })

  it('refuses a bad mapping when it is saved, naming the field and the problem', async () => {
    const bad = await call('POST', '/api/v1/integrations', {
      name: 'x',
      mapping: { severity: '{{webhook.level}}', description: '{{webhook.msg', source: '{{webhook.host}}' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body['details']).toEqual(
      expect.arrayContaining([
        { field: 'mapping.description', problem: expect.stringMatching(/syntax error/) },
        { field: 'mapping.source', problem: expect.stringMatching(/can render empty/) },
        { field: 'mapping.severity', problem: expect.stringMatching(/can render empty/) },
      ]),
    )
    const unknown = await call('POST', '/api/v1/integrations', { name: 'x', template: 'nagios' })
    expect(unknown.status).toBe(400)
    expect(unknown.body['details']).toEqual([
      {
        field: 'template',
        problem: expect.stringMatching(/"alertmanager", "grafana", "datadog", "pagerduty", "opsgenie", "generic"/),
      },
    ])
    const section = await call('POST', '/api/v1/integrations', {
      name: 'x',
      mapping: { severity: 'info', description: 'd', source: '{{#alerts}}x{{/alerts}}' },
    })
    expect(section.body['details']).toEqual([
      { field: 'mapping.source', problem: expect.stringMatching(/unknown section "alerts"/) },
    ])
  })

  it('lists, gets, updates (PUT and PATCH) and deletes; mapping changes apply within seconds', async () => {
    const integration = await create({ name: 'Changing', template: 'generic' })
    const id = String(integration['id'])
    expect(
      ((await call('GET', '/api/v1/integrations')).body['integrations'] as { id: string }[]).map((i) => i.id),
    ).toContain(id)
    expect((await call('GET', `/api/v1/integrations/${id}`)).body).toMatchObject({ id, name: 'Changing' })

    const patched = await call('PATCH', `/api/v1/integrations/${id}`, {
      mapping: { ...ALERT_TEMPLATES.generic.mapping, source: 'patched-{{webhook.source}}' },
    })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ name: 'Changing', template: 'generic' })
    await new Promise((r) => setTimeout(r, 500))
    expect((await post(webhookPath(integration), ALERT_TEMPLATES.generic.example)).status).toBe(202)
    const [alert] = await alertsOf(id, 1)
    expect(alert!['source']).toBe('patched-db-1')

    const put = await call('PUT', `/api/v1/integrations/${id}`, { name: 'Renamed', template: 'alertmanager' })
    expect(put.body).toMatchObject({ name: 'Renamed', description: '', template: 'alertmanager', rateLimitStatus: 503 })
    expect((await call('PUT', `/api/v1/integrations/${id}`, { template: 'generic' })).body['details']).toEqual([
      { field: 'name', problem: expect.any(String) },
    ])

    expect((await call('DELETE', `/api/v1/integrations/${id}`)).body).toEqual({ id, deleted: true })
    expect((await call('GET', `/api/v1/integrations/${id}`)).status).toBe(404)
    await waitFor(
      'address gone',
      async () => ((await post(webhookPath(integration), {})).status === 404 ? true : undefined),
      5000,
    )
  })

  it('tests a payload without storing anything', async () => {
    const integration = await create({ name: 'Dry run', template: 'alertmanager' })
    const fromExample = await call('POST', `/api/v1/integrations/${String(integration['id'])}/test`, {})
    expect((fromExample.body['alerts'] as unknown[]).length).toBe(3)
    // What the mapping makes of the lifecycle fields shows too.
    expect((fromExample.body['alerts'] as Record<string, unknown>[]).map((a) => [a['dedupKey'], a['status']])).toEqual([
      ['c2f1a0d7e5b3a911', 'firing'],
      ['7a9d44e0b1c2d3e4', 'firing'],
      ['0d1e2f3a4b5c6d7e', 'resolved'],
    ])
    const given = await call('POST', `/api/v1/integrations/${String(integration['id'])}/test`, {
      payload: { alerts: [{ labels: { severity: 'purple' } }] },
    })
    expect(given.body).toEqual({
      alerts: [],
      rejected: [{ index: 0, reason: expect.stringMatching(/severity "purple"/) }],
    })
    await new Promise((r) => setTimeout(r, 300))
    expect((await call('GET', `/api/v1/integrations/${String(integration['id'])}/alerts`)).body).toEqual({ alerts: [] })
  })

  it('refuses callers without an admin key', async () => {
    expect((await call('GET', '/api/v1/integrations', undefined, { authorization: '' })).status).toBe(401)
    expect(
      (
        await call('GET', '/api/v1/integrations', undefined, {
          authorization: `Bearer ${demo.environments[0]!.serverSideSdkKey}`,
        })
      ).status,
    ).toBe(401)
    const viaHeader = await fetch(`${service.url}/api/v1/integrations`, { headers: { 'x-api-key': demo.adminApiKey } })
    expect(viaHeader.status).toBe(200)
  })
})

describe('webhook address', () => {
  it('keeps only the hash of an address an earlier version stored in plain text, and the address keeps working', async () => {
    const integration = await create({ name: 'Legacy', template: 'generic' })
    const id = String(integration['id'])
    const address = webhookPath(integration).split('/').pop()!
    // The record as earlier versions wrote it: the address itself instead of its hash.
    const key = `${adminTag()}integration:${id}`
    const { webhookHash, ...rest } = JSON.parse((await t.redis.get(key))!) as Record<string, unknown>
    expect(webhookHash).toBe(hashKey(address))
    await t.redis.set(key, JSON.stringify({ ...rest, webhookId: address }))
    expect((await call('GET', `/api/v1/integrations/${id}`)).body['webhookAddressId']).toBe(
      hashKey(address).slice(0, 16),
    )

    expect(await service.container.state.integrations.hashStoredAddresses()).toBe(1)
    expect(await service.container.state.integrations.hashStoredAddresses()).toBe(0)
    const stored = (await t.redis.get(key))!
    expect(stored).not.toContain(address)
    expect(JSON.parse(stored)).toMatchObject({ webhookHash: hashKey(address) })
    expect(
      (await post(webhookPath(integration), { severity: 'info', message: 'still here', source: 'legacy' })).status,
    ).toBe(202)
  })

  it('answers 404 for an unknown address and publishes nothing', async () => {
    const before = await alertsTopicSize()
    const res = await post(
      '/api/v1/webhook/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      ALERT_TEMPLATES.generic.example,
    )
    expect(res.status).toBe(404)
    expect(await alertsTopicSize()).toBe(before)
  })

  it('answers 400 for a body that is not JSON and 413 above the size limit', async () => {
    const integration = await create({ name: 'Limits', template: 'generic' })
    const notJson = await post(webhookPath(integration), 'status=firing', 'application/x-www-form-urlencoded')
    expect(notJson.status).toBe(400)
    const scalar = await post(webhookPath(integration), '42')
    expect(scalar.status).toBe(400)
    const deep = await post(webhookPath(integration), '['.repeat(3000) + ']'.repeat(3000))
    expect(deep.status).toBe(400)
    expect(((await deep.json()) as { message: string }).message).toMatch(/deeper than 64 levels/)
    const big = await post(webhookPath(integration), { blob: 'x'.repeat(1024 * 1024) })
    expect(big.status).toBe(413)
  })

  it('rate limits per address: 503 for Alertmanager, 429 for others, both with Retry-After', async () => {
    for (const [template, status] of [
      ['alertmanager', 503],
      ['generic', 429],
    ] as const) {
      const integration = await create({ name: `limited ${template}`, template })
      const statuses = await Promise.all(
        Array.from({ length: 60 }, () =>
          post(webhookPath(integration), { alerts: [] }).then((r) => [r.status, r.headers.get('retry-after')] as const),
        ),
      )
      expect(statuses.filter(([s]) => s === 202).length).toBeGreaterThanOrEqual(50)
      const limited = statuses.filter(([s]) => s === status)
      expect(limited.length).toBeGreaterThanOrEqual(1)
      expect(Number(limited[0]![1])).toBeGreaterThanOrEqual(1)
    }
  })

  it('rotates: the old address works during the overlap, then 404; revoke=now ends it at once', async () => {
    const integration = await create({ name: 'Rotating', template: 'generic' })
    const old = webhookPath(integration)
    const rotated = await call('POST', `/api/v1/integrations/${String(integration['id'])}/rotate`)
    expect(rotated.status).toBe(200)
    const fresh = webhookPath(rotated.body)
    expect(fresh).not.toBe(old)
    await waitFor('new address live', async () => ((await post(fresh, {})).status === 202 ? true : undefined), 5000)
    expect((await post(old, {})).status).toBe(202)
    await waitFor('old address expired', async () => ((await post(old, {})).status === 404 ? true : undefined), 10_000)
    expect((await post(fresh, {})).status).toBe(202)

    const revoked = await call('POST', `/api/v1/integrations/${String(integration['id'])}/rotate?revoke=now`)
    await waitFor('revoked at once', async () => ((await post(fresh, {})).status === 404 ? true : undefined), 3000)
    expect((await post(webhookPath(revoked.body), {})).status).toBe(202)
  })

  it('keeps a revoked address dead when updates race the rotation', async () => {
    const integration = await create({ name: 'Racing', template: 'generic' })
    const id = String(integration['id'])
    const old = webhookPath(integration)
    const results = await Promise.all([
      call('POST', `/api/v1/integrations/${id}/rotate?revoke=now`),
      ...Array.from({ length: 8 }, (_, i) => call('PATCH', `/api/v1/integrations/${id}`, { description: `edit ${i}` })),
    ])
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 9 }, () => 200))
    const current = webhookPath(results[0].body)
    expect(current).not.toBe(old)
    // Shown once: later reads name the address by id only, and Redis holds only its hash.
    const read = (await call('GET', `/api/v1/integrations/${id}`)).body
    expect(read).not.toHaveProperty('webhookUrl')
    expect(read).not.toHaveProperty('testCommand')
    expect(read['webhookAddressId']).toBe(results[0].body['webhookAddressId'])
    const stored = (await t.redis.get(`${adminTag()}integration:${id}`))!
    for (const address of [old, current]) expect(stored).not.toContain(address.split('/').pop())
    expect((await post(old, {})).status).toBe(404)
    expect((await post(current, {})).status).toBe(202)
    const routes = await t.redis.hlen(`${adminTag()}webhooks`)
    await call('DELETE', `/api/v1/integrations/${id}`)
    expect(await t.redis.hlen(`${adminTag()}webhooks`)).toBe(routes - 1)
  })

  it('sends alerts that cannot be normalized to the rejections stream with the reason and the payload', async () => {
    const integration = await create({ name: 'Rejects', template: 'generic' })
    const payload = { ...(ALERT_TEMPLATES.generic.example as object), severity: 'purple', id: 'rejected-one' }
    expect((await post(webhookPath(integration), payload)).status).toBe(202)
    const key = alertKeys().rejections
    const entry = await waitFor('rejection', async () => {
      const entries = await t.redis.xrange(key, '-', '+')
      return entries
        .map(([, f]) => Object.fromEntries(Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i], f[2 * i + 1]])))
        .find((e) => e['integrationId'] === integration['id'])
    })
    expect(entry['reason']).toMatch(/severity "purple" is not one of/)
    expect(JSON.parse(String(entry['payload']))).toEqual(payload)
  })
})

describe('exactly once into the streams', () => {
  it('a consumer killed mid-stream and restarted adds no duplicate, loses nothing, counts every repeat once, applies the rules to each alert once, and puts each in one incident once', async () => {
    // 1 MiB fetches of ~3 KB payloads: several batches per partition, so the kill leaves work behind.
    const burst = await createTestEnv({
      SLUICE_WEBHOOK_BURST: '100000',
      SLUICE_WEBHOOK_RATE_PER_SECOND: '100000',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      SLUICE_CONSUMER_FETCH_MAX_BYTES: String(1024 * 1024),
    })
    try {
      const account = await burst.bootstrap()
      const admin = account.adminApiKey
      const edge = await burst.start(['edge', 'admin'])
      const res = await fetch(`${edge.url}/api/v1/integrations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bulk', template: 'alertmanager' }),
      })
      const integration = (await res.json()) as Record<string, unknown>
      const path = new URL(String(integration['webhookUrl'])).pathname
      // Rules the consumer applies in the same write as the alerts: every other new alert dropped, the rest given a
      // team (from the payload), a tag and a custom field. Applied twice, a tag or a drop record would show it.
      const rules = await fetch(`${edge.url}/api/v1/alert-rules`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          rules: [
            { id: 'even', name: 'drop even', when: { field: 'dedupKey', matches: '^fp-\\d*[02468]$' }, drop: true },
            {
              id: 'team',
              name: 'team',
              set: { team: 'team-{{webhook.alerts.0.labels.job}}' },
              addTags: ['ruled'],
              customFields: { ruled: 'once' },
              // Every alert kept in one incident: the grouping is written with the alert, each once.
              group: { by: ['team'], until: 'resolved' },
            },
          ],
        }),
      })
      expect(rules.status).toBe(200)
      // Each payload: a new alert (its own fingerprint) and a repeat of one of 50 alerts that keep firing.
      const TOTAL = 1500
      const REPEATED = 50
      const padding = 'p'.repeat(3000)
      for (let i = 0; i < TOTAL; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: 50 }, (_, k) => {
            const alert = {
              status: 'firing',
              labels: { alertname: 'A', severity: 'warning', job: 'j' },
              annotations: { summary: `n${i + k}`, description: padding },
              fingerprint: `fp-${i + k}`,
            }
            return fetch(`${edge.url}${path}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ alerts: [alert, { ...alert, fingerprint: `rep-${(i + k) % REPEATED}` }] }),
            })
          }),
        )
        expect(batch.every((r) => r.status === 202)).toBe(true)
      }
      const stream = alertStreamKeys(
        burst.config.redis.keyPrefix,
        isCluster(burst.config.redis),
        account.accountId,
      ).integration(String(integration['id']))
      const repeatedRecords = async () =>
        (await burst.state.alerts.list(account.accountId, { status: 'open', filters: {}, limit: 5000 })).alerts
          .filter((a) => a.dedupKey.startsWith('rep-'))
          .sort((a, b) => a.count - b.count)
      // Killed on the first "alert batch stored" line: written to Redis, offsets not yet committed.
      const child = spawnSluice(['serve', '--roles', 'alerts'], { ...burst.env, SLUICE_LOG_LEVEL: 'debug' })
      child.stdout?.on('data', (d: Buffer) => {
        if (d.toString().includes('"msg":"alert batch stored"')) child.kill('SIGKILL')
      })
      await exited(child)
      const KEPT = TOTAL / 2 + REPEATED
      const atKill = await burst.redis.xlen(stream)
      expect(atKill).toBeLessThan(KEPT)

      const again = spawnSluice(['serve', '--roles', 'alerts'], burst.env)
      try {
        await waitFor('all alerts', async () => ((await burst.redis.xlen(stream)) >= KEPT ? true : undefined), 90_000)
        await waitFor(
          'every repeat applied',
          async () => {
            const records = await repeatedRecords()
            return records.length === REPEATED && records[0]!.count >= TOTAL / REPEATED ? true : undefined
          },
          30_000,
        )
        await new Promise((r) => setTimeout(r, 1000))
      } finally {
        again.kill('SIGTERM')
        await exited(again)
      }
      // The streams: one triggered entry per alert kept (repeats are kept out), none twice, each changed by the rules
      // once.
      const entries = await burst.redis.xrange(stream, '-', '+')
      const ids = entries.map(([, f]) => f[f.indexOf('correlationId') + 1])
      expect(entries.length).toBe(KEPT)
      expect(new Set(ids).size).toBe(KEPT)
      expect(ids.filter((id) => /^fp-\d*[02468]$/.test(id!))).toEqual([])
      for (const [, f] of entries) {
        expect(f[f.indexOf('tags') + 1]).toBe('["ruled"]')
        expect(f[f.indexOf('rulesApplied') + 1]).toBe('["team"]')
        expect(f[f.indexOf('team') + 1]).toBe('team-j')
      }
      // Each dropped alert recorded once, with its request.
      const keys = alertStreamKeys(burst.config.redis.keyPrefix, isCluster(burst.config.redis), account.accountId)
      const droppedKey = keys.offsets.replace(/alerts:offsets$/, `alerts:acct:${account.accountId}:dropped`)
      const dropped = await burst.state.alerts.dropped(account.accountId, 5000)
      expect(dropped.length).toBe(TOTAL / 2)
      expect(new Set(dropped.map((d) => d.dedupKey)).size).toBe(TOTAL / 2)
      expect(await burst.redis.xlen(droppedKey)).toBe(TOTAL / 2)
      expect((await burst.state.alerts.lifecycleCounts(account.accountId, String(integration['id']))).dropped).toBe(
        TOTAL / 2,
      )
      // The records: every notification counted once, through the kill and the replay.
      const records = await repeatedRecords()
      expect(records.map((r) => r.count)).toEqual(Array.from({ length: REPEATED }, () => TOTAL / REPEATED))
      const all = await burst.state.alerts.list(account.accountId, { status: 'open', filters: {}, limit: 5000 })
      expect(all.alerts.length).toBe(KEPT)
      expect(all.alerts.filter((a) => a.dedupKey.startsWith('fp-')).every((a) => a.count === 1)).toBe(true)
      expect(all.alerts.every((a) => a.tags?.join() === 'ruled' && a.customFields['ruled'] === 'once')).toBe(true)
      // One incident holds every alert kept, each once: none in two incidents or in none.
      const incidentIds = new Set(all.alerts.map((a) => a.incidentId))
      expect([...incidentIds]).toHaveLength(1)
      const incident = (await burst.state.incidents.get(account.accountId, [...incidentIds][0]!))!
      expect({ alerts: incident.alerts, open: incident.open, status: incident.status }).toEqual({
        alerts: KEPT,
        open: KEPT,
        status: 'triggered',
      })
      const members = await burst.state.incidents.members(account.accountId, incident.id, 10_000)
      expect(members.total).toBe(KEPT)
      expect(new Set(members.alerts.map((a) => a.id))).toEqual(new Set(all.alerts.map((a) => a.id)))
    } finally {
      await burst.close()
    }
  }, 240_000)
})
