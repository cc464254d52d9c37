// Alerts as incidents, end to end (webhooks through real Kafka into real Redis): one open alert per
// (integration, dedup key) with its notifications counted, resolved when the sender says so, a new
// incident when a resolved key fires again; acknowledge and resolve by API; auto-resolve after a
// silence; the streams carry one entry per lifecycle event (repeats only when asked); lists filtered
// and paged; nothing one integration or account sends touches another's alerts. And each
// integration's recent payloads, kept by the same script call as their alerts (a replay adds none).
import { Kafka, logLevel, type Admin } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { ALERT_TEMPLATES } from '../../src/pipeline/alerts/templates.js'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import { isCluster } from '../../src/state/redis/client.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { alertsCaughtUp } from '../support/alerts.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let admin: Admin

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_INTEGRATION_REFRESH_MS: '200',
    SLUICE_ALERT_AUTO_RESOLVE_INTERVAL_MS: '300',
    SLUICE_WEBHOOK_BURST: '1000',
    SLUICE_WEBHOOK_RATE_PER_SECOND: '1000',
  })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts'])
  admin = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
})
afterAll(async () => {
  await admin?.disconnect()
  await t?.close()
})

type Json = Record<string, unknown>
async function call(
  method: string,
  path: string,
  body?: unknown,
  key = demo.adminApiKey,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} }
}

async function create(body: Json, key = demo.adminApiKey): Promise<{ id: string; path: string }> {
  const res = await call('POST', '/api/v1/integrations', body, key)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return { id: String(res.body['id']), path: new URL(String(res.body['webhookUrl'])).pathname }
}

/** Posts a payload and waits until the alerts consumer has applied every message of the topic so far. */
async function send(path: string, payload: unknown): Promise<void> {
  const res = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  })
  expect(res.status).toBe(202)
  await caughtUp()
}

/** An account's alert keys (the suite also runs on a Redis Cluster, where they are per account). */
const keysOf = (accountId = demo.accountId) =>
  alertStreamKeys(t.config.redis.keyPrefix, isCluster(t.config.redis), accountId)

const caughtUp = () => alertsCaughtUp(t, service.container.topics.alerts, admin)

async function list(status: string, query = '', limit = 100, key = demo.adminApiKey): Promise<Json[]> {
  const res = await call('GET', `/api/v1/alerts?status=${status}&limit=${limit}${query}`, undefined, key)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body['alerts'] as Json[]
}

/** The lifecycle entries of an integration's stream, oldest first: [event, dedupKey, count]. */
async function entries(integrationId: string): Promise<string[][]> {
  const stream = await t.redis.xrange(keysOf().integration(integrationId), '-', '+')
  return stream.map(([, f]) => {
    const m = new Map<string, string>()
    for (let i = 0; i + 1 < f.length; i += 2) m.set(f[i]!, f[i + 1]!)
    return [m.get('event')!, m.get('dedupKey')!, m.get('count')!]
  })
}

const am = ALERT_TEMPLATES.alertmanager.example as { alerts: Json[] } & Json
/** An Alertmanager group notification of alerts named by fingerprint, each firing or resolved. */
function group(alerts: [fingerprint: string, status: 'firing' | 'resolved', severity?: string, team?: string][]): Json {
  return {
    ...am,
    status: alerts.some(([, s]) => s === 'firing') ? 'firing' : 'resolved',
    alerts: alerts.map(([fingerprint, status, severity = 'critical', team = 'payments']) => ({
      ...am.alerts[0],
      status,
      fingerprint,
      labels: { ...(am.alerts[0]!['labels'] as Json), alertname: `Alert ${fingerprint}`, severity, team },
    })),
  }
}

