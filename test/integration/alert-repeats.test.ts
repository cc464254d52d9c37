// Repeats counted in a record's head (alert-lifecycle.lua LC.repeated) against the whole lifecycle path: random
// sequences of notifications (two contents per key, firing, acknowledged and resolved by the source, acknowledges and
// resolves from the API) are written through the alerts sink's real script to two accounts: to the first in runs of
// messages per call (its repeats' index moves written together at the end of a call or before the whole path runs),
// to the second one message per call, its records rewritten without their head before each, so every notification
// of it takes the whole path (decode, LC.notify, LC.save). Both accounts must then hold the same records, index
// groups and order, auto-resolve deadlines, incidents and stream entries.
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { NormalizedAlert } from '../../src/pipeline/alerts/render.js'
import { RedisAlertSink, type MessageWrite } from '../../src/sinks/redis-stream/alerts.sink.js'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import { createTestEnv, type TestEnv } from '../support/harness.js'

let t: TestEnv
let sink: RedisAlertSink
let prefix: string

beforeAll(async () => {
  t = await createTestEnv()
  prefix = t.config.redis.keyPrefix
  sink = new RedisAlertSink(t.redis, { prefix, maxLen: 100_000, maxAgeMs: 3_600_000 })
})
afterAll(async () => {
  await t.close()
})

type Step =
  | {
      kind: 'alert'
      dtMs: number
      key: number
      content: number
      status: 'firing' | 'acknowledged' | 'resolved'
      /** Written in the same call as the alert step before it. */
      joins: boolean
    }
  | { kind: 'act'; dtMs: number; action: 'acknowledge' | 'resolve'; pick: number }

/** A record's head as the script writes it (alert-lifecycle.lua), and with the mark after it (Account.mark). */
const HEAD =
  /^\{"count":\d+,"lastSeenAt":\d+,"status":"[a-z]+","digest":"[\w-]+","incidentId":"[\w-]+","lastRequestId":"[^"\\]*",/
const HEAD_MARKED = new RegExp(`${HEAD.source} `)

