// Incidents end to end: alerts posted as Alertmanager's webhook does, through the real edge, Kafka, the alerts
// consumer and the lifecycle script in Redis, grouped into incidents by the account's rules, and told to a
// receiver on 127.0.0.1 by the notify role. 50 hosts of one service are one incident and one notification; all
// resolved, one resolve. With no rule each alert has an incident of its own. Acknowledging or resolving an
// incident does so to its alerts; minAlerts keeps an incident quiet until enough alerts came; a group key that
// renders too much leaves the alert an incident of its own. Another account sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import { isCluster } from '../../src/state/redis/client.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { postAlertmanager, type FiringAlert } from '../support/alerts.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, jsonCaller, waitFor, type TestEnv } from '../support/harness.js'
import { startReceivers, type Receivers } from '../support/receivers.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let rx: Receivers
const json = jsonCaller(() => service.url)
const call = (method: string, path: string, body?: unknown, key = demo.adminApiKey) => json(key, method, path, body)

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_INTEGRATION_REFRESH_MS: '200',
    SLUICE_WEBHOOK_BURST: '1000',
    SLUICE_WEBHOOK_RATE_PER_SECOND: '1000',
    SLUICE_NOTIFY_ALLOW_HTTP: 'true',
    SLUICE_NOTIFY_ALLOWED_RANGES: '127.0.0.0/8',
    SLUICE_NOTIFY_TIMEOUT_MS: '2000',
  })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts', 'notify'])
  rx = await startReceivers()
  const dest = await call('POST', '/api/v1/notification-destinations', {
    name: 'on-call webhook',
    kind: 'webhook',
    settings: { url: `${rx.url}/hook` },
  })
  expect(dest.status, JSON.stringify(dest.body)).toBe(201)
  const route = await call('PUT', '/api/v1/notification-route', { destinations: [dest.body['destination']['id']] })
  expect(route.status, JSON.stringify(route.body)).toBe(200)
})
afterAll(async () => {
  await rx?.close()
  await t?.close()
})

/** An Alertmanager integration whose alerts carry the cluster label as a custom field. */
async function integration(): Promise<{ id: string; url: string }> {
  const res = await call('POST', '/api/v1/integrations', { name: `inc-${Math.random()}`, template: 'alertmanager' })
  expect(res.status).toBe(201)
  const mapping = {
    ...res.body['mapping'],
    customFields: { ...res.body['mapping']['customFields'], cluster: '{{item.labels.cluster}}' },
  }
  const put = await call('PATCH', `/api/v1/integrations/${res.body['id']}`, { mapping })
  expect(put.status, JSON.stringify(put.body)).toBe(200)
  return { id: res.body['id'], url: res.body['webhookUrl'] }
}

const host = (service: string, n: number, extra: Record<string, string> = {}): FiringAlert => ({
  fingerprint: `${service}-${n}`,
  labels: {
    alertname: 'HighErrorRate',
    severity: n === 7 ? 'critical' : 'warning',
    service,
    instance: `host-${n}`,
    cluster: 'eu-1',
    ...extra,
  },
  annotations: { summary: `error rate of ${service} on host-${n}` },
})

async function resolve(url: string, alerts: readonly FiringAlert[]): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      version: '4',
      status: 'resolved',
      alerts: alerts.map((a) => ({ ...a, status: 'resolved' })),
    }),
  })
  expect(res.status).toBe(202)
}

async function alertsOf(integrationId: string, n: number): Promise<Json[]> {
  return waitFor(`${n} alerts`, async () => {
    const res = await call('GET', `/api/v1/alerts?status=all&integrationId=${integrationId}&limit=500`)
    const alerts = res.body['alerts'] as Json[]
    return alerts.length >= n ? alerts : undefined
  })
}

/** The messages a receiver's path got, a digest's one by one. */
const messagesAt = (path: string) =>
  rx.on(path).flatMap((r) => {
    const body = JSON.parse(r.body) as Json
    return (body['alerts'] ?? [body]) as Json[]
  })

/** The webhook receiver's events about one incident. */
const told = (incidentId: string) =>
  messagesAt('/hook')
    .filter((m) => m['alert']?.['incidentId'] === incidentId)
    .map((m) => m['event'] as string)

async function rules(list: unknown[]): Promise<void> {
  const res = await call('PUT', '/api/v1/alert-rules', { rules: list })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  // The consumer reads rules again within its refresh.
  await new Promise((r) => setTimeout(r, 600))
}

