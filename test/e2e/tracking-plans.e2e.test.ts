// Tracking plans on the real stack. Split's own Node SDK sends the same mix of planned and violating events under a
// plan in each mode (observe, block, strip): what is stored, stripped, refused and reported is counted exactly, and the
// catalogue, the violations and the rejections agree. A plan proposed from ten event types of generated traffic passes
// that traffic and flags a changed type at once. Hostile plans are refused fast, naming the place; a stale save is a
// 409.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SplitFactory } from '@splitsoftware/splitio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'
import { sdkApiStub } from '../support/split-sdk.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let stub: Awaited<ReturnType<typeof sdkApiStub>>
let demo: DemoAccount
/** How often the consumers check a plan's version (SLUICE_INTEGRATION_REFRESH_MS). */
const REFRESH_MS = 100

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  service = await t.start(['edge', 'events', 'admin'], { SLUICE_INTEGRATION_REFRESH_MS: String(REFRESH_MS) })
  stub = await sdkApiStub([])
}, 120_000)

afterAll(async () => {
  await stub?.close()
  await t?.close()
})

async function call(method: string, path: string, body?: unknown, key = demo.adminApiKey) {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json()) as Json }
}

/** Saves a plan on the version now, and waits until every consumer's cache must have checked it. */
async function savePlan(env: string, plan: unknown): Promise<number> {
  const now = await call('GET', `/api/v1/environments/${env}/tracking-plan`)
  const baseVersion = now.status === 404 ? 0 : (now.body['version'] as number)
  const saved = await call('PUT', `/api/v1/environments/${env}/tracking-plan`, { plan, baseVersion })
  expect(saved.status, JSON.stringify(saved.body)).toBe(200)
  await new Promise((r) => setTimeout(r, 3 * REFRESH_MS))
  return saved.body['version'] as number
}

const count = async (table: string, where: string) =>
  Number((await t.query<{ n: string }>(`SELECT count() AS n FROM {db}.${table} WHERE ${where}`))[0]!.n)

const plan = {
  mode: 'observe',
  unplannedEvents: 'violation',
  unplannedProperties: 'violation',
  events: {
    checkout: {
      owner: 'payments',
      description: 'a completed checkout; the value is its amount',
      value: { required: true, minimum: 0 },
      properties: {
        plan: { type: 'string', enum: ['free', 'pro'], required: true },
        seats: { type: 'integer', minimum: 1 },
      },
    },
    page_view: { properties: { path: { type: 'string', pattern: '^/', required: true } } },
  },
}

/** The same mix in every mode: [events, key prefix, event type, value, properties, the rules each breaks]. */
const MIX: [number, string, string, number | undefined, Record<string, unknown>, string[]][] = [
  [20, 'good', 'checkout', 10, { plan: 'pro', seats: 2 }, []],
  [7, 'type', 'checkout', 10, { plan: 3, seats: 2 }, ['wrong_type', 'not_in_enum']],
  [5, 'missing', 'checkout', undefined, { seats: 1 }, ['required']],
  [6, 'extra', 'checkout', 5, { plan: 'free', seats: 1, coupon: 'SPRING' }, ['unplanned_property']],
  [4, 'signup', 'signup', undefined, { source: 'ad' }, ['unplanned_event']],
  [8, 'view', 'page_view', undefined, { path: '/home' }, []],
  [3, 'badpath', 'page_view', undefined, { path: 'home' }, ['pattern']],
]
const SENT = MIX.reduce((a, [n]) => a + n, 0)
const VIOLATING = MIX.reduce((a, [n, , , , , rules]) => a + (rules.length > 0 ? n : 0), 0)

async function sendMix(env: DemoAccount['environments'][number], phase: string): Promise<void> {
  const factory = SplitFactory({
    core: { authorizationKey: env.serverSideSdkKey },
    urls: { sdk: stub.url, auth: stub.url, telemetry: `${service.url}/api`, events: `${service.url}/api` },
    streamingEnabled: false,
    debug: false,
  })
  const client = factory.client()
  await client.ready()
  for (const [n, prefix, type, value, properties] of MIX)
    for (let i = 0; i < n; i++)
      expect(client.track(`${phase}-${prefix}-${i}`, 'user', type, value, properties as SplitIO.Properties)).toBe(true)
  await client.destroy()
  await waitFor(
    `the ${phase} events stored or refused`,
    async () => {
      const where = `environment_id = '${env.id}'`
      const stored = await count('events', `${where} AND startsWith(key, '${phase}-')`)
      const refused = await count('event_rejections', `${where} AND position(raw, '"${phase}-') > 0`)
      return stored + refused === SENT ? true : undefined
    },
    60_000,
  )
}

