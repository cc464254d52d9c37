import { describe, expect, it } from 'vitest'
import {
  processImpressionRecords,
  type ImpressionRejectionRow,
  type SdkMeta,
} from '../../../src/pipeline/impressions.js'
import type { RowOrigin } from '../../../src/pipeline/rows.js'

const meta = (kind: string): SdkMeta => ({
  environmentId: 'env',
  accountId: 'acc',
  receivedAtMs: 1_700_000_000_999,
  sdkVersion: 'nodejs-11.11.2',
  requestId: 'req',
  part: 1,
  kind,
  impressionsMode: 'DEBUG',
  machineIp: '10.0.0.1',
  machineName: 'host-1',
})

/** Runs the records of one message; rows by kind and the rejections, in order. */
function run(kind: string, records: unknown[]) {
  const out = {
    impressions: [] as RowOrigin[],
    counts: [] as RowOrigin[],
    keys: [] as RowOrigin[],
    telemetry: [] as RowOrigin[],
    rejections: [] as ImpressionRejectionRow[],
  }
  processImpressionRecords(
    records,
    meta(kind),
    (index) => ({ topic: 'impressions', partition: 2, offset: 41n, index }),
    {
      impression: (row) => out.impressions.push(row),
      count: (row) => out.counts.push(row),
      uniqueKey: (row) => out.keys.push(row),
      telemetry: (row) => out.telemetry.push(row),
      reject: (r) => out.rejections.push(r),
    },
  )
  return out
}

const impression = {
  k: 'user-1',
  t: 'on',
  m: 1_700_000_000_123,
  c: 1_699_000_000_000,
  r: 'default rule',
  b: null,
  pt: null,
}

describe('impressions', () => {
  it('makes a row of each impression, with the group flag, the SDK headers and the source position', () => {
    const { impressions, rejections } = run('impressions', [
      {
        f: 'checkout_flow',
        i: [
          impression,
          { ...impression, k: 'user-2', t: 'off', b: 'acct-9', pt: 1_700_000_000_000, properties: '{"plan":"pro"}' },
        ],
      },
      { f: 'other', i: [{ k: 'user-3', t: 'v1', m: 5 }] },
    ])
    expect(rejections).toEqual([])
    expect(impressions).toEqual([
      expect.objectContaining({
        flag: 'checkout_flow',
        key: 'user-1',
        bucketing_key: '',
        treatment: 'on',
        label: 'default rule',
        change_number: 1_699_000_000_000,
        time: 1_700_000_000,
        time_ms: 1_700_000_000_123,
        previous_time_ms: 0,
        properties: '',
        impressions_mode: 'DEBUG',
        machine_ip: '10.0.0.1',
        machine_name: 'host-1',
        sdk_version: 'nodejs-11.11.2',
        environment_id: 'env',
        account_id: 'acc',
        request_id: 'req',
        request_part: 1,
        source_offset: '41',
        source_index: 0,
      }),
      expect.objectContaining({
        key: 'user-2',
        treatment: 'off',
        bucketing_key: 'acct-9',
        previous_time_ms: 1_700_000_000_000,
        properties: '{"plan":"pro"}',
        source_index: 1,
      }),
      // What other SDKs leave out (Go: no c when 0 is sent as 0, .NET: no pt, no r with labels off).
      expect.objectContaining({
        flag: 'other',
        key: 'user-3',
        label: '',
        change_number: 0,
        time: 0,
        time_ms: 5,
        source_index: 2,
      }),
    ])
  })

  it('rejects each bad impression with the field named, keeps the good ones, every one at its own position', () => {
    const { impressions, rejections } = run('impressions', [
      {
        f: 'flag',
        i: [
          impression,
          { ...impression, k: '' },
          { ...impression, t: 7 },
          { ...impression, m: 1e400 },
          { ...impression, m: -1 },
          { ...impression, m: 4294967296000 },
          { ...impression, c: 1.5 },
          { ...impression, k: 'a\ud800' },
          { ...impression, r: 'x'.repeat(251) },
          { ...impression, properties: 'p\udc00' },
          { ...impression, properties: { deep: { deeper: 1 } } },
          { t: 'on', m: 1 },
          'not an object',
          JSON.parse(
            JSON.stringify({ ...impression, k: 'proto-ok' }).replace('{', '{"__proto__":{"polluted":true},'),
          ) as unknown,
        ],
      },
    ])
    expect(impressions.map((r) => [r.source_index, (r as unknown as { key: string }).key])).toEqual([
      [0, 'user-1'],
      [10, 'user-1'],
      [13, 'proto-ok'],
    ])
    expect((impressions[1] as unknown as { properties: string }).properties).toBe('{"deep":{"deeper":1}}')
    expect(rejections.map((r) => [r.source_index, r.reason])).toEqual([
      [1, 'k must be a key: a string of 1 to 250 characters'],
      [2, 't must be a treatment: a string of 1 to 250 characters'],
      [3, 'm must be an epoch time in milliseconds (an integer from 0 to 4294967295000)'],
      [4, 'm must be an epoch time in milliseconds (an integer from 0 to 4294967295000)'],
      [5, 'm must be an epoch time in milliseconds (an integer from 0 to 4294967295000)'],
      [6, 'c must be an integer change number or null'],
      [7, 'k contains a lone UTF-16 surrogate (malformed Unicode)'],
      [8, 'r must be a label: a string of at most 250 characters, or null'],
      [9, 'properties contains a lone UTF-16 surrogate (malformed Unicode)'],
      [11, 'k is required'],
      [12, 'impression must be a JSON object'],
    ])
    for (const r of rejections) expect(r.kind).toBe('impressions')
    // The raw copy names the flag beside the impression.
    expect(JSON.parse(rejections[0]!.raw)).toEqual({ f: 'flag', ...impression, k: '' })
  })

  it('rejects every impression of a group whose flag is bad, and a group that is not {f, i} once', () => {
    const { impressions, rejections } = run('impressions', [
      { f: 'bad\nflag', i: [impression, impression] },
      { f: 'ok', i: 'nope' },
      7,
      { i: [impression] },
    ])
    expect(impressions).toEqual([])
    expect(rejections.map((r) => [r.source_index, r.reason])).toEqual([
      [0, 'f must be a flag name: a string of 1 to 250 characters without control characters'],
      [1, 'f must be a flag name: a string of 1 to 250 characters without control characters'],
      [2, 'i must be an array of impressions'],
      [3, 'an impressions group must be an object {f, i}'],
      [4, 'f must be a flag name: a string of 1 to 250 characters without control characters'],
    ])
  })
})

