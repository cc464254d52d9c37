// Sender authentication end to end: set up over the admin API, checked by the edge, through real
// Kafka and Redis. A refused sender gets 401 and nothing reaches Kafka; its failures are counted per
// integration without what it sent; secrets are shown once; two secrets rotate without a refused
// request. Signatures are made here with node:crypto, as each sender documents its scheme.
import { createHmac } from 'node:crypto'
import { Kafka, logLevel } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_INTEGRATION_REFRESH_MS: '200',
    SLUICE_WEBHOOK_RATE_PER_SECOND: '1000',
    SLUICE_WEBHOOK_BURST: '10000',
  })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts'])
})
afterAll(async () => t?.close())

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: string, path: string, body?: unknown, key = demo.adminApiKey) {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json }
}

async function integration(): Promise<{ id: string; path: string }> {
  const res = await call('POST', '/api/v1/integrations', { name: `auth-${Math.random()}`, template: 'alertmanager' })
  expect(res.status).toBe(201)
  return { id: res.body['id'], path: new URL(res.body['webhookUrl']).pathname }
}

const payload = (name: string, status = 'firing') =>
  JSON.stringify({
    status,
    alerts: [{ status, labels: { alertname: name, severity: 'critical' }, annotations: { summary: name } }],
  })

async function send(path: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
  return { status: res.status, body: (await res.json()) as Json }
}

async function topicSize(): Promise<number> {
  const admin = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    return (await admin.fetchTopicOffsets(service.container.topics.alerts)).reduce((n, p) => n + Number(p.high), 0)
  } finally {
    await admin.disconnect()
  }
}

async function storedAlerts(id: string, count: number) {
  return waitFor(`${count} stored alerts`, async () => {
    const res = await call('GET', `/api/v1/integrations/${id}/alerts?limit=100`)
    return res.body['alerts'].length >= count ? (res.body['alerts'] as Json[]) : undefined
  })
}

const grafanaSign = (secret: string, ts: string, body: string) =>
  createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex')
const unixNow = () => String(Math.floor(Date.now() / 1000))

