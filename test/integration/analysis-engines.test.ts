// Experiment results on both engines (the 18.16 server and a current 26.x, see engines.ts): the same rows (a generated
// experiment of 3 treatments, stored by the table sink) give the same results on both (every count and decision
// identical, statistics to 1e-12), for every metric type, a property filter, a value property, a cap, a rule, a sum
// beyond a double, percentile caps, CUPED's pre-exposure sums and quantile metrics (their quantiles, bounds and
// clustered sums); and the flags list (the most keys first, or the flags
// named, as the checks list flags with saved settings). Each engine is asked through the
// service's own runner (read-only, bounded), so every statement of the results is proven on both. On a current engine
// an alias-less join subquery is refused (ALIAS_REQUIRED): that refusal is a 500 naming the query, not a 503.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clickhouseRunner } from '../../src/analysis/clickhouse.js'
import { experimentsQuery } from '../../src/analysis/queries.js'
import type { EventRow } from '../../src/pipeline/events.js'
import type { ImpressionRow } from '../../src/pipeline/impressions.js'
import { AppError } from '../../src/shared/errors.js'
import { createLogger } from '../../src/shared/logger.js'
import type { ResultsRequest } from '../../src/services/experiments/request.js'
import type { IdentityReader } from '../../src/services/experiments/identity-dimension.js'
import { ExperimentService } from '../../src/services/experiments/service.js'
import type { MetricService } from '../../src/services/metrics.js'
import { probeCapabilities } from '../../src/sinks/clickhouse/capabilities.js'
import { migrate } from '../../src/sinks/clickhouse/migrations.js'
import { ClickHouseTableSink } from '../../src/sinks/clickhouse/table.sink.js'
import { EVENTS, IMPRESSIONS } from '../../src/sinks/clickhouse/tables.js'
import type { Metric } from '../../src/state/redis/metrics.js'
import type { Environment, Workspace } from '../../src/state/redis/tenancy.js'
import { eventRow, impressionRows } from '../support/rows.js'
import { ENGINES, expectSame, type Engine } from '../support/engines.js'
import { seeded } from '../support/stats.js'

const T0 = 1_764_000_000_000
const MIN = 60_000
const FLAG = 'checkout_redesign'
const ENV = 'env-analysis'
const LIMITS = { timeoutMs: 30_000, maxMemoryBytes: 2 ** 30 }

const metric = (id: string, spec: Partial<Metric> & Pick<Metric, 'type' | 'eventTypeId'>): Metric => ({
  id,
  workspaceId: 'ws',
  name: id,
  description: '',
  desiredDirection: 'increase',
  trafficType: 'user',
  createdAt: 0,
  updatedAt: 0,
  ...spec,
})

const METRICS: Metric[] = [
  metric('count', { type: 'count_per_key', eventTypeId: 'purchase' }),
  metric('revenue-capped', { type: 'sum_per_key', eventTypeId: 'purchase', cap: 150 }),
  metric('pro-amount', {
    type: 'average_per_key',
    eventTypeId: 'purchase',
    valueProperty: 'amount',
    propertyFilter: { property: 'plan', operator: 'equals', value: 'pro' },
  }),
  metric('per-visit', { type: 'ratio_per_key', eventTypeId: 'purchase', denominatorEventTypeId: 'visit' }),
  metric('buyers', { type: 'percent_of_keys', eventTypeId: 'purchase' }),
  metric('big-seats', {
    type: 'count_per_key',
    eventTypeId: 'purchase',
    propertyFilter: { property: 'seats', operator: 'greater_than', value: 2 },
  }),
  metric('trial', {
    type: 'percent_of_keys',
    eventTypeId: 'visit',
    propertyFilter: { property: 'trial', operator: 'not_equals', value: true },
  }),
  // Values near the largest double: their sum overflows (reported as NaN, never as a number).
  metric('huge', { type: 'sum_per_key', eventTypeId: 'huge' }),
  metric('revenue-p95', { type: 'sum_per_key', eventTypeId: 'purchase', capPercentile: 0.95, preExposureDays: 1 }),
  metric('amount-p90', { type: 'average_per_key', eventTypeId: 'purchase', capPercentile: 0.9, guardrail: true }),
  // Quantile metrics: their quantiles, bounds and clustered sums.
  metric('amount-q90', { type: 'quantile_of_events', eventTypeId: 'purchase', quantile: 0.9 }),
  metric('amount-median', { type: 'quantile_per_key', eventTypeId: 'purchase', quantile: 0.5 }),
  // Visits have no value: a quantile of none (the hostile soak found it answered 500).
  metric('visit-q90', { type: 'quantile_of_events', eventTypeId: 'visit', quantile: 0.9 }),
]

