// Fields as ClickHouse's TabSeparated text: backslash, tab, line feed, carriage return and NUL as
// backslash sequences; null as \N. Numbers must be finite (rows hold no other). A DateTime given as
// epoch seconds is sent with ten digits: ClickHouse reads a value whose fifth character is not a
// digit as a date (1234 would be the year 1234 and refused). The sink's stream of rows
// (sinks/clickhouse/tsv.ts) and the events topic's lines (broker/messages/events.ts) use them.

export type TsvValue = string | number | null

const SPECIAL = /[\\\t\n\r\0]/
const SPECIALS = /[\\\t\n\r\0]/g
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' }

/** One field of a row. */
export function tsvField(value: TsvValue): string {
  if (value === null) return '\\N'
  if (typeof value === 'number') return String(value)
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]!) : value
}

/** A DateTime column's epoch seconds (0 to 4294967295). */
export function tsvDateTime(seconds: number): string {
  return String(seconds).padStart(10, '0')
}

const UNESCAPES: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r', '0': '\0' }

/** A field's text again (tsvField's inverse for text; \N is null). */
export function tsvText(field: string): string | null {
  if (field === '\\N') return null
  return field.includes('\\') ? field.replace(/\\(.)/gs, (_, c: string) => UNESCAPES[c] ?? c) : field
}
