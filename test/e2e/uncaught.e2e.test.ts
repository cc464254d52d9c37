// What the process does with an exception nothing caught (a throw from a timer or an event emitter): it logs it, stops
// as on SIGTERM, and exits 1 for its supervisor to restart it; what it had accepted (a 202) is stored once, by the
// process that comes after. The exception is injected into a real `sluice serve` while events flow through it.
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { exited, spawnSluice } from '../support/cli.js'
import { createTestEnv, event, postEvents, waitFor, type TestEnv } from '../support/harness.js'

const PRELOAD = fileURLToPath(new URL('../support/throw-on-signal-file.mjs', import.meta.url))
const PER_REQUEST = 50

let t: TestEnv
let key: string

beforeAll(async () => {
  t = await createTestEnv()
  key = (await t.bootstrap()).environments[0]!.serverSideSdkKey
}, 120_000)
afterAll(async () => t?.close())

it('an uncaught exception stops the process (exit 1, logged); every event it accepted is stored exactly once after a restart', async () => {
  const port = 19651
  const url = `http://127.0.0.1:${port}`
  const trigger = join(tmpdir(), `sluice-throw-${process.pid}-${Date.now()}`)
  const env = { ...t.env, SLUICE_PORT: String(port) }
  const child = spawnSluice(['serve', '--roles', 'edge,events'], {
    ...env,
    NODE_OPTIONS: `--import=${PRELOAD}`,
    TEST_THROW_WHEN: trigger,
  })
  let output = ''
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
  const code = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)))
  await waitFor('serving', async () =>
    (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200 ? true : undefined,
  )
  // Requests one after the other, until the process is gone; the throw comes after the 20th.
  const accepted: number[] = []
  for (let r = 0; r < 2000; r++) {
    if (r === 20) writeFileSync(trigger, '')
    const sent = await postEvents(
      url,
      key,
      Array.from({ length: PER_REQUEST }, (_, i) => event(r * PER_REQUEST + i)),
    ).catch(() => undefined)
    if (sent?.status === 202) accepted.push(r)
    if (child.exitCode !== null) break
  }
  expect(await code).toBe(1)
  expect(output).toMatch(/an exception nothing caught/)
  expect(output).toMatch(/injected: a throw from a timer/)
  expect(accepted.length).toBeGreaterThanOrEqual(20)

  // A process after it stores what the first accepted and had not stored, once.
  const next = spawnSluice(['serve', '--roles', 'events'], env)
  try {
    const want = new Set(accepted.flatMap((r) => Array.from({ length: PER_REQUEST }, (_, i) => r * PER_REQUEST + i)))
    await waitFor(
      'every accepted event stored',
      async () => {
        const stored = new Set(
          (await t.query<{ key: string }>(`SELECT DISTINCT key FROM {db}.events`)).map((r) => r.key),
        )
        return [...want].every((k) => stored.has(`user-${k}`)) ? true : undefined
      },
      120_000,
    )
    const [dupes] = await t.query<{ n: string }>(
      `SELECT count() - uniqExact(source_partition, source_offset, source_index) AS n FROM {db}.events`,
    )
    expect(Number(dupes!.n)).toBe(0)
    expect(await t.count('event_rejections')).toBe(0)
  } finally {
    next.kill('SIGTERM')
    await exited(next)
  }
}, 240_000)