// A seeded generator: the same experiment on both engines, every run.
const rand = seeded(7)

function generate(): { impressions: ImpressionRow[]; events: EventRow[] } {
  const impressions: ImpressionRow[] = []
  const events: EventRow[] = []
  const meta = { environmentId: ENV, accountId: 'acc', receivedAtMs: T0, sdkVersion: 'test', requestId: 'r', part: 0 }
  const groups: { f: string; i: object[] }[] = [{ f: FLAG, i: [] }]
  let offset = 0n
  for (let k = 0; k < 1500; k++) {
    const key = `user-${k}`
    const u = rand()
    const treatment = u < 0.4 ? 'off' : u < 0.8 ? 'on' : 'v2'
    const first = T0 + Math.floor(rand() * 100 * MIN)
    groups[0]!.i.push({ k: key, t: treatment, m: first, c: 1, r: k % 5 === 0 ? 'in segment beta' : 'default rule' })
    if (k % 41 === 0)
      groups[0]!.i.push({ k: key, t: treatment === 'on' ? 'off' : 'on', m: first + MIN, c: 1, r: 'default rule' })
    const lift = treatment === 'on' ? 1 : treatment === 'v2' ? 0.5 : 0
    const records: object[] = []
    for (let p = 0; p < Math.floor(rand() * (3 + 2 * lift)); p++) {
      const amount = Math.round((20 + rand() * 80 + lift * 15) * 100) / 100
      records.push({
        eventTypeId: 'purchase',
        trafficTypeName: 'user',
        key,
        timestamp: first + Math.floor(rand() * 60 * MIN),
        value: p % 4 === 3 ? null : amount,
        properties: { amount, plan: rand() < 0.6 ? 'pro' : 'free', seats: Math.floor(rand() * 5) },
      })
    }
    for (let v = 0; v < 1 + Math.floor(rand() * 3); v++)
      records.push({
        eventTypeId: 'visit',
        trafficTypeName: 'user',
        key,
        timestamp: first + Math.floor(rand() * 60 * MIN),
        properties: { trial: rand() < 0.3 },
      })
    if (k % 97 === 0)
      records.push(
        { eventTypeId: 'huge', trafficTypeName: 'user', key, timestamp: first + MIN, value: 1.5e308 },
        { eventTypeId: 'huge', trafficTypeName: 'user', key, timestamp: first + 2 * MIN, value: 1.5e308 },
      )
    // Before the attribution window (CUPED's pre-exposure events; one more than a day before, outside a 1-day window),
    // another traffic type: never counted in the results.
    records.push(
      { eventTypeId: 'purchase', trafficTypeName: 'user', key, timestamp: first - 20 * MIN, value: 500 },
      { eventTypeId: 'purchase', trafficTypeName: 'account', key, timestamp: first + MIN, value: 9 },
    )
    if (k % 3 !== 0)
      records.push({
        eventTypeId: 'purchase',
        trafficTypeName: 'user',
        key,
        timestamp: first - 3 * 3600_000,
        value: 40 + lift * 20,
      })
    if (k % 5 === 0)
      records.push({
        eventTypeId: 'purchase',
        trafficTypeName: 'user',
        key,
        timestamp: first - 36 * 3600_000,
        value: 70,
      })
    records.forEach((record, index) => {
      events.push(eventRow(record, meta, { topic: 'events', partition: 0, offset, index }))
    })
    offset++
  }
  // The environment's other flags, for its list: one with more keys than FLAG, five named to sort first with 1 to 5.
  const others = (flag: string, n: number) => ({
    f: flag,
    i: Array.from({ length: n }, (_, k) => ({ k: `${flag}-${k}`, t: 'on', m: T0 + MIN, c: 1, r: 'default rule' })),
  })
  groups.push(others('zz-many', 2000), ...[1, 2, 3, 4, 5].map((n) => others(`a-${n}`, n)))
  const sdk = { ...meta, kind: 'impressions', impressionsMode: 'DEBUG', machineIp: '', machineName: '' }
  impressions.push(
    ...impressionRows(groups, sdk, (index) => ({ topic: 'impressions', partition: 0, offset: 0n, index })),
  )
  return { impressions, events }
}

