import { describe, expect, it } from 'vitest'
import { encodeImpressionMessages, IMPRESSION_HEADERS, sdkMetaOf } from '../../../../src/broker/messages/impressions.js'
import { RecordTooLargeError } from '../../../../src/broker/messages/records.js'
import type { SdkMeta } from '../../../../src/pipeline/impressions.js'

const meta: SdkMeta = {
  environmentId: 'env',
  accountId: 'acc',
  receivedAtMs: 123,
  sdkVersion: 'java-4.18.2',
  requestId: 'req',
  kind: 'impressions',
  impressionsMode: 'OPTIMIZED',
  machineIp: '10.1.2.3',
  machineName: 'host',
}
const impression = (i: number) => ({
  k: `user-${i}`,
  t: 'on',
  m: 1_700_000_000_000 + i,
  c: 1,
  r: 'default rule',
  b: null,
  pt: null,
})

describe('encodeImpressionMessages', () => {
  it('carries the kind and the SDK headers, and reads them back', () => {
    const [message] = encodeImpressionMessages('impressions', [{ f: 'a', i: [impression(1)] }], meta, {
      bodyBytes: 100,
      maxBytes: 20_000,
    })
    expect(message!.headers).toMatchObject({
      [IMPRESSION_HEADERS.kind]: 'impressions',
      [IMPRESSION_HEADERS.impressionsMode]: 'OPTIMIZED',
      [IMPRESSION_HEADERS.machineIp]: '10.1.2.3',
      [IMPRESSION_HEADERS.machineName]: 'host',
      [IMPRESSION_HEADERS.part]: '0',
    })
    expect(sdkMetaOf(message!.headers)).toEqual({ ...meta, part: 0 })
  })

  it('splits a group larger than a message into groups of the same flag, keeping every impression in order', () => {
    const records = [
      { f: 'small', i: [impression(0)] },
      { f: 'big', i: Array.from({ length: 2000 }, (_, i) => impression(i)) },
    ]
    const messages = encodeImpressionMessages('impressions', records, meta, {
      bodyBytes: JSON.stringify(records).length,
      maxBytes: 20_000,
      text: JSON.stringify(records),
    })
    expect(messages.length).toBeGreaterThan(5)
    for (const m of messages) expect(m.value.length).toBeLessThanOrEqual(20_000)
    const groups = messages.flatMap((m) => JSON.parse(m.value.toString()) as { f: string; i: unknown[] }[])
    expect(new Set(groups.map((g) => g.f))).toEqual(new Set(['small', 'big']))
    expect(groups.filter((g) => g.f === 'big').flatMap((g) => g.i)).toEqual(records[1]!.i)
    expect(messages.map((m) => m.headers[IMPRESSION_HEADERS.part])).toEqual(messages.map((_, i) => String(i)))
  })

  it('splits unique keys the same way, and refuses one impression larger than a message', () => {
    const keys = [{ f: 'a', ks: Array.from({ length: 5000 }, (_, i) => `key-${i}`) }]
    const messages = encodeImpressionMessages(
      'unique_keys_ss',
      keys,
      { ...meta, kind: 'unique_keys_ss' },
      { bodyBytes: 100, maxBytes: 10_000 },
    )
    expect(
      messages.flatMap((m) => (JSON.parse(m.value.toString()) as { ks: string[] }[]).flatMap((e) => e.ks)),
    ).toEqual(keys[0]!.ks)
    const huge = [{ f: 'a', i: [{ ...impression(1), properties: 'x'.repeat(30_000) }] }]
    expect(() => encodeImpressionMessages('impressions', huge, meta, { bodyBytes: 30_100, maxBytes: 20_000 })).toThrow(
      RecordTooLargeError,
    )
  })
})
