// The events topic → events and event_rejections. Each message holds a request's records as lines the
// edge made (broker/messages/events.ts): an event's columns already encoded, which become a row with
// the message's origin and position (its bytes sent to ClickHouse as they came from Kafka, never
// decoded), or a rejection naming the field. Messages of the format before (JSON arrays) are made
// into the same lines first. An environment with a tracking plan has each event checked against it
// (pipeline/plans.ts): a violating event is stored, stored without its unplanned properties, or refused,
// as the plan's mode says, and reported in event_violations at the event's position.
import { eventLinesOf, recordOfColumns } from '../broker/messages/events.js'
import { metaOf } from '../broker/messages/records.js'
import type { InboundMessage } from '../broker/ports.js'
import { EVENT_TYPE_ID, type EncodedEventRow } from '../pipeline/events.js'
import { planRefusal, SAMPLE_CHARS, type CompiledPlan, type ViolationRow } from '../pipeline/plans.js'
import {
  originOf,
  rejectionRow,
  rowOrigin,
  type EnvelopeMeta,
  type RowOrigin,
  type SourcePosition,
} from '../pipeline/rows.js'
import { safeJson } from '../shared/json-checks.js'
import { tsvText } from '../shared/tsv.js'
import { EVENT_REJECTIONS, EVENT_VIOLATIONS, EVENTS } from '../sinks/clickhouse/tables.js'
import type { DecodedRows, RowCodec } from './clickhouse.consumer.js'

const [TAB, NEWLINE, E, R, ZERO] = [0x09, 0x0a, 0x45, 0x52, 0x30]
/** An E line: "E", then 8 columns (traffic type, event type, key, timestamp, ms, raw, value, properties). */
const EVENT_TABS = 8
/** The latest second a DateTime column holds. */
const MAX_DATETIME = 4294967295

/** The environments' tracking plans, as the events consumer reads them (consumers/plan-book.ts). */
export interface PlanLookup {
  /** The plans of the messages' environments, by environment id (none: no plan); throws when they cannot be read. */
  plansOf(messages: readonly InboundMessage[]): Promise<ReadonlyMap<string, CompiledPlan>>
}

/** The events topic's codec; with plans, each environment's events are checked against its tracking plan. */
export function eventsCodec(plans?: PlanLookup): RowCodec {
  return {
    tables: plans ? [EVENTS, EVENT_VIOLATIONS] : [EVENTS],
    rejections: EVENT_REJECTIONS,
    ...(plans && {
      prepare: async (messages: readonly InboundMessage[]) => ({ plans: await plans.plansOf(messages) }),
    }),
    decode: (message, position, out, context) => decode(message, position, out, context?.plans),
    refused,
  }
}

export const EVENTS_CODEC = eventsCodec()

function decode(
  message: InboundMessage,
  position: (index: number) => SourcePosition,
  out: DecodedRows,
  plans: ReadonlyMap<string, CompiledPlan> | undefined,
): void {
  const meta = metaOf(message.headers)
  const bytes = eventLinesOf(message)
  if (!bytes) {
    const text = message.value.toString('utf8')
    out.reject(rejectionRow('kafka message is not an event batch written by the edge', text, meta, position(0)))
    return
  }
  const plan = plans?.get(meta.environmentId)
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
        const source = position(index)
        const row = rowOrigin(meta, source) as EncodedEventRow
        row.event_type = eventType
        row.timestamp = seconds
        row.tsv = bytes.subarray(line + 2, end)
        if (plan) checked(plan, row, meta, source, out)
        else out.add<RowOrigin>(EVENTS, row, row.tsv)
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
}

/** The raw copy of a row ClickHouse refused (it passed every check): the record again, from its columns. */
function refused(_table: unknown, row: RowOrigin, reason: string, record: unknown) {
  const { meta, source } = originOf(row)
  return rejectionRow(reason, Buffer.isBuffer(record) ? recordOfColumns(record) : record, meta, source)
}

/**
 * The properties' JSON without the unplanned ones; undefined when it cannot be made (a forged line's value nested past
 * what JSON.stringify can walk: the event is then stored as sent, and reported).
 */
function stripped(properties: Record<string, unknown>, unplanned: readonly string[]): string | undefined {
  const drop = new Set(unplanned)
  // A null-prototype object takes a property named __proto__ as its own, as JSON.parse made it.
  const kept = Object.create(null) as Record<string, unknown>
  for (const name of Object.keys(properties)) if (!drop.has(name)) kept[name] = properties[name]
  try {
    return JSON.stringify(kept)
  } catch {
    return undefined
  }
}

/**
 * An event of an environment with a plan: stored, stored without its unplanned properties (strip) or refused (block),
 * with a report of its violations beside it. Its columns are decoded only here (the value and properties, as text).
 */
function checked(
  plan: CompiledPlan,
  row: EncodedEventRow,
  meta: EnvelopeMeta,
  source: SourcePosition,
  out: DecodedRows,
): void {
  // The columns: traffic type, event type, key, timestamp, ms, raw, value, properties (tabs inside are escaped): only
  // the last two are read for the check, the others only for a report.
  const tsv = row.tsv
  const t8 = tsv.lastIndexOf(TAB)
  const t7 = tsv.lastIndexOf(TAB, t8 - 1)
  let properties: Record<string, unknown>
  try {
    properties = JSON.parse(tsvText(tsv.toString('utf8', t8 + 1)) ?? '{}') as Record<string, unknown>
  } catch {
    properties = {}
  }
  const valueText = tsv.toString('latin1', t7 + 1, t8)
  const verdict = plan.check(row.event_type, valueText === '\\N' ? null : Number(valueText), properties)
  if (!verdict) {
    out.add<RowOrigin>(EVENTS, row, tsv)
    return
  }
  const columns = tsv.toString('utf8')
  const fields = columns.split('\t')
  let outcome: ViolationRow['outcome'] = 'stored'
  const record = recordOfColumns(columns)
  const text =
    plan.mode === 'strip' && verdict.unplanned.length > 0 ? stripped(properties, verdict.unplanned) : undefined
  if (plan.mode === 'block') {
    out.reject(rejectionRow(planRefusal(plan.version, verdict), record, meta, source))
    outcome = 'refused'
  } else if (text !== undefined) {
    // JSON.stringify escapes every control character: of TabSeparated's specials only a backslash can be in its text.
    fields[7] = text.includes('\\') ? text.replaceAll('\\', '\\\\') : text
    row.tsv = Buffer.from(fields.join('\t'), 'utf8')
    out.add<RowOrigin>(EVENTS, row, row.tsv)
    outcome = 'stripped'
  } else out.add<RowOrigin>(EVENTS, row, row.tsv)
  const report = rowOrigin(meta, source) as ViolationRow
  report.event_type = row.event_type
  report.key = tsvText(fields[2] ?? '') ?? ''
  report.plan_version = plan.version
  report.mode = plan.mode
  report.outcome = outcome
  report.rules = verdict.rules.join(',')
  report.violations = verdict.count
  report.details = JSON.stringify(verdict.violations)
  report.sample = safeJson(record, SAMPLE_CHARS)
  out.add<ViolationRow>(EVENT_VIOLATIONS, report, undefined)
}
