// Split's own Node SDK (@splitsoftware/splitio) pointed at Sluice for events and telemetry, in each
// impressions mode (DEBUG, OPTIMIZED, NONE): it evaluates a flag for 5,000 keys three times each,
// tracks an event per key and is destroyed (which flushes everything). A recording proxy in front of
// Sluice tells exactly what the SDK sent; afterwards every call was answered 2xx, and ClickHouse holds
// each impression, count, unique key, event and telemetry body it sent exactly once, with the
// treatments the SDK returned; the experiment results of each flag show the treatments the SDK
// evaluated, with the right keys per treatment. Flag definitions come from a stub of Split's SDK API.
import { SplitFactory } from '@splitsoftware/splitio'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'
import { recordingProxy, rolloutFlag, sdkApiStub } from '../support/split-sdk.js'

const KEYS = 5000
const EVALUATIONS = 3
const MODES = ['DEBUG', 'OPTIMIZED', 'NONE'] as const
const flagOf = (mode: string) => `exp_${mode.toLowerCase()}`

let t: TestEnv
let service: RunningService
let stub: Awaited<ReturnType<typeof sdkApiStub>>
let proxy: Awaited<ReturnType<typeof recordingProxy>>
let environmentId: string
let adminKey: string
let workspaceId: string
let started: number
/** mode → key → the treatment the SDK returned (the same on every evaluation). */
const returned = new Map<string, Map<string, string>>()

beforeAll(async () => {
  t = await createTestEnv()
  const demo = await t.bootstrap()
  const environment = demo.environments[0]!
  environmentId = environment.id
  adminKey = demo.adminApiKey
  workspaceId = demo.workspaceId
  started = Date.now()
  service = await t.start(['edge', 'admin', 'events'])
  stub = await sdkApiStub(MODES.map((m) => rolloutFlag(flagOf(m))))
  proxy = await recordingProxy(service.url)

  for (const mode of MODES) {
    const factory = SplitFactory({
      core: { authorizationKey: environment.serverSideSdkKey },
      urls: { sdk: stub.url, auth: stub.url, events: `${proxy.url}/api`, telemetry: `${proxy.url}/api` },
      sync: { impressionsMode: mode },
      streamingEnabled: false,
      debug: false,
    })
    const client = factory.client()
    await client.ready()
    const treatments = new Map<string, string>()
    for (let k = 0; k < KEYS; k++) {
      for (let e = 0; e < EVALUATIONS; e++) {
        const treatment = client.getTreatment(`user-${k}`, flagOf(mode))
        if (e > 0) expect(treatment).toBe(treatments.get(`user-${k}`))
        treatments.set(`user-${k}`, treatment)
      }
      expect(client.track(`user-${k}`, 'user', `converted_${mode.toLowerCase()}`, k)).toBe(true)
    }
    returned.set(mode, treatments)
    await client.destroy() // flushes impressions, counts, unique keys, events and telemetry
  }
}, 240_000)

afterAll(async () => {
  await proxy?.close()
  await stub?.close()
  await t?.close()
})

const posted = (path: string) => proxy.calls.filter((c) => c.method === 'POST' && c.path === path)

it('answers every call the SDK makes with 2xx, impressions, counts, unique keys and telemetry included', () => {
  const paths = new Set(proxy.calls.map((c) => c.path))
  for (const path of [
    '/api/testImpressions/bulk',
    '/api/testImpressions/count',
    '/api/v1/keys/ss',
    '/api/v1/metrics/config',
    '/api/events/bulk',
  ])
    expect(paths, path).toContain(path)
  const failed = proxy.calls
    .filter((c) => c.status < 200 || c.status > 299)
    .map((c) => `${c.method} ${c.path} ${c.status}`)
  expect(failed).toEqual([])
})

