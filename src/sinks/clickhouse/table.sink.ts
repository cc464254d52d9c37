// Writes rows to ClickHouse tables (tables.ts says each one's columns). Each row carries its source
// (topic, partition, offset, index), which is what makes replays exact: before writing rows that may
// already be there (after a restart, a rebalance or a failed insert), the consumer asks which
// positions exist. Every failure leaves as an AppError: SINK_REFUSED_DATA when ClickHouse refused the
// rows themselves (the consumer then isolates and rejects them), SINK_UNAVAILABLE for an outage or a
// passing state (waited out), SINK_REFUSED_QUERY when the server refuses a statement itself.
// An insert that failed without an answer (a timeout, a cut connection) may still be running, or
// even still unread in the server's socket buffer, and land later: before the next insert or check of
// stored positions, such inserts are killed by query id and confirmed gone, so the check sees all
// there will ever be. Inserts get a long deadline (CLICKHOUSE_REQUEST_TIMEOUT_MS) so that a paused
// server is waited for rather than raced.
import { randomUUID } from 'node:crypto'
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client'
import type { MessageIdentity, RowOrigin } from '../../pipeline/rows.js'
import { AppError, clickhouseCode, fromClickHouse } from '../../shared/errors.js'
import { insertSettings, type ClickHouseCapabilities } from './capabilities.js'
import type { Table, TableRows } from './tables.js'
import { ZOOKEEPER_TABLES, zooKeeperPath } from './migrations.js'
import { tsvStream } from './tsv.js'

interface IntentRow {
  topic: string
  partition: number
  last_offset: string
  at: number
}
const INTENTS = 'event_consumer_intents'
const INTENT_COLUMNS: readonly (keyof IntentRow)[] = ['topic', 'partition', 'last_offset', 'at']

/**
 * On a cluster (CLICKHOUSE_CLUSTER): every insert goes through the Distributed table synchronously
 * (insert_distributed_sync: acknowledged only once the shard stored it; never the asynchronous
 * default, whose acknowledged rows wait on the receiving server's disk) and with insert_quorum
 * (acknowledged only once that many replicas of the shard have it); every read of stored positions
 * asks for select_sequential_consistency (a replica missing a quorum insert refuses to answer rather
 * than answer short). A retried insert of the same rows is the same block, which a replicated table
 * stores once (block deduplication).
 */
export interface SinkCluster {
  /** Replicas per insert (insert_quorum): every replica of a shard. */
  readonly insertQuorum: number
}

export interface SinkTarget {
  readonly database: string
  /** What the server can do (probeCapabilities). */
  readonly capabilities: ClickHouseCapabilities
  /** On a cluster (CLICKHOUSE_CLUSTER), its shape. */
  readonly cluster?: SinkCluster | undefined
}

/**
 * How long an insert waits for its quorum: past it the insert fails (it stays pending, and completes
 * when the away replica returns; see quorumsSettled), rather than holding the partition for the
 * server's default ten minutes.
 */
const QUORUM_TIMEOUT_MS = 30_000
/** UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE: another quorum insert into the table's shard is not complete yet. */
const QUORUM_BUSY = 286
const QUORUM_BUSY_PAUSE_MS = 20
const QUORUM_BUSY_MAX_PAUSE_MS = 1000
/**
 * How long a read of stored positions waits for pending quorum inserts to complete before it fails (and is retried).
 */
