// Versioned, idempotent ClickHouse migrations, applied at startup. Every statement runs on ClickHouse
// 18.16 (Debian, CI) and on current releases (docker-compose): no DateTime64, Map, JSON type or
// LowCardinality; epoch-ms as Int64 beside DateTime columns; properties as JSON text.
import type { ClickHouseClient } from '@clickhouse/client'
import type { Logger } from '../../shared/logger.js'
import { clickhouseCode } from '../../shared/errors.js'

/** A table as a migration creates it; rendered for one server or for a cluster (see render). */
interface TableDef {
  readonly name: string
  readonly columns: string
  /** `MergeTree()`, or `ReplacingMergeTree(<version column>)`. */
  readonly engine: string
  readonly partitionBy?: string
  readonly orderBy: string
  /**
   * On a cluster, the column whose value picks a row's shard: the Kafka partition the row came
   * from, so that every row of a partition lives on one shard (one insert is one shard's block, and
   * the stored positions of a partition are one shard's question).
   */
  readonly shardBy: string
}

type Statement =
  | { readonly create: TableDef }
  | { readonly addColumn: { readonly table: string; readonly column: string; readonly after: string } }

interface Migration {
  readonly version: number
  readonly name: string
  readonly statements: Statement[]
}

const origin = `sdk_version String, impressions_mode String, machine_ip String, machine_name String,
  received_at DateTime, received_at_ms Int64, request_id String, request_part UInt32,
  source_topic String, source_partition UInt32, source_offset UInt64, source_index UInt32`

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'events and event_rejections',
    statements: [
      // Analysts ask "event type X in environment Y over time range Z": the sort key follows that
      // order, so such a query reads one contiguous range of each part. Monthly partitions on event
      // time keep time-range queries to a few partitions and make retention a DROP PARTITION.
      {
        create: {
          name: 'events',
          columns: `environment_id String,
            account_id String,
            traffic_type String,
            event_type String,
            key String,
            timestamp DateTime,
            timestamp_ms Int64,
            timestamp_raw String,
            value Nullable(Float64),
            properties String,
            received_at DateTime,
            received_at_ms Int64,
            sdk_version String,
            request_id String,
            source_topic String,
            source_partition UInt32,
            source_offset UInt64,
            source_index UInt32`,
          engine: 'MergeTree()',
          partitionBy: 'toYYYYMM(timestamp)',
          orderBy: '(environment_id, event_type, timestamp)',
          shardBy: 'source_partition',
        },
      },
      {
        create: {
          name: 'event_rejections',
          columns: `environment_id String,
            account_id String,
            reason String,
            raw String,
            received_at DateTime,
            received_at_ms Int64,
            sdk_version String,
            request_id String,
            source_topic String,
            source_partition UInt32,
            source_offset UInt64,
            source_index UInt32`,
          engine: 'MergeTree()',
          partitionBy: 'toYYYYMM(received_at)',
          orderBy: '(environment_id, received_at)',
          shardBy: 'source_partition',
        },
      },
    ],
  },
  {
    version: 2,
    name: 'event_consumer_intents',
    statements: [
      // Before each insert the consumer records the last offset it is about to write; after a crash
      // the new owner of the partition checks for stored rows up to there. One row per partition
      // survives merges (the highest offset).
      {
        create: {
          name: 'event_consumer_intents',
          columns: `topic String,
            partition UInt32,
            last_offset UInt64,
            at DateTime`,
          engine: 'ReplacingMergeTree(last_offset)',
          orderBy: '(topic, partition)',
          shardBy: 'partition',
        },
      },
    ],
  },
  {
    version: 3,
    name: 'request_part',
    // A Kafka message's identity is (request_id, request_part): a message replayed from an edge's
    // spool is skipped when rows of its identity are stored.
    statements: [
      { addColumn: { table: 'events', column: 'request_part UInt32 DEFAULT 0', after: 'request_id' } },
      { addColumn: { table: 'event_rejections', column: 'request_part UInt32 DEFAULT 0', after: 'request_id' } },
    ],
  },
  {
    version: 4,
    name: 'impressions, impression_counts, unique_keys, sdk_telemetry, impression_rejections',
    statements: [
      // The exposure log. Experiments ask "flag F in environment E over a time range" and "the
      // first impression of each key of flag F": both read one contiguous range of the sort key.
      {
        create: {
          name: 'impressions',
          columns: `environment_id String, account_id String, flag String, key String, bucketing_key String,
            treatment String, label String, change_number Int64,
            time DateTime, time_ms Int64, previous_time_ms Int64, properties String,
            ${origin}`,
          engine: 'MergeTree()',
          partitionBy: 'toYYYYMM(time)',
          orderBy: '(environment_id, flag, time, key)',
          shardBy: 'source_partition',
        },
      },
      // Impressions the SDKs counted instead of sending (OPTIMIZED and NONE modes), per flag and hour.
      {
        create: {
          name: 'impression_counts',
          columns: `environment_id String, account_id String, flag String, hour DateTime, hour_ms Int64, count UInt64,
            ${origin}`,
          engine: 'MergeTree()',
          partitionBy: 'toYYYYMM(hour)',
          orderBy: '(environment_id, flag, hour)',
          shardBy: 'source_partition',
        },
      },
      // Keys that saw a flag (impressions mode NONE), per receive day; a key appears once per SDK flush.
      {
        create: {
          name: 'unique_keys',
          columns: `environment_id String, account_id String, flag String, key String, day Date,
            ${origin}`,
          engine: 'MergeTree()',
          partitionBy: 'toYYYYMM(day)',
          orderBy: '(environment_id, flag, day, key)',
          shardBy: 'source_partition',
        },
      },
      // Which SDKs, versions and modes talk to Sluice: their telemetry bodies as sent.
      {
        create: {
          name: 'sdk_telemetry',
          columns: `environment_id String, account_id String, kind String, operation_mode String, storage String, payload String,
            ${origin}`,
          engine: 'MergeTree()',
          partitionBy: 'toYYYYMM(received_at)',
          orderBy: '(environment_id, received_at)',
          shardBy: 'source_partition',
        },
      },
      {
        create: {
          name: 'impression_rejections',
          columns: `environment_id String, account_id String, kind String, reason String, raw String,
            sdk_version String, received_at DateTime, received_at_ms Int64, request_id String, request_part UInt32,
            source_topic String, source_partition UInt32, source_offset UInt64, source_index UInt32`,
          engine: 'MergeTree()',
          partitionBy: 'toYYYYMM(received_at)',
          orderBy: '(environment_id, received_at)',
          shardBy: 'source_partition',
        },
      },
    ],
  },
  {
    version: 5,
    name: 'event_violations',
    statements: [
      // A tracking plan's report on each event that broke it (pipeline/plans.ts), kept as long as rejections. The Data
      // Hub reads an environment's over a time range, by event type, rule and SDK version.
      {
        create: {
          name: 'event_violations',
          columns: `environment_id String, account_id String, event_type String, key String, plan_version UInt32,
            mode String, outcome String, rules String, violations UInt32, details String, sample String,
            sdk_version String, received_at DateTime, received_at_ms Int64, request_id String, request_part UInt32,
            source_topic String, source_partition UInt32, source_offset UInt64, source_index UInt32`,
          engine: 'MergeTree()',
          partitionBy: 'toYYYYMM(received_at)',
          orderBy: '(environment_id, received_at)',
          shardBy: 'source_partition',
        },
      },
    ],
  },
]

