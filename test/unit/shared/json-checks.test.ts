import { describe, expect, it } from 'vitest'
import { describeJsonProblem, inspectJson, jsonProblemField, safeJson } from '../../../src/shared/json-checks.js'

function nest(depth: number, leaf: unknown = 'x'): unknown {
  let v = leaf
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v]
  return v
}

describe('inspectJson', () => {
  it('accepts clean values up to the depth limit, and names where the limit is passed', () => {
    expect(inspectJson({ a: [1, 'two', null, true, { b: -0 }] })).toBeUndefined()
    expect(inspectJson(nest(64))).toBeUndefined()
    const problem = inspectJson({ deep: nest(64) })
    expect(problem?.problem).toBe('nests deeper than 64 levels')
    expect(problem?.path).toMatch(/^deep(\.a\[0\])+/)
    expect(inspectJson(nest(10), { maxDepth: 5 })?.problem).toBe('nests deeper than 5 levels')
  })

  it('finds numbers beyond a double and lone surrogates (high, low, in names), with their path', () => {
    expect(inspectJson(JSON.parse('{"a":[1,{"b":1e400}]}'))).toEqual({
      path: 'a[1].b',
      problem: 'is a number beyond the range of a double',
    })
    expect(inspectJson({ k: 'a\ud800b' })).toEqual({
      path: 'k',
      problem: 'contains a lone UTF-16 surrogate (malformed Unicode)',
    })
    expect(inspectJson(['ok', 'x\udc00'])).toEqual({
      path: '[1]',
      problem: 'contains a lone UTF-16 surrogate (malformed Unicode)',
    })
    expect(inspectJson({ ['n\ud800']: 1 })?.problem).toBe('is a name with a lone UTF-16 surrogate (malformed Unicode)')
    expect(inspectJson({ emoji: '😀', pair: '\ud83d\ude00' })).toBeUndefined()
    expect(inspectJson({ k: 'a\ud800b' }, { allowLoneSurrogates: true })).toBeUndefined()
  })

  it('walks 100,000 levels without exhausting the stack', () => {
    let text = ''
    for (let i = 0; i < 100_000; i++) text += '['
    for (let i = 0; i < 100_000; i++) text += ']'
    expect(inspectJson(JSON.parse(text))?.problem).toBe('nests deeper than 64 levels')
  })

  it('cuts long paths at a segment boundary', () => {
    const path = inspectJson(nest(200), { maxDepth: 150 })!.path
    expect(path.length).toBeLessThanOrEqual(161)
    expect(path).toMatch(/(\[0\]|\.a)…$/)
  })

  it('names fields as APIs do, and describes them from the root', () => {
    const p = { path: 'comment', problem: 'x' }
    expect(jsonProblemField('body', p)).toBe('comment')
    expect(jsonProblemField('body', { path: '[2].key', problem: 'x' })).toBe('body[2].key')
    expect(describeJsonProblem('payload', p)).toBe('payload.comment x')
    expect(describeJsonProblem('body', { path: '', problem: 'x' })).toBe('body x')
  })
})

describe('safeJson', () => {
  it('always gives bounded, well-formed text', () => {
    expect(safeJson({ a: 1 }, 100)).toBe('{"a":1}')
    expect(safeJson('a\ud800', 100)).toBe('a\ufffd')
    expect(safeJson('x'.repeat(50), 10)).toBe('x'.repeat(10))
    expect(safeJson('😀😀', 3)).toBe('😀\ufffd')
    expect(safeJson(nest(5000), 100)).toBe('[value nests deeper than 64 levels; not kept]')
    expect(safeJson(undefined, 100)).toBe('undefined')
  })
})
