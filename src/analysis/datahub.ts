// The SQL of the Data Hub's views for importers, read-only and bounded like the results: refused records of an
// environment grouped by reason. Every caller value is a parameter (sql.ts); table names come from the configuration.
import { Params, type Query } from './sql.js'

/** How much of a refused record an example carries (characters of its raw text; the rest is cut). */
export const EXAMPLE_CHARS = 2048
/** Examples per reason. */
export const EXAMPLES = 5
/** Reasons per answer, most records first. */
export const MAX_REASONS = 100

/**
 * One row per reason the environment's records were refused for within [from, to] (receive time), most first: the
 * records, the first and last time, and EXAMPLES of its records (any: the first the engine meets; their raw text cut
 * to a bound, its full length, request id and receive time); and the total in `total` of every row.
 */
export function rejectionsQuery(table: string, environmentId: string, from: number, to: number): Query {
  const p = new Params()
  const where = receivedWithin(p, environmentId, from, to)
  return p.query(
    'the refused records query',
    `SELECT reason, count() AS records, min(received_at_ms) AS firstMs, max(received_at_ms) AS lastMs,
            groupArray(${EXAMPLES})(substring(raw, 1, ${EXAMPLE_CHARS * 4})) AS raws,
            groupArray(${EXAMPLES})(length(raw)) AS bytes,
            groupArray(${EXAMPLES})(request_id) AS requestIds,
            groupArray(${EXAMPLES})(received_at_ms) AS receivedMs,
            (SELECT count() FROM ${table} WHERE ${where}) AS total
     FROM ${table}
     WHERE ${where}
     GROUP BY reason
     ORDER BY records DESC, reason
     LIMIT ${MAX_REASONS}`,
  )
}

/** Rows of a violations answer (event type × rule × SDK version), most records first. */
export const MAX_VIOLATION_ROWS = 200
/** Examples per violations row. */
export const VIOLATION_EXAMPLES = 3

/** The where clause of an environment's records received within [from, to] (epoch ms). */
export function receivedWithin(p: Params, environmentId: string, from: number, to: number): string {
  return `environment_id = ${p.string(environmentId)}
       AND received_at BETWEEN toDateTime(${p.int(Math.floor(from / 1000))}) AND toDateTime(${p.int(Math.ceil(to / 1000))})
       AND received_at_ms BETWEEN ${p.int(from)} AND ${p.int(to)}`
}

/**
 * The tracking plan's reports of an environment within [from, to] (receive time): one row per event type, rule broken
 * and SDK version, most records first, with what became of the records (stored, stripped, refused), the first and last
 * time, and examples (their violations and the record); in every row the totals (records, stripped, refused), read
 * in one pass.
 */
export function violationsQuery(table: string, environmentId: string, from: number, to: number): Query {
  const p = new Params()
  const where = receivedWithin(p, environmentId, from, to)
  return p.query(
    'the tracking plan violations query',
    `SELECT event_type AS eventType, arrayJoin(splitByChar(',', rules)) AS rule, sdk_version AS sdkVersion,
            count() AS records, countIf(outcome = 'stored') AS stored, countIf(outcome = 'stripped') AS stripped,
            countIf(outcome = 'refused') AS refused, min(received_at_ms) AS firstMs, max(received_at_ms) AS lastMs,
            groupArray(${VIOLATION_EXAMPLES})(details) AS details, groupArray(${VIOLATION_EXAMPLES})(sample) AS samples,
            groupArray(${VIOLATION_EXAMPLES})(plan_version) AS versions,
            (SELECT tuple(count(), countIf(outcome = 'stripped'), countIf(outcome = 'refused')) FROM ${table} WHERE ${where})
              AS totals
     FROM ${table}
     WHERE ${where}
     GROUP BY eventType, rule, sdkVersion
     ORDER BY records DESC, eventType, rule, sdkVersion
     LIMIT ${MAX_VIOLATION_ROWS}`,
  )
}

