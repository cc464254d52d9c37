#!/usr/bin/env node
// The edge spool: 202 latency on the healthy path and while spooling, spool write rate, drain rate.
// Needs `npm run build` and `npx sluice stack up` first.
//   node bench/spool.mjs [--requests 1500] [--events 500] [--concurrency 8] [--healthy-only] [--root <checkout>]
// Runs an edge-only `sluice serve` (from --root, default this checkout, so an older build can be
// measured the same way) with private prefixes. Phase 1 posts SDK-shaped bodies with Kafka healthy.
// Phase 2 pauses the local stack's Kafka (SIGSTOP, from <data dir>/kafka/pid), so every body goes to
// the spool, and posts the same load. Phase 3 resumes Kafka and times the drain. Kafka is always
// resumed on exit.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createRedisState } from '../dist/state/redis/index.js'
import { startServe } from './serve.mjs'

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1500' },
    events: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '8' },
    port: { type: 'string', default: '18081' },
    'healthy-only': { type: 'boolean', default: false },
    root: { type: 'string', default: '.' },
  },
})
const requests = Number(values.requests)
const perRequest = Number(values.events)
const concurrency = Number(values.concurrency)
const root = resolve(values.root)
const id = randomBytes(4).toString('hex')
const spoolDir = mkdtempSync(join(tmpdir(), 'sluice-bench-spool-'))
const env = {
  ...process.env,
  KAFKA_TOPIC_PREFIX: `bench-${id}.`,
  KAFKA_GROUP_PREFIX: `bench-${id}.`,
  CLICKHOUSE_DATABASE: `bench_${id}`,
  REDIS_KEY_PREFIX: `bench:${id}:`,
  SLUICE_PORT: values.port,
  SLUICE_LOG_LEVEL: 'warn',
  SLUICE_SPOOL_DIR: spoolDir,
  SLUICE_EVENTS_RATE_PER_SECOND: '1000000',
  SLUICE_EVENTS_BURST: '1000000',
}
const url = `http://127.0.0.1:${values.port}`
const state = createRedisState({ url: env.REDIS_URL ?? 'redis://127.0.0.1:6379', keyPrefix: env.REDIS_KEY_PREFIX })

const key = (await state.tenancy.bootstrapDemo()).environments[0].serverSideSdkKey
const kafkaPid = Number(readFileSync(join(env.SLUICE_DATA_DIR ?? '.sluice', 'kafka', 'pid'), 'utf8'))
const resumeKafka = () => {
  try {
    process.kill(kafkaPid, 'SIGCONT')
  } catch {
    /* gone */
  }
}
process.once('exit', resumeKafka)

const server = await startServe(env, url, ['--roles', 'edge'], join(root, 'bin/sluice.js'))

const body = (n) =>
  JSON.stringify(
    Array.from({ length: perRequest }, (_, j) => ({
      eventTypeId: 'bench.event',
      trafficTypeName: 'user',
      key: `user-${n}-${j}`,
      timestamp: Date.now(),
      value: j % 100,
      properties: { plan: j % 2 ? 'pro' : 'free', country: 'DE', seats: j % 9, trial: false },
    })),
  )
const bodies = Array.from({ length: 50 }, (_, i) => body(i))

/** Posts `count` bodies with `concurrency` in flight; latency of each 202, and the statuses. */
async function load(count) {
  const latencies = []
  const statuses = new Map()
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++
        const start = performance.now()
        const res = await fetch(`${url}/api/events/bulk`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: bodies[i % bodies.length],
        })
        await res.arrayBuffer()
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
        if (res.status === 202) latencies.push(performance.now() - start)
      }
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]
  return {
    p50: at(0.5),
    p99: at(0.99),
    perSecond: count / seconds,
    eventsPerSecond: (count * perRequest) / seconds,
    statuses: Object.fromEntries(statuses),
  }
}

const metric = async (name) =>
  Number(new RegExp(`^${name} ([\\d.e+]+)`, 'm').exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? NaN)
const ms = (x) => x.toFixed(1)
const results = { requests, perRequest, concurrency, root }

await load(200) // warm-up
results.healthy = await load(requests)
console.log(
  `healthy: 202 p50 ${ms(results.healthy.p50)} ms, p99 ${ms(results.healthy.p99)} ms, ${results.healthy.perSecond.toFixed(0)} requests/s (${results.healthy.eventsPerSecond.toFixed(0)} events/s) ${JSON.stringify(results.healthy.statuses)}`,
)

if (!values['healthy-only']) {
  process.kill(kafkaPid, 'SIGSTOP')
  try {
    await load(concurrency) // these wait SLUICE_SPOOL_AFTER_MS, then the edge spools everything
    const bytesBefore = await metric('sluice_spool_bytes')
    results.spooling = await load(requests)
    const bytes = (await metric('sluice_spool_bytes')) - bytesBefore
    results.spooling.spoolMiBPerSecond = bytes / 2 ** 20 / (requests / results.spooling.perSecond)
    console.log(
      `spooling: 202 p50 ${ms(results.spooling.p50)} ms, p99 ${ms(results.spooling.p99)} ms, ${results.spooling.perSecond.toFixed(0)} requests/s (${results.spooling.eventsPerSecond.toFixed(0)} events/s), spool written at ${results.spooling.spoolMiBPerSecond.toFixed(1)} MiB/s ${JSON.stringify(results.spooling.statuses)}`,
    )
  } finally {
    resumeKafka()
  }
  const held = { messages: await metric('sluice_spool_messages'), bytes: await metric('sluice_spool_bytes') }
  const t0 = performance.now()
  while ((await metric('sluice_spool_messages')) > 0) await new Promise((r) => setTimeout(r, 100))
  const seconds = (performance.now() - t0) / 1000
  results.drain = {
    ...held,
    seconds,
    messagesPerSecond: held.messages / seconds,
    MiBPerSecond: held.bytes / 2 ** 20 / seconds,
  }
  console.log(
    `drain: ${held.messages} messages (${(held.bytes / 2 ** 20).toFixed(1)} MiB) in ${seconds.toFixed(1)} s: ${results.drain.messagesPerSecond.toFixed(0)} messages/s, ${results.drain.MiBPerSecond.toFixed(1)} MiB/s (kafka resumed at the start)`,
  )
}
console.log(JSON.stringify(results))

await server.stop()
await state.close()
rmSync(spoolDir, { recursive: true, force: true })
process.exit(0)
