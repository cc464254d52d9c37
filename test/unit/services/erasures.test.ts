// Which refused records an erasure selects, with RE2 itself (re2js, the syntax ClickHouse's match() uses), on records
// stored as the consumers store them (JSON.stringify of the record received), and how the keys are batched so that a
// statement stays far below ClickHouse's max_query_size whatever the keys hold. The e2e suite (erasures) runs the same
// selection on both engines.
import { RE2JS } from 're2js'
import { describe, expect, it } from 'vitest'
import { bind, Params } from '../../../src/analysis/sql.js'
import { batches, ofKeys, refusedKeyPattern } from '../../../src/services/erasures.js'

const selects = (fields: readonly string[], keys: readonly string[], record: unknown) =>
  RE2JS.compile(refusedKeyPattern(fields, keys)).matcher(JSON.stringify(record)).find()
const event = (key: unknown, more: Record<string, unknown> = {}) => ({ trafficTypeName: 'user', ...more, key })

describe('the refused records of a key', () => {
  it.each([
    ['a string', event('42')],
    ['a number', event(42)],
    ['a number written 42.0', JSON.parse('{"key":42.0}')],
    ['a number written 4.2e1', JSON.parse('{"key":4.2e1}')],
    ["Split's key object", event({ matchingKey: '42', bucketingKey: 'b' })],
    ['a key object whose bucketing key comes first and holds brackets', event({ bucketingKey: '{[x]}', id: '42' })],
    ['an array', event(['x', '42'])],
    ['a number in an object', event({ id: 42 })],
    ['a key after a field named key in the properties', { properties: { key: 'someone' }, key: '42' }],
    ['a key field nested in the properties', { key: 'someone', properties: { key: '42' } }],
    ['escapes and whitespace in the text sent', JSON.parse('{ "key" :  "\\u0034\\u0032" }')],
  ])("selects 42's record: %s", (_, record) => {
    expect(selects(['key'], ['42'], record)).toBe(true)
  })

  it.each([
    ['another number', event(420)],
    ['a decimal', event(4.2)],
    ['a negative number', event(-42)],
    ['a string with a space', event('42 ')],
    ['a prefix', event('4')],
    ['42 as a name in the key object', event({ 42: 'x' })],
    ['42 deeper than the key object', event({ user: { id: '42' } })],
    ['42 elsewhere in the record', event('other', { properties: { id: '42', note: '"key":"42"' } })],
    ['a field whose name ends in key', { monkey: '42', key: 'x' }],
    ['a name holding an escaped quote before key', event('x', { properties: { 'a"key': '42' } })],
    ['a value ending in a colon before 42 in the key object', event({ a: 'b:', c: '42x' })],
  ])("leaves another's record: %s", (_, record) => {
    expect(selects(['key'], ['42'], record)).toBe(false)
  })

  it('matches keys holding quotes, backslashes, control characters and emoji as stored, and only them', () => {
    const key = 'q "x" \\ é\t😀 .*+?()[]{}|^$'
    expect(selects(['key'], [key], event(key))).toBe(true)
    expect(selects(['key'], [key], event({ matchingKey: key }))).toBe(true)
    expect(selects(['key'], [key], event(key.slice(0, -1)))).toBe(false)
    expect(selects(['key'], [key], event('q "x" \\ é\t😀 ..........'))).toBe(false)
    expect(selects(['key'], ['a', key], event('a'))).toBe(true)
  })

  it("finds an impression's k and a unique-keys entry's ks, not another field", () => {
    expect(selects(['k', 'ks'], ['42'], { f: 'flag', k: 42, t: 5 })).toBe(true)
    expect(selects(['k', 'ks'], ['42'], { f: 'flag', ks: [42] })).toBe(true)
    expect(selects(['k', 'ks'], ['42'], { k: 42, fs: ['flag'] })).toBe(true)
    expect(selects(['k', 'ks'], ['42'], { f: 'flag', k: 'x', b: '42', t: '42' })).toBe(false)
  })

  it('finds a key at the end of a record cut at its size limit', () => {
    const pattern = RE2JS.compile(refusedKeyPattern(['key'], ['42']))
    expect(pattern.matcher('{"properties":{"a":"b"},"key":42').find()).toBe(true)
    expect(pattern.matcher('{"properties":{"a":"b"},"key":4').find()).toBe(false)
  })
})

describe('the statements of a job', () => {
  it('holds 100 ordinary keys a statement', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `user-${i}`)
    expect(batches(keys).map((b) => b.length)).toEqual(Array(10).fill(100))
    expect(batches(keys).flat()).toEqual(keys)
  })

  it('stays far below max_query_size (256 KiB) with keys of 250 escaped characters', () => {
    for (const c of ['\u0001', '"', '\\', '😀']) {
      const keys = Array.from(
        { length: 1000 },
        (_, i) => `${i}` + c.repeat(Math.floor((250 - `${i}`.length) / c.length)),
      )
      const made = batches(keys)
      expect(made.flat()).toEqual(keys)
      for (const batch of made) {
        for (const table of ['event_rejections', 'events'] as const) {
          const p = new Params()
          const sql = bind(p.query('test', `ALTER TABLE db.t DELETE WHERE ${ofKeys(p, 'env', table, batch)}`))
          expect(Buffer.byteLength(sql)).toBeLessThan(128 * 1024)
        }
      }
    }
  })
})