it('stores each impression the SDK sent exactly once, with the treatment it returned, in each mode', async () => {
  // What the SDK sent, by impression: flag, key, treatment, time, mode (from its header).
  const sent = new Map<string, number>()
  for (const call of posted('/api/testImpressions/bulk')) {
    const mode = String(call.headers['splitsdkimpressionsmode'])
    for (const group of JSON.parse(call.body) as { f: string; i: { k: string; t: string; m: number }[] }[]) {
      for (const i of group.i) {
        const id = `${group.f}|${i.k}|${i.t}|${i.m}|${mode}`
        sent.set(id, (sent.get(id) ?? 0) + 1)
      }
    }
  }
  const total = [...sent.values()].reduce((a, b) => a + b, 0)
  expect(total).toBeGreaterThanOrEqual(KEYS * EVALUATIONS + KEYS)
  const stored = async () =>
    t.query<{ id: string; n: string }>(
      `SELECT concat(flag, '|', key, '|', treatment, '|', toString(time_ms), '|', impressions_mode) AS id, count() AS n
       FROM {db}.impressions WHERE environment_id = '${environmentId}' GROUP BY id`,
    )
  await waitFor(
    `${total} impressions stored`,
    async () => ((await stored()).reduce((n, r) => n + Number(r.n), 0) >= total ? true : undefined),
    120_000,
  )
  const rows = await stored()
  expect(new Map(rows.map((r) => [r.id, Number(r.n)]))).toEqual(sent)

  // And what that means, mode by mode: DEBUG sends every evaluation, OPTIMIZED the first of each
  // key in the hour, NONE none; each with the treatment the SDK returned to the caller.
  const perKey = await t.query<{ mode: string; key: string; treatments: string[]; n: string }>(
    `SELECT impressions_mode AS mode, key, groupUniqArray(treatment) AS treatments, count() AS n
     FROM {db}.impressions WHERE environment_id = '${environmentId}' GROUP BY mode, key`,
  )
  for (const mode of ['DEBUG', 'OPTIMIZED']) {
    const keys = perKey.filter((r) => r.mode === mode)
    expect(keys).toHaveLength(KEYS)
    for (const r of keys) expect(r.treatments).toEqual([returned.get(mode)!.get(r.key)])
    const times = [...sent.keys()].filter((id) => id.endsWith(`|${mode}`)).map((id) => Number(id.split('|')[3]))
    const oneHour = Math.floor(Math.min(...times) / 3_600_000) === Math.floor(Math.max(...times) / 3_600_000)
    if (mode === 'DEBUG') for (const r of keys) expect(Number(r.n)).toBe(EVALUATIONS)
    else if (oneHour) for (const r of keys) expect(Number(r.n)).toBe(1)
  }
  expect(perKey.filter((r) => r.mode === 'NONE')).toEqual([])
  const both = new Set([...returned.get('DEBUG')!.values()])
  expect(both).toEqual(new Set(['on', 'off']))
  expect(await t.count('impression_rejections')).toBe(0)
})

it('stores the counts and unique keys the SDK sent exactly once', async () => {
  const sentCounts = new Map<string, number>()
  for (const call of posted('/api/testImpressions/count')) {
    for (const c of (JSON.parse(call.body) as { pf: { f: string; m: number; rc: number }[] }).pf)
      sentCounts.set(c.f, (sentCounts.get(c.f) ?? 0) + c.rc)
  }
  // OPTIMIZED counts the evaluations it did not send; NONE counts all of them.
  expect(sentCounts.get(flagOf('NONE'))).toBe(KEYS * EVALUATIONS)
  expect(sentCounts.get(flagOf('OPTIMIZED'))).toBeGreaterThanOrEqual(KEYS * (EVALUATIONS - 1) - 10)
  const counts = async () =>
    t.query<{ flag: string; n: string }>(
      `SELECT flag, sum(count) AS n FROM {db}.impression_counts WHERE environment_id = '${environmentId}' GROUP BY flag`,
    )
  await waitFor(
    'the counts stored',
    async () => ((await counts()).length === sentCounts.size ? true : undefined),
    60_000,
  )
  expect(new Map((await counts()).map((r) => [r.flag, Number(r.n)]))).toEqual(sentCounts)

  const sentKeys = posted('/api/v1/keys/ss').flatMap((call) =>
    (JSON.parse(call.body) as { keys: { f: string; ks: string[] }[] }).keys.flatMap((e) =>
      e.ks.map((k) => `${e.f}|${k}`),
    ),
  )
  expect(new Set(sentKeys.filter((id) => id.startsWith(`${flagOf('NONE')}|`))).size).toBe(KEYS)
  const keys = async () =>
    t.query<{ id: string }>(
      `SELECT concat(flag, '|', key) AS id FROM {db}.unique_keys WHERE environment_id = '${environmentId}'`,
    )
  await waitFor(
    'the unique keys stored',
    async () => ((await keys()).length >= sentKeys.length ? true : undefined),
    60_000,
  )
  expect((await keys()).map((r) => r.id).sort()).toEqual([...sentKeys].sort())
})

