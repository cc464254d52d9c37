#!/usr/bin/env node
// npm run bench: Sluice beside the limits of this machine, in one run. Each figure is measured next
// to the bound it is compared with, in the same run, and repeated (--runs) so its spread is shown.
// Load always comes from processes other than the measured one (this script, wrk, the Kafka jars).
// Needs the local stack (`npx sluice stack up`) and `npm run build`; installs wrk (Debian) and the
// Kafka tools jar (Maven Central) when missing.
//
//   node bench/run.mjs [--runs 3] [--smoke] [--bin <other build>/bin/sluice.js] [--profile]
//     [--only events,plans,impressions,freshness,webhooks,policies,latency,lifecycle,experiments,admin,rss,cluster,
//      notify,incidents,oncall,growth]
//     [--growth 10,100,1000 (the growth section's sizes, millions of events; not run by default)]
//
// The cluster section starts the local cluster stack (`sluice stack up --cluster`) when it is not up.
//
// Prints a table and writes bench/results/latest.json (and a timestamped copy).
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { parseArgs } from 'node:util'
import { ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { ALERT_TEMPLATES } from '../dist/pipeline/alerts/templates.js'
import { processEvent } from '../dist/pipeline/events.js'
import { processImpressionRecords } from '../dist/pipeline/impressions.js'
import { migrate } from '../dist/sinks/clickhouse/migrations.js'
import { retentionDeletes } from '../dist/sinks/clickhouse/retention.js'
import { EVENTS, IMPRESSIONS } from '../dist/sinks/clickhouse/tables.js'
import { tsvStream } from '../dist/sinks/clickhouse/tsv.js'
import { createLogger } from '../dist/shared/logger.js'
import { createRedisState } from '../dist/state/redis/index.js'
import { RedisAlertSink } from '../dist/sinks/redis-stream/alerts.sink.js'
import { alertStreamKeys } from '../dist/state/redis/alert-streams.js'
import { EscalationJob } from '../dist/jobs/escalation.job.js'
import { JobRunner } from '../dist/jobs/runner.js'
import { alertmanagerPayload } from './payloads.mjs'
import { deleteKeys, rssMiB, startServe } from './serve.mjs'

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'rss-minutes': { type: 'string', default: '5' },
    // The growth section's sizes, in millions of events.
    growth: { type: 'string', default: '10,100' },
    // The Sluice measured: another build's bin/sluice.js (a worktree of an earlier commit, built), to
    // compare a change with the commit before it in alternating runs.
    bin: { type: 'string', default: 'bin/sluice.js' },
  },
})
const SMOKE = opts.smoke
const RUNS = SMOKE ? 1 : Number(opts.runs)
const only = new Set(
  (
    opts.only ??
    'events,plans,impressions,freshness,webhooks,policies,latency,lifecycle,experiments,admin,rss,cluster,notify,oncall'
  ).split(','),
)
const RESULTS = 'bench/results'
const PROFILES = join(RESULTS, 'profiles')
mkdirSync(RESULTS, { recursive: true })
const KAFKA = process.env.KAFKA_BROKERS ?? '127.0.0.1:9092'
const CLICKHOUSE = process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123'
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const KAFKA_VERSION = '3.9.1'

// ---- helpers ----

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]
const median = (xs) => quantile(xs, 0.5)
const spread = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs })
const round = (x, d = 0) => Math.round(x * 10 ** d) / 10 ** d
const say = (...parts) => console.error('[bench]', ...parts)

function isolation(extra = {}) {
  const id = randomBytes(4).toString('hex')
  return {
    id,
    env: {
      ...process.env,
      KAFKA_BROKERS: KAFKA,
      CLICKHOUSE_URL: CLICKHOUSE,
      REDIS_URL: REDIS,
      KAFKA_TOPIC_PREFIX: `bench-${id}.`,
      KAFKA_GROUP_PREFIX: `bench-${id}.`,
      CLICKHOUSE_DATABASE: `bench_${id}`,
      REDIS_KEY_PREFIX: `bench:${id}:`,
      SLUICE_LOG_LEVEL: 'warn',
      SLUICE_EVENTS_RATE_PER_SECOND: '1000000',
      SLUICE_EVENTS_BURST: '1000000',
      SLUICE_WEBHOOK_RATE_PER_SECOND: '100000',
      SLUICE_WEBHOOK_BURST: '100000',
      ...(opts.profile ? { SLUICE_BENCH_PROFILE_DIR: PROFILES } : {}),
      ...extra,
    },
  }
}

let nextPort = 18200
/** A `sluice serve` of its own (roles, private names); its demo account; cleanup. */
async function sluice(roles, extra = {}, shared) {
  const { id, env } = shared ?? isolation(extra)
  const port = nextPort++
  const url = `http://127.0.0.1:${port}`
  const state = createRedisState({ url: REDIS, keyPrefix: env.REDIS_KEY_PREFIX })
  const demo = await state.tenancy.bootstrapDemo()
  const server = await startServe(
    { ...env, ...extra, SLUICE_PORT: String(port) },
    url,
    ['--roles', roles.join(',')],
    opts.bin,
  )
  return {
    id,
    env,
    url,
    pid: server.pid,
    demo,
    state,
    stop: async () => {
      await server.stop()
    },
    cleanup: async () => {
      await deleteKeys(state.redis, env.REDIS_KEY_PREFIX)
      await state.close()
      // Dropping a database ClickHouse is still merging into can take a while after minutes of load
      // (or while the next section loads it): a drop that times out is left to ClickHouse, said once.
      const ch = createClient({
        url: env.CLICKHOUSE_URL,
        request_timeout: 120_000,
        log: { level: ClickHouseLogLevel.OFF },
      })
      const onCluster = env.CLICKHOUSE_CLUSTER ? ` ON CLUSTER ${env.CLICKHOUSE_CLUSTER}` : ''
      await ch
        .command({ query: `DROP DATABASE IF EXISTS ${env.CLICKHOUSE_DATABASE}${onCluster}` })
        .catch((err) =>
          say(
            `cleanup: dropping ${env.CLICKHOUSE_DATABASE} did not finish (${err.message}); ClickHouse goes on with it`,
          ),
        )
      await ch.close()
      spawnSync(process.execPath, ['-e', deleteTopics(env.KAFKA_TOPIC_PREFIX, env.KAFKA_BROKERS)], { stdio: 'ignore' })
    },
  }
}

const deleteTopics = (prefix, brokers = KAFKA) => `
  const { Kafka, logLevel } = require('kafkajs');
  const admin = new Kafka({ brokers: '${brokers}'.split(','), logLevel: logLevel.NOTHING }).admin();
  admin.connect().then(async () => { const t = (await admin.listTopics()).filter((x) => x.startsWith('${prefix}')); if (t.length) await admin.deleteTopics({ topics: t }); await admin.disconnect() })`

const createTopic = (topic) => `
  const { Kafka, logLevel } = require('kafkajs');
  const admin = new Kafka({ brokers: ['${KAFKA}'], logLevel: logLevel.NOTHING }).admin();
  admin.connect().then(async () => { await admin.createTopics({ waitForLeaders: true, topics: [{ topic: '${topic}', numPartitions: 3, replicationFactor: 1 }] }); await admin.disconnect() })`

/** SDK-shaped records (what Split's SDKs send): eventTypeId, trafficTypeName, key, timestamp, value, properties. */
function sdkRecords(n, eventTypeId, offset = 0) {
  return Array.from({ length: n }, (_, j) => ({
    eventTypeId,
    trafficTypeName: 'user',
    key: `user-${offset + j}`,
    timestamp: Date.now(),
    value: (j % 100) + 0.99,
    properties: { plan: j % 2 ? 'pro' : 'free', country: 'DE', seats: j % 9, trial: false, source: 'web' },
  }))
}

/** Records of 20 properties (strings, numbers, booleans), each what TRACKING_PLAN declares. */
function plannedRecords(n, eventTypeId, offset = 0) {
  return Array.from({ length: n }, (_, j) => {
    const properties = {}
    for (let p = 0; p < 20; p++)
      properties[`p${p}`] =
        p % 4 === 0
          ? j % 2
            ? 'pro'
            : 'free'
          : p % 4 === 1
            ? j % 1000
            : p % 4 === 2
              ? j % 3 === 0
              : `SKU-${offset + j}`
    return {
      eventTypeId,
      trafficTypeName: 'user',
      key: `user-${offset + j}`,
      timestamp: Date.now(),
      value: j % 100,
      properties,
    }
  })
}

/** A plan of 20 properties for the event types given: an enum, a range, a boolean and a pattern, five times. */
function trackingPlan(mode, eventTypes) {
  const properties = {}
  for (let p = 0; p < 20; p++)
    properties[`p${p}`] =
      p % 4 === 0
        ? { type: 'string', enum: ['free', 'pro'], required: true }
        : p % 4 === 1
          ? { type: 'integer', minimum: 0, maximum: 1000 }
          : p % 4 === 2
            ? { type: 'boolean' }
            : { type: 'string', pattern: '^SKU-[0-9]+$', maxLength: 40 }
  const events = Object.fromEntries(eventTypes.map((t) => [t, { value: { required: true, minimum: 0 }, properties }]))
  return { mode, unplannedEvents: 'violation', unplannedProperties: 'violation', events }
}

/** Impressions as the SDKs send them: groups of 500 per flag (a body of 5,000 holds 10 flags). */
function sdkImpressions(n, flagPrefix, offset = 0) {
  const groups = []
  for (let g = 0; g < n; g += 500) {
    const i = Array.from({ length: Math.min(500, n - g) }, (_, j) => ({
      k: `user-${offset + g + j}`,
      t: (g + j) % 2 ? 'on' : 'off',
      m: Date.now(),
      c: 1764000000000,
      r: 'default rule',
      b: null,
      pt: null,
    }))
    groups.push({ f: `${flagPrefix}.${g / 500}`, i })
  }
  return groups
}

