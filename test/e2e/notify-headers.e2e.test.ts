// A webhook destination whose header (or content type) holds a character no HTTP request can carry
// (`€`, `☕`, a control character, a line break) neither kills the process nor loops on retries. New
// ones are refused when saved (400 naming the field); one stored before that check (by an earlier
// version: written to Redis here as it would have) answers /test with a failure naming the field, and
// its deliveries go to the dead letter with that reason while a well-behaved destination of the same
// alert gets its notification. The process under test is `sluice serve`, spawned: it must still answer
// /healthz well past the outbound deadline (2 s) after each case, and after a restart that finds such
// deliveries waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { StoredDestination } from '../../src/pipeline/notify/destinations.js'
import { SecretBox } from '../../src/shared/secret-box.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { exited, serveProcess, type Served } from '../support/cli.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'
import { postAlertmanager } from '../support/alerts.js'
import { startReceivers, type Receivers } from '../support/receivers.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const TIMEOUT_MS = 2000
const ENV = {
  SLUICE_INTEGRATION_REFRESH_MS: '200',
  SLUICE_NOTIFY_ALLOW_HTTP: 'true',
  SLUICE_NOTIFY_ALLOWED_RANGES: '127.0.0.0/8',
  SLUICE_NOTIFY_TIMEOUT_MS: String(TIMEOUT_MS),
  SLUICE_NOTIFY_LEASE_SECONDS: '5',
  SLUICE_NOTIFY_GIVE_UP_SECONDS: '60',
}

let t: TestEnv
let demo: DemoAccount
let rx: Receivers
/** Alert intake (edge and alerts roles) in this process; the notify role and the admin API run in `sluice serve`. */
let intake: RunningService
let serve: Served
let integration: { id: string; path: string }
const ids: Record<'header' | 'contentType' | 'good', string> = { header: '', contentType: '', good: '' }

/** `sluice serve` with the admin API and the notify role, once it answers /readyz. */
const startServe = () => serveProcess('admin,notify', { ...t.env, ...ENV })

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${serve.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${demo.adminApiKey}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json }
}

