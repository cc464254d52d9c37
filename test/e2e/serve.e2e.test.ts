// `sluice serve` as a process: bad configuration, a taken port, and a graceful SIGTERM.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEnv, event, postEvents, waitFor, type TestEnv } from '../support/harness.js'
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
  const key = (await t.bootstrap()).environments[0]!.serverSideSdkKey
  const child = spawnSluice(['serve'], { ...t.env, SLUICE_LOG_LEVEL: 'info' })
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
  child.kill('SIGTERM')
  await exited(child)
  expect(child.exitCode).toBe(0)
  const messages = [...log.matchAll(/"msg":"([^"]+)"/g)].map((m) => m[1])
  expect(messages.slice(-3)).toEqual(['signal received', 'shutting down: no new requests', 'shutdown complete'])
  expect(log).not.toMatch(/[Aa]uthorization|sdk_srv_/)
})
