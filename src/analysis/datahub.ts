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
  const where = `environment_id = ${p.string(environmentId)}
       AND received_at BETWEEN toDateTime(${p.int(Math.floor(from / 1000))}) AND toDateTime(${p.int(Math.ceil(to / 1000))})
       AND received_at_ms BETWEEN ${p.int(from)} AND ${p.int(to)}`
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
