// Versioned, idempotent ClickHouse migrations, applied at startup. Every statement runs on ClickHouse
// 18.16 (Debian, CI) and on current releases (docker-compose): no DateTime64, Map, JSON type or
// LowCardinality; epoch-ms as Int64 beside DateTime columns; properties as JSON text.
import type { ClickHouseClient } from '@clickhouse/client'
import type { Logger } from '../../shared/logger.js'
import { clickhouseCode } from '../../shared/errors.js'

interface Migration {
  readonly version: number
  readonly name: string
  readonly statements: (db: string) => string[]
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'events and event_rejections',
    statements: (db) => [
      // Analysts ask "event type X in environment Y over time range Z": the sort key follows that
      // order, so such a query reads one contiguous range of each part. Monthly partitions on event
      // time keep time-range queries to a few partitions and make retention a DROP PARTITION.
      `CREATE TABLE IF NOT EXISTS ${db}.events (
        environment_id String,
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
        source_index UInt32
      ) ENGINE = MergeTree()
      PARTITION BY toYYYYMM(timestamp)
      ORDER BY (environment_id, event_type, timestamp)`,
      `CREATE TABLE IF NOT EXISTS ${db}.event_rejections (
        environment_id String,
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
        source_index UInt32
      ) ENGINE = MergeTree()
      PARTITION BY toYYYYMM(received_at)
      ORDER BY (environment_id, received_at)`,
    ],
  },
  {
    version: 2,
    name: 'event_consumer_intents',
    statements: (db) => [
      // Before each insert the consumer records the last offset it is about to write; after a crash
      // the new owner of the partition checks for stored rows up to there. One row per partition
      // survives merges (the highest offset).
      `CREATE TABLE IF NOT EXISTS ${db}.event_consumer_intents (
        topic String,
        partition UInt32,
        last_offset UInt64,
        at DateTime
      ) ENGINE = ReplacingMergeTree(last_offset)
      ORDER BY (topic, partition)`,
    ],
  },
  {
    version: 3,
    name: 'request_part',
    // A Kafka message's identity is (request_id, request_part): a message replayed from an edge's
    // spool is skipped when rows of its identity are stored.
    statements: (db) => [
      `ALTER TABLE ${db}.events ADD COLUMN request_part UInt32 DEFAULT 0 AFTER request_id`,
      `ALTER TABLE ${db}.event_rejections ADD COLUMN request_part UInt32 DEFAULT 0 AFTER request_id`,
    ],
  },
  {
    version: 4,
    name: 'impressions, impression_counts, unique_keys, sdk_telemetry, impression_rejections',
    statements: (db) => {
      const origin = `sdk_version String, impressions_mode String, machine_ip String, machine_name String,
        received_at DateTime, received_at_ms Int64, request_id String, request_part UInt32,
        source_topic String, source_partition UInt32, source_offset UInt64, source_index UInt32`
      return [
        // The exposure log. Experiments ask "flag F in environment E over a time range" and "the
        // first impression of each key of flag F": both read one contiguous range of the sort key.
        `CREATE TABLE IF NOT EXISTS ${db}.impressions (
          environment_id String, account_id String, flag String, key String, bucketing_key String,
          treatment String, label String, change_number Int64,
          time DateTime, time_ms Int64, previous_time_ms Int64, properties String,
          ${origin}
        ) ENGINE = MergeTree()
        PARTITION BY toYYYYMM(time)
        ORDER BY (environment_id, flag, time, key)`,
        // Impressions the SDKs counted instead of sending (OPTIMIZED and NONE modes), per flag and hour.
        `CREATE TABLE IF NOT EXISTS ${db}.impression_counts (
          environment_id String, account_id String, flag String, hour DateTime, hour_ms Int64, count UInt64,
          ${origin}
        ) ENGINE = MergeTree()
        PARTITION BY toYYYYMM(hour)
        ORDER BY (environment_id, flag, hour)`,
        // Keys that saw a flag (impressions mode NONE), per receive day; a key appears once per SDK flush.
        `CREATE TABLE IF NOT EXISTS ${db}.unique_keys (
          environment_id String, account_id String, flag String, key String, day Date,
          ${origin}
        ) ENGINE = MergeTree()
        PARTITION BY toYYYYMM(day)
        ORDER BY (environment_id, flag, day, key)`,
        // Which SDKs, versions and modes talk to Sluice: their telemetry bodies as sent.
        `CREATE TABLE IF NOT EXISTS ${db}.sdk_telemetry (
          environment_id String, account_id String, kind String, operation_mode String, storage String, payload String,
          ${origin}
        ) ENGINE = MergeTree()
        PARTITION BY toYYYYMM(received_at)
        ORDER BY (environment_id, received_at)`,
        `CREATE TABLE IF NOT EXISTS ${db}.impression_rejections (
          environment_id String, account_id String, kind String, reason String, raw String,
          sdk_version String, received_at DateTime, received_at_ms Int64, request_id String, request_part UInt32,
          source_topic String, source_partition UInt32, source_offset UInt64, source_index UInt32
        ) ENGINE = MergeTree()
        PARTITION BY toYYYYMM(received_at)
        ORDER BY (environment_id, received_at)`,
      ]
    },
  },
]

// DUPLICATE_COLUMN, or ILLEGAL_COLUMN ("column with this name already exists") in some versions.
const ALREADY_THERE = new Set([15, 44])

/** Creates the database and applies the migrations not yet recorded in `schema_migrations`. */
export async function migrate(client: ClickHouseClient, db: string, log: Logger): Promise<void> {
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` })
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${db}.schema_migrations (version UInt32, name String, applied_at DateTime) ENGINE = TinyLog`,
  })
  const result = await client.query({ query: `SELECT version FROM ${db}.schema_migrations`, format: 'JSONEachRow' })
  const applied = new Set((await result.json<{ version: number }>()).map((r) => Number(r.version)))
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue
    // Statements are idempotent (IF NOT EXISTS): two processes migrating at once do no harm.
    for (const query of migration.statements(db)) {
      try {
        await client.command({ query })
      } catch (err) {
        // ClickHouse 18.16 has no ADD COLUMN IF NOT EXISTS: another process may have added it first.
        if (!ALREADY_THERE.has(clickhouseCode(err) ?? 0)) throw err
      }
    }
    await client.insert({
      table: `${db}.schema_migrations`,
      format: 'JSONEachRow',
      values: [{ version: migration.version, name: migration.name, applied_at: Math.floor(Date.now() / 1000) }],
    })
    log.info({ database: db, version: migration.version, name: migration.name }, 'clickhouse migration applied')
  }
}