describe('impression counts', () => {
  it('makes a row per flag and hour, and rejects bad counts by field', () => {
    const { counts, rejections } = run('impression_counts', [
      { f: 'a', m: 1_699_999_200_000, rc: 12 },
      { f: 'b', m: 1_699_999_200_000, rc: -1 },
      { f: 'c', rc: 3 },
      { f: 'd', m: 1_699_999_200_000, rc: 2 ** 60 },
    ])
    expect(counts).toEqual([
      expect.objectContaining({
        flag: 'a',
        hour: 1_699_999_200,
        hour_ms: 1_699_999_200_000,
        count: 12,
        source_index: 0,
      }),
    ])
    expect(rejections.map((r) => [r.source_index, r.reason, r.kind])).toEqual([
      [1, 'rc must be a count: an integer of 0 or more', 'impression_counts'],
      [2, 'm is required', 'impression_counts'],
      [3, 'rc must be a count: an integer of 0 or more', 'impression_counts'],
    ])
  })
})

describe('unique keys', () => {
  it('makes a row per flag and key from server-side {f, ks} and client-side {k, fs}, on the receive day', () => {
    const ss = run('unique_keys_ss', [
      { f: 'a', ks: ['k1', 'k2'] },
      { f: 'b', ks: ['k1', '', 'k\ud800'] },
    ])
    expect(
      ss.keys.map((r) => [
        r.source_index,
        (r as unknown as { flag: string; key: string; day: string }).flag,
        (r as unknown as { key: string }).key,
        (r as unknown as { day: string }).day,
      ]),
    ).toEqual([
      [0, 'a', 'k1', '2023-11-14'],
      [1, 'a', 'k2', '2023-11-14'],
      [2, 'b', 'k1', '2023-11-14'],
    ])
    expect(ss.rejections.map((r) => [r.source_index, r.reason, r.kind])).toEqual([
      [3, 'ks[1] must be a key: a string of 1 to 250 characters', 'unique_keys'],
      [4, 'ks[2] contains a lone UTF-16 surrogate (malformed Unicode)', 'unique_keys'],
    ])
    const cs = run('unique_keys_cs', [
      { k: 'user-1', fs: ['a', 'b'] },
      { k: 'user-2', fs: 'a' },
      { k: 5, fs: ['a'] },
    ])
    expect(
      cs.keys.map((r) => [(r as unknown as { flag: string }).flag, (r as unknown as { key: string }).key]),
    ).toEqual([
      ['a', 'user-1'],
      ['b', 'user-1'],
    ])
    expect(cs.rejections.map((r) => r.reason)).toEqual([
      'fs must be an array of flag names',
      'k must be a key: a string of 1 to 250 characters',
    ])
  })
})

describe('telemetry', () => {
  it('keeps the body as sent, with its impressions mode, operation mode and storage in columns', () => {
    const config = { oM: 0, st: 'memory', iM: 1, iQ: 30000, rR: { sp: 60 } }
    const { telemetry, rejections } = run('telemetry_config', [config])
    expect(rejections).toEqual([])
    expect(telemetry).toEqual([
      expect.objectContaining({
        kind: 'config',
        impressions_mode: 'DEBUG',
        operation_mode: '0',
        storage: 'memory',
        payload: JSON.stringify(config),
        sdk_version: 'nodejs-11.11.2',
      }),
    ])
    const usage = run('telemetry_usage', [{ iQ: 3, lS: {} }, ['not', 'an', 'object'], { big: 'x'.repeat(70_000) }])
    expect(usage.telemetry).toEqual([
      expect.objectContaining({ kind: 'usage', impressions_mode: 'DEBUG', operation_mode: '' }),
    ])
    expect(usage.rejections.map((r) => [r.reason, r.kind])).toEqual([
      ['telemetry must be a JSON object', 'telemetry'],
      ['telemetry must be at most 65536 characters as JSON', 'telemetry'],
    ])
  })
})

it('files a message of an unknown kind as rejections, one per record', () => {
  const { rejections } = run('surprise', [{ a: 1 }, { b: 2 }])
  expect(rejections.map((r) => [r.source_index, r.kind, r.reason])).toEqual([
    [0, 'unknown', 'kafka message of unknown kind "surprise"'],
    [1, 'unknown', 'kafka message of unknown kind "surprise"'],
  ])
})
