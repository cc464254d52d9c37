// A replay of 10,000 refused events survives the worst moments: Kafka (a private instance) is paused for 10 s mid-job,
// some pages published, and the checks process running it is then killed (kill -9) before its page is out. The next
// process takes it over. The outcome is what a replay without faults gives: every refused event stored exactly once,
// nothing refused again, the job done.
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { spawnSluice } from '../support/cli.js'
import { adminCaller, postEvents, waitFor } from '../support/harness.js'
import { startFaultEnv, type FaultEnv } from '../support/private-stack.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let env: FaultEnv
const SETTINGS = {
  SLUICE_JOB_LEASE_SECONDS: '3',
  SLUICE_INTEGRATION_REFRESH_MS: '100',
  KAFKA_PUBLISH_TIMEOUT_MS: '3000',
}
const children: ChildProcess[] = []

beforeAll(async () => {
  env = await startFaultEnv(['kafka'], SETTINGS, ['edge', 'admin', 'events'])
}, 240_000)
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL')
  env?.stack.resume('kafka')
  await env?.close()
})

/** A `sluice serve --roles checks` process, once it serves. */
async function checksProcess(): Promise<ChildProcess> {
  const child = spawnSluice(['serve', '--roles', 'checks'], {
    ...env.t.env,
    ...SETTINGS,
    SLUICE_LOG_LEVEL: 'info',
    SLUICE_PORT: '0',
  })
  children.push(child)
  let log = ''
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()))
  child.stderr?.on('data', () => undefined)
  await waitFor(
    'the checks process serving',
    async () => (log.includes('sluice is serving') ? true : undefined),
    60_000,
  )
  return child
}

it('kill -9 of the process running a replay and a 10 s Kafka pause change nothing in its outcome', async () => {
  const { t, service, demo, stack } = env
  const call = adminCaller(
    () => service.url,
    () => demo.adminApiKey,
  )
  const json = async (path: string, init?: RequestInit) => {
    const res = await call(path, init)
    return { status: res.status, body: (await res.json()) as Json }
  }
  const e = demo.environments[0]!
  const where = `environment_id = '${e.id}'`
  const plan = (plans: string[]) => ({
    mode: 'block',
    unplannedEvents: 'allow',
    unplannedProperties: 'allow',
    events: { checkout: { properties: { plan: { type: 'string', enum: plans } } } },
  })
  const save = async (p: unknown, baseVersion: number) => {
    const res = await json(`/api/v1/environments/${e.id}/tracking-plan`, {
      method: 'PUT',
      body: JSON.stringify({ plan: p, baseVersion }),
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    await new Promise((r) => setTimeout(r, 500))
  }
  await save(plan(['free']), 0)
  for (let body = 0; body < 10; body++) {
    const events = Array.from({ length: 1000 }, (_, i) => ({
      eventTypeId: 'checkout',
      trafficTypeName: 'user',
      key: `k-${body * 1000 + i}`,
      timestamp: Date.now(),
      properties: { plan: 'team' },
    }))
    expect((await postEvents(service.url, e.serverSideSdkKey, events)).status).toBe(202)
  }
  await waitFor('10,000 refused', async () =>
    (await t.count('event_rejections', where)) === 10_000 ? true : undefined,
  )
  await save(plan(['free', 'team']), 1)

  const first = await checksProcess()
  const queued = await json(`/api/v1/environments/${e.id}/replays`, {
    method: 'POST',
    body: JSON.stringify({ kind: 'events' }),
  })
  expect(queued.status, JSON.stringify(queued.body)).toBe(202)
  const status = async () => (await json(`/api/v1/environments/${e.id}/replays/${queued.body['id']}`)).body
  // Kafka stops answering mid-job, some pages published: the job waits it out, its lease renewed, for 10 s; then its
  // process is killed, its publication cut.
  await waitFor('part published', async () => ((await status())['published'] >= 250 ? true : undefined), 60_000)
  stack.pause('kafka')
  await new Promise((r) => setTimeout(r, 10_000))
  const cut = await status()
  expect(cut).toMatchObject({ status: 'running', attempts: 1 })
  expect(cut['published']).toBeLessThan(10_000)
  first.kill('SIGKILL')
  stack.resume('kafka')
  // No one renews its lease: within it (3 s) it shows as waiting for a process, and the next one takes it over from
  // its last page.
  await waitFor('pending again', async () => ((await status())['status'] === 'pending' ? true : undefined), 10_000)
  await checksProcess()
  const done = await waitFor(
    'the replay finished',
    async () => {
      const s = await status()
      return s['status'] === 'done' || s['status'] === 'failed' ? s : undefined
    },
    180_000,
  )
  expect(done).toMatchObject({ status: 'done', stored: 10_000, refusedAgain: 0, notReplayable: 0 })
  expect(done['attempts']).toBe(2)
  console.log(
    `replay under faults: killed at ${cut['published']} published, done after ${done['attempts']} runs, ${done['published']} published in all`,
  )
  const [stored] = await t.query<{ n: string; keys: string; ids: string }>(
    `SELECT count() AS n, uniqExact(key) AS keys, uniqExact(request_id) AS ids FROM {db}.events WHERE ${where}`,
  )
  expect(stored).toEqual({ n: '10000', keys: '10000', ids: '10000' })
  expect(await t.count('event_rejections', `${where} AND startsWith(request_id, 'replay:')`)).toBe(0)
}, 400_000)