/** Event types or flags per catalogue answer, most records in the last 30 days first. */
export const MAX_CATALOGUE_ROWS = 1000
/** Records of one event type whose properties are read for its property names, types and fill rate. */
export const PROPERTY_SAMPLE = 1000
/**
 * Bytes of a record's property names read (with the first character of each value, which gives its type): what one
 * request reads of the sample is at most PROPERTY_SAMPLE of these (16 MiB), whatever the rows hold.
 */
export const PROPERTY_NAMES_BYTES = 16 * 1024
/** SDK versions and treatments listed per row: the most frequent (topK, bounded memory whatever the values). */
export const MAX_LISTED = 20

const DAY = 86_400_000

/**
 * The counts every catalogue row has, over the records received since `since` (epoch ms): first and last receive
 * time, and the records of the last 24 hours, 7 days and 30 days before `now`.
 */
function seenColumns(p: Params, now: number): string {
  return `min(received_at_ms) AS firstMs, max(received_at_ms) AS lastMs,
          countIf(received_at_ms > ${p.int(now - DAY)}) AS last24h,
          countIf(received_at_ms > ${p.int(now - 7 * DAY)}) AS last7d,
          countIf(received_at_ms > ${p.int(now - 30 * DAY)}) AS last30d,
          topK(${MAX_LISTED})(sdk_version) AS sdkVersions`
}

/** What bounds a catalogue's scan: the environment (the sort key's first column) and the receive time. */
function received(p: Params, environmentId: string, since: number): string {
  return `environment_id = ${p.string(environmentId)}
       AND received_at >= toDateTime(${p.int(Math.floor(since / 1000))}) AND received_at_ms >= ${p.int(since)}`
}

/**
 * The event types of an environment received since `since` (one row each, at most MAX_CATALOGUE_ROWS + 1, so a caller
 * sees that there were more): counts, and how many of the last 30 days' records carried a value. `eventType` narrows
 * it to one type. One pass over the environment's range of the events' sort key, reading five small columns: its cost
 * grows with the environment's records within the window, its memory with the number of types.
 */
export function eventTypesQuery(
  table: string,
  environmentId: string,
  since: number,
  now: number,
  eventType?: string,
): Query {
  const p = new Params()
  return p.query(
    'the event types query',
    `SELECT event_type AS eventType, ${seenColumns(p, now)},
            countIf(received_at_ms > ${p.int(now - 30 * DAY)} AND isNotNull(value)) AS withValue30d
     FROM ${table}
     WHERE ${received(p, environmentId, since)}${eventType === undefined ? '' : ` AND event_type = ${p.string(eventType)}`}
     GROUP BY event_type
     ORDER BY last30d DESC, lastMs DESC, eventType
     LIMIT ${MAX_CATALOGUE_ROWS + 1}`,
  )
}

/**
 * A member of a JSON object as stored (JSON.stringify: no whitespace): its name, a string token after `{` or `,` and
 * before `:`, and the first character of its value. A name is found only where a member begins: inside a string of the
 * stored JSON a quote is escaped, so `{"` or `,"` never starts there. No capture group: RE2 needs no pass for one, and
 * reads about 100 MB/s on 18.16 (four times a rewrite of the text with groups).
 */
const MEMBER = String.raw`[{,]"(?:[^"\\]|\\.)*":.`

/**
 * The property names of the PROPERTY_SAMPLE records of one event type received last since `since`, each record's names
 * (`head`: its members as `{"name":c` or `,"name":c`, c the first character of the value) cut to PROPERTY_NAMES_BYTES,
 * and their length before the cut (`bytes`): what ClickHouse sends is bounded whatever the rows hold, and the values
 * (up to 32 KiB a text) are never sent. The records are found first by their receive time alone (the newest
 * PROPERTY_SAMPLE's oldest time), so only theirs (and ties) are scanned for names, and a top-N sort keeps N cut texts.
 */
