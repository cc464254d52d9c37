// Rows as ClickHouse's TabSeparated text, the insert format ClickHouse parses with the least work
// (about a fifth less of its CPU per event row than JSONEachRow, measured on the local stack).
// Fields are escaped as TabSeparated requires: backslash, tab, line feed, carriage return and NUL
// as backslash sequences; null as \N. Numbers must be finite (rows hold no other). A DateTime given
// as epoch seconds is sent with ten digits: ClickHouse reads a value whose fifth character is not a
// digit as a date (1234 would be the year 1234 and refused).
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

/** A DateTime column's epoch seconds (0 to 4294967295). */
export function tsvDateTime(seconds: number): string {
  return String(seconds).padStart(10, '0')
}

/**
 * The rows' given columns, in that order, as a stream of TabSeparated text; dateTimes name the
 * DateTime columns. The first `shared` columns are those consecutive rows often repeat (the origin of
 * the rows of one Kafka message): their text is made once per run of rows with the same values.
 */
export function tsvStream<T extends object>(
  rows: readonly T[],
  columns: readonly (keyof T & string)[],
  dateTimes: readonly (keyof T & string)[] = [],
  shared = 0,
): Readable {
  const encoders = columns.map((c) => (dateTimes.includes(c) ? (v: TsvValue) => tsvDateTime(v as number) : tsvField))
  const lead = Math.min(shared, columns.length - 1)
  return Readable.from(
    (function* () {
      let previous: T | undefined
      let prefix = ''
      for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
        let text = ''
        const end = Math.min(rows.length, start + ROWS_PER_CHUNK)
        for (let r = start; r < end; r++) {
          const row = rows[r]!
          if (previous === undefined || !sameLead(previous, row, columns, lead)) {
            prefix = ''
            for (let c = 0; c < lead; c++) prefix += encoders[c]!(row[columns[c]!] as TsvValue) + '\t'
            previous = row
          }
          text += prefix
          for (let c = lead; c < columns.length; c++)
            text += (c > lead ? '\t' : '') + encoders[c]!(row[columns[c]!] as TsvValue)
          text += '\n'
        }
        yield text
      }
    })(),
    { objectMode: false },
  )
}

/** Whether two rows hold the same values in the first `lead` columns. */
function sameLead<T extends object>(a: T, b: T, columns: readonly (keyof T & string)[], lead: number): boolean {
  for (let c = 0; c < lead; c++) if (a[columns[c]!] !== b[columns[c]!]) return false
  return true
}
