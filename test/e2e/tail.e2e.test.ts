// The live tail on the real stack: a viewer of an environment (server-sent events) sees the events, impressions and
// refused records the consumers read, filtered by event type, key or flag; under load it is sampled and says so; an
// integration's viewer sees its webhook payloads, with the alerts made or why a payload was refused; `sluice tail`
// prints the same. Viewers are capped per process (429), a reader that falls behind is cut off, and access is the
// Data Hub's: another account's environment or integration is a 404, an SDK key a 401.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { exited, spawnSluice } from '../support/cli.js'
import { adminCaller, createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let env: string
let sdkKey: string
const call = adminCaller(
  () => service.url,
  () => demo.adminApiKey,
)

/** A viewer: the stream's messages as they come, and whether the server ended it (and why). */
class Viewer {
  readonly messages: Json[] = []
  readonly records: Json[] = []
  cut: string | undefined
  ended = false
  private readonly controller = new AbortController()

  static async open(path: string, key = demo.adminApiKey): Promise<{ status: number; viewer?: Viewer; body?: Json }> {
    const v = new Viewer()
    const res = await fetch(`${service.url}${path}`, {
      headers: { authorization: `Bearer ${key}` },
      signal: v.controller.signal,
    })
    if (res.status !== 200) return { status: res.status, body: (await res.json()) as Json }
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    void v.read(res.body!)
    // Ready once the server said so: the consumers see the watch within a second (their refresh).
    await waitFor('ready', async () => (v.ready ? true : undefined))
    await new Promise((r) => setTimeout(r, 1200))
    return { status: 200, viewer: v }
  }

  ready = false

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder()
    let text = ''
    try {
      for await (const chunk of body) {
        text += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end)
          text = text.slice(end + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event === 'ready') this.ready = true
          if (event === 'cut') this.cut = (JSON.parse(data!) as Json)['reason']
          if (event === 'message' && data) {
            const m = JSON.parse(data) as Json
            this.messages.push(m)
            this.records.push(...(m['records'] as Json[]))
          }
        }
      }
    } catch {
      // aborted
    }
    this.ended = true
  }

  close(): void {
    this.controller.abort()
  }
}

/** A tail's stream as a raw response, which a test may pause (a reader that does not read). */
const openStream = (url: string, adminKey: string) =>
  new Promise<IncomingMessage>((resolve, reject) =>
    httpRequest(url, { headers: { authorization: `Bearer ${adminKey}` } }, resolve)
      .on('error', reject)
      .end(),
  )

const event = (key: string, eventTypeId = 'checkout', extra: Json = {}) => ({
  eventTypeId,
  trafficTypeName: 'user',
  key,
  timestamp: Date.now(),
  ...extra,
})

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  sdkKey = demo.environments[0]!.serverSideSdkKey
  service = await t.start(['edge', 'admin', 'events', 'alerts'], {
    SLUICE_TAIL_VIEWERS: '3',
    SLUICE_TAIL_VIEWERS_PER_ACCOUNT: '3',
    SLUICE_TAIL_VIEWERS_PER_KEY: '3',
  })
}, 120_000)
afterAll(async () => t?.close())

