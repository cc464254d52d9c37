// The events topic → events and event_rejections. Each message holds a request's records as lines the
// edge made (broker/messages/events.ts): an event's columns already encoded, which become a row with
// the message's origin and position (its bytes sent to ClickHouse as they came from Kafka, never
// decoded), or a rejection naming the field. Messages of the format before (JSON arrays) are made
// into the same lines first.
import { eventLinesOf, recordOfColumns } from '../broker/messages/events.js'
import { metaOf } from '../broker/messages/records.js'
import { EVENT_TYPE_ID, type EncodedEventRow } from '../pipeline/events.js'
import { originOf, rejectionRow, rowOrigin, type RowOrigin } from '../pipeline/rows.js'
import { tsvText } from '../shared/tsv.js'
import { EVENT_REJECTIONS, EVENTS } from '../sinks/clickhouse/tables.js'
import type { RowCodec } from './clickhouse.consumer.js'

const [TAB, NEWLINE, E, R, ZERO] = [0x09, 0x0a, 0x45, 0x52, 0x30]
/** An E line: "E", then 8 columns (traffic type, event type, key, timestamp, ms, raw, value, properties). */
const EVENT_TABS = 8
/** The latest second a DateTime column holds. */
const MAX_DATETIME = 4294967295

export const EVENTS_CODEC: RowCodec = {
  tables: [EVENTS],
  rejections: EVENT_REJECTIONS,
  decode(message, position, out) {
    const meta = metaOf(message.headers)
    const bytes = eventLinesOf(message)
    if (!bytes) {
      const text = message.value.toString('utf8')
      out.reject(rejectionRow('kafka message is not an event batch written by the edge', text, meta, position(0)))
      return
    }
    for (let start = 0, index = 0; start < bytes.length; index++) {
      // One pass over the line: where it ends, how many tabs it has, where the 2nd to 5th are (around the event
      // type and the timestamp, the two columns the sink reads from a row: where its rows are, which month).
      let end = start
      let tabs = 0
      let t2 = 0
      let t3 = 0
      let t4 = 0
      let t5 = 0
      for (; end < bytes.length; end++) {
        const c = bytes[end]
        if (c === NEWLINE) break
        if (c === TAB) {
          tabs++
          if (tabs === 2) t2 = end
          else if (tabs === 3) t3 = end
          else if (tabs === 4) t4 = end
          else if (tabs === 5) t5 = end
        }
      }
      const kind = bytes[start]
      const line = start
      start = end + 1
      if (bytes[line + 1] === TAB && kind === E && tabs === EVENT_TABS && t5 === t4 + 11) {
        // The two columns the sink reads must be what ClickHouse stores: ten digits of a DateTime, an event type as
        // the schema allows (a forged line otherwise stores rows where the exactly-once check would not look).
        let seconds = 0
        for (let i = t4 + 1; i < t5; i++) {
          const digit = bytes[i]! - ZERO
          seconds = digit >= 0 && digit <= 9 ? seconds * 10 + digit : -1
          if (seconds < 0) break
        }
        const eventType = bytes.toString('utf8', t2 + 1, t3)
        if (seconds >= 0 && seconds <= MAX_DATETIME && EVENT_TYPE_ID.test(eventType)) {
          const row = rowOrigin(meta, position(index)) as EncodedEventRow
          row.event_type = eventType
          row.timestamp = seconds
          row.tsv = bytes.subarray(line + 2, end)
          out.add<RowOrigin>(EVENTS, row, row.tsv)
          continue
        }
      } else if (bytes[line + 1] === TAB && kind === R && tabs === 2) {
        const tab = bytes.indexOf(TAB, line + 2)
        const reason = tsvText(bytes.toString('utf8', line + 2, tab)) ?? ''
        out.reject(rejectionRow(reason, tsvText(bytes.toString('utf8', tab + 1, end)) ?? '', meta, position(index)))
        continue
      }
      const text = bytes.toString('utf8', line, end)
      out.reject(rejectionRow('line of an event batch is malformed', text, meta, position(index)))
    }
  },
  // The raw copy of a row ClickHouse refused (it passed every check): the record again, from its columns.
  refused(_table, row, reason, record) {
    const { meta, source } = originOf(row)
    return rejectionRow(reason, Buffer.isBuffer(record) ? recordOfColumns(record) : record, meta, source)
  },
}