const metricService = {
  many: async (_ws: Workspace, ids: readonly string[]) => ids.map((id) => METRICS.find((m) => m.id === id)!),
} as unknown as MetricService
const ws = { id: 'ws' } as Workspace
const env = { id: ENV } as Environment
const REQUESTS: ResultsRequest[] = [
  {
    flag: FLAG,
    metricIds: METRICS.filter((m) => m.id !== 'visit-q90').map((m) => m.id),
    from: T0,
    to: T0 + 120 * MIN,
    minKeys: 10,
  },
  {
    flag: FLAG,
    metricIds: ['count', 'pro-amount', 'buyers'],
    from: T0 + 10 * MIN,
    to: T0 + 90 * MIN,
    rule: 'in segment beta',
    baseline: 'on',
    minKeys: 10,
  },
  // Percentile caps, CUPED over each key's pre-exposure events, sequential tests, a guardrail, Holm.
  {
    flag: FLAG,
    metricIds: ['count', 'revenue-p95', 'amount-p90', 'per-visit', 'buyers'],
    from: T0,
    to: T0 + 120 * MIN,
    minKeys: 10,
    cuped: true,
    sequential: true,
    sequentialTuning: 2000,
    correction: 'holm',
  },
  // Broken down by the first impression's rule (the top one and the rest), and by a property of the first purchase.
  {
    flag: FLAG,
    metricIds: ['count', 'buyers', 'amount-q90'],
    from: T0,
    to: T0 + 120 * MIN,
    minKeys: 10,
    dimension: { kind: 'rule' },
    maxSlices: 1,
    cuped: true,
  },
  {
    flag: FLAG,
    metricIds: ['count', 'revenue-capped'],
    from: T0,
    to: T0 + 120 * MIN,
    minKeys: 10,
    dimension: { kind: 'event', eventTypeId: 'purchase', property: 'plan' },
    correctionScope: 'slice',
  },
  // A quantile of events without values beside one with.
  { flag: FLAG, metricIds: ['visit-q90', 'amount-q90'], from: T0, to: T0 + 120 * MIN, minKeys: 10 },
  // By an identity attribute: the keys' values go to ClickHouse as a mapping (transform); a key without one is ''.
  {
    flag: FLAG,
    metricIds: ['count', 'buyers'],
    from: T0,
    to: T0 + 120 * MIN,
    minKeys: 10,
    dimension: { kind: 'identity', trafficType: 'user', attribute: 'tier' },
  },
]

/**
 * Identities of 1,200 of the 1,500 keys, three tiers (one of them with a quote and a backslash in its name), and of
 * 20,000 keys never exposed: a query past ClickHouse's default max_query_size of 256 KiB.
 */
const identities: IdentityReader = () =>
  Promise.resolve(
    new Map([
      ...Array.from({ length: 1200 }, (_, k) => [`user-${k}`, ['gold', 'silver', "b'r\\onze"][k % 3]!] as const),
      ...Array.from({ length: 20_000 }, (_, k) => [`never-exposed-${k}`, 'gold'] as const),
    ]),
  )

interface Lane {
  engine: Engine
  db: string
  service: ExperimentService
}
const lanes: Lane[] = []

beforeAll(async () => {
  const { impressions, events } = generate()
  for (const { make } of ENGINES) {
    const engine = make()
    const db = `test_analysis_${randomBytes(4).toString('hex')}`
    const writer = engine.client()
    await migrate(writer, { database: db }, createLogger('silent'))
    const sink = new ClickHouseTableSink(writer, { database: db, capabilities: await probeCapabilities(writer) })
    await sink.insert(IMPRESSIONS, impressions)
    await sink.insert(EVENTS, events)
    // The analysis runner's own client: its settings (readonly=2) stay on a chDB connection.
    const service = new ExperimentService(
      clickhouseRunner(engine.client(), LIMITS),
      { events: `${db}.events`, impressions: `${db}.impressions` },
      metricService,
      undefined,
      identities,
    )
    lanes.push({ engine, db, service })
  }
}, 120_000)

afterAll(async () => {
  for (const { engine, db } of lanes) {
    await engine
      .client()
      .command({ query: `DROP DATABASE IF EXISTS ${db}` })
      .catch(() => undefined)
    await engine.close()
  }
})

