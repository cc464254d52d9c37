// A steady load of event or impression requests for fault tests, and the exactly-once check that
// follows: every request answered 202 has all its records stored once, and no request has any record
// stored twice.
import { expect } from 'vitest'
import { event, postEvents, waitFor, type TestEnv } from './harness.js'

/**
 * What a load posts: events to /api/events/bulk, or impressions (in groups of 25 per flag) to
 * /api/testImpressions/bulk.
 */
export type LoadKind = 'events' | 'impressions'

export interface LoadResult {
  /** Request id → events in the request, for requests answered 202. */
  readonly accepted: Map<string, number>
  /** Status code → how many requests got it. */
  readonly statuses: Map<number, number>
  readonly perRequest: number
  /** The table the records land in. */
  readonly table: LoadKind
  /** The run the records' keys name (`<run>-user-<n>`), when the load was given one. */
  readonly run?: string | undefined
}

export interface Load {
  stop(): Promise<LoadResult>
}

/**
 * `workers` loops, each posting `perRequest` events then waiting `pauseMs`, until stopped. With a
 * `run`, every record's key starts with it, so the check covers that run's rows only.
 */
export function steadyLoad(
  url: string,
  key: string,
  options: { workers?: number; perRequest?: number; pauseMs?: number; kind?: LoadKind; run?: string } = {},
): Load {
  const { workers = 4, perRequest = 100, pauseMs = 150, kind = 'events', run } = options
  const keyOf = (n: number) => `${run ? `${run}-` : ''}user-${n}`
  const accepted = new Map<string, number>()
  const statuses = new Map<number, number>()
  let running = true
  let next = 0
  const loop = async () => {
    while (running) {
      const first = next
      next += perRequest
      let status = 0
      try {
        const res =
          kind === 'events'
            ? await postEvents(
                url,
                key,
                Array.from({ length: perRequest }, (_, i) => event(first + i, { key: keyOf(first + i) })),
              )
            : await postImpressions(url, key, impressionGroups(first, perRequest, keyOf))
        status = res.status
        if (status === 202) accepted.set(String(res.body['requestId']), perRequest)
      } catch {
        status = -1 // no answer (connection refused or reset)
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      await new Promise((r) => setTimeout(r, pauseMs))
    }
  }
  const loops = Array.from({ length: workers }, loop)
  return {
    stop: async () => {
      running = false
      await Promise.all(loops)
      return { accepted, statuses, perRequest, table: kind, run }
    },
  }
}

/** `count` impressions of keys from `first` on, in groups of 25 per flag, as the SDKs send them. */
export function impressionGroups(
  first: number,
  count: number,
  keyOf = (n: number) => `user-${n}`,
): { f: string; i: object[] }[] {
  const groups: { f: string; i: object[] }[] = []
  for (let n = 0; n < count; n += 25) {
    const i = Array.from({ length: Math.min(25, count - n) }, (_, j) => ({
      k: keyOf(first + n + j),
      t: (first + n + j) % 2 ? 'on' : 'off',
      m: 1_764_000_000_000 + first + n + j,
      c: 1,
      r: 'default rule',
    }))
    groups.push({ f: `flag_${(n / 25) % 8}`, i })
  }
  return groups
}

export async function postImpressions(
  url: string,
  key: string,
  groups: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/api/testImpressions/bulk`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      SplitSDKImpressionsMode: 'DEBUG',
      SplitSDKVersion: 'nodejs-11.11.2',
    },
    body: JSON.stringify(groups),
  })
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> }
}

/** What the exactly-once check found, each figure from the query its assertion reads. */
export interface StoredOnce {
  /** Records of the accepted requests. */
  readonly total: number
  /** Rows stored for the accepted requests. */
  readonly stored: number
  /** Rows beyond one per source position (0 when nothing is stored twice). */
  readonly duplicates: number
  /** Requests answered otherwise (503, no answer) whose records are stored anyway, whole. */
  readonly unacknowledgedStored: number
}

/**
 * Waits until every accepted record is stored, then checks: each accepted request has exactly its
 * records, no request (accepted or not) has more, and no source position is stored twice. With a
 * run (steadyLoad's option), only that run's rows count; else only requests received from `since`
 * on, and the positions of the whole table.
 */
export async function expectStoredExactlyOnce(
  t: TestEnv,
  result: LoadResult,
  timeoutMs: number,
  /** Only requests received from then on (epoch ms) count, when earlier tests stored into the same tables. */
  since = 0,
  /** Told what was found before anything is asserted (a test's summary line). */
  report?: (found: StoredOnce) => void,
): Promise<StoredOnce> {
  const total = [...result.accepted.values()].reduce((a, b) => a + b, 0)
  const table = result.table
  const mine = result.run ? `startsWith(key, '${result.run}-')` : `received_at_ms >= ${since}`
  await waitFor(
    `${total} accepted ${table} stored`,
    async () => {
      const ids = [...result.accepted.keys()]
      const [row] = await t.query<{ n: string }>(
        `SELECT count() AS n FROM {db}.${table} WHERE request_id IN (${ids.map((id) => `'${id}'`).join(',')})`,
      )
      return Number(row?.n ?? 0) >= total ? true : undefined
    },
    timeoutMs,
  )
  await new Promise((r) => setTimeout(r, 2000))
  const perRequest = await t.query<{ id: string; n: string }>(
    `SELECT request_id AS id, count() AS n FROM {db}.${table} WHERE ${mine} GROUP BY request_id`,
  )
  const stored = new Map(perRequest.map((r) => [r.id, Number(r.n)]))
  const [u] = await t.query<{ n: string; p: string }>(
    `SELECT count() AS n, uniqExact(source_topic, source_partition, source_offset, source_index) AS p FROM {db}.${table}${result.run ? ` WHERE ${mine}` : ''}`,
  )
  // A request answered 503 may still have reached Kafka (its acknowledgement lost): stored whole, never twice.
  const others = [...stored].filter(([id]) => !result.accepted.has(id))
  const found: StoredOnce = {
    total,
    stored: [...result.accepted.keys()].reduce((n, id) => n + (stored.get(id) ?? 0), 0),
    duplicates: Number(u!.n) - Number(u!.p),
    unacknowledgedStored: others.length,
  }
  report?.(found)
  for (const [id, n] of result.accepted) expect(stored.get(id), `request ${id}`).toBe(n)
  for (const [id, n] of others) expect(n, `unacknowledged request ${id}`).toBeLessThanOrEqual(result.perRequest)
  expect(found.duplicates, 'rows stored twice (at one source position)').toBe(0)
  return found
}

/**
 * Numbers the webhook payloads of every load: each is an alert of its own (the same one again would be a repeat, kept
 * out of the streams).
 */
let payloadNumber = 0

/**
 * Posts webhook payloads (`{ n, level: 'warning' }`) to one address in a loop; remembers the request id of each 202.
 */
export function webhookLoad(
  url: string,
  pauseMs = 100,
): { stop(): Promise<{ accepted: string[]; statuses: Map<number, number> }> } {
  const accepted: string[] = []
  const statuses = new Map<number, number>()
  let running = true
  const loop = (async () => {
    while (running) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ n: payloadNumber++, level: 'warning' }),
      }).catch(() => undefined)
      const status = res?.status ?? -1
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (res?.status === 202) accepted.push(String(((await res.json()) as Record<string, unknown>)['requestId']))
      await new Promise((r) => setTimeout(r, pauseMs))
    }
  })()
  return {
    stop: async () => {
      running = false
      await loop
      return { accepted, statuses }
    },
  }
}
