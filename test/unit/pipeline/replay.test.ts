// What a refused record's raw copy becomes when replayed, and what the intake would make of it now. The records are the
// raw copies the pipeline itself writes (eventLine's refusals, processImpressionRecords' rejections), so a replay takes
// back what was refused in the shape it was refused in.
import { describe, expect, it } from 'vitest'
import { eventLine } from '../../../src/pipeline/events.js'
import {
  processImpressionRecords,
  type ImpressionRejectionRow,
  type SdkMeta,
} from '../../../src/pipeline/impressions.js'
import { compilePlan } from '../../../src/pipeline/plans.js'
import { refusalNow, replayableOf, replayRequestId, type StoredRejection } from '../../../src/pipeline/replay.js'
import { MAX_RAW_CHARS } from '../../../src/pipeline/rows.js'
import { tsvText } from '../../../src/shared/tsv.js'

const meta: SdkMeta = {
  environmentId: 'env',
  accountId: 'acc',
  receivedAtMs: 1_700_000_000_000,
  sdkVersion: 'nodejs-10.22.0',
  requestId: 'r',
  kind: 'impressions',
  impressionsMode: 'DEBUG',
  machineIp: '',
  machineName: '',
}
const at = (raw: string, kind?: string): StoredRejection => ({
  topic: 't.events',
  partition: 3,
  offset: '1234',
  index: 7,
  raw,
  ...(kind !== undefined && { kind }),
})
/** The raw copy eventLine writes for a record it refuses. */
const refusedRaw = (record: unknown) => {
  const [kind, , raw] = eventLine(record).split('\t')
  expect(kind).toBe('R')
  return tsvText(raw!)!
}
/** The rejections processImpressionRecords writes for a message of `kind`. */
function impressionRejections(kind: string, records: unknown[]): ImpressionRejectionRow[] {
  const out: ImpressionRejectionRow[] = []
  const ignore = () => undefined
  processImpressionRecords(records, { ...meta, kind }, (index) => ({ topic: 't', partition: 0, offset: 0n, index }), {
    impression: ignore,
    count: ignore,
    uniqueKey: ignore,
    telemetry: ignore,
    reject: (r) => out.push(r),
  })
  return out
}

describe('replayableOf and refusalNow', () => {
  it('names a replay by its job and the position of the rejection', () => {
    expect(replayRequestId('rp_ab12', at('{}'))).toBe('replay:rp_ab12:t.events:3:1234:7')
  })

  it('an event refused by the edge is replayed as it was sent, and the edge’s checks run again', () => {
    const record = {
      eventTypeId: 'checkout',
      trafficTypeName: 'user',
      key: 'k',
      timestamp: 1_700_000_000_000,
      value: 'ten',
    }
    const replayable = replayableOf('events', at(refusedRaw(record)))
    expect(replayable).toEqual({ topic: 'events', record })
    expect(refusalNow(replayable as never, meta, undefined)).toMatch(/value/)
    const fixed = replayableOf('events', at(JSON.stringify({ ...record, value: 10 })))
    expect(refusalNow(fixed as never, meta, undefined)).toBeUndefined()
  })

  it('a plan in block mode refuses again with its version; one in observe or strip mode stores', () => {
    const record = {
      eventTypeId: 'checkout',
      trafficTypeName: 'user',
      key: 'k',
      timestamp: 1,
      properties: { plan: 'team' },
    }
    const replayable = replayableOf('events', at(JSON.stringify(record))) as never
    const plan = (mode: 'block' | 'observe' | 'strip', values: string[]) =>
      compilePlan(
        {
          mode,
          unplannedEvents: 'allow',
          unplannedProperties: 'allow',
          events: { checkout: { properties: { plan: { type: 'string', enum: values } } } },
        },
        4,
      )
    expect(refusalNow(replayable, meta, plan('block', ['free']))).toMatch(/^tracking plan v4: properties\.plan /)
    expect(refusalNow(replayable, meta, plan('block', ['free', 'team']))).toBeUndefined()
    expect(refusalNow(replayable, meta, plan('observe', ['free']))).toBeUndefined()
    expect(refusalNow(replayable, meta, plan('strip', ['free']))).toBeUndefined()
  })

  it('impressions, counts and unique keys go back as their kind was sent; telemetry and unknown kinds are not replayed', () => {
    const [impression] = impressionRejections('impressions', [{ f: 'flag-1', i: [{ k: 'u', t: 'on', m: 'noon' }] }])
    const replayable = replayableOf('impressions', at(impression!.raw, impression!.kind))
    expect(replayable).toEqual({
      topic: 'impressions',
      kind: 'impressions',
      record: { f: 'flag-1', i: [{ k: 'u', t: 'on', m: 'noon' }] },
    })
    expect(refusalNow(replayable as never, meta, undefined)).toMatch(/\bm\b/)
    const good = replayableOf('impressions', at(JSON.stringify({ f: 'flag-1', k: 'u', t: 'on', m: 1 }), 'impressions'))
    expect(refusalNow(good as never, meta, undefined)).toBeUndefined()

    const [keys] = impressionRejections('unique_keys_ss', [{ f: 'flag-1', ks: ['ok', 5] }])
    expect(replayableOf('impressions', at(keys!.raw, keys!.kind))).toEqual({
      topic: 'impressions',
      kind: 'unique_keys_ss',
      record: { f: 'flag-1', ks: [5] },
    })
    const [clientKeys] = impressionRejections('unique_keys_cs', [{ k: 'u', fs: [7] }])
    expect(replayableOf('impressions', at(clientKeys!.raw, clientKeys!.kind))).toMatchObject({ kind: 'unique_keys_cs' })
    const [count] = impressionRejections('impression_counts', [{ f: 'flag-1', m: 1, rc: -1 }])
    expect(replayableOf('impressions', at(count!.raw, count!.kind))).toMatchObject({ kind: 'impression_counts' })

    expect(replayableOf('impressions', at('{"oM":0}', 'telemetry'))).toHaveProperty('problem')
    expect(replayableOf('impressions', at('{"x":0}', 'unknown'))).toHaveProperty('problem')
  })

  it('a raw copy that is not the record is not replayed: cut, not kept, a whole message, a malformed line', () => {
    const cut = `{"eventTypeId":"${'x'.repeat(MAX_RAW_CHARS)}`.slice(0, MAX_RAW_CHARS)
    for (const raw of ['', cut, '[{"eventTypeId":"a"}]', 'E\tuser\tcheckout', '"text"', 'null'])
      expect(replayableOf('events', at(raw)), raw.slice(0, 40)).toHaveProperty('problem')
  })
})