async function postSdk(url, key, path, body, headers = {}) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
    body,
  })
  const json = await res.json()
  if (res.status !== 202) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`)
  return json
}
const postEvents = (url, key, body) => postSdk(url, key, '/api/events/bulk', body)

async function countRows(ch, db, where, table = 'events') {
  const r = await ch.query({ query: `SELECT count() AS n FROM ${db}.${table} WHERE ${where}`, format: 'JSONEachRow' })
  return Number((await r.json())[0].n)
}

// ---- the bounds ----

const rawMeta = () => ({
  environmentId: 'env',
  accountId: 'acc',
  receivedAtMs: Date.now(),
  sdkVersion: 'bench',
  requestId: 'r',
  kind: 'impressions',
  impressionsMode: 'DEBUG',
  machineIp: '',
  machineName: '',
})
/** The rows the consumer makes of 10,000 records: events, or impressions. */
const RAW_ROWS = {
  events: () =>
    sdkRecords(10_000, 'bench.raw').map(
      (r, i) => processEvent(r, rawMeta(), { topic: 't', partition: 0, offset: 0n, index: i }).row,
    ),
  impressions: () => {
    const rows = []
    const reject = (r) => {
      throw new Error(`bench impression rejected: ${r.reason}`)
    }
    processImpressionRecords(
      sdkImpressions(10_000, 'bench.raw'),
      rawMeta(),
      (index) => ({ topic: 't', partition: 0, offset: 0n, index }),
      { impression: (row) => rows.push(row), reject },
    )
    return rows
  },
}

/**
 * Raw @clickhouse/client inserts of the rows the consumer inserts for the same records, 10,000 per
 * insert, in the consumer's own format (TabSeparated, its encoder): encoded for each insert (the bound
 * the consumer could reach), or once beforehand (preEncoded: the server's own limit, no encoding on the clock).
 */
async function clickhouseInsertRate(rowsTotal, inFlight, table = EVENTS, preEncoded = false) {
  const ch = createClient({ url: CLICKHOUSE, max_open_connections: inFlight })
  const db = `bench_raw_${randomBytes(3).toString('hex')}`
  await migrate(ch, { database: db }, createLogger('silent'))
  const rows = RAW_ROWS[table.name]()
  const encode = () => tsvStream(rows, table.columns, table.dateTimes)
  const body = preEncoded ? Buffer.from((await encode().toArray()).join('')) : undefined
  const inserts = Math.ceil(rowsTotal / rows.length)
  const t0 = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < inserts)
        await ch.insert({
          table: `${db}.${table.name}`,
          values: body ? Readable.from([body], { objectMode: false }) : encode(),
          format: 'TabSeparated',
          columns: [...table.columns],
        })
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  await ch.command({ query: `DROP DATABASE IF EXISTS ${db}` })
  await ch.close()
  return (inserts * rows.length) / seconds
}

/** A ClickHouse bound over the runs: each run the better of 1 and 3 inserts in flight. */
const insertBound = async (rowsTotal, table, preEncoded = false) =>
  spread(
    await repeat(async () =>
      Math.max(
        await clickhouseInsertRate(rowsTotal, 1, table, preEncoded),
        await clickhouseInsertRate(rowsTotal, 3, table, preEncoded),
      ),
    ),
  )

/**
 * kafka-producer-perf-test (org.apache.kafka.tools.ProducerPerformance) from the Kafka jars: messages of `recordBytes`,
 * acks=all.
 */
function kafkaProducerRate(records, recordBytes) {
  const libs = join(homedir(), '.cache', 'sluice', `kafka-${KAFKA_VERSION}`, 'libs')
  const tools = join(homedir(), '.cache', 'sluice', `kafka-tools-${KAFKA_VERSION}`)
  if (!existsSync(join(tools, `kafka-tools-${KAFKA_VERSION}.jar`))) {
    execFileSync(
      'mvn',
      [
        '-q',
        'dependency:copy',
        `-Dartifact=org.apache.kafka:kafka-tools:${KAFKA_VERSION}`,
        `-DoutputDirectory=${tools}`,
      ],
      { stdio: 'inherit' },
    )
  }
  const topic = `bench-perf-${randomBytes(3).toString('hex')}`
  // The broker creates no topic on demand: three partitions, as Sluice's topics have.
  spawnSync(process.execPath, ['-e', createTopic(topic)], { stdio: 'ignore' })
  const out = execFileSync(
    'java',
    [
      '-Xmx512m',
      '-cp',
      `${libs}/*:${tools}/*`,
      'org.apache.kafka.tools.ProducerPerformance',
      '--topic',
      topic,
      '--num-records',
      String(records),
      '--record-size',
      String(recordBytes),
      '--throughput',
      '-1',
      '--producer-props',
      `bootstrap.servers=${KAFKA}`,
      'acks=all',
      'linger.ms=5',
      `max.request.size=${2 * recordBytes + 1024}`,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  )
  spawnSync(process.execPath, ['-e', deleteTopics(topic)], { stdio: 'ignore' })
  const last = out.trim().split('\n').pop()
  const m = /([\d.]+) records\/sec \(([\d.]+) MB\/sec\)/.exec(last)
  if (!m) throw new Error(`ProducerPerformance: ${last}`)
  return { recordsPerSecond: Number(m[1]), mbPerSecond: Number(m[2]) }
}

/** wrk against a URL with a JSON body: requests per second and latency percentiles. */
function wrk(url, body, seconds, connections) {
  if (spawnSync('which', ['wrk']).status !== 0)
    execFileSync('apt-get', ['install', '-y', '-q', 'wrk'], { stdio: 'ignore' })
  const script = join(RESULTS, 'post.lua')
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = ${JSON.stringify(body)}\n`,
  )
  const out = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, url], {
    encoding: 'utf8',
  })
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
  const ms = (label) => {
    const m = new RegExp(`${label}%\\s+([\\d.]+)(us|ms|s)`).exec(out)
    return m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]] : NaN
  }
  if (non2xx > 0) throw new Error(`wrk: ${non2xx} answers were not 2xx`)
  return { rps, requests: Number(/(\d+) requests in/.exec(out)?.[1]), p50: ms('50'), p99: ms('99') }
}

// ---- the figures ----

const results = {
  machine: { cores: (await import('node:os')).cpus().length, node: process.version, date: new Date().toISOString() },
  smoke: SMOKE,
  bin: opts.bin,
}

async function eventsSection() {
  const section = { bodies: {} }
  const rowsForBound = SMOKE ? 20_000 : 300_000
  section.clickhouseInsert = await insertBound(rowsForBound, EVENTS)
  say(`raw ClickHouse inserts: ${Math.round(section.clickhouseInsert.median)} rows/s`)
  section.clickhousePreEncoded = await insertBound(rowsForBound, EVENTS, true)
  say(`pre-encoded ClickHouse inserts: ${Math.round(section.clickhousePreEncoded.median)} rows/s`)
  const s = await sluice(['edge', 'admin', 'events', 'alerts'])
  const ch = createClient({ url: CLICKHOUSE })
  const key = s.demo.environments[0].serverSideSdkKey
  try {
    for (const size of [500, 5000]) {
      const total = SMOKE ? size * 8 : size === 500 ? 300_000 : 500_000
      let bodyBytes = 0
      const runs = await repeat(async (run) => {
        const r = await eventsEndToEnd(s, ch, key, size, total, `bench.e${size}.r${run}`)
        bodyBytes = r.bodyBytes
        say(
          `events, bodies of ${size}, run ${run + 1}: ${Math.round(r.endToEnd)} events/s end to end, ${Math.round(r.accepted)} accepted`,
        )
        return r
      })
      section.bodies[size] = {
        events: total,
        bytesPerEvent: Math.round(bodyBytes / total),
        endToEnd: spread(runs.map((r) => r.endToEnd)),
        accepted: spread(runs.map((r) => r.accepted)),
        // Sluice's CPU (edge, consumer thread, everything of the process) per event stored, over the run.
        cpuUsPerEvent: spread(runs.map((r) => r.cpuUsPerEvent)),
        ratioToClickHouse: round(median(runs.map((r) => r.endToEnd)) / section.clickhouseInsert.median, 2),
        ratioToPreEncoded: round(median(runs.map((r) => r.endToEnd)) / section.clickhousePreEncoded.median, 2),
      }
    }
    // The live tail with no viewer: the same process's CPU per event beside a process with the tail off
    // (SLUICE_TAIL_RECORDS_PER_SECOND=0), alternating in one run.
    const off = await sluice(['edge', 'admin', 'events', 'alerts'], { SLUICE_TAIL_RECORDS_PER_SECOND: '0' })
    try {
      const tailTotal = SMOKE ? 4000 : 200_000
      const on = []
      const without = []
      for (let run = 0; run < RUNS; run++) {
        on.push(await eventsEndToEnd(s, ch, key, 500, tailTotal, `bench.tail.on${run}`))
        const offKey = off.demo.environments[0].serverSideSdkKey
        without.push(await eventsEndToEnd(off, ch, offKey, 500, tailTotal, `bench.tail.off${run}`))
      }
      section.tail = {
        events: tailTotal,
        cpuUsPerEventNoViewer: spread(on.map((r) => round(r.cpuUsPerEvent, 2))),
        cpuUsPerEventTailOff: spread(without.map((r) => round(r.cpuUsPerEvent, 2))),
        ratio: round(median(on.map((r) => r.cpuUsPerEvent)) / median(without.map((r) => r.cpuUsPerEvent)), 2),
      }
      say(`live tail without a viewer: CPU per event ${section.tail.ratio} of the tail off`)
    } finally {
      await off.stop()
      await off.cleanup()
    }
    // Kafka's own producer, messages the size of one body of 500 events.
    const messageBytes = section.bodies[500].bytesPerEvent * 500
    const kafka = await repeat(async () => kafkaProducerRate(SMOKE ? 200 : 3000, messageBytes))
    section.kafkaProducer = {
      messageBytes,
      mbPerSecond: spread(kafka.map((k) => k.mbPerSecond)),
      eventsPerSecondEquivalent: round(
        (median(kafka.map((k) => k.mbPerSecond)) * 1_048_576) / section.bodies[500].bytesPerEvent,
      ),
    }
  } finally {
    await ch.close()
    await s.stop()
    await s.cleanup()
  }
  results.events = section
}

/**
 * A tracking plan of 20 properties in observe and in block mode beside no plan: one process, the same records (all of
 * which keep the plan), alternating in one run; one environment without a plan, the other with one.
 */
async function plansSection() {
  const s = await sluice(['edge', 'admin', 'events', 'alerts'])
  const ch = createClient({ url: CLICKHOUSE })
  try {
    const planTotal = SMOKE ? 4000 : 200_000
    const arms = { none: [], observe: [], block: [] }
    const [bare, planned] = s.demo.environments
    let version = 0
    for (let run = 0; run < RUNS; run++)
      for (const arm of Object.keys(arms)) {
        const type = `bench.plan.${arm}${run}`
        if (arm !== 'none') {
          const plan = trackingPlan(arm, [type])
          version = (await s.state.plans.save(s.demo.accountId, planned.id, plan, version, 'bench')).version
          await sleep(1500) // the consumers check a plan's version every SLUICE_INTEGRATION_REFRESH_MS (1 s)
        }
        const key = (arm === 'none' ? bare : planned).serverSideSdkKey
        arms[arm].push(await eventsEndToEnd(s, ch, key, 500, planTotal, type, plannedRecords))
      }
    const cpu = (arm) => median(arms[arm].map((r) => r.cpuUsPerEvent))
    results.plans = {
      events: planTotal,
      properties: 20,
      cpuUsPerEventNoPlan: spread(arms.none.map((r) => round(r.cpuUsPerEvent, 2))),
      cpuUsPerEventObserve: spread(arms.observe.map((r) => round(r.cpuUsPerEvent, 2))),
      cpuUsPerEventBlock: spread(arms.block.map((r) => round(r.cpuUsPerEvent, 2))),
      ratioObserve: round(cpu('observe') / cpu('none'), 2),
      ratioBlock: round(cpu('block') / cpu('none'), 2),
    }
    say(
      `tracking plan of 20 properties: CPU per event ${results.plans.ratioObserve} (observe), ${results.plans.ratioBlock} (block) of none`,
    )
  } finally {
    await ch.close()
    await s.stop()
    await s.cleanup()
  }
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100

/** CPU time (user + system, every thread) a process has used so far, in µs, from /proc/<pid>/stat. */
function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold spaces) in parentheses: utime and stime are the 12th and 13th.
  const [utime, stime] = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 13)
    .map(Number)
  return ((utime + stime) * 1e6) / CLOCK_TICKS
}

/**
 * Posts `total` events in bodies of `size`, 8 in flight, and waits until all are stored: rates per second, and the
 * Sluice process's CPU per event.
 */
async function eventsEndToEnd(s, ch, key, size, total, type, records = sdkRecords) {
  const bodies = []
  for (let i = 0; i < total; i += size) bodies.push(JSON.stringify(records(size, type, i)))
  const bodyBytes = bodies.reduce((n, b) => n + Buffer.byteLength(b), 0)
  const cpu0 = cpuMicros(s.pid)
  const t0 = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < bodies.length) await postEvents(s.url, key, bodies[next++])
    }),
  )
  const accepted = (performance.now() - t0) / 1000
  while ((await countRows(ch, s.env.CLICKHOUSE_DATABASE, `event_type = '${type}'`)) < total) await sleep(50)
  const stored = (performance.now() - t0) / 1000
  return {
    endToEnd: total / stored,
    accepted: total / accepted,
    bodyBytes,
    cpuUsPerEvent: (cpuMicros(s.pid) - cpu0) / total,
  }
}

/**
 * Events end to end on the local cluster stack (`sluice stack up --cluster`: ClickHouse 2 shards x 2
 * replicas with quorum inserts, three Kafka brokers with topics replicated 3 times), beside the
 * same on the single-node stack, alternating in one run. Every node shares this machine's cores.
 */
async function clusterSection() {
  const { clusterEnv, clusterUp } = await import('../dist/tools/stack/cluster.js')
  const { loadConfig } = await import('../dist/config/index.js')
  const config = loadConfig({})
  await clusterUp(config, (line) => say(`cluster: ${line}`))
  const { KAFKA_BROKERS, CLICKHOUSE_URL, CLICKHOUSE_CLUSTER } = clusterEnv(config)
  const total = SMOKE ? 4000 : 300_000
  const targets = {
    single: { extra: {}, url: CLICKHOUSE },
    cluster: { extra: { KAFKA_BROKERS, CLICKHOUSE_URL, CLICKHOUSE_CLUSTER }, url: CLICKHOUSE_URL },
    // What each part costs: the three brokers with the single ClickHouse, the ClickHouse cluster with the single
    // broker (not in a smoke run, which only checks that the section works: half its time went to these).
    ...(SMOKE
      ? {}
      : {
          kafkaCluster: { extra: { KAFKA_BROKERS }, url: CLICKHOUSE },
          clickhouseCluster: { extra: { CLICKHOUSE_URL, CLICKHOUSE_CLUSTER }, url: CLICKHOUSE_URL },
        }),
  }
  const section = {}
  for (const [name, target] of Object.entries(targets)) {
    const s = await sluice(['edge', 'admin', 'events', 'alerts'], target.extra, isolation(target.extra))
    section[name] = { s, ch: createClient({ url: target.url }), runs: [] }
  }
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const [name, x] of Object.entries(section)) {
        const r = await eventsEndToEnd(
          x.s,
          x.ch,
          x.s.demo.environments[0].serverSideSdkKey,
          500,
          total,
          `bench.c.r${run}`,
        )
        say(`events on the ${name} stack, run ${run + 1}: ${Math.round(r.endToEnd)} events/s end to end`)
        x.runs.push(r.endToEnd)
      }
    }
  } finally {
    for (const x of Object.values(section)) {
      await x.ch.close()
      await x.s.stop()
      await x.s.cleanup()
    }
  }
  const single = spread(section.single.runs)
  const of = (name) => ({
    eventsPerSecond: spread(section[name].runs),
    ratio: round(median(section[name].runs) / single.median, 2),
  })
  results.cluster = {
    events: total,
    single,
    cluster: of('cluster'),
    ...(SMOKE ? {} : { kafkaCluster: of('kafkaCluster'), clickhouseCluster: of('clickhouseCluster') }),
  }
}

/**
 * Impressions end to end (bodies of 5,000 as an SDK in DEBUG mode flushes them) beside raw ClickHouse inserts of the
 * same rows.
 */
async function impressionsSection() {
  const section = {}
  const rowsForBound = SMOKE ? 20_000 : 300_000
  section.clickhouseInsert = await insertBound(rowsForBound, IMPRESSIONS)
  say(`raw ClickHouse inserts of impressions: ${Math.round(section.clickhouseInsert.median)} rows/s`)
  const s = await sluice(['edge', 'admin', 'events', 'alerts'])
  const ch = createClient({ url: CLICKHOUSE })
  const key = s.demo.environments[0].serverSideSdkKey
  const size = 5000
  const total = SMOKE ? size * 8 : 500_000
  let bodyBytes = 0
  try {
    const runs = await repeat(async (run) => {
      const prefix = `bench.i.r${run}`
      const bodies = []
      for (let i = 0; i < total; i += size) bodies.push(JSON.stringify(sdkImpressions(size, prefix, i)))
      bodyBytes = bodies.reduce((n, b) => n + Buffer.byteLength(b), 0)
      const t0 = performance.now()
      let next = 0
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < bodies.length)
            await postSdk(s.url, key, '/api/testImpressions/bulk', bodies[next++], {
              SplitSDKImpressionsMode: 'DEBUG',
              SplitSDKVersion: 'nodejs-11.11.2',
            })
        }),
      )
      const accepted = (performance.now() - t0) / 1000
      while ((await countRows(ch, s.env.CLICKHOUSE_DATABASE, `startsWith(flag, '${prefix}.')`, 'impressions')) < total)
        await sleep(50)
      const stored = (performance.now() - t0) / 1000
      say(
        `impressions, bodies of ${size}, run ${run + 1}: ${Math.round(total / stored)} impressions/s end to end, ${Math.round(total / accepted)} accepted`,
      )
      return { endToEnd: total / stored, accepted: total / accepted }
    })
    Object.assign(section, {
      bodySize: size,
      impressions: total,
      bytesPerImpression: Math.round(bodyBytes / total),
      endToEnd: spread(runs.map((r) => r.endToEnd)),
      accepted: spread(runs.map((r) => r.accepted)),
      ratioToClickHouse: round(median(runs.map((r) => r.endToEnd)) / section.clickhouseInsert.median, 2),
    })
  } finally {
    await ch.close()
    await s.stop()
    await s.cleanup()
  }
  results.impressions = section
}

/** 202 to the row being queryable, for bodies of 500 sent at half of the measured end-to-end rate. */
async function freshnessSection() {
  const rate = (results.events?.bodies[500]?.endToEnd.median ?? 40_000) / 2
  const s = await sluice(['edge', 'admin', 'events', 'alerts'])
  const ch = createClient({ url: CLICKHOUSE })
  const key = s.demo.environments[0].serverSideSdkKey
  const seconds = SMOKE ? 3 : 40
  const perSecond = rate / 500
  const pending = new Map()
  const freshness = []
  let sending = true
  const poller = (async () => {
    while (sending || pending.size > 0) {
      await sleep(25)
      if (pending.size === 0) continue
      // Request ids are UUIDs (checked); ClickHouse 18.16 has no query parameters.
      const ids = [...pending.keys()].filter((id) => /^[0-9a-f-]{36}$/.test(id))
      const r = await ch.query({
        query: `SELECT request_id, count() AS n FROM ${s.env.CLICKHOUSE_DATABASE}.events WHERE request_id IN (${ids.map((id) => `'${id}'`).join(',')}) GROUP BY request_id`,
        format: 'JSONEachRow',
      })
      const now = performance.now()
      for (const row of await r.json()) {
        if (Number(row.n) >= 500 && pending.has(row.request_id)) {
          freshness.push(now - pending.get(row.request_id))
          pending.delete(row.request_id)
        }
      }
    }
  })()
  try {
    const t0 = performance.now()
    const inFlight = new Set()
    for (let i = 0; (performance.now() - t0) / 1000 < seconds; i++) {
      const due = t0 + (i / perSecond) * 1000
      if (due > performance.now()) await sleep(due - performance.now())
      const body = JSON.stringify(sdkRecords(500, 'bench.fresh', i * 500))
      const p = postEvents(s.url, key, body).then((json) => pending.set(json.requestId, performance.now()))
      inFlight.add(p)
      void p.finally(() => inFlight.delete(p))
      if (inFlight.size >= 16) await Promise.race(inFlight)
    }
    await Promise.all(inFlight)
    sending = false
    await poller
  } finally {
    await ch.close()
    await s.stop()
    await s.cleanup()
  }
  results.freshness = {
    eventsPerSecond: Math.round(rate),
    requests: freshness.length,
    p50Ms: round(quantile(freshness, 0.5)),
    p99Ms: round(quantile(freshness, 0.99)),
    maxMs: round(Math.max(...freshness)),
  }
}

async function integration(s) {
  const res = await fetch(`${s.url}/api/v1/integrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.demo.adminApiKey}`, 'content-type': 'application/json' },
    // The Alertmanager template, with the sender's clock (an annotation) kept as a custom field. The
    // payloads repeat the same three alerts: every repeat is written to the streams (emitRepeats), so
    // each payload has its entries, as before the alert lifecycle, and the heavier path is measured.
    body: JSON.stringify({
      name: 'bench',
      template: 'alertmanager',
      rateLimitStatus: 429,
      emitRepeats: true,
      mapping: {
        ...ALERT_TEMPLATES.alertmanager.mapping,
        customFields: { ...ALERT_TEMPLATES.alertmanager.mapping.customFields, sentAt: '{{item.annotations.sentAt}}' },
      },
    }),
  })
  const created = await res.json()
  if (res.status !== 201) throw new Error(`integration: ${res.status} ${JSON.stringify(created)}`)
  return { path: new URL(created.webhookUrl).pathname, id: created.id }
}

async function webhooksSection() {
  const body = JSON.stringify(alertmanagerPayload())
  const seconds = SMOKE ? 2 : 15
  const section = { payloadBytes: Buffer.byteLength(body) }
  const barePort = nextPort++
  const bare = spawn(process.execPath, ['bench/bare-fastify.mjs', String(barePort)], { stdio: 'ignore' })
  await waitHttp(`http://127.0.0.1:${barePort}/`)
  try {
    section.bareFastify = spread(
      (await repeat(() => wrk(`http://127.0.0.1:${barePort}/api/v1/webhook/x`, body, seconds, 50))).map((r) => r.rps),
    )
  } finally {
    bare.kill('SIGTERM')
  }
  for (const [name, roles] of [
    ['allRoles', ['edge', 'admin', 'events', 'alerts']],
    ['edgeOnly', ['edge', 'admin']],
  ]) {
    const s = await sluice(roles)
    try {
      const { path } = await integration(s)
      let payloads = 0
      const runs = await repeat(async () => {
        const t0 = performance.now()
        const cpu0 = cpuMicros(s.pid)
        const run = wrk(`${s.url}${path}`, body, seconds, 50)
        if (name !== 'allRoles') return { ...run, cpuUsPerPayload: (cpuMicros(s.pid) - cpu0) / run.requests }
        // With the consumers on a thread of their own the edge can accept faster than they store:
        // the run ends once every accepted payload's 3 alerts are in their streams.
        payloads += run.requests
        await alertsCaughtUp(s.url, payloads * 3)
        return {
          ...run,
          stored: run.requests / ((performance.now() - t0) / 1000),
          cpuUsPerPayload: (cpuMicros(s.pid) - cpu0) / run.requests,
        }
      })
      section[name] = {
        rps: spread(runs.map((r) => r.rps)),
        ...(name === 'allRoles' ? { endToEnd: spread(runs.map((r) => r.stored)) } : {}),
        cpuUsPerPayload: spread(runs.map((r) => r.cpuUsPerPayload)),
        p50Ms: median(runs.map((r) => r.p50)),
        p99Ms: median(runs.map((r) => r.p99)),
        ratioToBare: round(median(runs.map((r) => r.rps)) / section.bareFastify.median, 2),
      }
      // What the edge-only runs left in the alerts topic, drained by an alerts-only process: the
      // consumer's own bound (it shares the all-roles process with the edge).
      if (name === 'edgeOnly')
        section.alertsConsumer = await drainAlerts(
          s,
          runs.reduce((n, r) => n + r.requests, 0),
        )
    } finally {
      await s.stop()
      await s.cleanup()
    }
  }
  results.webhooks = section
}

