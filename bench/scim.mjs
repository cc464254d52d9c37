#!/usr/bin/env node
// SCIM with JWT at scale on this machine: each call verifies the JWT (RS256, cached JWKS) and checks
// the flag, settings and service account in Redis. Needs `npm run build` and `npx sluice stack up`.
//   node bench/scim.mjs [--users 100000] [--posts 1000] [--calls 300] [--json bench/results/scim.json]
// Runs `sluice serve --roles admin` (private key prefix, settings delay 0, loopback JWKS allowed),
// times POST /Users one at a time, fills the account to --users through the directory store (the
// same Lua scripts and indexes as SCIM writes), then times, one call after another: filtered
// lookups by userName, by work email and by a group's displayName, pages of 100 from anywhere in
// the account, and a filter no index answers (a scan).
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { bootstrapDemoAccount } from '../dist/state/redis/demo.js'
import { createRedisState } from '../dist/state/redis/index.js'
import { deleteKeys, startServe } from './serve.mjs'

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    posts: { type: 'string', default: '1000' },
    calls: { type: 'string', default: '300' },
    port: { type: 'string', default: '18083' },
    json: { type: 'string' },
  },
})
const users = Number(values.users)
const posts = Math.min(users, Number(values.posts))
const calls = Number(values.calls)
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
  SLUICE_JWKS_ALLOW_INSECURE: 'true',
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
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]
const userOf = (i) => ({
  userName: `user${i}@example.com`,
  emails: [{ value: `user${i}@work.example`, type: 'work', primary: true }],
  name: { givenName: `Given${i}`, familyName: `Family${i % 1000}` },
  active: true,
})
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
  const jwt = await new SignJWT({ c: 'bench' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'JWT' })
    .setExpirationTime('1h')
    .sign(privateKey)
  const base = `${url}/gateway/ng/api/scim/account/${demo.accountId}`
  const headers = { authorization: `Bearer ${jwt}`, 'content-type': 'application/scim+json' }
  const timed = async (method, path, body, status, check) => {
    const start = performance.now()
    const res = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) })
    const json = await res.json().catch(() => undefined)
    const ms = performance.now() - start
    if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
    if (check && !check(json))
      throw new Error(`${method} ${path}: unexpected answer ${JSON.stringify(json).slice(0, 300)}`)
    return ms
  }

  const create = []
  for (let i = 0; i < posts; i++) create.push(await timed('POST', '/Users', userOf(i), 201))
  // The rest through the store, 200 writes in flight.
  const started = performance.now()
  for (let i = posts; i < users; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, users - i) }, (_, k) =>
        state.directory.createUser(demo.accountId, userOf(i + k)),
      ),
    )
  }
  const fillSeconds = (performance.now() - started) / 1000
  // 100 groups of 100 members each.
  const ids = await state.directory.userIds(demo.accountId, 0, 10_000)
  for (let g = 0; g < 100; g++)
    await state.directory.createGroup(demo.accountId, { displayName: `Group ${g}` }, ids.slice(g * 100, g * 100 + 100))

  const pick = (i) => (i * 7919) % users
  const one = (j) => j?.totalResults === 1 && j.Resources.length === 1
  const results = {
    postUser: create,
    filterUserName: [],
    filterWorkEmail: [],
    filterGroupName: [],
    page100: [],
  }
  for (let i = 0; i < calls; i++)
    results.filterUserName.push(
      await timed(
        'GET',
        `/Users?filter=${encodeURIComponent(`userName eq "USER${pick(i)}@example.com"`)}`,
        undefined,
        200,
        one,
      ),
    )
  for (let i = 0; i < calls; i++)
    results.filterWorkEmail.push(
      await timed(
        'GET',
        `/Users?filter=${encodeURIComponent(`emails[type eq "work"].value eq "user${pick(i)}@work.example"`)}`,
        undefined,
        200,
        one,
      ),
    )
  for (let i = 0; i < calls; i++)
    results.filterGroupName.push(
      await timed(
        'GET',
        `/Groups?filter=${encodeURIComponent(`displayName eq "group ${i % 100}"`)}&excludedAttributes=members`,
        undefined,
        200,
        one,
      ),
    )
  for (let i = 0; i < calls; i++) {
    const start = 1 + ((i * 9973) % (users - 100))
    results.page100.push(
      await timed(
        'GET',
        `/Users?startIndex=${start}&count=100`,
        undefined,
        200,
        (j) => j.totalResults === users + 1 && j.Resources.length === 100,
      ),
    )
  }
  const scan = []
  for (let i = 0; i < 5; i++)
    scan.push(
      await timed(
        'GET',
        `/Users?filter=${encodeURIComponent(`name.familyName eq "Family${i}"`)}&count=10`,
        undefined,
        200,
        (j) => j.totalResults === users / 1000,
      ),
    )

  const summary = Object.fromEntries(
    Object.entries({ ...results, scanFilter: scan }).map(([k, xs]) => [
      k,
      {
        calls: xs.length,
        p50: +quantile(xs, 0.5).toFixed(2),
        p99: +quantile(xs, 0.99).toFixed(2),
        max: +Math.max(...xs).toFixed(2),
      },
    ]),
  )
  const f = (s) => `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`
  console.log(
    `${users + 1} users in the account (${posts} by POST; the rest written through the store in ${fillSeconds.toFixed(1)} s), 100 groups of 100`,
  )
  console.log(`POST /Users (one at a time):                          ${f(summary.postUser)}`)
  console.log(`GET /Users?filter=userName eq:                        ${f(summary.filterUserName)}`)
  console.log(`GET /Users?filter=emails[type eq "work"].value eq:    ${f(summary.filterWorkEmail)}`)
  console.log(`GET /Groups?filter=displayName eq:                    ${f(summary.filterGroupName)}`)
  console.log(`GET /Users?startIndex=<anywhere>&count=100:           ${f(summary.page100)}`)
  console.log(`GET /Users?filter=name.familyName eq (no index, scan): ${f(summary.scanFilter)} (${scan.length} calls)`)
  if (values.json) {
    mkdirSync(dirname(values.json), { recursive: true })
    writeFileSync(values.json, JSON.stringify({ users, fillSeconds, ...summary }, null, 2))
  }
} finally {
  await server.stop()
  jwks.close()
  await deleteKeys(redis, prefix)
  await state.close()
}
