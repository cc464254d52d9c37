// The checks role on the real stack: running experiments (impressions within the last day) are checked every second
// here, their alerts go through the alert pipeline (Kafka, the alerts consumer, the lifecycle in Redis). A guardrail
// the treatment degrades raises one alert, which stays one alert over many runs and resolves once the data recovers. A
// flag whose split does not match its saved weights raises a sample ratio alert, resolved when the weights saved match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { CHECKS_INTEGRATION_NAME } from '../../src/services/experiment-checks.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let env: string
let sdkKey: string
const NOW = Date.now()
const MIN = 60_000

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${demo.adminApiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} }
}

async function impressions(flag: string, keys: { k: string; t: string; r?: string }[]): Promise<void> {
  const res = await fetch(`${service.url}/api/testImpressions/bulk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${sdkKey}` },
    body: JSON.stringify([
      { f: flag, i: keys.map(({ k, t, r }) => ({ k, t, m: NOW - 60 * MIN, r: r ?? 'default rule' })) },
    ]),
  })
  expect(res.status).toBe(202)
}

const errors = (keys: string[]) =>
  keys.map((key) => ({ eventTypeId: 'error', trafficTypeName: 'user', key, timestamp: NOW - 30 * MIN }))

/** The check alerts of a flag, any status. */
async function checkAlerts(flag: string): Promise<Json[]> {
  const res = await call('GET', `/api/v1/alerts?status=all&service=${flag}&limit=100`)
  expect(res.status).toBe(200)
  return res.body['alerts'] as Json[]
}

let stored = 0
async function stored_(n: number): Promise<void> {
  stored += n
  await waitFor('rows stored', async () =>
    (await t.count('impressions')) + (await t.count('events')) === stored ? true : undefined,
  )
}

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_EXPERIMENT_CHECK_SECONDS: '1',
    // checkout has no saved settings: its 1,200 exposed keys give its alerts their severity (info below).
    SLUICE_EXPERIMENT_CHECK_MIN_KEYS: '1000',
    SLUICE_ADMIN_RATE_PER_SECOND: '1000',
    SLUICE_ADMIN_BURST: '1000',
  })
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  sdkKey = demo.environments[0]!.serverSideSdkKey
  service = await t.start(['edge', 'admin', 'events', 'alerts', 'checks'])
  // The workspace reads its results the Bayesian way by default: the checks still test sequentially (frequentist).
  const defaults = await call('PUT', `/api/v1/workspaces/${demo.workspaceId}/experiment-defaults`, {
    engine: 'bayesian',
    prior: 'proper',
  })
  expect(defaults.status, JSON.stringify(defaults.body)).toBe(200)
}, 120_000)
afterAll(async () => t?.close())