/**
 * The alerts consumer with an account's 50 alert rules and one maintenance window running, beside the same consumer
 * with none, batch by batch in turns in one process (bench/alerts-consumer.mjs POLICIES=1): payloads per second
 * through it (decode, render, rules and window, the Redis script) and its CPU per payload.
 */
async function policiesSection() {
  const runs = await repeat(() => {
    const out = execFileSync(process.execPath, ['bench/alerts-consumer.mjs'], {
      env: { ...process.env, POLICIES: '1', N: SMOKE ? '4' : '40', REDIS_URL: REDIS },
      encoding: 'utf8',
    })
    const figures = (label) => {
      const m = new RegExp(`^${label}consumer ([\\d.]+) µs CPU/payload.* (\\d+) payloads/s$`, 'm').exec(out)
      if (!m) throw new Error(`bench/alerts-consumer.mjs printed no "${label}" line:\n${out}`)
      return { cpuUs: Number(m[1]), payloadsPerSecond: Number(m[2]) }
    }
    return { none: figures('no rules: '), rules: figures('50 rules and a window: ') }
  })
  const none = runs.map((r) => r.none)
  const rules = runs.map((r) => r.rules)
  results.policies = {
    none: { cpuUs: spread(none.map((r) => r.cpuUs)), payloadsPerSecond: spread(none.map((r) => r.payloadsPerSecond)) },
    rules: {
      cpuUs: spread(rules.map((r) => r.cpuUs)),
      payloadsPerSecond: spread(rules.map((r) => r.payloadsPerSecond)),
    },
    addedCpuPercent: round((median(rules.map((r) => r.cpuUs)) / median(none.map((r) => r.cpuUs)) - 1) * 100, 1),
  }
  say(`alerts consumer with 50 rules and a window: ${results.policies.addedCpuPercent} % more CPU per payload`)
}

/**
 * Waits until a Sluice process has written `alerts` alerts to their streams (its consumer thread's
 * included), or its alerts group has had no lag for 3 s: a write whose reply timed out and whose
 * retry found it done is stored but not counted as written, and would otherwise be waited for forever.
 */