describe('bearer', () => {
  it('takes a request with the token, refuses one without it with 401, publishes nothing refused, and counts it', async () => {
    const { id, path } = await integration()
    const set = await call('PUT', `/api/v1/integrations/${id}/authentication`, { scheme: 'bearer' })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    const token: string = set.body['secret']['value']
    expect(token.length).toBeGreaterThanOrEqual(40)
    // Shown once: no read shows it again.
    const read = await call('GET', `/api/v1/integrations/${id}/authentication`)
    expect(JSON.stringify(read.body)).not.toContain(token)
    expect(read.body['authentication']).toMatchObject({ scheme: 'bearer', secrets: [{ id: set.body['secret']['id'] }] })
    expect((await call('GET', `/api/v1/integrations/${id}`)).body['senderAuth']).toEqual({
      scheme: 'bearer',
      secrets: 1,
    })
    expect(JSON.stringify(await t.redis.get(`${t.config.redis.keyPrefix}integration:${id}`))).not.toContain(token)

    const before = await topicSize()
    const refused = [
      await send(path, payload('a')),
      await send(path, payload('b'), { authorization: `Bearer ${token}x` }),
      await send(path, payload('c'), { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` }),
    ]
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401])
    expect(refused[1]!.body['message']).toBe('sender authentication failed: wrong credentials')
    expect(await topicSize()).toBe(before)
    const ok = await send(path, payload('d'), { authorization: `Bearer ${token}` })
    expect(ok.status).toBe(202)
    expect(await topicSize()).toBe(before + 1)
    const [alert] = await storedAlerts(id, 1)
    expect(alert!['description']).toBe('d')

    const counted = await waitFor('failures counted', async () => {
      const a = (await call('GET', `/api/v1/integrations/${id}/authentication`)).body['authentication']
      return a['failures']['count'] === 3 && a['secrets'][0]['lastUsedAt'] ? a : undefined
    })
    expect(counted['failures']['lastReason']).toBe('missing credentials')
    const metrics = await (await fetch(`${service.url}/metrics`)).text()
    expect(metrics).toMatch(/sluice_webhook_auth_failures_total\{reason="wrong credentials"\} [1-9]/)
    expect(metrics).not.toContain(token)

    // Off again: the address alone is believed.
    expect((await call('DELETE', `/api/v1/integrations/${id}/authentication`)).status).toBe(204)
    expect((await send(path, payload('e'))).status).toBe(202)
    expect((await call('GET', `/api/v1/integrations/${id}/authentication`)).body).toEqual({ authentication: null })
  })
})

describe('the rate limit', () => {
  it("is not spent by forged bearer requests: the sender's own request passes after a flood of wrong tokens", async () => {
    const { id, path } = await integration()
    const set = await call('PUT', `/api/v1/integrations/${id}/authentication`, { scheme: 'bearer' })
    const token: string = set.body['secret']['value']
    // An edge whose address limit is 3 requests at once, one a second.
    const strict = await t.start(['edge'], { SLUICE_WEBHOOK_RATE_PER_SECOND: '1', SLUICE_WEBHOOK_BURST: '3' })
    const post = (authorization: string) =>
      fetch(`${strict.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: payload('rate'),
      }).then((r) => r.status)
    const forged = await Promise.all(Array.from({ length: 10 }, () => post('Bearer forged')))
    expect(forged).toEqual(Array.from({ length: 10 }, () => 401))
    expect(await post(`Bearer ${token}`)).toBe(202)
    // The limit itself still holds for the sender (Alertmanager's integrations answer it with 503: it retries those).
    const more = await Promise.all(Array.from({ length: 5 }, () => post(`Bearer ${token}`)))
    expect(more).toContain(503)
  })
})

describe('basic', () => {
  it('checks the user and the password', async () => {
    const { id, path } = await integration()
    const set = await call('PUT', `/api/v1/integrations/${id}/authentication`, {
      scheme: 'basic',
      username: 'alertmanager',
      secret: 'a-password-of-my-own:1',
    })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    const basic = (user: string, pass: string) => ({
      authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
    })
    expect((await send(path, payload('x'), basic('alertmanager', 'a-password-of-my-own:1'))).status).toBe(202)
    expect((await send(path, payload('y'), basic('grafana', 'a-password-of-my-own:1'))).status).toBe(401)
    expect((await send(path, payload('z'), basic('alertmanager', 'a-password-of-my-own:2'))).status).toBe(401)
  })
})

describe('hmac', () => {
  it("grafana: a signature with Grafana's headers passes; a replay, a changed byte and a missing timestamp do not", async () => {
    const { id, path } = await integration()
    const set = await call('PUT', `/api/v1/integrations/${id}/authentication`, { scheme: 'hmac', preset: 'grafana' })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect(set.body['authentication']).toMatchObject({
      preset: 'grafana',
      signatureHeader: 'x-grafana-alerting-signature',
      timestampHeader: 'x-grafana-alerting-timestamp',
      toleranceSeconds: 300,
    })
    const secret: string = set.body['secret']['value']
    // Sealed at rest: the secret is nowhere in Redis.
    for (const key of await t.keys(`${t.config.redis.keyPrefix}*`)) {
      const type = await t.redis.type(key)
      const value =
        type === 'string' ? await t.redis.get(key) : type === 'hash' ? JSON.stringify(await t.redis.hgetall(key)) : ''
      expect(value ?? '').not.toContain(secret)
    }
    const signed = (body: string, ts = unixNow(), sig = grafanaSign(secret, ts, body)) => ({
      'x-grafana-alerting-signature': sig,
      'x-grafana-alerting-timestamp': ts,
    })
    const body = payload('signed')
    const before = await topicSize()
    expect((await send(path, body, signed(body))).status).toBe(202)
    const old = String(Math.floor(Date.now() / 1000) - 301)
    const replay = await send(path, body, signed(body, old))
    expect(replay).toMatchObject({
      status: 401,
      body: { message: 'sender authentication failed: timestamp outside tolerance' },
    })
    const changed = body.replace('signed', 'signee')
    expect((await send(path, changed, signed(body))).status).toBe(401)
    expect(
      (await send(path, body, { 'x-grafana-alerting-signature': grafanaSign(secret, unixNow(), body) })).status,
    ).toBe(401)
    expect(await topicSize()).toBe(before + 1)
    // Invalid JSON from a forger is refused as unsigned too, before anything else is said about it.
    expect((await send(path, '{"a":', signed('{"b":1}'))).status).toBe(401)
  })

  it('rotates with two secrets while a sender keeps sending: no request refused; the retired secret is refused after', async () => {
    const { id, path } = await integration()
    const set = await call('PUT', `/api/v1/integrations/${id}/authentication`, { scheme: 'hmac', preset: 'grafana' })
    let secret: string = set.body['secret']['value']
    const oldSecret = secret
    const statuses: number[] = []
    let sending = true
    const sender = (async () => {
      for (let i = 0; sending; i++) {
        const body = payload(`rot-${i}`)
        const ts = unixNow()
        const headers = {
          'x-grafana-alerting-signature': grafanaSign(secret, ts, body),
          'x-grafana-alerting-timestamp': ts,
        }
        statuses.push((await send(path, body, headers)).status)
        await new Promise((r) => setTimeout(r, 10))
      }
    })()
    await new Promise((r) => setTimeout(r, 300))
    const added = await call('POST', `/api/v1/integrations/${id}/authentication/secrets`)
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body['authentication']['secrets']).toHaveLength(2)
    // A third is refused: two at most.
    expect((await call('POST', `/api/v1/integrations/${id}/authentication/secrets`)).status).toBe(409)
    await new Promise((r) => setTimeout(r, 300))
    secret = added.body['secret']['value'] // the sender moves to the new secret
    await new Promise((r) => setTimeout(r, 300))
    const retired = await call(
      'DELETE',
      `/api/v1/integrations/${id}/authentication/secrets/${String(set.body['secret']['id'])}`,
    )
    expect(retired.status, JSON.stringify(retired.body)).toBe(200)
    await new Promise((r) => setTimeout(r, 300))
    sending = false
    await sender
    expect(statuses.length).toBeGreaterThan(20)
    expect(statuses.filter((s) => s !== 202)).toEqual([])
    const body = payload('late')
    const ts = unixNow()
    const withOld = {
      'x-grafana-alerting-signature': grafanaSign(oldSecret, ts, body),
      'x-grafana-alerting-timestamp': ts,
    }
    expect((await send(path, body, withOld)).status).toBe(401)
    // The last secret cannot be retired.
    const last = retired.body['secrets'][0]['id'] as string
    expect((await call('DELETE', `/api/v1/integrations/${id}/authentication/secrets/${last}`)).status).toBe(409)
  })

  it('github and standard-webhooks presets verify their own formats', async () => {
    const gh = await integration()
    const ghSet = await call('PUT', `/api/v1/integrations/${gh.id}/authentication`, {
      scheme: 'hmac',
      preset: 'github',
      secret: 'my-github-style-secret',
    })
    expect(ghSet.status, JSON.stringify(ghSet.body)).toBe(200)
    const body = payload('gh')
    const sig = `sha256=${createHmac('sha256', 'my-github-style-secret').update(body).digest('hex')}`
    expect((await send(gh.path, body, { 'x-hub-signature-256': sig })).status).toBe(202)
    expect((await send(gh.path, `${body} `, { 'x-hub-signature-256': sig })).status).toBe(401)

    const sw = await integration()
    const swSet = await call('PUT', `/api/v1/integrations/${sw.id}/authentication`, {
      scheme: 'hmac',
      preset: 'standard-webhooks',
    })
    const swSecret: string = swSet.body['secret']['value']
    expect(swSecret).toMatch(/^whsec_/)
    const key = Buffer.from(swSecret.slice(6), 'base64')
    const ts = unixNow()
    const swSig = createHmac('sha256', key).update(`msg_1.${ts}.${body}`).digest('base64')
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': ts, 'webhook-signature': `v1,${swSig}` }
    expect((await send(sw.path, body, headers)).status).toBe(202)
    expect((await send(sw.path, body, { ...headers, 'webhook-id': 'msg_2' })).status).toBe(401)
  })

  it('an edge without the key that sealed a secret refuses its senders, and says why; hmac cannot be set up without a key', async () => {
    const { id, path } = await integration()
    const set = await call('PUT', `/api/v1/integrations/${id}/authentication`, { scheme: 'hmac' })
    const other = await t.start(['edge', 'admin'], { SLUICE_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') })
    const body = payload('k')
    const ts = unixNow()
    const res = await fetch(`${other.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-grafana-alerting-signature': grafanaSign(set.body['secret']['value'], ts, body),
        'x-grafana-alerting-timestamp': ts,
      },
      body,
    })
    expect(res.status).toBe(401)
    expect(((await res.json()) as Json)['message']).toBe('sender authentication failed: secret unavailable')

    const keyless = await t.start(['admin'], { SLUICE_SECRETS_KEY: '' })
    const refused = await fetch(`${keyless.url}/api/v1/integrations/${id}/authentication`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scheme: 'hmac' }),
    })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as Json)['message']).toMatch(/SLUICE_SECRETS_KEY/)
  })
})

describe('the admin API', () => {
  it('names each bad field, hides other accounts, and lets only role all change it', async () => {
    const { id } = await integration()
    const bad = await call('PUT', `/api/v1/integrations/${id}/authentication`, {
      scheme: 'hmac',
      preset: 'github',
      toleranceSeconds: 60,
      username: 'x',
    })
    expect(bad.status).toBe(400)
    expect(bad.body['details'].map((d: Json) => d['field']).sort()).toEqual(['toleranceSeconds', 'username'])
    expect(
      (await call('PUT', `/api/v1/integrations/${id}/authentication`, { scheme: 'basic' })).body['details'],
    ).toEqual([expect.objectContaining({ field: 'username' })])
    expect(
      (await call('PUT', `/api/v1/integrations/${id}/authentication`, { scheme: 'bearer', secret: 'short' })).status,
    ).toBe(400)
    expect(
      (await call('PUT', `/api/v1/integrations/${id}/authentication`, { scheme: 'bearer', __proto__: { x: 1 } }))
        .status,
    ).toBe(200)
    const other = await t.tenancy.createAccount('other')
    const { key: otherKey } = await t.tenancy.createApiKey({ kind: 'admin', accountId: other.id, name: 'o' })
    const { key: viewer } = await t.tenancy.createApiKey({
      kind: 'admin',
      accountId: demo.accountId,
      name: 'v',
      role: 'segment-viewer',
    })
    await waitFor('new keys', async () =>
      (await call('GET', '/api/v1/integrations', undefined, viewer)).status !== 401 ? true : undefined,
    )
    expect((await call('GET', `/api/v1/integrations/${id}/authentication`, undefined, otherKey)).status).toBe(404)
    expect((await call('DELETE', `/api/v1/integrations/${id}/authentication`, undefined, otherKey)).status).toBe(404)
    expect((await call('DELETE', `/api/v1/integrations/${id}/authentication`, undefined, viewer)).status).toBe(403)
  })
})

describe("Opsgenie's close and acknowledge calls", () => {
  it('take an empty body whatever its Content-Type, and a bearer token', async () => {
    const created = await call('POST', '/api/v1/integrations', { name: 'og', template: 'opsgenie' })
    const id = created.body['id'] as string
    const path = new URL(created.body['webhookUrl']).pathname
    for (const contentType of ['application/json', 'text/plain', undefined]) {
      const res = await fetch(`${service.url}${path}/v2/alerts/db-down/close`, {
        method: 'POST',
        headers: contentType ? { 'content-type': contentType } : {},
        body: '',
      })
      expect(res.status, `${contentType}: ${await res.clone().text()}`).toBe(202)
    }
    // A token carries no per-request proof to bind to a path: the path calls stay open to it.
    const set = await call('PUT', `/api/v1/integrations/${id}/authentication`, { scheme: 'bearer' })
    const res = await fetch(`${service.url}${path}/v2/alerts/db-down/acknowledge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${set.body['secret']['value']}` },
    })
    expect(res.status).toBe(202)
    const unsigned = await fetch(`${service.url}${path}/v2/alerts/db-down/acknowledge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    })
    expect(unsigned.status).toBe(401)
  })
})

/** The integration's alerts by dedup key (every status). */
async function alertsByKey(integrationId: string): Promise<Map<string, Json>> {
  const res = await call('GET', `/api/v1/alerts?integrationId=${integrationId}&status=all&limit=100`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return new Map((res.body['alerts'] as Json[]).map((a) => [a['dedupKey'] as string, a]))
}

describe('replays of a signed request', () => {
  it('standard-webhooks: a replayed webhook-id is answered 200 duplicate and not published again; a forger cannot burn an id', async () => {
    const { id, path } = await integration()
    const set = await call('PUT', `/api/v1/integrations/${id}/authentication`, {
      scheme: 'hmac',
      preset: 'standard-webhooks',
    })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    const key = Buffer.from((set.body['secret']['value'] as string).slice(6), 'base64')
    const signed = (msgId: string, body: string, ts = unixNow()) => ({
      'webhook-id': msgId,
      'webhook-timestamp': ts,
      'webhook-signature': `v1,${createHmac('sha256', key).update(`${msgId}.${ts}.${body}`).digest('base64')}`,
    })
    const body = payload('replayed')
    const headers = signed('msg_replayed', body)
    const before = await topicSize()
    // Someone without the secret sends the id first: refused, and the id is not spent.
    const forged = await send(path, body, {
      ...headers,
      'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
    })
    expect(forged.status).toBe(401)
    const first = await send(path, body, headers)
    // The captured request sent again within the tolerance, once and then four at a time.
    const replays = [await send(path, body, headers)]
    replays.push(...(await Promise.all(Array.from({ length: 4 }, () => send(path, body, headers)))))
    const afterReplays = await topicSize()
    // A later message (ordered after the replays on the integration's partition) shows they were all processed.
    const marker = payload('marker')
    expect((await send(path, marker, signed('msg_marker', marker))).status).toBe(202)
    const alerts = await waitFor('the marker alert', async () => {
      const byKey = await alertsByKey(id)
      return [...byKey.values()].some((a) => a['description'] === 'marker') ? byKey : undefined
    })
    const replayed = [...alerts.values()].find((a) => a['description'] === 'replayed')
    expect(replayed?.['count'], 'notifications counted for the replayed alert').toBe(1)
    expect(first.status).toBe(202)
    expect(afterReplays).toBe(before + 1)
    for (const r of replays) {
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ requestId: expect.any(String), duplicate: true })
    }
  })

  it('standard-webhooks: a webhook-id over 256 characters is refused with 400 naming it; 256 pass', async () => {
    const { id, path } = await integration()
    const set = await call('PUT', `/api/v1/integrations/${id}/authentication`, {
      scheme: 'hmac',
      preset: 'standard-webhooks',
    })
    const key = Buffer.from((set.body['secret']['value'] as string).slice(6), 'base64')
    const body = payload('long-id')
    const signed = (msgId: string, ts = unixNow()) => ({
      'webhook-id': msgId,
      'webhook-timestamp': ts,
      'webhook-signature': `v1,${createHmac('sha256', key).update(`${msgId}.${ts}.${body}`).digest('base64')}`,
    })
    const before = await topicSize()
    const long = await send(path, body, signed('m'.repeat(257)))
    expect(long.status).toBe(400)
    expect(long.body).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'sender authentication failed: malformed signature',
      details: [{ field: 'webhook-id', problem: 'must be 1 to 256 printable ASCII characters without spaces' }],
    })
    expect(await topicSize()).toBe(before)
    expect((await send(path, body, signed('m'.repeat(256)))).status).toBe(202)
  })

  it('opsgenie: on an HMAC integration a path call is refused (the signature does not cover the path), so a captured close cannot close another alias; {alias, action} in the signed body works', async () => {
    const created = await call('POST', '/api/v1/integrations', { name: `og-${Math.random()}`, template: 'opsgenie' })
    const id = created.body['id'] as string
    const path = new URL(created.body['webhookUrl']).pathname
    const set = await call('PUT', `/api/v1/integrations/${id}/authentication`, { scheme: 'hmac', preset: 'grafana' })
    const secret: string = set.body['secret']['value']
    const signed = (body: string, ts = unixNow()) => ({
      'x-grafana-alerting-signature': grafanaSign(secret, ts, body),
      'x-grafana-alerting-timestamp': ts,
    })
    for (const alias of ['og-a', 'og-b']) {
      const body = JSON.stringify({ message: `${alias} down`, alias, priority: 'P1' })
      expect((await send(path, body, signed(body))).status).toBe(202)
    }
    await waitFor('both alerts firing', async () => {
      const byKey = await alertsByKey(id)
      return byKey.get('og-a')?.['status'] === 'firing' && byKey.get('og-b')?.['status'] === 'firing' ? true : undefined
    })
    const before = await topicSize()
    // The sender closes og-a the Opsgenie way, signing its empty body; the request is captured and replayed
    // against og-b, and as an acknowledge.
    const closeHeaders = signed('')
    const post = (p: string) =>
      fetch(`${service.url}${path}${p}`, { method: 'POST', headers: closeHeaders }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as Json,
      }))
    const close = await post('/v2/alerts/og-a/close')
    const replayedB = await post('/v2/alerts/og-b/close')
    const replayedAck = await post('/v2/alerts/og-b/acknowledge')
    const afterPath = await topicSize()
    // The way that works: alias and action in the signed body, posted to the address.
    const closeA = JSON.stringify({ alias: 'og-a', action: 'close' })
    expect((await send(path, closeA, signed(closeA))).status).toBe(202)
    const alerts = await waitFor('og-a resolved', async () => {
      const byKey = await alertsByKey(id)
      return byKey.get('og-a')?.['status'] === 'resolved' ? byKey : undefined
    })
    expect(alerts.get('og-b')?.['status'], 'og-b untouched by the replays').toBe('firing')
    expect(afterPath).toBe(before)
    for (const r of [close, replayedB, replayedAck]) {
      expect(r.status).toBe(400)
      expect(r.body['code']).toBe('BAD_REQUEST')
      expect(r.body['message']).toMatch(
        /requires HMAC signatures, and a signature does not cover the path.*post \{"alias": …, "action": "close"\}/,
      )
    }
    // With no signature at all the answer is the same: nothing is said before the signature, nothing is published.
    const unsigned = await fetch(`${service.url}${path}/v2/alerts/og-b/close`, { method: 'POST' })
    expect(unsigned.status).toBe(400)
    expect(await topicSize()).toBe(before + 1)
  })
})
