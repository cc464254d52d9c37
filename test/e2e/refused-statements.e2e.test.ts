// A statement ClickHouse refuses, neither for its data nor for a passing state, on both paths: a
// column the operator dropped makes the results query and the events insert fail the same way
// every time. The results API answers 500 naming the query and ClickHouse's code (never 503 "retry
// later"); the events consumer holds its batch (no rejection, nothing stored), says why in /readyz
// and its metric, and does not spin. A paused ClickHouse is still a 503 (experiments.e2e.test.ts).
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { adminCaller, createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'events'])
  // What an operator might do by hand: a column Sluice reads and writes is gone.
  await t.clickhouse.command({ query: `ALTER TABLE ${t.config.clickhouse.database}.events DROP COLUMN value` })
})

afterAll(async () => {
  await t?.close()
})

const admin = adminCaller(
  () => service.url,
  () => demo.adminApiKey,
)

it('answers the results request with a 500 naming the query and the code, not a 503', async () => {
  const created = await admin(`/api/v1/workspaces/${demo.workspaceId}/metrics`, {
    method: 'POST',
    body: JSON.stringify({
      name: 'Revenue',
      trafficType: 'user',
      eventTypeId: 'purchase',
      type: 'sum_per_key',
      desiredDirection: 'increase',
    }),
  })
  expect(created.status).toBe(201)
  const metric = ((await created.json()) as { id: string }).id
  const res = await admin(
    `/api/v1/environments/${demo.environments[0]!.id}/experiments/some_flag/results?metrics=${metric}&from=2025-01-01T00:00:00Z&to=2025-01-02T00:00:00Z`,
  )
  const body = (await res.json()) as { code: string; message: string }
  expect(res.status).toBe(500)
  expect(res.headers.get('retry-after')).toBeNull()
  expect(body.code).toBe('INTERNAL')
  expect(body.message).toMatch(/^internal error: clickhouse refused the experiment results query \(code (47|16)\)/)
})

it('holds the batch of an insert the server refuses: nothing stored or rejected, the reason in /readyz and the metric, no spinning', async () => {
  const key = demo.environments[0]!.serverSideSdkKey
  const posted = await postEvents(service.url, key, [
    { eventTypeId: 'purchase', trafficTypeName: 'user', key: 'u1', timestamp: Date.now(), value: 3 },
  ])
  expect(posted.status).toBe(202)
  const detail = await waitFor('the events consumer to say why it holds its batch', async () => {
    const ready = (await (await fetch(`${service.url}/readyz`)).json()) as { checks: Record<string, string> }
    const check = ready.checks['events-consumer'] ?? ''
    return check.startsWith('stalled') ? check : undefined
  })
  expect(detail).toMatch(
    /^stalled: partition \d+ holds its batch: clickhouse refused the insert into events \(code 16\)/,
  )
  expect((await fetch(`${service.url}/readyz`)).status).toBe(503)
  const refusals = async () =>
    Number(
      /sluice_sink_errors_total\{sink="clickhouse",kind="refused"\} (\d+)/.exec(
        await (await fetch(`${service.url}/metrics`)).text(),
      )?.[1] ?? 0,
    )
  expect(await refusals()).toBe(1)
  await new Promise((r) => setTimeout(r, 3000))
  // Asked again once a minute, not in a loop: still one refusal, and nothing written anywhere.
  expect(await refusals()).toBe(1)
  expect(await t.count('events')).toBe(0)
  expect(await t.count('event_rejections')).toBe(0)
})