async function alertsCaughtUp(url, alerts) {
  let caughtUpSince
  for (;;) {
    const text = await (await fetch(`${url}/metrics`)).text()
    if (Number(/^sluice_alerts_stored_total (\d+)/m.exec(text)?.[1] ?? 0) >= alerts) return
    const lags = [
      ...text.matchAll(/^sluice_consumer_lag_messages\{topic="[^"]*alerts",partition="\d+"\} (\d+)$/gm),
    ].map((m) => Number(m[1]))
    if (lags.length > 0 && lags.every((lag) => lag === 0)) {
      caughtUpSince ??= performance.now()
      if (performance.now() - caughtUpSince > 3000) return
    } else caughtUpSince = undefined
    await sleep(50)
  }
}

/** Starts an alerts-only process on s's names and times it storing the alerts of `messages` payloads of 3 alerts. */
async function drainAlerts(s, messages) {
  const port = nextPort++
  const url = `http://127.0.0.1:${port}`
  const consumer = await startServe({ ...s.env, SLUICE_PORT: String(port) }, url, ['--roles', 'alerts'], opts.bin)
  const t0 = performance.now()
  try {
    await alertsCaughtUp(url, messages * 3)
  } finally {
    await consumer.stop()
  }
  return { messages, messagesPerSecond: Math.round(messages / ((performance.now() - t0) / 1000)) }
}

/**
 * Webhook POST to the alert's stream entry, at half the all-roles rate; the payload carries the
 * sender's clock, read just before the request is written. The sender is a keep-alive node:http
 * agent (fetch's own overhead at this rate delayed the requests it timed). The first seconds after
 * the process starts (JIT, first fetches of the consumer group) are a warm-up at the same rate, kept
 * out of the percentiles and reported by their maximum.
 */
async function latencySection() {
  // Half of what all roles sustain end to end (accepted and stored), not of what the edge accepts.
  const rate = (results.webhooks?.allRoles?.endToEnd.median ?? 2000) / 2
  const s = await sluice(['edge', 'admin', 'events', 'alerts'])
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
  try {
    const { path, id } = await integration(s)
    const stream = `${s.env.REDIS_KEY_PREFIX}alerts:integration:${id}`
    let cursor = '-'
    /** Sends at `rate` for `seconds`, then reads the alerts of those payloads from the stream. */
    const phase = async (seconds) => {
      const t0 = Date.now()
      let sent = 0
      const posts = []
      const inFlight = new Set()
      for (let i = 0; Date.now() - t0 < seconds * 1000; i++) {
        const due = t0 + (i / rate) * 1000
        if (due > Date.now()) await sleep(due - Date.now())
        const sentAt = Date.now()
        const p = httpPost(agent, `${s.url}${path}`, JSON.stringify(alertmanagerPayload(sentAt))).then(() =>
          posts.push(Date.now() - sentAt),
        )
        inFlight.add(p)
        void p.finally(() => inFlight.delete(p))
        if (inFlight.size >= 64) await Promise.race(inFlight)
        sent++
      }
      await Promise.all(inFlight)
      const latencies = []
      while (latencies.length < sent * 3) {
        const entries = await s.state.redis.xrange(stream, cursor, '+', 'COUNT', 5000)
        if (entries.length === 0) {
          if (Date.now() - t0 > (seconds + 30) * 1000) break
          await sleep(100)
          continue
        }
        for (const [entryId, fields] of entries)
          latencies.push(
            Number(entryId.split('-')[0]) -
              Number(JSON.parse(fields[fields.indexOf('customFields') + 1] ?? '{}').sentAt),
          )
        cursor = `(${entries.at(-1)[0]}`
      }
      return { posts, latencies }
    }
    const warmupSeconds = SMOKE ? 1 : 5
    const warmup = await phase(warmupSeconds)
    const runs = await repeat(() => phase(SMOKE ? 2 : 20))
    const q = (key, p) => spread(runs.map((r) => quantile(r[key], p)))
    results.latency = {
      requestsPerSecond: Math.round(rate),
      alerts: runs.reduce((n, r) => n + r.latencies.length, 0),
      p50Ms: q('latencies', 0.5),
      p99Ms: q('latencies', 0.99),
      maxMs: runs.reduce((m, r) => r.latencies.reduce((a, b) => Math.max(a, b), m), 0),
      post202: { p50Ms: q('posts', 0.5), p99Ms: q('posts', 0.99) },
      warmupSeconds,
      warmupMaxMs: warmup.latencies.reduce((a, b) => Math.max(a, b), 0),
    }
  } finally {
    agent.destroy()
    await s.stop()
    await s.cleanup()
  }
}

/** A POST through a keep-alive agent; resolves with the status once the answer is read. */
function httpPost(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * Alerts as incidents at scale: 100,000 open alerts in one account (written through the sink's
 * script, as the consumer writes them), then a notification's upsert (a repeat of an open alert, one
 * script call as the consumer makes it), lists of 100 (filtered by one indexed field, by two, and
 * unfiltered) and acknowledges, each timed one at a time.
 */
async function lifecycleSection() {
  const open = SMOKE ? 5000 : 100_000
  const samples = SMOKE ? 50 : 1000
  const prefix = `bench:lifecycle:${randomBytes(3).toString('hex')}:`
  const state = createRedisState({ url: REDIS, keyPrefix: prefix })
  const sink = new RedisAlertSink(state.redis, { prefix: prefix, maxLen: 100_000, maxAgeMs: 3_600_000 })
  const account = 'acct-bench'
  const integrations = ['int-a', 'int-b', 'int-c', 'int-d']
  const severities = ['critical', 'high', 'warning', 'info']
  const now = Date.now()
  const alert = (n, requestId) => ({
    severity: severities[Math.floor(n / 7) % 4],
    description: `disk usage above 90% on host-${n}`,
    source: 'prometheus',
    service: `svc-${n % 50}`,
    environment: n % 3 ? 'production' : 'staging',
    team: `team-${n % 20}`,
    dedupKey: `fp-${n}`,
    status: 'firing',
    timestamp: new Date(now).toISOString(),
    receivedAt: new Date(now).toISOString(),
    integrationId: integrations[n % 4],
    requestId,
    customFields: { instance: `host-${n}:9100`, alertname: 'DiskFull' },
  })
  const lifecycle = {
    accountId: account,
    receivedAtMs: now,
    emitRepeats: false,
    autoResolveAfterMs: 0,
    dedupFallbacks: 0,
    unknownStatuses: 0,
  }
  let offset = 0n
  // One message per integration and 10 alerts: the shape of an Alertmanager group.
  const message = (first) => ({
    topic: 'bench',
    partition: 0,
    offset: offset++,
    integrationId: integrations[first % 4],
    alerts: Array.from({ length: 10 }, (_, i) => alert(first + i * 4, `r${first}`)),
    rejections: [],
    lifecycle,
  })
  try {
    const memoryBefore = await usedMemory(state.redis)
    const t0 = performance.now()
    for (let n = 0; n < open; n += 4000) {
      const messages = []
      for (let m = n; m < Math.min(open, n + 4000); m += 40) for (let k = 0; k < 4; k++) messages.push(message(m + k))
      await sink.write(messages, 100, offset === 0n ? '-1' : String(messages[0].offset - 1n))
    }
    const loadSeconds = (performance.now() - t0) / 1000
    const memoryAfter = await usedMemory(state.redis)
    const time = async (fn) => {
      const ms = []
      for (let i = 0; i < samples; i++) {
        const s = performance.now()
        await fn(i)
        ms.push(performance.now() - s)
      }
      return { p50: round(quantile(ms, 0.5), 2), p99: round(quantile(ms, 0.99), 2) }
    }
    const upsert = await time((i) => {
      const n = (i * 7919) % open
      return sink.write(
        [
          {
            topic: 'bench',
            partition: 0,
            offset: offset++,
            integrationId: integrations[n % 4],
            alerts: [alert(n, `u${i}`)],
            rejections: [],
            lifecycle,
          },
        ],
        100,
        String(offset - 2n),
      )
    })
    const list = (filters) => time(() => state.alerts.list(account, { status: 'open', filters, limit: 100 }))
    const listOpen = await list({})
    const listTeam = await list({ team: 'team-7' })
    const listTwo = await list({ team: 'team-7', severity: 'critical' })
    const ack = await time((i) => state.alerts.act(account, `al_${i + 1}`, 'acknowledge', 'bench', 100_000))
    const [check] = (await state.alerts.list(account, { status: 'all', filters: {}, limit: 1 })).alerts
    if (!check || check.count < 1) throw new Error('lifecycle bench: no alert stored')
    results.lifecycle = {
      openAlerts: open,
      loadSeconds: round(loadSeconds, 1),
      alertsPerSecondLoaded: Math.round(open / loadSeconds),
      redisBytesPerAlert: Math.round((memoryAfter - memoryBefore) / open),
      upsertMs: upsert,
      listOpen100Ms: listOpen,
      listTeam100Ms: listTeam,
      listTeamAndSeverity100Ms: listTwo,
      acknowledgeMs: ack,
    }
    say(
      `lifecycle: ${open} open alerts loaded at ${results.lifecycle.alertsPerSecondLoaded}/s; upsert p99 ${upsert.p99} ms; list by team p99 ${listTeam.p99} ms`,
    )
  } finally {
    await deleteKeys(state.redis, prefix)
    await state.close()
  }
}

/**
 * Experiment results over 1,000,000 exposed keys and 10,000,000 events (loaded with INSERT ... SELECT,
 * the intake is measured above): GET .../results for 3 metrics through an admin process, timed one at
 * a time, beside a plain ClickHouse scan of the same rows (count, sum and distinct keys) in the same
 * run; the peak RSS of ClickHouse and of the Sluice process while it answers.
 */
async function experimentsSection() {
  const keys = SMOKE ? 100_000 : 1_000_000
  const events = keys * 10
  const s = await sluice(['admin'])
  const db = s.env.CLICKHOUSE_DATABASE
  const ch = createClient({ url: CLICKHOUSE, request_timeout: 600_000, log: { level: ClickHouseLogLevel.OFF } })
  try {
    await migrate(ch, { database: db }, createLogger('warn'))
    const env = s.demo.environments[0].id
    const t0 = Date.UTC(2026, 10, 1)
    // Received over the 30 days before now (what the Data Hub's catalogue counts by).
    const received = `(${Date.now()} - intHash32(number + 2) % ${30 * 86_400_000})`
    // Two treatments; every 97th key saw both (excluded); events of 3 types from 10 minutes before to 3 hours after.
    await ch.command({
      query: `INSERT INTO ${db}.impressions (environment_id, flag, key, treatment, label, time, time_ms, received_at, received_at_ms)
        SELECT '${env}', 'bench_flag', concat('user-', toString(number % ${keys})), if(number >= ${keys}, 'off', if(number % 2 = 0, 'on', 'off')),
          concat('rule ', toString(number % 20)), toDateTime(intDiv(${t0} + number * 11, 1000)), ${t0} + number * 11,
          toDateTime(intDiv(${received}, 1000)), ${received}
        FROM system.numbers WHERE number < ${keys} OR (number % 97 = 1 AND number % 2 = 0) LIMIT ${keys + Math.ceil(keys / 194)}`,
    })
    await ch.command({
      query: `INSERT INTO ${db}.events (environment_id, traffic_type, event_type, key, timestamp, timestamp_ms, value, properties, received_at, received_at_ms, sdk_version)
        SELECT '${env}', 'user', ['purchase', 'visit', 'visit', 'signup'][number % 4 + 1], concat('user-', toString(intHash32(number) % ${keys})),
          toDateTime(intDiv(${t0} - 600000 + intHash32(number + 1) % 10800000, 1000)), ${t0} - 600000 + intHash32(number + 1) % 10800000,
          (number % 100) / 4, concat('{"plan":"', if(number % 3 = 0, 'pro', 'free'), '"}'),
          toDateTime(intDiv(${received}, 1000)), ${received}, concat('nodejs-10.', toString(number % 7), '.0')
        FROM system.numbers LIMIT ${events}`,
      clickhouse_settings: { max_insert_block_size: '1000000' },
    })
    const admin = { authorization: `Bearer ${s.demo.adminApiKey}`, 'content-type': 'application/json' }
    const metric = async (body) => {
      const res = await fetch(`${s.url}/api/v1/workspaces/${s.demo.workspaceId}/metrics`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ trafficType: 'user', desiredDirection: 'increase', ...body }),
      })
      if (res.status !== 201) throw new Error(`metric: ${res.status} ${await res.text()}`)
      return (await res.json()).id
    }
    const ids = [
      await metric({ name: 'purchases', eventTypeId: 'purchase', type: 'count_per_key' }),
      await metric({ name: 'revenue', eventTypeId: 'purchase', type: 'sum_per_key', cap: 100 }),
      await metric({
        name: 'purchases per visit',
        eventTypeId: 'purchase',
        type: 'ratio_per_key',
        denominatorEventTypeId: 'visit',
      }),
    ]
    const url = `${s.url}/api/v1/environments/${env}/experiments/bench_flag/results?metrics=${ids.join(',')}&from=${t0}&to=${t0 + 3 * 3600_000}`
    const clickhousePid = Number(execFileSync('pgrep', ['-o', '-f', 'clickhouse-server'], { encoding: 'utf8' }).trim())
    const peak = async (fn) => {
      const base = { clickhouse: await rssMiB(clickhousePid), sluice: await rssMiB(s.pid) }
      const top = { ...base }
      let done = false
      const sampler = (async () => {
        while (!done) {
          top.clickhouse = Math.max(top.clickhouse, await rssMiB(clickhousePid))
          top.sluice = Math.max(top.sluice, await rssMiB(s.pid))
          await sleep(25)
        }
      })()
      const started = performance.now()
      const out = await fn()
      const ms = performance.now() - started
      done = true
      await sampler
      return { ms, out, clickhouseGrowthMiB: top.clickhouse - base.clickhouse, sluicePeakMiB: top.sluice }
    }
    await fetch(url, { headers: admin }).then((r) => r.arrayBuffer()) // warm the caches of both
    const answers = await repeat(() =>
      peak(async () => {
        const res = await fetch(url, { headers: admin })
        if (res.status !== 200) throw new Error(`results: ${res.status} ${await res.text()}`)
        return res.json()
      }),
    )
    const scans = await repeat(() =>
      peak(async () => {
        await ch
          .query({
            query: `SELECT count(), sum(value), uniq(key) FROM ${db}.events WHERE environment_id = '${env}'`,
            format: 'JSONEachRow',
          })
          .then((r) => r.json())
        return ch
          .query({
            query: `SELECT count(), uniq(key) FROM ${db}.impressions WHERE environment_id = '${env}'`,
            format: 'JSONEachRow',
          })
          .then((r) => r.json())
      }),
    )
    // The same metrics and a revenue capped at its 99th percentile, with CUPED and sequential tests: the caps query
    // first, then the sums with each key's 14 days before exposure.
    const capped = await metric({
      name: 'revenue p99',
      eventTypeId: 'purchase',
      type: 'sum_per_key',
      capPercentile: 0.99,
    })
    const methodsUrl = `${s.url}/api/v1/environments/${env}/experiments/bench_flag/results?metrics=${[...ids, capped].join(',')}&from=${t0}&to=${t0 + 3 * 3600_000}&cuped=true&sequential=true`
    await fetch(methodsUrl, { headers: admin }).then((r) => r.arrayBuffer())
    const methods = await repeat(() =>
      peak(async () => {
        const res = await fetch(methodsUrl, { headers: admin })
        if (res.status !== 200) throw new Error(`results: ${res.status} ${await res.text()}`)
        return res.json()
      }),
    )
    // The plain results broken down by a dimension of 20 values (the first impression's rule), beside the plain ones.
    const slicedUrl = `${url}&dimension=rule&maxSlices=20`
    const fetched = (u) =>
      peak(async () => {
        const res = await fetch(u, { headers: admin })
        if (res.status !== 200) throw new Error(`results: ${res.status} ${await res.text()}`)
        return res.json()
      })
    await fetch(slicedUrl, { headers: admin }).then((r) => r.arrayBuffer())
    const sliced = await repeat(() => fetched(slicedUrl))
    // A p99 of the purchases' values (clustered per key) beside their mean per key.
    const mean = await metric({ name: 'order value', eventTypeId: 'purchase', type: 'average_per_key' })
    const p99 = await metric({
      name: 'order value p99',
      eventTypeId: 'purchase',
      type: 'quantile_of_events',
      quantile: 0.99,
    })
    const one = (id) =>
      `${s.url}/api/v1/environments/${env}/experiments/bench_flag/results?metrics=${id}&from=${t0}&to=${t0 + 3 * 3600_000}`
    await fetch(one(p99), { headers: admin }).then((r) => r.arrayBuffer())
    const means = await repeat(() => fetched(one(mean)))
    const quantiles = await repeat(() => fetched(one(p99)))
    // The Data Hub's catalogue over the same rows: the event types, one type's properties, the flags seen.
    const catalogue = async (path) =>
      repeat(() =>
        peak(async () => {
          const res = await fetch(`${s.url}/api/v1/environments/${env}/${path}`, { headers: admin })
          if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`)
          return res.json()
        }),
      )
    const eventTypes = await catalogue('event-types')
    const oneType = await catalogue('event-types/purchase')
    const flagsSeen = await catalogue('flags-seen')
    results.datahub = {
      events,
      eventTypesMs: spread(eventTypes.map((a) => round(a.ms))),
      eventTypeMs: spread(oneType.map((a) => round(a.ms))),
      flagsSeenMs: spread(flagsSeen.map((a) => round(a.ms))),
      clickhouseRssGrowthMiB: round(
        Math.max(...[...eventTypes, ...oneType, ...flagsSeen].map((a) => a.clickhouseGrowthMiB)),
      ),
      types: eventTypes.at(-1).out.eventTypes.length,
    }
    say(`datahub: event types over ${events} events in ${results.datahub.eventTypesMs.median} ms`)
    const last = answers.at(-1).out
    results.experiments = {
      exposedKeys: last.exposure.keys,
      excludedKeys: last.exposure.excludedKeys,
      events,
      metrics: ids.length,
      resultsMs: spread(answers.map((a) => round(a.ms))),
      plainScanMs: spread(scans.map((a) => round(a.ms))),
      clickhouseRssGrowthMiB: round(Math.max(...answers.map((a) => a.clickhouseGrowthMiB))),
      sluicePeakRssMiB: round(Math.max(...answers.map((a) => a.sluicePeakMiB))),
      cupedSequentialCappedMs: spread(methods.map((a) => round(a.ms))),
      cupedSequentialCappedClickhouseRssGrowthMiB: round(Math.max(...methods.map((a) => a.clickhouseGrowthMiB))),
      slices: sliced.at(-1).out.dimension.slices.length,
      breakdownMs: spread(sliced.map((a) => round(a.ms))),
      breakdownClickhouseRssGrowthMiB: round(Math.max(...sliced.map((a) => a.clickhouseGrowthMiB))),
      meanMs: spread(means.map((a) => round(a.ms))),
      meanClickhouseRssGrowthMiB: round(Math.max(...means.map((a) => a.clickhouseGrowthMiB))),
      p99Ms: spread(quantiles.map((a) => round(a.ms))),
      p99ClickhouseRssGrowthMiB: round(Math.max(...quantiles.map((a) => a.clickhouseGrowthMiB))),
    }
    say(
      `experiments: results for ${ids.length} metrics over ${last.exposure.keys} keys in ${results.experiments.resultsMs.median} ms (scan ${results.experiments.plainScanMs.median} ms)`,
    )
  } finally {
    await ch.close()
    await s.stop()
    await s.cleanup()
  }
}

/**
 * How cost grows with the data: one environment filled step by step (10M, 100M, ... events; a tenth as many exposed
 * keys), and at each size the experiment results (3 metrics over every exposure), the catalogue, the health page and a
 * retention delete (the oldest of 30 days received, as the checks role runs it on a server without TTLs), each timed
 * with the most memory ClickHouse's queries held (system.processes, sampled every 20 ms).
 */
async function growthSection() {
  const sizes = (SMOKE ? '0.2' : opts.growth).split(',').map((m) => Math.round(Number(m) * 1_000_000))
  const s = await sluice(['admin'])
  const db = s.env.CLICKHOUSE_DATABASE
  const ch = createClient({ url: CLICKHOUSE, request_timeout: 3_600_000, log: { level: ClickHouseLogLevel.OFF } })
  const steps = []
  try {
    await migrate(ch, { database: db }, createLogger('warn'))
    const env = s.demo.environments[0].id
    const admin = { authorization: `Bearer ${s.demo.adminApiKey}`, 'content-type': 'application/json' }
    const t0 = Date.UTC(2026, 9, 1)
    const now = Date.now()
    const metrics = []
    for (const body of [
      { name: 'purchases', eventTypeId: 'purchase', type: 'count_per_key' },
      { name: 'revenue', eventTypeId: 'purchase', type: 'sum_per_key', cap: 100 },
      { name: 'purchases per visit', eventTypeId: 'purchase', type: 'ratio_per_key', denominatorEventTypeId: 'visit' },
    ]) {
      const res = await fetch(`${s.url}/api/v1/workspaces/${s.demo.workspaceId}/metrics`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ trafficType: 'user', desiredDirection: 'increase', ...body }),
      })
      if (res.status !== 201) throw new Error(`metric: ${res.status} ${await res.text()}`)
      metrics.push((await res.json()).id)
    }
    /** A call timed, with the peak memory of ClickHouse's queries meanwhile (other than the sampler's own). */
    const measured = async (fn) => {
      let peak = 0
      let done = false
      const sampler = (async () => {
        while (!done) {
          const [row] = await ch
            .query({
              query: `SELECT max(peak_memory_usage) AS m FROM system.processes WHERE query NOT LIKE '%system.processes%'`,
              format: 'JSONEachRow',
            })
            .then((r) => r.json())
          peak = Math.max(peak, Number(row?.m ?? 0))
          await sleep(20)
        }
      })()
      const started = performance.now()
      try {
        await fn()
      } finally {
        done = true
        await sampler
      }
      return { ms: performance.now() - started, peakMiB: peak / 2 ** 20 }
    }
    const get = (path) => async () => {
      const res = await fetch(`${s.url}${path}`, { headers: admin })
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 300)}`)
      await res.arrayBuffer()
    }
    const summary = (xs) => ({
      ms: spread(xs.map((x) => round(x.ms))),
      peakMiB: round(Math.max(...xs.map((x) => x.peakMiB))),
    })
    let events = 0
    let keys = 0
    for (const size of sizes) {
      const newKeys = Math.round((size - events) / 10)
      const received = (x) => `(${now} - intHash32(${x} + 2) % ${30 * 86_400_000})`
      const started = performance.now()
      // Exposures of the keys not yet exposed (every 97th also saw the other treatment: excluded), then the events of
      // all keys so far, over the whole exposure span.
      await ch.command({
        query: `INSERT INTO ${db}.impressions (environment_id, flag, key, treatment, label, time, time_ms, received_at, received_at_ms)
          SELECT '${env}', 'bench_flag', concat('user-', toString(x % ${newKeys} + ${keys})), if(x >= ${newKeys}, 'off', if(x % 2 = 0, 'on', 'off')),
            'default rule', toDateTime(intDiv(${t0} + (x % ${newKeys} + ${keys}) * 11, 1000)), ${t0} + (x % ${newKeys} + ${keys}) * 11,
            toDateTime(intDiv(${received('x')}, 1000)), ${received('x')}
          FROM (SELECT number AS x FROM system.numbers WHERE number < ${newKeys} OR (number % 97 = 1 AND number % 2 = 0) LIMIT ${newKeys + Math.ceil(newKeys / 194)})`,
        clickhouse_settings: { max_insert_block_size: '1000000' },
      })
      const allKeys = keys + newKeys
      const eventSpan = allKeys * 11
      await ch.command({
        query: `INSERT INTO ${db}.events (environment_id, traffic_type, event_type, key, timestamp, timestamp_ms, value, properties, received_at, received_at_ms, sdk_version)
          SELECT '${env}', 'user', ['purchase', 'visit', 'visit', 'signup'][x % 4 + 1], concat('user-', toString(intHash32(x) % ${allKeys})),
            toDateTime(intDiv(${t0} - 600000 + intHash64(x + 1) % ${eventSpan + 3 * 3600_000}, 1000)), ${t0} - 600000 + intHash64(x + 1) % ${eventSpan + 3 * 3600_000},
            (x % 100) / 4, concat('{"plan":"', if(x % 3 = 0, 'pro', 'free'), '"}'),
            toDateTime(intDiv(${received('x')}, 1000)), ${received('x')}, concat('nodejs-10.', toString(x % 7), '.0')
          FROM (SELECT number + ${events} AS x FROM system.numbers LIMIT ${size - events})`,
        clickhouse_settings: { max_insert_block_size: '1000000' },
      })
      const loadSeconds = (performance.now() - started) / 1000
      events = size
      keys = allKeys
      const [{ n, bytes }] = await ch
        .query({
          query: `SELECT sum(rows) AS n, sum(bytes) AS bytes FROM system.parts WHERE database = '${db}' AND table = 'events' AND active`,
          format: 'JSONEachRow',
        })
        .then((r) => r.json())
      const gib = round(Number(bytes) / 2 ** 30, 2)
      say(`growth: ${Number(n).toLocaleString('en-US')} events (${gib} GiB) loaded in ${round(loadSeconds)} s`)
      const results = `/api/v1/environments/${env}/experiments/bench_flag/results?metrics=${metrics.join(',')}&from=${t0 - 600000}&to=${t0 + eventSpan + 3 * 3600_000}`
      const step = { events: Number(n), keys, diskGiB: gib, loadSeconds: round(loadSeconds) }
      for (const [name, path] of [
        ['results', results],
        ['eventTypes', `/api/v1/environments/${env}/event-types`],
        ['health', `/api/v1/environments/${env}/health`],
      ]) {
        try {
          await get(path)() // warm the caches
          step[name] = summary(await repeat(() => measured(get(path))))
        } catch (err) {
          step[name] = { error: String(err.message ?? err).slice(0, 300) }
        }
        say(`growth: ${name} at ${step.events} events: ${JSON.stringify(step[name])}`)
      }
      // The retention delete of the oldest day received, as retentionDeletes() writes it, until the mutation is done.
      const [statement] = retentionDeletes(
        { database: db },
        { dataDays: 29, rejectionsDays: 0 },
        now + 86_400_000,
      ).filter((q) => q.includes(`${db}.events `))
      step.retentionDelete = await measured(async () => {
        await ch.command({ query: statement })
        for (;;) {
          const [{ pending }] = await ch
            .query({
              query: `SELECT count() AS pending FROM system.mutations WHERE database = '${db}' AND table = 'events' AND is_done = 0`,
              format: 'JSONEachRow',
            })
            .then((r) => r.json())
          if (Number(pending) === 0) break
          await sleep(200)
        }
      })
      step.retentionDelete = { ms: round(step.retentionDelete.ms), peakMiB: round(step.retentionDelete.peakMiB) }
      say(`growth: retention delete at ${step.events} events: ${JSON.stringify(step.retentionDelete)}`)
      steps.push(step)
    }
  } finally {
    results.growth = { steps }
    await ch.close()
    await s.stop()
    await s.cleanup()
  }
}

