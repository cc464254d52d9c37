// Scale-out: three `sluice serve --roles events` processes share the consumer group; one is killed
// with SIGKILL under load. The other two take its partitions and every accepted event is stored
// exactly once, with no process restarted.
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { spawnSluice } from '../support/cli.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'
import { expectStoredExactlyOnce, steadyLoad } from '../support/load.js'

let t: TestEnv
let edge: RunningService
let key: string
const consumers: { child: ChildProcess; log: string }[] = []

beforeAll(async () => {
  // Small fetches: many batches, so the kill lands between an insert and its commit now and then.
  t = await createTestEnv({ KAFKA_SESSION_TIMEOUT_MS: '6000', SLUICE_CONSUMER_FETCH_MAX_BYTES: String(1024 * 1024), KAFKA_PARTITIONS: '6' })
  key = (await t.bootstrap()).environments[0]!.serverSideSdkKey
  edge = await t.start(['edge'])
  for (let i = 0; i < 3; i++) {
    const child = spawnSluice(['serve', '--roles', 'events'], { ...t.env, KAFKA_PARTITIONS: '6', SLUICE_LOG_LEVEL: 'info', SLUICE_PORT: '0' })
    const entry = { child, log: '' }
    child.stdout?.on('data', (d: Buffer) => (entry.log += d.toString()))
    consumers.push(entry)
  }
  await waitFor(
    'three members sharing the partitions',
    async () => {
      const holding = consumers.map((c) => [...c.log.matchAll(/"partitions":\[([\d,]*)\][^\n]*joined the consumer group/g)].pop()?.[1] ?? '')
      return holding.every((p) => p.length > 0) ? true : undefined
    },
    90_000,
  )
}, 180_000)

afterAll(async () => {
  for (const c of consumers) c.child.kill('SIGKILL')
  await t?.close()
})

it('two consumers take over the partitions of a third killed with SIGKILL, and store every event once', async () => {
  const load = steadyLoad(edge.url, key, { workers: 4, perRequest: 500, pauseMs: 50 })
  await waitFor('events flowing', async () => ((await t.count('events')) > 20_000 ? true : undefined), 60_000)
  const victim = consumers[1]!
  victim.child.kill('SIGKILL')
  await new Promise((r) => setTimeout(r, 15_000))
  const result = await load.stop()
  const { total } = await expectStoredExactlyOnce(t, result, 90_000)
  console.log(`scale-out: ${total} events from ${result.accepted.size} requests stored exactly once after one of three consumers was killed`)
  // The survivors were never restarted, and took all six partitions between them.
  const survivors = [consumers[0]!, consumers[2]!]
  for (const s of survivors) expect(s.child.exitCode).toBeNull()
  const held = survivors.flatMap((s) => ([...s.log.matchAll(/"partitions":\[([\d,]*)\][^\n]*joined the consumer group/g)].pop()?.[1] ?? '').split(',').filter(Boolean))
  expect(held.map(Number).sort()).toEqual([0, 1, 2, 3, 4, 5])
}, 240_000)
