// A dry run is bounded in time: slow pages (a hostile account's big records take a second a page to read) and a costly
// tracking plan (patterns at the per-event step budget: up to milliseconds per record) make it stop at its time and
// say it checked a part. The hostile soak's dry runs passed a client's 30 s before this bound.
import { describe, expect, it } from 'vitest'
import type { Query } from '../../../src/analysis/sql.js'
import type { TrackingPlan } from '../../../src/pipeline/plans.js'
import { ReplayService } from '../../../src/services/replays.js'
import type { ReplayFilter, ReplayStore } from '../../../src/state/redis/data-jobs.js'
import type { PlanStore } from '../../../src/state/redis/plans.js'
import type { Environment } from '../../../src/state/redis/tenancy.js'

const env = { id: 'env', accountId: 'acc' } as Environment
const RECORDS = 2000
const filter: ReplayFilter = { kind: 'events', from: 1_690_000_000_000, to: 1_710_000_000_000 }

const costly: TrackingPlan = {
  mode: 'block',
  unplannedEvents: 'violation',
  unplannedProperties: 'violation',
  events: {
    big: {
      properties: Object.fromEntries(
        Array.from({ length: 20 }, (_, k) => [`blob${k}`, { type: 'string', pattern: `^(x+x+)+[a-w${k}]$` }]),
      ),
    },
  },
}

/** ClickHouse as the dry run reads it: RECORDS refused events of type big, none replayed yet, in pages. */
function refused(): (q: Query) => Promise<Record<string, unknown>[]> {
  const raw = JSON.stringify({
    eventTypeId: 'big',
    trafficTypeName: 'user',
    key: 'k',
    timestamp: 1_700_000_000_000,
    properties: Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`blob${k}`, 'x'.repeat(3000)])),
  })
  return async (q) => {
    if (q.purpose !== 'the refused records to replay') return [{ selected: RECORDS, fresh: RECORDS }]
    const from = pagesRead++ * 250
    await new Promise((resolve) => setTimeout(resolve, 50))
    return Array.from({ length: Math.max(0, Math.min(250, RECORDS - from)) }, (_, j) => ({
      topic: 't.events',
      partition: 0,
      offset: String(from + j),
      index: 0,
      receivedAtMs: 1_700_000_000_000,
      accountId: 'acc',
      sdkVersion: 'nodejs-10.0.0',
      kind: '',
      reason: 'tracking plan v1: ...',
      raw,
    }))
  }
}
/** Pages read so far (the dry run reads them in order, 250 at a time). */
let pagesRead = 0

describe('a dry run', () => {
  it('stops at its time with slow pages and a costly plan, and says it checked a part', async () => {
    pagesRead = 0
    const plans = { get: async () => ({ plan: costly, version: 1 }) } as unknown as PlanStore
    const service = new ReplayService({} as ReplayStore, refused(), 'db', plans, 300)
    const dry = await service.dryRun(env, filter)
    expect(dry).toMatchObject({ selected: RECORDS, complete: false, accepted: 0, planVersion: 1 })
    expect(dry.examined).toBeGreaterThan(0)
    expect(dry.examined).toBeLessThan(RECORDS)
    expect(dry.stillRefused).toBe(dry.examined)
    expect(dry.refusals[0]!.reason).toMatch(/^tracking plan v1: /)
  })

  it('checks every record when they fit its time, and says so', async () => {
    pagesRead = 0
    const plans = { get: async () => undefined } as unknown as PlanStore
    const dry = await new ReplayService({} as ReplayStore, refused(), 'db', plans).dryRun(env, filter)
    expect(dry).toMatchObject({ selected: RECORDS, examined: RECORDS, complete: true, planVersion: null })
  })
})
