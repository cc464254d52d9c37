// The events topic → events and event_rejections: each message is a JSON array of event records
// (broker/messages/events.ts), each record a row or a rejection naming the field (pipeline/events.ts).
import { metaOf, recordsOf } from '../broker/messages/records.js'
import { processEvent } from '../pipeline/events.js'
import { originOf, rejectionRow } from '../pipeline/rows.js'
import { EVENT_REJECTIONS, EVENTS } from '../sinks/clickhouse/tables.js'
import type { RowCodec } from './clickhouse.consumer.js'

export const EVENTS_CODEC: RowCodec = {
  tables: [EVENTS],
  rejections: EVENT_REJECTIONS,
  decode(message, position, out) {
    const meta = metaOf(message.headers)
    const { text, records } = recordsOf(message)
    if (!records) {
      out.reject(rejectionRow('kafka message is not an event batch written by the edge', text, meta, position(0)))
      return
    }
    records.forEach((record, index) => {
      const outcome = processEvent(record, meta, position(index))
      if (outcome.ok) out.add(EVENTS, outcome.row, record)
      else out.reject(outcome.rejection)
    })
  },
  refused(_table, row, reason, record) {
    const { meta, source } = originOf(row)
    return rejectionRow(reason, record, meta, source)
  },
}