async function usedMemory(redis) {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))[1])
}

async function adminSection() {
  const run = (args) => {
    const out = execFileSync(process.execPath, args, {
      encoding: 'utf8',
      env: { ...process.env, KAFKA_BROKERS: KAFKA, CLICKHOUSE_URL: CLICKHOUSE, REDIS_URL: REDIS },
    })
    return out
  }
  const segments = JSON.parse(
    run(['bench/segments.mjs', '--rounds', SMOKE ? '1' : '3', '--port', String(nextPort++)])
      .split('\n')
      .find((l) => l.startsWith('{')),
  )
  const scimFile = join(RESULTS, 'scim.json')
  run([
    'bench/scim.mjs',
    '--users',
    SMOKE ? '2000' : '100000',
    '--posts',
    SMOKE ? '50' : '500',
    '--calls',
    SMOKE ? '20' : '300',
    '--port',
    String(nextPort++),
    '--json',
    scimFile,
  ])
  results.admin = { segments, scim: JSON.parse((await import('node:fs')).readFileSync(scimFile, 'utf8')) }
}

/**
 * RSS of each process at start and over minutes of mixed load (scale-out shape: an edge process and a consumer
 * process).
 */
async function rssSection() {
  const minutes = SMOKE ? 0.2 : Number(opts['rss-minutes'])
  const shared = isolation()
  const edge = await sluice(['edge', 'admin'], {}, shared)
  const consumers = await sluice(['events', 'alerts'], {}, shared)
  const key = edge.demo.environments[0].serverSideSdkKey
  const { path } = await integration(edge)
  const samples = { edge: [], consumers: [] }
  const sample = async (t) => {
    samples.edge.push({ t, mib: round(await rssMiB(edge.pid), 1) })
    samples.consumers.push({ t, mib: round(await rssMiB(consumers.pid), 1) })
  }
  await sample(0)
  const eventRate = (results.events?.bodies[500]?.endToEnd.median ?? 40_000) / 4
  const hookRate = (results.webhooks?.allRoles?.endToEnd.median ?? 2000) / 4
  const t0 = Date.now()
  let stop = false
  const senders = [
    (async () => {
      for (let i = 0; !stop; i++) {
        const due = t0 + (i / (eventRate / 500)) * 1000
        if (due > Date.now()) await sleep(due - Date.now())
        await postEvents(edge.url, key, JSON.stringify(sdkRecords(500, 'bench.rss', i * 500)))
      }
    })(),
    ...Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const due = t0 + ((i * 8 + w) / hookRate) * 1000
        if (due > Date.now()) await sleep(due - Date.now())
        await fetch(`${edge.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(alertmanagerPayload(Date.now())),
        }).then((r) => r.arrayBuffer())
      }
    }),
  ]
  const every = SMOKE ? 2000 : 30_000
  while (Date.now() - t0 < minutes * 60_000) {
    await sleep(every)
    await sample(Math.round((Date.now() - t0) / 1000))
  }
  stop = true
  await Promise.all(senders)
  await consumers.stop()
  await edge.stop()
  await edge.cleanup()
  const summary = (xs) => {
    const first = xs.find((s) => s.t >= 60) ?? xs[1] ?? xs[0]
    const last = xs.at(-1)
    return {
      atStartMiB: xs[0].mib,
      afterOneMinuteMiB: first.mib,
      oneMinuteSeconds: first.t,
      atEndMiB: last.mib,
      endSeconds: last.t,
      growthAfterFirstMinutePercent: round(((last.mib - first.mib) / first.mib) * 100, 1),
      samples: xs,
    }
  }
  results.rss = {
    minutes,
    eventsPerSecond: Math.round(eventRate),
    webhooksPerSecond: Math.round(hookRate),
    edge: summary(samples.edge),
    consumers: summary(samples.consumers),
  }
}

/**
 * Notifications: deliveries per second to a local webhook receiver (a flood of alerts, one delivery each), and the
 * latency at 100 alerts/s: from the webhook's 202 to the notification received (the receiver's clock, the whole
 * path), and from the alert stored to its notification accepted (Sluice's histogram, a bucket's upper bound).
 */
/**
 * What the notify and incidents sections share: a receiver on 127.0.0.1 (each message's body to `onBody`), Sluice with
 * the alert roles, a webhook destination to the receiver on the default route (no rate or digest in the way) and an
 * Alertmanager integration (`hook`, its address). `post` calls the admin API.
 */
async function alertsStage(onBody, env = {}) {
  const receiver = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      onBody(Buffer.concat(chunks).toString('utf8'))
      res.writeHead(204).end()
    })
  })
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r))
  const s = await sluice(['edge', 'admin', 'alerts', 'notify'], {
    SLUICE_NOTIFY_ALLOW_HTTP: 'true',
    SLUICE_NOTIFY_ALLOWED_RANGES: '127.0.0.0/8',
    SLUICE_SECRETS_KEY: randomBytes(32).toString('base64'),
    SLUICE_WEBHOOK_RATE_PER_SECOND: '100000',
    SLUICE_WEBHOOK_BURST: '100000',
    ...env,
  })
  const admin = { authorization: `Bearer ${s.demo.adminApiKey}`, 'content-type': 'application/json' }
  const post = async (path, body, method = 'POST') =>
    (await fetch(`${s.url}${path}`, { method, headers: admin, body: JSON.stringify(body) })).json()
  const dest = await post('/api/v1/notification-destinations', {
    name: 'bench',
    kind: 'webhook',
    settings: { url: `http://127.0.0.1:${receiver.address().port}/hook` },
    limits: { ratePerSecond: 1000, burst: 1000, concurrency: 16, maxDigest: 1 },
  })
  await post('/api/v1/notification-route', { destinations: [dest.destination.id] }, 'PUT')
  const hook = (await post('/api/v1/integrations', { name: 'bench', template: 'alertmanager' })).webhookUrl
  return { receiver, s, post, hook }
}