/** JSON with every object's keys sorted: records written by different paths order their keys differently. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  )
const records = (acct: string) => `${prefix}alerts:acct:${acct}:records`
let runs = 0
const start = Date.now()

class Account {
  readonly id: string
  readonly integrationId: string
  private offset = 0n
  constructor(
    name: string,
    readonly emitRepeats: boolean,
    readonly autoResolveAfterMs: number,
  ) {
    this.id = `rep-${process.pid}-${++runs}-${name}`
    this.integrationId = `int-${this.id}`
  }

  async notify(at: number, key: number, content: number, status: NormalizedAlert['status'], n: number) {
    await this.write([this.message(at, key, content, status, n)])
  }

  /** Messages written in one call of the sink (one script call): repeats' index moves are written together. */
  async write(messages: MessageWrite[]) {
    expect(await sink.write(messages)).toEqual(messages.map(() => 'written'))
  }

  message(at: number, key: number, content: number, status: NormalizedAlert['status'], n: number): MessageWrite {
    const alert: NormalizedAlert = {
      severity: content === 0 ? 'warning' : 'critical',
      description: `disk of host ${key} ${content === 0 ? 'filling' : 'full'}`,
      source: 'repeats',
      service: `svc${key % 2}`,
      team: content === 0 ? 'storage' : '',
      dedupKey: `key-${key}`,
      status,
      timestamp: new Date(start).toISOString(),
      receivedAt: new Date(at).toISOString(),
      integrationId: this.integrationId,
      requestId: `req-${n}`,
      customFields: { host: String(key), content: String(content) },
      ...(content === 1 ? { tags: ['paged'] } : {}),
    }
    return {
      topic: `repeats-${this.id}`,
      partition: 0,
      offset: this.offset++,
      integrationId: this.integrationId,
      alerts: [alert],
      rejections: [],
      lifecycle: {
        accountId: this.id,
        requestId: alert.requestId,
        receivedAtMs: at,
        emitRepeats: this.emitRepeats,
        autoResolveAfterMs: this.autoResolveAfterMs,
        dedupFallbacks: 0,
        unknownStatuses: 0,
      },
    }
  }

  /** Every record rewritten with its id first: no head, so the next notification takes the whole path. */
  async withoutHeads() {
    const all = await t.redis.hgetall(records(this.id))
    for (const [id, json] of Object.entries(all)) {
      const r = JSON.parse(json) as Record<string, unknown>
      await t.redis.hset(records(this.id), id, JSON.stringify({ id: r['id'], ...r }))
    }
  }

  /**
   * A space after each record's head: JSON all the same, but the script's encoder never writes one, so a record that
   * still has it after a notification was counted in its head, not decoded and written again.
   */
  async mark(): Promise<Map<string, number>> {
    const counts = new Map<string, number>()
    for (const [id, json] of Object.entries(await t.redis.hgetall(records(this.id)))) {
      const marked = json.replace(HEAD, '$& ')
      if (marked === json) continue
      await t.redis.hset(records(this.id), id, marked)
      counts.set(id, (JSON.parse(json) as { count: number }).count)
    }
    return counts
  }

  /** The records marked before that were counted in their head since. */
  async countedInHead(marked: Map<string, number>): Promise<number> {
    let counted = 0
    for (const [id, before] of marked) {
      const json = await t.redis.hget(records(this.id), id)
      if (json && HEAD_MARKED.test(json) && (JSON.parse(json) as { count: number }).count > before) counted++
    }
    return counted
  }

  /** What the account holds, with its alert and incident ids (given in the same order in both) as their rank. */
  async state() {
    const keys = alertStreamKeys(prefix, false, this.id)
    const raw = await t.redis.hgetall(records(this.id))
    const alertIds = Object.keys(raw).sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)))
    const incidents = (await t.state.incidents.list(this.id, { status: 'all', limit: 500 })).incidents
    const incidentIds = incidents.map((i) => i.id).sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)))
    const rank = (s: string) =>
      s
        .replace(/\bal_\d+\b/g, (id) => `alert#${alertIds.indexOf(id)}`)
        .replace(/\binc_\d+\b/g, (id) => `incident#${incidentIds.indexOf(id)}`)
        .replaceAll(this.integrationId, 'INTEGRATION')
        .replaceAll(this.id, 'ACCOUNT')
    const parsed = alertIds.map((id) => {
      const r = JSON.parse(raw[id]!) as Record<string, unknown> & { history?: Record<string, unknown>[] }
      // Stream entry ids are the time of the write: the two accounts' differ.
      for (const h of r.history ?? []) delete h['entryId']
      return r
    })
    // Every index group a record of the account may be in (KEYS would read the whole database).
    const names = new Set(['all', 'open', 'firing', 'acknowledged', 'resolved', 'suppressed', 'inhibited'])
    for (const r of parsed)
      for (const f of ['integrationId', 'severity', 'service', 'environment', 'team'])
        if (typeof r[f] === 'string' && r[f] !== '') names.add(`open:${f}:${r[f]}`)
    const groups: Record<string, string[]> = {}
    for (const name of [...names].sort()) {
      const page = await t.redis.zrange(`${prefix}alerts:acct:${this.id}:idx:${name}`, 0, -1, 'WITHSCORES')
      const entries: string[] = []
      // The score's milliseconds (its last three digits break ties by the id, which differs between accounts).
      for (let i = 0; i < page.length; i += 2) entries.push(`${page[i]} ${Math.floor(Number(page[i + 1]) / 1000)}`)
      if (entries.length > 0) groups[rank(name)] = entries.map(rank)
    }
    const auto = await t.redis.zrange(`${prefix}alerts:auto-resolve`, 0, -1, 'WITHSCORES')
    const deadlines: string[] = []
    for (let i = 0; i < auto.length; i += 2)
      if (auto[i]!.startsWith(`${this.id}|`)) deadlines.push(rank(`${auto[i]} ${auto[i + 1]}`))
    const entries = (await t.redis.xrange(keys.integration(this.integrationId), '-', '+')).map(([, f]) =>
      rank(JSON.stringify(f)),
    )
    const all = (await t.redis.xrange(keys.all, '-', '+')).filter(([, f]) => f.includes(this.integrationId))
    // The noise figures of the hours the sequences span (notifications received, alerts, incidents).
    const noise: Record<string, string>[] = []
    for (let hour = Math.floor(start / 3_600_000); hour <= Math.floor(start / 3_600_000) + 2; hour++)
      noise.push(await t.redis.hgetall(`${prefix}alerts:acct:${this.id}:noise:${hour}`))
    return {
      records: parsed.map((r) => rank(canonical(r))),
      groups,
      deadlines: deadlines.sort(),
      entries,
      allEntries: all.length,
      noise: noise.map((h) => rank(canonical(h))),
      incidents: incidents.map((i) => rank(canonical({ ...i, id: undefined }))).sort(),
    }
  }
}

