import { expect, it } from 'vitest'
import { aclRules } from '../../../../src/state/redis/acl.js'
import { alertStreamKeys } from '../../../../src/state/redis/alert-streams.js'
import { accountPrefix, slotTag } from '../../../../src/state/redis/keys.js'

/** The hash tag Redis Cluster hashes a key by: the text between the first { and the next }, when not empty. */
function hashTag(key: string): string {
  const open = key.indexOf('{')
  const close = open < 0 ? -1 : key.indexOf('}', open + 1)
  return close > open + 1 ? key.slice(open + 1, close) : key
}

it('names keys as they always were with one Redis', () => {
  expect(slotTag('sluice:', false, 'admin')).toBe('sluice:')
  expect(accountPrefix('sluice:', false, 'acct-1')).toBe('sluice:')
  const keys = alertStreamKeys('sluice:')
  expect([keys.offsets, keys.all, keys.rejections, keys.integration('i1'), keys.payloads('i1'), keys.deleted]).toEqual([
    'sluice:alerts:offsets',
    'sluice:alerts:all',
    'sluice:alerts:rejections',
    'sluice:alerts:integration:i1',
    'sluice:alerts:payloads:i1',
    '',
  ])
  expect(alertStreamKeys('sluice:', false, 'acct-1')).toMatchObject({ all: 'sluice:alerts:all' })
})

it('puts every alert key of an account under its hash tag on a cluster, before any user data', () => {
  const keys = alertStreamKeys('sluice:', true, 'acct-1')
  const all = [keys.offsets, keys.all, keys.rejections, keys.integration('i{x}'), keys.payloads('i1'), keys.deleted]
  expect(new Set(all.map(hashTag))).toEqual(new Set(['a:acct-1']))
  expect(keys.all).toBe('sluice:{a:acct-1}:alerts:all')
  // Messages of no known account have an account of their own.
  expect(alertStreamKeys('sluice:', true, '').all).toBe('sluice:{a:-}:alerts:all')
  expect(hashTag(alertStreamKeys('sluice:', true, 'acct-2').all)).not.toBe(hashTag(keys.all))
})

it("lets the alert reader read every account's streams on a cluster, and nothing else of theirs", () => {
  expect(aclRules('sluice:')['sluice-alerts-reader']).toEqual(
    expect.arrayContaining(['~sluice:alerts:all', '~sluice:alerts:rejections', '~sluice:alerts:integration:*']),
  )
  expect(aclRules('sluice:')['sluice-alerts-reader']).not.toContain('+cluster|slots')
  const reader = aclRules('sluice:', true)['sluice-alerts-reader']
  expect(reader.filter((r) => r.startsWith('~'))).toEqual([
    '~sluice:{a:*}:alerts:all',
    '~sluice:{a:*}:alerts:rejections',
    '~sluice:{a:*}:alerts:integration:*',
  ])
  expect(reader).toContain('+cluster|slots')
})
