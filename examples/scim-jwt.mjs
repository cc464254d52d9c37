#!/usr/bin/env node
// From settings to a first SCIM call, end to end, against a running Sluice (docs/admins.md, SCIM
// with JWT). Plays the identity provider: makes an RSA key, serves its JWKS on 127.0.0.1,
// writes the four SCIM JWT settings with the demo account's personal access token, waits until they
// are in effect, then lists and creates users with a JWT it signs.
//
//   SLUICE_JWKS_ALLOW_INSECURE=true SLUICE_SETTINGS_DELAY_SECONDS=5 npm start   # in one terminal
//   node examples/scim-jwt.mjs [--url http://127.0.0.1:8080] [--demo .sluice/demo.json] # in another
// (A real identity provider serves its JWKS over https on a public address: then neither variable is needed.)
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'

const { values } = parseArgs({
  options: { url: { type: 'string', default: 'http://127.0.0.1:8080' }, demo: { type: 'string' } },
})
const demo = JSON.parse(await readFile(values.demo ?? new URL('../.sluice/demo.json', import.meta.url), 'utf8'))
const account = demo.accountId

// 1. The identity provider's signing key and its JWKS.
const { privateKey, publicKey } = await generateKeyPair('RS256')
const jwk = { ...(await exportJWK(publicKey)), kid: 'idp-key-1', alg: 'RS256', use: 'sig' }
const jwks = createServer((_req, res) =>
  res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [jwk] })),
)
await new Promise((resolve) => jwks.listen(0, '127.0.0.1', resolve))
const jwksUrl = `http://127.0.0.1:${jwks.address().port}/jwks.json`

// 2. The four settings, written with a personal access token (x-api-key).
const settings = [
  ['scim_jwt_token_jwks_keys_url', jwksUrl],
  ['scim_jwt_token_key_field', 'scim_client'],
  ['scim_jwt_token_value_field', 'example-idp'],
  ['scim_jwt_token_service_account_id', demo.serviceAccountId],
].map(([identifier, value]) => ({ identifier, value, allowOverrides: false, updateType: 'UPDATE' }))
const put = await fetch(`${values.url}/gateway/ng/api/settings?accountIdentifier=${account}`, {
  method: 'PUT',
  headers: { 'x-api-key': demo.personalAccessToken, 'content-type': 'application/json', accept: 'application/json' },
  body: JSON.stringify(settings),
})
const written = await put.json()
console.log(
  'settings:',
  put.status,
  written.data?.map((d) => `${d.identifier} ${d.updateStatus ? 'ok' : d.errorMessage}`).join('; ') ?? written,
)
if (!put.ok || !written.data.every((d) => d.updateStatus)) process.exit(1)
const effectiveAt = Math.max(...written.data.map((d) => d.effectiveAt))
console.log(
  `in effect at ${new Date(effectiveAt).toISOString()}; waiting ${Math.ceil((effectiveAt - Date.now()) / 1000)} s`,
)
await new Promise((r) => setTimeout(r, Math.max(0, effectiveAt - Date.now() + 100)))

// 3. A JWT as the identity provider would send it, and the first SCIM calls.
const jwt = await new SignJWT({ scim_client: 'example-idp' })
  .setProtectedHeader({ alg: 'RS256', kid: 'idp-key-1', typ: 'JWT' })
  .setIssuedAt()
  .setExpirationTime('5m')
  .sign(privateKey)
const base = `${values.url}/gateway/ng/api/scim/account/${account}`
const headers = {
  authorization: `Bearer ${jwt}`,
  accept: 'application/scim+json',
  'content-type': 'application/scim+json',
}
const list = await fetch(`${base}/Users?startIndex=1&count=10`, { headers })
console.log('GET /Users:', list.status, JSON.stringify(await list.json()))
const userName = `new.hire.${Date.now()}@example.com`
const created = await fetch(`${base}/Users`, {
  method: 'POST',
  headers,
  body: JSON.stringify({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
    emails: [{ value: userName, type: 'work', primary: true }],
    active: true,
  }),
})
console.log('POST /Users:', created.status, JSON.stringify(await created.json()))
const found = await fetch(`${base}/Users?filter=${encodeURIComponent(`userName eq "${userName.toUpperCase()}"`)}`, {
  headers,
})
console.log('GET /Users?filter=userName eq …:', found.status, (await found.json()).totalResults, 'match')
jwks.close()
process.exit(list.ok && created.status === 201 ? 0 : 1)
