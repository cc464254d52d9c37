// The impressions topic → impressions, impression_counts, unique_keys, sdk_telemetry and
// impression_rejections: each message is a JSON array of records of one kind
// (broker/messages/impressions.ts), each record a row or a rejection naming the field
// (pipeline/impressions.ts).
import { sdkMetaOf } from '../broker/messages/impressions.js'
import { recordsOf } from '../broker/messages/records.js'
import { impressionRejection, processImpressionRecords, type ImpressionsOutput } from '../pipeline/impressions.js'
import { originOf, type RowOrigin } from '../pipeline/rows.js'
import {
  IMPRESSION_COUNTS,
  IMPRESSION_REJECTIONS,
  IMPRESSIONS,
  SDK_TELEMETRY,
  UNIQUE_KEYS,
} from '../sinks/clickhouse/tables.js'
import type { RowCodec } from './clickhouse.consumer.js'

/** The kind of record each table holds, for the rejection of a row ClickHouse refused. */
const KIND_OF_TABLE: Record<string, string> = {
  [IMPRESSIONS.name]: 'impressions',
  [IMPRESSION_COUNTS.name]: 'impression_counts',
  [UNIQUE_KEYS.name]: 'unique_keys_ss',
  [SDK_TELEMETRY.name]: 'telemetry_config',
}

export const IMPRESSIONS_CODEC: RowCodec = {
  tables: [IMPRESSIONS, IMPRESSION_COUNTS, UNIQUE_KEYS, SDK_TELEMETRY],
  rejections: IMPRESSION_REJECTIONS,
  decode(message, position, out) {
    const meta = sdkMetaOf(message.headers)
    const { text, records } = recordsOf(message)
    if (!records) {
      out.reject(
        impressionRejection('kafka message is not a batch of SDK records written by the edge', text, meta, position(0)),
      )
      return
    }
    const output: ImpressionsOutput = {
      impression: (row, record) => out.add(IMPRESSIONS, row, record),
      count: (row, record) => out.add(IMPRESSION_COUNTS, row, record),
      uniqueKey: (row, record) => out.add(UNIQUE_KEYS, row, record),
      telemetry: (row, record) => out.add(SDK_TELEMETRY, row, record),
      reject: (rejection) => out.reject(rejection),
    }
    processImpressionRecords(records, meta, position, output)
  },
  refused(table, row, reason, record) {
    const { meta, source } = originOf(row)
    // Rows keep only their item (an impression, a key): the raw copy gets its group's flag back.
    const r = row as RowOrigin & { flag?: string; key?: string }
    const raw =
      table === IMPRESSIONS && record !== null && typeof record === 'object'
        ? { f: r.flag, ...record }
        : table === UNIQUE_KEYS
          ? { f: r.flag, k: r.key }
          : record
    return impressionRejection(
      reason,
      raw,
      { ...meta, kind: KIND_OF_TABLE[table.name] ?? '', impressionsMode: '', machineIp: '', machineName: '' },
      source,
    )
  },
}
