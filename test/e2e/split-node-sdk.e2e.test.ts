// Split's own Node SDK (@splitsoftware/splitio) tracking 50,000 events in a burst against the edge.
// The SDK never retries events and, while one POST is in flight, keeps queueing, so its flushes are
// bodies of tens of thousands of records; every one of them must be taken. Its other endpoints
// (flag definitions, auth) come from a stub of Split's SDK API.
import { SplitFactory } from '@splitsoftware/splitio'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'
import { sdkApiStub } from '../support/split-sdk.js'

let t: TestEnv
let service: RunningService
let stub: Awaited<ReturnType<typeof sdkApiStub>>
let demo: Awaited<ReturnType<TestEnv['bootstrap']>>

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  service = await t.start(['edge', 'events'])
  // Flag definitions (none) and auth (no streaming): what the SDK needs besides Sluice.
  stub = await sdkApiStub([])
}, 120_000)

afterAll(async () => {
  await stub?.close()
  await t?.close()
})

it('every one of 50,000 events tracked in a burst by the real Node SDK is stored', async () => {
  const environment = demo.environments[0]!
  const factory = SplitFactory({
    core: { authorizationKey: environment.serverSideSdkKey },
    urls: { sdk: stub.url, auth: stub.url, telemetry: `${service.url}/api`, events: `${service.url}/api` },
    streamingEnabled: false,
    debug: false,
  })
  const client = factory.client()
  await client.ready()
  const total = 50_000
  for (let i = 0; i < total; i++) {
    expect(client.track(`user-${i % 1000}`, 'user', 'sdk_burst', i, { n: i, plan: i % 2 ? 'pro' : 'free' })).toBe(true)
  }
  await client.destroy() // flushes what is queued

  const count = async () =>
    Number(
      (
        await t.query<{ n: string }>(
          `SELECT count() AS n FROM {db}.events WHERE event_type = 'sdk_burst' AND environment_id = '${environment.id}'`,
        )
      )[0]?.n ?? 0,
    )
  await waitFor(`${total} SDK events stored`, async () => ((await count()) >= total ? true : undefined), 120_000)
  expect(await count()).toBe(total)
  const [values] = await t.query<{ lo: number; hi: number; u: string }>(
    `SELECT min(value) AS lo, max(value) AS hi, uniqExact(value) AS u FROM {db}.events WHERE event_type = 'sdk_burst' AND environment_id = '${environment.id}'`,
  )
  expect(values).toMatchObject({ lo: 0, hi: total - 1 })
  expect(Number(values!.u)).toBe(total)
  const rejected = await t.query<{ n: string }>(
    `SELECT count() AS n FROM {db}.event_rejections WHERE environment_id = '${environment.id}'`,
  )
  expect(Number(rejected[0]!.n)).toBe(0)
  // How it sent them: every request the SDK made was answered 202.
  const metrics = await (await fetch(`${service.url}/metrics`)).text()
  const answered = [
    ...metrics.matchAll(
      /sluice_http_requests_total\{route="\/api\/events\/bulk",method="POST",status_code="(\d+)"\} (\d+)/g,
    ),
  ].map((m) => [m[1], Number(m[2])])
  expect(answered.map(([status]) => status)).toEqual(['202'])
  console.log(`split node sdk: ${total} events in ${String(answered[0]?.[1])} requests, all stored`)
}, 240_000)
