// Every SQL example of the README and docs/, run as written on both engines (the 18.16 server and a
// current 26.x, see engines.ts): each ```sql block, each inline `SELECT ...` and each
// `clickhouse-client -q "..."`, with only the database (`sluice.`) and the placeholders
// (<environment id>, <flag>) filled in. A documented CREATE TABLE is made in a scratch database and
// must have the columns of the table the migrations make; every query answers, the same on both.
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { ClickHouseClient } from '@clickhouse/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImpressionRow } from '../../src/pipeline/impressions.js'
import { rejectionRow } from '../../src/pipeline/rows.js'
import { createLogger } from '../../src/shared/logger.js'
import { probeCapabilities } from '../../src/sinks/clickhouse/capabilities.js'
import { migrate } from '../../src/sinks/clickhouse/migrations.js'
import { ClickHouseTableSink } from '../../src/sinks/clickhouse/table.sink.js'
import { EVENT_REJECTIONS, EVENTS, IMPRESSIONS } from '../../src/sinks/clickhouse/tables.js'
import { eventRow, impressionRows } from '../support/rows.js'
import { ENGINES, expectSame, type Engine } from '../support/engines.js'

const ROOT = new URL('../../', import.meta.url).pathname
const ENV = 'env-docs'
const FLAG = 'docs_flag'

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith('.md') ? [path] : []
  })
}

/** The SQL statements a page shows, each with where it is. */
function examples(path: string): { where: string; sql: string }[] {
  const text = readFileSync(path, 'utf8')
  const line = (at: number) => text.slice(0, at).split('\n').length
  const name = path.slice(ROOT.length)
  const found: { where: string; sql: string }[] = []
  for (const m of text.matchAll(/```sql\n([\s\S]*?)\n```/g)) {
    // Statements end with ";" at the end of a line; comments are kept (ClickHouse takes them).
    for (const sql of m[1]!.split(/;\s*\n/))
      if (sql.replace(/--.*$/gm, '').trim())
        found.push({ where: `${name}:${line(m.index)}`, sql: sql.trim().replace(/;$/, '') })
  }
  for (const m of text.matchAll(/`(SELECT [^`]+)`/g)) found.push({ where: `${name}:${line(m.index)}`, sql: m[1]! })
  for (const m of text.matchAll(/clickhouse-client (?:-q|--query) "([^"]+)"/g))
    found.push({ where: `${name}:${line(m.index)}`, sql: m[1]! })
  return found
}

const EXAMPLES = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))].flatMap(examples)

it('finds the SQL examples of the README and docs', () => {
  expect(EXAMPLES.length).toBeGreaterThanOrEqual(8)
  expect(EXAMPLES.filter((e) => /^CREATE TABLE/.test(e.sql)).length).toBeGreaterThanOrEqual(2)
})

/** Events and impressions of the last days, a rejection: enough for every example to have rows. */
async function fill(sink: ClickHouseTableSink, now: number): Promise<void> {
  const meta = {
    environmentId: ENV,
    accountId: 'acc',
    receivedAtMs: now,
    sdkVersion: 'docs',
    requestId: 'docs',
    part: 0,
  }
  const events = Array.from({ length: 60 }, (_, i) => {
    const record = {
      eventTypeId: i % 3 ? 'checkout' : 'page_view',
      trafficTypeName: 'user',
      key: `user-${i % 50}`,
      timestamp: now - (i % 5) * 3_600_000 - 60_000,
      value: i % 4 ? i * 1.25 : null,
      properties: { plan: i % 2 ? 'pro' : 'free' },
    }
    // Each received in a second of its own: "ORDER BY received_at" examples have one answer.
    return eventRow(
      record,
      { ...meta, receivedAtMs: now - i * 1000 },
      { topic: 'docs', partition: 0, offset: BigInt(i), index: 0 },
    )
  })
  await sink.insert(EVENTS, events)
  await sink.insert(EVENT_REJECTIONS, [
    rejectionRow('eventTypeId is required', { key: 'x' }, meta, {
      topic: 'docs',
      partition: 0,
      offset: 100n,
      index: 0,
    }),
  ])
  const impressions: ImpressionRow[] = []
  const groups = [
    {
      f: FLAG,
      i: Array.from({ length: 20 }, (_, k) => ({
        k: `user-${k}`,
        t: k % 2 ? 'on' : 'off',
        m: now - 6 * 3_600_000 + k * 1000,
        c: 1,
        r: 'default rule',
      })),
    },
  ]
  impressions.push(
    ...impressionRows(
      groups,
      { ...meta, kind: 'impressions', impressionsMode: 'DEBUG', machineIp: '', machineName: '' },
      (index) => ({ topic: 'docs-i', partition: 0, offset: 0n, index }),
    ),
  )
  await sink.insert(IMPRESSIONS, impressions)
}

interface Lane {
  engine: Engine
  client: ClickHouseClient
  db: string
  scratch: string
}
const lanes: Lane[] = []

beforeAll(async () => {
  const now = Date.now()
  for (const { make } of ENGINES) {
    const engine = make()
    const client = engine.client()
    const db = `test_docs_${randomBytes(4).toString('hex')}`
    await migrate(client, { database: db }, createLogger('silent'))
    await client.command({ query: `CREATE DATABASE ${db}_scratch` })
    await fill(
      new ClickHouseTableSink(engine.client(), { database: db, capabilities: await probeCapabilities(client) }),
      now,
    )
    lanes.push({ engine, client, db, scratch: `${db}_scratch` })
  }
}, 120_000)

afterAll(async () => {
  for (const { engine, client, db, scratch } of lanes) {
    for (const d of [db, scratch])
      await client.command({ query: `DROP DATABASE IF EXISTS ${d}` }).catch(() => undefined)
    await engine.close()
  }
})

const columns = async ({ client }: Lane, db: string, table: string) =>
  (
    await (
      await client.query({
        query: `SELECT name, type FROM system.columns WHERE database = '${db}' AND table = '${table}'`,
        format: 'JSONEachRow',
      })
    ).json<{ name: string; type: string }>()
  ).map((c) => `${c.name} ${c.type}`)

describe.each(EXAMPLES.map((e) => ({ ...e, title: `${e.where}: ${e.sql.replace(/\s+/g, ' ').slice(0, 60)}` })))(
  '$title',
  ({ sql }) => {
    const create = /^CREATE TABLE sluice\.(\w+)/.exec(sql)
    if (create) {
      it.each(ENGINES.map((e, i) => ({ ...e, i })))('makes the table the migrations make, on $name', async ({ i }) => {
        const lane = lanes[i]!
        await lane.client.command({ query: sql.replaceAll('sluice.', `${lane.scratch}.`) })
        expect(await columns(lane, lane.scratch, create[1]!)).toEqual(await columns(lane, lane.db, create[1]!))
      })
      return
    }
    it('answers, the same on ClickHouse 18.16 and 26.x', async () => {
      const results = []
      for (const lane of lanes) {
        const query = sql
          .replaceAll('sluice.', `${lane.db}.`)
          .replaceAll('<environment id>', ENV)
          .replaceAll('<flag>', FLAG)
        // 64-bit integers quoted in JSON on both (the default of 18.16 only).
        const rows = await (
          await lane.client.query({
            query,
            format: 'JSONEachRow',
            clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
          })
        ).json<Record<string, unknown>>()
        results.push(rows)
      }
      expect(results[0]!.length).toBeGreaterThan(0)
      expectSame(results[1], results[0])
    })
  },
)