describe('experiment checks', () => {
  it('a guardrail the treatment degrades raises one alert, resolved when the data recovers', async () => {
    const metric = await call('POST', `/api/v1/workspaces/${demo.workspaceId}/metrics`, {
      name: 'Errors per user',
      trafficType: 'user',
      eventTypeId: 'error',
      type: 'count_per_key',
      desiredDirection: 'decrease',
      guardrail: true,
    })
    expect(metric.status, JSON.stringify(metric.body)).toBe(201)
    const keys = Array.from({ length: 1200 }, (_, i) => ({ k: `g-${i}`, t: i % 2 ? 'on' : 'off' }))
    await impressions('checkout', keys)
    // Errors: 40 % of on's keys, 5 % of off's.
    const on = keys.filter((k) => k.t === 'on').map((k) => k.k)
    const off = keys.filter((k) => k.t === 'off').map((k) => k.k)
    const degraded = [...on.slice(0, 240), ...off.slice(0, 30)]
    expect((await postEvents(service.url, sdkKey, errors(degraded))).status).toBe(202)
    await stored_(keys.length + degraded.length)

    const firing = await waitFor(
      'the guardrail alert',
      async () => (await checkAlerts('checkout')).find((a) => a['status'] === 'firing'),
      30_000,
    )
    expect(firing).toMatchObject({ severity: 'warning', service: 'checkout', source: 'sluice-experiments' })
    expect(firing['description']).toMatch(/^Guardrail Errors per user is failing in checkout/)
    const integrations = (await call('GET', '/api/v1/integrations')).body['integrations'] as Json[]
    expect(integrations.find((i) => i['id'] === firing['integrationId'])).toMatchObject({
      name: CHECKS_INTEGRATION_NAME,
    })
    // Several runs later it is still one alert, counted again at each run (the same incident).
    await new Promise((r) => setTimeout(r, 3500))
    const again = await checkAlerts('checkout')
    expect(again).toHaveLength(1)
    expect(again[0]!['count']).toBeGreaterThan(1)

    // The data recovers: off's keys get as many errors as on's.
    const more = off.slice(30, 240)
    expect((await postEvents(service.url, sdkKey, errors(more))).status).toBe(202)
    await stored_(more.length)
    const resolved = await waitFor(
      'the guardrail alert resolved',
      async () => (await checkAlerts('checkout')).find((a) => a['status'] === 'resolved'),
      30_000,
    )
    expect(resolved['id']).toBe(firing['id'])
    expect(await checkAlerts('checkout')).toHaveLength(1)
  })

  it("a rule whose guardrail effect differs from the others' raises one informational alert (checksDimension)", async () => {
    // Rule "mobile" (200 keys) degrades: errors in 40 % of on's keys, 5 % of off's; four rules of 1,000 keys do not
    // (5 % in both). Only mobile differs from its rest; each big rule's rest holds a small share of mobile's effect.
    const rules = [['mobile', 200] as const, ...['a', 'b', 'c', 'd'].map((r) => [`rule ${r}`, 1000] as const)]
    const keys = rules.flatMap(([r, n]) =>
      Array.from({ length: n }, (_, i) => ({ k: `d-${r}-${i}`, t: i % 2 ? 'on' : 'off', r, i })),
    )
    await impressions('onboarding', keys)
    const failing = keys.filter(({ r, t, i }) => Math.floor(i / 2) % 20 < (r === 'mobile' && t === 'on' ? 8 : 1))
    expect((await postEvents(service.url, sdkKey, errors(failing.map((k) => k.k)))).status).toBe(202)
    await stored_(keys.length + failing.length)
    const differs = await waitFor(
      'the differential impact alert',
      async () => (await checkAlerts('onboarding')).find((a) => /differs/.test(a['description'] as string)),
      30_000,
    )
    expect(differs).toMatchObject({ severity: 'info', status: 'firing', source: 'sluice-experiments' })
    expect(differs['description']).toMatch(
      /^In onboarding \(.*\), Errors per user's effect of on against off for the rule "mobile" differs from the rest's/,
    )
    await new Promise((r) => setTimeout(r, 3000))
    expect((await checkAlerts('onboarding')).filter((a) => /differs/.test(a['description'] as string))).toHaveLength(1)
    // The dimension is checked as a request's is; null turns the breakdown off.
    const bad = await call('PUT', `/api/v1/workspaces/${demo.workspaceId}/experiment-defaults`, {
      checksDimension: 'browser',
    })
    expect(bad.status).toBe(400)
    expect(bad.body['details']).toEqual([expect.objectContaining({ field: 'checksDimension' })])
    const off = await call('PUT', `/api/v1/workspaces/${demo.workspaceId}/experiment-defaults`, {
      checksDimension: null,
    })
    expect(off.body['checksDimension']).toBeNull()
    await waitFor(
      'the differential impact alert resolved',
      async () =>
        (await checkAlerts('onboarding')).find(
          (a) => /differs/.test(a['description'] as string) && a['status'] === 'resolved',
        ),
      30_000,
    )
    expect(
      (await call('PUT', `/api/v1/workspaces/${demo.workspaceId}/experiment-defaults`, { checksDimension: 'rule' }))
        .status,
    ).toBe(200)
  })

  it('a split that does not match the saved weights raises a sample ratio alert, resolved when they match', async () => {
    const keys = Array.from({ length: 1000 }, (_, i) => ({ k: `s-${i}`, t: i % 10 < 7 ? 'on' : 'off' }))
    const saved = await call('PUT', `/api/v1/environments/${env}/experiments/pricing/settings`, {
      weights: { on: 50, off: 50 },
      baseline: 'off',
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    await impressions('pricing', keys)
    await stored_(keys.length)
    const firing = await waitFor(
      'the sample ratio alert',
      async () => (await checkAlerts('pricing')).find((a) => a['status'] === 'firing'),
      30_000,
    )
    expect(firing).toMatchObject({ severity: 'critical' })
    expect(firing['description']).toMatch(/^Sample ratio mismatch in pricing/)
    expect(
      (
        await call('PUT', `/api/v1/environments/${env}/experiments/pricing/settings`, {
          weights: { on: 7, off: 3 },
          baseline: 'off',
        })
      ).status,
    ).toBe(200)
    await waitFor(
      'the sample ratio alert resolved',
      async () => (await checkAlerts('pricing')).find((a) => a['status'] === 'resolved'),
      30_000,
    )
    // Bad settings are refused naming the field.
    const bad = await call('PUT', `/api/v1/environments/${env}/experiments/pricing/settings`, {
      weights: { on: 1 },
      baseline: 'nope',
    })
    expect(bad.status).toBe(400)
    expect(bad.body['details']).toEqual([expect.objectContaining({ field: 'baseline' })])
  })
})
