#!/usr/bin/env node
// npm run bench:alerts-consumer: the alerts consumer's CPU per payload, and Redis's, on the real Redis
// of the local stack (`npx sluice stack up`; `npm run build` first). Batches of 500 Alertmanager
// payloads (3 alerts each, the built-in mapping) go through AlertsConsumer.handle: decode, render,
// one script call per 100 messages. CPU time is counted rather than throughput, so that a change can
// be compared on a machine whose speed drifts: run it against a build of the commit before
// (DIST=/path/to/that/dist, a dist/ beside this repo's schemas/) in turns.
//
//   [N=40] [DIST=...] node bench/alerts-consumer.mjs
import { Redis } from 'ioredis'
import { alertmanagerPayload } from './payloads.mjs'
import { deleteKeys } from './serve.mjs'

const D = process.env.DIST ?? new URL('../dist', import.meta.url).href
const { encodeAlertMessage } = await import(`${D}/broker/messages/alerts.js`)
const { AlertsConsumer, IntegrationCache } = await import(`${D}/consumers/alerts.consumer.js`)
const { RedisAlertSink } = await import(`${D}/sinks/redis-stream/alerts.sink.js`)
const { createLogger } = await import(`${D}/shared/logger.js`)
const { createMetrics } = await import(`${D}/shared/metrics.js`)
const { ALERT_TEMPLATES } = await import(`${D}/pipeline/alerts/templates.js`)
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
const prefix = `cpu:${Math.random().toString(16).slice(2, 8)}:`
const mapping = ALERT_TEMPLATES.alertmanager.mapping
// An integration of an account, with the lifecycle (repeats written to the streams, as each payload repeats the same
// three alerts).
const store = {
  byId: (id) => Promise.resolve({ id, accountId: 'a1', mapping, emitRepeats: process.env.REPEATS !== '0' }),
}
const payload = JSON.stringify(alertmanagerPayload())
let offset = 0n
const batch = (n) => ({
  topic: 'alerts',
  partition: 0,
  highWatermark: 0n,
  messages: Array.from({ length: n }, (_, i) => {
    const m = encodeAlertMessage(
      payload,
      { integrationId: 'i1', accountId: 'a1', receivedAtMs: Date.now(), requestId: `r${i}` },
      1 << 20,
    )
    return { offset: offset++, value: m.value, headers: m.headers }
  }),
})
const metrics = createMetrics({ defaults: false })
const consumer = new AlertsConsumer(
  new IntegrationCache(store, 60_000),
  // This build's sink takes (redis, options); builds before it (redis, prefix, maxLen, maxAgeMs).
  RedisAlertSink.length >= 4
    ? new RedisAlertSink(redis, prefix, 100_000, 3_600_000)
    : new RedisAlertSink(redis, { prefix, maxLen: 100_000, maxAgeMs: 3_600_000 }),
  metrics,
  createLogger('silent'),
)
const redisCpu = async () => {
  const info = await redis.info('cpu')
  return Number(/used_cpu_user:([\d.]+)/.exec(info)[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)[1])
}
const ctx = { signal: new AbortController().signal }
for (let i = 0; i < 10; i++) await consumer.handle(batch(500), ctx)
const N = Number(process.env.N ?? 40),
  SIZE = 500
const batches = Array.from({ length: N }, () => batch(SIZE))
const r0 = await redisCpu()
const c0 = process.cpuUsage()
const t0 = performance.now()
for (const b of batches) await consumer.handle(b, ctx)
const c = process.cpuUsage(c0)
const wall = performance.now() - t0
const r = (await redisCpu()) - r0
const n = N * SIZE
console.log(
  `consumer ${((c.user + c.system) / n).toFixed(1)} µs CPU/payload, redis ${((r * 1e6) / n).toFixed(1)} µs/payload, wall ${((wall * 1000) / n).toFixed(1)} µs/payload`,
)
await deleteKeys(redis, prefix)
await redis.quit()
