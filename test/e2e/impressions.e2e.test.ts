// The SDK data routes besides events, on a real service (edge and events roles, Kafka, ClickHouse):
// every route, alias and beacon stores what it was sent, in the shapes of each Split SDK (Node, Java,
// .NET, Go, Python), with the SDK headers in columns; a bad record becomes a rejection naming its
// field beside the good ones; a body the edge cannot take is refused with the status and field that
// say why, before anything is published; a group larger than a Kafka message is split and stored once.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let key: string

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  key = demo.environments[0]!.serverSideSdkKey
  service = await t.start(['edge', 'events'])
})
afterAll(async () => t?.close())

interface Answer {
  status: number
  body: Record<string, unknown>
}

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  sdkKey: string | null = key,
): Promise<Answer> {
  const res = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(sdkKey ? { authorization: `Bearer ${sdkKey}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(text) as Record<string, unknown>
  } catch {
    parsed = { raw: text }
  }
  return { status: res.status, body: parsed }
}

const beacon = (path: string, body: unknown) => post(path, body, { 'content-type': 'text/plain;charset=UTF-8' }, null)

/** The rows of a table stored for one request, once as many as expected are there. */
async function rowsOf<T>(table: string, requestId: unknown, expected: number, order = 'source_index'): Promise<T[]> {
  return waitFor(`${expected} rows in ${table}`, async () => {
    const rows = await t.query<T>(
      `SELECT * FROM {db}.${table} WHERE request_id = '${String(requestId)}' ORDER BY ${order}`,
    )
    return rows.length === expected ? rows : undefined
  })
}

const M = 1_764_000_000_000

describe('POST /api/testImpressions/bulk', () => {
  it('stores each impression of the Node, Java, .NET and Go shapes with the SDK headers, mode upper-cased', async () => {
    const body = [
      // Node: every field, properties a JSON string.
      {
        f: 'checkout',
        i: [
          {
            k: 'node-1',
            t: 'on',
            m: M + 1,
            c: 17,
            r: 'in segment beta',
            b: 'acct-1',
            pt: M - 5000,
            properties: '{"plan":"pro"}',
          },
        ],
      },
      // Java: every key present, the absent ones null.
      {
        f: 'checkout',
        i: [{ k: 'java-1', t: 'off', m: M + 2, c: 18, r: 'default rule', b: null, pt: null, properties: null }],
      },
      // .NET: nulls omitted, never pt.
      { f: 'search', i: [{ k: 'net-1', t: 'v2', m: M + 3, c: 19, r: 'default rule' }] },
      // Go: b and pt omitted when empty, c always a number.
      { f: 'search', i: [{ k: 'go-1', t: 'v1', m: M + 4, c: 0, r: 'killed' }] },
    ]
    const res = await post('/api/testImpressions/bulk', body, {
      SplitSDKVersion: 'go-6.7.0',
      SplitSDKImpressionsMode: 'optimized',
      SplitSDKMachineIP: '10.1.2.3',
      SplitSDKMachineName: 'web-7',
    })
    expect(res).toMatchObject({ status: 202, body: { accepted: 4 } })
    const rows = await rowsOf<Record<string, unknown>>('impressions', res.body['requestId'], 4)
    expect(
      rows.map((r) => [
        r['flag'],
        r['key'],
        r['treatment'],
        r['label'],
        Number(r['change_number']),
        Number(r['time_ms']),
        Number(r['previous_time_ms']),
        r['bucketing_key'],
        r['properties'],
      ]),
    ).toEqual([
      ['checkout', 'node-1', 'on', 'in segment beta', 17, M + 1, M - 5000, 'acct-1', '{"plan":"pro"}'],
      ['checkout', 'java-1', 'off', 'default rule', 18, M + 2, 0, '', ''],
      ['search', 'net-1', 'v2', 'default rule', 19, M + 3, 0, '', ''],
      ['search', 'go-1', 'v1', 'killed', 0, M + 4, 0, '', ''],
    ])
    for (const row of rows) {
      expect(row).toMatchObject({
        environment_id: demo.environments[0]!.id,
        account_id: demo.accountId,
        sdk_version: 'go-6.7.0',
        impressions_mode: 'OPTIMIZED',
        machine_ip: '10.1.2.3',
        machine_name: 'web-7',
      })
    }
    // The DateTime column (the partition and sort key) is the impression's time, in seconds.
    const times = await t.query<{ s: string; ms: string }>(
      `SELECT toUnixTimestamp(time) AS s, time_ms AS ms FROM {db}.impressions WHERE request_id = '${String(res.body['requestId'])}'`,
    )
    for (const { s, ms } of times) expect(Number(s)).toBe(Math.floor(Number(ms) / 1000))
  })

  it('rejects each bad impression with a reason naming its field and stores the good ones beside it', async () => {
    // Raw JSON: a lone surrogate is legal JSON text but cannot be stored as UTF-8.
    const body = `[
      {"f": "checkout", "i": [
        {"k": "good-1", "t": "on", "m": ${M}},
        {"k": "no-treatment", "m": ${M}},
        {"k": "bad-time", "t": "on", "m": "yesterday"},
        {"k": "\\ud800", "t": "on", "m": ${M}},
        {"k": "good-2", "t": "off", "m": ${M}, "c": null}
      ]},
      {"f": "", "i": [{"k": "flagless", "t": "on", "m": ${M}}]},
      {"f": "checkout", "i": "not a list"}
    ]`
    const res = await post('/api/testImpressions/bulk', body, {
      SplitSDKVersion: 'java-4.13.0',
      SplitSDKImpressionsMode: 'DEBUG',
    })
    expect(res).toMatchObject({ status: 202, body: { accepted: 7 } })
    const rows = await rowsOf<{ key: string }>('impressions', res.body['requestId'], 2)
    expect(rows.map((r) => r.key)).toEqual(['good-1', 'good-2'])
    const rejections = await rowsOf<{ kind: string; reason: string; raw: string; source_index: number }>(
      'impression_rejections',
      res.body['requestId'],
      5,
    )
    expect(rejections.map((r) => [r.kind, r.reason])).toEqual([
      ['impressions', 't is required'],
      ['impressions', expect.stringMatching(/^m must be an epoch time in milliseconds/)],
      ['impressions', 'k contains a lone UTF-16 surrogate (malformed Unicode)'],
      ['impressions', expect.stringMatching(/^f must be a flag name/)],
      ['impressions', 'i must be an array of impressions'],
    ])
    expect(JSON.parse(rejections[0]!.raw)).toEqual({ f: 'checkout', k: 'no-treatment', m: M })
    // Every record has its own place: 7 in all, rows and rejections.
    const [seen] = await t.query<{ n: string }>(
      `SELECT uniqExact(source_index) AS n FROM (SELECT source_index FROM {db}.impressions WHERE request_id = '${String(res.body['requestId'])}' UNION ALL SELECT source_index FROM {db}.impression_rejections WHERE request_id = '${String(res.body['requestId'])}')`,
    )
    expect(Number(seen!.n)).toBe(7)
  })

  it('splits a group larger than a Kafka message and stores each of its impressions once', async () => {
    const filler = 'p'.repeat(300)
    const group = {
      f: 'big_flag',
      i: Array.from({ length: 12_000 }, (_, n) => ({
        k: `big-${n}`,
        t: n % 2 ? 'on' : 'off',
        m: M + n,
        c: 1,
        r: 'default rule',
        properties: JSON.stringify({ filler, n }),
      })),
    }
    const json = JSON.stringify([group])
    expect(json.length).toBeGreaterThan(4 * 768 * 1024)
    const res = await post('/api/testImpressions/bulk', json)
    expect(res).toMatchObject({ status: 202, body: { accepted: 12_000 } })
    const where = `request_id = '${String(res.body['requestId'])}'`
    await waitFor(
      '12,000 impressions',
      async () => ((await t.count('impressions', where)) === 12_000 ? true : undefined),
      60_000,
    )
    const [stats] = await t.query<{ messages: string; keys: string; on: string }>(
      `SELECT uniqExact(source_offset) AS messages, uniqExact(key) AS keys, countIf(treatment = 'on') AS on FROM {db}.impressions WHERE ${where}`,
    )
    expect(Number(stats!.messages)).toBeGreaterThanOrEqual(4)
    expect(Number(stats!.keys)).toBe(12_000)
    expect(Number(stats!.on)).toBe(6_000)
  })
})

describe('counts, unique keys and telemetry', () => {
  it('stores impression counts per flag and hour', async () => {
    const hour = Math.floor(M / 3_600_000) * 3_600_000
    const res = await post(
      '/api/testImpressions/count',
      {
        pf: [
          { f: 'checkout', m: hour, rc: 42 },
          { f: 'search', m: hour, rc: 7 },
          { f: 'search', m: hour, rc: -1 },
        ],
      },
      { SplitSDKImpressionsMode: 'OPTIMIZED' },
    )
    expect(res).toMatchObject({ status: 202, body: { accepted: 3 } })
    const rows = await rowsOf<{ flag: string; hour_ms: string; count: string; impressions_mode: string }>(
      'impression_counts',
      res.body['requestId'],
      2,
    )
    expect(rows.map((r) => [r.flag, Number(r.hour_ms), Number(r.count), r.impressions_mode])).toEqual([
      ['checkout', hour, 42, 'OPTIMIZED'],
      ['search', hour, 7, 'OPTIMIZED'],
    ])
    const [rejection] = await rowsOf<{ kind: string; reason: string }>(
      'impression_rejections',
      res.body['requestId'],
      1,
    )
    expect(rejection).toMatchObject({
      kind: 'impression_counts',
      reason: 'rc must be a count: an integer of 0 or more',
    })
  })

  it('stores unique keys of server-side and client-side SDKs, on the v1 paths and their aliases', async () => {
    const ss = await post(
      '/api/v1/keys/ss',
      {
        keys: [
          { f: 'checkout', ks: ['u1', 'u2'] },
          { f: 'search', ks: ['u1'] },
        ],
      },
      { SplitSDKImpressionsMode: 'NONE' },
    )
    const ssAlias = await post('/api/keys/ss', { keys: [{ f: 'checkout', ks: ['u3'] }] })
    const cs = await post('/api/v1/keys/cs', { keys: [{ k: 'u9', fs: ['checkout', 'search', 7] }] })
    const csAlias = await post('/api/keys/cs', { keys: [{ k: 'u10', fs: ['checkout'] }] })
    expect([ss, ssAlias, cs, csAlias].map((r) => [r.status, r.body['accepted']])).toEqual([
      [202, 3],
      [202, 1],
      [202, 3],
      [202, 1],
    ])
    const pairs = async (r: Answer, n: number) =>
      (await rowsOf<{ flag: string; key: string }>('unique_keys', r.body['requestId'], n)).map(
        (row) => `${row.flag}:${row.key}`,
      )
    expect(await pairs(ss, 3)).toEqual(['checkout:u1', 'checkout:u2', 'search:u1'])
    expect(await pairs(ssAlias, 1)).toEqual(['checkout:u3'])
    expect(await pairs(cs, 2)).toEqual(['checkout:u9', 'search:u9'])
    expect(await pairs(csAlias, 1)).toEqual(['checkout:u10'])
    const [bad] = await rowsOf<{ kind: string; reason: string }>('impression_rejections', cs.body['requestId'], 1)
    expect(bad).toMatchObject({ kind: 'unique_keys', reason: expect.stringMatching(/^fs\[2\] must be a flag name/) })
    const [day] = await t.query<{ day: string }>(
      `SELECT toString(day) AS day FROM {db}.unique_keys WHERE request_id = '${String(ss.body['requestId'])}' LIMIT 1`,
    )
    expect(day!.day).toBe(new Date().toISOString().slice(0, 10))
  })

  it('keeps telemetry bodies with their SDK, mode and storage, and counts them per SDK language and mode', async () => {
    // Node's config (iM 1 is DEBUG); Python's, which names storage sT; Java's usage on the old path.
    const config = await post(
      '/api/v1/metrics/config',
      {
        oM: 0,
        st: 'memory',
        sE: true,
        rR: { sp: 30, se: 60, im: 300, ev: 60, te: 3600 },
        iQ: 30000,
        eQ: 500,
        iM: 1,
        tR: 12,
      },
      { SplitSDKVersion: 'nodejs-11.11.2' },
    )
    const python = await post(
      '/api/v1/metrics/config',
      { oM: 0, sT: 'memory', iM: 0 },
      { SplitSDKVersion: 'python-10.2.0' },
    )
    const usage = await post(
      '/api/metrics/usage',
      { mL: { t: [0, 1, 2] }, hE: {}, iQ: 10, iDe: 2 },
      { SplitSDKVersion: 'java-4.13.0', SplitSDKImpressionsMode: 'OPTIMIZED' },
    )
    for (const r of [config, python, usage]) expect(r).toMatchObject({ status: 202, body: { accepted: 1 } })
    const [c] = await rowsOf<{
      kind: string
      impressions_mode: string
      storage: string
      operation_mode: string
      payload: string
    }>('sdk_telemetry', config.body['requestId'], 1)
    expect(c).toMatchObject({ kind: 'config', impressions_mode: 'DEBUG', storage: 'memory', operation_mode: '0' })
    expect(JSON.parse(c!.payload)).toMatchObject({ iQ: 30000, tR: 12 })
    const [p] = await rowsOf<{ impressions_mode: string; storage: string }>(
      'sdk_telemetry',
      python.body['requestId'],
      1,
    )
    expect(p).toMatchObject({ impressions_mode: 'OPTIMIZED', storage: 'memory' })
    const [u] = await rowsOf<{ kind: string; impressions_mode: string; sdk_version: string }>(
      'sdk_telemetry',
      usage.body['requestId'],
      1,
    )
    expect(u).toMatchObject({ kind: 'usage', impressions_mode: 'OPTIMIZED', sdk_version: 'java-4.13.0' })

    const metrics = await (await fetch(`${service.url}/metrics`)).text()
    expect(metrics).toMatch(/^sluice_sdk_telemetry_total\{sdk="nodejs",mode="DEBUG"\} 1$/m)
    expect(metrics).toMatch(/^sluice_sdk_telemetry_total\{sdk="python",mode="OPTIMIZED"\} 1$/m)
    expect(metrics).toMatch(/^sluice_sdk_telemetry_total\{sdk="java",mode="OPTIMIZED"\} 1$/m)
  })
})

describe("the browser SDK's beacons", () => {
  it('takes text/plain {entries, token, sdk, sim} on each beacon route and stores what it holds', async () => {
    const token = demo.environments[0]!.clientSideSdkKey
    const sdk = 'javascript-11.4.0'
    const hour = Math.floor(M / 3_600_000) * 3_600_000
    const sent = await Promise.all([
      beacon('/api/testImpressions/beacon', {
        entries: [{ f: 'checkout', i: [{ k: 'browser-1', t: 'on', m: M, c: 3, r: 'default rule' }] }],
        token,
        sdk,
        sim: 'DEBUG',
      }),
      beacon('/api/testImpressions/count/beacon', { entries: { pf: [{ f: 'checkout', m: hour, rc: 5 }] }, token, sdk }),
      beacon('/api/v1/keys/cs/beacon', {
        entries: { keys: [{ k: 'browser-2', fs: ['checkout'] }] },
        token,
        sdk,
        sim: 'NONE',
      }),
      beacon('/api/v1/metrics/usage/beacon', { entries: { iQ: 1 }, token, sdk }),
    ])
    expect(sent.map((r) => r.status)).toEqual([202, 202, 202, 202])
    const [impression] = await rowsOf<Record<string, unknown>>('impressions', sent[0].body['requestId'], 1)
    expect(impression).toMatchObject({ key: 'browser-1', treatment: 'on', sdk_version: sdk, impressions_mode: 'DEBUG' })
    const [count] = await rowsOf<Record<string, unknown>>('impression_counts', sent[1].body['requestId'], 1)
    expect(count).toMatchObject({ flag: 'checkout', count: '5', sdk_version: sdk })
    const [unique] = await rowsOf<Record<string, unknown>>('unique_keys', sent[2].body['requestId'], 1)
    expect(unique).toMatchObject({ key: 'browser-2', flag: 'checkout', impressions_mode: 'NONE' })
    const [usage] = await rowsOf<Record<string, unknown>>('sdk_telemetry', sent[3].body['requestId'], 1)
    expect(usage).toMatchObject({ kind: 'usage', sdk_version: sdk })

    const unknown = await beacon('/api/testImpressions/beacon', { entries: [], token: 'nope' })
    expect(unknown.status).toBe(401)
    const noToken = await beacon('/api/v1/keys/cs/beacon', { entries: { keys: [] } })
    expect(noToken).toMatchObject({ status: 400, body: { message: expect.stringMatching(/token/) } })
  })
})

describe('what the edge refuses, on every route, before anything is published', () => {
  const hour = Math.floor(M / 3_600_000) * 3_600_000
  /** Each route with a valid body and a body of the wrong shape (and the field the 400 names). */
  const routes: { path: string; valid: unknown; wrong: unknown; field: RegExp }[] = [
    {
      path: '/api/testImpressions/bulk',
      valid: [{ f: 'x', i: [{ k: 'k', t: 'on', m: M }] }],
      wrong: { f: 'x' },
      field: /body must be array/,
    },
    {
      path: '/api/testImpressions/count',
      valid: { pf: [{ f: 'x', m: hour, rc: 1 }] },
      wrong: { pf: 'x' },
      field: /pf must be array/,
    },
    {
      path: '/api/v1/keys/ss',
      valid: { keys: [{ f: 'x', ks: ['k'] }] },
      wrong: { keys: [1] },
      field: /keys\/0 must be object|keys\[0\] must be object/,
    },
    { path: '/api/v1/keys/cs', valid: { keys: [{ k: 'k', fs: ['x'] }] }, wrong: {}, field: /keys is required/ },
    { path: '/api/v1/metrics/config', valid: { oM: 0 }, wrong: [1], field: /body must be object/ },
    { path: '/api/v1/metrics/usage', valid: { iQ: 0 }, wrong: 'null', field: /body must be object/ },
  ]
  const deep = (inner: string) => `${'['.repeat(70)}${inner}${']'.repeat(70)}`

  it.each(routes)(
    '$path: 401 without a key, 415 for another type, 400 for hostile JSON and the wrong shape',
    async ({ path, valid, wrong, field }) => {
      expect((await post(path, valid)).status).toBe(202)
      expect(await post(path, valid, {}, null)).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
      expect(await post(path, valid, {}, demo.adminApiKey)).toMatchObject({ status: 401 })
      expect(await post(path, JSON.stringify(valid), { 'content-type': 'text/csv' })).toMatchObject({
        status: 415,
        body: { code: 'UNSUPPORTED_MEDIA_TYPE' },
      })
      const json = JSON.stringify(valid)
      // The hostile part goes where the route's records are: an extra field of the body or a record.
      const inject = (fragment: string) =>
        json.startsWith('[') ? `[{"x":${fragment}},${json.slice(1)}` : `{"x":${fragment},${json.slice(1)}`
      const hostile: [string, RegExp][] = [
        [inject(deep('1')), /nests deeper than 64 levels/],
        [inject('1e400'), /number beyond the range of a double/],
        [inject('{"__proto__":{"admin":true}}'), /forbidden key/],
        [inject('{"constructor":{"prototype":{"admin":true}}}'), /forbidden key/],
        [json.slice(0, -1), /not valid JSON/],
        ['', /empty/],
      ]
      for (const [body, message] of hostile) {
        const res = await post(path, body)
        expect(res.status, `${path} ${body.slice(0, 40)}`).toBe(400)
        expect(res.body).toMatchObject({
          code: 'BAD_REQUEST',
          message: expect.stringMatching(message),
          requestId: expect.any(String),
        })
      }
      const shaped = await post(path, wrong)
      expect(shaped.status).toBe(400)
      expect(String(shaped.body['message'])).toMatch(field)
    },
  )

  it('answers 413 above the body limit, the record limit and for one impression larger than a message', async () => {
    const tooMany = await post('/api/v1/keys/ss', {
      keys: [{ f: 'x', ks: Array.from({ length: 500_001 }, (_, n) => `k${n}`) }],
    })
    expect(tooMany).toMatchObject({
      status: 413,
      body: { message: '500001 records is above the limit of 500000 per request' },
    })
    const megabyte = 'y'.repeat(1024 * 1024)
    const tooBig = await post('/api/testImpressions/count', { pf: Array.from({ length: 11 }, () => ({ f: megabyte })) })
    expect(tooBig).toMatchObject({
      status: 413,
      body: { message: expect.stringMatching(/larger than the limit of 10485760 bytes/) },
    })
    const oneHuge = await post('/api/testImpressions/bulk', [
      { f: 'x', i: [{ k: 'k', t: 'on', m: M, properties: JSON.stringify({ megabyte }) }] },
    ])
    expect(oneHuge).toMatchObject({
      status: 413,
      body: { message: expect.stringMatching(/record 0 is \d+ bytes as JSON, above the per-record limit/) },
    })

    // Nothing of the refused bodies was stored.
    await new Promise((r) => setTimeout(r, 1000))
    expect(await t.count('unique_keys', "flag = 'x' AND key = 'k500000'")).toBe(0)
    expect(await t.count('impressions', "flag = 'x' AND length(properties) > 1000000")).toBe(0)
  })
})

describe("the analysts' page's first query", () => {
  it('counts conversions per treatment from events after each key first impression', async () => {
    const readme = readFileSync(new URL('../../docs/analysts.md', import.meta.url), 'utf8')
    const sql = /```sql\n(SELECT treatment, count\(\) AS keys[\s\S]*?)\n```/.exec(readme)?.[1]
    expect(sql).toBeDefined()
    const now = Date.now()
    const environment = demo.environments[0]!.id
    // a: on, converts after its first impression (twice, value 5 + 3); b: off, its only event came
    // before it saw the flag; c: on, no event; d: impressions of another flag only.
    const impressions = await post('/api/testImpressions/bulk', [
      {
        f: 'readme_flag',
        i: [
          { k: 'a', t: 'on', m: now - 60_000 },
          { k: 'a', t: 'on', m: now - 30_000 },
          { k: 'b', t: 'off', m: now - 60_000 },
          { k: 'c', t: 'on', m: now - 60_000 },
        ],
      },
      { f: 'other_flag', i: [{ k: 'd', t: 'on', m: now - 60_000 }] },
    ])
    const events = await postEvents(service.url, key, [
      { eventTypeId: 'checkout', trafficTypeName: 'user', key: 'a', timestamp: now - 50_000, value: 5 },
      { eventTypeId: 'checkout', trafficTypeName: 'user', key: 'a', timestamp: now - 10_000, value: 3 },
      { eventTypeId: 'checkout', trafficTypeName: 'user', key: 'b', timestamp: now - 120_000, value: 7 },
      { eventTypeId: 'checkout', trafficTypeName: 'user', key: 'd', timestamp: now - 10_000, value: 1 },
    ])
    expect([impressions.status, events.status]).toEqual([202, 202])
    await rowsOf('impressions', impressions.body['requestId'], 5)
    await waitFor('4 events', async () =>
      (await t.count('events', `request_id = '${String(events.body['requestId'])}'`)) === 4 ? true : undefined,
    )
    const query = sql!
      .replaceAll('sluice.', `${t.config.clickhouse.database}.`)
      .replaceAll('<environment id>', environment)
      .replaceAll('<flag>', 'readme_flag')
    const rows = await t.query<Record<string, unknown>>(query)
    expect(
      rows.map((r) => [
        r['treatment'],
        Number(r['keys']),
        Number(r['converted_keys']),
        Number(r['conversion_rate']),
        Number(r['value_per_key']),
      ]),
    ).toEqual([
      ['off', 1, 0, 0, 0],
      ['on', 2, 1, 0.5, 4],
    ])
  })
})
