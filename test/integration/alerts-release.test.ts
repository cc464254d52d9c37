// What changing a maintenance window costs Redis: the alerts it holds are found in the window's own index and
// released in pages, so a window that holds nothing costs nothing, however many alerts other windows and other
// accounts hold (the review: every suppressed alert of every account read in one atomic call, 3.3-4.9 s per change at
// 100,000, with every other client waiting).
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { NormalizedAlert } from '../../src/pipeline/alerts/render.js'
import { RedisAlertSink, type MessageWrite } from '../../src/sinks/redis-stream/alerts.sink.js'
import { createTestEnv, type TestEnv } from '../support/harness.js'

let t: TestEnv
let sink: RedisAlertSink
const MAXLEN = 1_000_000

beforeAll(async () => {
  t = await createTestEnv()
  sink = new RedisAlertSink(t.redis, { prefix: t.config.redis.keyPrefix, maxLen: MAXLEN, maxAgeMs: 3_600_000 })
})

afterAll(async () => {
  await t.close()
})

const until = new Date(Date.now() + 86_400_000).toISOString()

/** `count` firing alerts of an account, each its own incident, arriving in `window`; written as the consumer does. */
async function hold(accountId: string, window: string, count: number): Promise<void> {
  await t.redis.sadd(`${t.config.redis.keyPrefix}alerts:acct:${accountId}:windows`, window)
  const perMessage = 500
  for (let m = 0; m * perMessage < count; m++) {
    const requestId = `${accountId}-${m}`
    const alerts = Array.from({ length: Math.min(perMessage, count - m * perMessage) }, (_, i): NormalizedAlert => ({
      severity: 'warning',
      description: `held ${m * perMessage + i}`,
      source: 'test',
      dedupKey: `${window}-${m * perMessage + i}`,
      status: 'firing',
      timestamp: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
      integrationId: `int-${accountId}`,
      requestId,
      customFields: {},
      suppressedBy: window,
      suppressedUntil: until,
    }))
    const write: MessageWrite = {
      topic: `release-${accountId}`,
      partition: 0,
      offset: BigInt(m),
      accountId,
      integrationId: `int-${accountId}`,
      alerts,
      rejections: [],
      lifecycle: {
        accountId,
        requestId,
        receivedAtMs: Date.now(),
        emitRepeats: false,
        autoResolveAfterMs: 0,
        dedupFallbacks: 0,
        unknownStatuses: 0,
      },
    }
    expect(await sink.write([write])).toEqual(['written'])
  }
}

/** Records Redis read (HGET) while `work` ran: the cost of a release scan is one per alert it looks at. */
async function hgetsDuring(work: () => Promise<unknown>): Promise<number> {
  const calls = async () => Number(/cmdstat_hget:calls=(\d+)/.exec(await t.redis.info('commandstats'))?.[1] ?? 0)
  const before = await calls()
  await work()
  return (await calls()) - before
}

it('a window that holds nothing is changed without reading any held alert; one that holds 1,200 releases them all, in pages', async () => {
  // Another account holds 20,000 alerts; this one holds 1,200 in window mw_a and none in mw_b.
  await hold('acct-other', 'mw_other', 20_000)
  await hold('acct-x', 'mw_a', 1200)
  const store = t.state.alerts
  expect((await store.list('acct-x', { status: 'suppressed', filters: {}, limit: 1000 })).alerts).toHaveLength(1000)

  // Changing mw_b (it holds nothing): before the index, each change read all 21,200 held alerts.
  const quiet = await hgetsDuring(() => store.rescheduleSuppressed('acct-x', 'mw_b', Date.now(), MAXLEN))
  expect(quiet).toBeLessThan(100)

  // Changing mw_a to end later keeps its alerts held, with the new end.
  const later = Date.now() + 2 * 86_400_000
  expect(await store.rescheduleSuppressed('acct-x', 'mw_a', later, MAXLEN)).toEqual([])
  const held = await store.list('acct-x', { status: 'suppressed', filters: {}, limit: 10 })
  expect(held.alerts.map((a) => a.suppressedUntil)).toEqual(Array(10).fill(later))

  // Deleting mw_a releases its 1,200 (three pages of the script), each fired again; the other account's stay held.
  const reads = await hgetsDuring(async () => {
    const released = await store.rescheduleSuppressed('acct-x', 'mw_a', Date.now(), MAXLEN)
    expect(new Set(released).size).toBe(1200)
  })
  expect(reads).toBeLessThan(5000)
  expect((await store.list('acct-x', { status: 'suppressed', filters: {}, limit: 10 })).alerts).toEqual([])
  expect((await store.list('acct-x', { status: 'firing', filters: {}, limit: 1000 })).alerts).toHaveLength(1000)
  expect((await store.list('acct-other', { status: 'suppressed', filters: {}, limit: 10 })).alerts).toHaveLength(10)
  // The window's index is gone with what it held.
  expect(await t.redis.exists(`${t.config.redis.keyPrefix}alerts:acct:acct-x:held:mw_a`)).toBe(0)
}, 120_000)
