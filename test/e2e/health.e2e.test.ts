// The ingestion health of an environment on the real stack: records received and refused in the current minute as
// the test sent them, the top reason, the last event, the consumers' lag from Kafka, and the SDKs talking to it with
// their impressions mode, taken from the SplitSDKImpressionsMode header where an SDK sends it and else from its config
// telemetry, with a missing iM read as 0, as measured with the real SDKs: Python 10.7.0 sends iM 2 in every mode,
// Java 4.18.2 sends 1 for DEBUG, and Go 6.10.0 leaves iM out when it is 0 (OPTIMIZED).
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let env: string

const get = async (path: string, key = demo.adminApiKey) => {
  const res = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
  return { status: res.status, body: (await res.json()) as Json }
}

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  service = await t.start(['edge', 'admin', 'events'])
  const sdkKey = demo.environments[0]!.serverSideSdkKey
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sdkKey}`, ...headers },
      body: JSON.stringify(body),
    })
  const now = Date.now()
  const events = [1, 2, 3].map((i) => ({ eventTypeId: 'e', trafficTypeName: 'user', key: `k${i}`, timestamp: now }))
  const sent = [
    await postEvents(service.url, sdkKey, [...events, { trafficTypeName: 'user', key: 'x', timestamp: now }], {
      SplitSDKVersion: 'nodejs-10.28.0',
    }),
  ]
  expect(sent[0]!.status).toBe(202)
  const python = { SplitSDKVersion: 'python-10.7.0' }
  const answers = [
    // Python: iM 2 whatever its mode; its impressions' header says OPTIMIZED.
    await post('/api/v1/metrics/config', { oM: 0, sT: 'memory', iM: 2 }, python),
    await post(
      '/api/testImpressions/bulk',
      [{ f: 'flag', i: [1, 2].map((i) => ({ k: `k${i}`, t: 'on', m: now, c: 1, r: 'r' })) }],
      { ...python, SplitSDKImpressionsMode: 'OPTIMIZED' },
    ),
    // Java in DEBUG: iM 1, no impressions yet. Go in OPTIMIZED: iM left out.
    await post('/api/v1/metrics/config', { oM: 0, st: 'memory', iM: 1 }, { SplitSDKVersion: 'java-4.18.2' }),
    await post('/api/v1/metrics/config', { oM: 0, st: 'memory' }, { SplitSDKVersion: 'go-6.10.0' }),
  ]
  for (const a of answers) expect(a.status).toBe(202)
  await waitFor('rows stored', async () =>
    (await t.count('events')) === 3 &&
    (await t.count('event_rejections')) === 1 &&
    (await t.count('impressions')) === 2 &&
    (await t.count('sdk_telemetry')) === 3
      ? true
      : undefined,
  )
}, 120_000)
afterAll(async () => t?.close())

it('counts what arrived and what was refused per minute, with the top reason and the last event', async () => {
  const res = await get(`/api/v1/environments/${env}/health`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const h = res.body
  expect(h['minutes']).toHaveLength(60)
  const total = (field: string) => (h['minutes'] as Json[]).reduce((n, m) => n + (m[field] as number), 0)
  expect([total('events'), total('refusedEvents'), total('impressions'), total('refusedImpressions')]).toEqual([
    3, 1, 2, 0,
  ])
  // Oldest first, a minute apart, the last one now.
  const minutes = (h['minutes'] as Json[]).map((m) => Date.parse(m['minute']))
  expect(minutes[59]! - minutes[0]!).toBe(59 * 60_000)
  expect(Date.now() - minutes[59]!).toBeLessThan(120_000)
  expect(h['topReasons']).toEqual([{ kind: 'events', reason: expect.stringMatching(/eventTypeId/), records: 1 }])
  expect(Date.now() - Date.parse(h['lastEventAt'])).toBeLessThan(120_000)
  expect(Date.parse(h['lastImpressionAt'])).toBeGreaterThan(0)
})

it('names each SDK with its impressions mode and where the mode came from: the header first, then iM (missing: 0)', async () => {
  const sdks = (await get(`/api/v1/environments/${env}/health`)).body['sdks'] as Json[]
  const of = (v: string) => sdks.find((s) => s['sdkVersion'] === v)
  expect(of('python-10.7.0')).toMatchObject({
    impressionsMode: 'OPTIMIZED',
    modeSource: 'header',
    sends: expect.arrayContaining(['impressions', 'telemetry']),
  })
  expect(of('java-4.18.2')).toMatchObject({ impressionsMode: 'DEBUG', modeSource: 'telemetry', sends: ['telemetry'] })
  expect(of('go-6.10.0')).toMatchObject({ impressionsMode: 'OPTIMIZED', modeSource: 'telemetry' })
  expect(of('nodejs-10.28.0')).toMatchObject({ impressionsMode: null, modeSource: null, sends: ['events'] })
})

it("reports the consumers' lag from Kafka, reaching 0 once all is stored", async () => {
  await waitFor('no lag', async () => {
    const lag = (await get(`/api/v1/environments/${env}/health`)).body['consumerLag'] as Json | null
    return lag && lag['events'] === 0 && lag['impressions'] === 0 ? true : undefined
  })
})

it('answers 404 for another account and 401 for an SDK key', async () => {
  const other = await t.tenancy.createAccount('other')
  const ws = await t.tenancy.createWorkspace(other.id, 'Other')
  const otherEnv = await t.tenancy.createEnvironment(ws.id, 'Prod')
  expect((await get(`/api/v1/environments/${otherEnv.id}/health`)).status).toBe(404)
  expect((await get(`/api/v1/environments/${env}/health`, demo.environments[0]!.serverSideSdkKey)).status).toBe(401)
})
