#!/usr/bin/env node
// End-to-end throughput of event import on this machine: HTTP POST /api/events/bulk → Kafka →
// consumer → ClickHouse rows. Needs `npm run build` and `npx sluice stack up` first.
//   node bench/events-e2e.mjs [--events 500000] [--batch 5000] [--concurrency 4]
// Runs `sluice serve` as its own process with a private topic prefix, database and key prefix, sends
// pre-built bodies, and reports (1) the rate at which the edge answered 202 and (2) the rate at which
// rows became queryable in ClickHouse, both over the whole run.
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { createClient } from '@clickhouse/client'
import { createRedisState } from '../dist/state/redis/index.js'
import { startServe } from './serve.mjs'

const { values } = parseArgs({
  options: { events: { type: 'string', default: '500000' }, batch: { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '4' }, port: { type: 'string', default: '18080' } },
})
const total = Number(values.events)
const batch = Number(values.batch)
const concurrency = Number(values.concurrency)
const id = randomBytes(4).toString('hex')
const env = {
  ...process.env,
  KAFKA_TOPIC_PREFIX: `bench-${id}.`,
  KAFKA_GROUP_PREFIX: `bench-${id}.`,
  CLICKHOUSE_DATABASE: `bench_${id}`,
  REDIS_KEY_PREFIX: `bench:${id}:`,
  SLUICE_PORT: values.port,
  SLUICE_LOG_LEVEL: 'warn',
}
const url = `http://127.0.0.1:${values.port}`
const ch = createClient({ url: env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123' })
const state = createRedisState({ url: env.REDIS_URL ?? 'redis://127.0.0.1:6379', keyPrefix: env.REDIS_KEY_PREFIX })
const { redis } = state
const key = (await state.store.bootstrapDemo()).environments[0].serverSideSdkKey

const server = await startServe(env, url)

const bodies = []
for (let start = 0; start < total; start += batch) {
  const n = Math.min(batch, total - start)
  bodies.push(
    JSON.stringify(
      Array.from({ length: n }, (_, j) => ({
        eventTypeId: 'bench.event',
        trafficTypeName: 'user',
        key: `user-${start + j}`,
        timestamp: Date.now(),
        value: j % 100,
        properties: { plan: j % 2 ? 'pro' : 'free', country: 'DE', seats: j % 9, trial: false },
      })),
    ),
  )
}
const bodyBytes = bodies.reduce((n, b) => n + b.length, 0)

const count = async () => {
  const r = await ch.query({ query: `SELECT count() AS n FROM ${env.CLICKHOUSE_DATABASE}.events`, format: 'JSONEachRow' })
  return Number((await r.json())[0].n)
}
const t0 = performance.now()
let next = 0
let failed = 0
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < bodies.length) {
      const body = bodies[next++]
      const res = await fetch(`${url}/api/events/bulk`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body })
      await res.arrayBuffer()
      if (res.status !== 202) failed++
    }
  }),
)
const accepted = performance.now() - t0
while ((await count()) < total - failed * batch) await new Promise((r) => setTimeout(r, 50))
const stored = performance.now() - t0

const result = {
  events: total,
  requests: bodies.length,
  failedRequests: failed,
  bodyMiB: +(bodyBytes / 1048576).toFixed(1),
  concurrency,
  acceptSeconds: +(accepted / 1000).toFixed(2),
  acceptedEventsPerSecond: Math.round(total / (accepted / 1000)),
  endToEndSeconds: +(stored / 1000).toFixed(2),
  endToEndEventsPerSecond: Math.round(total / (stored / 1000)),
}
console.log(JSON.stringify(result))
await server.stop()
await ch.command({ query: `DROP DATABASE IF EXISTS ${env.CLICKHOUSE_DATABASE}` })
await ch.close()
const keys = await redis.keys(`${env.REDIS_KEY_PREFIX}*`)
if (keys.length) await redis.del(...keys)
await state.close()
