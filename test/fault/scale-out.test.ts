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
const consumers: { child: ChildProcess; log: string; stderr: string }[] = []
// A process of the events role also consumes impressions: only the events group's joins count here.
const JOINED = /"group":"[^"]*\.events-clickhouse","partitions":\[([\d,]*)\][^\n]*joined the consumer group/g

/** The partitions a consumer process took when it last joined the events group ('' before it joined). */
const lastHeld = (c: { log: string }) => [...c.log.matchAll(JOINED)].pop()?.[1] ?? ''

/**
 * What each consumer process did, for a failure message: its exit, its joins, its last warnings and errors, its stderr.
 */
function consumerReport(): string {
  return consumers
    .map((c, i) => {
      const lines = c.log.split('\n').filter(Boolean)
      const joins = lines
        .filter((l) => l.includes('joined the consumer group'))
        .map(
          (l) =>
            `${l.match(/"time":"([^"]+)"/)?.[1]} ${l.match(/"group":"[^"]*\.(\w+)-/)?.[1]} [${l.match(/"partitions":\[([\d,]*)\]/)?.[1]}]`,
        )
      const warnings = lines.filter((l) => /"level":(4|5|6)\d/.test(l)).slice(-5)
      return [
        `consumer ${i}: pid ${c.child.pid}, exit ${c.child.exitCode ?? c.child.signalCode ?? 'none'}, ${lines.length} log lines`,
        `  joins: ${joins.join(', ') || 'none'}`,
        ...warnings.map((w) => `  ${w.slice(0, 600)}`),
        c.stderr ? `  stderr: ${c.stderr.slice(-1500)}` : '',
      ]
        .filter(Boolean)
        .join('\n')
    })
    .join('\n')
}

/** The wait's outcome; if it fails, its error also says what each consumer process did. */
function reporting<T>(wait: Promise<T>): Promise<T> {
  return wait.catch((err: Error) => {
    throw new Error(`${err.message}\n${consumerReport()}`)
  })
}

/** Waits until the consumer group is as check() wants it. */
function groupSettles(what: string, check: () => boolean, timeoutMs: number): Promise<unknown> {
  return reporting(waitFor(what, async () => (check() ? true : undefined), timeoutMs))
}

beforeAll(async () => {
  // Small fetches: many batches, so the kill lands between an insert and its commit now and then.
  t = await createTestEnv({
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    SLUICE_CONSUMER_FETCH_MAX_BYTES: String(1024 * 1024),
    KAFKA_PARTITIONS: '6',
  })
  key = (await t.bootstrap()).environments[0]!.serverSideSdkKey
  edge = await t.start(['edge'])
  for (let i = 0; i < 3; i++) {
    const child = spawnSluice(['serve', '--roles', 'events'], {
      ...t.env,
      KAFKA_PARTITIONS: '6',
      SLUICE_LOG_LEVEL: 'info',
      SLUICE_PORT: '0',
    })
    const entry = { child, log: '', stderr: '' }
    child.stdout?.on('data', (d: Buffer) => (entry.log += d.toString()))
    // Read, so that a child writing to stderr never blocks on a full pipe; shown if the test fails.
    child.stderr?.on('data', (d: Buffer) => (entry.stderr += d.toString()))
    consumers.push(entry)
  }
  await groupSettles(
    'three members sharing the partitions',
    () => consumers.every((c) => lastHeld(c).length > 0),
    90_000,
  )
}, 180_000)

afterAll(async () => {
  for (const c of consumers) c.child.kill('SIGKILL')
  await t?.close()
})

it('two consumers take over the partitions of a third killed with SIGKILL, and store every event once', async () => {
  const load = steadyLoad(edge.url, key, { workers: 4, perRequest: 500, pauseMs: 50 })
  await reporting(
    waitFor('events flowing', async () => ((await t.count('events')) > 20_000 ? true : undefined), 60_000),
  )
  const victim = consumers[1]!
  victim.child.kill('SIGKILL')
  await new Promise((r) => setTimeout(r, 15_000))
  const result = await load.stop()
  const { total } = await reporting(expectStoredExactlyOnce(t, result, 90_000))
  console.log(
    `scale-out: ${total} events from ${result.accepted.size} requests stored exactly once after one of three consumers was killed`,
  )
  // The survivors were never restarted, and share all six partitions between them once the group has
  // settled (a survivor whose session lapsed on the busy machine rejoins by itself first).
  const survivors = [consumers[0]!, consumers[2]!]
  await groupSettles(
    'the two survivors sharing the six partitions',
    () => {
      const held = survivors.map((s) => lastHeld(s).split(',').filter(Boolean).map(Number))
      return held.every((h) => h.length > 0) && held.flat().sort().join() === '0,1,2,3,4,5'
    },
    60_000,
  )
  for (const s of survivors) expect(s.child.exitCode).toBeNull()
}, 240_000)