async function notifySection() {
  const runs = await repeat(async () => {
    const got = new Map()
    const { receiver, s, hook } = await alertsStage(
      (body) => got.set(JSON.parse(body).alert.dedupKey, performance.now()),
      { SLUICE_LOG_LEVEL: process.env.NOTIFY_LOG ?? 'error' },
    )
    try {
      const payload = (fps) =>
        JSON.stringify({
          version: '4',
          status: 'firing',
          alerts: fps.map((fp) => ({
            status: 'firing',
            labels: { alertname: fp, severity: 'warning', service: 'bench' },
            annotations: { summary: fp },
            fingerprint: fp,
          })),
        })
      await sleep(1500)
      // Latency at 100 alerts/s: one alert every 10 ms.
      const seconds = SMOKE ? 2 : 20
      const accepted = new Map()
      const started = performance.now()
      for (let i = 0; i < seconds * 100; i++) {
        const fp = `l${i}`
        const at = started + i * 10
        if (performance.now() < at) await sleep(at - performance.now())
        const res = await fetch(hook, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: payload([fp]),
        })
        if (res.status !== 202) throw new Error(`webhook answered ${res.status}`)
        accepted.set(fp, performance.now())
      }
      for (const deadline = performance.now() + 60_000; got.size < accepted.size && performance.now() < deadline;)
        await sleep(50)
      const latencies = [...accepted].map(([fp, at]) => (got.get(fp) ?? Infinity) - at).sort((a, b) => a - b)
      const pct = (q) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))])
      const metrics = await (await fetch(`${s.url}/metrics`)).text()
      const buckets = [...metrics.matchAll(/^sluice_notification_latency_seconds_bucket\{le="([^"]+)"\} (\d+)/gm)].map(
        (m) => [m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2])],
      )
      const total = buckets.at(-1)?.[1] ?? 0
      const storedP99 = buckets.find(([, n]) => n >= total * 0.99)?.[0]
      // Deliveries per second: a flood of alerts (payloads of 1,000), timed from the first notification to the last.
      const flood = SMOKE ? 200 : 5000
      got.clear()
      for (let p = 0; p < flood; p += 1000) {
        const fps = Array.from({ length: Math.min(1000, flood - p) }, (_, i) => `f${p + i}`)
        const res = await fetch(hook, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: payload(fps),
        })
        if (res.status !== 202) throw new Error(`webhook answered ${res.status}`)
      }
      for (const deadline = performance.now() + 180_000; got.size < flood && performance.now() < deadline;)
        await sleep(50)
      const times = [...got.values()].sort((a, b) => a - b)
      if (process.env.NOTIFY_DEBUG) {
        const keys = []
        for (let c = '0'; ;) {
          const [n, k] = await s.state.redis.scan(c, 'MATCH', `${s.env.REDIS_KEY_PREFIX}notify:d:*`, 'COUNT', 1000)
          keys.push(...k)
          c = n
          if (c === '0') break
        }
        const slow = []
        for (const k of keys) {
          const h = await s.state.redis.hgetall(k)
          const wait = Number(h.deliveredAt ?? 0) - Number(h.createdAt)
          if (wait > 10_000) slow.push({ wait, attempts: h.attempts, log: h.log, created: h.createdAt })
        }
        console.error(`slow deliveries: ${slow.length}`, JSON.stringify(slow.slice(0, 3)))
      }
      return {
        p50Ms: pct(0.5),
        p99Ms: pct(0.99),
        lost: latencies.filter((l) => l === Infinity).length,
        storedP99Seconds: storedP99,
        deliveriesPerSecond: round(got.size / ((times.at(-1) - times[0]) / 1000)),
        delivered: got.size,
        longestPauseMs: round(Math.max(...times.slice(1).map((t, i) => t - times[i]))),
      }
    } finally {
      await s.stop()
      await s.cleanup()
      receiver.close()
    }
  })
  results.notify = {
    p50Ms: spread(runs.map((r) => r.p50Ms)),
    p99Ms: spread(runs.map((r) => r.p99Ms)),
    storedP99Seconds: runs.map((r) => r.storedP99Seconds),
    deliveriesPerSecond: spread(runs.map((r) => r.deliveriesPerSecond)),
    longestPauseMs: runs.map((r) => r.longestPauseMs),
    lost: runs.reduce((n, r) => n + r.lost, 0),
  }
  say(`notifications: ${JSON.stringify(results.notify)}`)
}

/** A process's CPU time (user and system) in ms, from /proc. */
async function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

