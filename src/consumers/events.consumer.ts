// The events topic → events and event_rejections. Each message holds a request's records as lines the
// edge made (broker/messages/events.ts): an event's columns already encoded, which become a row with
// the message's origin and position, or a rejection naming the field. Messages of the format before
// (JSON arrays) are read through the same lines.
import { eventLinesOf, recordOfLine } from '../broker/messages/events.js'
import { metaOf } from '../broker/messages/records.js'
import { EVENT_LINE, REJECTED_LINE, type EncodedEventRow } from '../pipeline/events.js'
import { originOf, rejectionRow, rowOrigin, type RowOrigin } from '../pipeline/rows.js'
import { tsvText } from '../shared/tsv.js'
import { EVENT_REJECTIONS, EVENTS } from '../sinks/clickhouse/tables.js'
import type { RowCodec } from './clickhouse.consumer.js'

/** An E line: "E", then 8 columns (traffic type, event type, key, timestamp, ms, raw, value, properties). */
const EVENT_TABS = 8

export const EVENTS_CODEC: RowCodec = {
  tables: [EVENTS],
  rejections: EVENT_REJECTIONS,
  decode(message, position, out) {
    const meta = metaOf(message.headers)
    const { text, lines } = eventLinesOf(message)
    if (!lines) {
      out.reject(rejectionRow('kafka message is not an event batch written by the edge', text, meta, position(0)))
      return
    }
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!
      const kind = line.slice(0, 2)
      if (kind === `${EVENT_LINE}\t`) {
        // The two columns the sink reads from a row (where its rows are, which month): the event type and the
        // timestamp's seconds, between the first tabs; the rest is sent as encoded.
        const t1 = line.indexOf('\t', 2)
        const t2 = line.indexOf('\t', t1 + 1)
        const t3 = line.indexOf('\t', t2 + 1)
        const seconds = Number(line.slice(t3 + 1, t3 + 11))
        if (t3 > 0 && line[t3 + 11] === '\t' && Number.isSafeInteger(seconds) && tabs(line) === EVENT_TABS) {
          const row = rowOrigin(meta, position(index)) as EncodedEventRow
          row.event_type = line.slice(t1 + 1, t2)
          row.timestamp = seconds
          row.tsv = line.slice(2)
          out.add<RowOrigin>(EVENTS, row, line)
          continue
        }
      } else if (kind === `${REJECTED_LINE}\t`) {
        const tab = line.indexOf('\t', 2)
        if (tab > 0) {
          const reason = tsvText(line.slice(2, tab)) ?? ''
          out.reject(rejectionRow(reason, tsvText(line.slice(tab + 1)) ?? '', meta, position(index)))
          continue
        }
      }
      out.reject(rejectionRow('line of an event batch is malformed', line, meta, position(index)))
    }
  },
  // The raw copy of a row ClickHouse refused (it passed every check): the record again, from its line.
  refused(_table, row, reason, record) {
    const { meta, source } = originOf(row)
    return rejectionRow(reason, typeof record === 'string' ? recordOfLine(record) : record, meta, source)
  },
}

/** The tabs of a line, counted up to one more than an E line has. */
function tabs(line: string): number {
  let n = 0
  for (let i = line.indexOf('\t'); i >= 0 && n <= EVENT_TABS; i = line.indexOf('\t', i + 1)) n++
  return n
}