describe('the live tail of an environment', () => {
  it('shows each event, impression and refused record as the consumers read it, and filters', async () => {
    const all = (await Viewer.open(`/api/v1/environments/${env}/tail`)).viewer!
    const signup = (await Viewer.open(`/api/v1/environments/${env}/tail?eventType=signup`)).viewer!
    const bob = (await Viewer.open(`/api/v1/environments/${env}/tail?key=bob`)).viewer!
    try {
      const markup = '<img src=x onerror=alert(1)>'
      const sent = await postEvents(service.url, sdkKey, [
        event('alice', 'checkout', { value: 9.5, properties: { plan: markup } }),
        event('bob', 'signup'),
        { ...event('carol'), eventTypeId: undefined },
      ])
      expect(sent.status).toBe(202)
      const impressions = await fetch(`${service.url}/api/testImpressions/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${sdkKey}` },
        body: JSON.stringify([{ f: 'new_checkout', i: [{ k: 'bob', t: 'on', m: Date.now(), c: 1, r: 'rule' }] }]),
      })
      expect(impressions.status).toBe(202)
      await waitFor('4 records', async () => (all.records.length >= 4 ? true : undefined), 10_000)
      const kinds = all.records.map((r) => `${r['kind']} ${r['key'] ?? ''}`).sort()
      expect(kinds).toEqual(['event alice', 'event bob', 'impression bob', 'refused event '])
      const alice = all.records.find((r) => r['key'] === 'alice')!
      expect(alice).toMatchObject({
        kind: 'event',
        eventType: 'checkout',
        requestId: sent.body['requestId'],
        data: { eventTypeId: 'checkout', key: 'alice', value: 9.5, properties: JSON.stringify({ plan: markup }) },
      })
      const refused = all.records.find((r) => r['kind'] === 'refused event')!
      expect(refused['data']['reason']).toMatch(/eventTypeId/)
      expect(JSON.parse(refused['data']['raw'])).toMatchObject({ key: 'carol' })
      expect(all.messages.every((m) => m['rate'] === 1)).toBe(true)
      await waitFor('filtered', async () => (bob.records.length >= 2 ? true : undefined), 10_000)
      expect(signup.records.map((r) => r['key'])).toEqual(['bob'])
      expect(bob.records.map((r) => r['kind']).sort()).toEqual(['event', 'impression'])
    } finally {
      for (const v of [all, signup, bob]) v.close()
    }
  })

  it('samples under load and says so: at most the rate per second, one in N', async () => {
    const v = (await Viewer.open(`/api/v1/environments/${env}/tail`)).viewer!
    try {
      // SLUICE_TAIL_RECORDS_PER_SECOND is 50: 2,000 events in one request are far more in a second.
      const many = Array.from({ length: 2000 }, (_, i) => event(`load-${i}`))
      expect((await postEvents(service.url, sdkKey, many)).status).toBe(202)
      await waitFor('sampled records', async () => (v.messages.some((m) => m['rate'] > 1) ? true : undefined), 15_000)
      await new Promise((r) => setTimeout(r, 1500))
      expect(v.records.length).toBeGreaterThan(0)
      expect(v.records.length).toBeLessThanOrEqual(150)
      const rate = Math.max(...v.messages.map((m) => m['rate'] as number))
      expect(rate).toBeGreaterThanOrEqual(2000 / 150)
    } finally {
      v.close()
    }
  })

  it('caps viewers per process (429) and frees a place when one leaves', async () => {
    const open = await Promise.all([1, 2, 3].map(() => Viewer.open(`/api/v1/environments/${env}/tail`)))
    expect(open.map((o) => o.status)).toEqual([200, 200, 200])
    const fourth = await Viewer.open(`/api/v1/environments/${env}/tail`)
    expect(fourth.status).toBe(429)
    expect(fourth.body!['message']).toMatch(/SLUICE_TAIL_VIEWERS/)
    open[0]!.viewer!.close()
    await waitFor('a place free', async () => {
      const again = await Viewer.open(`/api/v1/environments/${env}/tail`)
      if (again.status !== 200) return undefined
      again.viewer!.close()
      return true
    })
    for (const o of open) o.viewer?.close()
  })

  it('cuts off a reader that falls behind', async () => {
    // A stack of its own with no sampling to speak of and a small buffer, and a reader that never reads: its socket's
    // buffers fill, then the server's.
    const t2 = await createTestEnv()
    try {
      const d2 = await t2.bootstrap()
      // The server and this test share one process, busy storing the flood: the cut reader has two minutes (not 5 s)
      // to come back and read why.
      const s2 = await t2.start(['edge', 'admin', 'events'], {
        SLUICE_TAIL_RECORDS_PER_SECOND: '10000',
        SLUICE_TAIL_BUFFER_BYTES: '1024',
        SLUICE_TAIL_CUT_GRACE_MS: '120000',
      })
      const env2 = d2.environments[0]!.id
      const res = await openStream(`${s2.url}/api/v1/environments/${env2}/tail`, d2.adminApiKey)
      expect(res.statusCode).toBe(200)
      res.pause()
      // The consumer publishes only the scopes it knows are watched (it reads them once a second): a second viewer,
      // one that reads, sees a first event before the flood, so the flood surely reaches the one that does not.
      const watcher = await openStream(`${s2.url}/api/v1/environments/${env2}/tail`, d2.adminApiKey)
      let seen = ''
      watcher.setEncoding('utf8')
      watcher.on('data', (d: string) => (seen = (seen + d).slice(-100_000)))
      await waitFor(
        'a first event in the tail',
        async () => {
          if (seen.includes('"key":"probe"')) return true
          await postEvents(s2.url, d2.environments[0]!.serverSideSdkKey, [event('probe', 'checkout')])
          return seen.includes('"key":"probe"') ? true : undefined
        },
        60_000,
      )
      watcher.destroy()
      // The cut's message waits behind what the reader left unread, and the server destroys the connection if it is
      // not read within the grace: the reader comes back as soon as the server let go of it, which Redis shows (the
      // process unsubscribes the scope's channel when its last viewer is gone; the watcher left before the flood).
      const channel = `${t2.config.redis.keyPrefix}tail:env:${env2}`
      const subscribers = async () => {
        const [, n] = (await t2.redis.call('PUBSUB', 'NUMSUB', channel)) as [string, number]
        return Number(n)
      }
      expect(await subscribers()).toBe(1)
      let text = ''
      let ended: 'end' | 'close' | undefined
      res.on('error', () => undefined) // a connection destroyed by the server: seen as 'close' below
      const done = new Promise<void>((resolve) => {
        res.once('end', () => resolve(void (ended ??= 'end')))
        res.once('close', () => resolve(void (ended ??= 'close')))
      })
      // The reader comes back while the posts go on; a failure to see the cut is thrown once they are done.
      const cutOff = waitFor(
        'the reader cut off',
        async () => ((await subscribers()) === 0 ? true : undefined),
        120_000,
      ).then(
        () => {
          res.setEncoding('utf8')
          res.on('data', (d: string) => (text += d))
          res.resume()
        },
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      )
      const props = { blob: 'x'.repeat(2000) }
      for (let i = 0; i < 40; i++) {
        const batch = Array.from({ length: 500 }, (_, j) => event(`slow-${i}-${j}`, 'checkout', { properties: props }))
        expect((await postEvents(s2.url, d2.environments[0]!.serverSideSdkKey, batch)).status).toBe(202)
      }
      const failed = await cutOff
      if (failed) throw failed
      await done
      expect(ended).toBe('end')
      expect(text).toMatch(/event: cut\ndata: \{"reason":"the reader is too slow/)
    } finally {
      await t2.close()
    }
  }, 180_000)

  it('a reader that never reads is cut off and its connection closed, and the process lives on (it used to exit at the next ping: write after end)', async () => {
    const t2 = await createTestEnv()
    const port = 19641
    // A process of its own (an exit is what is looked for), pinging every 200 ms instead of 15 s.
    const child = spawnSluice(['serve', '--roles', 'edge,admin,events'], {
      ...t2.env,
      SLUICE_PORT: String(port),
      SLUICE_TAIL_RECORDS_PER_SECOND: '10000',
      SLUICE_TAIL_BUFFER_BYTES: '1024',
      SLUICE_TAIL_PING_MS: '200',
      SLUICE_TAIL_VIEWERS_PER_KEY: '1',
    })
    let stderr = ''
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    const url = `http://127.0.0.1:${port}`
    try {
      const d2 = await t2.bootstrap()
      await waitFor('serving', async () =>
        (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200 ? true : undefined,
      )
      const res = await openStream(`${url}/api/v1/environments/${d2.environments[0]!.id}/tail`, d2.adminApiKey)
      expect(res.statusCode).toBe(200)
      // Never read again: the socket's buffers fill, then the server's, and the server cuts the viewer off.
      res.pause()
      const tail = () =>
        fetch(`${url}/api/v1/environments/${d2.environments[0]!.id}/tail`, {
          headers: { authorization: `Bearer ${d2.adminApiKey}` },
        })
      const props = { blob: 'x'.repeat(2000) }
      for (let i = 0; i < 40; i++) {
        const batch = Array.from({ length: 500 }, (_, j) => event(`never-${i}-${j}`, 'checkout', { properties: props }))
        expect((await postEvents(url, d2.environments[0]!.serverSideSdkKey, batch)).status).toBe(202)
      }
      // The cut's last message cannot be read: the server closes the connection after its grace (5 s), and the key's
      // one viewer place (SLUICE_TAIL_VIEWERS_PER_KEY=1) is free again. Pings were due every 200 ms all along.
      const next = await waitFor(
        "the key's place free",
        async () => {
          const again = await tail()
          if (again.status === 200) return again
          await again.body?.cancel()
          expect(child.exitCode, stderr).toBeNull()
          return undefined
        },
        30_000,
      )
      await next.body!.cancel()
      await new Promise((r) => setTimeout(r, 1000))
      expect(child.exitCode, stderr).toBeNull()
      expect((await fetch(`${url}/healthz`)).status).toBe(200)
      expect(stderr).not.toMatch(/write after end/)
    } finally {
      child.kill('SIGTERM')
      await exited(child)
      await t2.close()
    }
  }, 120_000)

  it('caps viewers per account and per API key (429 naming the setting), so one key cannot hold the server', async () => {
    const t2 = await createTestEnv()
    try {
      const d2 = await t2.bootstrap()
      const s2 = await t2.start(['edge', 'admin'], {
        SLUICE_TAIL_VIEWERS: '10',
        SLUICE_TAIL_VIEWERS_PER_ACCOUNT: '3',
        SLUICE_TAIL_VIEWERS_PER_KEY: '2',
      })
      const envId = d2.environments[0]!.id
      const second = await t2.tenancy.createApiKey({ kind: 'admin', accountId: d2.accountId, name: 'second key' })
      const other = await t2.tenancy.createAccount('other')
      const otherWs = await t2.tenancy.createWorkspace(other.id, 'Other')
      const otherEnv = await t2.tenancy.createEnvironment(otherWs.id, 'Prod')
      const otherKey = await t2.tenancy.createApiKey({ kind: 'admin', accountId: other.id, name: 'other key' })
      const open = async (envOf: string, key: string) => {
        const res = await fetch(`${s2.url}/api/v1/environments/${envOf}/tail`, {
          headers: { authorization: `Bearer ${key}` },
        })
        return { status: res.status, res, body: res.status === 200 ? undefined : ((await res.json()) as Json) }
      }
      const held = [await open(envId, d2.adminApiKey), await open(envId, d2.adminApiKey)]
      expect(held.map((h) => h.status)).toEqual([200, 200])
      const third = await open(envId, d2.adminApiKey)
      expect(third.status).toBe(429)
      expect(third.body!['message']).toMatch(/SLUICE_TAIL_VIEWERS_PER_KEY/)
      held.push(await open(envId, second.key))
      expect(held[2]!.status).toBe(200)
      const fourth = await open(envId, second.key)
      expect(fourth.status).toBe(429)
      expect(fourth.body!['message']).toMatch(/SLUICE_TAIL_VIEWERS_PER_ACCOUNT/)
      // Another account still has its viewers.
      const theirs = await open(otherEnv.id, otherKey.key)
      expect(theirs.status).toBe(200)
      for (const h of [...held, theirs]) await h.res.body!.cancel()
      // A place is free again once a viewer leaves.
      await waitFor('a place free', async () => {
        const again = await open(envId, d2.adminApiKey)
        if (again.status !== 200) return undefined
        await again.res.body!.cancel()
        return true
      })
    } finally {
      await t2.close()
    }
  }, 120_000)

  it('answers 404 for another account, 401 for an SDK key, and 400 for a filter too long', async () => {
    const other = await t.tenancy.createAccount('other')
    const ws = await t.tenancy.createWorkspace(other.id, 'Other')
    const otherEnv = await t.tenancy.createEnvironment(ws.id, 'Prod')
    expect((await Viewer.open(`/api/v1/environments/${otherEnv.id}/tail`)).status).toBe(404)
    expect((await Viewer.open(`/api/v1/environments/${env}/tail`, sdkKey)).status).toBe(401)
    expect((await Viewer.open(`/api/v1/environments/${env}/tail?key=${'k'.repeat(251)}`)).status).toBe(400)
    expect((await Viewer.open(`/api/v1/integrations/nope/tail`)).status).toBe(404)
  })
})

describe('the live tail of an integration', () => {
  it('shows each webhook payload with the alerts it made, or why it was refused; `sluice tail` prints it', async () => {
    const created = await call('/api/v1/integrations', {
      method: 'POST',
      body: JSON.stringify({ name: 'Tail', template: 'generic' }),
    })
    expect(created.status).toBe(201)
    const integration = (await created.json()) as Json
    const v = (await Viewer.open(`/api/v1/integrations/${integration['id']}/tail`)).viewer!
    const cli = spawnSluice(
      ['tail', '--integration', integration['id'], '--account', demo.accountId, '--seconds', '20', '--json'],
      t.env,
    )
    let out = ''
    cli.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    let err = ''
    cli.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    await waitFor('cli tailing', async () => (err.includes('tailing') ? true : undefined), 20_000)
    await new Promise((r) => setTimeout(r, 1200))
    try {
      const url = new URL(String(integration['webhookUrl'])).pathname
      const post = (body: string) =>
        fetch(`${service.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      expect(
        (await post(JSON.stringify({ title: 'Disk <b>full</b>', severity: 'critical', status: 'firing' }))).status,
      ).toBe(202)
      // A severity the generic template does not know: refused.
      expect((await post(JSON.stringify({ title: 'x', severity: 'purple' }))).status).toBe(202)
      await waitFor('2 payloads', async () => (v.records.length >= 2 ? true : undefined), 10_000)
      const [ok, refused] = [
        v.records.find((r) => r['kind'] === 'payload')!,
        v.records.find((r) => r['kind'] === 'refused payload')!,
      ]
      expect(JSON.parse(ok['data']['payload'])).toMatchObject({ title: 'Disk <b>full</b>' })
      expect(ok['data']['alerts']).toEqual([expect.objectContaining({ status: expect.any(String) })])
      expect(refused['data']['reason']).toMatch(/severity "purple" is not one of/)
      expect(refused['data']['alerts']).toEqual([])
      await waitFor('cli printed', async () => (out.includes('Disk <b>full</b>') ? true : undefined), 10_000)
      // The refused payload is also among the integration's refused payloads, by reason, shown as text.
      const rejections = await waitFor('the refused payload listed', async () => {
        const r = (await (await call(`/api/v1/integrations/${integration['id']}/rejections`)).json()) as Json
        return (r['reasons'] as Json[]).length > 0 ? (r['reasons'] as Json[]) : undefined
      })
      expect(rejections).toEqual([
        {
          reason: expect.stringMatching(/severity "purple" is not one of/),
          records: 1,
          lastAt: expect.any(String),
          examples: [
            {
              payload: JSON.stringify({ title: 'x', severity: 'purple' }),
              truncated: false,
              requestId: expect.any(String),
              receivedAt: expect.any(String),
            },
          ],
        },
      ])
    } finally {
      v.close()
      cli.kill('SIGINT')
    }
  })

  it('`sluice tail` of an environment prints its events as lines, filtered', async () => {
    const cli = spawnSluice(['tail', '--environment', env, '--event-type', 'signup', '--seconds', '20'], t.env)
    let out = ''
    cli.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    let err = ''
    cli.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    await waitFor('cli tailing', async () => (err.includes('tailing') ? true : undefined), 20_000)
    await new Promise((r) => setTimeout(r, 1200))
    try {
      await postEvents(service.url, sdkKey, [event('dora', 'signup'), event('erin', 'checkout')])
      await waitFor('cli printed', async () => (out.includes('"dora"') ? true : undefined), 10_000)
      expect(out).toMatch(/^\S+Z {2}event {14}"signup" "dora" {2}\{/m)
      expect(out).not.toContain('erin')
    } finally {
      cli.kill('SIGINT')
    }
  })
})
