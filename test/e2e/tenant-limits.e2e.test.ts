// What one account may hold or spend of the admin APIs, beside another account that keeps its share: a rate per API
// key on every admin API (the account-wide ones too), a rate per account for the expensive calls (tests of rules and
// destinations, changes of rules and windows), and slots of the process's expensive reads (Data Hub, experiment
// results) per account. ClickHouse sits behind a proxy the test holds, so a read takes as long as the test says.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let clickhouse: TcpProxy
let demo: DemoAccount
let other: { key: string; env: string }
/** More keys of the demo account (each has a rate of its own; the account's limits hold across them). */
let secondKey: string
let readsKey: string

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  const url = new URL(t.config.clickhouse.url)
  clickhouse = await startTcpProxy({ host: url.hostname, port: Number(url.port) })
  service = await t.start(['admin', 'events'], {
    CLICKHOUSE_URL: `http://${clickhouse.address}`,
    SLUICE_ADMIN_RATE_PER_SECOND: '1',
    SLUICE_ADMIN_BURST: '8',
    SLUICE_ADMIN_EXPENSIVE_RATE_PER_SECOND: '0.5',
    SLUICE_ADMIN_EXPENSIVE_BURST: '3',
    SLUICE_ADMIN_READS: '4',
    SLUICE_ADMIN_READS_PER_ACCOUNT: '2',
  })
  const account = await t.tenancy.createAccount('well-behaved')
  const ws = await t.tenancy.createWorkspace(account.id, 'Main')
  const env = await t.tenancy.createEnvironment(ws.id, 'Prod')
  const { key } = await t.tenancy.createApiKey({ kind: 'admin', accountId: account.id, name: 'theirs' })
  other = { key, env: env.id }
  secondKey = (await t.tenancy.createApiKey({ kind: 'admin', accountId: demo.accountId, name: 'second' })).key
  readsKey = (await t.tenancy.createApiKey({ kind: 'admin', accountId: demo.accountId, name: 'reads' })).key
}, 120_000)

afterAll(async () => {
  clickhouse?.release()
  await t?.close()
  await clickhouse?.close()
})

const call = (path: string, key: string, init: RequestInit = {}) =>
  fetch(`${service.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
  })

it('rates every admin API per key, the account-wide ones too, and the expensive calls per account', async () => {
  // The account-wide alerts API took no rate at all: 8 at once, then 429 with Retry-After; another key is not slowed.
  const statuses: number[] = []
  for (let i = 0; i < 9; i++) statuses.push((await call('/api/v1/alerts', demo.adminApiKey)).status)
  expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200))
  const refused = await call('/api/v1/alerts', demo.adminApiKey)
  expect(refused.status).toBe(429)
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
  expect(((await refused.json()) as Json)['message']).toMatch(/for this API key exceeded/)
  expect((await call('/api/v1/alerts', other.key)).status).toBe(200)

  // Tests of the rules run the account's logic: three at once per account (a second key of it shares them).
  const test = (key: string) =>
    call('/api/v1/alert-rules/test', key, {
      method: 'POST',
      body: JSON.stringify({ alert: { description: 'disk full' }, rules: [] }),
    })
  const tests = [await test(secondKey), await test(secondKey), await test(secondKey)]
  expect(tests.map((r) => r.status)).toEqual([200, 200, 200])
  const fourth = await test(secondKey)
  expect(fourth.status).toBe(429)
  expect(((await fourth.json()) as Json)['message']).toMatch(/this account's tests and rule changes/)
  // The other account tests its rules as before.
  expect((await test(other.key)).status).toBe(200)
}, 60_000)

it('gives each account at most its slots of expensive reads; another account reads meanwhile', async () => {
  const env = demo.environments[0]!.id
  clickhouse.hold()
  try {
    // Two reads of the account take its two slots and wait on ClickHouse; a third waits for a slot, and is a 429
    // when none is free within 5 s.
    const slow = [
      call(`/api/v1/environments/${env}/health`, readsKey),
      call(`/api/v1/environments/${env}/event-types`, readsKey),
    ]
    await waitFor('both reads at ClickHouse', async () => {
      const started = Date.now()
      const third = await call(`/api/v1/environments/${env}/flags-seen`, readsKey)
      if (third.status !== 429) return void (await third.body?.cancel())
      return { third, waited: Date.now() - started }
    }).then(async ({ third, waited }) => {
      expect(((await third.json()) as Json)['message']).toMatch(/SLUICE_ADMIN_READS_PER_ACCOUNT/)
      expect(third.headers.get('retry-after')).toBe('2')
      expect(waited).toBeGreaterThanOrEqual(4_500)
    })
    // Beyond its waiters (4 per slot), the account's next read is refused at once.
    const waiting = Array.from({ length: 8 }, () => call(`/api/v1/environments/${env}/flags-seen`, readsKey))
    await new Promise((r) => setTimeout(r, 500)) // the eight reach the server and wait
    const started = Date.now()
    const ninth = await call(`/api/v1/environments/${env}/flags-seen`, readsKey)
    expect(ninth.status).toBe(429)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect((await Promise.all(waiting)).map((r) => r.status)).toEqual(Array(8).fill(429))
    // A read that waits gets the slot freed within its 5 s.
    const waiter = call(`/api/v1/environments/${env}/flags-seen`, readsKey)
    // Another account's read takes a slot of its own (it waits on ClickHouse too, not on the first account).
    const theirs = call(`/api/v1/environments/${other.env}/event-types`, other.key)
    const early = await Promise.race([
      theirs.then((r) => r.status),
      new Promise((r) => setTimeout(() => r('waiting'), 500)),
    ])
    expect(early).toBe('waiting')
    clickhouse.release()
    const answers = await Promise.all([...slow, theirs, waiter])
    expect(
      answers.map((r) => r.status),
      JSON.stringify(await Promise.all(answers.map((r) => r.text()))),
    ).toEqual([200, 200, 200, 200])
    // Once answered, the slots are free again.
    expect((await call(`/api/v1/environments/${env}/flags-seen`, readsKey)).status).toBe(200)
  } finally {
    clickhouse.release()
  }
}, 60_000)
