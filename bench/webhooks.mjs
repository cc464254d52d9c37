#!/usr/bin/env node
// Webhook throughput and latency on this machine: POST /api/v1/webhook/<id> → Kafka → alerts
// consumer → Redis stream. Needs `npm run build` and `npx sluice stack up` first.
//   node bench/webhooks.mjs [--requests 20000] [--concurrency 32]
// Runs `sluice serve` as its own process (private topic prefix and key prefix, rate limit lifted),
// creates a generic integration whose mapping copies the sender's clock into a custom field, and
// reports requests/s answered 202, the 202 latency, and POST-to-stream latency (the stream entry's id
// is Redis's clock at XADD; same machine, same clock).
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { createRedisState } from '../dist/state/redis/index.js'
import { startServe } from './serve.mjs'

const { values } = parseArgs({ options: { requests: { type: 'string', default: '20000' }, concurrency: { type: 'string', default: '32' }, port: { type: 'string', default: '18081' } } })
const total = Number(values.requests)
const concurrency = Number(values.concurrency)
const id = randomBytes(4).toString('hex')
const prefix = `bench:${id}:`
const env = {
  ...process.env,
  KAFKA_TOPIC_PREFIX: `bench-${id}.`,
  KAFKA_GROUP_PREFIX: `bench-${id}.`,
  CLICKHOUSE_DATABASE: `bench_${id}`,
  REDIS_KEY_PREFIX: prefix,
  SLUICE_PORT: values.port,
  SLUICE_LOG_LEVEL: 'warn',
  SLUICE_WEBHOOK_RATE_PER_SECOND: '100000',
  SLUICE_WEBHOOK_BURST: '100000',
}
const url = `http://127.0.0.1:${values.port}`
const state = createRedisState({ url: env.REDIS_URL ?? 'redis://127.0.0.1:6379', keyPrefix: prefix })
const { redis } = state
const admin = (await state.store.bootstrapDemo()).adminApiKey
const server = await startServe(env, url)
const created = await (
  await fetch(`${url}/api/v1/integrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'bench',
      template: 'generic',
      mapping: {
        severity: '{{webhook.severity}}',
        description: '{{webhook.message}}',
        source: 'bench',
        correlationId: '{{webhook.id}}',
        customFields: { sentAt: '{{webhook.sentAt}}' },
        defaults: { severity: 'warning', description: 'no message' },
      },
    }),
  })
).json()
if (!created.webhookUrl) throw new Error(`integration not created: ${JSON.stringify(created)}`)
const path = new URL(created.webhookUrl).pathname
const stream = `${prefix}alerts:integration:${created.id}`

const ackMs = []
let next = 0
let failed = 0
const t0 = performance.now()
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < total) {
      const n = next++
      const sent = performance.now()
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ severity: 'warning', message: `disk ${n} filling up`, id: `b-${n}`, sentAt: Date.now(), host: 'db-1', labels: { team: 'dba', env: 'prod' } }),
      })
      await res.arrayBuffer()
      if (res.status === 202) ackMs.push(performance.now() - sent)
      else failed++
    }
  }),
)
const acceptSeconds = (performance.now() - t0) / 1000
while ((await redis.xlen(stream)) < total - failed) await new Promise((r) => setTimeout(r, 50))
const storedSeconds = (performance.now() - t0) / 1000

const toStream = []
for (let start = '-'; ;) {
  const entries = await redis.xrange(stream, start, '+', 'COUNT', 5000)
  for (const [entryId, f] of entries) toStream.push(Number(entryId.split('-')[0]) - Number(f[f.indexOf('customFields') + 1] ? JSON.parse(f[f.indexOf('customFields') + 1]).sentAt : 0))
  if (entries.length < 5000) break
  start = `(${entries.at(-1)[0]}`
}
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1)
}
console.log(
  JSON.stringify({
    requests: total,
    failed,
    concurrency,
    requestsPerSecond: Math.round(total / acceptSeconds),
    allStoredSeconds: +storedSeconds.toFixed(2),
    ackMs: { p50: pct(ackMs, 50), p95: pct(ackMs, 95), p99: pct(ackMs, 99) },
    postToStreamMs: { p50: pct(toStream, 50), p95: pct(toStream, 95), p99: pct(toStream, 99) },
  }),
)
await server.stop()
const keys = await redis.keys(`${prefix}*`)
if (keys.length) await redis.del(...keys)
await state.close()