const steps = fc.array(
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('alert' as const),
        dtMs: fc.integer({ min: 0, max: 90_000 }),
        key: fc.integer({ min: 0, max: 2 }),
        content: fc.integer({ min: 0, max: 1 }),
        status: fc.constantFrom('firing', 'firing', 'firing', 'firing', 'acknowledged', 'resolved'),
        joins: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('act' as const),
        dtMs: fc.integer({ min: 0, max: 90_000 }),
        action: fc.constantFrom('acknowledge', 'resolve'),
        pick: fc.nat(),
      }),
    },
  ),
  { minLength: 4, maxLength: 20 },
) as fc.Arbitrary<Step[]>

const repeatedSix: Step[] = Array.from({ length: 6 }, () => ({
  kind: 'alert' as const,
  dtMs: 1000,
  key: 0,
  content: 0,
  status: 'firing' as const,
  joins: false,
}))

it('a repeat counted in the record head leaves what the whole lifecycle path leaves: records, indexes, order, deadlines, incidents, entries', async () => {
  let counted = 0
  await fc.assert(
    fc.asyncProperty(steps, fc.boolean(), fc.constantFrom(0, 600_000), async (sequence, emitRepeats, autoMs) => {
      const fast = new Account('fast', emitRepeats, autoMs)
      const whole = new Account('whole', emitRepeats, autoMs)
      let at = start
      let n = 0
      // Consecutive alert steps that join are one call for the first account (its repeats' index moves written
      // together) and one call each for the second, its records without their head before each.
      const calls: Step[][] = []
      for (const s of sequence) {
        const last = calls.at(-1)
        if (s.kind === 'alert' && s.joins && last?.[0]?.kind === 'alert') last.push(s)
        else calls.push([s])
      }
      for (const call of calls) {
        const marked = await fast.mark()
        if (call[0]!.kind === 'alert') {
          const messages: [number, Step & { kind: 'alert' }][] = []
          for (const s of call as (Step & { kind: 'alert' })[]) messages.push([(at += s.dtMs), s])
          await fast.write(messages.map(([when, s]) => fast.message(when, s.key, s.content, s.status, ++n)))
          n -= messages.length
          for (const [when, s] of messages) {
            await whole.withoutHeads()
            await whole.notify(when, s.key, s.content, s.status, ++n)
          }
        } else {
          const s = call[0]!
          at += s.dtMs
          n++
          // The API acts at the step's time in both accounts.
          vi.useFakeTimers({ toFake: ['Date'] })
          vi.setSystemTime(at)
          try {
            for (const a of [fast, whole]) {
              const ids = Object.keys(await t.redis.hgetall(records(a.id))).sort(
                (x, y) => Number(x.slice(3)) - Number(y.slice(3)),
              )
              if (ids.length === 0) continue
              await t.state.alerts.act(a.id, ids[s.pick % ids.length]!, s.action, 'key:test', 100_000)
            }
          } finally {
            vi.useRealTimers()
          }
        }
        const [f, w] = [await fast.state(), await whole.state()]
        expect(f, `after ${JSON.stringify(call)}`).toEqual(w)
        counted += await fast.countedInHead(marked)
      }
    }),
    // Beside the generated runs, two that surely repeat: one firing alert sent six times, one call each.
    { numRuns: 20, examples: [false, true].map((emitRepeats): [Step[], boolean, 0] => [repeatedSix, emitRepeats, 0]) },
  )
  // The head path ran: at least the five repeats of each example.
  expect(counted).toBeGreaterThanOrEqual(10)
}, 300_000)

it('counts a repeat in the head without changing the record otherwise, and a changed content takes the whole path', async () => {
  const a = new Account('direct', false, 0)
  await a.notify(start, 1, 0, 'firing', 1)
  const [id] = Object.keys(await t.redis.hgetall(records(a.id)))
  const first = (await t.state.alerts.get(a.id, id!))!
  await a.notify(start + 1000, 1, 0, 'firing', 2)
  await a.notify(start + 2000, 1, 0, 'firing', 3)
  const marked = await a.mark()
  await a.notify(start + 2500, 1, 0, 'firing', 4)
  expect(await a.countedInHead(marked)).toBe(1)
  const repeated = (await t.state.alerts.get(a.id, id!))!
  expect(repeated).toEqual({ ...first, count: 4, lastSeenAt: start + 2500, lastRequestId: 'req-4' })
  expect(repeated).not.toHaveProperty('digest')
  // A new content is not a repeat: the record, written whole, says it.
  const again = await a.mark()
  await a.notify(start + 3000, 1, 1, 'firing', 5)
  expect(await a.countedInHead(again)).toBe(0)
  const changed = (await t.state.alerts.get(a.id, id!))!
  expect(changed).toMatchObject({ count: 5, severity: 'critical', description: 'disk of host 1 full', tags: ['paged'] })
})
