// A real Prometheus Alertmanager (Debian's prometheus-alertmanager, installed by scripts/test.sh)
// posts to an integration made from the Alertmanager template, with short group and repeat
// intervals and send_resolved. Three alerts of one group keep firing (re-posted to Alertmanager as
// Prometheus does), then end: while they fire the API shows exactly three open alerts whose counts
// grow; after they end, none open and three resolved; the streams hold one triggered and one
// resolved entry per alert (repeats off).
// Two more receivers send with sender authentication, as Alertmanager's http_config does it: a
// bearer token (authorization.credentials) and basic auth; a third sends a wrong token, gets 401,
// and nothing it sent is stored.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'

const BINARY = '/usr/bin/prometheus-alertmanager'
const PORT = 19650

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let alertmanager: ChildProcess | undefined
let dir: string
let integrationId: string
let log = ''
/** The integrations Alertmanager sends to with a bearer token, and with basic auth. */
const secured = { bearer: '', basic: '' }

beforeAll(async () => {
  expect(
    spawnSync(BINARY, ['--version']).status,
    `${BINARY}: scripts/test.sh installs it (apt-get install prometheus-alertmanager)`,
  ).toBe(0)
  t = await createTestEnv({ SLUICE_INTEGRATION_REFRESH_MS: '200' })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts'])
  const res = await fetch(`${service.url}/api/v1/integrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'alertmanager', template: 'alertmanager' }),
  })
  const integration = (await res.json()) as { id: string; webhookUrl: string }
  integrationId = integration.id
  const securedIntegration = async (auth: Record<string, string>) => {
    const made = await admin('POST', '/api/v1/integrations', {
      name: `alertmanager ${auth['scheme']}`,
      template: 'alertmanager',
    })
    const set = await admin('PUT', `/api/v1/integrations/${String(made['id'])}/authentication`, auth)
    return { id: String(made['id']), url: String(made['webhookUrl']), secret: String((set['secret'] as Json)['value']) }
  }
  const bearer = await securedIntegration({ scheme: 'bearer' })
  const basic = await securedIntegration({ scheme: 'basic', username: 'alertmanager' })
  secured.bearer = bearer.id
  secured.basic = basic.id
  const webhook = (url: string, httpConfig: string[]) => [
    '    webhook_configs:',
    `      - url: ${url}`,
    '        send_resolved: true',
    '        http_config:',
    ...httpConfig.map((l) => `          ${l}`),
  ]
  dir = mkdtempSync(join(tmpdir(), 'sluice-alertmanager-'))
  writeFileSync(
    join(dir, 'alertmanager.yml'),
    [
      'route:',
      '  receiver: sluice',
      "  group_by: ['job']",
      '  group_wait: 1s',
      '  group_interval: 1s',
      '  repeat_interval: 2s',
      '  routes:',
      ...['bearer', 'basic', 'wrong'].flatMap((a) => [
        `    - receiver: sluice-${a}`,
        `      matchers: ['auth="${a}"']`,
      ]),
      'receivers:',
      '  - name: sluice-bearer',
      ...webhook(bearer.url, ['authorization:', `  credentials: ${bearer.secret}`]),
      '  - name: sluice-basic',
      ...webhook(basic.url, ['basic_auth:', '  username: alertmanager', `  password: ${basic.secret}`]),
      '  - name: sluice-wrong',
      ...webhook(bearer.url, ['authorization:', `  credentials: ${bearer.secret}-wrong`]),
      '  - name: sluice',
      '    webhook_configs:',
      `      - url: ${integration.webhookUrl}`,
      '        send_resolved: true',
      '        max_alerts: 0',
      '',
    ].join('\n'),
  )
  alertmanager = spawn(
    BINARY,
    [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${PORT}`,
      '--cluster.listen-address=',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  alertmanager.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)))
  await waitFor(
    `alertmanager on ${PORT} (${log.slice(-300)})`,
    async () => ((await fetch(`http://127.0.0.1:${PORT}/-/ready`)).ok ? true : undefined),
    30_000,
  )
}, 120_000)

afterAll(async () => {
  // Alertmanager writes its data files as it stops: its directory is removed once it has exited.
  if (alertmanager && alertmanager.exitCode === null && alertmanager.signalCode === null) {
    const exited = new Promise((r) => alertmanager!.once('exit', r))
    alertmanager.kill('SIGTERM')
    await exited
  }
  if (dir) rmSync(dir, { recursive: true, force: true })
  await t?.close()
})

type Json = Record<string, unknown>

async function admin(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(res.status, `${method} ${path}`).toBeLessThan(300)
  return (await res.json()) as Json
}