/** The sharding column of each table the migrations create. */
const SHARD_BY = new Map(
  MIGRATIONS.flatMap((m) =>
    m.statements.flatMap((s) => ('create' in s ? [[s.create.name, s.create.shardBy] as const] : [])),
  ),
)

/** Where the migrations apply: one server, or every server of a cluster (`remote_servers`). */
export interface SchemaTarget {
  readonly database: string
  readonly cluster?: string
}

/**
 * Blocks per table and shard whose hashes a replicated table remembers (ClickHouse's default is 100):
 * an insert tried again after a failure is the same block, stored once while its first attempt is
 * still remembered, however many other partitions inserted in between.
 */
const DEDUPLICATION_WINDOW = 10_000
/**
 * And for how long (seconds): 7 days, 18.16's default. Current releases remember a block for an hour
 * only (the default from 25.10), after which a retry of an insert that reached a replica before an
 * outage would be stored twice; set in the DDL so every release keeps the same window.
 */
const DEDUPLICATION_WINDOW_SECONDS = 7 * 24 * 3600

/** Where the shards of a cluster's tables keep their replication state in ZooKeeper (Keeper). */
export const ZOOKEEPER_TABLES = '/clickhouse/tables'

/** The ZooKeeper path of a table's shard, with the `{shard}` macro left for each server to fill. */
export const zooKeeperPath = (db: string, table: string, shard = '{shard}') =>
  `${ZOOKEEPER_TABLES}/${shard}/${db}/${localTable(table)}`

