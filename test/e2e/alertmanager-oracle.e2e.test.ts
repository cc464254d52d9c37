// Alertmanager as the oracle of Sluice's grouping and inhibition: a real Prometheus Alertmanager (Debian's, installed
// by scripts/test.sh) and Sluice receive the same alerts: 50 hosts of 5 services in 3 clusters firing HighErrorRate,
// DatabaseDown in two clusters, and ConnectionRefused of services in every cluster. Alertmanager groups them by
// `group_by: [service, cluster]` and mutes with an inhibit rule (DatabaseDown inhibits ConnectionRefused of the same
// cluster); its API says which groups it made and which alerts its inhibit rule muted. Sluice's alert rules say the
// same (a group by service and customFields.cluster, an inhibit with equal: [customFields.cluster]): its incidents
// must be Alertmanager's groups, and its inhibited alerts the alerts Alertmanager inhibited.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { postAlertmanager, type FiringAlert } from '../support/alerts.js'
import { createTestEnv, jsonCaller, waitFor, type TestEnv } from '../support/harness.js'

const BINARY = '/usr/bin/prometheus-alertmanager'
const PORT = 19651
const AM = `http://127.0.0.1:${PORT}`

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let alertmanager: ChildProcess | undefined
let dir: string
let log = ''
const json = jsonCaller(() => service.url)
const call = (method: string, path: string, body?: unknown) => json(demo.adminApiKey, method, path, body)

beforeAll(async () => {
  expect(
    spawnSync(BINARY, ['--version']).status,
    `${BINARY}: scripts/test.sh installs it (apt-get install prometheus-alertmanager)`,
  ).toBe(0)
  t = await createTestEnv({ SLUICE_INTEGRATION_REFRESH_MS: '200', SLUICE_WEBHOOK_BURST: '1000' })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts'])
  dir = mkdtempSync(join(tmpdir(), 'sluice-alertmanager-oracle-'))
  // Alertmanager only groups and mutes here: its receiver sends nowhere.
  writeFileSync(
    join(dir, 'alertmanager.yml'),
    [
      'route:',
      '  receiver: nowhere',
      "  group_by: ['service', 'cluster']",
      '  group_wait: 1h',
      'receivers:',
      '  - name: nowhere',
      'inhibit_rules:',
      '  - source_matchers: [\'alertname="DatabaseDown"\']',
      '    target_matchers: [\'alertname="ConnectionRefused"\']',
      "    equal: ['cluster']",
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
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  alertmanager.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)))
  await waitFor(
    `alertmanager on ${PORT} (${log.slice(-300)})`,
    async () => ((await fetch(`${AM}/-/ready`).catch(() => undefined))?.ok ? true : undefined),
    30_000,
  )
}, 120_000)

afterAll(async () => {
  if (alertmanager && alertmanager.exitCode === null && alertmanager.signalCode === null) {
    const exited = new Promise((r) => alertmanager!.once('exit', r))
    alertmanager.kill('SIGTERM')
    await exited
  }
  if (dir) rmSync(dir, { recursive: true, force: true })
  await t?.close()
})

/** The alert set: labels of each alert, and its id (alertname and instance). */
function alertSet(): Record<string, string>[] {
  const hosts = Array.from({ length: 50 }, (_, n) => ({
    alertname: 'HighErrorRate',
    service: `svc-${n % 5}`,
    cluster: `c${n % 3}`,
    instance: `host-${n}`,
  }))
  const databases = ['c0', 'c1'].map((cluster) => ({
    alertname: 'DatabaseDown',
    service: 'postgres',
    cluster,
    instance: `db-${cluster}`,
  }))
  // ConnectionRefused in every cluster: muted in c0 and c1 (a database is down there), not in c2.
  const refused = Array.from({ length: 15 }, (_, n) => ({
    alertname: 'ConnectionRefused',
    service: `svc-${n % 5}`,
    cluster: `c${n % 3}`,
    instance: `client-${n}`,
  }))
  return [...hosts, ...databases, ...refused]
}

const idOf = (labels: Record<string, string>) => `${labels['alertname']}/${labels['instance']}`
const sortedSets = (sets: Iterable<Iterable<string>>) =>
  [...sets].map((s) => [...s].sort()).sort((a, b) => a[0]!.localeCompare(b[0]!))

