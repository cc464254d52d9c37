// ClickHouse migrations on both engines (the 18.16 server and a current 26.x, see engines.ts): a new
// database, the same again (nothing changes), several processes at once, as when consumers are
// scaled out on a first deploy: each process starts, and the record of applied migrations stays
// whole. With the TinyLog record of before, ClickHouse 18.16 failed about one such process in eight
// ("File not found: .../schema_migrations/tmp_sizes.json"), and that process did not start. The
// cluster's DDL cannot run without a cluster here: the current engine parses each statement of it.
import { randomBytes } from 'node:crypto'
import type { ClickHouseClient } from '@clickhouse/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/shared/logger.js'
import { engineOf, migrate, MIGRATIONS, render } from '../../src/sinks/clickhouse/migrations.js'
import { ENGINES, type Engine } from '../support/engines.js'

const PROCESSES = 4
const log = createLogger('silent')
const ALL = MIGRATIONS.map((m) => m.version)

describe.each(ENGINES)('on $name', ({ make }) => {
  let engine: Engine
  let clients: ClickHouseClient[]
  const databases: string[] = []

  beforeAll(() => {
    engine = make()
    // The client's own log is off: it prints the statements a race lets fail (and migrate() then ignores).
    clients = Array.from({ length: PROCESSES }, () => engine.client({ quiet: true }))
  })

  afterAll(async () => {
    for (const db of databases) await clients[0]!.command({ query: `DROP DATABASE IF EXISTS ${db}` })
    await engine.close()
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
    [
      ...new Set((await rows<{ version: number }>(`SELECT version FROM ${db}.${table}`)).map((r) => Number(r.version))),
    ].sort((a, b) => a - b)
  const tableEngine = (db: string, table: string) => engineOf(clients[0]!, db, table)

  /** A record as releases before this one made it (TinyLog), named `table`. */
  const tinyLogRecord = (db: string, table: string) =>
    clients[0]!.command({
      query: `CREATE TABLE ${db}.${table} (version UInt32, name String, applied_at DateTime) ENGINE = TinyLog`,
    })

  it('migrates a new database, and changes nothing when migrating it again', async () => {
    const db = newDatabase()
    await migrate(clients[0]!, { database: db }, log)
    const schema = () =>
      rows(`SELECT table, name, type FROM system.columns WHERE database = '${db}' ORDER BY table, name`)
    const before = await schema()
    expect(new Set(before.map((c) => (c as { table: string }).table))).toEqual(
      new Set([
        'schema_migrations',
        'events',
        'event_rejections',
        'event_consumer_intents',
        'impressions',
        'impression_counts',
        'unique_keys',
        'sdk_telemetry',
        'impression_rejections',
        'event_violations',
      ]),
    )
    await migrate(clients[0]!, { database: db }, log)
    expect(await schema()).toEqual(before)
    // 64-bit integers are quoted in JSON by 18.16, not by current releases (output_format_json_quote_64bit_integers).
    expect(Number((await rows<{ n: string | number }>(`SELECT count() AS n FROM ${db}.schema_migrations`))[0]!.n)).toBe(
      ALL.length,
    )
    // Every later migration ran again on a database that had it already: the statements are idempotent.
    await clients[0]!.command({ query: `TRUNCATE TABLE ${db}.schema_migrations` })
    await migrate(clients[0]!, { database: db }, log)
    expect(await schema()).toEqual(before)
    expect(await recorded(db)).toEqual(ALL)
  })

  it(`${PROCESSES} processes migrating one new database at once all start, and every migration is recorded`, async () => {
    for (let round = 0; round < 8; round++) {
      const db = newDatabase()
      const results = await Promise.allSettled(clients.map((c) => migrate(c, { database: db }, log)))
      expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([])
      expect(await recorded(db)).toEqual(ALL)
      expect(await tableEngine(db, 'events')).toBe('MergeTree')
    }
  }, 120_000)

  it('moves a TinyLog record of before to a MergeTree one, with processes migrating at once, leaving the tables and their rows as they were', async () => {
    const db = newDatabase()
    await migrate(clients[0]!, { database: db }, log)
    // The database as a release before this one left it: every migration recorded in a TinyLog, and data.
    await clients[0]!.command({ query: `DROP TABLE ${db}.schema_migrations` })
    await tinyLogRecord(db, 'schema_migrations')
    await clients[0]!.insert({
      table: `${db}.schema_migrations`,
      format: 'JSONEachRow',
      values: MIGRATIONS.map((m) => ({ version: m.version, name: m.name, applied_at: 0 })),
    })
    await clients[0]!.command({
      query: `INSERT INTO ${db}.events (environment_id, event_type, key, timestamp) VALUES ('env', 'kept', 'k', now())`,
    })
    const columns = await rows<{ table: string; name: string; type: string }>(
      `SELECT table, name, type FROM system.columns WHERE database = '${db}' ORDER BY table, name`,
    )

    const results = await Promise.allSettled(clients.map((c) => migrate(c, { database: db }, log)))
    expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([])
    expect(await tableEngine(db, 'schema_migrations')).toBe('MergeTree')
    expect(await tableEngine(db, 'schema_migrations_tinylog')).toBe('TinyLog')
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
    expect(await tableEngine(db, 'schema_migrations_tinylog')).toBe('TinyLog')
    expect(
      Number(
        (
          await rows<{ n: string }>(
            `SELECT count() AS n FROM system.tables WHERE database = '${db}' AND name LIKE 'schema_migrations%'`,
          )
        )[0]!.n,
      ),
    ).toBe(2)
  })

  it('refuses to start, saying why, when a TinyLog record is back and the old one was never dropped (a downgrade and upgrade again)', async () => {
    const db = newDatabase()
    await migrate(clients[0]!, { database: db }, log)
    await tinyLogRecord(db, 'schema_migrations_tinylog')
    await clients[0]!.command({ query: `DROP TABLE ${db}.schema_migrations` })
    await tinyLogRecord(db, 'schema_migrations')
    await expect(migrate(clients[0]!, { database: db }, log)).rejects.toThrow(
      `${db}.schema_migrations is a TinyLog (made by an earlier release) and could not be renamed to schema_migrations_tinylog`,
    )
    await clients[0]!.command({ query: `DROP TABLE ${db}.schema_migrations_tinylog` })
    await migrate(clients[0]!, { database: db }, log)
    expect(await tableEngine(db, 'schema_migrations')).toBe('MergeTree')
  })

  it.runIf(make === ENGINES[1]!.make)(
    "parses every statement of a cluster's migrations (ON CLUSTER, replicated tables, Distributed tables)",
    async () => {
      const statements = MIGRATIONS.flatMap((m) =>
        m.statements.flatMap((st) => render(st, { database: 'sluice', cluster: 'sluice' })),
      )
      expect(statements.length).toBeGreaterThan(MIGRATIONS.length)
      for (const statement of statements) {
        const [formatted] = await rows<{ f: string }>(
          `SELECT formatQuery('${statement.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}') AS f`,
        )
        expect(formatted!.f, statement).toMatch(/ON CLUSTER sluice/)
      }
    },
  )
})