it('stores the events and the telemetry the SDK sent', async () => {
  for (const mode of MODES) {
    const where = `environment_id = '${environmentId}' AND event_type = 'converted_${mode.toLowerCase()}'`
    await waitFor(`${mode} events`, async () => ((await t.count('events', where)) >= KEYS ? true : undefined), 60_000)
    expect(await t.count('events', where)).toBe(KEYS)
  }
  const telemetry = [...posted('/api/v1/metrics/config'), ...posted('/api/v1/metrics/usage')]
  const rows = async () =>
    t.query<{ kind: string; impressions_mode: string; sdk_version: string }>(
      `SELECT kind, impressions_mode, sdk_version FROM {db}.sdk_telemetry WHERE environment_id = '${environmentId}'`,
    )
  await waitFor(
    'the telemetry stored',
    async () => ((await rows()).length >= telemetry.length ? true : undefined),
    60_000,
  )
  const stored = await rows()
  expect(stored).toHaveLength(telemetry.length)
  // One config per factory, with its impressions mode, from the SDK's version header.
  expect(
    stored
      .filter((r) => r.kind === 'config')
      .map((r) => r.impressions_mode)
      .sort(),
  ).toEqual(['DEBUG', 'NONE', 'OPTIMIZED'])
  for (const r of stored) expect(r.sdk_version).toMatch(/^nodejs-11\./)
  console.log(
    `split node sdk, impressions: ${proxy.calls.length} calls (${[...new Set(proxy.calls.map((c) => c.path))].join(', ')}), all 2xx; ${stored.length} telemetry bodies`,
  )
})

it('gives experiment results for the flags the SDK evaluated: its treatments, the keys it exposed, the values it tracked', async () => {
  for (const mode of ['DEBUG', 'OPTIMIZED'] as const) {
    const metric = await fetch(`${service.url}/api/v1/workspaces/${workspaceId}/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `value ${mode}`,
        trafficType: 'user',
        eventTypeId: `converted_${mode.toLowerCase()}`,
        type: 'sum_per_key',
        desiredDirection: 'increase',
      }),
    })
    expect(metric.status).toBe(201)
    const { id } = (await metric.json()) as { id: string }
    const query = `metrics=${id}&from=${started - 60_000}&to=${Date.now() + 60_000}`
    const res = await fetch(
      `${service.url}/api/v1/environments/${environmentId}/experiments/${flagOf(mode)}/results?${query}`,
      { headers: { authorization: `Bearer ${adminKey}` } },
    )
    const body = (await res.json()) as {
      exposure: { keys: number; perTreatment: Record<string, number>; excludedKeys: number }
      metrics: { perTreatment: Record<string, { keys: number; sum: number }> }[]
    }
    expect(res.status, JSON.stringify(body)).toBe(200)
    // Each key's treatment as the SDK returned it, and the value it tracked (k for user-k).
    const keys: Record<string, number> = {}
    const sums: Record<string, number> = {}
    for (const [key, treatment] of returned.get(mode)!) {
      keys[treatment] = (keys[treatment] ?? 0) + 1
      sums[treatment] = (sums[treatment] ?? 0) + Number(key.slice('user-'.length))
    }
    expect(body.exposure).toEqual({ keys: KEYS, perTreatment: keys, excludedKeys: 0 })
    for (const [treatment, n] of Object.entries(keys))
      expect(body.metrics[0]!.perTreatment[treatment]).toMatchObject({ keys: n, sum: sums[treatment] })
  }
})