describe('each mode with Split’s Node SDK', () => {
  it('observe stores everything and reports; block refuses the violating events naming the rule; strip drops unplanned properties', async () => {
    const env = demo.environments[0]!
    const where = `environment_id = '${env.id}'`
    const phase = (p: string) => `${where} AND startsWith(key, '${p}-')`
    const outcomes = async (p: string) =>
      Object.fromEntries(
        (
          await t.query<{ outcome: string; n: string }>(
            `SELECT outcome, count() AS n FROM {db}.event_violations WHERE ${phase(p)} GROUP BY outcome`,
          )
        ).map((r) => [r.outcome, Number(r.n)]),
      )

    const v1 = await savePlan(env.id, plan)
    await sendMix(env, 'observe')
    await waitFor('observe reports', async () =>
      (await count('event_violations', phase('observe'))) === VIOLATING ? true : undefined,
    )
    expect(await count('events', phase('observe'))).toBe(SENT)
    expect(await outcomes('observe')).toEqual({ stored: VIOLATING })
    // Each report names exactly the rules its event broke.
    for (const [, prefix, , , , rules] of MIX) {
      const rows = await t.query<{ rules: string; v: number; mode: string }>(
        `SELECT rules, plan_version AS v, mode FROM {db}.event_violations WHERE ${phase(`observe-${prefix}`)}`,
      )
      for (const r of rows) expect(r).toEqual({ rules: rules.join(','), v: v1, mode: 'observe' })
    }

    const v2 = await savePlan(env.id, { ...plan, mode: 'block' })
    expect(v2).toBe(v1 + 1)
    await sendMix(env, 'block')
    await waitFor('block reports', async () =>
      (await count('event_violations', phase('block'))) === VIOLATING ? true : undefined,
    )
    expect(await count('events', phase('block'))).toBe(SENT - VIOLATING)
    expect(await outcomes('block')).toEqual({ refused: VIOLATING })
    const refusals = await t.query<{ reason: string; raw: string }>(
      `SELECT reason, raw FROM {db}.event_rejections WHERE ${where} AND position(raw, '"block-') > 0 ORDER BY reason`,
    )
    expect(refusals).toHaveLength(VIOLATING)
    for (const r of refusals) expect(r.reason).toMatch(new RegExp(`^tracking plan v${v2}: `))
    const extra = refusals.find((r) => r.raw.includes('"block-extra-'))!
    expect(extra.reason).toBe(`tracking plan v${v2}: properties.coupon is not in the plan`)
    // The refused record is kept as received: the replay of a fixed plan needs it whole.
    expect(JSON.parse(extra.raw)).toMatchObject({ eventTypeId: 'checkout', value: 5, properties: { coupon: 'SPRING' } })
    expect(refusals.find((r) => r.raw.includes('"block-type-'))!.reason).toBe(
      `tracking plan v${v2}: properties.plan must be string (and 1 more)`,
    )

    await savePlan(env.id, { ...plan, mode: 'strip' })
    await sendMix(env, 'strip')
    await waitFor('strip reports', async () =>
      (await count('event_violations', phase('strip'))) === VIOLATING ? true : undefined,
    )
    expect(await count('events', phase('strip'))).toBe(SENT)
    expect(await outcomes('strip')).toEqual({ stripped: 6, stored: VIOLATING - 6 })
    const stripped = await t.query<{ properties: string }>(
      `SELECT properties FROM {db}.events WHERE ${phase('strip-extra')}`,
    )
    expect(stripped.map((r) => JSON.parse(r.properties))).toEqual(Array(6).fill({ plan: 'free', seats: 1 }))
    // What was not planned is stored as sent in strip mode: an unplanned event type keeps its properties.
    expect(
      (await t.query<{ properties: string }>(`SELECT properties FROM {db}.events WHERE ${phase('strip-signup')}`)).map(
        (r) => JSON.parse(r.properties),
      ),
    ).toEqual(Array(4).fill({ source: 'ad' }))

    // The violations answer, the rejections and the catalogue agree with what was sent.
    const violations = await call('GET', `/api/v1/environments/${env.id}/violations`)
    expect(violations.status).toBe(200)
    expect(violations.body).toMatchObject({ total: 3 * VIOLATING, stripped: 6, refused: VIOLATING })
    const byRule: Record<string, number> = {}
    for (const g of violations.body['groups'] as Json[]) {
      byRule[g['rule']] = (byRule[g['rule']] ?? 0) + g['records']
      expect(g['sdkVersion']).toMatch(/^nodejs-/)
      for (const e of g['examples']) for (const v of e['violations']) expect(v.rule).toBe(g['rule'])
    }
    const expected: Record<string, number> = {}
    for (const [n, , , , , rules] of MIX) for (const r of rules) expected[r] = (expected[r] ?? 0) + 3 * n
    expect(byRule).toEqual(expected)
    const rejections = await call('GET', `/api/v1/environments/${env.id}/rejections`)
    expect(rejections.body['total']).toBe(VIOLATING)
    const catalogue = await call('GET', `/api/v1/environments/${env.id}/event-types`)
    const seen = Object.fromEntries((catalogue.body['eventTypes'] as Json[]).map((e) => [e['eventType'], e['last24h']]))
    const storedOf = (type: string) =>
      MIX.filter(([, , tp]) => tp === type).reduce((a, [n, , , , , rules]) => a + n * (rules.length > 0 ? 2 : 3), 0)
    expect(seen).toEqual({
      checkout: storedOf('checkout'),
      page_view: storedOf('page_view'),
      signup: storedOf('signup'),
    })

    // Every version is kept with who saved it.
    const changes = await call('GET', `/api/v1/environments/${env.id}/tracking-plan/versions`)
    expect((changes.body['changes'] as Json[]).map((c) => [c['version'], c['mode']])).toEqual([
      [v2 + 1, 'strip'],
      [v2, 'block'],
      [v1, 'observe'],
    ])
    const first = await call('GET', `/api/v1/environments/${env.id}/tracking-plan/versions/${v1}`)
    expect(first.body).toMatchObject({ version: v1, plan, savedBy: expect.stringMatching(/^key:/) })
  }, 240_000)
})

