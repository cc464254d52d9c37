// Parameterized ClickHouse SQL. Query text is written only by the builders in this folder; every
// value that comes from a caller (an environment, a flag, a rule, an event type, a property name or
// value, a time) is a typed parameter `{name:Type}`. ClickHouse 18.16, the release Debian ships and
// Sluice supports, has no server-side query parameters (they came in 19.x), so `bind` substitutes
// the parameters into the text as literals of their declared type, in one pass over the builder's
// text (a value is never scanned again): strings quoted with every quote, backslash and control
// character escaped, numbers only when finite and of the declared kind. Nothing else reaches SQL.

export type ParamType = 'String' | 'Int64' | 'Float64' | 'Array(String)'
export type ParamValue = string | number | readonly string[]

export interface Query {
  /** SQL with `{name:Type}` placeholders. */
  readonly text: string
  readonly params: Readonly<Record<string, ParamValue>>
  /** What the query is for, in logs and errors ("the experiment results query"). */
  readonly purpose: string
}

/** Collects parameters under generated names while a builder writes its text. */
export class Params {
  private readonly values: Record<string, ParamValue> = {}
  private count = 0

  /** A placeholder for `value`, declared as `type`. */
  add(value: ParamValue, type: ParamType): string {
    checkValue(value, type)
    const name = `p${this.count++}`
    this.values[name] = value
    return `{${name}:${type}}`
  }

  string(value: string): string {
    return this.add(value, 'String')
  }

  int(value: number): string {
    return this.add(value, 'Int64')
  }

  float(value: number): string {
    return this.add(value, 'Float64')
  }

  /** A tuple of String placeholders, for `IN`. */
  strings(values: readonly string[]): string {
    return `(${values.map((v) => this.string(v)).join(', ')})`
  }

  /**
   * An array of strings as one placeholder (an identity dimension's 100,000 keys: one parameter, not 100,000).
   * Non-empty: ClickHouse cannot type an empty array literal.
   */
  stringArray(values: readonly string[]): string {
    return this.add(values, 'Array(String)')
  }

  query(purpose: string, text: string): Query {
    return { text, params: { ...this.values }, purpose }
  }
}

const PLACEHOLDER = /\{(p\d+):(String|Int64|Float64|Array\(String\))\}/g

/** The query's text with its parameters as typed literals (one pass; see the file's note). */
export function bind(query: Query): string {
  return query.text.replace(PLACEHOLDER, (_match, name: string, type: ParamType) => {
    if (!Object.hasOwn(query.params, name)) throw new Error(`query parameter ${name} has no value`)
    return literal(query.params[name]!, type)
  })
}

/** A ClickHouse literal of the declared type. */
export function literal(value: ParamValue, type: ParamType): string {
  checkValue(value, type)
  if (type === 'String') return `'${escapeString(value as string)}'`
  if (type === 'Array(String)') return `[${(value as readonly string[]).map((v) => `'${escapeString(v)}'`).join(', ')}]`
  if (type === 'Int64') return `toInt64(${String(value)})`
  return `toFloat64(${JSON.stringify(value)})`
}

function checkValue(value: ParamValue, type: ParamType): void {
  if (type === 'Array(String)') {
    if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v.isWellFormed()))
      throw new TypeError('an Array(String) parameter must be a non-empty array of well-formed strings')
  } else if (type === 'String') {
    if (typeof value !== 'string' || !value.isWellFormed())
      throw new TypeError('a String parameter must be a well-formed string')
  } else if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    (type === 'Int64' && !Number.isSafeInteger(value))
  ) {
    throw new TypeError(`a ${type} parameter must be a finite ${type === 'Int64' ? 'safe integer' : 'number'}`)
  }
}

/** What a string literal escapes: backslash, quote and every control character. */
const TO_ESCAPE = /[\\'\u0000-\u001f\u007f]/
const EVERY_TO_ESCAPE = new RegExp(TO_ESCAPE.source, 'g')

/** Backslash, quote and every control character escaped (ClickHouse's string literal rules). */
function escapeString(s: string): string {
  if (!TO_ESCAPE.test(s)) return s
  return s.replace(EVERY_TO_ESCAPE, (c) =>
    c === '\\' ? '\\\\' : c === "'" ? "\\'" : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  )
}