const PENDING_WAIT_MS = 5000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export class ClickHouseTableSink {
  /** Query ids of inserts that failed without a definite answer. */
  private unsettled: string[] = []
  /** On a cluster: the shards' directories in ZooKeeper (found on first use). */
  private shardPaths?: string[]
  private readonly insertSettings: ClickHouseSettings
  private readonly readSettings: ClickHouseSettings | undefined
  private readonly database: string
  private readonly cluster: SinkCluster | undefined

  constructor(
    private readonly client: ClickHouseClient,
    { database, capabilities, cluster }: SinkTarget,
  ) {
    this.database = database
    this.cluster = cluster
    this.insertSettings = {
      ...insertSettings(capabilities),
      ...(cluster && {
        insert_distributed_sync: 1,
        insert_quorum: String(cluster.insertQuorum),
        insert_quorum_timeout: QUORUM_TIMEOUT_MS,
        // Current releases: one quorum insert at a time per shard, without which sequential consistency is not
        // guaranteed.
        ...(capabilities.quorumParallel && { insert_quorum_parallel: 0 }),
      }),
    }
    // A shard that does not answer is an error, never rows that seem missing.
    this.readSettings = cluster ? { select_sequential_consistency: '1', skip_unavailable_shards: 0 } : undefined
  }

  /** Inserts rows, in as many inserts as ClickHouse's limit of partitions per insert needs (see byMonths). */
  async insert<R extends RowOrigin>(table: Table<R>, rows: readonly R[]): Promise<void> {
    for (const part of byMonths(table, rows))
      await this.send(
        table.name,
        part,
        table.columns as readonly (keyof R & string)[],
        table.dateTimes as readonly (keyof R & string)[],
        table.shared,
        table.encodedAfter,
      )
  }

  /** Records, before an insert, the last offset it may write (see the consumer_intents table). */
  recordIntent(topic: string, partition: number, lastOffset: bigint): Promise<void> {
    return this.send(
      INTENTS,
      [{ topic, partition, last_offset: lastOffset.toString(), at: Math.floor(Date.now() / 1000) }],
      INTENT_COLUMNS,
      ['at'],
    )
  }

  private async send<T extends object>(
    table: string,
    rows: readonly T[],
    columns: readonly (keyof T & string)[],
    dateTimes: readonly (keyof T & string)[],
    shared = 0,
    encodedAfter?: number,
  ): Promise<void> {
    if (rows.length === 0) return
    await this.settle()
    const busyUntil = Date.now() + QUORUM_TIMEOUT_MS
    for (let attempt = 0; ; attempt++) {
      const queryId = randomUUID()
      try {
        await this.client.insert({
          table: `${this.database}.${table}`,
          values: tsvStream(rows, columns, dateTimes, shared, encodedAfter),
          format: 'TabSeparated',
          columns: columns as unknown as [string, ...string[]],
          query_id: queryId,
          clickhouse_settings: this.insertSettings,
        })
        return
      } catch (err) {
        // ClickHouse takes one quorum insert per table and shard at a time and refuses another (code
        // 286): on 18.16 a synchronous Distributed insert reaches every shard, even those it has no
        // rows for, so any two inserts of a table meet. The same block is sent again (with growing
        // pauses): what an attempt stored already (its shard's part, or a month of it) is that block
        // again, which the replicated table stores once (its deduplication window, see migrations).
        if (this.cluster && clickhouseCode(err) === QUORUM_BUSY && Date.now() < busyUntil) {
          await sleep(Math.min(QUORUM_BUSY_MAX_PAUSE_MS, QUORUM_BUSY_PAUSE_MS * 2 ** attempt) * (1 + Math.random()))
          continue
        }
        const e = fromClickHouse(err, `the insert into ${table}`, true)
        if (e.retriable) this.unsettled.push(queryId)
        throw e
      }
    }
  }

  /** Kills the inserts that failed without an answer and waits until none of them runs. */
  private async settle(): Promise<void> {
    if (this.unsettled.length === 0) return
    const settling = this.unsettled
    const ids = settling.map(quote).join(', ')
    try {
      await this.client.command({ query: `KILL QUERY WHERE query_id IN (${ids}) SYNC` })
    } catch (err) {
      throw fromClickHouse(err, 'the kill of inserts left without an answer')
    }
    const [running] = await this.query<{ n: string }>(
      'the check that killed inserts ended',
      `SELECT count() AS n FROM system.processes WHERE query_id IN (${ids})`,
    )
    if (Number(running?.n ?? 0) > 0)
      throw new AppError('SINK_UNAVAILABLE', 'clickhouse: an abandoned insert is still running', true)
    // Inserts of other partitions may have failed meanwhile: only these are settled.
    this.unsettled = this.unsettled.filter((id) => !settling.includes(id))
  }

  /**
   * On a cluster, refuses (retriably) to read stored positions while a quorum insert into one of
   * these tables is pending on any shard: its rows are on one replica but not yet readable with
   * sequential consistency, and would appear once its peer returns, after the read said they were
   * missing. A pending quorum also makes every later insert into that shard fail, so nothing is
   * written meanwhile either.
   */
  private async quorumsSettled(tables: readonly string[]): Promise<void> {
    if (!this.cluster) return
    this.shardPaths ??= await this.findShardPaths()
    const paths = this.shardPaths.flatMap((shard) =>
      tables.map((table) => `${zooKeeperPath(this.database, table, shard)}/quorum`),
    )
    if (paths.length === 0) return
    const query = paths
      .map((path) => `SELECT path AS p FROM system.zookeeper WHERE path = ${quote(path)} AND name = 'status'`)
      .join(' UNION ALL ')
    // Inserts of other partitions into the same shard are pending while they run: those end soon.
    const deadline = Date.now() + PENDING_WAIT_MS
    for (;;) {
      const pending = await this.query<{ p: string }>('the check for pending quorum inserts', query)
      if (pending.length === 0) return
      if (Date.now() > deadline)
        throw new AppError(
          'SINK_UNAVAILABLE',
          `clickhouse: a quorum insert is pending at ${pending[0]!.p} (a replica of the shard may be away)`,
          true,
        )
      await sleep(QUORUM_BUSY_PAUSE_MS)
    }
  }

  /** The shards (ZooKeeper directories) that hold this database's tables. */
  private async findShardPaths(): Promise<string[]> {
    const shards = await this.query<{ s: string }>(
      'the search for the shards in ZooKeeper',
      `SELECT name AS s FROM system.zookeeper WHERE path = ${quote(ZOOKEEPER_TABLES)}`,
    )
    const holding: string[] = []
    for (const { s } of shards) {
      const dbs = await this.query<{ d: string }>(
        'the search for the shards in ZooKeeper',
        `SELECT name AS d FROM system.zookeeper WHERE path = ${quote(`${ZOOKEEPER_TABLES}/${s}`)}`,
      )
      if (dbs.some((r) => r.d === this.database)) holding.push(s)
    }
    if (holding.length === 0)
      throw new AppError(
        'SINK_UNAVAILABLE',
        `clickhouse: no shard of ${this.database} in ZooKeeper under ${ZOOKEEPER_TABLES}`,
        true,
      )
    return holding
  }

  private async query<T>(purpose: string, query: string): Promise<T[]> {
    try {
      const result = await this.client.query({
        query,
        format: 'JSONEachRow',
        ...(this.readSettings && { clickhouse_settings: this.readSettings }),
      })
      return await result.json<T>()
    } catch (err) {
      throw fromClickHouse(err, purpose)
    }
  }

  /** The highest offset any owner of the partition was about to write, or undefined. */
  async intendedThrough(topic: string, partition: number): Promise<bigint | undefined> {
    await this.quorumsSettled([INTENTS])
    const [row] = await this.query<{ m: string; n: string }>(
      'the read of consumer intents',
      `SELECT toString(max(last_offset)) AS m, count() AS n FROM ${this.database}.${INTENTS}
        WHERE topic = ${quote(topic)} AND partition = ${Math.trunc(partition)}`,
    )
    return row && Number(row.n) > 0 ? BigInt(row.m) : undefined
  }

  /**
   * Positions ("offset:index") of the given rows that are already stored, each looked for in its
   * own table and in the rejections table (a row ClickHouse refused was stored there instead). The
   * queries are narrowed by what the rows themselves say (tables.ts: `locate`), so they use each
   * table's sort key instead of scanning it. A side table's are its own, named by it (tables.ts: positionKey).
   */
  async storedPositions(
    topic: string,
    partition: number,
    batch: readonly TableRows[],
    rejections: TableRows,
  ): Promise<Set<string>> {
    // NOTE: ClickHouse 18.16 has no query parameters; every value here is a number or a quoted literal.
    const all = [...batch.flatMap((b) => b.rows), ...rejections.rows]
    if (all.length === 0) return new Set()
    await this.settle()
    await this.quorumsSettled([...batch.map((b) => b.table.name), rejections.table.name])
    const offsets = all.map((r) => BigInt(r.source_offset))
    const min = offsets.reduce((a, b) => (b < a ? b : a))
    const max = offsets.reduce((a, b) => (b > a ? b : a))
    const source = `source_topic = ${quote(topic)} AND source_partition = ${Math.trunc(partition)} AND source_offset BETWEEN ${min} AND ${max}`
    // A side table's positions are its own (see Table.side): named by it. A full column, not a constant: ClickHouse
    // 18.16 refuses a UNION ALL of Distributed tables whose constants differ ("Cannot convert column t").
    const select = ({ table, rows }: TableRows) =>
      `SELECT toString(source_offset) AS o, source_index AS i, materialize(${quote(table.side ? table.name : '')}) AS t FROM ${this.database}.${table.name} WHERE ${located(table, rows)} AND ${source}`
    const selects = batch.filter((b) => b.rows.length > 0).map(select)
    // Any row may be a rejection: an event row that ClickHouse refused was stored there.
    selects.push(select({ table: rejections.table, rows: all }))
    const stored = await this.query<{ o: string; i: number; t: string }>(
      'the read of stored positions',
      selects.join(' UNION ALL '),
    )
    return new Set(stored.map((r) => (r.t ? `${r.t}|${r.o}:${r.i}` : `${r.o}:${r.i}`)))
  }

  /** Which of these message identities have rows stored in any of the tables, as "requestId:part". */
  async storedParts(tables: readonly Table[], parts: readonly MessageIdentity[]): Promise<Set<string>> {
    if (parts.length === 0) return new Set()
    await this.settle()
    await this.quorumsSettled(tables.map((t) => t.name))
    const found = new Set<string>()
    // In slices, so that no query outgrows ClickHouse's max_query_size (256 KiB) after an outage's backlog of replays.
    for (let start = 0; start < parts.length; start += PARTS_PER_QUERY) {
      const slice = parts.slice(start, start + PARTS_PER_QUERY)
      const seconds = slice.map((p) => p.receivedAt)
      const where = `environment_id IN (${list(slice.map((p) => p.environmentId))})
        AND received_at BETWEEN ${Math.min(...seconds)} AND ${Math.max(...seconds)}
        AND request_id IN (${list(slice.map((p) => p.requestId))})`
      const stored = await this.query<{ r: string; p: number }>(
        'the read of stored messages',
        tables
          .map(
            (table) =>
              `SELECT DISTINCT request_id AS r, request_part AS p FROM ${this.database}.${table.name} WHERE ${where}`,
          )
          .join(' UNION ALL '),
      )
      for (const row of stored) found.add(`${row.r}:${row.p}`)
    }
    return found
  }
}