describe('the same rows on ClickHouse 18.16 and 26.x', () => {
  it.each(REQUESTS.map((r, i) => [i, r] as const))(
    'give identical experiment results (request %i)',
    async (_i, request) => {
      const [server, current] = await Promise.all(lanes.map((l) => l.service.results(ws, env, request)))
      expect(server!.exposure.keys).toBeGreaterThan(100)
      const valued = server!.metrics.filter((m) => m.metricId !== 'visit-q90')
      expect(valued.every((m) => Object.values(m.perTreatment).every((t) => t.keys > 0))).toBe(true)
      // The quantile metrics were tested, not left with a reason.
      for (const m of server!.metrics.filter((m) => m.quantile !== null && m.metricId !== 'visit-q90'))
        expect(m.comparisons.every((c) => c.absolute.pValue !== null)).toBe(true)
      for (const m of server!.metrics.filter((m) => m.metricId === 'visit-q90'))
        expect(m.comparisons.every((c) => c.absolute.pValue === null && c.note !== null)).toBe(true)
      if (request.cuped && !request.dimension) {
        // The pre-exposure sums and the percentile caps were worked out, not left empty.
        expect(server!.metrics.filter((m) => (m.cuped?.varianceReduction ?? 0) > 0).length).toBeGreaterThan(0)
        expect(server!.metrics.filter((m) => m.cap?.percentile).map((m) => m.metricId)).toEqual([
          'revenue-p95',
          'amount-p90',
        ])
      }
      if (request.dimension) expect(server!.dimension!.slices.length).toBeGreaterThan(1)
      if (request.dimension?.kind === 'identity')
        expect(server!.dimension!.slices.map((s) => s.value).sort()).toEqual(['', "b'r\\onze", 'gold', 'silver'])
      expectSame(current, server)
    },
  )

  it('give the same power, with the keys first exposed per day', async () => {
    const request = { flag: FLAG, metricId: 'count', mde: 0.1, from: T0, to: T0 + 120 * MIN }
    const [server, current] = await Promise.all(lanes.map((l) => l.service.power(ws, env, request)))
    expect(server!.measured.days.reduce((s, d) => s + d.newKeys, 0)).toBe(server!.measured.keys)
    expect(server!.measured.keys).toBeGreaterThan(100)
    expectSame(current, server)
  })

  it('report a sum beyond a double as NaN on both, never as a number', async () => {
    const [server, current] = await Promise.all(lanes.map((l) => l.service.results(ws, env, REQUESTS[0]!)))
    for (const results of [server!, current!]) {
      const huge = results.metrics.find((m) => m.metricId === 'huge')!
      expect(Object.values(huge.perTreatment).some((t) => Number.isNaN(t.sum))).toBe(true)
    }
  })

  it('list the same flags', async () => {
    const [server, current] = await Promise.all(
      lanes.map((l) => l.service.flags(env, new Date(T0).toISOString(), new Date(T0 + 200 * MIN).toISOString())),
    )
    expect(server!.flags.map((f) => [f.flag, f.keys])).toEqual([
      ['a-1', 1],
      ['a-2', 2],
      ['a-3', 3],
      ['a-4', 4],
      ['a-5', 5],
      [FLAG, 1500],
      ['zz-many', 2000],
    ])
    expect(server!.flags).toContainEqual(expect.objectContaining({ flag: FLAG, treatments: ['off', 'on', 'v2'] }))
    expect(current).toEqual(server)
  })

  it('list the flags with the most keys first up to the limit, or the flags named', async () => {
    const tables = (db: string) => ({ events: `${db}.events`, impressions: `${db}.impressions` })
    const ask = (limit: number, only?: string[]) =>
      Promise.all(
        lanes.map(async (l) =>
          (
            await clickhouseRunner(
              l.engine.client(),
              LIMITS,
            )(experimentsQuery(tables(l.db), ENV, T0, T0 + 200 * MIN, limit, only))
          ).map((r) => [r['flag'], Number(r['keys'])]),
        ),
      )
    const [top, currentTop] = await ask(3)
    expect(top).toEqual([
      ['zz-many', 2000],
      [FLAG, 1500],
      ['a-5', 5],
    ])
    expect(currentTop).toEqual(top)
    const [named, currentNamed] = await ask(3, ['a-2', "it's not there", FLAG])
    expect(named).toEqual([
      [FLAG, 1500],
      ['a-2', 2],
    ])
    expect(currentNamed).toEqual(named)
  })
})

describe.each(ENGINES.map((e, i) => ({ ...e, i })))('a query $name refuses', ({ i }) => {
  it('is a refusal naming the query and the code (a 500, never retried), not an outage', async () => {
    const run = clickhouseRunner(lanes[i]!.engine.client(), LIMITS)
    const error = await run({
      text: `SELECT no_such_column FROM ${lanes[i]!.db}.events`,
      params: {},
      purpose: 'the test query',
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({ code: 'SINK_REFUSED_QUERY', retriable: false })
    expect((error as Error).message).toMatch(/^clickhouse refused the test query \(code 47\)/)
  })
})
