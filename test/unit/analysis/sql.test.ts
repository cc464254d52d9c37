// Parameters become literals of their declared type and nothing else: a value can never end its
// literal, start another statement or be read as another placeholder.
import { describe, expect, it } from 'vitest'
import { bind, literal, Params } from '../../../src/analysis/sql.js'

describe('bind', () => {
  it('quotes strings with quotes, backslashes and control characters escaped', () => {
    expect(literal("a'b\\c", 'String')).toBe("'a\\'b\\\\c'")
    expect(literal('x\u0000y\n', 'String')).toBe("'x\\x00y\\x0a'")
    expect(literal("'; DROP TABLE t; --", 'String')).toBe("'\\'; DROP TABLE t; --'")
  })

  it('substitutes in one pass: a value that looks like a placeholder stays text', () => {
    const p = new Params()
    const q = p.query('a test query', `SELECT ${p.string('{p1:String}')}, ${p.string('second')}`)
    expect(bind(q)).toBe("SELECT '{p1:String}', 'second'")
  })

  it('refuses numbers that are not finite or not integers where integers are declared, and ill-formed text', () => {
    const p = new Params()
    expect(() => p.int(1.5)).toThrow(TypeError)
    expect(() => p.float(Number.POSITIVE_INFINITY)).toThrow(TypeError)
    expect(() => p.string('\uD800')).toThrow(TypeError)
    expect(() => p.add('1; DROP', 'Int64')).toThrow(TypeError)
    expect(literal(2 ** 53 - 1, 'Int64')).toBe('toInt64(9007199254740991)')
    expect(literal(1e21, 'Float64')).toBe('toFloat64(1e+21)')
  })

  it('binds an array of strings as one parameter, each element escaped; an empty one or ill-formed text refused', () => {
    const p = new Params()
    const q = p.query('a test query', `SELECT ${p.stringArray(['plain', "o'k", 'x\n', '{p0:String}'])}`)
    expect(Object.keys(q.params)).toEqual(['p0'])
    expect(bind(q)).toBe("SELECT ['plain', 'o\\'k', 'x\\x0a', '{p0:String}']")
    expect(() => p.stringArray([])).toThrow(TypeError)
    expect(() => p.stringArray(['ok', '\uD800'])).toThrow(TypeError)
  })
})