/** What Prometheus posts to Alertmanager for three alerts of job checkout, firing until endsAt. */
async function postAlerts(endsAt: Date): Promise<void> {
  const alerts = ['HighErrorRate', 'HighLatency', 'DiskFull'].map((alertname, i) => ({
    labels: {
      alertname,
      job: 'checkout',
      severity: i === 1 ? 'warning' : 'critical',
      service: 'checkout',
      env: 'production',
      team: 'payments',
      instance: `checkout-${i}:8080`,
    },
    annotations: { summary: `${alertname} on checkout-${i}` },
    startsAt: new Date(Date.now() - 60_000).toISOString(),
    endsAt: endsAt.toISOString(),
    generatorURL: 'http://prometheus.example:9090/graph',
  }))
  const res = await fetch(`http://127.0.0.1:${PORT}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(alerts),
  })
  expect(res.status).toBe(200)
}

async function alerts(
  status: string,
  integration = integrationId,
): Promise<{ dedupKey: string; count: number; status: string; description: string }[]> {
  const res = await fetch(`${service.url}/api/v1/alerts?status=${status}&integrationId=${integration}`, {
    headers: { authorization: `Bearer ${demo.adminApiKey}` },
  })
  return ((await res.json()) as { alerts: { dedupKey: string; count: number; status: string; description: string }[] })
    .alerts
}

it('keeps one open alert per firing alert with growing counts, and resolves each when Alertmanager says it ended', async () => {
  // Firing: re-posted every second, as Prometheus re-sends active alerts.
  const firing = setInterval(() => void postAlerts(new Date(Date.now() + 60_000)).catch(() => undefined), 1000)
  try {
    await postAlerts(new Date(Date.now() + 60_000))
    await waitFor('three open alerts', async () => ((await alerts('open')).length === 3 ? true : undefined), 30_000)
    const first = await alerts('open')
    // Alertmanager repeats the group every repeat_interval: the counts grow, no new alert appears.
    const grown = await waitFor(
      'repeats counted',
      async () => {
        const now = await alerts('open')
        return now.length === 3 && now.every((a) => a.count >= 3) ? now : undefined
      },
      30_000,
    )
    expect(grown.map((a) => a.dedupKey).sort()).toEqual(first.map((a) => a.dedupKey).sort())
    expect(new Set(grown.map((a) => a.dedupKey)).size).toBe(3)
    expect(grown.map((a) => a.description).sort()).toEqual([
      'DiskFull on checkout-2',
      'HighErrorRate on checkout-0',
      'HighLatency on checkout-1',
    ])
  } finally {
    clearInterval(firing)
  }
  // They end: Prometheus sends them once more with endsAt in the past; Alertmanager sends resolved.
  await postAlerts(new Date(Date.now() - 1000))
  await waitFor('no open alert', async () => ((await alerts('open')).length === 0 ? true : undefined), 30_000)
  const resolved = await alerts('resolved')
  expect(resolved).toHaveLength(3)
  for (const a of resolved) expect(a.count).toBeGreaterThanOrEqual(4)

  // The streams: one triggered and one resolved entry per alert, repeats kept out.
  const stream = await t.redis.xrange(alertStreamKeys(t.config.redis.keyPrefix).integration(integrationId), '-', '+')
  const byKey = new Map<string, string[]>()
  for (const [, f] of stream) {
    const key = f[f.indexOf('dedupKey') + 1]!
    byKey.set(key, [...(byKey.get(key) ?? []), f[f.indexOf('event') + 1]!])
  }
  expect([...byKey.keys()].sort()).toEqual(resolved.map((a) => a.dedupKey).sort())
  for (const events of byKey.values()) expect(events).toEqual(['triggered', 'resolved'])
}, 120_000)

it('delivers with a bearer token and with basic auth from http_config; a wrong token gets 401 and nothing is stored', async () => {
  const post = async (alertname: string, auth: string) => {
    const res = await fetch(`http://127.0.0.1:${PORT}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        {
          labels: { alertname, auth, job: `secure-${auth}`, severity: 'critical' },
          annotations: { summary: `${alertname} (${auth})` },
          startsAt: new Date(Date.now() - 1000).toISOString(),
          endsAt: new Date(Date.now() + 60_000).toISOString(),
        },
      ]),
    })
    expect(res.status).toBe(200)
  }
  await post('Forged', 'wrong')
  await post('SignedBearer', 'bearer')
  await post('SignedBasic', 'basic')
  const stored = async (integration: string) => (await alerts('open', integration)).map((a) => a.description)
  await waitFor('both delivered', async () =>
    (await stored(secured.bearer)).length === 1 && (await stored(secured.basic)).length === 1 ? true : undefined,
  )
  expect(await stored(secured.bearer)).toEqual(['SignedBearer (bearer)'])
  expect(await stored(secured.basic)).toEqual(['SignedBasic (basic)'])
  // Alertmanager's attempt with the wrong token was refused: counted on the integration, nothing stored.
  const failures = await waitFor('the refusal counted', async () => {
    const auth = (await admin('GET', `/api/v1/integrations/${secured.bearer}/authentication`))['authentication'] as {
      failures: { count: number; lastReason: string }
    }
    return auth.failures.count > 0 ? auth.failures : undefined
  })
  expect(failures.lastReason).toBe('wrong credentials')
  expect(await stored(secured.bearer)).toEqual(['SignedBearer (bearer)'])
}, 60_000)