describe('Alertmanager groups: one alert per fingerprint, repeats counted, resolved by the sender', () => {
  let integration: { id: string; path: string }
  const mine = () => `&integrationId=${integration.id}`

  it('keeps three open alerts while they fire, counts the repeats, and resolves each when the sender says so', async () => {
    integration = await create({ name: 'prometheus', template: 'alertmanager' })
    for (let n = 0; n < 3; n++)
      await send(
        integration.path,
        group([
          ['fa', 'firing'],
          ['fb', 'firing'],
          ['fc', 'firing'],
        ]),
      )
    let open = await list('open', mine())
    expect(open.map((a) => [a['dedupKey'], a['status'], a['count']]).sort()).toEqual([
      ['fa', 'firing', 3],
      ['fb', 'firing', 3],
      ['fc', 'firing', 3],
    ])
    // One group resolves fa, the next resolves the rest.
    await send(
      integration.path,
      group([
        ['fa', 'resolved'],
        ['fb', 'firing'],
        ['fc', 'firing'],
      ]),
    )
    open = await list('open', mine())
    expect(open.map((a) => a['dedupKey']).sort()).toEqual(['fb', 'fc'])
    await send(
      integration.path,
      group([
        ['fb', 'resolved'],
        ['fc', 'resolved'],
      ]),
    )
    expect(await list('open', mine())).toEqual([])
    const resolved = await list('resolved', mine())
    expect(resolved.map((a) => [a['dedupKey'], a['count'], a['resolvedBy']]).sort()).toEqual([
      ['fa', 4, 'source'],
      ['fb', 5, 'source'],
      ['fc', 5, 'source'],
    ])
    // Repeats are kept out of the streams by default: one triggered and one resolved entry per alert.
    const events = await entries(integration.id)
    for (const key of ['fa', 'fb', 'fc'])
      expect(events.filter((e) => e[1] === key).map((e) => e[0])).toEqual(['triggered', 'resolved'])
  })

  it('opens a new alert when a resolved key fires again, and ignores (counts) a resolve of nothing open', async () => {
    const [before] = (await list('resolved', `${mine()}`)).filter((a) => a['dedupKey'] === 'fa')
    await send(integration.path, group([['fa', 'firing']]))
    const [reopened] = (await list('open', mine())).filter((a) => a['dedupKey'] === 'fa')
    expect(reopened).toMatchObject({ status: 'firing', count: 1, previousAlertId: before!['id'] })
    expect(reopened!['id']).not.toBe(before!['id'])
    expect((await entries(integration.id)).at(-1)).toEqual(['reopened', 'fa', '1'])

    await send(
      integration.path,
      group([
        ['never-fired', 'resolved'],
        ['fa', 'firing'],
      ]),
    )
    const counts = (await call('GET', `/api/v1/integrations/${integration.id}`)).body['lifecycleCounts']
    expect(counts).toMatchObject({ ignored: 1, dedupFallback: 0, statusUnknown: 0 })
  })

  it('acknowledges and resolves by API, with who and when, and an entry in the streams; a repeat keeps the acknowledgement', async () => {
    const [fa] = (await list('open', mine())).filter((a) => a['dedupKey'] === 'fa')
    const ack = await call('POST', `/api/v1/alerts/${String(fa!['id'])}/acknowledge`)
    expect(ack).toMatchObject({
      status: 200,
      body: {
        status: 'acknowledged',
        acknowledgedBy: expect.stringMatching(/^key:/),
        acknowledgedAt: expect.any(String),
      },
    })
    await send(integration.path, group([['fa', 'firing']]))
    const shown = await call('GET', `/api/v1/alerts/${String(fa!['id'])}`)
    expect(shown.body).toMatchObject({ status: 'acknowledged', count: 3 })
    expect((shown.body['history'] as Json[]).map((h) => h['event'])).toEqual(['reopened', 'acknowledged'])
    expect(await list('acknowledged', mine())).toHaveLength(1)

    const resolved = await call('POST', `/api/v1/alerts/${String(fa!['id'])}/resolve`)
    expect(resolved).toMatchObject({
      status: 200,
      body: { status: 'resolved', resolvedBy: expect.stringMatching(/^key:/) },
    })
    expect(await call('POST', `/api/v1/alerts/${String(fa!['id'])}/resolve`)).toMatchObject({
      status: 200,
      body: { status: 'resolved' },
    })
    expect(await call('POST', `/api/v1/alerts/${String(fa!['id'])}/acknowledge`)).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT' },
    })
    expect((await call('POST', '/api/v1/alerts/al_999999999/acknowledge')).status).toBe(404)
    const events = (await entries(integration.id)).filter((e) => e[1] === 'fa').map((e) => e[0])
    expect(events.slice(-2)).toEqual(['acknowledged', 'resolved'])
  })

  it('lets a read-only admin key list and read, and refuses it acknowledging', async () => {
    const { key } = await t.tenancy.createApiKey({
      kind: 'admin',
      accountId: demo.accountId,
      name: 'viewer',
      role: 'segment-viewer',
    })
    await waitFor(
      'the new key',
      async () => ((await call('GET', '/api/v1/alerts', undefined, key)).status === 200 ? true : undefined),
      10_000,
    )
    const [one] = await list('all', mine(), 1, key)
    expect((await call('POST', `/api/v1/alerts/${String(one!['id'])}/resolve`, undefined, key)).status).toBe(403)
    expect((await call('GET', '/api/v1/alerts')).status).toBe(200)
    expect((await call('GET', '/api/v1/alerts', undefined, 'sdk_srv_nope')).status).toBe(401)
    // Alerts are the account's: a key restricted to a workspace reads none of them.
    const { key: restricted } = await t.tenancy.createApiKey({
      kind: 'admin',
      accountId: demo.accountId,
      name: 'one workspace',
      workspaceIds: [demo.workspaceId],
    })
    await waitFor(
      'the restricted key',
      async () => ((await call('GET', '/api/v1/alerts', undefined, restricted)).status === 403 ? true : undefined),
      10_000,
    )
  })
})