/**
 * Message identities per replay check: the request ids of a query stay far under ClickHouse's max_query_size (256 KiB).
 */
const PARTS_PER_QUERY = 500
/**
 * The longest value list of a position check, in characters: a longer one (thousands of flags or
 * environments in one batch) is left out, so the query stays under max_query_size. The lists only
 * narrow the read to the sort key's ranges; the source conditions alone are exact.
 */
const MAX_LIST_CHARS = 16 * 1024

/** The conditions that narrow a table to where these rows would be (TRUE when none is short enough). */
function located(table: Table, rows: readonly RowOrigin[]): string {
  const conditions: string[] = []
  for (const { column, match } of table.locate) {
    const values = rows.map((r) => (r as unknown as Record<string, string | number>)[column]!)
    if (match === 'in') {
      const values_ = list(values.map(String))
      if (values_.length <= MAX_LIST_CHARS) conditions.push(`${column} IN (${values_})`)
      continue
    }
    const lo = values.reduce((a, b) => (b < a ? b : a))
    const hi = values.reduce((a, b) => (b > a ? b : a))
    conditions.push(`${column} BETWEEN ${literal(lo)} AND ${literal(hi)}`)
  }
  return conditions.length > 0 ? conditions.join(' AND ') : '1'
}

/**
 * ClickHouse refuses an insert whose rows fall in more than max_partitions_per_insert_block (100)
 * partitions, and that refusal would be retried for ever: rows spread over more months (times are
 * the client's, from 1970 to 2106) are inserted in several inserts of at most 50 months each. The
 * months are UTC ones; the server's (its time zone) may differ at a month's edge, so 50 of ours are
 * at most 100 of its.
 */
