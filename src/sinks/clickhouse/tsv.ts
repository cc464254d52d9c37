// Rows as ClickHouse's TabSeparated text, the insert format ClickHouse parses with the least work
// (about a fifth less of its CPU per event row than JSONEachRow, measured on the local stack).
// Fields are escaped as TabSeparated requires: backslash, tab, line feed, carriage return and NUL
// as backslash sequences; null as \N. Numbers must be finite (rows hold no other).
import { Readable } from 'node:stream'

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

/** Lines per chunk of the stream: rows are encoded as the insert reads them, not all at once. */
const ROWS_PER_CHUNK = 1000

/** The rows' given columns, in that order, as a stream of TabSeparated text. */
export function tsvStream<T extends object>(rows: readonly T[], columns: readonly (keyof T & string)[]): Readable {
  return Readable.from(
    (function* () {
      for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
        let text = ''
        for (const row of rows.slice(start, start + ROWS_PER_CHUNK)) {
          for (let c = 0; c < columns.length; c++) text += (c > 0 ? '\t' : '') + tsvField(row[columns[c]!] as TsvValue)
          text += '\n'
        }
        yield text
      }
    })(),
    { objectMode: false },
  )
}
