// Heartbeats with a real Prometheus Alertmanager (Debian's prometheus-alertmanager, installed by scripts/test.sh): its
// always-firing Watchdog alert, sent to an integration on a 2 s repeat interval, keeps the integration's heartbeat
// (10 s, 2 s of grace) up; Alertmanager stopped, the heartbeat's alert is raised after the interval and the grace, into
// the normal lifecycle (an incident); Alertmanager back with its Watchdog, the alert resolves.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'

const BINARY = '/usr/bin/prometheus-alertmanager'
const PORT = 19655

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let alertmanager: ChildProcess | undefined
let dir: string
let log = ''

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function admin(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await res.json().catch(() => ({}))) as Json
  expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300)
  return json
}

async function startAlertmanager(): Promise<void> {
  log = ''
  alertmanager = spawn(
    BINARY,
    [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${PORT}`,
      '--cluster.listen-address=',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  alertmanager.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)))
  await waitFor(
    `alertmanager on ${PORT}`,
    async () => ((await fetch(`http://127.0.0.1:${PORT}/-/ready`).catch(() => undefined))?.ok ? true : undefined),
    30_000,
  )
  // Prometheus's Watchdog: always firing (re-posted by Prometheus; here, once, until an hour from now).
  const res = await fetch(`http://127.0.0.1:${PORT}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([
      {
        labels: { alertname: 'Watchdog', severity: 'none' },
        annotations: { summary: 'An alert that should always be firing to certify that Alertmanager is working.' },
        startsAt: new Date().toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    ]),
  })
  expect(res.status).toBe(200)
}

async function stopAlertmanager(): Promise<void> {
  if (alertmanager && alertmanager.exitCode === null && alertmanager.signalCode === null) {
    const exited = new Promise((r) => alertmanager!.once('exit', r))
    alertmanager.kill('SIGTERM')
    await exited
  }
}

beforeAll(async () => {
  expect(spawnSync(BINARY, ['--version']).status, `${BINARY}: scripts/test.sh installs it`).toBe(0)
  t = await createTestEnv({ SLUICE_INTEGRATION_REFRESH_MS: '200', SLUICE_HEARTBEAT_TICK_MS: '500' })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts', 'checks'])
  dir = mkdtempSync(join(tmpdir(), 'sluice-heartbeat-'))
}, 120_000)

afterAll(async () => {
  await stopAlertmanager()
  if (dir) rmSync(dir, { recursive: true, force: true })
  await t?.close()
})

it("Alertmanager's Watchdog keeps a heartbeat up; Alertmanager stopped raises its alert after interval and grace, and back resolves it", async () => {
  const integration = await admin('POST', '/api/v1/integrations', {
    name: 'prod alertmanager',
    template: 'alertmanager',
  })
  writeFileSync(
    join(dir, 'alertmanager.yml'),
    [
      'route:',
      '  receiver: sluice',
      "  group_by: ['alertname']",
      '  group_wait: 0s',
      '  group_interval: 1s',
      '  repeat_interval: 2s',
      'receivers:',
      '  - name: sluice',
      '    webhook_configs:',
      `      - url: ${integration['webhookUrl']}`,
      '',
    ].join('\n'),
  )
  const hb = await admin('PUT', `/api/v1/integrations/${integration['id']}/heartbeat`, {
    intervalSeconds: 10,
    graceSeconds: 2,
  })
  expect(hb).toMatchObject({ integrationId: integration['id'], intervalSeconds: 10, graceSeconds: 2, state: 'up' })
  await startAlertmanager()
  const listed = async () =>
    ((await admin('GET', '/api/v1/heartbeats'))['heartbeats'] as Json[]).find(
      (h) => h['integrationId'] === integration['id'],
    )!
  await waitFor('the first Watchdog payload', async () => ((await listed())['lastPayloadAt'] ? true : undefined))
  const heartbeatAlerts = async (status: string) => {
    const all = (await admin('GET', `/api/v1/alerts?status=${status}&limit=100`))['alerts'] as Json[]
    return all.filter((a) => a['dedupKey'] === `heartbeat-${integration['id']}`)
  }
  // 15 s of Watchdog payloads every 2 s: longer than the interval and its grace, and it stays up.
  await new Promise((r) => setTimeout(r, 15_000))
  expect((await listed())['state']).toBe('up')
  expect(await heartbeatAlerts('all')).toEqual([])

  await stopAlertmanager()
  const last = Date.parse((await listed())['lastPayloadAt'])
  const raised = await waitFor('the heartbeat alert', async () => (await heartbeatAlerts('open'))[0], 40_000)
  const raisedAt = Date.now()
  expect(raised).toMatchObject({ severity: 'critical', status: 'firing', source: 'sluice-heartbeats' })
  expect(raised['description']).toMatch(/^No payload from integration "prod alertmanager" for 1\d s/)
  // Not before the interval and grace; within a tick and the alert pipeline after.
  expect(raisedAt - last).toBeGreaterThanOrEqual(12_000)
  expect(raisedAt - last).toBeLessThan(12_000 + 8000)
  expect((await listed())['state']).toBe('down')
  // Into the normal lifecycle: an incident of its own.
  const incidents = (await admin('GET', '/api/v1/incidents?status=open&limit=100'))['incidents'] as Json[]
  expect(incidents.some((i) => String(i['title']).includes('prod alertmanager'))).toBe(true)

  await startAlertmanager()
  await waitFor('the heartbeat alert resolved', async () =>
    (await heartbeatAlerts('all'))[0]?.['status'] === 'resolved' ? true : undefined,
  )
  expect((await listed())['state']).toBe('up')
  expect(await heartbeatAlerts('open')).toEqual([])
}, 150_000)

it('refuses a heartbeat of an integration of no one, an interval of 0, and a missing one to remove', async () => {
  const put = (id: string, body: unknown) =>
    fetch(`${service.url}/api/v1/integrations/${id}/heartbeat`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  expect((await put('nope', { intervalSeconds: 60 })).status).toBe(404)
  const integration = await admin('POST', '/api/v1/integrations', { name: 'x', template: 'generic' })
  const zero = await put(integration['id'], { intervalSeconds: 0 })
  expect(zero.status).toBe(400)
  expect(JSON.stringify(await zero.json())).toMatch(/intervalSeconds/)
  const removed = await fetch(`${service.url}/api/v1/integrations/${integration['id']}/heartbeat`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${demo.adminApiKey}` },
  })
  expect(removed.status).toBe(404)
})
