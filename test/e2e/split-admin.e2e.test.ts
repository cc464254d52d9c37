// The Split Admin API v2 end to end: a real `sluice` CLI sets up accounts, workspaces, environments,
// traffic types and keys in real Redis; every call goes through HTTP to a running service.
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { isCluster } from '../../src/state/redis/client.js'
import { slotTag } from '../../src/state/redis/keys.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'
import { pageAll, splitApi } from '../support/split-api.js'

let t: TestEnv
/** What keys under a hash tag start with (the suite also runs on a Redis Cluster; with one Redis, the prefix). */
const tagged = (tag: string) => slotTag(t.config.redis.keyPrefix, isCluster(t.config.redis), tag)
let svc: RunningService
let api: ReturnType<typeof splitApi>
const ids: Record<string, string> = {}
const keys: Record<string, string> = {}

async function sluice(...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runSluice(args, t.env)
  if (code !== 0) throw new Error(`sluice ${args.join(' ')} exited ${code}: ${stderr}`)
  return stdout.trim()
}
const json = async <T>(...args: string[]) => JSON.parse(await sluice(...args, '--json')) as T
const range = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(6, '0')}`)

// (About twenty `sluice` commands, each a node process: two minutes were not enough on a loaded CI machine.)
beforeAll(async () => {
  t = await createTestEnv({ SLUICE_ADMIN_RATE_PER_SECOND: '100000', SLUICE_ADMIN_BURST: '100000' })
  svc = await t.start(['admin'])
  ids.account = (await json<{ id: string }>('accounts', 'create', 'Acme')).id
  ids.other = (await json<{ id: string }>('accounts', 'create', 'Other')).id
  ids.ws = (await json<{ id: string }>('workspaces', 'create', 'Shop', '--account', ids.account)).id
  ids.strictWs = (
    await json<{ id: string }>(
      'workspaces',
      'create',
      'Strict',
      '--account',
      ids.account,
      '--requires-title-and-comments',
    )
  ).id
  ids.otherWs = (await json<{ id: string }>('workspaces', 'create', 'Theirs', '--account', ids.other)).id
  ids.prod = (
    await json<{ id: string }>('environments', 'create', 'Production', '--workspace', ids.ws, '--production')
  ).id
  ids.stage = (await json<{ id: string }>('environments', 'create', 'Staging', '--workspace', ids.ws)).id
  ids.strictEnv = (await json<{ id: string }>('environments', 'create', 'Production', '--workspace', ids.strictWs)).id
  ids.otherEnv = (await json<{ id: string }>('environments', 'create', 'Production', '--workspace', ids.otherWs)).id
  ids.user = (await json<{ id: string }>('traffic-types', 'create', 'user', '--workspace', ids.ws)).id
  ids.strictUser = (await json<{ id: string }>('traffic-types', 'create', 'user', '--workspace', ids.strictWs)).id
  ids.otherUser = (await json<{ id: string }>('traffic-types', 'create', 'user', '--workspace', ids.otherWs)).id
  const key = async (...args: string[]) => (await json<{ key: string }>('keys', 'create', ...args)).key
  keys.admin = await key('--account', ids.account, '--name', 'ops admin')
  keys.viewer = await key('--account', ids.account, '--role', 'segment-viewer')
  keys.prodEditor = await key(
    '--account',
    ids.account,
    '--role',
    'segment-editor',
    '--workspace',
    ids.ws,
    '--environment',
    ids.prod,
    '--name',
    'prod editor',
  )
  keys.otherAdmin = await key('--account', ids.other)
  keys.stageOnly = await key('--account', ids.account, '--environment', ids.stage)
  keys.sdk = await key('--kind', 'server', '--account', ids.account, '--environment', ids.prod)
  api = splitApi(svc.url, keys.admin)
}, 300_000)

afterAll(async () => {
  await t?.close()
})

const createSegment = async (name: string, ws = ids.ws!) => {
  const res = await api.post(`/segments/ws/${ws}/trafficTypes/user`, { name, description: `about ${name}` })
  expect(res.status).toBe(200)
  return res.body
}
const activeSegment = async (name: string, env = ids.prod!, ws = ids.ws!) => {
  await createSegment(name, ws)
  expect((await api.post(`/segments/${env}/${name}`, '')).status).toBe(200)
}

describe('authentication', () => {
  it('refuses a missing key, an SDK key and a revoked key with 401 in Split error shape', async () => {
    for (const key of [undefined, keys.sdk, 'adm_not-a-key']) {
      const res = await api.get('/workspaces', { key })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({
        code: 401,
        message: expect.stringMatching(/admin API key/),
        details: null,
        transactionId: expect.any(String),
      })
    }
    const doomed = await json<{ key: string; id: string }>('keys', 'create', '--account', ids.account!)
    expect((await api.get('/workspaces', { key: doomed.key })).status).toBe(200)
    await sluice('keys', 'revoke', doomed.id)
    await waitFor(
      'revocation',
      async () => ((await api.get('/workspaces', { key: doomed.key })).status === 401 ? true : undefined),
      5000,
    )
  })

  it('accepts x-api-key as Harness-mode clients send it', async () => {
    const res = await api.get('/workspaces', { key: undefined, headers: { 'x-api-key': keys.admin! } })
    expect(res.status).toBe(200)
  })
})

describe('workspaces, environments, traffic types', () => {
  it('lists workspaces paged, echoing the effective offset and limit, with the account and scope applied', async () => {
    const all = await api.get('/workspaces')
    expect(all.body).toEqual({
      objects: [
        { name: 'Shop', type: 'workspace', id: ids.ws, requiresTitleAndComments: false },
        { name: 'Strict', type: 'workspace', id: ids.strictWs, requiresTitleAndComments: true },
      ],
      offset: 0,
      limit: 20,
      totalCount: 2,
    })
    const second = await api.get('/workspaces?limit=1&offset=1')
    expect(second.body).toMatchObject({ objects: [{ id: ids.strictWs }], offset: 1, limit: 1, totalCount: 2 })
    expect((await api.get('/workspaces?offset=5')).body).toMatchObject({ objects: [], offset: 5, totalCount: 2 })
    // Scoped to one workspace; another account sees only its own.
    expect((await api.get('/workspaces', { key: keys.prodEditor })).body).toMatchObject({
      objects: [{ id: ids.ws }],
      totalCount: 1,
    })
    expect((await api.get('/workspaces', { key: keys.otherAdmin })).body).toMatchObject({
      objects: [{ id: ids.otherWs }],
      totalCount: 1,
    })
  })

  it('refuses limits outside 1 to 200 and bad offsets, naming the parameter', async () => {
    for (const q of ['limit=0', 'limit=201', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=x']) {
      const res = await api.get(`/workspaces?${q}`)
      expect(res.status, q).toBe(400)
      expect(res.body.details[0].field).toBe(q.split('=')[0])
    }
  })

  it('pages 205 workspaces at the limit of 200', async () => {
    const acct = (await t.tenancy.createAccount('Many')).id
    for (let i = 0; i < 205; i++) await t.tenancy.createWorkspace(acct, `ws-${i}`)
    const { key } = await t.tenancy.createApiKey({ kind: 'admin', accountId: acct })
    const first = await api.get('/workspaces?limit=200', { key })
    expect(first.body.objects).toHaveLength(200)
    expect(first.body.totalCount).toBe(205)
    const { items, requests } = await pageAll(async (offset) => {
      const res = await api.get(`/workspaces?limit=200&offset=${offset}`, { key })
      return {
        items: res.body.objects as { name: string }[],
        offset: res.body.offset,
        limit: res.body.limit,
        total: res.body.totalCount,
      }
    })
    expect(requests).toBe(2)
    // Creation order; workspaces created in the same millisecond are ordered by id, the same way each time.
    expect(items.map((w) => w.name).sort()).toEqual(Array.from({ length: 205 }, (_, i) => `ws-${i}`).sort())
    const again = await api.get('/workspaces?limit=200', { key })
    expect(again.body.objects).toEqual(first.body.objects)
  })

  it('lists environments and traffic types as arrays; out of scope is 404', async () => {
    expect((await api.get(`/environments/ws/${ids.ws}`)).body).toEqual([
      { name: 'Production', id: ids.prod, production: true },
      { name: 'Staging', id: ids.stage, production: false },
    ])
    expect((await api.get(`/environments/ws/${ids.ws}`, { key: keys.prodEditor })).body).toEqual([
      { name: 'Production', id: ids.prod, production: true },
    ])
    expect((await api.get(`/trafficTypes/ws/${ids.ws}`)).body).toEqual([
      { id: ids.user, name: 'user', displayAttributeId: null },
    ])
    for (const path of [
      `/environments/ws/${ids.otherWs}`,
      `/trafficTypes/ws/${ids.otherWs}`,
      '/environments/ws/nope',
    ]) {
      const res = await api.get(path)
      expect(res.status, path).toBe(404)
      expect(res.body.code).toBe(404)
    }
    expect((await api.get(`/environments/ws/${ids.strictWs}`, { key: keys.prodEditor })).status).toBe(404)
  })

  it('restricts a key limited to environments to their workspaces as well', async () => {
    expect((await api.get('/workspaces', { key: keys.stageOnly })).body).toMatchObject({
      objects: [{ id: ids.ws }],
      totalCount: 1,
    })
    expect((await api.get(`/segments/ws/${ids.strictWs}`, { key: keys.stageOnly })).status).toBe(404)
    expect(
      (await api.post(`/segments/ws/${ids.strictWs}/trafficTypes/user`, { name: 'sneaky' }, { key: keys.stageOnly }))
        .status,
    ).toBe(404)
    expect((await api.get(`/environments/ws/${ids.ws}`, { key: keys.stageOnly })).body).toEqual([
      { name: 'Staging', id: ids.stage, production: false },
    ])
  })
})

describe('segments', () => {
  it('creates a segment, and refuses bad names, unknown workspaces or traffic types, and duplicates', async () => {
    const before = Date.now()
    const res = await api.post(`/segments/ws/${ids.ws}/trafficTypes/user`, {
      name: 'beta_users',
      description: 'early adopters',
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      name: 'beta_users',
      description: 'early adopters',
      trafficType: { id: ids.user, name: 'user' },
      creationTime: expect.any(Number),
      tags: null,
    })
    expect(res.body.creationTime).toBeGreaterThanOrEqual(before)

    const bad = await api.post(`/segments/ws/${ids.ws}/trafficTypes/user`, { name: '9 lives', description: 42 })
    expect(bad.status).toBe(400)
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['name', 'description'])
    expect(
      (await api.post(`/segments/ws/${ids.ws}/trafficTypes/user`, { description: 'x' })).body.details[0].field,
    ).toBe('name')
    expect((await api.post(`/segments/ws/${ids.ws}/trafficTypes/user`, { name: 'a'.repeat(101) })).status).toBe(400)
    expect((await api.post(`/segments/ws/nope/trafficTypes/user`, { name: 'x1' })).status).toBe(404)
    expect((await api.post(`/segments/ws/${ids.ws}/trafficTypes/account`, { name: 'x1' })).status).toBe(404)
    expect((await api.post(`/segments/ws/${ids.otherWs}/trafficTypes/user`, { name: 'x1' })).status).toBe(404)
    const dup = await api.post(`/segments/ws/${ids.ws}/trafficTypes/${ids.user}`, { name: 'beta_users' })
    expect(dup.status).toBe(409)
    expect(dup.body.message).toMatch(/already exists/)
    expect(
      (await api.post(`/segments/ws/${ids.ws}/trafficTypes/user`, { name: 'viewer_try' }, { key: keys.viewer })).status,
    ).toBe(403)
  })

  it('lists segments paged the way clients loop, and the segments active in an environment', async () => {
    const names = range(55, 'list_')
    for (const name of names) await createSegment(name, ids.strictWs)
    const { items, requests } = await pageAll(async (offset) => {
      const res = await api.get(`/segments/ws/${ids.strictWs}?limit=50&offset=${offset}`)
      return {
        items: res.body.objects as { name: string }[],
        offset: res.body.offset,
        limit: res.body.limit,
        total: res.body.totalCount,
      }
    })
    expect(requests).toBe(2)
    expect(items.map((s) => s.name)).toEqual(names)
    for (const name of names.slice(0, 3))
      expect((await api.post(`/segments/${ids.strictEnv}/${name}`, '')).status).toBe(200)
    const active = await api.get(`/segments/ws/${ids.strictWs}/environments/${ids.strictEnv}?limit=2`)
    expect(active.body).toMatchObject({ offset: 0, limit: 2, totalCount: 3 })
    expect(active.body.objects[0]).toMatchObject({
      name: names[0],
      environment: { id: ids.strictEnv, name: 'Production' },
      trafficType: { name: 'user' },
      status: 'ACTIVE',
    })
    expect((await api.get(`/segments/ws/${ids.ws}/environments/${ids.strictEnv}`)).status).toBe(404)
  })

  it('activates in an environment once: 404 for unknown environment or segment, 409 when already active', async () => {
    await createSegment('activate_me')
    const res = await api.post(`/segments/${ids.prod}/activate_me`, '')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      name: 'activate_me',
      environment: { id: ids.prod, name: 'Production' },
      trafficType: { id: ids.user, name: 'user' },
      creationTime: expect.any(Number),
    })
    expect((await api.post(`/segments/${ids.prod}/activate_me`, '')).status).toBe(409)
    expect((await api.post(`/segments/nope/activate_me`, '')).status).toBe(404)
    expect((await api.post(`/segments/${ids.prod}/no_such_segment`)).status).toBe(404)
    expect((await api.post(`/segments/${ids.otherEnv}/activate_me`, '', { key: keys.otherAdmin })).status).toBe(404)
  })

  it('uploads keys in both forms, replace=True/False/true/false, and as a CSV file', async () => {
    await activeSegment('uploads')
    const before = Date.now()
    const bare = await api.put(`/segments/${ids.prod}/uploads/upload`, ['a', 'b'])
    expect(bare.status).toBe(200)
    expect(bare.body).toMatchObject({
      name: 'uploads',
      status: 'ACTIVE',
      environment: { id: ids.prod, name: 'Production' },
      environmentURN: { type: 'Environment', id: ids.prod, name: 'Production' },
      type: 'Segment',
    })
    expect(bare.body.lastUpdateTime).toBeGreaterThanOrEqual(before)
    const keysOf = async () =>
      (await api.get(`/segments/${ids.prod}/uploads/keys?limit=200`)).body.keys.map((k: { key: string }) => k.key)
    await api.put(`/segments/${ids.prod}/uploads/uploadKeys?replace=False`, { keys: ['c', 'a'], comment: 'more' })
    expect(await keysOf()).toEqual(['a', 'b', 'c'])
    await api.put(`/segments/${ids.prod}/uploads/uploadKeys?replace=True`, {
      keys: ['x', 'y', 'x'],
      comment: 'fresh',
      title: 'reset',
    })
    expect(await keysOf()).toEqual(['x', 'y'])
    await api.put(`/segments/${ids.prod}/uploads/uploadKeys?replace=false`, { keys: ['z'] })
    await api.put(`/segments/${ids.prod}/uploads/uploadKeys?replace=true`, { keys: ['p', 'q'] })
    expect(await keysOf()).toEqual(['p', 'q'])
    expect((await api.put(`/segments/${ids.prod}/uploads/uploadKeys?replace=maybe`, { keys: ['r'] })).status).toBe(400)

    const csv = await api.call('PUT', `/segments/${ids.prod}/uploads/uploadKeys?replace=true`, {
      raw: 'key\r\nuser-1\n"user,2"\n\nuser-3\n',
      contentType: 'text/csv',
    })
    expect(csv.status).toBe(200)
    expect(await keysOf()).toEqual(['user,2', 'user-1', 'user-3'])
    await api.call('PUT', `/segments/${ids.prod}/uploads/upload`, { raw: 'user-4\nuser-1\n', contentType: 'text/csv' })
    expect(await keysOf()).toEqual(['user,2', 'user-1', 'user-3', 'user-4'])
  })

  it('refuses invalid keys and more than 10,000 keys per call, applying nothing', async () => {
    await activeSegment('limited')
    await api.put(`/segments/${ids.prod}/limited/upload`, ['keep'])
    const bad = await api.put(`/segments/${ids.prod}/limited/upload`, ['ok', 7, '', 'x'.repeat(251)])
    expect(bad.status).toBe(400)
    // The bare-array form: the body is the keys.
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['body[1]', 'body[2]', 'body[3]'])
    const badObject = await api.put(`/segments/${ids.prod}/limited/uploadKeys`, { keys: ['ok', 7] })
    expect(badObject.body.details).toEqual([{ field: 'keys[1]', problem: 'must be string' }])
    const tooMany = await api.put(`/segments/${ids.prod}/limited/uploadKeys?replace=true`, { keys: range(10_001, 'k') })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.message).toMatch(/at most 10000 keys per call/)
    const csv = await api.call('PUT', `/segments/${ids.prod}/limited/upload`, {
      raw: range(10_001, 'k').join('\n'),
      contentType: 'text/csv',
    })
    expect(csv.status).toBe(400)
    expect((await api.get(`/segments/${ids.prod}/limited/keys`)).body).toMatchObject({
      keys: [{ key: 'keep' }],
      count: 1,
    })
    expect((await api.put(`/segments/${ids.stage}/limited/upload`, ['a'])).status).toBe(404)
  })

  it('holds at most 100,000 keys, and pages through all of them at limit 200 in a stable order', async () => {
    await activeSegment('big')
    const all = range(100_000, 'user-')
    for (let i = 0; i < all.length; i += 10_000) {
      expect(
        (await api.put(`/segments/${ids.prod}/big/uploadKeys?replace=false`, { keys: all.slice(i, i + 10_000) }))
          .status,
      ).toBe(200)
    }
    const over = await api.put(`/segments/${ids.prod}/big/uploadKeys?replace=false`, { keys: ['one-more', all[0]] })
    expect(over.status).toBe(400)
    expect(over.body.message).toMatch(/at most 100000 keys/)
    // Keys already present do not count against the limit.
    expect((await api.put(`/segments/${ids.prod}/big/upload`, all.slice(0, 50))).status).toBe(200)

    const { items, requests } = await pageAll(async (offset) => {
      const res = await api.get(`/segments/${ids.prod}/big/keys?limit=200&offset=${offset}`)
      expect(res.body.openChangeRequestId).toBeNull()
      return {
        items: (res.body.keys as { key: string }[]).map((k) => k.key),
        offset: res.body.offset,
        limit: res.body.limit,
        total: res.body.count,
      }
    })
    expect(requests).toBe(500)
    expect(items).toEqual(all)
  }, 120_000)

  it('applies concurrent uploads to one segment atomically: the limit holds exactly', async () => {
    await activeSegment('contended')
    const batches = Array.from({ length: 12 }, (_, b) => range(10_000, `b${String(b).padStart(2, '0')}-`))
    const results = await Promise.all(
      batches.map((keys) => api.put(`/segments/${ids.prod}/contended/uploadKeys?replace=false`, { keys })),
    )
    const accepted = results.flatMap((r, i) => (r.status === 200 ? [i] : []))
    expect(accepted).toHaveLength(10)
    expect(results.filter((r) => r.status === 400)).toHaveLength(2)
    const stored = await t.redis.zrange(`${tagged(`w:${ids.ws}`)}segment-keys:${ids.prod}:contended`, 0, -1)
    expect(stored).toHaveLength(100_000)
    expect(stored).toEqual(accepted.flatMap((i) => batches[i]!).sort())
  }, 60_000)

  it('removes keys, reports how many, and records who, what and why in the audit log', async () => {
    await activeSegment('audited')
    await api.put(`/segments/${ids.prod}/audited/uploadKeys?replace=false`, {
      keys: ['a', 'b', 'c'],
      comment: 'initial load',
      title: 'load',
    })
    const res = await api.put(`/segments/${ids.prod}/audited/removeKeys`, {
      keys: ['a', 'b', 'not-there'],
      comment: 'customer churned',
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ code: 200, message: '2 keys were deleted', details: null, transactionId: null })
    expect((await api.get(`/segments/${ids.prod}/audited/keys`)).body.keys).toEqual([{ key: 'c' }])

    const audit = await api.get(`/segments/ws/${ids.ws}/audited/audit`)
    expect(audit.body.totalCount).toBe(4)
    expect(audit.body.objects[0]).toMatchObject({
      action: 'removeKeys',
      count: 2,
      comment: 'customer churned',
      who: { name: 'ops admin' },
      environment: { id: ids.prod, name: 'Production' },
    })
    expect(audit.body.objects[1]).toMatchObject({ action: 'upload', count: 3, comment: 'initial load', title: 'load' })
    expect(audit.body.objects.map((e: { action: string }) => e.action)).toEqual([
      'removeKeys',
      'upload',
      'activate',
      'create',
    ])
    expect(new Date(audit.body.objects[0].at).getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect((await api.get(`/segments/${ids.prod}/audited/audit?limit=1`)).body).toMatchObject({
      objects: [{ action: 'removeKeys' }],
      limit: 1,
      totalCount: 4,
    })
    const cli = JSON.parse(await sluice('segments', 'audit', ids.prod!, 'audited', '--json')) as { action: string }[]
    expect(cli.map((e) => e.action)).toEqual(['removeKeys', 'upload', 'activate', 'create'])
    // A key limited to Staging sees the workspace-level entries only, not Production's changes.
    const staged = await api.get(`/segments/ws/${ids.ws}/audited/audit`, { key: keys.stageOnly })
    expect(staged.body).toMatchObject({ totalCount: 1, objects: [{ action: 'create' }] })
  })

  it('refuses text Redis could not read back (a lone surrogate) with 400 and changes nothing', async () => {
    const res = await api.call('PUT', `/segments/${ids.prod}/audited/removeKeys`, {
      raw: '{"keys":["c"],"comment":"\\udc00"}',
    })
    expect(res.status).toBe(400)
    expect(res.body.details[0].field).toBe('comment')
    expect(
      (await api.call('PUT', `/segments/${ids.prod}/audited/upload`, { raw: '["ok","\\ud800x"]' })).body.details[0]
        .field,
    ).toBe('body[1]')
    expect((await api.get(`/segments/${ids.prod}/audited/keys`)).body.keys).toEqual([{ key: 'c' }])
    expect((await api.get(`/segments/ws/${ids.ws}/audited/audit`)).body.totalCount).toBe(4)
  })

  it('requires a title and a comment where the workspace says so', async () => {
    const name = range(1, 'list_')[0]!
    const noComment = await api.put(`/segments/${ids.strictEnv}/${name}/uploadKeys?replace=false`, { keys: ['a'] })
    expect(noComment.status).toBe(400)
    expect(noComment.body.details.map((d: { field: string }) => d.field)).toEqual(['comment', 'title'])
    expect(
      (
        await api.put(`/segments/${ids.strictEnv}/${name}/uploadKeys?replace=false`, {
          keys: ['a'],
          comment: 'why',
          title: 'what',
        })
      ).status,
    ).toBe(200)
    expect((await api.put(`/segments/${ids.strictEnv}/${name}/removeKeys`, { keys: ['a'] })).status).toBe(400)
    expect(
      (await api.put(`/segments/${ids.strictEnv}/${name}/removeKeys`, { keys: ['a'], comment: 'done' })).status,
    ).toBe(200)
  })

  it('deactivates only an empty definition: 409 with keys, 404 when not active', async () => {
    await activeSegment('short_lived')
    await api.put(`/segments/${ids.prod}/short_lived/upload`, ['k1'])
    const refused = await api.del(`/segments/${ids.prod}/short_lived`)
    expect(refused.status).toBe(409)
    expect(refused.body.message).toMatch(/still has 1 keys/)
    await api.put(`/segments/${ids.prod}/short_lived/removeKeys`, { keys: ['k1'], comment: 'empty' })
    const done = await api.del(`/segments/${ids.prod}/short_lived`)
    expect(done.status).toBe(200)
    expect(done.body).toBe(true)
    expect((await api.del(`/segments/${ids.prod}/short_lived`)).status).toBe(404)
    expect((await api.get(`/segments/${ids.prod}/short_lived/keys`)).status).toBe(404)
    expect(
      (await api.get(`/segments/ws/${ids.ws}/environments/${ids.prod}?limit=200`)).body.objects.map(
        (s: { name: string }) => s.name,
      ),
    ).not.toContain('short_lived')
  })

  it('deletes a segment with its definitions and keys in every environment', async () => {
    await activeSegment('doomed', ids.prod)
    expect((await api.post(`/segments/${ids.stage}/doomed`, '')).status).toBe(200)
    await api.put(`/segments/${ids.prod}/doomed/upload`, ['a', 'b'])
    await api.put(`/segments/${ids.stage}/doomed/upload`, ['c'])
    // A key limited to Production may not delete what lives in Staging too.
    expect((await api.del(`/segments/ws/${ids.ws}/doomed`, { key: keys.prodEditor })).status).toBe(403)
    const res = await api.del(`/segments/ws/${ids.ws}/doomed`)
    expect(res.status).toBe(200)
    expect(res.body).toBe(true)
    const p = tagged(`w:${ids.ws}`)
    expect(
      await t.redis.exists(
        `${p}segment:${ids.ws}:doomed`,
        `${p}segment-envs:${ids.ws}:doomed`,
        `${p}segment-audit:${ids.ws}:doomed`,
      ),
    ).toBe(0)
    for (const env of [ids.prod, ids.stage]) {
      expect(await t.redis.exists(`${p}segment-keys:${env}:doomed`, `${p}segment-def:${env}:doomed`)).toBe(0)
      expect(await t.redis.zscore(`${p}segment-defs:${env}`, 'doomed')).toBeNull()
    }
    expect(
      (await api.get(`/segments/ws/${ids.ws}?limit=200`)).body.objects.map((s: { name: string }) => s.name),
    ).not.toContain('doomed')
    expect((await api.del(`/segments/ws/${ids.ws}/doomed`)).status).toBe(404)
    // The name is free again, and starts empty.
    await activeSegment('doomed')
    expect((await api.get(`/segments/${ids.prod}/doomed/keys`)).body.count).toBe(0)
  })
})

describe('roles and scopes', () => {
  it('lets a viewer read but not change (403), and keeps a scoped editor inside its environment (404)', async () => {
    await activeSegment('guarded')
    expect((await api.get(`/segments/${ids.prod}/guarded/keys`, { key: keys.viewer })).status).toBe(200)
    expect((await api.get(`/segments/ws/${ids.ws}`, { key: keys.viewer })).status).toBe(200)
    for (const [method, path] of [
      ['PUT', `/segments/${ids.prod}/guarded/upload`],
      ['PUT', `/segments/${ids.prod}/guarded/removeKeys`],
      ['DELETE', `/segments/${ids.prod}/guarded`],
      ['DELETE', `/segments/ws/${ids.ws}/guarded`],
    ] as const) {
      const res = await api.call(method, path, {
        key: keys.viewer,
        body: method === 'PUT' ? { keys: ['a'] } : undefined,
      })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.body.message).toMatch(/role \(segment-viewer\)/)
    }
    expect((await api.put(`/segments/${ids.prod}/guarded/upload`, ['a'], { key: keys.prodEditor })).status).toBe(200)
    expect((await api.post(`/segments/${ids.stage}/guarded`, '', { key: keys.prodEditor })).status).toBe(404)
    expect((await api.get(`/segments/${ids.stage}/guarded/keys`, { key: keys.prodEditor })).status).toBe(404)
    expect(
      (
        await api.post(`/trafficTypes/${ids.user}/environments/${ids.prod}/identities`, [{ key: 'u' }], {
          key: keys.prodEditor,
        })
      ).status,
    ).toBe(403)
    expect((await api.get(`/segments/${ids.prod}/guarded/keys`, { key: keys.otherAdmin })).status).toBe(404)
    // Integrations belong to the whole account: only an unrestricted key with role all.
    const integrations = await fetch(`${svc.url}/api/v1/integrations`, {
      headers: { authorization: `Bearer ${keys.prodEditor}` },
    })
    expect(integrations.status).toBe(403)
  })
})

describe('identities', () => {
  const path = () => `/trafficTypes/${ids.user}/environments/${ids.prod}/identities`

  it('creates and updates in one call, returns values as strings, and lists the invalid entries in failed', async () => {
    const res = await api.post(path(), [
      { key: 'alice', values: { plan: 'pro', seats: 5, trial: false } },
      { key: 'bob', trafficTypeId: ids.user, environmentId: ids.prod, values: {} },
      { key: '', values: {} },
      { key: 'carol', values: { '1st': 'x' } },
      { key: 'erin', values: { nested: { a: 1 } } },
      { key: 'frank', environmentId: ids.stage },
      'not an object',
    ])
    expect(res.status).toBe(200)
    expect(res.body.objects).toEqual([
      {
        key: 'alice',
        trafficTypeId: ids.user,
        environmentId: ids.prod,
        organizationId: ids.account,
        values: { plan: 'pro', seats: '5', trial: 'false' },
      },
      { key: 'bob', trafficTypeId: ids.user, environmentId: ids.prod, organizationId: ids.account, values: {} },
    ])
    expect(res.body.failed.map((f: { object: unknown }) => f.object)).toEqual([
      { key: '', values: {} },
      { key: 'carol', values: { '1st': 'x' } },
      { key: 'erin', values: { nested: { a: 1 } } },
      { key: 'frank', environmentId: ids.stage },
      'not an object',
    ])
    for (const f of res.body.failed)
      expect(f).toEqual({ object: expect.anything(), status: 400, message: expect.any(String) })
    expect(res.body.failed[1].message).toMatch(/attribute id "1st"/)
    expect(res.body).toMatchObject({ metadata: null, offset: null, limit: null, count: null, total: null })

    const again = await api.post(path(), [{ key: 'alice', values: { plan: 'enterprise' } }])
    expect(again.body.objects[0].values).toEqual({ plan: 'enterprise' })
    expect((await api.get(`${path()}/alice`)).body.values).toEqual({ plan: 'enterprise' })
    const patched = await api.call('PATCH', `${path()}/alice`, { body: { values: { seats: 9 } } })
    expect(patched.body.values).toEqual({ plan: 'enterprise', seats: '9' })
    expect((await api.call('PATCH', `${path()}/nobody`, { body: { values: {} } })).status).toBe(404)
    expect((await api.del(`${path()}/alice`)).body).toBe(true)
    const long = 'k'.repeat(250)
    expect((await api.post(path(), [{ key: long, values: { a: 1 } }])).body.objects).toHaveLength(1)
    expect((await api.get(`${path()}/${long}`)).body.values).toEqual({ a: '1' })
    expect((await api.get(`${path()}/alice`)).status).toBe(404)
  })

  it('refuses a traffic type of another workspace, and a body that is not an array', async () => {
    expect(
      (await api.post(`/trafficTypes/${ids.strictUser}/environments/${ids.prod}/identities`, [{ key: 'a' }])).status,
    ).toBe(404)
    expect(
      (await api.post(`/trafficTypes/${ids.otherUser}/environments/${ids.otherEnv}/identities`, [{ key: 'a' }])).status,
    ).toBe(404)
    expect((await api.post(path(), { key: 'a' })).status).toBe(400)
  })
})

describe('limits and hostile input', () => {
  it('rate-limits per API key across processes (shared through Redis), with Retry-After and the -Org headers clients read', async () => {
    const limits = { SLUICE_ADMIN_RATE_PER_SECOND: '1', SLUICE_ADMIN_BURST: '2' }
    const [one, two] = [await t.start(['admin'], limits), await t.start(['admin'], limits)]
    // A key of its own: the limit is counted in Redis, and other tests' requests must not count.
    const { key: fresh } = await t.tenancy.createApiKey({
      kind: 'admin',
      accountId: ids.account!,
      name: 'rate limited',
    })
    const first = await splitApi(one.url, fresh).get('/workspaces')
    expect(first.status).toBe(200)
    expect(first.headers.get('x-ratelimit-remaining-org')).toBe('1')
    expect((await splitApi(two.url, fresh).get('/workspaces')).status).toBe(200)
    // The burst of 2 is spent across both processes: the third call is refused by either.
    for (const svc of [one, two]) {
      const res = await splitApi(svc.url, fresh).get('/workspaces')
      expect(res.status).toBe(429)
      expect(res.body).toMatchObject({
        code: 429,
        message: expect.stringMatching(/rate limit/),
        transactionId: expect.any(String),
      })
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(res.headers.get('x-ratelimit-reset-seconds-org')).toBe(res.headers.get('retry-after'))
      expect(res.headers.get('x-ratelimit-remaining-org')).toBe('0')
    }
    // Another key has a limit of its own.
    const { key: other } = await t.tenancy.createApiKey({ kind: 'admin', accountId: ids.account!, name: 'another' })
    expect((await splitApi(one.url, other).get('/workspaces')).status).toBe(200)
  })

  it('refuses prototype-poisoning bodies, non-JSON and unknown routes in Split shape', async () => {
    const poisoned = await api.call('POST', `/segments/ws/${ids.ws}/trafficTypes/user`, {
      raw: '{"name":"p1","__proto__":{"admin":true}}',
    })
    expect(poisoned.status).toBe(400)
    expect(poisoned.body.message).toMatch(/forbidden key/)
    expect((await api.call('POST', `/segments/ws/${ids.ws}/trafficTypes/user`, { raw: '{"name":' })).status).toBe(400)
    const unknown = await api.get('/splits/ws/x')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ code: 404, details: null })
  })
})

describe('sluice segments upload and export', () => {
  it('uploads a 25,000-key file in atomic updates and exports it back', async () => {
    await activeSegment('from_file', ids.stage)
    const keys = range(25_000, 'file-')
    const file = join(tmpdir(), `sluice-keys-${Date.now()}.csv`)
    await writeFile(file, `key\n${[...keys].reverse().join('\n')}\n`)
    const summary = await json<{ sent: number; added: number; total: number }>(
      'segments',
      'upload',
      ids.stage!,
      'from_file',
      file,
      '--comment',
      'from CRM',
    )
    expect(summary).toEqual({ sent: 25_000, added: 25_000, total: 25_000 })
    expect((await api.get(`/segments/${ids.stage}/from_file/keys?limit=1`)).body.count).toBe(25_000)
    const exported = (await sluice('segments', 'export', ids.stage!, 'from_file')).split('\n')
    expect(exported).toEqual(keys)
    const audit = (await api.get(`/segments/${ids.stage}/from_file/audit`)).body.objects
    expect(audit.slice(0, 3).map((e: { count: number; who: { id: string } }) => [e.count, e.who.id])).toEqual([
      [5_000, 'cli'],
      [10_000, 'cli'],
      [10_000, 'cli'],
    ])

    // A replace larger than one update is staged and swapped in at once.
    await writeFile(file, range(30_000, 'swap-').join('\n'))
    expect(await json('segments', 'upload', ids.stage!, 'from_file', file, '--replace')).toEqual({
      sent: 30_000,
      added: 30_000,
      total: 30_000,
    })
    expect((await api.get(`/segments/${ids.stage}/from_file/keys?limit=1`)).body).toMatchObject({
      keys: [{ key: 'swap-000000' }],
      count: 30_000,
    })
    expect(await t.keys(`${t.config.redis.keyPrefix}*segment-staging:*`)).toEqual([])
    await writeFile(file, 'only-one\n')
    expect(await json('segments', 'upload', ids.stage!, 'from_file', file, '--replace')).toEqual({
      sent: 1,
      added: 1,
      total: 1,
    })
    // 100,000 new keys on top of the one: refused before the first update.
    await writeFile(file, range(100_000, 'more-').join('\n'))
    const tooMany = await runSluice(['segments', 'upload', ids.stage!, 'from_file', file], t.env)
    expect(tooMany.code).toBe(2)
    expect(tooMany.stderr).toMatch(/would make 100001, nothing was applied/)
    expect((await api.get(`/segments/${ids.stage}/from_file/keys`)).body.count).toBe(1)
    const missing = await runSluice(['segments', 'upload', ids.stage!, 'nope', file], t.env)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/segment nope not found/)
  }, 60_000)

  it("holds the workspace's title and comment rule, as the API does", async () => {
    await activeSegment('strict_file', ids.strictEnv, ids.strictWs)
    const file = join(tmpdir(), `sluice-keys-${Date.now()}.csv`)
    await writeFile(file, 'a\nb\n')
    const refused = await runSluice(
      ['segments', 'upload', ids.strictEnv!, 'strict_file', file, '--comment', 'no title'],
      t.env,
    )
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/requires a title and a comment/)
    expect((await api.get(`/segments/${ids.strictEnv}/strict_file/keys`)).body.count).toBe(0)
    expect(
      await json(
        'segments',
        'upload',
        ids.strictEnv!,
        'strict_file',
        file,
        '--comment',
        'from CRM',
        '--title',
        'import',
      ),
    ).toEqual({ sent: 2, added: 2, total: 2 })
  })

  it('acts on the demo account only if it exists, and says so instead of creating it', async () => {
    const res = await runSluice(['workspaces', 'list'], t.env)
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/no demo account: pass --account <id>, or run `sluice bootstrap`/)
    expect(await t.redis.exists(`${tagged('admin')}demo`)).toBe(0)
  })
})
