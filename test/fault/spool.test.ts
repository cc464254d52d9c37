// The edge spool on a private Kafka: with Kafka paused (SIGSTOP) under a steady load of events and
// webhooks no request gets anything but 202, /readyz stays 200 and says it is degraded, and once
// Kafka is back every event and alert is stored exactly once. An edge killed with kill -9 while its
// spool holds data (and while its sends sit in the paused broker's socket) drains it when restarted,
// and nothing is stored twice. A full spool answers 503 with Retry-After, and nothing that got 202
// is lost.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { DiskSpool } from '../../src/edge/spool/disk-spool.js'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import { exited, spawnSluice } from '../support/cli.js'
import { event, waitFor, type TestEnv } from '../support/harness.js'
import { expectStoredExactlyOnce, steadyLoad, webhookLoad } from '../support/load.js'
import { privatePorts, startFaultEnv, type FaultEnv } from '../support/private-stack.js'

/** The edge this file restarts listens on a port of the worker's block (after its private instances). */
const EDGE_PORT = privatePorts() + 90
let env: FaultEnv
let stack: FaultEnv['stack']
let t: TestEnv
let service: RunningService
let key: string
const dirs: string[] = []
let integration: { id: string; webhookUrl: string }

beforeAll(async () => {
  env = await startFaultEnv(
    ['kafka'],
    {
      KAFKA_PUBLISH_TIMEOUT_MS: '3000',
      SLUICE_SPOOL_AFTER_MS: '1000',
      SLUICE_WEBHOOK_RATE_PER_SECOND: '1000',
      SLUICE_WEBHOOK_BURST: '1000',
      SLUICE_INTEGRATION_REFRESH_MS: '200',
    },
    ['edge', 'admin', 'events', 'alerts'],
  )
  ;({ stack, t, service } = env)
  key = env.demo.environments[0]!.serverSideSdkKey
  const created = await fetch(`${service.url}/api/v1/integrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Spool test',
      mapping: {
        severity: '{{webhook.level}}',
        description: 'alert {{webhook.n}}',
        source: 'spool-test',
        defaults: { severity: 'warning' },
      },
    }),
  })
  expect(created.status).toBe(201)
  integration = (await created.json()) as { id: string; webhookUrl: string }
}, 240_000)

afterAll(async () => {
  await env?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

it('Kafka paused 30 s under load: every request is answered 202, and every event and alert is stored once', async () => {
  const webhookUrl = `${service.url}${new URL(integration.webhookUrl).pathname}`

  const events = steadyLoad(service.url, key)
  const webhooks = webhookLoad(webhookUrl)
  await sleep(3000)
  stack.pause('kafka')
  await sleep(10_000)
  // Spooling: the edge takes data, so it is ready, and says it is degraded.
  const ready = await fetch(`${service.url}/readyz`)
  const readyBody = (await ready.json()) as { status: string; checks: Record<string, string> }
  expect(ready.status, JSON.stringify(readyBody)).toBe(200)
  expect(readyBody.status).toBe('degraded')
  expect(readyBody.checks['spool']).toMatch(/^spooling: \d+ messages/)
  await sleep(20_000)
  stack.resume('kafka')
  await sleep(10_000)
  const [result, hooks] = [await events.stop(), await webhooks.stop()]

  expect([...result.statuses.keys()]).toEqual([202])
  expect([...hooks.statuses.keys()]).toEqual([202])
  const { total } = await expectStoredExactlyOnce(t, result, 90_000)

  const stored = await alertsStoredOnce(hooks.accepted, 0)
  expect(new Set(stored)).toEqual(new Set(hooks.accepted))

  const metrics = await (await fetch(`${service.url}/metrics`)).text()
  const value = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(metrics)?.[1] ?? NaN)
  expect(value('sluice_spool_drained_messages_total')).toBeGreaterThan(0)
  expect(value('sluice_spool_messages')).toBe(0)
  expect(value('sluice_spooling')).toBe(0)
  console.log(
    `spool, kafka paused 30 s: ${result.accepted.size} event requests (${total} events) and ${hooks.accepted.length} webhooks, all 202; spooled ${value('sluice_spool_appended_messages_total')} messages, drained ${value('sluice_spool_drained_messages_total')}`,
  )
}, 240_000)

/**
 * Waits for every accepted alert, then checks no request id is in the integration's stream twice; returns the ids
 * stored since `from`.
 */
async function alertsStoredOnce(accepted: readonly string[], from: number): Promise<string[]> {
  const stream = alertStreamKeys(t.config.redis.keyPrefix).integration(integration.id)
  const requestIds = async () =>
    (await t.redis.xrange(stream, '-', '+')).slice(from).map(([, f]) => f[f.indexOf('requestId') + 1]!)
  await waitFor(
    'every accepted alert stored',
    async () => {
      const ids = new Set(await requestIds())
      return accepted.every((id) => ids.has(id)) ? true : undefined
    },
    60_000,
  )
  await sleep(2000)
  const stored = await requestIds()
  expect(stored.length, 'alerts stored twice').toBe(new Set(stored).size)
  return stored
}

async function startEdge(
  spoolDir: string,
  extra: Record<string, string> = {},
): Promise<{ child: ChildProcess; log: () => string }> {
  const child = spawnSluice(['serve', '--roles', 'edge'], {
    ...t.env,
    SLUICE_PORT: String(EDGE_PORT),
    SLUICE_SPOOL_DIR: spoolDir,
    SLUICE_LOG_LEVEL: 'info',
    ...extra,
  })
  let log = ''
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()))
  await waitFor('the edge serving', async () => (log.includes('sluice is serving') ? true : undefined), 60_000)
  return { child, log: () => log }
}

it('an edge killed with kill -9 while its spool holds data drains it when restarted; everything is stored once', async () => {
  const spoolDir = mkdtempSync(join(tmpdir(), 'sluice-spool-kill-'))
  dirs.push(spoolDir)
  const url = `http://127.0.0.1:${EDGE_PORT}`
  const first = await startEdge(spoolDir)
  onTestFinished(() => void first.child.kill('SIGKILL'))
  const alertsBefore = await t.redis.xlen(alertStreamKeys(t.config.redis.keyPrefix).integration(integration.id))
  const load = steadyLoad(url, key)
  const webhooks = webhookLoad(`${url}${new URL(integration.webhookUrl).pathname}`)
  await sleep(2000)
  stack.pause('kafka')
  await sleep(12_000)
  // Killed while its spool holds data and its sends (first attempts, drain rounds) sit in the
  // paused broker's socket: the broker may still append them when it wakes.
  first.child.kill('SIGKILL')
  await exited(first.child)
  const [result, hooks] = [await load.stop(), await webhooks.stop()]
  expect(first.log()).toMatch(/spooling started/)
  stack.resume('kafka')
  // A second edge cannot take a spool another process holds; the restarted one can at once (the OS
  // released the dead process's lock).
  const second = await startEdge(spoolDir)
  try {
    expect(second.log()).toMatch(/"msg":"spool opened"/)
    expect(second.log()).toMatch(/spooling started/)
    await expect(DiskSpool.open(spoolDir, 1 << 20)).rejects.toThrow(/in use by another process/)
    await expectStoredExactlyOnce(t, result, 90_000)
    await alertsStoredOnce(hooks.accepted, alertsBefore)
    await waitFor(
      'the spool drained',
      async () => (second.log().includes('spooling stopped') ? true : undefined),
      30_000,
    )
    // Only SIGKILL'd requests in flight have no status; everything else was 202.
    expect([...result.statuses.keys(), ...hooks.statuses.keys()].filter((s) => s !== 202 && s !== -1)).toEqual([])
  } finally {
    second.child.kill('SIGTERM')
    await exited(second.child)
  }
}, 240_000)

it('a full spool answers 503 with Retry-After, and nothing that got 202 is lost', async () => {
  const spoolDir = mkdtempSync(join(tmpdir(), 'sluice-spool-full-'))
  dirs.push(spoolDir)
  const url = `http://127.0.0.1:${EDGE_PORT}`
  const edge = await startEdge(spoolDir, { SLUICE_SPOOL_MAX_BYTES: String(1024 * 1024) })
  try {
    stack.pause('kafka')
    const load = steadyLoad(url, key, { perRequest: 200 })
    await sleep(10_000)
    const full = await fetch(`${url}/api/events/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(Array.from({ length: 200 }, (_, i) => event(i))),
    })
    expect(full.status).toBe(503)
    expect(full.headers.get('retry-after')).toBe('5')
    const ready = await fetch(`${url}/readyz`)
    expect(ready.status).toBe(503)
    expect(((await ready.json()) as { checks: Record<string, string> }).checks['spool']).toMatch(/^full: /)
    stack.resume('kafka')
    await sleep(5000)
    const result = await load.stop()
    expect(result.statuses.get(503)).toBeGreaterThan(0)
    expect(result.statuses.get(202)).toBeGreaterThan(0)
    await expectStoredExactlyOnce(t, result, 90_000)
  } finally {
    edge.child.kill('SIGTERM')
    await exited(edge.child)
  }
}, 240_000)