it("Sluice's incidents are Alertmanager's groups for group_by [service, cluster], and its inhibited alerts are the ones Alertmanager's inhibit rule muted", async () => {
  const labels = alertSet()
  // Alertmanager: the alerts as Prometheus posts them.
  const posted = await fetch(`${AM}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      labels.map((l) => ({
        labels: l,
        startsAt: new Date().toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      })),
    ),
  })
  expect(posted.status).toBe(200)

  // Sluice: an Alertmanager integration that keeps the cluster label, and the same grouping and inhibition as rules.
  const made = await call('POST', '/api/v1/integrations', { name: 'oracle', template: 'alertmanager' })
  expect(made.status).toBe(201)
  const mapping = {
    ...made.body['mapping'],
    customFields: { ...made.body['mapping']['customFields'], cluster: '{{item.labels.cluster}}' },
  }
  expect((await call('PATCH', `/api/v1/integrations/${made.body['id']}`, { mapping })).status).toBe(200)
  const rules = await call('PUT', '/api/v1/alert-rules', {
    rules: [
      {
        id: 'groups',
        name: 'group_by service, cluster',
        group: { by: ['service', 'customFields.cluster'], until: 'resolved' },
      },
      {
        id: 'database-down',
        name: 'DatabaseDown inhibits ConnectionRefused',
        when: { field: 'customFields.alertname', equals: 'ConnectionRefused' },
        inhibit: {
          source: { field: 'customFields.alertname', equals: 'DatabaseDown' },
          equal: ['customFields.cluster'],
        },
      },
    ],
  })
  expect(rules.status, JSON.stringify(rules.body)).toBe(200)
  await new Promise((r) => setTimeout(r, 600))
  // In Alertmanager's webhook shape, a few alerts per notification, the order shuffled (sources among targets).
  const alerts: FiringAlert[] = labels.map((l) => ({ fingerprint: idOf(l), labels: l }))
  const shuffled = alerts
    .map((a, i) => ({ a, k: (i * 7919) % alerts.length }))
    .sort((x, y) => x.k - y.k)
    .map((x) => x.a)
  for (let i = 0; i < shuffled.length; i += 7)
    expect((await postAlertmanager(String(made.body['webhookUrl']), shuffled.slice(i, i + 7))).status).toBe(202)

  // Alertmanager's answer: its groups, and the alerts its inhibit rule mutes.
  const groups = await waitFor('alertmanager groups', async () => {
    const res = (await (await fetch(`${AM}/api/v2/alerts/groups`)).json()) as Json[]
    return res.reduce((n, g) => n + (g['alerts'] as Json[]).length, 0) === labels.length ? res : undefined
  })
  const amGroups = groups.map((g) => (g['alerts'] as Json[]).map((a) => idOf(a['labels'])))
  const amAlerts = (await (await fetch(`${AM}/api/v2/alerts`)).json()) as Json[]
  const amInhibited = amAlerts
    .filter((a) => (a['status']['inhibitedBy'] as string[]).length > 0)
    .map((a) => idOf(a['labels']))
  expect(amInhibited.length).toBe(10)

  // Sluice's: its incidents (members by dedup key) and its inhibited alerts.
  const mine = await waitFor('sluice alerts', async () => {
    const res = await call('GET', `/api/v1/alerts?status=all&integrationId=${made.body['id']}&limit=500`)
    const list = res.body['alerts'] as Json[]
    return list.length === labels.length ? list : undefined
  })
  const incidents = new Map<string, string[]>()
  for (const a of mine) incidents.set(a['incidentId'], [...(incidents.get(a['incidentId']) ?? []), a['dedupKey']])
  expect(sortedSets(incidents.values())).toEqual(sortedSets(amGroups))
  const inhibited = mine.filter((a) => a['status'] === 'inhibited').map((a) => a['dedupKey'] as string)
  expect(inhibited.sort()).toEqual(amInhibited.sort())
  // Each inhibited alert names a source of its own cluster.
  const byId = new Map(mine.map((a) => [a['id'], a]))
  for (const a of mine.filter((x) => x['status'] === 'inhibited'))
    expect(byId.get(a['inhibitedBy'])?.['customFields']['cluster']).toBe(a['customFields']['cluster'])
}, 120_000)