/** The local (replicated) table behind a cluster's Distributed table of the same name as on one server. */
export const localTable = (name: string) => `${name}_local`

/**
 * A statement as SQL. On one server: the table itself. On a cluster (ON CLUSTER, on every server):
 * a ReplicatedMergeTree table `<name>_local` per shard (replicas from the `{shard}`/`{replica}`
 * macros), and a Distributed table under the name analysts query, sharded by `shardBy`.
 */
export function render(statement: Statement, { database: db, cluster }: SchemaTarget): string[] {
  if ('addColumn' in statement) {
    const { table, column, after } = statement.addColumn
    if (!cluster) return [`ALTER TABLE ${db}.${table} ADD COLUMN ${column} AFTER ${after}`]
    // ClickHouse 18.16 refuses ALTER ON CLUSTER of a Distributed table when the shards replicate
    // (code 371): it is made again instead, with the new columns. It holds no data
    // (inserts through it are synchronous); for that moment reads and inserts through it fail and are retried.
    return [
      `ALTER TABLE ${db}.${localTable(table)} ON CLUSTER ${cluster} ADD COLUMN ${column} AFTER ${after}`,
      `DROP TABLE IF EXISTS ${db}.${table} ON CLUSTER ${cluster}`,
      distributed(db, cluster, table, SHARD_BY.get(table)!, columnsThrough(table, column)),
    ]
  }
  const t = statement.create
  const layout = `${t.partitionBy ? `PARTITION BY ${t.partitionBy}\n` : ''}ORDER BY ${t.orderBy}`
  if (!cluster) return [`CREATE TABLE IF NOT EXISTS ${db}.${t.name} (${t.columns}) ENGINE = ${t.engine}\n${layout}`]
  const local = localTable(t.name)
  const [, kind, args] = /^(\w+)\((.*)\)$/.exec(t.engine)!
  const replicated = `Replicated${kind}('${zooKeeperPath(db, t.name)}', '{replica}'${args ? `, ${args}` : ''})`
  return [
    `CREATE TABLE IF NOT EXISTS ${db}.${local} ON CLUSTER ${cluster} (${t.columns}) ENGINE = ${replicated}\n${layout}\nSETTINGS replicated_deduplication_window = ${DEDUPLICATION_WINDOW}, replicated_deduplication_window_seconds = ${DEDUPLICATION_WINDOW_SECONDS}`,
    distributed(db, cluster, t.name, t.shardBy, t.columns),
  ]
}

/**
 * A Distributed table over the shards' local tables, its columns named (not `AS` the local table, which a replica may
 * not have altered yet).
 */
function distributed(db: string, cluster: string, table: string, shardBy: string, columns: string): string {
  const local = localTable(table)
  return `CREATE TABLE IF NOT EXISTS ${db}.${table} ON CLUSTER ${cluster} (${columns}) ENGINE = Distributed(${cluster}, ${db}, ${local}, ${shardBy})`
}

/** A table's columns once the migrations up to and including the one adding `column` are applied. */
function columnsThrough(table: string, column: string): string {
  const columns: string[] = []
  for (const statement of MIGRATIONS.flatMap((m) => m.statements)) {
    if ('create' in statement && statement.create.name === table) columns.push(statement.create.columns)
    if ('addColumn' in statement && statement.addColumn.table === table) {
      columns.push(statement.addColumn.column)
      if (statement.addColumn.column === column) break
    }
  }
  return columns.join(',\n')
}

/**
 * The pending migrations with each column added to a table they also create folded into its CREATE, in place (after
 * the column it follows): a new database is made with its final columns and no ALTER. ClickHouse 18.16's DDLWorker
 * can wedge its queue on an ALTER ON CLUSTER of a replicated table (it ran on both replicas of a shard, the second
 * failed "column already exists", then "Node exists .../shards/.../executed", and every later ON CLUSTER statement
 * waited 180 s behind it), so a new cluster never runs one. Migrations stay in the record as applied.
 */
