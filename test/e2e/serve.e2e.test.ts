// `sluice serve` as a process: bad configuration, a taken port, and a graceful SIGTERM.
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEnv, event, postEvents, waitFor, type TestEnv } from '../support/harness.js'
import { ALERT_TEMPLATES } from '../../src/pipeline/alerts/templates.js'
import { exited, runSluice, spawnSluice } from '../support/cli.js'

let t: TestEnv
beforeAll(async () => {
  t = await createTestEnv()
})
afterAll(async () => t?.close())

it('refuses a bad setting with a message naming the variable (exit 78)', async () => {
  const res = await runSluice(['serve'], { ...t.env, SLUICE_PORT: 'eighty', KAFKA_PARTITIONS: '0' })
  expect(res.code).toBe(78)
  expect(res.stderr).toMatch(/SLUICE_PORT="eighty" must be integer/)
  expect(res.stderr).toMatch(/KAFKA_PARTITIONS=/)
})

it('refuses unknown roles', async () => {
  const res = await runSluice(['serve', '--roles', 'edge,alarms'], t.env)
  expect(res.code).not.toBe(0)
  expect(res.stderr).toMatch(/unknown role "alarms"/)
})

it('on SIGTERM finishes what it accepted, then exits 0', async () => {
  const demo = await t.bootstrap()
  const key = demo.environments[0]!.serverSideSdkKey
  // A firing alert whose silence has passed: the alerts role's auto-resolve job, in the consumer thread, resolves it.
  const p = t.config.redis.keyPrefix
  const { record: integration } = await t.state.integrations.create(demo.accountId, {
    name: 'silent',
    description: '',
    template: 'generic',
    mapping: ALERT_TEMPLATES.generic.mapping,
    rateLimitStatus: 429,
  })
  const silent = {
    id: 'al_900',
    accountId: demo.accountId,
    integrationId: integration.id,
    dedupKey: 'k',
    status: 'firing',
    severity: 'info',
    description: 'd',
    source: 's',
    timestamp: new Date().toISOString(),
    customFields: {},
    count: 1,
    firstSeenAt: 1,
    lastSeenAt: 1,
    history: [],
  }
  await t.redis.hset(`${p}alerts:acct:${demo.accountId}:records`, silent.id, JSON.stringify(silent))
  await t.redis.zadd(`${p}alerts:auto-resolve`, 1000, `${demo.accountId}|${silent.id}`)
  const child = spawnSluice(['serve'], {
    ...t.env,
    SLUICE_LOG_LEVEL: 'info',
    SLUICE_ALERT_AUTO_RESOLVE_INTERVAL_MS: '200',
  })
  let log = ''
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()))
  const url = await waitFor('serving', async () => /"url":"(http:[^"]+)","roles"/.exec(log)?.[1], 60_000)

  const res = await postEvents(
    url,
    key,
    Array.from({ length: 500 }, (_, i) => event(i)),
  )
  expect(res.status).toBe(202)
  await waitFor('rows', async () => ((await t.count('events')) === 500 ? true : undefined))
  // Every role in one process: the consumers run in a thread of their own, and the process's
  // /readyz and /metrics include what that thread reports.
  expect(log).toMatch(/"thread":"consumers".*"msg":"joined the consumer group"/)
  expect(log).toMatch(/"consumerThread":\["events","alerts"\],"msg":"sluice is serving"/)
  await waitFor(
    'the silent alert resolved',
    async () => ((await t.state.alerts.get(demo.accountId, 'al_900'))?.status === 'resolved' ? true : undefined),
    10_000,
  )
  expect(log).toMatch(/"thread":"consumers".*"resolved":1,"msg":"alerts resolved after their silence"/)
  const ready = (await (await fetch(`${url}/readyz`)).json()) as { checks: Record<string, string> }
  expect(ready.checks).toMatchObject({
    clickhouse: 'ok',
    kafka: 'ok',
    redis: 'ok',
    'events-consumer': 'ok',
    'impressions-consumer': 'ok',
    'alerts-consumer': 'ok',
  })
  const metrics = await (await fetch(`${url}/metrics`)).text()
  expect(metrics).toMatch(/^sluice_events_accepted_total 500$/m) // the routes' thread
  expect(metrics).toMatch(/^sluice_clickhouse_insert_rows_sum 500$/m) // the consumer thread
  expect(metrics.match(/^sluice_process_resident_memory_bytes /gm)).toHaveLength(1) // the process's own, once
  // A connection that never sends a request (a browser's preconnect) is not waited for: Node would count it a request
  // begun, and wait for it until the request timeout (60 s), past the shutdown deadline (20 s, then exit 1).
  const { port, hostname } = new URL(url)
  const preconnect = connect(Number(port), hostname)
  await new Promise((resolve, reject) => preconnect.once('connect', resolve).once('error', reject))
  const preconnectClosed = new Promise((resolve) => preconnect.once('close', resolve))
  preconnect.on('error', () => undefined)
  child.kill('SIGTERM')
  await exited(child)
  await preconnectClosed
  expect(child.exitCode).toBe(0)
  const messages = [...log.matchAll(/"msg":"([^"]+)"/g)].map((m) => m[1])
  expect(messages.slice(-3)).toEqual(['signal received', 'shutting down: no new requests', 'shutdown complete'])
  expect(log).not.toMatch(/[Aa]uthorization|sdk_srv_/)
})

it('with every role, exits 1 naming the cause when the consumer thread cannot start', async () => {
  // ClickHouse refuses connections: the edge's own services are up, the events consumer's migrations fail.
  const res = await runSluice(['serve'], { ...t.env, SLUICE_PORT: '0', CLICKHOUSE_URL: 'http://127.0.0.1:1' })
  expect(res.code).toBe(1)
  expect(res.stdout).toMatch(/"msg":"sluice could not start"/)
  expect(res.stdout).toMatch(/ECONNREFUSED/)
})
