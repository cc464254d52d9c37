#!/usr/bin/env node
// SCIM with JWT on this machine: each call verifies the JWT (RS256, cached JWKS) and checks the
// flag, settings and service account in Redis. Needs `npm run build` and `npx sluice stack up`.
//   node bench/scim.mjs [--users 1000]
// Runs `sluice serve --roles admin` (private key prefix, settings delay 0, loopback JWKS allowed),
// creates the users one POST at a time, then times filtered lookups and pages of 100, sequentially.
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'
import { createRedisState } from '../dist/state/redis/index.js'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { bootstrapDemoAccount } from '../dist/state/redis/demo.js'
import { startServe } from './serve.mjs'

const { values } = parseArgs({ options: { users: { type: 'string', default: '1000' }, port: { type: 'string', default: '18083' } } })
const n = Number(values.users)
const id = randomBytes(4).toString('hex')
const prefix = `bench:${id}:`
const env = {
  ...process.env,
  REDIS_KEY_PREFIX: prefix,
  KAFKA_TOPIC_PREFIX: `bench-${id}.`,
  CLICKHOUSE_DATABASE: `bench_${id}`,
  SLUICE_PORT: values.port,
  SLUICE_LOG_LEVEL: 'warn',
  SLUICE_SETTINGS_DELAY_SECONDS: '0',
  SLUICE_OUTBOUND_ALLOW_INSECURE: 'true',
}
const url = `http://127.0.0.1:${values.port}`
const state = createRedisState({ url: env.REDIS_URL ?? 'redis://127.0.0.1:6379', keyPrefix: prefix })
const { redis } = state
const demo = await bootstrapDemoAccount(state)
const { privateKey, publicKey } = await generateKeyPair('RS256')
const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }
const jwks = createServer((_q, res) => res.end(JSON.stringify({ keys: [jwk] })))
await new Promise((r) => jwks.listen(0, '127.0.0.1', r))
const server = await startServe(env, url, ['--roles', 'admin'])
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]
try {
  const settings = [
    ['scim_jwt_token_jwks_keys_url', `http://127.0.0.1:${jwks.address().port}/jwks`],
    ['scim_jwt_token_key_field', 'c'],
    ['scim_jwt_token_value_field', 'bench'],
    ['scim_jwt_token_service_account_id', demo.serviceAccountId],
  ]
  const put = await fetch(`${url}/gateway/ng/api/settings?accountIdentifier=${demo.accountId}`, {
    method: 'PUT',
    headers: { 'x-api-key': demo.personalAccessToken, 'content-type': 'application/json' },
    body: JSON.stringify(settings.map(([identifier, value]) => ({ identifier, value, updateType: 'UPDATE' }))),
  })
  if (!put.ok) throw new Error(`settings: ${put.status}`)
  const jwt = await new SignJWT({ c: 'bench' }).setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'JWT' }).setExpirationTime('10m').sign(privateKey)
  const base = `${url}/gateway/ng/api/scim/account/${demo.accountId}`
  const headers = { authorization: `Bearer ${jwt}`, 'content-type': 'application/scim+json' }
  const timed = async (method, path, body, status) => {
    const start = performance.now()
    const res = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) })
    await res.arrayBuffer()
    if (res.status !== status) throw new Error(`${method} ${path}: ${res.status}`)
    return performance.now() - start
  }
  const create = []
  for (let i = 0; i < n; i++) create.push(await timed('POST', '/Users', { userName: `user${i}@example.com`, emails: [{ value: `user${i}@example.com`, type: 'work' }] }, 201))
  const filter = []
  for (let i = 0; i < 200; i++) filter.push(await timed('GET', `/Users?filter=${encodeURIComponent(`userName eq "USER${(i * 7) % n}@example.com"`)}`, undefined, 200))
  const page = []
  for (let i = 0; i < 200; i++) page.push(await timed('GET', `/Users?startIndex=${1 + ((i * 100) % n)}&count=100`, undefined, 200))
  const f = (xs) => `p50 ${p50(xs).toFixed(1)} ms, p99 ${p99(xs).toFixed(1)} ms`
  console.log(`POST /Users (${n}, one at a time):        ${f(create)}`)
  console.log(`GET /Users?filter=userName eq (of ${n + 1}): ${f(filter)}`)
  console.log(`GET /Users?count=100 (of ${n + 1}):          ${f(page)}`)
} finally {
  await server.stop()
  jwks.close()
  const left = await redis.keys(`${prefix}*`)
  if (left.length) await redis.del(...left)
  await state.close()
}