describe('each template: dedup key and status as the products document them', () => {
  it('PagerDuty Events v2: trigger, acknowledge and resolve of one dedup_key', async () => {
    const pd = await create({ name: 'pd', template: 'pagerduty' })
    const body = ALERT_TEMPLATES.pagerduty.example as Json
    await send(pd.path, body)
    await send(pd.path, { routing_key: body['routing_key'], event_action: 'acknowledge', dedup_key: body['dedup_key'] })
    let [alert] = await list('all', `&integrationId=${pd.id}`)
    expect(alert).toMatchObject({
      dedupKey: 'checkout-5xx-eu-west-1',
      status: 'acknowledged',
      acknowledgedBy: 'source',
      count: 2,
      severity: 'critical',
    })
    await send(pd.path, { routing_key: body['routing_key'], event_action: 'resolve', dedup_key: body['dedup_key'] })
    ;[alert] = await list('all', `&integrationId=${pd.id}`)
    expect(alert).toMatchObject({ status: 'resolved', count: 3 })
    expect((await entries(pd.id)).map((e) => e[0])).toEqual(['triggered', 'acknowledged', 'resolved'])
  })

  it('Opsgenie: an alias is one alert, closed by a close call', async () => {
    const og = await create({ name: 'og', template: 'opsgenie' })
    await send(og.path, ALERT_TEMPLATES.opsgenie.example)
    await send(og.path, ALERT_TEMPLATES.opsgenie.example)
    await send(og.path, { alias: 'db-2-replication-lag', action: 'close', note: 'lag back to 0' })
    const [alert] = await list('all', `&integrationId=${og.id}`)
    expect(alert).toMatchObject({
      dedupKey: 'db-2-replication-lag',
      status: 'resolved',
      count: 3,
      severity: 'high',
      team: 'dba',
    })
  })

  it("Opsgenie's own API calls on the address: create, then acknowledge and close by alias (body empty or not)", async () => {
    const og = await create({ name: 'og-api', template: 'opsgenie' })
    const api = (path: string, body?: unknown) =>
      fetch(`${service.url}${og.path}/v2/alerts${path}`, {
        method: 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    expect((await api('', { ...(ALERT_TEMPLATES.opsgenie.example as Json), alias: 'db-3-lag' })).status).toBe(202)
    await caughtUp()
    expect((await api('/db-3-lag/acknowledge?identifierType=alias', { user: 'ops', note: 'looking' })).status).toBe(202)
    await caughtUp()
    expect(await list('open', `&integrationId=${og.id}`)).toMatchObject([
      { dedupKey: 'db-3-lag', status: 'acknowledged', count: 2 },
    ])
    expect((await api('/db-3-lag/close?identifierType=alias')).status).toBe(202)
    await caughtUp()
    expect(await list('all', `&integrationId=${og.id}`)).toMatchObject([
      { dedupKey: 'db-3-lag', status: 'resolved', count: 3, severity: 'high' },
    ])
    expect((await api('/db-3-lag/delete')).status).toBe(400)
    expect((await api('/db-3-lag/close', [1, 2])).status).toBe(400)
    expect(
      (await fetch(`${service.url}/api/v1/webhook/${'x'.repeat(43)}/v2/alerts/a/close`, { method: 'POST' })).status,
    ).toBe(404)
  })

  it('Grafana and Datadog: resolved and Recovered end their alert', async () => {
    const grafana = await create({ name: 'grafana', template: 'grafana' })
    const g = ALERT_TEMPLATES.grafana.example as { alerts: Json[] } & Json
    await send(grafana.path, g)
    await send(grafana.path, { ...g, status: 'resolved', alerts: [{ ...g.alerts[0], status: 'resolved' }] })
    expect(await list('all', `&integrationId=${grafana.id}`)).toMatchObject([
      { dedupKey: '57c6d9296de2ad39', status: 'resolved', count: 2 },
    ])

    const datadog = await create({ name: 'datadog', template: 'datadog' })
    const d = ALERT_TEMPLATES.datadog.example as Json
    await send(datadog.path, d)
    await send(datadog.path, { ...d, transition: 'Re-Triggered' })
    await send(datadog.path, { ...d, transition: 'Recovered', alert_type: 'success' })
    expect(await list('all', `&integrationId=${datadog.id}`)).toMatchObject([
      { dedupKey: String(d['aggregate']), status: 'resolved', count: 3 },
    ])
  })
})

describe('settings of an integration', () => {
  it('writes repeats to the streams when emitRepeats is on, with their count', async () => {
    const integration = await create({ name: 'noisy', template: 'generic', emitRepeats: true })
    for (let n = 0; n < 3; n++)
      await send(integration.path, { ...(ALERT_TEMPLATES.generic.example as Json), id: 'disk-1', status: 'firing' })
    expect(await entries(integration.id)).toEqual([
      ['triggered', 'disk-1', '1'],
      ['repeated', 'disk-1', '2'],
      ['repeated', 'disk-1', '3'],
    ])
  })

  it('resolves a firing alert after its silence, by the job, once; an acknowledged one stays acknowledged', async () => {
    const integration = await create({ name: 'silent', template: 'generic', autoResolveAfterSeconds: 10 })
    const example = ALERT_TEMPLATES.generic.example as Json
    await send(integration.path, { ...example, id: 'quiet-1' })
    await send(integration.path, { ...example, id: 'quiet-2' })
    const acked = (await list('open', `&integrationId=${integration.id}`)).find((a) => a['dedupKey'] === 'quiet-2')!
    expect((await call('POST', `/api/v1/alerts/${String(acked['id'])}/acknowledge`)).status).toBe(200)
    const resolved = await waitFor(
      'auto-resolve',
      async () => {
        const [a] = (await list('resolved', `&integrationId=${integration.id}`)).filter(
          (x) => x['dedupKey'] === 'quiet-1',
        )
        return a
      },
      20_000,
    )
    expect(resolved).toMatchObject({ resolvedBy: 'auto-resolve', count: 1 })
    expect(
      Date.parse(String(resolved['resolvedAt'])) - Date.parse(String(resolved['lastSeenAt'])),
    ).toBeGreaterThanOrEqual(10_000)
    expect(await list('open', `&integrationId=${integration.id}`)).toMatchObject([
      { dedupKey: 'quiet-2', status: 'acknowledged' },
    ])
    expect((await entries(integration.id)).map((e) => e[0])).toEqual([
      'triggered',
      'triggered',
      'acknowledged',
      'resolved',
    ])
    // Processes that run the job at once resolve each alert once.
    await send(integration.path, { ...example, id: 'quiet-3' })
    const due = Date.now() + 60_000
    const runs = await Promise.all([0, 1, 2, 3].map(() => t.state.alerts.autoResolve(due, 100, 1000)))
    expect(runs.flat()).toHaveLength(1)
    // Turning auto-resolve off cancels the deadline of an alert that fires again.
    await call('PATCH', `/api/v1/integrations/${integration.id}`, { autoResolveAfterSeconds: null })
    await waitFor('the integration change', async () => {
      await send(integration.path, { ...example, id: 'quiet-4' })
      return (await t.redis.zcard(`${keysOf().prefix}alerts:auto-resolve`)) === 0 ? true : undefined
    })
    expect(await t.state.alerts.autoResolve(Date.now() + 3_600_000, 100, 1000)).toEqual([])
  })

  it('removes resolved alerts after the retention, with their index entries, and keeps the open ones', async () => {
    const integration = await create({ name: 'retained', template: 'generic' })
    const example = ALERT_TEMPLATES.generic.example as Json
    await send(integration.path, { ...example, id: 'old-1' })
    await send(integration.path, { ...example, id: 'old-1', status: 'resolved' })
    await send(integration.path, { ...example, id: 'still-open' })
    const [old] = await list('resolved', `&integrationId=${integration.id}`)
    expect(await t.state.alerts.prune(Date.now() - 60_000, 100)).toBe(0)
    expect(await t.state.alerts.prune(Date.now() + 1000, 100)).toBeGreaterThanOrEqual(1)
    expect((await call('GET', `/api/v1/alerts/${String(old!['id'])}`)).status).toBe(404)
    expect(await list('resolved', `&integrationId=${integration.id}`)).toEqual([])
    expect(await list('open', `&integrationId=${integration.id}`)).toMatchObject([{ dedupKey: 'still-open' }])
    // The key fires again: a new alert (the pointer to the pruned one is gone).
    await send(integration.path, { ...example, id: 'old-1' })
    expect(
      (await list('open', `&integrationId=${integration.id}`)).map((a) => [a['dedupKey'], a['count']]).sort(),
    ).toEqual([
      ['old-1', 1],
      ['still-open', 1],
    ])
  })

  it('counts a replayed message of repeats (an edge spool replay) once, though it wrote no stream entry', async () => {
    const integration = await create({ name: 'replayed', template: 'generic' })
    const example = ALERT_TEMPLATES.generic.example as Json
    await send(integration.path, { ...example, id: 'rep-1' })
    // The same request published again, marked as a replay, as the edge's spool drain does.
    const { encodeAlertMessage } = await import('../../src/broker/messages/alerts.js')
    const { REPLAY_HEADER } = await import('../../src/broker/ports.js')
    const receivedAtMs = Date.now()
    const message = encodeAlertMessage(
      JSON.stringify({ ...example, id: 'rep-1' }),
      { integrationId: integration.id, accountId: demo.accountId, receivedAtMs, requestId: 'req-replayed-1' },
      1 << 20,
    )!
    const producer = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING }).producer()
    await producer.connect()
    try {
      for (const replay of [false, true, true]) {
        await producer.send({
          topic: service.container.topics.alerts,
          messages: [
            {
              key: 'req-replayed-1',
              value: message.value,
              headers: { ...message.headers, ...(replay ? { [REPLAY_HEADER]: '1' } : {}) },
            },
          ],
        })
      }
    } finally {
      await producer.disconnect()
    }
    await caughtUp()
    expect(await list('open', `&integrationId=${integration.id}`)).toMatchObject([{ dedupKey: 'rep-1', count: 2 }])
  })

  it('refuses bad lifecycle settings, naming the field', async () => {
    const res = await call('POST', '/api/v1/integrations', {
      name: 'bad',
      template: 'generic',
      emitRepeats: 'yes',
      autoResolveAfterSeconds: 5,
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toMatch(/emitRepeats/)
    expect(JSON.stringify(res.body)).toMatch(/autoResolveAfterSeconds/)
  })
})

describe('lists and isolation', () => {
  it('filters open alerts by severity, team and integration, and pages through all of them once', async () => {
    const integration = await create({ name: 'many', template: 'alertmanager' })
    const alerts: [string, 'firing', string, string][] = Array.from({ length: 45 }, (_, i) => [
      `m${i}`,
      'firing',
      i % 3 === 0 ? 'warning' : 'critical',
      i % 5 === 0 ? 'dba' : 'payments',
    ])
    await send(integration.path, group(alerts))
    const q = `&integrationId=${integration.id}`
    expect(await list('open', `${q}&severity=warning`)).toHaveLength(15)
    expect(await list('open', `&team=dba${q}`)).toHaveLength(9)
    expect(await list('open', `&severity=warning&team=dba${q}`)).toHaveLength(3)
    const seen: string[] = []
    let cursor = ''
    for (let page = 0; page < 20; page++) {
      const res = await call('GET', `/api/v1/alerts?status=open&limit=10${q}${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...(res.body['alerts'] as Json[]).map((a) => String(a['dedupKey'])))
      if (!res.body['nextCursor']) break
      cursor = res.body['nextCursor'] as string
    }
    expect(seen.sort()).toEqual(alerts.map((a) => a[0]).sort())
    expect((await call('GET', '/api/v1/alerts?cursor=not-ours')).status).toBe(400)
    expect((await call('GET', '/api/v1/alerts?status=closed')).status).toBe(400)
  })

  it('keeps the same dedup key of two integrations and of another account apart, and hides other accounts', async () => {
    const one = await create({ name: 'one', template: 'generic' })
    const two = await create({ name: 'two', template: 'generic' })
    const other = await t.tenancy.createAccount('other account')
    const { key: otherKey } = await t.tenancy.createApiKey({ kind: 'admin', accountId: other.id, name: 'other admin' })
    await waitFor(
      'the other key',
      async () => ((await call('GET', '/api/v1/alerts', undefined, otherKey)).status === 200 ? true : undefined),
      10_000,
    )
    const three = await create({ name: 'three', template: 'generic' }, otherKey)
    const example = ALERT_TEMPLATES.generic.example as Json
    for (const i of [one, two, three]) await send(i.path, { ...example, id: 'shared-key' })
    await send(one.path, { ...example, id: 'shared-key', status: 'resolved' })
    expect((await list('all', `&integrationId=${one.id}`)).map((a) => a['status'])).toEqual(['resolved'])
    expect((await list('all', `&integrationId=${two.id}`)).map((a) => a['status'])).toEqual(['firing'])
    const theirs = await list('all', '', 100, otherKey)
    expect(theirs.map((a) => [a['integrationId'], a['status']])).toEqual([[three.id, 'firing']])
    // Another account's key cannot read or act on this account's alerts, nor list them.
    const [mine] = await list('all', `&integrationId=${two.id}`)
    expect((await call('GET', `/api/v1/alerts/${String(mine!['id'])}`, undefined, otherKey)).status).toBe(404)
    expect((await call('POST', `/api/v1/alerts/${String(mine!['id'])}/resolve`, undefined, otherKey)).status).toBe(404)
    expect(await list('all', `&integrationId=${two.id}`, 100, otherKey)).toEqual([])
  })

  it('takes hostile keys and statuses: huge, empty, non-strings, prototype names, each one alert of its own integration', async () => {
    const integration = await create({
      name: 'hostile',
      mapping: {
        severity: 'warning',
        description: 'd {{webhook.n}}',
        source: 's',
        dedupKey: '{{webhook.key}}',
        status: '{{webhook.state}}',
      },
    })
    const huge = 'K'.repeat(60_000)
    for (const [key, state] of [
      [`${huge}1`, 'firing'],
      [`${huge}2`, '__proto__'],
      ['', 'constructor'],
      [{ nested: ['x'] }, { state: 1 }],
      ['__proto__', 'firing'],
      ['__proto__', 'resolved'],
    ] as const) {
      await send(integration.path, { key, state, n: JSON.stringify(key).length })
    }
    const all = await list('all', `&integrationId=${integration.id}`)
    const keys = all.map((a) => String(a['dedupKey']))
    expect(keys.filter((k) => /^sha256:[0-9a-f]{64}$/.test(k))).toHaveLength(2)
    expect(keys.filter((k) => k.startsWith('auto:'))).toHaveLength(1)
    expect(keys).toContain('{"nested":["x"]}')
    expect(all.find((a) => a['dedupKey'] === '__proto__')).toMatchObject({ status: 'resolved', count: 2 })
    const counts = (await call('GET', `/api/v1/integrations/${integration.id}`)).body['lifecycleCounts']
    expect(counts).toMatchObject({ dedupFallback: 1, statusUnknown: 3 })
  })
})

describe('sluice alerts', () => {
  it('lists, shows, acknowledges and resolves from the command line, with the same rules', async () => {
    const integration = await create({ name: 'cli', template: 'generic' })
    await send(integration.path, { ...(ALERT_TEMPLATES.generic.example as Json), id: 'cli-1' })
    const account = ['--account', demo.accountId, '--json']
    const listed = await runSluice(['alerts', 'list', '--integration-id', integration.id, ...account], t.env)
    expect(listed.code, listed.stderr).toBe(0)
    const [alert] = (JSON.parse(listed.stdout) as { alerts: Json[] }).alerts
    expect(alert).toMatchObject({ dedupKey: 'cli-1', status: 'firing' })
    const id = String(alert!['id'])
    const acked = await runSluice(['alerts', 'ack', id, ...account], t.env)
    expect(JSON.parse(acked.stdout)).toMatchObject({
      status: 'acknowledged',
      acknowledgedBy: expect.stringMatching(/^cli:/),
    })
    expect(JSON.parse((await runSluice(['alerts', 'resolve', id, ...account], t.env)).stdout)).toMatchObject({
      status: 'resolved',
    })
    const again = await runSluice(['alerts', 'ack', id, ...account], t.env)
    expect([again.code, again.stderr]).toEqual([2, expect.stringMatching(/is resolved/)])
    const shown = await runSluice(['alerts', 'show', id, '--account', demo.accountId], t.env)
    expect(shown.stdout).toMatch(/triggered[\s\S]*acknowledged[\s\S]*resolved/)
    expect((await runSluice(['alerts', 'show', 'al_nope', '--account', demo.accountId], t.env)).code).toBe(2)
    expect((await entries(integration.id)).map((e) => e[0])).toEqual(['triggered', 'acknowledged', 'resolved'])
  })
})

describe('recent payloads', () => {
  const probePayload = (i: number, extra: Json = {}) => ({
    version: '4',
    status: 'firing',
    commonLabels: { alertname: `Probe${i}`, team: 'payments' },
    alerts: [
      {
        status: 'firing',
        labels: { alertname: `Probe${i}`, severity: 'critical', team: 'payments' },
        annotations: { summary: `probe ${i}` },
        startsAt: new Date().toISOString(),
      },
    ],
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
      const body =
        i === 20
          ? probePayload(i, { padding: 'x'.repeat(70 * 1024) })
          : i === 21
            ? { unrelated: [1, 2, 3], note: '<img src=x onerror=alert(1)>' }
            : probePayload(i)
      const res = await fetch(`${service.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
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
    const other = await t.tenancy.createAccount('other')
    const { key: stranger } = await t.tenancy.createApiKey({ kind: 'admin', accountId: other.id, name: 'stranger' })
    expect((await call('GET', `/api/v1/integrations/${id}/payloads`, undefined, stranger)).status).toBe(404)
    const { key: scoped } = await t.tenancy.createApiKey({
      kind: 'admin',
      accountId: demo.accountId,
      name: 'one env',
      environmentIds: [demo.environments[0]!.id],
    })
    expect((await call('GET', `/api/v1/integrations/${id}/payloads`, undefined, scoped)).status).toBe(403)
    expect(
      (await call('GET', `/api/v1/integrations/${id}/payloads`, undefined, demo.environments[0]!.serverSideSdkKey))
        .status,
    ).toBe(401)

    // Forgotten on request.
    expect((await call('DELETE', `/api/v1/integrations/${id}/payloads`)).status).toBe(204)
    expect((await call('GET', `/api/v1/integrations/${id}/payloads`)).body['payloads']).toEqual([])
    // A sample saved with the mapping: shown by the integration alone (not the list), removed with null.
    const sample = { commonLabels: { team: 'payments' }, alerts: [] }
    expect((await call('PATCH', `/api/v1/integrations/${id}`, { sample })).status).toBe(200)
    expect((await call('GET', `/api/v1/integrations/${id}`)).body['sample']).toEqual(sample)
    expect(
      ((await call('GET', '/api/v1/integrations')).body['integrations'] as Json[]).find((i) => i['id'] === id),
    ).not.toHaveProperty('sample')
    expect((await call('PATCH', `/api/v1/integrations/${id}`, { sample: null })).status).toBe(200)
    expect((await call('GET', `/api/v1/integrations/${id}`)).body['sample']).toBeNull()
    expect((await call('PATCH', `/api/v1/integrations/${id}`, { sample: { big: 'x'.repeat(70 * 1024) } })).status).toBe(
      400,
    )

    // Gone with the integration.
    expect((await call('DELETE', `/api/v1/integrations/${id}`)).status).toBe(200)
    expect(await t.redis.exists(keysOf().payloads(id))).toBe(0)
  })
})
