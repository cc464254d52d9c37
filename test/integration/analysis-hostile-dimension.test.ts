// A breakdown by a property with 10 million distinct values, as anyone posting events can make one: 10 million keys
// post a visit each with a value of its own, and a million of them were exposed to the flag. The answer is still the
// top slices and the rest, their exposed keys exact, under a memory limit of 2 GiB, in which the plain results of the
// million keys take 1 GiB: the top values are ClickHouse's topK (the Space-Saving sketch, its memory bounded by the
// slices asked for), the sums are grouped by slice, and the first events are read for the exposed keys only. Measured
// here (ClickHouse 18.16, query_log): the sliced sums 1.43 GiB and 5.3 s, the top values 0.77 GiB and 2.5 s; when the
// first events of every key that posted were read, 3.61 GiB and 14.2 s, and 2.97 GiB and 9.9 s. The rows are made in
// ClickHouse (INSERT ... SELECT FROM numbers): ten million records through the intake would take the suite's whole
// budget, and the intake's own limits are not under test here.
import { randomBytes } from 'node:crypto'
import { createClient, type ClickHouseClient } from '@clickhouse/client'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { clickhouseRunner } from '../../src/analysis/clickhouse.js'
import { createLogger } from '../../src/shared/logger.js'
import { ExperimentService } from '../../src/services/experiments/service.js'
import type { MetricService } from '../../src/services/metrics.js'
import { migrate } from '../../src/sinks/clickhouse/migrations.js'
import type { Metric } from '../../src/state/redis/metrics.js'
import type { Environment, Workspace } from '../../src/state/redis/tenancy.js'
import { serverEngine, type Engine } from '../support/engines.js'

/** Keys exposed to the flag. */
const KEYS = 1_000_000
/** Keys that post a visit, each with a value of its own (the exposed ones among them). */
const POSTING = 10_000_000
const T0 = 1_764_000_000_000
const HOUR = 3_600_000
const ENV = 'env-hostile'
const FLAG = 'hostile_dimension'
/** The limits both requests run under (SLUICE_EXPERIMENT_MAX_MEMORY_BYTES): twice what the plain results take. */
const LIMITS = { timeoutMs: 300_000, maxMemoryBytes: 2 * 2 ** 30 }

const visits: Metric = {
  id: 'visits',
  workspaceId: 'ws',
  name: 'Visits',
  description: '',
  desiredDirection: 'increase',
  trafficType: 'user',
  createdAt: 0,
  updatedAt: 0,
  type: 'count_per_key',
  eventTypeId: 'visit',
}
const metricService = { many: async () => [visits] } as unknown as MetricService
const ws = { id: 'ws' } as Workspace
const env = { id: ENV } as Environment

let engine: Engine
let db: string
let service: ExperimentService
let reader: ClickHouseClient

beforeAll(async () => {
  engine = serverEngine()
  db = `test_hostile_${randomBytes(4).toString('hex')}`
  const writer = engine.client()
  await migrate(writer, { database: db }, createLogger('silent'))
  const at = `${T0} + number % ${HOUR}`
  await writer.command({
    query: `INSERT INTO ${db}.impressions (environment_id, flag, key, treatment, label, time, time_ms)
      SELECT '${ENV}', '${FLAG}', concat('k', toString(number)), if(number % 2 = 1, 'on', 'off'), 'default rule',
        toDateTime(intDiv(${at}, 1000)), ${at}
      FROM numbers(${KEYS})`,
  })
  // Of the exposed keys, 30 % visit from "popular", 10 % from "second", the others from a value of their own, and 30 %
  // visit again from "later" (the first visit decides); the other 9 million keys visit from a value of their own.
  await writer.command({
    query: `INSERT INTO ${db}.events (environment_id, traffic_type, event_type, key, timestamp, timestamp_ms, properties)
      SELECT '${ENV}', 'user', 'visit', concat('k', toString(n)), toDateTime(intDiv(ms, 1000)), ms,
        concat('{"v":"', if(again, 'later',
          multiIf(n < ${KEYS} AND n % 10 < 3, 'popular', n < ${KEYS} AND n % 10 = 3, 'second', concat('v', toString(n)))), '"}')
      FROM (SELECT number >= ${POSTING} AS again, if(again, (number - ${POSTING}) * 3, toInt64(number)) AS n,
          ${T0} + n % ${HOUR} + 1000 + again * 60000 AS ms
        FROM numbers(${POSTING + (3 * KEYS) / 10}))`,
  })
  // The statements are logged (system.query_log): what each took is printed below.
  reader = createClient({ url: inject('services').clickhouseUrl, clickhouse_settings: { log_queries: 1 } })
  service = new ExperimentService(
    clickhouseRunner(reader, LIMITS),
    { events: `${db}.events`, impressions: `${db}.impressions` },
    metricService,
  )
}, 600_000)

afterAll(async () => {
  await engine
    ?.client()
    .command({ query: `DROP DATABASE IF EXISTS ${db}` })
    .catch(() => undefined)
  await reader?.close()
  await engine?.close()
})

it('breaks a million exposed keys down by a property with 10 million distinct values: the top slices, exact', async () => {
  const request = { flag: FLAG, metricIds: ['visits'], from: T0, to: T0 + 2 * HOUR }
  const plain = await service.results(ws, env, request)
  expect(plain.exposure.keys).toBe(KEYS)
  const started = performance.now()
  const sliced = await service.results(ws, env, {
    ...request,
    dimension: { kind: 'event', eventTypeId: 'visit', property: 'v' },
    maxSlices: 3,
  })
  const slices = sliced.dimension!.slices
  // The two frequent values first (Space-Saving finds every value above a thirtieth of the keys), one value of a
  // single key, then the other 599,999 values together.
  expect(slices.map((s) => [s.value, s.exposure.keys])).toEqual([
    ['popular', 0.3 * KEYS],
    ['second', 0.1 * KEYS],
    [expect.stringMatching(/^v\d+$/), 1],
    [null, 0.6 * KEYS - 1],
  ])
  // "popular" is n % 10 in 0, 1, 2: two even (off) to one odd (on).
  expect(slices[0]!.exposure.perTreatment).toEqual({ off: 0.2 * KEYS, on: 0.1 * KEYS })
  // What each statement took, for the reader of the log (ClickHouse's own accounting).
  await engine.client().command({ query: 'SYSTEM FLUSH LOGS' })
  const log = await engine.client().query({
    query: `SELECT type, query_duration_ms AS ms, formatReadableSize(memory_usage) AS memory,
        substring(replaceRegexpAll(query, '[[:space:]]+', ' '), 1, 50) AS q
      FROM system.query_log WHERE type >= 2 AND query LIKE '%${db}.impressions%' AND query NOT LIKE 'INSERT%'
      ORDER BY event_time`,
    format: 'JSONEachRow',
  })
  console.log(
    `breakdown of ${KEYS} exposed keys by ${POSTING} distinct values: ${Math.round(performance.now() - started)} ms; statements: ${JSON.stringify(await log.json())}`,
  )
}, 600_000)
