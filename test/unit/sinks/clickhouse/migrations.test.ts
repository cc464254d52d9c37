// The migrations' DDL for one server and for a cluster (the cluster itself is exercised in test/cluster).
import { expect, it } from 'vitest'
import { folded, MIGRATIONS, render } from '../../../../src/sinks/clickhouse/migrations.js'

const all = (cluster?: string) =>
  MIGRATIONS.flatMap((m) => m.statements.flatMap((s) => render(s, { database: 'db', cluster })))

it('one server: plain tables under their own names, columns added in place', () => {
  const sql = all()
  expect(sql.filter((q) => q.startsWith('CREATE TABLE')).length).toBe(9)
  expect(sql.join('\n')).not.toMatch(/ON CLUSTER|Replicated|Distributed|_local/)
  expect(sql).toContain('ALTER TABLE db.events ADD COLUMN request_part UInt32 DEFAULT 0 AFTER request_id')
})

it('a cluster: a replicated local table per shard and a Distributed table under the name analysts query, sharded by Kafka partition', () => {
  const sql = all('c')
  for (const q of sql) expect(q).toMatch(/ ON CLUSTER c( |$)/)
  const events = sql.find((q) => q.startsWith('CREATE TABLE IF NOT EXISTS db.events_local'))!
  expect(events).toMatch(
    /ENGINE = ReplicatedMergeTree\('\/clickhouse\/tables\/\{shard\}\/db\/events_local', '\{replica\}'\)/,
  )
  // A retried block is recognised for 7 days on every release (current ones default to 1 hour since 25.10).
  expect(events).toMatch(
    /SETTINGS replicated_deduplication_window = 10000, replicated_deduplication_window_seconds = 604800$/,
  )
  expect(sql.find((q) => q.startsWith('CREATE TABLE IF NOT EXISTS db.event_consumer_intents_local'))).toMatch(
    /ReplicatedReplacingMergeTree\('\/clickhouse\/tables\/\{shard\}\/db\/event_consumer_intents_local', '\{replica\}', last_offset\)/,
  )
  expect(sql.find((q) => q.startsWith('CREATE TABLE IF NOT EXISTS db.events ON CLUSTER'))).toMatch(
    /ENGINE = Distributed\(c, db, events_local, source_partition\)$/,
  )
  expect(sql.find((q) => q.startsWith('CREATE TABLE IF NOT EXISTS db.event_consumer_intents ON CLUSTER'))).toMatch(
    /Distributed\(c, db, event_consumer_intents_local, partition\)$/,
  )
})

it('a cluster: a column is added to the local tables, and the Distributed table is made again naming every column', () => {
  const sql = all('c')
  const alter = sql.indexOf(
    'ALTER TABLE db.events_local ON CLUSTER c ADD COLUMN request_part UInt32 DEFAULT 0 AFTER request_id',
  )
  expect(alter).toBeGreaterThan(-1)
  expect(sql[alter + 1]).toBe('DROP TABLE IF EXISTS db.events ON CLUSTER c')
  expect(sql[alter + 2]).toMatch(
    /^CREATE TABLE IF NOT EXISTS db.events ON CLUSTER c \(environment_id String,[\s\S]*source_index UInt32,\nrequest_part UInt32 DEFAULT 0\) ENGINE = Distributed/,
  )
})

it('a new database gets its final columns in the CREATE, in place, and no ALTER (18.16 can wedge its DDL queue on one)', () => {
  const sql = folded(MIGRATIONS).flatMap((m) =>
    m.statements.flatMap((s) => render(s, { database: 'db', cluster: 'c' })),
  )
  expect(sql.join('\n')).not.toMatch(/ALTER|DROP/)
  const events = sql.find((q) => q.startsWith('CREATE TABLE IF NOT EXISTS db.events_local'))!
  expect(events).toMatch(/request_id String,\nrequest_part UInt32 DEFAULT 0,\nsource_topic String/)
  const rejections = sql.find((q) => q.startsWith('CREATE TABLE IF NOT EXISTS db.event_rejections ON CLUSTER'))!
  expect(rejections).toMatch(/request_id String,\nrequest_part UInt32 DEFAULT 0,\nsource_topic String/)
  // Every migration is still there to be recorded, the folded one with nothing left to run.
  expect(folded(MIGRATIONS).map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version))
})

it('a database made before a migration that adds a column still gets the ALTER', () => {
  const pending = folded(MIGRATIONS.filter((m) => m.version >= 3))
  const sql = pending.flatMap((m) => m.statements.flatMap((s) => render(s, { database: 'db' })))
  expect(sql).toContain('ALTER TABLE db.events ADD COLUMN request_part UInt32 DEFAULT 0 AFTER request_id')
  expect(sql).toContain('ALTER TABLE db.event_rejections ADD COLUMN request_part UInt32 DEFAULT 0 AFTER request_id')
})