export const MONTHS_PER_INSERT = 50

export function byMonths<R extends RowOrigin>(table: Table<R>, rows: readonly R[]): (readonly R[])[] {
  if (rows.length === 0) return []
  const valueOf = (row: R) => (row as unknown as Record<string, string | number>)[table.partitionBy]!
  // The usual batch spans hours or days: its range alone says it fits (a date's text sorts as its time).
  let lo = valueOf(rows[0]!)
  let hi = lo
  for (const row of rows) {
    const v = valueOf(row)
    if (v < lo) lo = v
    if (v > hi) hi = v
  }
  const monthOf = (v: string | number) =>
    typeof v === 'string' ? v.slice(0, 7) : new Date(v * 1000).toISOString().slice(0, 7)
  const span = (y: string) => Number(y.slice(0, 4)) * 12 + Number(y.slice(5, 7))
  if (span(monthOf(hi)) - span(monthOf(lo)) < MONTHS_PER_INSERT) return [rows]
  const groups = new Map<string, R[]>()
  for (const row of rows) {
    const month = monthOf(valueOf(row))
    let group = groups.get(month)
    if (!group) groups.set(month, (group = []))
    group.push(row)
  }
  const parts: R[][] = []
  let months = 0
  for (const group of groups.values()) {
    if (months++ % MONTHS_PER_INSERT === 0) parts.push(group)
    else parts[parts.length - 1] = parts[parts.length - 1]!.concat(group)
  }
  return parts
}

function literal(value: string | number): string {
  return typeof value === 'number' ? String(value) : quote(value)
}

function list(values: Iterable<string>): string {
  return [...new Set(values)].map(quote).join(', ')
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}
