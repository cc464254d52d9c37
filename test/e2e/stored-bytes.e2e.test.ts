// What one account may store: its alert rules with their versions, its maintenance windows and its notification
// destinations share one budget of bytes (SLUICE_ACCOUNT_STORED_BYTES), so one account cannot take the Redis every
// account needs (the review: 51 copies of a 4 MiB rule set and 200 windows of 1 MiB, about 400 MiB of a 1 GB Redis).
// Old rule versions are let go first; a change that still does not fit is a 409 naming the budget; what makes the
// account smaller is always taken; another account keeps its whole budget.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, jsonCaller, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const BUDGET = 256 * 1024
let t: TestEnv
let service: RunningService
let demo: DemoAccount
let otherKey: string

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_ACCOUNT_STORED_BYTES: String(BUDGET), SLUICE_NOTIFY_ALLOW_HTTP: 'true' })
  demo = await t.bootstrap()
  service = await t.start(['admin'])
  const other = await t.tenancy.createAccount('other')
  otherKey = (await t.tenancy.createApiKey({ kind: 'admin', accountId: other.id, name: 'other' })).key
}, 120_000)

afterAll(async () => t?.close())

const api = jsonCaller(() => service.url)
const call = (method: string, path: string, body?: unknown, key = demo.adminApiKey) => api(key, method, path, body)

/** A rule set of about `kb` KiB: one rule with custom fields of 4,000 characters each. */
const ruleSet = (kb: number, mark: string) => {
  const fields = Math.ceil((kb * 1024) / 4000)
  const rules = []
  for (let r = 0; r * 20 < fields; r++)
    rules.push({
      id: `r${r}`,
      name: `rule ${r} ${mark}`,
      customFields: Object.fromEntries(
        Array.from({ length: Math.min(20, fields - r * 20) }, (_, i) => [`f${i}`, `${mark}${'x'.repeat(3990)}`]),
      ),
    })
  return { rules }
}

/** The account's ledger of stored bytes, summed. */
const ledger = async (accountId: string) => {
  const h = await t.redis.hgetall(`${t.config.redis.keyPrefix}stored-bytes:${accountId}`)
  return Object.values(h).reduce((a, b) => a + Number(b), 0)
}

it('keeps rule versions while they fit, lets the oldest go, and refuses a set that cannot fit', async () => {
  // Sets of about 40 KiB: the set and its copy among the versions; versions pile up until the budget, then the
  // oldest go (the previous one always stays).
  for (let i = 1; i <= 8; i++) expect((await call('PUT', '/api/v1/alert-rules', ruleSet(40, `v${i}`))).status).toBe(200)
  expect(await ledger(demo.accountId)).toBeLessThanOrEqual(BUDGET)
  expect((await call('GET', '/api/v1/alert-rules/versions/1')).status).toBe(404)
  expect((await call('GET', '/api/v1/alert-rules/versions/7')).status).toBe(200)
  expect((await call('GET', '/api/v1/alert-rules/versions/8')).status).toBe(200)
  // A set that cannot fit beside its own copy: refused, naming the budget; the last one stays.
  const big = await call('PUT', '/api/v1/alert-rules', ruleSet(150, 'big'))
  expect(big.status).toBe(409)
  expect(big.body['message']).toMatch(/past its 262144 \(SLUICE_ACCOUNT_STORED_BYTES\)/)
  expect((await call('GET', '/api/v1/alert-rules')).body['version']).toBe(8)
  // Another account has a budget of its own.
  expect((await call('PUT', '/api/v1/alert-rules', ruleSet(100, 'theirs'), otherKey)).status).toBe(200)
})

it('counts windows and destinations in the same budget; what frees room is always taken', async () => {
  // Rules take most of it now; windows with long conditions fill the rest, then are refused.
  const window = (i: number) => ({
    name: `w${i}`,
    when: {
      any: Array.from({ length: 20 }, (_, j) => ({ field: 'service', equals: `${i}-${j}-${'s'.repeat(1000)}` })),
    },
    schedule: { kind: 'once', from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00Z' },
  })
  const made: string[] = []
  let refused: Json | undefined
  for (let i = 0; i < 20 && !refused; i++) {
    const res = await call('POST', '/api/v1/maintenance-windows', window(i))
    if (res.status === 201) made.push(res.body['id'] as string)
    else {
      expect(res.status, JSON.stringify(res.body)).toBe(409)
      refused = res.body
    }
  }
  expect(made.length).toBeGreaterThan(0)
  expect(refused?.['message']).toMatch(/SLUICE_ACCOUNT_STORED_BYTES/)
  expect(await ledger(demo.accountId)).toBeLessThanOrEqual(BUDGET)
  const destination = (i: number) => ({
    name: `hook ${i}`,
    kind: 'webhook',
    settings: { url: 'http://127.0.0.1:9/hook', bodyTemplate: 'x'.repeat(16_000) },
  })
  // Destinations fill what the windows left, then are refused too.
  let full: Json | undefined
  for (let i = 0; i < 20 && !full; i++) {
    const res = await call('POST', '/api/v1/notification-destinations', destination(i))
    if (res.status !== 201) full = { status: res.status, ...res.body }
  }
  expect(full).toMatchObject({ status: 409, message: expect.stringMatching(/SLUICE_ACCOUNT_STORED_BYTES/) })
  // Deleting a window frees its room: the destination fits then.
  for (const id of made.slice(0, 3))
    expect((await call('DELETE', `/api/v1/maintenance-windows/${id}`)).status).toBe(204)
  expect((await call('POST', '/api/v1/notification-destinations', destination(99))).status).toBe(201)
  expect(await ledger(demo.accountId)).toBeLessThanOrEqual(BUDGET)
})

it('lets an account stored over its budget before the ledger existed get smaller, and not bigger', async () => {
  // Windows saved by an earlier version, 400 KiB of them: more than the budget, and not in the ledger.
  const other = await t.tenancy.createAccount('before the ledger')
  const key = (await t.tenancy.createApiKey({ kind: 'admin', accountId: other.id, name: 'k' })).key
  const big = (i: number) => ({
    id: `mw_old${i}`,
    name: `old ${i}`,
    when: {
      any: Array.from({ length: 100 }, (_, j) => ({ field: 'service', equals: `${i}-${j}-${'s'.repeat(1000)}` })),
    },
    schedule: { kind: 'once', from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00Z' },
    createdAt: 0,
    updatedAt: 0,
  })
  const prefix = t.config.redis.keyPrefix
  await t.redis.set(
    `${prefix}maintenance-windows:${other.id}`,
    JSON.stringify({ version: 1, windows: [0, 1, 2, 3].map(big) }),
  )
  await t.redis.sadd(`${prefix}alerts:acct:${other.id}:windows`, 'mw_old0', 'mw_old1', 'mw_old2', 'mw_old3')
  // Growing is refused; deleting one is taken (300 KiB left: still over, but smaller), and then counted.
  const grow = await call('POST', '/api/v1/maintenance-windows', { name: 'more', schedule: big(9).schedule }, key)
  expect(grow.status, JSON.stringify(grow.body)).toBe(409)
  expect((await call('DELETE', '/api/v1/maintenance-windows/mw_old0', undefined, key)).status).toBe(204)
  expect(await ledger(other.id)).toBeGreaterThan(BUDGET)
})
