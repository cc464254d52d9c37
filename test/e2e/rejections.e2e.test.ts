// Refused records for importers, on the real stack: records the consumers refuse (a missing field, a bad timestamp,
// markup, a lone surrogate, a record of 300 KB) are grouped by reason with their counts, examples shown as the text
// received and cut to a bound, and the request ids the edge's 202 answers gave; `sluice rejections` prints the same.
// Another account's environment is a 404 and an SDK key a 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let env: string
const NOW = Date.now()

const get = async (path: string, key = demo.adminApiKey) => {
  const res = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
  return { status: res.status, body: (await res.json()) as Json }
}

const good = { eventTypeId: 'checkout', trafficTypeName: 'user', key: 'u1', timestamp: NOW }
const noType = [1, 2, 3].map((i) => ({ ...good, eventTypeId: undefined, key: `no-type-${i}` }))
const badTime = [1, 2].map((i) => ({ ...good, key: `bad-time-${i}`, timestamp: -5 }))
const markup = { ...good, eventTypeId: undefined, key: '<script>alert(1)</script><img src=x onerror=alert(2)>' }
const big = { ...good, eventTypeId: undefined, key: 'big', properties: { blob: 'x'.repeat(300_000) } }
const lone = { ...good, key: 'lone-\ud800' }
let requestIds: string[] = []

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  service = await t.start(['edge', 'admin', 'events'])
  const sdkKey = demo.environments[0]!.serverSideSdkKey
  const sent = [
    await postEvents(service.url, sdkKey, [good, ...noType, ...badTime]),
    await postEvents(service.url, sdkKey, [markup, big, lone]),
  ]
  for (const s of sent) expect(s.status, JSON.stringify(s.body)).toBe(202)
  requestIds = sent.map((s) => s.body['requestId'] as string)
  await waitFor('rows stored', async () =>
    (await t.count('events')) === 1 && (await t.count('event_rejections')) === 8 ? true : undefined,
  )
}, 120_000)
afterAll(async () => t?.close())

describe('refused records', () => {
  it('groups them by reason, most first, with examples as text, bounded, and their request ids', async () => {
    const res = await get(`/api/v1/environments/${env}/rejections`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const r = res.body
    expect(r['total']).toBe(8)
    const reasons = r['reasons'] as Json[]
    expect(reasons.map((x) => x['records'])).toEqual([5, 2, 1])
    expect(reasons[0]!['reason']).toMatch(/eventTypeId/)
    expect(reasons[1]!['reason']).toMatch(/timestamp/)
    expect(reasons[2]!['reason']).toMatch(/lone UTF-16 surrogate/)
    const examples = reasons.flatMap((x) => x['examples'] as Json[])
    expect(examples).toHaveLength(8)
    for (const e of examples) {
      expect((e['raw'] as string).isWellFormed()).toBe(true)
      expect(requestIds).toContain(e['requestId'])
      expect(Date.parse(e['receivedAt'])).toBeGreaterThan(NOW - 60_000)
      expect(e['raw'].length).toBeLessThanOrEqual(2048)
    }
    // The record as received, as text: markup stays text, a 300 KB record is cut and says so.
    const shown = examples.find((e) => e['raw'].includes('<script>'))!
    expect(JSON.parse(shown['raw'])).toMatchObject({ key: markup.key })
    expect(shown['truncated']).toBe(false)
    const cut = examples.find((e) => e['raw'].includes('"big"'))!
    expect(cut).toMatchObject({ truncated: true })
    // The consumer keeps 256 Ki characters of a refused record; the answer shows the first 2,048 of those.
    expect(cut['rawBytes']).toBe(256 * 1024)
    expect(cut['raw']).toHaveLength(2048)
    // A window without them, and impressions, which had none.
    expect((await get(`/api/v1/environments/${env}/rejections?to=${NOW - 3600_000}`)).body['total']).toBe(0)
    expect((await get(`/api/v1/environments/${env}/rejections?kind=impressions`)).body).toMatchObject({
      kind: 'impressions',
      total: 0,
      reasons: [],
    })
  })

  it('`sluice rejections` prints the same, as a table or as the document', async () => {
    const json = await runSluice(['rejections', '--environment', env, '--json'], t.env)
    expect(json.code, json.stderr).toBe(0)
    const api = (
      await get(
        `/api/v1/environments/${env}/rejections?from=${JSON.parse(json.stdout)['from']}&to=${JSON.parse(json.stdout)['to']}`,
      )
    ).body
    // The same document; which records of a reason are its examples is up to the engine (any 5 of them).
    const withoutExamples = (d: Json) => ({
      ...d,
      reasons: (d['reasons'] as Json[]).map(({ examples, ...rest }) => ({ ...rest, examples: examples.length })),
    })
    expect(withoutExamples(JSON.parse(json.stdout) as Json)).toEqual(withoutExamples(api))
    const table = await runSluice(['rejections', '--environment', env], t.env)
    expect(table.stdout).toMatch(/^8 events refused/m)
    expect(table.stdout).toMatch(/^\s+5 {2}.*eventTypeId/m)
  })

  it('answers 400 for a bad window, 404 for an environment of another account, 401 for an SDK key', async () => {
    const bad = await get(`/api/v1/environments/${env}/rejections?from=2026-02-30`)
    expect(bad.status).toBe(400)
    expect(bad.body['details']).toEqual([expect.objectContaining({ field: 'from' })])
    expect((await get(`/api/v1/environments/${env}/rejections?from=0&to=${NOW}`)).status).toBe(400)
    const other = await t.tenancy.createAccount('other')
    const ws = await t.tenancy.createWorkspace(other.id, 'Other')
    const otherEnv = await t.tenancy.createEnvironment(ws.id, 'Prod')
    expect((await get(`/api/v1/environments/${otherEnv.id}/rejections`)).status).toBe(404)
    expect((await get(`/api/v1/environments/${env}/rejections`, demo.environments[0]!.serverSideSdkKey)).status).toBe(
      401,
    )
  })
})