describe('incidents', () => {
  it('without a grouping rule, each alert is an incident of its own; one that fires again after it resolved opens a new one', async () => {
    await rules([])
    const i = await integration()
    expect((await postAlertmanager(i.url, [host('solo', 1), host('solo', 2)])).status).toBe(202)
    const alerts = await alertsOf(i.id, 2)
    const ids = alerts.map((a) => a['incidentId'] as string)
    expect(new Set(ids).size).toBe(2)
    for (const id of ids) {
      const inc = (await call('GET', `/api/v1/incidents/${id}`)).body
      expect(inc).toMatchObject({ status: 'triggered', openAlerts: 1, alerts: 1 })
      expect(inc['members']).toHaveLength(1)
    }
    const first = alerts.find((a) => a['dedupKey'] === 'solo-1')!
    await resolve(i.url, [host('solo', 1)])
    await waitFor('resolved', async () =>
      (await call('GET', `/api/v1/incidents/${first['incidentId']}`)).body['status'] === 'resolved' ? true : undefined,
    )
    expect((await postAlertmanager(i.url, [host('solo', 1)])).status).toBe(202)
    const again = await waitFor('a new incident', async () => {
      const a = (await alertsOf(i.id, 3)).find((x) => x['dedupKey'] === 'solo-1' && x['status'] === 'firing')
      return a
    })
    expect(again['incidentId']).not.toBe(first['incidentId'])
    const reopened = (await call('GET', `/api/v1/incidents/${again['incidentId']}`)).body
    expect(reopened['previousIncidentId']).toBe(first['incidentId'])
    // Told as alerts were before incidents: triggered, resolved, then the new one's own.
    await waitFor('told', async () => (told(again['incidentId']).length === 1 ? true : undefined))
    expect(told(first['incidentId'])).toEqual(['triggered', 'resolved'])
  })

  it("50 hosts of one service through Alertmanager's webhook are one incident and one notification (plus its updates where asked); all resolved, one resolve", async () => {
    await rules([
      {
        id: 'by-service',
        name: 'one incident per service and cluster',
        group: {
          by: ['service', 'customFields.cluster'],
          until: 'resolved',
          title: '{{alert.service}} errors in {{alert.customFields.cluster}}',
        },
      },
    ])
    // A second destination asks for updates too: the alerts added, at most once a minute.
    const updates = await call('POST', '/api/v1/notification-destinations', {
      name: 'updates',
      kind: 'webhook',
      events: ['triggered', 'updated', 'resolved'],
      updateAfterMinutes: 1,
      settings: { url: `${rx.url}/updates` },
    })
    expect(updates.status, JSON.stringify(updates.body)).toBe(201)
    const updatesId = updates.body['destination']['id'] as string
    const route = (await call('GET', '/api/v1/notification-route')).body['destinations'] as string[]
    await call('PUT', '/api/v1/notification-route', { destinations: [...route, updatesId] })
    const i = await integration()
    const hosts = Array.from({ length: 50 }, (_, n) => host('checkout', n))
    // As Alertmanager sends a group: in several notifications, the first alerts first.
    expect((await postAlertmanager(i.url, hosts.slice(0, 10))).status).toBe(202)
    expect((await postAlertmanager(i.url, hosts.slice(10))).status).toBe(202)
    // Another service is another incident.
    expect((await postAlertmanager(i.url, [host('search', 1)])).status).toBe(202)
    const alerts = await alertsOf(i.id, 51)
    const checkout = alerts.filter((a) => a['service'] === 'checkout')
    const ids = new Set(checkout.map((a) => a['incidentId']))
    expect(ids.size).toBe(1)
    const incidentId = [...ids][0] as string
    expect(alerts.find((a) => a['service'] === 'search')!['incidentId']).not.toBe(incidentId)
    const inc = (await call('GET', `/api/v1/incidents/${incidentId}?members=1000`)).body
    expect(inc).toMatchObject({
      title: 'checkout errors in eu-1',
      status: 'triggered',
      severity: 'critical',
      openAlerts: 50,
      alerts: 50,
      rule: 'by-service',
    })
    expect((inc['members'] as Json[]).map((m) => m['dedupKey']).sort()).toEqual(hosts.map((h) => h.fingerprint).sort())
    expect((inc['timeline'] as Json[]).filter((e) => e['event'] === 'joined')).toHaveLength(49)
    // The list shows it among the open incidents.
    const open = (await call('GET', '/api/v1/incidents?limit=500')).body['incidents'] as Json[]
    expect(open.map((x) => x['id'])).toContain(incidentId)
    await waitFor('told once', async () => (told(incidentId).length >= 1 ? true : undefined))
    await new Promise((r) => setTimeout(r, 1500))
    expect(told(incidentId)).toEqual(['triggered'])
    // The updates: due at the end of the minute its first added alert came in (a second one when the 49 straddled
    // it), each naming the incident, with the alerts added since (the first 20 listed); together all 49.
    const updatesOf = () => messagesAt('/updates').filter((b) => b['event'] === 'updated')
    const firstUpdate = await waitFor('an update', async () => updatesOf()[0], 75_000)
    expect(firstUpdate).toMatchObject({
      event: 'updated',
      incident: { id: incidentId, title: 'checkout errors in eu-1', status: 'triggered', alerts: 50, open: 50 },
      link: expect.stringMatching(new RegExp(`/console/#/incidents\\?status=all&incident=${incidentId}$`)),
    })
    const added = firstUpdate['addedAlerts'] as Json[]
    expect(added).toHaveLength(Math.min(20, firstUpdate['added'] as number))
    expect(added.every((a) => a['incidentId'] === incidentId && a['service'] === 'checkout')).toBe(true)
    const firstJoined = (inc['members'] as Json[]).slice(1).map((m) => m['id'])
    expect(firstJoined).toContain(added[0]!['id'])
    expect(firstUpdate['added'] as number).toBeLessThanOrEqual(49)
    // When the first was read before all had joined, the next period's tells the rest.
    const addedSoFar = () => updatesOf().reduce((sum, u) => sum + (u['added'] as number), 0)
    await waitFor('updates telling all 49', async () => (addedSoFar() >= 49 ? true : undefined), 75_000)

    // Resolved host by host: the severity follows the open alerts; the incident resolves with the last.
    await resolve(
      i.url,
      hosts.filter((_, n) => n === 7),
    )
    await waitFor('severity down', async () =>
      (await call('GET', `/api/v1/incidents/${incidentId}`)).body['severity'] === 'warning' ? true : undefined,
    )
    await resolve(i.url, hosts.slice(0, 30))
    await resolve(i.url, hosts.slice(30))
    const done = await waitFor('resolved', async () => {
      const x = (await call('GET', `/api/v1/incidents/${incidentId}`)).body
      return x['status'] === 'resolved' ? x : undefined
    })
    expect(done).toMatchObject({ openAlerts: 0, resolvedBy: 'source' })
    await waitFor('told resolved', async () => (told(incidentId).length >= 2 ? true : undefined))
    await new Promise((r) => setTimeout(r, 1000))
    expect(told(incidentId)).toEqual(['triggered', 'resolved'])
    // The updates destination: triggered, one update (two when its first was read before all had joined, the second
    // telling the rest), resolved; an update still due when it resolved is not sent.
    const toUpdates = messagesAt('/updates')
      .filter((b) => b['alert']['incidentId'] === incidentId)
      .map((b) => b['event'] as string)
    const n = toUpdates.filter((e) => e === 'updated').length
    expect(toUpdates).toEqual(['triggered', ...Array<string>(n).fill('updated'), 'resolved'])
    expect(n).toBeLessThanOrEqual(2)
    // Together they tell each of the 49 that joined once: none twice, none left out.
    expect(addedSoFar()).toBe(49)
    await call('PUT', '/api/v1/notification-route', { destinations: route })
    await call('DELETE', `/api/v1/notification-destinations/${updatesId}`)
    // The incidents stream says it for readers downstream.
    const stream = alertStreamKeys(t.config.redis.keyPrefix, isCluster(t.config.redis), demo.accountId).incidents
    const events = await t.redis.xrange(stream, '-', '+')
    const mine = events.map(([, f]) => f).filter((f) => f[1] === incidentId)
    expect(mine.filter((f) => f[3] === 'triggered')).toHaveLength(1)
    expect(mine.filter((f) => f[3] === 'resolved')).toHaveLength(1)
  }, 240_000)

  it('acknowledging or resolving an incident does so to each of its open alerts, told once', async () => {
    await rules([{ id: 'by-service', name: 'by service', group: { by: ['service'], window: '5m' } }])
    const i = await integration()
    const hosts = Array.from({ length: 5 }, (_, n) => host('payments', n))
    expect((await postAlertmanager(i.url, hosts)).status).toBe(202)
    const alerts = await alertsOf(i.id, 5)
    const incidentId = alerts[0]!['incidentId'] as string
    expect(new Set(alerts.map((a) => a['incidentId'])).size).toBe(1)
    const acked = await call('POST', `/api/v1/incidents/${incidentId}/acknowledge`)
    expect(acked.status, JSON.stringify(acked.body)).toBe(200)
    expect(acked.body).toMatchObject({ status: 'acknowledged', acknowledgedBy: expect.stringMatching(/^key:/) })
    const after = (await call('GET', `/api/v1/alerts?status=all&integrationId=${i.id}`)).body['alerts'] as Json[]
    expect(after.map((a) => a['status'])).toEqual(Array(5).fill('acknowledged'))
    // Again: nothing changes.
    expect((await call('POST', `/api/v1/incidents/${incidentId}/acknowledge`)).status).toBe(200)
    // An alert that joins an acknowledged incident leaves it acknowledged, and is not told.
    expect((await postAlertmanager(i.url, [host('payments', 9)])).status).toBe(202)
    await alertsOf(i.id, 6)
    expect((await call('GET', `/api/v1/incidents/${incidentId}`)).body['status']).toBe('acknowledged')
    const resolved = await call('POST', `/api/v1/incidents/${incidentId}/resolve`)
    expect(resolved.body).toMatchObject({ status: 'resolved', openAlerts: 0 })
    const all = (await call('GET', `/api/v1/alerts?status=all&integrationId=${i.id}`)).body['alerts'] as Json[]
    expect(all.map((a) => a['status'])).toEqual(Array(6).fill('resolved'))
    expect((await call('POST', `/api/v1/incidents/${incidentId}/acknowledge`)).status).toBe(409)
    await waitFor('told', async () => (told(incidentId).length >= 3 ? true : undefined))
    await new Promise((r) => setTimeout(r, 1000))
    expect(told(incidentId)).toEqual(['triggered', 'acknowledged', 'resolved'])
  })

  it('minAlerts keeps an incident pending, not told, until enough alerts came within the window', async () => {
    await rules([{ id: 'three', name: 'three or more', group: { by: ['service'], window: '5m', minAlerts: 3 } }])
    const i = await integration()
    expect((await postAlertmanager(i.url, [host('db', 1), host('db', 2)])).status).toBe(202)
    const two = await alertsOf(i.id, 2)
    const incidentId = two[0]!['incidentId'] as string
    expect((await call('GET', `/api/v1/incidents/${incidentId}`)).body).toMatchObject({ status: 'pending', alerts: 2 })
    const pending = (await call('GET', '/api/v1/incidents?status=pending')).body['incidents'] as Json[]
    expect(pending.map((x) => x['id'])).toContain(incidentId)
    await new Promise((r) => setTimeout(r, 1000))
    expect(told(incidentId)).toEqual([])
    expect((await postAlertmanager(i.url, [host('db', 3)])).status).toBe(202)
    await waitFor('triggered', async () =>
      (await call('GET', `/api/v1/incidents/${incidentId}`)).body['status'] === 'triggered' ? true : undefined,
    )
    await waitFor('told', async () => (told(incidentId).length >= 1 ? true : undefined))
    expect(told(incidentId)).toEqual(['triggered'])
  })

  it('a group key that renders too much leaves the alert an incident of its own; bad groups are refused naming the field', async () => {
    const bad = await call('PUT', '/api/v1/alert-rules', {
      rules: [{ id: 'g', name: 'g', group: { by: ['nope'], window: '1y', minAlerts: 0 } }],
    })
    expect(bad.status).toBe(400)
    const fields = (bad.body['details'] as Json[]).map((d) => d['field'])
    expect(fields).toEqual(
      expect.arrayContaining(['rules.0.group.by.0', 'rules.0.group.window', 'rules.0.group.minAlerts']),
    )
    // 100 copies of a 1 KB label: 100 KB of key, past what a template may render.
    await rules([
      {
        id: 'huge',
        name: 'huge key',
        group: {
          key: '{{#webhook.alerts}}{{#webhook.alerts}}{{labels.blob}}{{/webhook.alerts}}{{/webhook.alerts}}',
          until: 'resolved',
        },
      },
    ])
    const i = await integration()
    const hosts = Array.from({ length: 10 }, (_, n) => host('huge', n, { blob: 'x'.repeat(1024) }))
    expect((await postAlertmanager(i.url, hosts)).status).toBe(202)
    const alerts = await alertsOf(i.id, 10)
    expect(new Set(alerts.map((a) => a['incidentId'])).size).toBe(10)
    await rules([])
  })

  it('a DatabaseDown alert inhibits the ConnectionRefused alerts of its cluster while it is open; a target still firing when it resolves is told then', async () => {
    await rules([
      {
        id: 'db-down',
        name: 'database down quiets what it causes',
        when: { field: 'customFields.alertname', equals: 'ConnectionRefused' },
        inhibit: {
          source: { field: 'customFields.alertname', equals: 'DatabaseDown' },
          equal: ['customFields.cluster'],
        },
      },
    ])
    const i = await integration()
    const refused = (n: number, cluster: string): FiringAlert => ({
      fingerprint: `refused-${cluster}-${n}`,
      labels: { alertname: 'ConnectionRefused', severity: 'warning', service: `svc-${n}`, cluster },
    })
    const db = (cluster: string): FiringAlert => ({
      fingerprint: `db-${cluster}`,
      labels: { alertname: 'DatabaseDown', severity: 'critical', service: 'postgres', cluster },
    })
    // One target fires before its source (inhibited when the source comes), the others after it; another cluster's
    // targets are not inhibited.
    expect((await postAlertmanager(i.url, [refused(0, 'eu-1')])).status).toBe(202)
    await alertsOf(i.id, 1)
    expect((await postAlertmanager(i.url, [db('eu-1')])).status).toBe(202)
    await alertsOf(i.id, 2)
    const targets = Array.from({ length: 20 }, (_, n) => refused(n + 1, 'eu-1'))
    expect((await postAlertmanager(i.url, [...targets, refused(1, 'us-1')])).status).toBe(202)
    const alerts = await alertsOf(i.id, 23)
    const byKey = new Map(alerts.map((a) => [a['dedupKey'] as string, a]))
    const source = byKey.get('db-eu-1')!
    expect(source['status']).toBe('firing')
    const inhibited = alerts.filter((a) => a['status'] === 'inhibited')
    expect(inhibited.map((a) => a['dedupKey']).sort()).toEqual(
      [refused(0, 'eu-1'), ...targets].map((a) => a.fingerprint).sort(),
    )
    expect(inhibited.every((a) => a['inhibitedBy'] === source['id'])).toBe(true)
    expect(byKey.get('refused-us-1-1')!['status']).toBe('firing')
    const listed = (await call('GET', `/api/v1/alerts?status=inhibited&integrationId=${i.id}&limit=100`)).body
    expect(listed['alerts']).toHaveLength(21)
    // Inhibited alerts are not told; the source and the other cluster's alert are.
    await new Promise((r) => setTimeout(r, 1500))
    const toldOf = (a: Json) => told(a['incidentId'] as string)
    expect(inhibited.flatMap(toldOf)).toEqual(['triggered'])
    expect(toldOf(source)).toEqual(['triggered'])
    // 18 targets resolve while inhibited (never told); then the source resolves: the three still firing are told.
    await resolve(i.url, targets.slice(2))
    await waitFor('18 resolved', async () => {
      const list = (await call('GET', `/api/v1/alerts?status=inhibited&integrationId=${i.id}`)).body['alerts'] as Json[]
      return list.length === 3 ? true : undefined
    })
    await resolve(i.url, [db('eu-1')])
    const released = await waitFor('released', async () => {
      const list = (await call('GET', `/api/v1/alerts?status=firing&integrationId=${i.id}&limit=100`)).body[
        'alerts'
      ] as Json[]
      const mine = list.filter((a) => String(a['dedupKey']).startsWith('refused-eu-1'))
      return mine.length === 3 ? mine : undefined
    })
    expect(released.map((a) => a['dedupKey']).sort()).toEqual(['refused-eu-1-0', 'refused-eu-1-1', 'refused-eu-1-2'])
    expect(released.every((a) => a['inhibitedBy'] === undefined)).toBe(true)
    // Told once each; the one told before its source came is told again (as Alertmanager sends an alert again once
    // it is no longer inhibited).
    await waitFor('told', async () => (released.flatMap(toldOf).length === 4 ? true : undefined))
    expect(released.map((a) => [a['dedupKey'], toldOf(a)]).sort()).toEqual([
      ['refused-eu-1-0', ['triggered', 'triggered']],
      ['refused-eu-1-1', ['triggered']],
      ['refused-eu-1-2', ['triggered']],
    ])
    const history = (await call('GET', `/api/v1/alerts/${released[0]!['id']}`)).body['history'] as Json[]
    expect(history.map((h) => h['event'])).toEqual(expect.arrayContaining(['inhibited', 'triggered']))
    await rules([])
  })

  it('a cycle of inhibition (a inhibits b, b inhibits a) loses neither: the first is told, the second inhibited by it', async () => {
    const name = (v: string) => ({ field: 'customFields.alertname', equals: v })
    await rules([
      {
        id: 'a-b',
        name: 'a quiets b',
        when: name('B'),
        inhibit: { source: name('A'), equal: ['customFields.cluster'] },
      },
      {
        id: 'b-a',
        name: 'b quiets a',
        when: name('A'),
        inhibit: { source: name('B'), equal: ['customFields.cluster'] },
      },
    ])
    const i = await integration()
    const alert = (n: string): FiringAlert => ({ fingerprint: `cycle-${n}`, labels: { alertname: n, cluster: 'c' } })
    expect((await postAlertmanager(i.url, [alert('A')])).status).toBe(202)
    await alertsOf(i.id, 1)
    expect((await postAlertmanager(i.url, [alert('B')])).status).toBe(202)
    const alerts = await alertsOf(i.id, 2)
    const status = Object.fromEntries(alerts.map((a) => [a['dedupKey'], a['status']]))
    expect(status).toEqual({ 'cycle-A': 'firing', 'cycle-B': 'inhibited' })
    // A resolves: B is released and told.
    await resolve(i.url, [alert('A')])
    await waitFor('B released', async () => {
      const b = (await alertsOf(i.id, 2)).find((a) => a['dedupKey'] === 'cycle-B')!
      return b['status'] === 'firing' ? true : undefined
    })
    await rules([])
  })

  it('sluice incidents lists, shows, acknowledges and resolves from the command line', async () => {
    await rules([{ id: 'cli', name: 'by service', group: { by: ['service'], until: 'resolved' } }])
    const i = await integration()
    expect((await postAlertmanager(i.url, [host('cli', 1), host('cli', 2)])).status).toBe(202)
    const [a] = await alertsOf(i.id, 2)
    const id = a!['incidentId'] as string
    const account = ['--account', demo.accountId, '--json']
    const listed = await runSluice(['incidents', 'list', ...account], t.env)
    expect(listed.code, listed.stderr).toBe(0)
    expect((JSON.parse(listed.stdout) as { incidents: Json[] }).incidents.map((x) => x['id'])).toContain(id)
    const shown = await runSluice(['incidents', 'show', id, '--account', demo.accountId], t.env)
    expect(shown.stdout).toMatch(/triggered[\s\S]*joined[\s\S]*alerts \(2\)/)
    const acked = await runSluice(['incidents', 'ack', id, ...account], t.env)
    expect(JSON.parse(acked.stdout)).toMatchObject({
      status: 'acknowledged',
      acknowledgedBy: expect.stringMatching(/^cli:/),
    })
    expect(JSON.parse((await runSluice(['incidents', 'resolve', id, ...account], t.env)).stdout)).toMatchObject({
      status: 'resolved',
      open: 0,
    })
    const again = await runSluice(['incidents', 'ack', id, ...account], t.env)
    expect([again.code, again.stderr]).toEqual([2, expect.stringMatching(/is resolved/)])
    expect((await runSluice(['incidents', 'show', 'inc_nope', '--account', demo.accountId], t.env)).code).toBe(2)
    await rules([])
  })

  it("damping: an incident resolved within its destination's delay is told nothing and counted transient; the noise figures add up", async () => {
    // An account of its own, so that its figures are exactly this test's.
    const account = await t.tenancy.createAccount('damped')
    const { key } = await t.tenancy.createApiKey({ kind: 'admin', accountId: account.id, name: 'damped admin' })
    await waitFor('the new key', async () =>
      (await json(key, 'GET', '/api/v1/incidents')).status === 200 ? true : undefined,
    )
    const dest = await json(key, 'POST', '/api/v1/notification-destinations', {
      name: 'damped webhook',
      kind: 'webhook',
      delay: '10s',
      settings: { url: `${rx.url}/damped` },
    })
    expect(dest.status, JSON.stringify(dest.body)).toBe(201)
    expect(dest.body['destination']['delay']).toBe('10s')
    const bad = await json(key, 'POST', '/api/v1/notification-destinations', {
      name: 'x',
      kind: 'webhook',
      delay: '2d',
      settings: { url: `${rx.url}/damped` },
    })
    expect([bad.status, bad.body['message']]).toEqual([400, expect.stringContaining('delay')])
    expect(
      (await json(key, 'PUT', '/api/v1/notification-route', { destinations: [dest.body['destination']['id']] })).status,
    ).toBe(200)
    const made = await json(key, 'POST', '/api/v1/integrations', { name: 'flappy', template: 'alertmanager' })
    const url = String(made.body['webhookUrl'])
    const flap = host('flappy', 1)
    const steady = host('steady', 1)
    const started = Date.now()
    expect((await postAlertmanager(url, [flap, steady])).status).toBe(202)
    await new Promise((r) => setTimeout(r, 2000))
    await resolve(url, [flap])
    const messages = () => rx.on('/damped').map((r) => JSON.parse(r.body) as Json)
    await waitFor('the steady alert told', async () => (messages().length >= 1 ? true : undefined), 30_000)
    // Told after the delay, and only the alert that stayed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000)
    await new Promise((r) => setTimeout(r, 3000))
    expect(messages().map((m) => [m['event'], m['alert']['dedupKey']])).toEqual([['triggered', 'steady-1']])
    const noise = await json(key, 'GET', '/api/v1/noise')
    expect(noise.status).toBe(200)
    const [day, week] = noise.body['windows'] as Json[]
    expect(day).toMatchObject({
      hours: 24,
      received: 3,
      alerts: 2,
      incidents: 2,
      inhibited: 0,
      transient: 1,
      notifications: 1,
      alertsPerNotification: 2,
      alertsPerIncident: 1,
      noisiest: [{ integrationId: made.body['id'], alerts: 2, incidents: 2, received: 3, transient: 1 }],
    })
    expect(week).toMatchObject({ hours: 168, alerts: 2, transient: 1 })
    const cli = await runSluice(['incidents', 'noise', '--account', account.id], t.env)
    expect(cli.stdout).toMatch(
      /last 24 h: 3 notifications received, 2 alerts, 2 incidents, 1 notifications sent \(2 alerts each\), 1 transient/,
    )
  })

  it('merges one incident into another (its alerts join, it is closed), and takes an alert out into one of its own', async () => {
    await rules([])
    const i = await integration()
    expect((await postAlertmanager(i.url, [host('merge', 1), host('merge', 2)])).status).toBe(202)
    const alerts = await alertsOf(i.id, 2)
    const [a, b] = ['merge-1', 'merge-2'].map((k) => alerts.find((x) => x['dedupKey'] === k)!)
    const into = a!['incidentId'] as string
    const from = b!['incidentId'] as string
    await waitFor('both told', async () => (told(into).length + told(from).length === 2 ? true : undefined))
    expect((await call('POST', `/api/v1/incidents/${into}/merge`, { from: into })).status).toBe(400)
    expect((await call('POST', `/api/v1/incidents/${into}/merge`, { from: 'inc_999999999' })).status).toBe(404)
    const merged = await call('POST', `/api/v1/incidents/${into}/merge`, { from })
    expect(merged.status, JSON.stringify(merged.body)).toBe(200)
    expect(merged.body).toMatchObject({ id: into, openAlerts: 2, alerts: 2, status: 'triggered' })
    const closed = (await call('GET', `/api/v1/incidents/${from}`)).body
    expect(closed).toMatchObject({ status: 'resolved', mergedInto: into, openAlerts: 0, members: [] })
    expect((await call('GET', `/api/v1/alerts/${String(b!['id'])}`)).body['incidentId']).toBe(into)
    const timeline = (await call('GET', `/api/v1/incidents/${into}`)).body['timeline'] as Json[]
    expect(timeline.at(-1)).toMatchObject({ event: 'merged', incidentId: from })
    expect((await call('POST', `/api/v1/incidents/${into}/merge`, { from })).status).toBe(409)
    // Where the merged one was told, it is told resolved (a page it opened is closed); the other is told nothing.
    await waitFor('the merged one told resolved', async () => (told(from).length === 2 ? true : undefined))
    expect(told(from)).toEqual(['triggered', 'resolved'])
    expect(told(into)).toEqual(['triggered'])
    // Taken out again: b is an incident of its own, told as one; the last open alert of one cannot be taken out.
    const removed = await call('POST', `/api/v1/incidents/${into}/alerts/${String(b!['id'])}/remove`)
    expect(removed.status, JSON.stringify(removed.body)).toBe(200)
    const own = removed.body['incidentId'] as string
    expect(own).not.toBe(into)
    expect((await call('GET', `/api/v1/incidents/${own}`)).body).toMatchObject({
      status: 'triggered',
      openAlerts: 1,
      previousIncidentId: into,
    })
    expect((await call('GET', `/api/v1/incidents/${into}`)).body).toMatchObject({ openAlerts: 1, alerts: 1 })
    await waitFor('the new incident told', async () => (told(own).length === 1 ? true : undefined))
    expect(told(own)).toEqual(['triggered'])
    expect((await call('POST', `/api/v1/incidents/${into}/alerts/${String(a!['id'])}/remove`)).status).toBe(409)
    expect((await call('POST', `/api/v1/incidents/${into}/alerts/${String(b!['id'])}/remove`)).status).toBe(404)
    // The merged alerts resolve the incidents they are in.
    await resolve(i.url, [host('merge', 1), host('merge', 2)])
    await waitFor('resolved', async () =>
      (await call('GET', `/api/v1/incidents/${into}`)).body['status'] === 'resolved' &&
      (await call('GET', `/api/v1/incidents/${own}`)).body['status'] === 'resolved'
        ? true
        : undefined,
    )
  })

  it("hides another account's incidents on every route, and refuses a read-only key acting", async () => {
    const i = await integration()
    expect((await postAlertmanager(i.url, [host('private', 1)])).status).toBe(202)
    const [a] = await alertsOf(i.id, 1)
    const incidentId = a!['incidentId'] as string
    const other = await t.tenancy.createAccount('other account')
    const { key: otherKey } = await t.tenancy.createApiKey({ kind: 'admin', accountId: other.id, name: 'other admin' })
    const { key: viewer } = await t.tenancy.createApiKey({
      kind: 'admin',
      accountId: demo.accountId,
      name: 'viewer',
      role: 'segment-viewer',
    })
    await waitFor('the new keys', async () =>
      (await call('GET', '/api/v1/incidents', undefined, otherKey)).status === 200 &&
      (await call('GET', '/api/v1/incidents', undefined, viewer)).status === 200
        ? true
        : undefined,
    )
    expect((await call('GET', `/api/v1/incidents/${incidentId}`, undefined, otherKey)).status).toBe(404)
    for (const action of ['acknowledge', 'resolve'])
      expect((await call('POST', `/api/v1/incidents/${incidentId}/${action}`, undefined, otherKey)).status).toBe(404)
    expect((await call('GET', '/api/v1/incidents?status=all', undefined, otherKey)).body['incidents']).toEqual([])
    // Merging this account's incident into theirs, or theirs into this one, reaches nothing of the other account: with
    // one Redis, ids are the service's (404); on a Redis Cluster each account numbers its own, so the same id may name
    // one of the caller's own. Either way, the other account's incident and alerts are as they were.
    const theirs = await json(otherKey, 'POST', '/api/v1/integrations', { name: 'theirs', template: 'alertmanager' })
    expect((await postAlertmanager(String(theirs.body['webhookUrl']), [host('theirs', 1)])).status).toBe(202)
    const theirIncident = await waitFor('their incident', async () => {
      const list = (await json(otherKey, 'GET', '/api/v1/incidents')).body['incidents'] as Json[]
      return list[0]?.['id'] as string | undefined
    })
    const fromThem = await json(otherKey, 'POST', `/api/v1/incidents/${theirIncident}/merge`, { from: incidentId })
    if (process.env['TEST_REDIS_ON_CLUSTER'] !== '1') {
      expect(fromThem.status).toBe(404)
      expect((await call('POST', `/api/v1/incidents/${incidentId}/merge`, { from: theirIncident })).status).toBe(404)
      expect((await call('GET', `/api/v1/incidents/${incidentId}`)).body['members']).toHaveLength(1)
    }
    const theirsAfter = (await json(otherKey, 'GET', `/api/v1/incidents/${theirIncident}`)).body
    expect(theirsAfter).toMatchObject({ status: 'triggered', openAlerts: 1, alerts: 1 })
    expect((theirsAfter['members'] as Json[]).map((m) => m['dedupKey'])).toEqual(['theirs-1'])
    expect((await call('POST', `/api/v1/incidents/${incidentId}/merge`, { from: incidentId }, viewer)).status).toBe(403)
    expect((await call('GET', `/api/v1/incidents/${incidentId}`, undefined, viewer)).status).toBe(200)
    expect((await call('POST', `/api/v1/incidents/${incidentId}/acknowledge`, undefined, viewer)).status).toBe(403)
    expect((await call('GET', `/api/v1/incidents/${incidentId}`)).body['status']).toBe('triggered')
  })
})
