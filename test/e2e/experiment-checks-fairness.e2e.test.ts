// The checks role against a public SDK key (issue 43): anyone holding an environment's client-side SDK key can post
// impressions for flags it makes up. Here the first account (the demo) gets ten such flags, each with a skewed split,
// beside a well-behaved account created after it with one experiment whose settings an analyst saved and one with
// many exposed keys. The accounts take turns within a small budget (4 flags and 3 alerts per account and run), so the
// well-behaved account's critical alerts are raised in the first run, the made-up flags raise info alerts that say
// why, at most 3 per run, and the made-up flags not reached are checked in the next runs. And a thousand made-up flags
// named to sort first in an analyst's own environment push neither a flag with saved settings nor one with many exposed
// keys out of the environment's list of flags (the checks' and the API's).
import { Kafka, logLevel, type Admin } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { alertsCaughtUp } from '../support/alerts.js'
import { createTestEnv, waitFor, type TestEnv, jsonCaller } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let kafka: Admin
let demo: DemoAccount
let wellBehaved: { adminKey: string; sdkKey: string; envId: string }
const NOW = Date.now()
const MADE_UP = Array.from({ length: 10 }, (_, i) => `made-up-${String(i).padStart(2, '0')}`)
const FLAGS_PER_RUN = 4
const ALERTS_PER_RUN = 3

const call = jsonCaller(() => service.url)

/** `n` keys of a flag, `onShare` of them on, the others off. */
const split = (flag: string, n: number, onShare: number) => ({
  f: flag,
  i: Array.from({ length: n }, (_, k) => ({
    k: `${flag}-${k}`,
    t: k < n * onShare ? 'on' : 'off',
    m: NOW - 3_600_000,
    r: 'default rule',
  })),
})

async function impressions(sdkKey: string, body: unknown[]): Promise<void> {
  const res = await fetch(`${service.url}/api/testImpressions/bulk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${sdkKey}` },
    body: JSON.stringify(body),
  })
  expect(res.status).toBe(202)
}

/** The account's experiment check alerts, any status, once every alert sent so far is stored. */
async function checkAlerts(adminKey: string): Promise<Json[]> {
  await alertsCaughtUp(t, service.container.topics.alerts, kafka)
  const res = await call(adminKey, 'GET', '/api/v1/alerts?status=all&limit=100')
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return (res.body['alerts'] as Json[]).filter((a) => a['source'] === 'sluice-experiments')
}

/** One run of the checks, as the role's timer starts it (the lock, then every account in turns). */
async function run(): Promise<void> {
  expect(await service.container.experimentChecks.runNow()).toBeDefined()
}

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_EXPERIMENT_CHECK_FLAGS_PER_ACCOUNT: String(FLAGS_PER_RUN),
    SLUICE_EXPERIMENT_CHECK_ALERTS_PER_ACCOUNT: String(ALERTS_PER_RUN),
    SLUICE_EXPERIMENT_CHECK_MIN_KEYS: '500',
    SLUICE_ADMIN_RATE_PER_SECOND: '1000',
    SLUICE_ADMIN_BURST: '1000',
  })
  // The first account in the checks' order: the one whose public SDK key is abused.
  demo = await t.bootstrap()
  const account = await t.tenancy.createAccount('well-behaved')
  const ws = await t.tenancy.createWorkspace(account.id, 'Shop')
  const env = await t.tenancy.createEnvironment(ws.id, 'Production', true)
  wellBehaved = {
    adminKey: (await t.tenancy.createApiKey({ kind: 'admin', accountId: account.id, name: 'analyst' })).key,
    sdkKey: (
      await t.tenancy.createApiKey({ kind: 'server', accountId: account.id, workspaceId: ws.id, environmentId: env.id })
    ).key,
    envId: env.id,
  }
  kafka = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING }).admin()
  await kafka.connect()
  // No checks role: the test starts each run itself, so that it can look between runs.
  service = await t.start(['edge', 'admin', 'events', 'alerts'])
}, 120_000)
afterAll(async () => {
  await kafka?.disconnect()
  await t?.close()
})