export function folded(pending: readonly Migration[]): Migration[] {
  const created = new Set(pending.flatMap((m) => m.statements.flatMap((s) => ('create' in s ? [s.create.name] : []))))
  const adds = pending.flatMap((m) => m.statements.flatMap((s) => ('addColumn' in s ? [s.addColumn] : [])))
  return pending.map((m) => ({
    ...m,
    statements: m.statements.flatMap((s): Statement[] => {
      if ('addColumn' in s) return created.has(s.addColumn.table) ? [] : [s]
      const columns = splitColumns(s.create.columns)
      for (const add of adds.filter((a) => a.table === s.create.name)) {
        const at = columns.findIndex((c) => c.split(/\s/)[0] === add.after)
        if (at < 0) throw new Error(`migration adds ${add.column} to ${add.table} after ${add.after}: no such column`)
        columns.splice(at + 1, 0, add.column)
      }
      return [{ create: { ...s.create, columns: columns.join(',\n') } }]
    }),
  }))
}

/** A column list split at its top-level commas (a type such as `Decimal(9, 2)` keeps its own). */
function splitColumns(columns: string): string[] {
  const out: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]
    if (c === '(') depth++
    else if (c === ')') depth--
    else if (c === ',' && depth === 0) {
      out.push(columns.slice(start, i).trim())
      start = i + 1
    }
  }
  out.push(columns.slice(start).trim())
  return out
}

// DUPLICATE_COLUMN, or ILLEGAL_COLUMN ("column with this name already exists") in some versions.
const ALREADY_THERE = new Set([15, 44])

/** Whether a statement failed only because another process applied it first (on a cluster, on some server). */
function alreadyThere(err: unknown): boolean {
  if (ALREADY_THERE.has(clickhouseCode(err) ?? 0)) return true
  // ON CLUSTER reports each server's error inside its own message: "There was an error on [host:port]:
  // Code: 15, e.displayText() = ..." on 18.16, "... Code: 15. DB::Exception: ..." on current releases.
  const message = (err as { message?: string } | null)?.message ?? ''
  const onServer = /error on \[[^\]]*\]: Code: (\d+)[.,]/.exec(message)
  return onServer !== null && ALREADY_THERE.has(Number(onServer[1]))
}

/**
 * Creates the database and applies the migrations not yet recorded in `schema_migrations`. On a
 * cluster every statement runs ON CLUSTER (distributed DDL, queued in ZooKeeper), and the record of
 * applied migrations is itself replicated to every server, so a process migrating through any of
 * them sees what was applied.
 *
 * Several processes may migrate one database at once (consumers scaled out on a first deploy): the
 * statements are idempotent, and the record is a MergeTree, which takes their inserts side by side.
 */
export async function migrate(client: ClickHouseClient, target: SchemaTarget, log: Logger): Promise<void> {
  const { database: db, cluster } = target
  const onCluster = cluster ? ` ON CLUSTER ${cluster}` : ''
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}${onCluster}` })
  if (!cluster) await retireTinyLogRecord(client, db, log)
  const engine = cluster
    ? `ReplicatedMergeTree('/clickhouse/sluice/${db}/schema_migrations', '{shard}-{replica}')`
    : 'MergeTree()'
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${db}.schema_migrations${onCluster} (version UInt32, name String, applied_at DateTime) ENGINE = ${engine} ORDER BY version`,
  })
  const result = await client.query({ query: `SELECT version FROM ${db}.schema_migrations`, format: 'JSONEachRow' })
  const applied = new Set((await result.json<{ version: number }>()).map((r) => Number(r.version)))
  for (const migration of folded(MIGRATIONS.filter((m) => !applied.has(m.version)))) {
    // Statements are idempotent (IF NOT EXISTS): two processes migrating at once do no harm.
    for (const query of migration.statements.flatMap((statement) => render(statement, target))) {
      try {
        await client.command({ query })
      } catch (err) {
        // ClickHouse 18.16 has no ADD COLUMN IF NOT EXISTS: another process may have added it first.
        if (!alreadyThere(err)) throw err
      }
    }
    await client.insert({
      table: `${db}.schema_migrations`,
      format: 'JSONEachRow',
      values: [{ version: migration.version, name: migration.name, applied_at: Math.floor(Date.now() / 1000) }],
    })
    log.info(
      { database: db, cluster, version: migration.version, name: migration.name },
      'clickhouse migration applied',
    )
  }
  await checkLayout(client, target)
}

