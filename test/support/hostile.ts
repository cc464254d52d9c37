// The hostile corpus the suites share.

const LONE_IN_KEY = /^key contains a lone UTF-16 surrogate/

/**
 * Poison records the edge accepts (202) and the consumer must reject one by one, with the reason expected: every kind
 * that once stopped storage for all tenants (a lone surrogate made ClickHouse refuse a whole insert; deep nesting
 * overflowed the stack). test/e2e/poison.e2e.test.ts checks each reason; the hostile soak sends them beside a
 * well-behaved account.
 */
export const POISON_EVENTS: readonly [string, Record<string, unknown>, RegExp][] = [
  ['lone high surrogate in key', { key: 'a\ud800b' }, LONE_IN_KEY],
  ['lone low surrogate in key', { key: 'a\udc00b' }, LONE_IN_KEY],
  [
    'lone surrogate in a property',
    { properties: { plan: 'pro\ud83d' } },
    /^properties\.plan contains a lone UTF-16 surrogate/,
  ],
  [
    'lone surrogate in a property name',
    { properties: { ['p\udfff']: 1 } },
    /^properties name "p\uFFFD" contains a lone UTF-16 surrogate/,
  ],
  ['overlong key', { key: 'k'.repeat(251) }, /^key must be a string of 1 to 250 characters/],
  [
    'overlong property',
    { properties: { note: 'x'.repeat(32769) } },
    /^properties\.note must be a string \(at most 32768 characters\)/,
  ],
  ['nested property', { properties: { deep: nest(20) } }, /^properties\.deep must be a string/],
]

export function nest(depth: number): unknown {
  let v: unknown = 'x'
  for (let i = 0; i < depth; i++) v = { v }
  return v
}
