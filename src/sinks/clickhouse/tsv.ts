// Rows as ClickHouse's TabSeparated text, the insert format ClickHouse parses with the least work
// (about a fifth less of its CPU per event row than JSONEachRow, measured on the local stack); the
// fields' escaping is in shared/tsv.ts.
import { Readable } from 'node:stream'
import { tsvDateTime, tsvField, type TsvValue } from '../../shared/tsv.js'

/** Lines per chunk of the stream: rows are encoded as the insert reads them, not all at once. */
const ROWS_PER_CHUNK = 1000

/**
 * The rows' given columns, in that order, as a stream of TabSeparated text; dateTimes name the
 * DateTime columns. The first `shared` columns are those consecutive rows often repeat (the origin of
 * the rows of one Kafka message): their text is made once per run of rows with the same values.
 * A row that holds its columns from `encodedAfter` on already encoded (`tsv`: their UTF-8 bytes, as
 * the events topic carries them) has them sent as they are.
 */
export function tsvStream<T extends object>(
  rows: readonly T[],
  columns: readonly (keyof T & string)[],
  dateTimes: readonly (keyof T & string)[] = [],
  shared = 0,
  encodedAfter = columns.length,
): Readable {
  const encoders = columns.map((c) => (dateTimes.includes(c) ? (v: TsvValue) => tsvDateTime(v as number) : tsvField))
  const lead = Math.min(shared, columns.length - 1)
  return Readable.from(
    (function* () {
      let previous: T | undefined
      let prefix = ''
      for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
        let text = ''
        // The chunk's text and bytes in order, when rows hold bytes: written into one buffer at the chunk's end.
        const parts: (string | Buffer)[] = []
        const end = Math.min(rows.length, start + ROWS_PER_CHUNK)
        for (let r = start; r < end; r++) {
          const row = rows[r]!
          if (previous === undefined || !sameLead(previous, row, columns, lead)) {
            prefix = ''
            for (let c = 0; c < lead; c++) prefix += encoders[c]!(row[columns[c]!] as TsvValue) + '\t'
            previous = row
          }
          text += prefix
          const encoded = (row as { tsv?: Buffer }).tsv
          const upTo = encoded === undefined ? columns.length : encodedAfter
          for (let c = lead; c < upTo; c++) text += (c > lead ? '\t' : '') + encoders[c]!(row[columns[c]!] as TsvValue)
          if (encoded === undefined) text += '\n'
          else {
            parts.push(text + '\t', encoded)
            text = '\n'
          }
        }
        if (parts.length === 0) yield text
        else {
          parts.push(text)
          yield joined(parts)
        }
      }
    })(),
    { objectMode: false },
  )
}

/** Texts (as UTF-8) and bytes, one after the other, in one buffer. */
function joined(parts: readonly (string | Buffer)[]): Buffer {
  let bound = 0
  for (const p of parts) bound += typeof p === 'string' ? p.length * 3 : p.length
  const out = Buffer.allocUnsafe(bound)
  let at = 0
  for (const p of parts) at += typeof p === 'string' ? out.write(p, at) : p.copy(out, at)
  return out.subarray(0, at)
}

/** Whether two rows hold the same values in the first `lead` columns. */
function sameLead<T extends object>(a: T, b: T, columns: readonly (keyof T & string)[], lead: number): boolean {
  for (let c = 0; c < lead; c++) if (a[columns[c]!] !== b[columns[c]!]) return false
  return true
}
