// ClickHouse migrations run by several processes at once, as when consumers are scaled out on a first
// deploy: each process starts, and the record of applied migrations stays whole. With the TinyLog
// record of before, ClickHouse 18.16 failed about one such process in eight ("File not found:
// .../schema_migrations/tmp_sizes.json"), and that process did not start.
import { randomBytes } from 'node:crypto'
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { createLogger } from '../../src/shared/logger.js'
import { engineOf, migrate, MIGRATIONS } from '../../src/sinks/clickhouse/migrations.js'

const PROCESSES = 4
const log = createLogger('silent')
let clients: ClickHouseClient[]
const databases: string[] = []

beforeAll(() => {
  // The client's own log is off: it prints the statements a race lets fail (and migrate() then ignores).
  clients = Array.from({ length: PROCESSES }, () => createClient({ url: inject('services').clickhouseUrl, log: { level: ClickHouseLogLevel.OFF } }))
})

afterAll(async () => {
  for (const db of databases) await clients[0]!.command({ query: `DROP DATABASE IF EXISTS ${db}` })
  await Promise.all(clients.map((c) => c.close()))
})

function newDatabase(): string {
  const db = `test_migrate_${randomBytes(4).toString('hex')}`
  databases.push(db)
  return db
}

async function rows<T>(query: string): Promise<T[]> {
  return (await clients[0]!.query({ query, format: 'JSONEachRow' })).json<T>()
}

/** The versions a record holds, each once, in order. */
const recorded = async (db: string, table = 'schema_migrations') =>
  [...new Set((await rows<{ version: number }>(`SELECT version FROM ${db}.${table}`)).map((r) => Number(r.version)))].sort((a, b) => a - b)
const engine = (db: string, table: string) => engineOf(clients[0]!, db, table)
const ALL = MIGRATIONS.map((m) => m.version)

/** A record as releases before this one made it (TinyLog), named `table`. */
const tinyLogRecord = (db: string, table: string) => clients[0]!.command({ query: `CREATE TABLE ${db}.${table} (version UInt32, name String, applied_at DateTime) ENGINE = TinyLog` })

it(`${PROCESSES} processes migrating one new database at once all start, and every migration is recorded`, async () => {
  for (let round = 0; round < 8; round++) {
    const db = newDatabase()
    const results = await Promise.allSettled(clients.map((c) => migrate(c, { database: db }, log)))
    expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([])
    expect(await recorded(db)).toEqual(ALL)
    expect(await engine(db, 'events')).toBe('MergeTree')
  }
}, 120_000)

it('moves a TinyLog record of before to a MergeTree one, with processes migrating at once, leaving the tables and their rows as they were', async () => {
  const db = newDatabase()
  await migrate(clients[0]!, { database: db }, log)
  // The database as a release before this one left it: every migration recorded in a TinyLog, and data.
  await clients[0]!.command({ query: `DROP TABLE ${db}.schema_migrations` })
  await tinyLogRecord(db, 'schema_migrations')
  await clients[0]!.insert({ table: `${db}.schema_migrations`, format: 'JSONEachRow', values: MIGRATIONS.map((m) => ({ version: m.version, name: m.name, applied_at: 0 })) })
  await clients[0]!.command({ query: `INSERT INTO ${db}.events (environment_id, event_type, key, timestamp) VALUES ('env', 'kept', 'k', now())` })
  const columns = await rows<{ table: string; name: string; type: string }>(`SELECT table, name, type FROM system.columns WHERE database = '${db}' ORDER BY table, name`)

  const results = await Promise.allSettled(clients.map((c) => migrate(c, { database: db }, log)))
  expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([])
  expect(await engine(db, 'schema_migrations')).toBe('MergeTree')
  expect(await engine(db, 'schema_migrations_tinylog')).toBe('TinyLog')
  expect(await recorded(db)).toEqual(ALL)
  expect(await recorded(db, 'schema_migrations_tinylog')).toEqual(ALL)
  // Only the record changed: every other table has the columns it had, and its rows.
  const after = await rows<{ table: string; name: string; type: string }>(
    `SELECT table, name, type FROM system.columns WHERE database = '${db}' AND table != 'schema_migrations_tinylog' ORDER BY table, name`,
  )
  expect(after).toEqual(columns)
  expect(await rows(`SELECT event_type FROM ${db}.events`)).toEqual([{ event_type: 'kept' }])

  // The next start finds the MergeTree record and does nothing more.
  await migrate(clients[0]!, { database: db }, log)
  expect(await engine(db, 'schema_migrations_tinylog')).toBe('TinyLog')
  expect((await rows<{ n: string }>(`SELECT count() AS n FROM system.tables WHERE database = '${db}' AND name LIKE 'schema_migrations%'`))[0]!.n).toBe('2')
})

it('refuses to start, saying why, when a TinyLog record is back and the old one was never dropped (a downgrade and upgrade again)', async () => {
  const db = newDatabase()
  await migrate(clients[0]!, { database: db }, log)
  await tinyLogRecord(db, 'schema_migrations_tinylog')
  await clients[0]!.command({ query: `DROP TABLE ${db}.schema_migrations` })
  await tinyLogRecord(db, 'schema_migrations')
  await expect(migrate(clients[0]!, { database: db }, log)).rejects.toThrow(`${db}.schema_migrations is a TinyLog (made by an earlier release) and could not be renamed to schema_migrations_tinylog`)
  await clients[0]!.command({ query: `DROP TABLE ${db}.schema_migrations_tinylog` })
  await migrate(clients[0]!, { database: db }, log)
  expect(await engine(db, 'schema_migrations')).toBe('MergeTree')
})