/** Redis's CPU time (user and system) in ms. */
async function redisCpuMs(redis) {
  const info = await redis.info('cpu')
  const n = (k) => Number(new RegExp(`^${k}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0)
  return (n('used_cpu_user') + n('used_cpu_sys')) * 1000
}

/**
 * An alert storm as Alertmanager sends one: 500 hosts across 20 services, every host's alert re-sent every 3 s (10,000
 * alerts a minute), a new alert per host each minute, for 3 minutes; once with a rule grouping by service, once
 * without. Measured: notifications at a local receiver (at most one per incident, grouped), the time from the edge's
 * receipt to the incident updated (incident-events entries of new members), and CPU per alert of the Sluice process
 * and of Redis.
 */
async function incidentsSection() {
  const minutes = SMOKE ? 0.25 : 3
  const storm = async (grouped) => {
    let notifications = 0
    const { receiver, s, post, hook } = await alertsStage(() => notifications++)
    try {
      if (grouped)
        await post(
          '/api/v1/alert-rules',
          { rules: [{ id: 'service', name: 'by service', group: { by: ['service'], until: 'resolved' } }] },
          'PUT',
        )
      await sleep(1500)
      const cpu0 = await cpuMs(s.pid)
      const redis0 = await redisCpuMs(s.state.redis)
      const started = performance.now()
      let sent = 0
      for (let round = 0; performance.now() - started < minutes * 60_000; round++) {
        const at = started + round * 3000
        if (performance.now() < at) await sleep(at - performance.now())
        const minute = Math.floor((performance.now() - started) / 60_000)
        // One payload per service: its 25 hosts, as Alertmanager's group of that service.
        await Promise.all(
          Array.from({ length: 20 }, async (_, service) => {
            const alerts = Array.from({ length: 25 }, (_, i) => {
              const host = service * 25 + i
              return {
                status: 'firing',
                labels: {
                  alertname: 'HighErrorRate',
                  severity: 'warning',
                  service: `svc-${service}`,
                  instance: `host-${host}`,
                },
                annotations: { summary: `errors on host-${host}` },
                fingerprint: `host-${host}-m${minute}`,
              }
            })
            const res = await fetch(hook, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ version: '4', status: 'firing', alerts }),
            })
            if (res.status !== 202) throw new Error(`webhook answered ${res.status}`)
            sent += alerts.length
          }),
        )
      }
      // Every alert stored, then the notifications settle.
      await alertsCaughtUp(s.url, sent)
      const keys = alertStreamKeys(s.env.REDIS_KEY_PREFIX, false, s.demo.accountId)
      const elapsedMs = performance.now() - started
      const cpu = (await cpuMs(s.pid)) - cpu0
      const redisCpu = (await redisCpuMs(s.state.redis)) - redis0
      await sleep(3000)
      const events = await s.state.redis.xrange(keys.incidents, '-', '+')
      const lags = events
        .map(([id, f]) => Number(id.split('-')[0]) - Number(f[f.indexOf('at') + 1]))
        .sort((a, b) => a - b)
      const pct = (q) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))]
      const incidents = await s.state.redis.zcard(`${keys.prefix}alerts:acct:${s.demo.accountId}:incident-idx:all`)
      return {
        alerts: sent,
        alertsPerMinute: round((sent / elapsedMs) * 60_000),
        incidents,
        notifications,
        incidentP50Ms: pct(0.5),
        incidentP99Ms: pct(0.99),
        processCpuUsPerAlert: round((cpu * 1000) / sent, 1),
        redisCpuUsPerAlert: round((redisCpu * 1000) / sent, 1),
      }
    } finally {
      await s.stop()
      await s.cleanup()
      receiver.close()
    }
  }
  const grouped = await repeat(() => storm(true))
  const ungrouped = await repeat(() => storm(false))
  const summary = (runs) => ({
    alerts: runs.map((r) => r.alerts),
    alertsPerMinute: spread(runs.map((r) => r.alertsPerMinute)),
    incidents: runs.map((r) => r.incidents),
    notifications: runs.map((r) => r.notifications),
    incidentP50Ms: spread(runs.map((r) => r.incidentP50Ms)),
    incidentP99Ms: spread(runs.map((r) => r.incidentP99Ms)),
    processCpuUsPerAlert: spread(runs.map((r) => r.processCpuUsPerAlert)),
    redisCpuUsPerAlert: spread(runs.map((r) => r.redisCpuUsPerAlert)),
  })
  results.incidents = { minutes, grouped: summary(grouped), ungrouped: summary(ungrouped) }
  say(`incidents: ${JSON.stringify(results.incidents)}`)
}

/**
 * On call: 10,000 open incidents (their records written directly: the escalation job reads only their status and
 * timeline) each escalating by a policy paging a notification destination every step. The escalation job, as the
 * notify role runs it (its runner, ticking every 100 ms, holding its lease), in this process on the local Redis:
 * - lateness: the 10,000 first steps due spread over 20 s; how late each fired (its p50 and p99);
 * - throughput: 10,000 second steps due at once; steps fired per second, each a page (a delivery) and a timeline entry;
 * - Redis memory per open escalation (its state, its due time, its start marker), from INFO used_memory.
 */
async function oncallSection() {
  const N = SMOKE ? 1000 : 10_000
  const run = async () => {
    const prefix = `bench-oncall-${randomBytes(4).toString('hex')}:`
    const state = createRedisState({ url: REDIS, keyPrefix: prefix, commandTimeoutMs: 5000 })
    const log = createLogger('error')
    try {
      const accountId = 'acct-bench'
      const redis = state.redis
      const destination = {
        id: 'pager',
        name: 'pager',
        kind: 'webhook',
        enabled: true,
        events: ['triggered'],
        settings: { url: 'http://127.0.0.1:9/', contentType: 'application/json', signingSecret: '' },
        limits: { ratePerSecond: 1000, burst: 1000, concurrency: 4, maxDigest: 1 },
        createdAt: 0,
        updatedAt: 0,
      }
      const nk = state.notify.keys(accountId)
      await redis.hset(nk.destinations, 'pager', JSON.stringify(destination))
      const policyDefinition = {
        name: 'bench',
        steps: [0, 1, 2].map(() => ({ targets: [{ kind: 'destination', id: 'pager' }], waitMinutes: 1 })),
      }
      const policy = await state.oncall.savePolicy(accountId, policyDefinition, 'bench')
      const ek = state.escalations.keys(accountId)
      const ids = Array.from({ length: N }, (_, i) => `inc_${i}`)
      for (let i = 0; i < N; i += 1000) {
        const pipe = redis.pipeline()
        for (const id of ids.slice(i, i + 1000))
          pipe.hset(ek.incidents, id, JSON.stringify({ id, accountId, status: 'triggered', title: id, timeline: [] }))
        await pipe.exec()
      }
      const memory = async () => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))[1])
      const lateness = []
      let quietFiredAt = 0
      const job = new EscalationJob(state.escalations, state.oncall, state.notify, state.directory, {
        leaseMs: 10_000,
        giveUpMs: 86_400_000,
        retentionMs: 86_400_000,
        everyMs: 100,
        perAccount: N,
        log,
        onFired: (ms, account) => {
          if (account === accountId) lateness.push(ms)
          else quietFiredAt = performance.now()
        },
      })
      const runner = new JobRunner(state.jobLeases, [job], { owner: 'bench', leaseMs: 10_000, log })
      const alert = { id: 'al', status: 'firing', severity: 'critical', description: 'bench' }
      const before = await memory()
      const start = Date.now() + 2000
      for (let i = 0; i < N; i += 500)
        await Promise.all(
          ids.slice(i, i + 500).map((incidentId, k) =>
            job.start({
              accountId,
              incidentId,
              policyId: policy.id,
              alert,
              now: start + Math.floor(((i + k) / N) * 20_000),
            }),
          ),
        )
      const perEscalation = ((await memory()) - before) / N
      runner.start()
      while (lateness.length < N) await sleep(200)
      await runner.stop()
      const first = [...lateness]
      // The second steps: every one due now; beside them, another account's first step due after them.
      lateness.length = 0
      await redis.hset(state.notify.keys('acct-quiet').destinations, 'pager', JSON.stringify(destination))
      const quietPolicy = await state.oncall.savePolicy('acct-quiet', policyDefinition, 'bench')
      await redis.hset(
        state.escalations.keys('acct-quiet').incidents,
        'inc_quiet',
        JSON.stringify({ id: 'inc_quiet', accountId: 'acct-quiet', status: 'triggered', title: 'quiet', timeline: [] }),
      )
      const secondsDue = Date.now() + 60_000 + 20_000
      await job.start({
        accountId: 'acct-quiet',
        incidentId: 'inc_quiet',
        policyId: quietPolicy.id,
        alert,
        now: secondsDue,
      })
      const t0 = performance.now()
      // A runner not started (no timer): these ticks alone fire them.
      const once = new JobRunner(state.jobLeases, [job], { owner: 'bench', leaseMs: 60_000, log })
      // (A tick fires for a second at most: as many as it takes.)
      for (let n = 0; n < 100 && lateness.length < N; n++) await once.tick('escalation', secondsDue)
      await once.stop()
      const fireMs = performance.now() - t0
      const fired = lateness.length
      return {
        escalations: N,
        lateP50Ms: quantile(first, 0.5),
        lateP99Ms: quantile(first, 0.99),
        stepsPerSecond: round((fired / fireMs) * 1000),
        secondStepsFired: fired,
        quietAccountAfterMs: round(quietFiredAt - t0),
        fireAllMs: round(fireMs),
        redisBytesPerEscalation: round(perEscalation),
      }
    } finally {
      await deleteKeys(state.redis, prefix).catch(() => undefined)
      await state.close()
    }
  }
  const runs = await repeat(run)
  results.oncall = {
    escalations: runs[0].escalations,
    lateP50Ms: spread(runs.map((r) => r.lateP50Ms)),
    lateP99Ms: spread(runs.map((r) => r.lateP99Ms)),
    stepsPerSecond: spread(runs.map((r) => r.stepsPerSecond)),
    quietAccountAfterMs: spread(runs.map((r) => r.quietAccountAfterMs)),
    fireAllMs: spread(runs.map((r) => r.fireAllMs)),
    redisBytesPerEscalation: spread(runs.map((r) => r.redisBytesPerEscalation)),
  }
  say(`oncall: ${JSON.stringify(results.oncall)}`)
}

async function repeat(fn) {
  const out = []
  for (let i = 0; i < RUNS; i++) out.push(await fn(i))
  return out
}

async function waitHttp(url) {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url)
      return
    } catch {
      await sleep(100)
    }
  }
  throw new Error(`${url} did not answer`)
}

// ---- run ----

const sections = {
  events: eventsSection,
  plans: plansSection,
  impressions: impressionsSection,
  freshness: freshnessSection,
  webhooks: webhooksSection,
  policies: policiesSection,
  latency: latencySection,
  lifecycle: lifecycleSection,
  experiments: experimentsSection,
  admin: adminSection,
  rss: rssSection,
  cluster: clusterSection,
  notify: notifySection,
  incidents: incidentsSection,
  oncall: oncallSection,
  growth: growthSection,
}
for (const [name, fn] of Object.entries(sections)) {
  if (!only.has(name)) continue
  const started = Date.now()
  console.error(`[bench] ${name} ...`)
  await fn()
  console.error(`[bench] ${name} done in ${round((Date.now() - started) / 1000)} s`)
}

const stamp = new Date().toISOString().replace(/[:.]/g, '-')
writeFileSync(join(RESULTS, 'latest.json'), JSON.stringify(results, null, 2))
writeFileSync(join(RESULTS, `bench-${stamp}.json`), JSON.stringify(results, null, 2))
printTable(results)
if (opts.profile)
  console.log(
    `CPU profiles: ${readdirSync(PROFILES)
      .map((f) => join(PROFILES, f))
      .join(', ')}`,
  )
// Clients of the stack may keep sockets open: the run is over.
process.exit(0)

function printTable(r) {
  const rows = []
  const k = (x) => Math.round(x).toLocaleString('en-US')
  const sp = (s, f = k) => `${f(s.median)} (${f(s.min)}–${f(s.max)})`
  if (r.events) {
    rows.push([
      'raw ClickHouse inserts, TabSeparated (10,000 rows each, best of 1 and 3 in flight)',
      `${sp(r.events.clickhouseInsert)} rows/s`,
      "bound (rows encoded by the consumer's encoder)",
    ])
    rows.push([
      "the same rows encoded beforehand: the server's own limit",
      `${sp(r.events.clickhousePreEncoded)} rows/s`,
      'bound',
    ])
    for (const [size, b] of Object.entries(r.events.bodies)) {
      rows.push([
        `events end to end, bodies of ${size}, 8 in flight`,
        `${sp(b.endToEnd)} events/s`,
        `${b.ratioToClickHouse} of raw inserts, ${b.ratioToPreEncoded} of pre-encoded (target ≥ 0.5)`,
      ])
      rows.push([`events accepted (202), bodies of ${size}`, `${sp(b.accepted)} events/s`, ''])
      rows.push([
        `  Sluice CPU per event stored (edge + consumer, one process), bodies of ${size}`,
        `${sp(b.cpuUsPerEvent, (x) => x.toFixed(1))} µs`,
        'budget ≤ 16 µs',
      ])
    }
    rows.push([
      `kafka-producer-perf-test, ${k(r.events.kafkaProducer.messageBytes)}-byte messages, acks=all`,
      `${sp(r.events.kafkaProducer.mbPerSecond, (x) => x.toFixed(1))} MB/s`,
      `≈ ${k(r.events.kafkaProducer.eventsPerSecondEquivalent)} events/s`,
    ])
  }
  if (r.cluster) {
    const c = r.cluster
    rows.push([
      `events end to end on the cluster stack (ClickHouse 2x2, 3 brokers), bodies of 500`,
      `${sp(c.cluster.eventsPerSecond)} events/s`,
      `${c.cluster.ratio} of the single-node stack (target ≥ 0.8)`,
    ])
    rows.push(['the same runs on the single-node stack, alternating', `${sp(c.single)} events/s`, ''])
    if (c.kafkaCluster)
      rows.push([
        '  only Kafka on 3 brokers (replication 3, min.insync.replicas 2)',
        `${sp(c.kafkaCluster.eventsPerSecond)} events/s`,
        `${c.kafkaCluster.ratio} of single`,
      ])
    if (c.clickhouseCluster)
      rows.push([
        '  only ClickHouse on 2x2 (quorum inserts)',
        `${sp(c.clickhouseCluster.eventsPerSecond)} events/s`,
        `${c.clickhouseCluster.ratio} of single`,
      ])
  }
  if (r.impressions) {
    const i = r.impressions
    rows.push([
      'raw ClickHouse inserts of impressions, TabSeparated (10,000 rows each)',
      `${sp(i.clickhouseInsert)} rows/s`,
      'bound',
    ])
    rows.push([
      `impressions end to end, bodies of ${k(i.bodySize)}, 8 in flight`,
      `${sp(i.endToEnd)} impressions/s`,
      `${i.ratioToClickHouse} of ClickHouse`,
    ])
    rows.push([`impressions accepted (202), bodies of ${k(i.bodySize)}`, `${sp(i.accepted)} impressions/s`, ''])
  }
  if (r.freshness)
    rows.push([
      `freshness (202 → queryable) at ${k(r.freshness.eventsPerSecond)} events/s`,
      `p50 ${k(r.freshness.p50Ms)} ms, p99 ${k(r.freshness.p99Ms)} ms`,
      'target p99 < 2,000 ms',
    ])
  if (r.webhooks) {
    rows.push([
      `bare Fastify parse-and-202, ${r.webhooks.payloadBytes}-byte payload, 50 connections`,
      `${sp(r.webhooks.bareFastify)} req/s`,
      'bound',
    ])
    rows.push([
      'webhooks, all roles in one process',
      `${sp(r.webhooks.allRoles.rps)} req/s`,
      `${r.webhooks.allRoles.ratioToBare} of bare (target ≥ 0.5)`,
    ])
    rows.push([
      'the same runs end to end: until their alerts are in the streams',
      `${sp(r.webhooks.allRoles.endToEnd)} payloads/s`,
      '',
    ])
    rows.push([
      '  Sluice CPU per webhook payload, all roles (edge + alerts consumer)',
      `${sp(r.webhooks.allRoles.cpuUsPerPayload, (x) => x.toFixed(0))} µs`,
      '',
    ])
    rows.push([
      'webhooks, edge-only process',
      `${sp(r.webhooks.edgeOnly.rps)} req/s`,
      `${r.webhooks.edgeOnly.ratioToBare} of bare (target ≥ 0.8)`,
    ])
    rows.push([
      `alerts consumer alone, draining ${k(r.webhooks.alertsConsumer.messages)} payloads`,
      `${k(r.webhooks.alertsConsumer.messagesPerSecond)} payloads/s`,
      'its own rate (3 alerts rendered and stored each)',
    ])
  }
  if (r.notify) {
    const n = r.notify
    rows.push([
      'notifications at 100 alerts/s to a local webhook: webhook 202 to notification received',
      `p50 ${sp(n.p50Ms)} ms, p99 ${sp(n.p99Ms)} ms (${n.lost} lost)`,
      `stored to delivered p99 <= ${n.storedP99Seconds.join(', ')} s (histogram bucket; aim < 1 s)`,
    ])
    rows.push([
      'notification deliveries, a flood of alerts, one delivery each (concurrency 16)',
      `${sp(n.deliveriesPerSecond)} deliveries/s`,
      'first to last notification received',
    ])
  }
  if (r.incidents) {
    const i = r.incidents
    const f = (x) => x.toFixed(0)
    for (const [name, g] of [
      ['grouped by service', i.grouped],
      ['without grouping', i.ungrouped],
    ])
      rows.push([
        `incidents: a storm of 500 hosts, 20 services, ${i.minutes} min, ${name}`,
        `${g.alerts.join(', ')} alerts (${sp(g.alertsPerMinute)}/min): ${g.incidents.join(', ')} incidents, ${g.notifications.join(', ')} notifications`,
        `receipt to incident updated p50 ${sp(g.incidentP50Ms)} ms, p99 ${sp(g.incidentP99Ms)} ms (aim <= 1 s); CPU per alert: Sluice ${sp(g.processCpuUsPerAlert, f)} µs, Redis ${sp(g.redisCpuUsPerAlert, f)} µs`,
      ])
  }
  if (r.policies) {
    const p = r.policies
    rows.push([
      'alerts consumer, no alert rules (3 alerts per payload, Redis script included)',
      `${sp(p.none.payloadsPerSecond)} payloads/s, ${sp(p.none.cpuUs, (x) => x.toFixed(0))} µs CPU each`,
      'the same batches in turns with:',
    ])
    rows.push([
      '  50 alert rules and one maintenance window running',
      `${sp(p.rules.payloadsPerSecond)} payloads/s, ${sp(p.rules.cpuUs, (x) => x.toFixed(0))} µs CPU each`,
      `+${p.addedCpuPercent} % CPU per payload (aim < 20 %)`,
    ])
  }
  if (r.latency) {
    const l = r.latency
    const ms = (x) => `${round(x)}`
    rows.push([
      `webhook POST → stream entry at ${k(l.requestsPerSecond)} req/s, after ${l.warmupSeconds} s of warm-up`,
      `p50 ${sp(l.p50Ms, ms)} ms, p99 ${sp(l.p99Ms, ms)} ms`,
      'target p99 < 100 ms',
    ])
    rows.push([
      'the same: POST answered (202)',
      `p50 ${sp(l.post202.p50Ms, ms)} ms, p99 ${sp(l.post202.p99Ms, ms)} ms`,
      `max ${l.maxMs} ms; in the warm-up ${l.warmupMaxMs} ms`,
    ])
  }
  if (r.lifecycle) {
    const l = r.lifecycle
    const ms = (x) => `p50 ${x.p50} ms, p99 ${x.p99} ms`
    rows.push([
      `${k(l.openAlerts)} open alerts in one account, written by the sink's script`,
      `${k(l.alertsPerSecondLoaded)} alerts/s`,
      `${k(l.redisBytesPerAlert)} bytes of Redis each`,
    ])
    rows.push(['a notification upserting its open alert (one script call)', ms(l.upsertMs), 'one at a time'])
    rows.push([
      'list 100 open alerts: unfiltered / by team / by team and severity',
      `${ms(l.listOpen100Ms)} / ${ms(l.listTeam100Ms)} / ${ms(l.listTeamAndSeverity100Ms)}`,
      '',
    ])
    rows.push(['acknowledge an alert', ms(l.acknowledgeMs), 'Keep: 10–13 s at 10–15k alerts'])
  }
  if (r.experiments) {
    const x = r.experiments
    const ms = (v) => `${k(v)}`
    rows.push([
      `experiment results, ${x.metrics} metrics over ${k(x.exposedKeys)} exposed keys and ${k(x.events)} events`,
      `${sp(x.resultsMs, ms)} ms`,
      `plain scan of the same rows ${sp(x.plainScanMs, ms)} ms (target < 5,000 ms)`,
    ])
    rows.push([
      'the same: memory',
      `ClickHouse RSS +${k(x.clickhouseRssGrowthMiB)} MiB at most`,
      `Sluice process peak ${k(x.sluicePeakRssMiB)} MiB`,
    ])
    if (x.cupedSequentialCappedMs)
      rows.push([
        `the same ${x.metrics} metrics and one capped at its 99th percentile, with CUPED and sequential tests`,
        `${sp(x.cupedSequentialCappedMs, ms)} ms`,
        `ClickHouse RSS +${k(x.cupedSequentialCappedClickhouseRssGrowthMiB)} MiB at most`,
      ])
    if (x.breakdownMs) {
      rows.push([
        `the same ${x.metrics} metrics broken down by a dimension of 20 values (${x.slices} slices)`,
        `${sp(x.breakdownMs, ms)} ms`,
        `ClickHouse RSS +${k(x.breakdownClickhouseRssGrowthMiB)} MiB at most (aim: under 2× the plain results)`,
      ])
      rows.push([
        'one metric: the mean order value per key / the p99 of the order values (clustered per key)',
        `${sp(x.meanMs, ms)} / ${sp(x.p99Ms, ms)} ms`,
        `ClickHouse RSS +${k(x.meanClickhouseRssGrowthMiB)} / +${k(x.p99ClickhouseRssGrowthMiB)} MiB at most`,
      ])
    }
  }
  if (r.events?.tail) {
    const x = r.events.tail
    const us = (v) => v.toFixed(1)
    rows.push([
      `the live tail with no viewer: Sluice CPU per event (${k(x.events)} events, bodies of 500)`,
      `${sp(x.cpuUsPerEventNoViewer, us)} µs`,
      `the tail off: ${sp(x.cpuUsPerEventTailOff, us)} µs (ratio ${x.ratio})`,
    ])
  }
  if (r.plans) {
    const x = r.plans
    const us = (v) => v.toFixed(1)
    rows.push([
      `a tracking plan of ${x.properties} properties, observe / block: Sluice CPU per event (${k(x.events)} events, bodies of 500)`,
      `${sp(x.cpuUsPerEventObserve, us)} / ${sp(x.cpuUsPerEventBlock, us)} µs`,
      `no plan: ${sp(x.cpuUsPerEventNoPlan, us)} µs (ratios ${x.ratioObserve} / ${x.ratioBlock}; aim ≤ 1.15)`,
    ])
  }
  if (r.datahub) {
    const x = r.datahub
    rows.push([
      `Data Hub: the event types of an environment of ${k(x.events)} events (${x.types} types, 30 days)`,
      `${sp(x.eventTypesMs, k)} ms`,
      `ClickHouse RSS +${k(x.clickhouseRssGrowthMiB)} MiB at most (the three below)`,
    ])
    rows.push(['the same: one type, with its last 1,000 records’ properties', `${sp(x.eventTypeMs, k)} ms`, ''])
    rows.push(['the same: the flags seen (impressions)', `${sp(x.flagsSeenMs, k)} ms`, ''])
  }
  if (r.admin) {
    rows.push(['segment upload of 10,000 keys', `${r.admin.segments.uploadOf10000KeysMs.toFixed(1)} ms`, ''])
    rows.push(['page through 100,000 segment keys (500 GETs)', `${k(r.admin.segments.pageThrough100000KeysMs)} ms`, ''])
    rows.push([
      `SCIM userName eq at ${k(r.admin.scim.users + 1)} users`,
      `p50 ${r.admin.scim.filterUserName.p50} ms, p99 ${r.admin.scim.filterUserName.p99} ms`,
      '',
    ])
    rows.push([
      `SCIM page of 100 at ${k(r.admin.scim.users + 1)} users`,
      `p50 ${r.admin.scim.page100.p50} ms, p99 ${r.admin.scim.page100.p99} ms`,
      '',
    ])
  }
  if (r.rss) {
    const since = (seconds) => (seconds < 60 ? `${seconds} s` : `${Math.round(seconds / 60)} min`)
    for (const p of ['edge', 'consumers']) {
      const x = r.rss[p]
      rows.push([
        `RSS of the ${p === 'edge' ? 'edge (edge, admin)' : 'consumer (events, alerts)'} process`,
        `${x.atStartMiB} MiB at start, ${x.afterOneMinuteMiB} after ${since(x.oneMinuteSeconds)}, ${x.atEndMiB} after ${since(x.endSeconds)}`,
        `${x.growthAfterFirstMinutePercent}% growth from ${since(x.oneMinuteSeconds)} to ${since(x.endSeconds)}`,
      ])
    }
  }
  if (r.growth) {
    const m = (x) =>
      x.error ? `failed: ${x.error.slice(0, 80)}` : `${k(x.ms.median)} ms, ClickHouse ${k(x.peakMiB)} MiB`
    for (const g of r.growth.steps) {
      const at = `at ${k(g.events)} events (${g.diskGiB} GiB), ${k(g.keys)} keys`
      rows.push([`growth ${at}: experiment results (3 metrics)`, m(g.results), `loaded in ${g.loadSeconds} s`])
      rows.push([`growth ${at}: event types (catalogue)`, m(g.eventTypes), ''])
      rows.push([`growth ${at}: health page`, m(g.health), ''])
      rows.push([`growth ${at}: retention delete of the oldest day`, `${k(g.retentionDelete.ms)} ms`, 'a mutation'])
    }
  }
  const w = [Math.max(...rows.map((x) => x[0].length)), Math.max(...rows.map((x) => x[1].length))]
  console.log(`\n| figure | measured (median, spread over ${RUNS} run${RUNS > 1 ? 's' : ''}) | beside |\n|---|---|---|`)
  for (const [a, b, c] of rows) console.log(`| ${a.padEnd(w[0])} | ${b.padEnd(w[1])} | ${c} |`)
}
