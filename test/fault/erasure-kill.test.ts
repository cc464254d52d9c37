// kill -9 of the process running an erasure: the job is never left "running". ClickHouse (a private instance) is
// paused so the checks process is caught mid-job; once it is killed its lease lapses and the job shows as pending,
// and the next checks process takes it and completes it: the keys' rows gone, the others' untouched.
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { spawnSluice } from '../support/cli.js'
import { adminCaller, postEvents, waitFor } from '../support/harness.js'
import { startFaultEnv, type FaultEnv } from '../support/private-stack.js'

let env: FaultEnv
const LEASE = { SLUICE_JOB_LEASE_SECONDS: '3' }
const children: ChildProcess[] = []
const logs: (() => string)[] = []

beforeAll(async () => {
  env = await startFaultEnv(['clickhouse'], LEASE, ['edge', 'admin', 'events'])
}, 240_000)
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL')
  env?.stack.resume('clickhouse')
  await env?.close()
})

/**
 * A `sluice serve --roles checks` process, once it serves (ClickHouse probed and migrated), and the first one once it
 * has sent the day's retention deletes (ClickHouse 18.16, the private instance, has no TTLs; a pause during them would
 * hold its data jobs before any erasure).
 */
async function checksProcess(first: boolean): Promise<ChildProcess> {
  const child = spawnSluice(['serve', '--roles', 'checks'], {
    ...env.t.env,
    ...LEASE,
    SLUICE_LOG_LEVEL: 'info',
    SLUICE_PORT: '0',
  })
  children.push(child)
  let log = ''
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()))
  child.stderr?.on('data', () => undefined)
  await waitFor(
    'the checks process serving',
    async () =>
      log.includes('sluice is serving') && (!first || log.includes('retention deletes sent')) ? true : undefined,
    60_000,
  )
  logs.push(() => log)
  return child
}

it('a job whose process is killed mid-run is taken over and completes; it never stays "running"', async () => {
  const { t, service, demo } = env
  const call = adminCaller(
    () => service.url,
    () => demo.adminApiKey,
  )
  const envId = demo.environments[0]!.id
  const events = ['gone-1', 'gone-2', 'kept'].flatMap((key) =>
    [1, 2, 3].map((i) => ({ eventTypeId: 'e', trafficTypeName: 'user', key, timestamp: Date.now() + i })),
  )
  expect((await postEvents(service.url, demo.environments[0]!.serverSideSdkKey, events)).status).toBe(202)
  await waitFor('events stored', async () => ((await t.count('events')) === 9 ? true : undefined))

  const first = await checksProcess(true)
  env.stack.pause('clickhouse')
  const res = await call(`/api/v1/environments/${envId}/erasures`, {
    method: 'POST',
    body: JSON.stringify({ keys: ['gone-1', 'gone-2'] }),
  })
  expect(res.status).toBe(202)
  const id = ((await res.json()) as { id: string }).id
  const status = async () =>
    (await (await call(`/api/v1/environments/${envId}/erasures/${id}`)).json()) as Record<string, unknown>
  // The process took it and waits on ClickHouse, its lease renewed.
  await waitFor('running', async () => ((await status())['status'] === 'running' ? true : undefined)).catch(
    (err: unknown) => {
      console.log(logs.map((l) => l()).join('\n---\n'))
      throw err
    },
  )
  await new Promise((r) => setTimeout(r, 4000))
  expect((await status())['status']).toBe('running')
  first.kill('SIGKILL')
  // No one renews the lease: within it (3 s) the job shows as waiting for a process, not running.
  await waitFor('pending again', async () => ((await status())['status'] === 'pending' ? true : undefined), 10_000)
  env.stack.resume('clickhouse')
  await checksProcess(false)
  const done = await waitFor(
    'done',
    async () => {
      const s = await status()
      return s['status'] === 'done' || s['status'] === 'failed' ? s : undefined
    },
    60_000,
  )
  expect(done).toMatchObject({ status: 'done', attempts: 2, deleted: { events: 6, impressions: 0, unique_keys: 0 } })
  const left = await t.query<{ key: string; n: string }>(
    'SELECT key, count() AS n FROM {db}.events GROUP BY key ORDER BY key',
  )
  expect(left.map((r) => [r.key, Number(r.n)])).toEqual([['kept', 3]])
}, 240_000)