/**
 * Databases made before were recorded in a TinyLog, which ClickHouse 18.16 corrupts when two
 * processes insert at once ("File not found: .../tmp_sizes.json": a process then failed to start).
 * Such a record is renamed away (kept as `schema_migrations_tinylog`); migrate() then makes the
 * MergeTree one and runs every migration again, which changes nothing (its statements are idempotent)
 * and records each. Of processes renaming at once, one wins; the others' failures are of no matter.
 */
async function retireTinyLogRecord(client: ClickHouseClient, db: string, log: Logger): Promise<void> {
  if ((await engineOf(client, db, 'schema_migrations')) !== 'TinyLog') return
  try {
    await client.command({ query: `RENAME TABLE ${db}.schema_migrations TO ${db}.schema_migrations_tinylog` })
    log.info(
      { database: db },
      'clickhouse migration record moved from TinyLog to MergeTree (the old one kept as schema_migrations_tinylog); migrations are checked again',
    )
  } catch (err) {
    // Still a TinyLog: not another process's rename, but a failure of this one (such as a
    // schema_migrations_tinylog left by an earlier move, after a downgrade: drop it, then start again).
    if ((await engineOf(client, db, 'schema_migrations')) === 'TinyLog')
      throw new Error(
        `${db}.schema_migrations is a TinyLog (made by an earlier release) and could not be renamed to schema_migrations_tinylog: ${(err as Error).message}`,
      )
  }
}

/** The engine of db.table, or undefined if there is no such table. */
export async function engineOf(client: ClickHouseClient, db: string, table: string): Promise<string | undefined> {
  // No query parameters: ClickHouse 18.16 has none (the database name is checked when the config is read).
  const result = await client.query({
    query: `SELECT engine FROM system.tables WHERE database = '${db}' AND name = '${table}'`,
    format: 'JSONEachRow',
  })
  return (await result.json<{ engine: string }>())[0]?.engine
}

/**
 * The cluster as the servers describe it (`system.clusters`), checked before anything is written.
 * Inserts wait for every replica of the shard (insert_quorum): a read with sequential consistency
 * only checks that a replica has the last quorum insert, so with fewer than every replica a replica
 * that fetched parts out of order could answer short. Every shard must therefore have as many replicas.
 */
export async function clusterShape(client: ClickHouseClient, cluster: string): Promise<{ insertQuorum: number }> {
  const rows = async <T>(query: string) => (await client.query({ query, format: 'JSONEachRow' })).json<T>()
  const shards = (
    await rows<{ replicas: string }>(
      `SELECT count() AS replicas FROM system.clusters WHERE cluster = '${cluster}' GROUP BY shard_num`,
    )
  ).map((r) => Number(r.replicas))
  if (shards.length === 0)
    throw new Error(`CLICKHOUSE_CLUSTER=${cluster} is not a cluster of the server's remote_servers (system.clusters)`)
  if (new Set(shards).size > 1)
    throw new Error(
      `the shards of ${cluster} have different numbers of replicas (${shards.join(', ')}): Sluice needs every shard to have as many`,
    )
  return { insertQuorum: shards[0]! }
}

/** Refuses a database made for the other layout: a single server's tables used as a cluster's, or the reverse. */
async function checkLayout(client: ClickHouseClient, { database, cluster }: SchemaTarget): Promise<void> {
  const engine = await engineOf(client, database, 'events')
  const distributed = engine === 'Distributed'
  if (cluster && !distributed)
    throw new Error(
      `CLICKHOUSE_CLUSTER=${cluster} but ${database}.events is a ${engine ?? 'missing'} table (made for one server): use another database for the cluster`,
    )
  if (!cluster && distributed)
    throw new Error(`${database}.events is a Distributed table (made for a cluster): set CLICKHOUSE_CLUSTER`)
}
