#!/usr/bin/env node
// Split Admin API v2 on this machine: upload 10,000 keys in one call, and page through 100,000 keys
// at limit 200 the way Split's clients loop. Needs `npm run build` and `npx sluice stack up` first.
//   node bench/segments.mjs [--rounds 5]
// Runs `sluice serve --roles admin` as its own process with a private Redis key prefix and the rate
// limit lifted; reports the median and the spread of each measurement over the rounds.
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { createRedisState } from '../dist/state/redis/index.js'
import { startServe } from './serve.mjs'

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, port: { type: 'string', default: '18082' } },
})
const rounds = Number(values.rounds)
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
  SLUICE_ADMIN_RATE_PER_SECOND: '100000',
  SLUICE_ADMIN_BURST: '100000',
}
const base = `http://127.0.0.1:${values.port}/internal/api/v2`
const state = createRedisState({ url: env.REDIS_URL ?? 'redis://127.0.0.1:6379', keyPrefix: prefix })
const { redis } = state
const demo = await state.tenancy.bootstrapDemo()
const envId = demo.environments[0].id
const server = await startServe(env, `http://127.0.0.1:${values.port}`, ['--roles', 'admin'])
const headers = { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' }

async function call(method, path, body) {
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const json = await res.json()
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
  return json
}
const keys = (n, p) => Array.from({ length: n }, (_, i) => `${p}${String(i).padStart(6, '0')}`)
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const upload = []
const paging = []
try {
  for (let r = 0; r < rounds; r++) {
    const name = `bench_${r}`
    await call('POST', `/segments/ws/${demo.workspaceId}/trafficTypes/user`, { name })
    await call('POST', `/segments/${envId}/${name}`, '')
    // Upload: 10 calls of 10,000 new keys each (the segment grows to the 100,000 limit).
    const all = keys(100_000, `user-${r}-`)
    const times = []
    for (let i = 0; i < all.length; i += 10_000) {
      const start = performance.now()
      await call('PUT', `/segments/${envId}/${name}/uploadKeys?replace=false`, {
        keys: all.slice(i, i + 10_000),
        comment: 'bench',
      })
      times.push(performance.now() - start)
    }
    upload.push(median(times))
    // Page through all 100,000 keys at limit 200: 500 requests, one after another.
    const start = performance.now()
    let offset = 0
    let seen = 0
    for (;;) {
      const page = await call('GET', `/segments/${envId}/${name}/keys?limit=200&offset=${offset}`)
      seen += page.keys.length
      if (page.count > page.offset + page.limit) offset = page.offset + page.limit
      else break
    }
    if (seen !== 100_000) throw new Error(`paged ${seen} keys, expected 100000`)
    paging.push(performance.now() - start)
    console.error(
      `round ${r + 1}: upload of 10,000 keys ${upload.at(-1).toFixed(1)} ms (median of 10 calls), 100,000 keys paged in ${paging.at(-1).toFixed(0)} ms`,
    )
  }
  const fmt = (xs, digits) =>
    `median ${median(xs).toFixed(digits)} ms (min ${Math.min(...xs).toFixed(digits)}, max ${Math.max(...xs).toFixed(digits)})`
  console.log(
    JSON.stringify({
      rounds,
      uploadOf10000KeysMs: median(upload),
      pageThrough100000KeysMs: median(paging),
      keysPerSecondPaged: Math.round(100_000 / (median(paging) / 1000)),
    }),
  )
  console.log(`upload 10,000 keys (one call):            ${fmt(upload, 1)}`)
  console.log(`page 100,000 keys at limit 200 (500 GETs): ${fmt(paging, 0)}`)
} finally {
  await server.stop()
  const left = await redis.keys(`${prefix}*`)
  if (left.length) await redis.del(...left)
  await state.close()
}