describe('experiment checks against made-up flags', () => {
  it('page no one, cost another account at most its budget, and reach every flag in later runs', async () => {
    // The analyst's experiment: saved settings (an even split) and a 70/30 split, a real sample ratio mismatch. And
    // one without saved settings but with more exposed keys than SLUICE_EXPERIMENT_CHECK_MIN_KEYS.
    const saved = await call(
      wellBehaved.adminKey,
      'PUT',
      `/api/v1/environments/${wellBehaved.envId}/experiments/pricing/settings`,
      { weights: { on: 50, off: 50 }, baseline: 'off' },
    )
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    await impressions(wellBehaved.sdkKey, [split('pricing', 1000, 0.7), split('search', 600, 0.7)])
    // Ten made-up flags, each 80/20 over 100 keys, through the public client-side key.
    await impressions(
      demo.environments[0]!.clientSideSdkKey,
      MADE_UP.map((flag) => split(flag, 100, 0.8)),
    )
    await waitFor('the impressions stored', async () =>
      (await t.count('impressions')) === 1000 + 600 + MADE_UP.length * 100 ? true : undefined,
    )

    await run()
    // The well-behaved account's alerts are raised in the first run, critical.
    const mine = await checkAlerts(wellBehaved.adminKey)
    expect(mine.map((a) => [a['service'], a['severity'], a['status']]).sort()).toEqual([
      ['pricing', 'critical', 'firing'],
      ['search', 'critical', 'firing'],
    ])
    // The made-up flags: at most the budget of alerts, all informational, saying why.
    const first = await checkAlerts(demo.adminApiKey)
    expect(first).toHaveLength(ALERTS_PER_RUN)
    for (const a of first) {
      expect(a).toMatchObject({ severity: 'info', status: 'firing' })
      expect(a['description']).toMatch(/^Sample ratio mismatch in made-up-\d\d/)
      expect(a['description']).toMatch(
        /Informational: .* has no saved experiment settings and 100 exposed keys \(fewer than 500\)/,
      )
    }

    // The next run starts where the first stopped: other made-up flags, again at most the budget, and the alerts of
    // the first run stay open (their flags still run; they were not checked).
    await run()
    const second = await checkAlerts(demo.adminApiKey)
    expect(second).toHaveLength(2 * ALERTS_PER_RUN)
    expect(second.every((a) => a['severity'] === 'info' && a['status'] === 'firing')).toBe(true)
    const firstFlags = new Set(first.map((a) => a['service'] as string))
    expect(second.filter((a) => !firstFlags.has(a['service'] as string))).toHaveLength(ALERTS_PER_RUN)
    // The well-behaved account's alerts were checked again in this run too.
    expect((await checkAlerts(wellBehaved.adminKey)).map((a) => a['count'])).toEqual([2, 2])

    // Nothing is left out for ever: within ceil(10 / 3) runs every made-up flag has been checked.
    await run()
    await run()
    const all = await checkAlerts(demo.adminApiKey)
    expect(all.map((a) => a['service'] as string).sort()).toEqual(MADE_UP)
    expect(all.every((a) => a['severity'] === 'info' && a['status'] === 'firing')).toBe(true)
  })
})

describe('experiment checks beside a thousand made-up flags in the same environment', () => {
  it("still raise the saved flag's critical alert in the first run, and list the flag with many keys", async () => {
    const account = await t.tenancy.createAccount('crowded')
    const ws = await t.tenancy.createWorkspace(account.id, 'Shop')
    const env = await t.tenancy.createEnvironment(ws.id, 'Production', true)
    const ids = { accountId: account.id, workspaceId: ws.id, environmentId: env.id }
    const adminKey = (await t.tenancy.createApiKey({ kind: 'admin', accountId: account.id, name: 'analyst' })).key
    const serverKey = (await t.tenancy.createApiKey({ kind: 'server', ...ids })).key
    const clientKey = (await t.tenancy.createApiKey({ kind: 'client', ...ids })).key
    const saved = await call(adminKey, 'PUT', `/api/v1/environments/${env.id}/experiments/pricing/settings`, {
      weights: { on: 50, off: 50 },
      baseline: 'off',
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    const before = await t.count('impressions')
    await impressions(serverKey, [split('pricing', 1000, 0.7), split('search', 600, 0.7)])
    // 1,000 made-up flags through the environment's public client-side key, each named to sort before pricing and
    // search, one key each: a list of the first 1,000 flags by name holds only them. Two requests of 500.
    const crowd = Array.from({ length: 1000 }, (_, i) => split(String(i).padStart(4, '0'), 1, 1))
    for (let i = 0; i < crowd.length; i += 500) await impressions(clientKey, crowd.slice(i, i + 500))
    await waitFor('the impressions stored', async () =>
      (await t.count('impressions')) === before + 1000 + 600 + crowd.length ? true : undefined,
    )

    await run()
    // The flag with saved settings is checked first in the account's first turn: its sample ratio mismatch is
    // critical. The flags made up in its environment raise nothing above info.
    const alerts = await checkAlerts(adminKey)
    expect(alerts.filter((a) => a['service'] === 'pricing').map((a) => [a['severity'], a['status']])).toEqual([
      ['critical', 'firing'],
    ])
    expect(alerts.filter((a) => a['severity'] !== 'info').map((a) => a['service'])).toEqual(['pricing'])
    // The environment's list keeps both real flags whatever the made-up ones are named: pricing (saved settings) and
    // search (more keys than any made-up flag), beside 999 made-up ones at most.
    const listed = await call(adminKey, 'GET', `/api/v1/environments/${env.id}/experiments`)
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    const names = (listed.body['flags'] as Json[]).map((f) => f['flag'] as string)
    expect(names).toEqual(expect.arrayContaining(['pricing', 'search']))
    expect(names.length).toBeLessThanOrEqual(1001)
  })
})