describe('a proposed plan', () => {
  it('from ten event types of generated traffic passes that traffic, and flags a changed type at once', async () => {
    const env = demo.environments[1]!
    const where = `environment_id = '${env.id}'`
    const now = Date.now()
    const traffic = (round: string) =>
      Array.from({ length: 10 }, (_, type) =>
        Array.from({ length: 30 }, (_, i) => ({
          eventTypeId: `type_${type}`,
          trafficTypeName: 'user',
          key: `${round}-${type}-${i}`,
          timestamp: now,
          ...(type % 2 === 0 && { value: i }),
          properties: {
            always: `s${i}`,
            count: i * type,
            flag: i % 2 === 0,
            ...(i % 3 === 0 && { sometimes: 'x' }),
            ...(i % 5 === 0 && { nullable: null }),
            ...(i % 5 === 1 && { nullable: 'text' }),
          },
        })),
      ).flat()
    expect((await postEvents(service.url, env.serverSideSdkKey, traffic('seen'))).status).toBe(202)
    await waitFor('seen stored', async () => ((await count('events', where)) === 300 ? true : undefined))
    const proposal = await call('GET', `/api/v1/environments/${env.id}/tracking-plan/proposal`)
    expect(proposal.status).toBe(200)
    expect(Object.keys(proposal.body['plan']['events']).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `type_${i}`),
    )
    expect(proposal.body['plan']['events']['type_0']).toEqual({
      value: { required: true },
      properties: {
        always: { type: 'string', required: true },
        count: { type: 'number', required: true },
        flag: { type: 'boolean', required: true },
        sometimes: { type: 'string' },
        nullable: { type: ['string', 'null'] },
      },
    })
    await savePlan(env.id, proposal.body['plan'])
    expect((await postEvents(service.url, env.serverSideSdkKey, traffic('again'))).status).toBe(202)
    const changed = { ...traffic('changed')[0]!, properties: { always: 7, count: 1, flag: true } }
    expect((await postEvents(service.url, env.serverSideSdkKey, [changed])).status).toBe(202)
    await waitFor('again stored', async () => ((await count('events', where)) === 601 ? true : undefined))
    const rows = await t.query<{ key: string; rules: string }>(
      `SELECT key, rules FROM {db}.event_violations WHERE ${where}`,
    )
    expect(rows).toEqual([{ key: 'changed-0-0', rules: 'wrong_type' }])
  }, 120_000)
})

