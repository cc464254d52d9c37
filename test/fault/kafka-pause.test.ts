// Kafka paused (SIGSTOP) for 30 s under a steady load of events and impressions, then resumed, with no restart of
// Sluice: every event and impression answered 202 is stored exactly once within 90 s. Once, the consumer kept
// heartbeating with its stale member id after such a pause and stored nothing until the process was restarted. Whether
// the broker evicts the member after a pause depends on which it handles first when it wakes (queued heartbeats or
// expired sessions), so a second test forces the eviction: the consumer process itself is frozen past its session
// timeout, and must rejoin and go on by itself. Kafka is a private instance.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { spawnSluice } from '../support/cli.js'
import { waitFor, type TestEnv } from '../support/harness.js'
import { expectStoredExactlyOnce, steadyLoad } from '../support/load.js'
import { startFaultEnv, type FaultEnv } from '../support/private-stack.js'

let env: FaultEnv
let stack: FaultEnv['stack']
let t: TestEnv
let service: RunningService
let key: string

beforeAll(async () => {
  env = await startFaultEnv(
    ['kafka'],
    { KAFKA_SESSION_TIMEOUT_MS: '10000', KAFKA_PUBLISH_TIMEOUT_MS: '3000', SLUICE_CONSUMER_STALL_SECONDS: '20' },
    ['edge', 'events'],
  )
  ;({ stack, t, service } = env)
  key = env.demo.environments[0]!.serverSideSdkKey
}, 240_000)

afterAll(async () => env?.close())

it('stores every accepted event and impression exactly once after a 30 s broker pause, without a restart', async () => {
  const loads = [
    steadyLoad(service.url, key, { workers: 3 }),
    steadyLoad(service.url, key, { workers: 2, kind: 'impressions' }),
  ]
  await new Promise((r) => setTimeout(r, 5000))
  stack.pause('kafka')
  await new Promise((r) => setTimeout(r, 30_000))
  stack.resume('kafka')
  await new Promise((r) => setTimeout(r, 15_000))
  for (const result of await Promise.all(loads.map((l) => l.stop()))) {
    expect(result.accepted.size).toBeGreaterThan(30)
    const { total } = await expectStoredExactlyOnce(t, result, 90_000)
    console.log(
      `kafka pause: ${result.accepted.size} requests (${total} ${result.table}) accepted, statuses ${JSON.stringify([...result.statuses])}`,
    )
  }
  // The same process goes on: alive, ready again, and it takes new events.
  expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
  const ready = await fetch(`${service.url}/readyz`)
  expect(ready.status, JSON.stringify(await ready.clone().json())).toBe(200)
}, 240_000)

it('a consumer evicted while frozen past its session rejoins and goes on, without a restart', async () => {
  // This test's own consumer process; the in-process service above keeps only its edge busy.
  await service.stop()
  const edge = await t.start(['edge'])
  const consumer = spawnSluice(['serve', '--roles', 'events'], { ...t.env, SLUICE_LOG_LEVEL: 'info', SLUICE_PORT: '0' })
  let log = ''
  consumer.stdout?.on('data', (d: Buffer) => (log += d.toString()))
  try {
    await waitFor(
      'the consumer in its group',
      async () => (log.includes('joined the consumer group') ? true : undefined),
      60_000,
    )
    const load = steadyLoad(edge.url, key)
    await new Promise((r) => setTimeout(r, 5000))
    consumer.kill('SIGSTOP')
    await new Promise((r) => setTimeout(r, 25_000)) // 2.5 session timeouts: the coordinator evicts it
    consumer.kill('SIGCONT')
    await new Promise((r) => setTimeout(r, 10_000))
    const result = await load.stop()
    await expectStoredExactlyOnce(t, result, 90_000)
    expect(consumer.exitCode).toBeNull()
    // It learned it had been evicted and joined again, as the same process.
    expect(log).toMatch(/partition lost|not aware of this member|re-joining the group|starting a new one/)
    expect(log.split('joined the consumer group').length - 1).toBeGreaterThanOrEqual(2)
  } finally {
    consumer.kill('SIGKILL')
  }
}, 240_000)