/** The process answers /healthz throughout `ms` (checked every 250 ms) and has not exited. */
async function staysAlive(ms: number): Promise<void> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    const res = await fetch(`${serve.url}/healthz`, { signal: AbortSignal.timeout(1000) }).catch(
      (err: unknown) => err as Error,
    )
    if (res instanceof Error || res.status !== 200 || serve.child.exitCode !== null)
      throw new Error(`sluice serve stopped answering (exit code ${serve.child.exitCode}): ${serve.log().slice(-3000)}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** A destination saved as an earlier version would have saved it: with a header or content type unchecked. */
async function storeUnchecked(id: string, change: (d: Extract<StoredDestination, { kind: 'webhook' }>) => object) {
  const stored = await t.state.notify.destination(demo.accountId, id)
  if (stored?.kind !== 'webhook') throw new Error(`no webhook destination ${id}`)
  await t.state.notify.saveDestination(demo.accountId, { ...stored, ...change(stored) })
}

/** Posts a firing alert to the integration through the intake. */
async function post(fingerprint: string): Promise<void> {
  const res = await postAlertmanager(`${intake.url}${integration.path}`, [
    {
      fingerprint,
      labels: { alertname: fingerprint, severity: 'critical' },
      annotations: { summary: `summary of ${fingerprint}` },
    },
  ])
  expect(res.status).toBe(202)
}

async function stored(fingerprint: string): Promise<string> {
  return waitFor(`alert ${fingerprint} stored`, async () => {
    const res = await call('GET', `/api/v1/alerts?status=all&integrationId=${integration.id}&limit=500`)
    return (res.body['alerts'] as Json[]).find((a) => a['dedupKey'] === fingerprint)?.['id'] as string | undefined
  })
}

/** The alert's deliveries once the good destination's is delivered and the two others are in the dead letter. */
async function settled(alertId: string): Promise<Record<string, Json>> {
  return waitFor(`the deliveries of ${alertId} settled`, async () => {
    const list = (await call('GET', `/api/v1/alerts/${alertId}/deliveries`)).body['deliveries'] as Json[]
    const by = Object.fromEntries(list.map((d) => [d['destinationId'] as string, d]))
    return by[ids.good]?.['status'] === 'delivered' &&
      by[ids.header]?.['status'] === 'dead' &&
      by[ids.contentType]?.['status'] === 'dead'
      ? by
      : undefined
  })
}

function expectGivenUp(by: Record<string, Json>): void {
  expect(by[ids.header]).toMatchObject({
    status: 'dead',
    attempts: 1,
    lastError: expect.stringMatching(/^not sent: settings\.headers\.X-Token holds a character not allowed/),
    log: [{ result: 'give-up', events: 1 }],
  })
  expect(by[ids.contentType]).toMatchObject({
    status: 'dead',
    attempts: 1,
    lastError: expect.stringMatching(/^not sent: settings\.contentType holds a character not allowed/),
  })
}

beforeAll(async () => {
  t = await createTestEnv(ENV)
  demo = await t.bootstrap()
  rx = await startReceivers()
  intake = await t.start(['edge', 'alerts'])
  serve = await startServe()
}, 120_000)

afterAll(async () => {
  if (serve?.child.exitCode === null) {
    serve.child.kill('SIGTERM')
    await exited(serve.child)
  }
  await rx?.close()
  await t?.close()
})

describe('a webhook header no HTTP request can carry', () => {
  it('is refused when saved, naming the field: a header value, a header name, the content type, also on a change', async () => {
    const base = { name: 'bad', kind: 'webhook', settings: { url: `${rx.url}/never` } }
    for (const [settings, field] of [
      [{ headers: { 'X-Token': 'caf€' } }, 'settings.headers.X-Token'],
      [{ headers: { 'X-Token': 'café ☕' } }, 'settings.headers.X-Token'],
      [{ headers: { 'X-Token': 'a\u0001b' } }, 'settings.headers.X-Token'],
      [{ headers: { 'X-Token': 'a\r\nX-Evil: 1' } }, 'settings.headers.X-Token'],
      [{ contentType: 'text/plain\r\nX-Evil: 1' }, 'settings.contentType'],
      [{ contentType: 'application/json; charset=€' }, 'settings.contentType'],
      [{ headers: { 'X Token': 'v' } }, 'settings.headers.X Token'],
    ] as const) {
      const res = await call('POST', '/api/v1/notification-destinations', {
        ...base,
        settings: { ...base.settings, ...settings },
      })
      expect(res.status, JSON.stringify(settings)).toBe(400)
      expect(res.body['message'], JSON.stringify(settings)).toContain(field)
    }
    // Latin-1 text is what Node sends as is: taken.
    const latin = await call('POST', '/api/v1/notification-destinations', {
      ...base,
      settings: { ...base.settings, headers: { 'X-Token': 'café' } },
    })
    expect(latin.status, JSON.stringify(latin.body)).toBe(201)
    const id = latin.body['destination']['id'] as string
    const changed = await call('PUT', `/api/v1/notification-destinations/${id}`, {
      ...base,
      settings: { ...base.settings, headers: { 'X-Token': 'café ☕' } },
    })
    expect(changed.status).toBe(400)
    expect(changed.body['message']).toContain('settings.headers.X-Token')
    expect((await call('DELETE', `/api/v1/notification-destinations/${id}`)).status).toBe(204)
    expect((await call('GET', '/api/v1/notification-destinations')).body['destinations']).toEqual([])
    expect(rx.on('/never')).toEqual([])
  })

  it('stored before that check: /test answers a failure naming the field, nothing is sent, and the process lives on', async () => {
    const box = new SecretBox([t.env['SLUICE_SECRETS_KEY']!])
    for (const [key, path] of [
      ['header', '/bad-header'],
      ['contentType', '/bad-content-type'],
      ['good', '/good'],
    ] as const) {
      const made = await call('POST', '/api/v1/notification-destinations', {
        name: key,
        kind: 'webhook',
        settings: { url: `${rx.url}${path}`, headers: { 'X-Token': 'fine' } },
      })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      ids[key] = made.body['destination']['id'] as string
    }
    await storeUnchecked(ids.header, (d) => ({
      settings: { ...d.settings, headers: { 'X-Token': box.seal('café ☕') } },
    }))
    await storeUnchecked(ids.contentType, (d) => ({
      settings: { ...d.settings, contentType: 'text/plain\r\nX-Evil: 1' },
    }))
    expect(
      (await call('PUT', '/api/v1/notification-route', { destinations: [ids.header, ids.contentType, ids.good] }))
        .status,
    ).toBe(200)
    const made = await call('POST', '/api/v1/integrations', { name: 'headers', template: 'alertmanager' })
    expect(made.status).toBe(201)
    integration = { id: made.body['id'] as string, path: new URL(made.body['webhookUrl'] as string).pathname }

    const header = await call('POST', `/api/v1/notification-destinations/${ids.header}/test`)
    const contentType = await call('POST', `/api/v1/notification-destinations/${ids.contentType}/test`)
    // Changing it without a new value (null keeps a stored header) does not keep the unsendable one.
    const kept = await call('PUT', `/api/v1/notification-destinations/${ids.header}`, {
      name: 'header',
      kind: 'webhook',
      settings: { url: `${rx.url}/bad-header`, headers: { 'X-Token': null } },
    })
    await staysAlive(TIMEOUT_MS + 10_000)
    expect(header.status).toBe(200)
    expect(header.body).toEqual({
      result: 'give-up',
      error: expect.stringMatching(/^not sent: settings\.headers\.X-Token holds a character not allowed/),
    })
    expect(contentType.body).toEqual({
      result: 'give-up',
      error: expect.stringMatching(/^not sent: settings\.contentType holds a character not allowed/),
    })
    expect(kept.status).toBe(400)
    expect(kept.body['message']).toMatch(/settings\.headers\.X-Token is stored with a value that holds a character/)
    expect(rx.on('/bad-header')).toEqual([])
    expect(rx.on('/bad-content-type')).toEqual([])
  }, 60_000)

  it('an alert sent to it: the delivery goes to the dead letter with the reason, another destination gets it, the process lives on', async () => {
    await post('h1')
    const alertId = await stored('h1')
    const by = await settled(alertId)
    expectGivenUp(by)
    expect(rx.on('/good').map((r) => (JSON.parse(r.body) as Json)['alert']['id'])).toEqual([alertId])
    const dead = (await call('GET', '/api/v1/notification-deliveries/dead')).body['deliveries'] as Json[]
    expect(dead.filter((d) => d['alertId'] === alertId).map((d) => d['destinationId'] as string)).toEqual(
      expect.arrayContaining([ids.header, ids.contentType]),
    )
    await staysAlive(TIMEOUT_MS + 10_000)
    // Given up, not retried: one attempt each, nothing more sent.
    expectGivenUp(await settled(alertId))
    expect(rx.on('/bad-header')).toEqual([])
    expect(rx.on('/bad-content-type')).toEqual([])
  }, 60_000)

  it('restarted with such deliveries waiting, the process sends the others and lives on', async () => {
    serve.child.kill('SIGTERM')
    await exited(serve.child)
    expect(serve.child.exitCode).toBe(0)
    // While no notify process runs, an alert arrives: its deliveries wait for the next one.
    const sent = rx.on('/good').length
    await post('h2')
    serve = await startServe()
    const alertId = await stored('h2')
    expectGivenUp(await settled(alertId))
    expect(rx.on('/good')).toHaveLength(sent + 1)
    await staysAlive(TIMEOUT_MS + 10_000)
  }, 90_000)
})