describe('plans as code', () => {
  it('pull, edit, diff and push round trip; a push from a file behind the plan is refused and changes nothing', async () => {
    const env = demo.environments[1]!.id
    const dir = mkdtempSync(join(tmpdir(), 'sluice-plans-'))
    const file = join(dir, 'plan.yaml')
    const sluice = (...args: string[]) => runSluice(['plans', ...args, '--environment', env], t.env)
    const now = async () => (await call('GET', `/api/v1/environments/${env}/tracking-plan`)).body

    const pulled = await sluice('pull', file)
    expect(pulled.code, pulled.stderr).toBe(0)
    const start = (await now())['version'] as number
    const text = readFileSync(file, 'utf8')
    expect(text).toMatch(new RegExp(`^version: ${start}$`, 'm'))
    // Edited as a person edits it: the mode, and a comment that must survive a push.
    writeFileSync(file, `# owned by the data team\n${text.replace(/^  mode: observe$/m, '  mode: block')}`)
    const diff = await sluice('diff', file)
    expect(diff.stdout).toBe('1 changes:\n~ mode: "observe" → "block"\n')

    // Someone saves meanwhile: the file is behind, its push refused, the plan unchanged.
    await savePlan(env, { ...(await now())['plan'], unplannedEvents: 'allow' })
    expect((await sluice('diff', file)).stdout).toContain(
      `the plan is at version ${start + 1}, the file at ${start}: pull first`,
    )
    const stale = await sluice('push', file)
    expect(stale.code).toBe(2)
    expect(stale.stderr).toContain(`is at version ${start + 1}, not ${start}`)
    expect((await now())['version']).toBe(start + 1)

    // Pulled again, edited, pushed: saved, and the file names the new version with its comment kept.
    await sluice('pull', file)
    writeFileSync(
      file,
      `# owned by the data team\n${readFileSync(file, 'utf8').replace(/^  mode: observe$/m, '  mode: block')}`,
    )
    const pushed = await sluice('push', file)
    expect(pushed.code, pushed.stderr).toBe(0)
    expect(pushed.stdout).toContain(`saved version ${start + 2}`)
    expect(await now()).toMatchObject({ version: start + 2, plan: { mode: 'block', unplannedEvents: 'allow' } })
    expect(readFileSync(file, 'utf8')).toMatch(
      new RegExp(`^# owned by the data team\n[^]*^version: ${start + 2}$`, 'm'),
    )
    expect((await sluice('diff', file)).stdout).toBe('no changes\n')

    // A file whose plan is not a plan: refused naming the place, nothing saved.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^  mode: block$/m, '  mode: sometimes'))
    const bad = await sluice('push', file)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('plan.mode')
    expect((await now())['version']).toBe(start + 2)
  }, 150_000)
})

describe('saving a plan', () => {
  const env = () => demo.environments[1]!.id
  const put = (body: unknown) => call('PUT', `/api/v1/environments/${env()}/tracking-plan`, body)

  it('refuses a stale version, and a key that may only read', async () => {
    const current = await call('GET', `/api/v1/environments/${env()}/tracking-plan`)
    const version = current.body['version'] as number
    const stale = await put({ plan, baseVersion: version - 1 })
    expect(stale.status).toBe(409)
    expect(stale.body['message']).toContain(`is at version ${version}, not ${version - 1}`)
    expect((await call('GET', `/api/v1/environments/${env()}/tracking-plan`)).body['version']).toBe(version)
    expect((await call('GET', `/api/v1/environments/nope/tracking-plan`)).status).toBe(404)
    expect((await call('GET', `/api/v1/environments/${env()}/tracking-plan/versions/999`)).status).toBe(404)
  })

  it('refuses hostile plans fast, naming the place, and fetches nothing', async () => {
    let fetched = 0
    const server: Server = createServer((_req, res) => {
      fetched++
      res.end('{}')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as { port: number }
    const withProperty = (rule: unknown) => ({
      plan: { ...plan, events: { e: { properties: { p: rule } } } },
      baseVersion: 0,
    })
    let deep: unknown = 'x'
    for (let i = 0; i < 1000; i++) deep = [deep]
    const cases: [string, unknown, number, RegExp][] = [
      ['a backreference', withProperty({ pattern: '(a*)\\1' }), 400, /plan\.events\.e\.properties\.p\.pattern/],
      [
        'a remote $ref',
        withProperty({ $ref: `http://127.0.0.1:${port}/schema.json` }),
        400,
        /plan\.events\.e\.properties\.p\.\$ref is not a known field/,
      ],
      ['depth 1,000', withProperty({ enum: [deep] }), 400, /enum/],
      [
        'an enum of a million values',
        withProperty({ enum: Array.from({ length: 1_000_000 }, (_, i) => i) }),
        413,
        /limit/i,
      ],
      ['a 10 MB plan', withProperty({ description: 'x'.repeat(10 * 1024 * 1024) }), 413, /limit/i],
      [
        'a property named __proto__',
        `{"plan":{"mode":"observe","unplannedEvents":"allow","unplannedProperties":"allow","events":{"e":{"properties":{"__proto__":{"type":"string"}}}}},"baseVersion":0}`,
        400,
        /__proto__/,
      ],
    ]
    try {
      for (const [what, body, status, message] of cases) {
        const started = performance.now()
        const answer = await put(body)
        expect(answer.status, what).toBe(status)
        expect(JSON.stringify(answer.body), what).toMatch(message)
        expect(performance.now() - started, what).toBeLessThan(2000)
      }
      expect(fetched).toBe(0)
      // A catastrophic regex of backtracking engines is linear in RE2: it is saved, and runs within its budget.
      expect(
        (
          await put({
            ...withProperty({ pattern: '^(a+)+$' }),
            baseVersion: (await call('GET', `/api/v1/environments/${env()}/tracking-plan`)).body['version'],
          })
        ).status,
      ).toBe(200)
    } finally {
      server.close()
    }
  })
})
