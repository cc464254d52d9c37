// ClickHouse paused (SIGSTOP) for 60 s under a steady load, with a 10 s consumer session: the edge
// answers 202 throughout (Kafka holds the backlog), the process stays up, /readyz says what is wrong,
// and once ClickHouse is back every accepted event and impression is stored exactly once. Once, the member was
// evicted during the slow insert, its commit was refused, and the whole process shut down.
// ClickHouse is a private instance.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
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
    ['clickhouse'],
    { KAFKA_SESSION_TIMEOUT_MS: '10000', SLUICE_CONSUMER_STALL_SECONDS: '20' },
    ['edge', 'events'],
  )
  ;({ stack, t, service } = env)
  key = env.demo.environments[0]!.serverSideSdkKey
}, 240_000)

afterAll(async () => env?.close())

it('keeps answering and stores every accepted event and impression exactly once after a 60 s ClickHouse pause', async () => {
  const loads = [
    steadyLoad(service.url, key, { workers: 3 }),
    steadyLoad(service.url, key, { workers: 2, kind: 'impressions' }),
  ]
  await new Promise((r) => setTimeout(r, 5000))
  stack.pause('clickhouse')
  const pausedAt = Date.now()
  // While ClickHouse is away: alive, accepting, and not ready, saying why (both consumers stalled).
  await waitFor(
    'readiness to report the stall',
    async () => {
      const ready = await fetch(`${service.url}/readyz`)
      const body = (await ready.json()) as { checks: Record<string, string> }
      const stalled = ['events-consumer', 'impressions-consumer'].every((c) => body.checks[c]?.startsWith('stalled'))
      return ready.status === 503 && body.checks['clickhouse'] !== 'ok' && stalled ? true : undefined
    },
    45_000,
  )
  expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
  await new Promise((r) => setTimeout(r, Math.max(0, 60_000 - (Date.now() - pausedAt))))
  const during = await Promise.all(loads.map((l) => l.stop()))
  stack.resume('clickhouse')

  for (const d of during) {
    // Every request during the pause was accepted: the edge does not depend on ClickHouse.
    expect([...d.statuses.keys()]).toEqual([202])
    const after = await steadyLoad(service.url, key, { perRequest: d.perRequest, kind: d.table }).stop()
    const both = { ...after, accepted: new Map([...d.accepted, ...after.accepted]) }
    const { total } = await expectStoredExactlyOnce(t, both, 90_000)
    console.log(
      `clickhouse pause: ${d.accepted.size} requests of ${d.table} accepted while it was paused; ${total} stored exactly once`,
    )
  }
  expect((await fetch(`${service.url}/readyz`)).status).toBe(200)
}, 240_000)
