// Notifications through faults, on a private Redis: a notify process killed with kill -9 under load
// (twice) loses no delivery, and repeats no more than the messages it had in flight (measured); Redis
// paused for 10 s loses nothing and repeats nothing. Each alert is a separate delivery (maxDigest 1), so
// every message names one alert and repeats are counted by webhook-id.
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { exited, spawnSluice } from '../support/cli.js'
import { waitFor, type TestEnv } from '../support/harness.js'
import { startFaultEnv, type FaultEnv } from '../support/private-stack.js'
import { startReceivers, type Receivers } from '../support/receivers.js'

let env: FaultEnv
let t: TestEnv
let service: RunningService
let demo: DemoAccount
let rx: Receivers

const NOTIFY_ENV = {
  SLUICE_INTEGRATION_REFRESH_MS: '200',
  SLUICE_WEBHOOK_BURST: '100000',
  SLUICE_WEBHOOK_RATE_PER_SECOND: '100000',
  SLUICE_NOTIFY_ALLOW_HTTP: 'true',
  SLUICE_NOTIFY_ALLOWED_RANGES: '127.0.0.0/8',
  SLUICE_NOTIFY_LEASE_SECONDS: '20',
  SLUICE_REDIS_COMMAND_TIMEOUT_MS: '1000',
}

beforeAll(async () => {
  env = await startFaultEnv(['redis'], NOTIFY_ENV, ['edge', 'admin', 'alerts'])
  ;({ t, service, demo } = env)
  rx = await startReceivers()
}, 240_000)

afterAll(async () => {
  env?.stack.resume('redis')
  await rx?.close()
  await env?.close()
})

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${demo.adminApiKey}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Json }
}

/** A webhook destination at `path` on the default route, and an Alertmanager integration's address. */
async function setUp(path: string): Promise<string> {
  const d = await call('POST', '/api/v1/notification-destinations', {
    name: path,
    kind: 'webhook',
    settings: { url: `${rx.url}${path}` },
    limits: { ratePerSecond: 1000, burst: 1000, concurrency: 4, maxDigest: 1 },
  })
  expect(d.status, JSON.stringify(d.body)).toBe(201)
  expect(
    (await call('PUT', '/api/v1/notification-route', { destinations: [d.body['destination']['id']] })).status,
  ).toBe(200)
  const integ = await call('POST', '/api/v1/integrations', { name: path, template: 'alertmanager' })
  expect(integ.status).toBe(201)
  await new Promise((r) => setTimeout(r, 500))
  return integ.body['webhookUrl'] as string
}

/** Posts `n` new alerts (fingerprints prefix-0 ...) in payloads of 10, one payload every `gapMs`. */
async function fire(url: string, prefix: string, n: number, gapMs: number): Promise<void> {
  for (let i = 0; i < n; i += 10) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        version: '4',
        status: 'firing',
        alerts: Array.from({ length: Math.min(10, n - i) }, (_, k) => ({
          status: 'firing',
          labels: { alertname: `${prefix}-${i + k}`, severity: 'warning' },
          annotations: { summary: `${prefix}-${i + k}` },
          fingerprint: `${prefix}-${i + k}`,
        })),
      }),
    })
    expect(res.status).toBe(202)
    await new Promise((r) => setTimeout(r, gapMs))
  }
}

/** What the receiver got on a path: distinct alerts (by description) and repeated messages (same webhook-id). */
function tally(path: string): { alerts: Set<string>; repeats: number; messages: number } {
  const got = rx.on(path)
  const ids = new Set<string>()
  let repeats = 0
  const alerts = new Set<string>()
  for (const r of got) {
    const id = String(r.headers['webhook-id'])
    if (ids.has(id)) repeats++
    ids.add(id)
    alerts.add((JSON.parse(r.body) as Json)['alert']['description'] as string)
  }
  return { alerts, repeats, messages: got.length }
}

it('kill -9 of the notify process under load, twice: no delivery lost, repeats at most the messages in flight', async () => {
  const TOTAL = 300
  // Each answer takes 100 ms, so a kill always finds messages in flight (at most concurrency 4).
  rx.answer('/crash', { status: 200, delayMs: 100 })
  const url = await setUp('/crash')
  const logs: string[] = []
  const spawnNotify = () => {
    const c = spawnSluice(['serve', '--roles', 'notify'], { ...t.env, ...NOTIFY_ENV, SLUICE_LOG_LEVEL: 'info' })
    c.stdout?.on('data', (d: Buffer) => logs.push(d.toString()))
    c.stderr?.on('data', (d: Buffer) => logs.push(d.toString()))
    return c
  }
  let child: ChildProcess = spawnNotify()
  const firing = fire(url, 'k', TOTAL, 100)
  for (const share of [0.25, 0.6]) {
    // After the first kill, the alerts the killed process held come back only after the lease (20 s), and a new
    // process starts: on a loaded machine that is well past the default 30 s.
    await waitFor(
      `${share * 100}% delivered`,
      async () => (tally('/crash').alerts.size >= TOTAL * share ? true : undefined),
      90_000,
    )
    child.kill('SIGKILL')
    await exited(child)
    child = spawnNotify()
  }
  await firing
  try {
    // The killed processes' leased deliveries are sent again after the lease (20 s).
    await waitFor(
      'every alert delivered',
      async () => (tally('/crash').alerts.size === TOTAL ? true : undefined),
      120_000,
    ).catch((err: unknown) => {
      const got = tally('/crash').alerts
      const missing = Array.from({ length: TOTAL }, (_, i) => `k-${i}`).filter((k) => !got.has(k))
      throw new Error(
        `${String(err)}; missing ${missing.length}: ${missing.slice(0, 20).join(',')}; log: ${logs.join('').slice(-3000)}`,
      )
    })
    // Every delivery settled: those the killed processes held are sent again once their lease ends.
    await waitFor(
      'no delivery pending',
      async () => ((await t.state.notify.pendingCount('')) === 0 ? true : undefined),
      120_000,
    )
  } finally {
    child.kill('SIGTERM')
    await exited(child)
  }
  const { alerts, repeats, messages } = tally('/crash')
  console.log(`kill -9 twice under load: ${alerts.size} alerts in ${messages} messages, ${repeats} repeated`)
  expect(alerts.size).toBe(TOTAL)
  // Each kill can repeat only what was in flight: concurrency 4 messages of one alert each.
  expect(repeats).toBeLessThanOrEqual(2 * 4)
}, 300_000)

it('Redis paused for 10 s: every alert delivered, none twice', async () => {
  const TOTAL = 200
  const url = await setUp('/pause')
  const notify = await t.start(['notify'], NOTIFY_ENV)
  try {
    const firing = fire(url, 'r', TOTAL, 100)
    await waitFor('some delivered', async () => (tally('/pause').alerts.size >= 40 ? true : undefined))
    env.stack.pause('redis')
    await new Promise((r) => setTimeout(r, 10_000))
    env.stack.resume('redis')
    await firing
    await waitFor(
      'every alert delivered',
      async () => (tally('/pause').alerts.size === TOTAL ? true : undefined),
      120_000,
    )
    await new Promise((r) => setTimeout(r, 2000))
    const { alerts, repeats } = tally('/pause')
    expect(alerts.size).toBe(TOTAL)
    expect(repeats).toBe(0)
  } finally {
    env.stack.resume('redis')
    await notify.stop()
  }
}, 300_000)
