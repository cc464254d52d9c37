// The SQL of replays of refused records (services/replays.ts): the rejections a filter selects, in the order a replay
// takes them, leaving out those a replay already published again; how many a filter selects; what became of a job's
// records. Every caller value is a parameter (sql.ts); table names come from the configuration.
import { receivedWithin } from './datahub.js'
import { Params, type Query } from './sql.js'

/** The tables of a replay's topic: its rejections, and where its records are stored; how replayed request ids start. */
export interface ReplayTables {
  readonly rejections: string
  readonly stored: readonly string[]
  /** pipeline/replay.ts's prefix (a replayed record's request id: the prefix, the job's id, a colon, its position). */
  readonly prefix: string
}

/** Which rejections: received within [from, to] (epoch ms), a reason starting with a text, events of a type. */
export interface ReplaySelection {
  readonly from: number
  readonly to: number
  readonly reason?: string
  readonly eventType?: string
}

/** The last rejection taken, in the order a replay takes them. */
export interface ReplayCursor {
  readonly receivedAtMs: number
  readonly partition: number
  readonly offset: string
  readonly index: number
}

/** A rejection's position as a replayed record's request id ends with it (pipeline/replay.ts's positionText). */
const POSITION = `concat(source_topic, ':', toString(source_partition), ':', toString(source_offset), ':', toString(source_index))`

const startsWith = (p: Params, column: string, prefix: string) => {
  const value = p.string(prefix)
  return `substring(${column}, 1, length(${value})) = ${value}`
}

/** The filter's rejections, without those a replay published again (stored, or refused again, in the window). */
function selected(p: Params, tables: ReplayTables, env: string, filter: ReplaySelection, fresh: boolean): string {
  const within = receivedWithin(p, env, filter.from, filter.to)
  const conditions = [within]
  if (filter.reason !== undefined) conditions.push(startsWith(p, 'reason', filter.reason))
  if (filter.eventType !== undefined)
    conditions.push(`visitParamExtractString(raw, 'eventTypeId') = ${p.string(filter.eventType)}`)
  if (fresh) {
    const replayed = [...tables.stored, tables.rejections]
      .map(
        (t) => `SELECT replaceRegexpOne(request_id, ${p.string(`^${tables.prefix}[^:]*:`)}, '') FROM ${t}
                WHERE ${within} AND ${startsWith(p, 'request_id', tables.prefix)}`,
      )
      .join(' UNION ALL ')
    conditions.push(`${POSITION} GLOBAL NOT IN (${replayed})`)
  }
  return conditions.join('\n AND ')
}

/**
 * At most `limit` of the filter's rejections not replayed yet, after `cursor`, in the order a replay takes them
 * (receive time, then position); a job's own records refused again (`jobId`) are not taken again.
 */
export function replayPageQuery(
  tables: ReplayTables,
  env: string,
  filter: ReplaySelection,
  page: { readonly cursor?: ReplayCursor; readonly limit: number; readonly jobId?: string },
): Query {
  const p = new Params()
  const conditions = [selected(p, tables, env, filter, true)]
  if (page.jobId !== undefined)
    conditions.push(`NOT (${startsWith(p, 'request_id', `${tables.prefix}${page.jobId}:`)})`)
  const c = page.cursor
  if (c) {
    // (received_at_ms, source_partition, source_offset, source_index) after the cursor's, without tuple comparison
    // (ClickHouse 18.16 has none).
    const [ms, partition, offset, index] = [
      p.int(c.receivedAtMs),
      p.int(c.partition),
      p.string(c.offset),
      p.int(c.index),
    ]
    conditions.push(`(received_at_ms > ${ms} OR (received_at_ms = ${ms} AND (source_partition > ${partition}
      OR (source_partition = ${partition} AND (source_offset > toUInt64(${offset})
      OR (source_offset = toUInt64(${offset}) AND source_index > ${index}))))))`)
  }
  return p.query(
    'the refused records to replay',
    `SELECT source_topic AS topic, source_partition AS partition, toString(source_offset) AS offset,
            source_index AS index, received_at_ms AS receivedAtMs, account_id AS accountId,
            sdk_version AS sdkVersion, ${tables.rejections.endsWith('impression_rejections') ? 'kind' : "''"} AS kind,
            reason, raw
     FROM ${tables.rejections}
     WHERE ${conditions.join('\n AND ')}
     ORDER BY received_at_ms, source_partition, source_offset, source_index
     LIMIT ${Math.max(1, Math.floor(page.limit))}`,
  )
}

/** How many rejections the filter selects, and how many of them are not replayed yet. */
export function replayCountQuery(tables: ReplayTables, env: string, filter: ReplaySelection): Query {
  const p = new Params()
  const all = selected(p, tables, env, filter, false)
  const fresh = selected(p, tables, env, filter, true)
  return p.query(
    'the count of refused records to replay',
    `SELECT (SELECT count() FROM ${tables.rejections} WHERE ${all}) AS selected,
            (SELECT count() FROM ${tables.rejections} WHERE ${fresh}) AS fresh`,
  )
}

/** What became of a job's records: rows stored, and records refused again. */
export function replayOutcomeQuery(tables: ReplayTables, env: string, filter: ReplaySelection, jobId: string): Query {
  const p = new Params()
  const ofJob = (t: string) =>
    `(SELECT count() FROM ${t} WHERE ${receivedWithin(p, env, filter.from, filter.to)}
       AND ${startsWith(p, 'request_id', `${tables.prefix}${jobId}:`)})`
  return p.query(
    'the outcome of a replay',
    `SELECT ${tables.stored.map(ofJob).join(' + ')} AS stored, ${ofJob(tables.rejections)} AS refused`,
  )
}
