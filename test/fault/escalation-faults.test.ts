// Escalation through faults, on a private Redis: the notify process holding the escalation job is killed with kill -9
// two seconds before a step is due (a standby process takes the job over once its lease lapses), then Redis is paused
// for 10 s across the next step. Each step of each incident fires exactly once (once on its timeline, one page per
// step), late by no more than the lease (plus the pause, while Redis is away).
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { exited, spawnSluice } from '../support/cli.js'
import { waitFor } from '../support/harness.js'
import { startFaultEnv, type FaultEnv } from '../support/private-stack.js'
import { startReceivers, type Receivers } from '../support/receivers.js'

let env: FaultEnv
let rx: Receivers
const LEASE_S = 3
const ENV = {
  SLUICE_INTEGRATION_REFRESH_MS: '200',
  SLUICE_NOTIFY_ALLOW_HTTP: 'true',
  SLUICE_NOTIFY_ALLOWED_RANGES: '127.0.0.0/8',
  SLUICE_NOTIFY_LEASE_SECONDS: '5',
  SLUICE_REDIS_COMMAND_TIMEOUT_MS: '1000',
  SLUICE_ESCALATION_TICK_MS: '100',
  SLUICE_ESCALATION_LEASE_SECONDS: String(LEASE_S),
}
const children: ChildProcess[] = []

beforeAll(async () => {
  env = await startFaultEnv(['redis'], ENV, ['edge', 'admin', 'alerts'])
  rx = await startReceivers()
}, 240_000)
afterAll(async () => {
  env?.stack.resume('redis')
  for (const c of children) c.kill('SIGKILL')
  await rx?.close()
  await env?.close()
})

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${env.service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${env.demo.adminApiKey}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await res.json().catch(() => ({}))) as Json
  expect(res.status, JSON.stringify(json)).toBeLessThan(300)
  return json
}

function notifyProcess(logs: string[]): ChildProcess {
  const c = spawnSluice(['serve', '--roles', 'notify'], { ...env.t.env, ...ENV, SLUICE_LOG_LEVEL: 'info' })
  c.stdout?.on('data', (d: Buffer) => logs.push(d.toString()))
  c.stderr?.on('data', (d: Buffer) => logs.push(d.toString()))
  children.push(c)
  return c
}

it('kill -9 of the process holding the escalation job, and Redis paused 10 s: each step fires once, late by no more than the lease', async () => {
  const N = 10
  const pager = await call('POST', '/api/v1/notification-destinations', {
    name: 'pager',
    kind: 'webhook',
    settings: { url: `${rx.url}/pager` },
    limits: { ratePerSecond: 1000, burst: 1000, concurrency: 4, maxDigest: 1 },
  })
  const target = [{ kind: 'destination', id: pager['destination']['id'] }]
  const policy = await call('POST', '/api/v1/escalation-policies', {
    name: 'three steps',
    steps: [0, 1, 2].map(() => ({ targets: target, waitMinutes: 1 })),
  })
  await call('PUT', '/api/v1/oncall/default-policy', { policyId: policy['id'] })
  const integ = await call('POST', '/api/v1/integrations', { name: 'faults', template: 'alertmanager' })
  await new Promise((r) => setTimeout(r, 500))
  const logs: string[] = []
  const first = notifyProcess(logs)
  await waitFor(
    'the first notify process serving',
    async () => (logs.join('').includes('sluice is serving') ? true : undefined),
    60_000,
  )
  const res = await fetch(integ['webhookUrl'], {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      version: '4',
      status: 'firing',
      alerts: Array.from({ length: N }, (_, i) => ({
        status: 'firing',
        labels: { alertname: `esc-${i}`, severity: 'critical' },
        annotations: { summary: `esc-${i}` },
        fingerprint: `esc-${i}`,
      })),
    }),
  })
  expect(res.status).toBe(202)
  /** The pages received, by incident and step (distinct deliveries: a page resent after a kill has the same id). */
  const pages = () => {
    const by = new Map<string, Set<string>>()
    for (const r of rx.on('/pager')) {
      const body = JSON.parse(r.body) as Json
      const key = `${body['alert']['incidentId']}/${body['page']['step']}`
      by.set(key, (by.get(key) ?? new Set()).add(String(r.headers['webhook-id'])))
    }
    return by
  }
  const stepPaged = (step: number) => [...pages().keys()].filter((k) => k.endsWith(`/${step}`)).length
  await waitFor('step 1 of every incident', async () => (stepPaged(1) === N ? true : undefined))
  const incidents = (await call('GET', '/api/v1/incidents?status=open&limit=100'))['incidents'] as Json[]
  expect(incidents).toHaveLength(N)
  const firstAt = async (id: string) =>
    Date.parse(
      ((await call('GET', `/api/v1/incidents/${id}`))['timeline'] as Json[]).find((e) => e['event'] === 'escalated')![
        'at'
      ],
    )
  const t0 = Math.min(...(await Promise.all(incidents.map((i) => firstAt(i['id'])))))

  // A standby process, then the first one killed 2 s before step 2 is due.
  const standbyLogs: string[] = []
  notifyProcess(standbyLogs)
  await waitFor(
    'the standby serving',
    async () => (standbyLogs.join('').includes('sluice is serving') ? true : undefined),
    60_000,
  )
  await new Promise((r) => setTimeout(r, Math.max(0, t0 + 58_000 - Date.now())))
  first.kill('SIGKILL')
  await exited(first)
  await waitFor('step 2 of every incident', async () => (stepPaged(2) === N ? true : undefined), 90_000)
  expect(standbyLogs.join('')).toContain('this process runs the job now')

  // Redis paused from 5 s before step 3 is due to 5 s after.
  await new Promise((r) => setTimeout(r, Math.max(0, t0 + 115_000 - Date.now())))
  env.stack.pause('redis')
  await new Promise((r) => setTimeout(r, 10_000))
  env.stack.resume('redis')
  await waitFor('step 3 of every incident', async () => (stepPaged(3) === N ? true : undefined), 90_000)
  await new Promise((r) => setTimeout(r, 2000))

  // Exactly once: one page per incident and step, three steps on each timeline.
  for (const ids of pages().values()) expect(ids.size).toBe(1)
  expect(pages().size).toBe(3 * N)
  for (const incident of incidents) {
    const timeline = (await call('GET', `/api/v1/incidents/${incident['id']}`))['timeline'] as Json[]
    const steps = timeline.filter((e) => e['event'] === 'escalated')
    expect(steps.map((s) => s['step'])).toEqual([0, 1, 2])
    const start = Date.parse(steps[0]!['at'])
    const late = steps.map((s, k) => Date.parse(s['at']) - (start + k * 60_000))
    // Step 2: its process killed, taken over within the lease; step 3: Redis away 5 s past its due time.
    expect(late[1]).toBeLessThanOrEqual(LEASE_S * 1000 + 1000)
    expect(late[2]).toBeLessThanOrEqual(5000 + LEASE_S * 1000 + 1000)
    console.log(`incident ${incident['id']}: steps late by ${late.join(', ')} ms`)
  }
  expect((await call('GET', `/api/v1/incidents/${incidents[0]!['id']}/escalation`))['running']).toBe(false)
}, 300_000)