export function propertySampleQuery(table: string, environmentId: string, eventType: string, since: number): Query {
  const p = new Params()
  const ofType = () => `${received(p, environmentId, since)} AND event_type = ${p.string(eventType)}`
  const newest = `SELECT min(received_at_ms) FROM (SELECT received_at_ms FROM ${table} WHERE ${ofType()}
       ORDER BY received_at_ms DESC LIMIT ${PROPERTY_SAMPLE})`
  return p.query(
    'the event properties sample',
    `WITH arrayStringConcat(extractAll(properties, ${p.string(MEMBER)})) AS members
     SELECT substring(members, 1, ${PROPERTY_NAMES_BYTES}) AS head, length(members) AS bytes
     FROM ${table}
     WHERE ${ofType()} AND received_at_ms >= (${newest})
     ORDER BY received_at_ms DESC
     LIMIT ${PROPERTY_SAMPLE}`,
  )
}

/** The flags an environment's impressions named since `since`, with the treatments and SDK versions seen. */
export function flagsSeenQuery(table: string, environmentId: string, since: number, now: number): Query {
  const p = new Params()
  return p.query(
    'the flags seen query',
    `SELECT flag, ${seenColumns(p, now)}, topK(${MAX_LISTED})(treatment) AS treatments
     FROM ${table}
     WHERE ${received(p, environmentId, since)}
     GROUP BY flag
     ORDER BY last30d DESC, lastMs DESC, flag
     LIMIT ${MAX_CATALOGUE_ROWS + 1}`,
  )
}

/** SDK versions listed per source in the ingestion health. */
export const MAX_SDK_VERSIONS = 100

/** The records of `table` received in the environment since `since` (epoch ms), per minute (epoch minutes). */
export function perMinuteQuery(table: string, environmentId: string, since: number): Query {
  const p = new Params()
  return p.query(
    'the records per minute query',
    `SELECT intDiv(received_at_ms, 60000) AS minute, count() AS n FROM ${table}
     WHERE ${received(p, environmentId, since)} GROUP BY minute`,
  )
}

/** The 5 reasons that refused the most records of `table` (a rejections table) since `since`. */
export function topReasonsQuery(table: string, environmentId: string, since: number): Query {
  const p = new Params()
  return p.query(
    'the top refusal reasons query',
    `SELECT reason, count() AS n FROM ${table}
     WHERE ${received(p, environmentId, since)} GROUP BY reason ORDER BY n DESC, reason LIMIT 5`,
  )
}

/**
 * The SDK versions that sent records of `source` since `since`, with their last time and impressions mode: the
 * SplitSDKImpressionsMode header's (`header`: impressions, counts, unique keys), or the config telemetry's `iM`
 * (`telemetry`; read as 0 when missing, as Go's SDK leaves it out when it is 0), or none (`none`: events).
 */
export function sdkVersionsQuery(
  table: string,
  environmentId: string,
  since: number,
  source: 'none' | 'header' | 'telemetry',
): Query {
  const p = new Params()
  const mode = {
    none: "''",
    header: 'argMax(impressions_mode, received_at_ms)',
    telemetry: "toString(argMax(visitParamExtractInt(payload, 'iM'), received_at_ms))",
  }[source]
  return p.query(
    'the SDK versions query',
    `SELECT sdk_version AS sdkVersion, max(received_at_ms) AS lastMs, ${mode} AS mode
     FROM ${table} WHERE ${received(p, environmentId, since)}${source === 'telemetry' ? " AND kind = 'config'" : ''}
     GROUP BY sdk_version ORDER BY lastMs DESC LIMIT ${MAX_SDK_VERSIONS}`,
  )
}

/** When the environment last received an event and an impression (within `since`). */
export function lastReceivedQuery(events: string, impressions: string, environmentId: string, since: number): Query {
  const p = new Params()
  const e = received(p, environmentId, since)
  const i = received(p, environmentId, since)
  return p.query(
    'the last received query',
    `SELECT (SELECT max(received_at_ms) FROM ${events} WHERE ${e}) AS lastEventMs,
            (SELECT max(received_at_ms) FROM ${impressions} WHERE ${i}) AS lastImpressionMs`,
  )
}
