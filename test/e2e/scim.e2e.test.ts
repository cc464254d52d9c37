// Account settings and SCIM Users with JWT, end to end: a JWKS served over loopback HTTP with keys
// made here, settings written with a personal access token, SCIM calls through a running service.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { SCIM_PERMISSIONS, SETTINGS_PERMISSIONS } from '../../src/state/redis/platform.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'

const DELAY_SECONDS = 2
let t: TestEnv
let svc: RunningService
let demo: DemoAccount
let jwksServer: Server
let jwksUrl: string
const published: JWK[] = []
let jwksFetches = 0
let signing: { kid: string; privateKey: CryptoKey; publicJwk: JWK }

async function newKey(kid: string, alg = 'RS256') {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }
  return { kid, privateKey, publicJwk }
}

const CLAIM = 'scim_client'
const CLAIM_VALUE = 'okta-prod'

async function token(
  opts: {
    claims?: Record<string, unknown>
    exp?: number | null
    key?: typeof signing
    header?: Record<string, unknown>
  } = {},
): Promise<string> {
  const key = opts.key ?? signing
  const jwt = new SignJWT({ [CLAIM]: CLAIM_VALUE, sub: 'okta', ...opts.claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT', ...opts.header })
    .setIssuedAt()
  if (opts.exp !== null) jwt.setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 300)
  return jwt.sign(key.privateKey)
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')

async function scim(
  method: string,
  path: string,
  bearer: string | undefined,
  body?: unknown,
  account = demo.accountId,
) {
  const res = await fetch(`${svc.url}/gateway/ng/api/scim/account/${account}${path}`, {
    method,
    headers: {
      accept: 'application/scim+json',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}

async function putSettings(pat: string | undefined, items: unknown, account = demo.accountId) {
  const res = await fetch(`${svc.url}/gateway/ng/api/settings?accountIdentifier=${account}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(pat ? { 'x-api-key': pat } : {}) },
    body: JSON.stringify(items),
  })
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as any }
}

const setting = (identifier: string, value: string) => ({
  identifier,
  value,
  allowOverrides: false,
  updateType: 'UPDATE',
})
const scimSettings = () => [
  setting('scim_jwt_token_jwks_keys_url', jwksUrl),
  setting('scim_jwt_token_key_field', CLAIM),
  setting('scim_jwt_token_value_field', CLAIM_VALUE),
  setting('scim_jwt_token_service_account_id', demo.serviceAccountId!),
]

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_SETTINGS_DELAY_SECONDS: String(DELAY_SECONDS),
    SLUICE_JWKS_ALLOW_INSECURE: 'true',
    SLUICE_JWKS_COOLDOWN_MS: '0',
  })
  svc = await t.start(['admin'])
  demo = await t.bootstrap()
  signing = await newKey('key-1')
  published.push(signing.publicJwk)
  jwksServer = createServer((_req, res) => {
    jwksFetches++
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ keys: published }))
  })
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve))
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`
})

afterAll(async () => {
  jwksServer?.close()
  await t?.close()
})

describe('settings (PUT /gateway/ng/api/settings)', () => {
  it('refuses a missing, unknown, expired, other-account or under-privileged token in Harness shape', async () => {
    const ok = scimSettings()
    const noKey = await putSettings(undefined, ok)
    expect(noKey.status).toBe(401)
    expect(noKey.body).toMatchObject({
      status: 'ERROR',
      code: 'INVALID_TOKEN',
      correlationId: expect.any(String),
      responseMessages: [{ level: 'ERROR' }],
    })
    expect((await putSettings('pat.nope.nope.nope', ok)).status).toBe(401)
    const user = (await t.state.directory.users(demo.accountId))[0]!
    const expired = await t.platform.createPat({
      accountId: demo.accountId,
      userId: user.id,
      name: 'old',
      permissions: [...SETTINGS_PERMISSIONS],
      expiresAt: Date.now() - 1000,
    })
    expect((await putSettings(expired.token, ok)).status).toBe(401)
    const other = await t.tenancy.createAccount('Other')
    const otherUser = (await t.state.directory.createUser(other.id, { userName: 'o@example.com', active: true })).user
    const otherPat = await t.platform.createPat({
      accountId: other.id,
      userId: otherUser.id,
      name: 'o',
      permissions: [...SETTINGS_PERMISSIONS],
      expiresAt: Date.now() + 60_000,
    })
    expect((await putSettings(otherPat.token, ok)).status).toBe(401)
    const viewer = await t.platform.createPat({
      accountId: demo.accountId,
      userId: user.id,
      name: 'view',
      permissions: ['core_setting_view'],
      expiresAt: Date.now() + 60_000,
    })
    const forbidden = await putSettings(viewer.token, ok)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body.code).toBe('NG_ACCESS_DENIED')
    const read = await fetch(`${svc.url}/gateway/ng/api/settings?accountIdentifier=${demo.accountId}&category=SCIM`, {
      headers: { 'x-api-key': viewer.token },
    })
    expect(read.status).toBe(200)
    // A deprovisioned user's token stops working.
    const leaver = (
      await t.state.directory.createUser(demo.accountId, { userName: 'leaver@example.com', active: true })
    ).user
    const leaverPat = await t.platform.createPat({
      accountId: demo.accountId,
      userId: leaver.id,
      name: 'l',
      permissions: [...SETTINGS_PERMISSIONS],
      expiresAt: Date.now() + 60_000,
    })
    await t.state.directory.replaceUser(demo.accountId, leaver, { userName: leaver.userName, active: false })
    expect((await putSettings(leaverPat.token, ok)).status).toBe(401)
    await t.state.directory.deleteUser(demo.accountId, (await t.state.directory.user(demo.accountId, leaver.id))!)
    const noAccount = await fetch(`${svc.url}/gateway/ng/api/settings`, {
      method: 'PUT',
      headers: { 'x-api-key': demo.personalAccessToken!, 'content-type': 'application/json' },
      body: JSON.stringify(ok),
    })
    expect(noAccount.status).toBe(400)
    expect(await noAccount.json()).toMatchObject({
      status: 'FAILURE',
      code: 'INVALID_REQUEST',
      errors: [{ fieldId: 'accountIdentifier' }],
    })
  })

  it('applies the good items and fails the bad ones with their reason', async () => {
    await t.platform.saveServiceAccount({
      id: 'weak_sa',
      name: 'weak',
      accountId: demo.accountId,
      permissions: ['core_user_view'],
    })
    const res = await putSettings(demo.personalAccessToken, [
      setting('scim_jwt_token_key_field', 'placeholder'),
      setting('scim_jwt_token_jwks_keys_url', 'http://169.254.169.254/latest/meta-data'),
      setting('scim_jwt_token_jwks_keys_url', 'ftp://example.com/jwks'),
      setting('scim_jwt_token_jwks_keys_url', 'http://10.1.2.3/jwks'),
      setting('scim_jwt_token_service_account_id', 'nobody'),
      setting('scim_jwt_token_service_account_id', 'weak_sa'),
      setting('scim_jwt_token_something_else', 'x'),
      { identifier: 'scim_jwt_token_value_field', value: 'v', updateType: 'DELETE' },
      setting('scim_jwt_token_key_field', 'twice'),
    ])
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('SUCCESS')
    const results = res.body.data as {
      identifier: string
      updateStatus: boolean
      errorMessage: string | null
      effectiveAt: number | null
    }[]
    expect(results.map((r) => r.updateStatus)).toEqual([true, false, false, false, false, false, false, false, false])
    expect(results[0]!.effectiveAt).toBeGreaterThan(Date.now() + 1000)
    expect(results.slice(1).map((r) => r.errorMessage)).toEqual([
      expect.stringMatching(/resolves to public addresses only/),
      expect.stringMatching(/http or https URL/),
      expect.stringMatching(/resolves to public addresses only/),
      expect.stringMatching(/no service account nobody/),
      expect.stringMatching(/weak_sa lacks core_user_manage/),
      expect.stringMatching(/identifier must be one of/),
      expect.stringMatching(/updateType must be UPDATE or RESTORE/),
      expect.stringMatching(/appears more than once/),
    ])
  })

  it('puts new values in effect only after the delay, and shows them as pending until then', async () => {
    const res = await putSettings(demo.personalAccessToken, scimSettings())
    expect(res.body.data.every((r: { updateStatus: boolean }) => r.updateStatus)).toBe(true)
    const effectiveAt = res.body.data[0].effectiveAt as number
    const view = await fetch(`${svc.url}/gateway/ng/api/settings?accountIdentifier=${demo.accountId}&category=SCIM`, {
      headers: { 'x-api-key': demo.personalAccessToken! },
    })
    const pending = (
      (await view.json()) as {
        data: { setting: { identifier: string; value: string | null }; pendingValue: string | null }[]
      }
    ).data
    expect(pending.find((d) => d.setting.identifier === 'scim_jwt_token_jwks_keys_url')).toMatchObject({
      setting: { value: null },
      pendingValue: jwksUrl,
    })

    const before = await scim('GET', '/Users', await token())
    expect(before.status).toBe(401)
    await new Promise((r) => setTimeout(r, Math.max(0, effectiveAt - Date.now() + 50)))
    const after = await scim('GET', '/Users', await token())
    expect(after.status).toBe(200)
    expect(after.headers.get('content-type')).toMatch(/^application\/scim\+json/)
    expect(after.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
      Resources: [{ userName: 'admin@demo.local' }],
    })
  })
})

describe('SCIM JWT authentication', () => {
  const refusedWith = async (bearer: string | undefined, status: 401 | 403, account?: string) => {
    const res = await scim('GET', '/Users', bearer, undefined, account)
    expect(res.status).toBe(status)
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /)
    expect(res.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: String(status),
      detail: expect.any(String),
    })
    expect(res.body.detail).not.toMatch(/kid|signature|exp|claim|flag/i)
  }

  it('refuses every bad token with 401 and a generic detail, counting the precise reason', async () => {
    const stranger = await newKey('key-1') // same kid, other key: bad signature
    const unknownKid = await newKey('key-unpublished')
    const now = Math.floor(Date.now() / 1000)
    const unsignedPayload = { [CLAIM]: CLAIM_VALUE, exp: now + 300 }
    const hmacSecret = Buffer.from(JSON.stringify(signing.publicJwk))
    const { SignJWT: Sign } = await import('jose')
    const hs256 = await new Sign(unsignedPayload)
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1', typ: 'JWT' })
      .sign(hmacSecret)
    for (const [why, bearer] of [
      ['no token', undefined],
      ['not a JWT', 'abc.def'],
      ['bad signature', await token({ key: stranger })],
      ['unknown kid', await token({ key: unknownKid })],
      ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(unsignedPayload)}.`],
      ['HS256 with the public key', hs256],
      ['expired beyond the 30 s tolerance', await token({ exp: now - 120 })],
      ['no exp', await token({ exp: null })],
      ['claim missing', await token({ claims: { [CLAIM]: undefined } })],
      ['claim not a string', await token({ claims: { [CLAIM]: 42 } })],
      ['claim different', await token({ claims: { [CLAIM]: 'okta-staging' } })],
      ['typ not JWT', await token({ header: { typ: 'at+jose' } })],
      ['issued by the platform', await token({ claims: { iss: 'Harness Inc' } })],
    ] as const) {
      await expect(refusedWith(bearer, 401), why).resolves.toBeUndefined()
    }
    // Within the tolerance an expired token still passes.
    expect((await scim('GET', '/Users', await token({ exp: now - 10 }))).status).toBe(200)
    const metrics = await (await fetch(`${svc.url}/metrics`)).text()
    for (const reason of [
      'jws_signature_verification_failed',
      'jwks_no_matching_key',
      'jwt_expired',
      'claim_mismatch',
      'claim_not_a_string',
      'claim_missing',
      'header_typ_not_jwt',
    ]) {
      expect(metrics, reason).toMatch(new RegExp(`sluice_scim_auth_failures_total\\{reason="${reason}"\\} [1-9]`))
    }
  })

  it('refuses a token for another account, the flag off, and a service account without the permissions', async () => {
    const other = await t.tenancy.createAccount('Elsewhere')
    await refusedWith(await token(), 401, other.id)
    await t.platform.setFlag(demo.accountId, 'PL_SUPPORT_JWT_TOKEN_SCIM_API', false)
    await refusedWith(await token(), 401)
    await t.platform.setFlag(demo.accountId, 'PL_SUPPORT_JWT_TOKEN_SCIM_API', true)
    const sa = (await t.platform.serviceAccount(demo.accountId, demo.serviceAccountId!))!
    await t.platform.saveServiceAccount({
      ...sa,
      permissions: SCIM_PERMISSIONS.filter((p) => p !== 'core_user_invite'),
    })
    await refusedWith(await token(), 403)
    await t.platform.saveServiceAccount(sa)
    expect((await scim('GET', '/Users', await token())).status).toBe(200)
  })

  it('follows a key rotation through the JWKS (an unknown kid refetches it)', async () => {
    const next = await newKey('key-2')
    const fetchesBefore = jwksFetches
    published.push(next.publicJwk)
    expect((await scim('GET', '/Users', await token({ key: next }))).status).toBe(200)
    expect(jwksFetches).toBeGreaterThan(fetchesBefore)
    published.splice(0, 1) // key-1 retired
    signing = next
    expect((await scim('GET', '/Users', await token())).status).toBe(200)
  })
})

describe('SCIM Users (RFC 7644)', () => {
  let bearer: string
  beforeAll(async () => {
    bearer = await token()
  })

  it('creates, reads, replaces, patches and deletes a user', async () => {
    const created = await scim('POST', '/Users', bearer, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'Jane.Doe@Example.com',
      externalId: '00u1abcd',
      name: { givenName: 'Jane', familyName: 'Doe' },
      emails: [{ value: 'jane.doe@example.com', type: 'work', primary: true }],
      active: true,
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(created.body.meta.location)
    expect(created.body).toMatchObject({
      id: expect.any(String),
      userName: 'Jane.Doe@Example.com',
      active: true,
      meta: { resourceType: 'User', version: 'W/"1"' },
    })
    const id = created.body.id as string
    expect((await scim('POST', '/Users', bearer, { userName: 'jane.doe@example.com' })).body).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
    })
    expect((await scim('GET', `/Users/${id}`, bearer)).body.externalId).toBe('00u1abcd')

    const replaced = await scim('PUT', `/Users/${id}`, bearer, {
      userName: 'jane@example.com',
      name: { givenName: 'Jane' },
      active: true,
    })
    expect(replaced.body).toMatchObject({
      userName: 'jane@example.com',
      name: { givenName: 'Jane' },
      meta: { version: 'W/"2"' },
    })
    expect(replaced.body.externalId).toBeUndefined()
    // Microsoft Entra's soft delete: PATCH active with a string value.
    const patched = await scim('PATCH', `/Users/${id}`, bearer, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'add', path: 'emails[type eq "work"].value', value: 'jane@corp.example' },
      ],
    })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ active: false, emails: [{ type: 'work', value: 'jane@corp.example' }] })
    const noPath = await scim('PATCH', `/Users/${id}`, bearer, {
      Operations: [{ op: 'replace', value: { active: true, displayName: 'Jane D.', name: { familyName: 'Doe' } } }],
    })
    expect(noPath.body).toMatchObject({
      active: true,
      displayName: 'Jane D.',
      name: { givenName: 'Jane', familyName: 'Doe' },
    })
    const added = await scim('PATCH', `/Users/${id}`, bearer, {
      Operations: [
        { op: 'add', path: 'emails', value: [{ value: 'jane@home.example', type: 'home' }] },
        {
          op: 'replace',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
          value: 'Sales',
        },
        { op: 'remove', path: 'urn:ietf:params:scim:schemas:core:2.0:User:displayName' },
      ],
    })
    expect(added.status).toBe(200)
    expect(added.body.emails).toEqual([
      { type: 'work', value: 'jane@corp.example' },
      { type: 'home', value: 'jane@home.example' },
    ])
    expect(added.body.displayName).toBeUndefined()
    expect(
      (await scim('PATCH', `/Users/${id}`, bearer, { Operations: [{ op: 'replace', path: '__proto__', value: {} }] }))
        .body.scimType,
    ).toBe('invalidPath')
    expect(
      (await scim('PATCH', `/Users/${id}`, bearer, { Operations: [{ op: 'replace', path: 'password', value: 'x' }] }))
        .body,
    ).toMatchObject({ status: '400', scimType: 'invalidPath' })

    expect((await scim('DELETE', `/Users/${id}`, bearer)).status).toBe(204)
    const gone = await scim('GET', `/Users/${id}`, bearer)
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '404',
      detail: expect.stringMatching(/not found/),
    })
    // The userName is free again.
    expect((await scim('POST', '/Users', bearer, { userName: 'jane@example.com' })).status).toBe(201)
  })

  it('filters and pages as identity providers expect', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await scim('POST', '/Users', bearer, {
        userName: `user${i}@example.com`,
        externalId: `ext-${i}`,
        emails: [{ value: `user${i}@Example.com`, type: i % 2 ? 'home' : 'work' }],
      })
      expect(res.status).toBe(201)
    }
    const list = async (query: string) => (await scim('GET', `/Users?${query}`, bearer)).body
    expect(await list(`filter=${encodeURIComponent('userName eq "USER3@EXAMPLE.COM"')}`)).toMatchObject({
      totalResults: 1,
      Resources: [{ userName: 'user3@example.com' }],
    })
    expect(await list(`filter=${encodeURIComponent('externalId eq "ext-2"')}`)).toMatchObject({
      totalResults: 1,
      Resources: [{ externalId: 'ext-2' }],
    })
    expect(await list(`filter=${encodeURIComponent('emails.value eq "user4@example.com"')}`)).toMatchObject({
      totalResults: 1,
    })
    expect(
      (await list(`filter=${encodeURIComponent('emails[type eq "work"].value eq "user1@example.com"')}`)).totalResults,
    ).toBe(0)
    expect(
      (await list(`filter=${encodeURIComponent('emails[type eq "work"].value eq "user2@example.com"')}`)).totalResults,
    ).toBe(1)
    expect(
      (await list(`filter=${encodeURIComponent('userName eq "user1@example.com" and externalId eq "ext-1"')}`))
        .totalResults,
    ).toBe(1)
    expect(
      (
        await list(
          `filter=${encodeURIComponent('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "User1@example.com"')}`,
        )
      ).totalResults,
    ).toBe(1)
    // Type and value must hold for the same email.
    const twoEmails = await scim('POST', '/Users', bearer, {
      userName: 'two@example.com',
      emails: [
        { value: 'a@x.example', type: 'work' },
        { value: 'victim@x.example', type: 'home' },
      ],
    })
    expect(
      (await list(`filter=${encodeURIComponent('emails[type eq "work"].value eq "victim@x.example"')}`)).totalResults,
    ).toBe(0)
    expect(
      (await list(`filter=${encodeURIComponent('emails[type eq "Work"].value eq "A@x.example"')}`)).totalResults,
    ).toBe(1)
    expect((await scim('DELETE', `/Users/${twoEmails.body.id}`, bearer)).status).toBe(204)
    const started = Date.now()
    const nasty = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${'\n'.repeat(60)}`)}`, bearer)
    expect(nasty.body.scimType).toBe('invalidFilter')
    expect(Date.now() - started).toBeLessThan(1000)
    expect((await scim('GET', '/Users?filter=x&filter=y', bearer)).body.scimType).toBe('invalidFilter')
    expect(await list(`filter=${encodeURIComponent('userName eq "nobody@example.com"')}`)).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      Resources: [],
      startIndex: 1,
      itemsPerPage: 0,
    })
    const bad = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq')}`, bearer)
    expect(bad.status).toBe(400)
    expect(bad.body.scimType).toBe('invalidFilter')

    const all = await list('')
    expect(all.totalResults).toBe(7) // demo admin, jane, 5 users
    expect(await list('startIndex=1&count=2')).toMatchObject({ startIndex: 1, itemsPerPage: 2, totalResults: 7 })
    expect((await list('startIndex=0&count=2')).Resources.map((u: { id: string }) => u.id)).toEqual(
      all.Resources.slice(0, 2).map((u: { id: string }) => u.id),
    )
    expect(await list('startIndex=7&count=5')).toMatchObject({ startIndex: 7, itemsPerPage: 1 })
    expect(await list('count=0')).toMatchObject({ totalResults: 7, Resources: [], itemsPerPage: 0 })
    expect(await list('count=-3')).toMatchObject({ totalResults: 7, Resources: [], itemsPerPage: 0 })
    expect(await list('startIndex=50')).toMatchObject({ totalResults: 7, Resources: [], startIndex: 50 })
    expect((await scim('GET', '/Users?count=abc', bearer)).status).toBe(400)
  })

  it('validates input and answers discovery resources', async () => {
    expect((await scim('POST', '/Users', bearer, { emails: [] })).body).toMatchObject({
      status: '400',
      scimType: 'invalidValue',
      detail: expect.stringMatching(/userName/),
    })
    expect(
      (await scim('POST', '/Users', bearer, { userName: 'x@example.com', emails: [{ value: 'not-an-email' }] })).status,
    ).toBe(400)
    const json = await fetch(`${svc.url}/gateway/ng/api/scim/account/${demo.accountId}/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'plain-json@example.com' }),
    })
    expect(json.status).toBe(201)
    const spc = await scim('GET', '/ServiceProviderConfig', bearer)
    expect(spc.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
      bulk: { supported: false },
      etag: { supported: true },
      sort: { supported: false },
    })
    expect((await scim('GET', '/ResourceTypes', bearer)).body).toMatchObject({
      totalResults: 2,
      Resources: [
        { id: 'User', endpoint: '/Users' },
        { id: 'Group', endpoint: '/Groups' },
      ],
    })
    expect((await scim('GET', '/Schemas', bearer)).body.Resources.map((r: { id: string }) => r.id)).toEqual([
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ])
    // Discovery resources are read-only: other methods are 405 with a SCIM error and Allow: GET.
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const path of ['/ServiceProviderConfig', '/ResourceTypes', '/Schemas', '/ResourceTypes/User']) {
        const res = await scim(method, path, bearer, method === 'DELETE' ? undefined : {})
        expect(res.status, `${method} ${path}`).toBe(405)
        expect(res.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '405' })
        expect(res.headers.get('allow')).toBe('GET')
      }
    }
  })
})

describe('sluice users, service-accounts, pats and flags', () => {
  it('prepare a new account for SCIM from the command line', async () => {
    const { runSluice } = await import('../support/cli.js')
    const run = async (...args: string[]) => {
      const r = await runSluice(args, t.env)
      if (r.code !== 0) throw new Error(`sluice ${args.join(' ')}: ${r.stderr}`)
      return r.stdout.trim()
    }
    const account = await run('accounts', 'create', 'Corp')
    const userId = await run('users', 'create', 'it-admin@corp.example', '--account', account)
    expect(
      JSON.parse(await run('service-accounts', 'create', 'scim_sa', '--scim', '--account', account, '--json')),
    ).toMatchObject({
      id: 'scim_sa',
      permissions: expect.arrayContaining([...SCIM_PERMISSIONS]),
    })
    const pat = await run('pats', 'create', '--user', userId, '--expires-in-days', '1', '--account', account)
    expect(pat).toMatch(new RegExp(`^pat\\.${account}\\.`))
    await run('flags', 'enable', 'PL_SUPPORT_JWT_TOKEN_SCIM_API', '--account', account)
    expect(await run('flags', 'list', '--account', account)).toBe('PL_SUPPORT_JWT_TOKEN_SCIM_API')
    const res = await putSettings(
      pat,
      [setting('scim_jwt_token_service_account_id', 'scim_sa'), setting('scim_jwt_token_key_field', 'sub')],
      account,
    )
    expect(res.status).toBe(200)
    expect(res.body.data.map((d: { updateStatus: boolean }) => d.updateStatus)).toEqual([true, true])
    const refused = await runSluice(['pats', 'create', '--user', 'nobody', '--account', account], t.env)
    expect(refused.code).toBe(2)
  })
})

describe('demo bootstrap', () => {
  it('carries a settings token and a SCIM service account', async () => {
    expect(demo.personalAccessToken).toMatch(/^pat\./)
    expect((await t.platform.serviceAccount(demo.accountId, demo.serviceAccountId!))?.permissions).toEqual(
      expect.arrayContaining([...SCIM_PERMISSIONS]),
    )
    await waitFor(
      'same demo on a second bootstrap',
      async () => ((await t.bootstrap()).personalAccessToken === demo.personalAccessToken ? true : undefined),
      2000,
    )
  })
})

describe("the administration page's runnable example", () => {
  it('examples/scim-jwt.mjs goes from settings to a first SCIM call', async () => {
    const { writeFile } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const path = await import('node:path')
    const join = (...parts: string[]) => path.join(...parts)
    const { spawn } = await import('node:child_process')
    const { fileURLToPath } = await import('node:url')
    const demoFile = join(tmpdir(), `sluice-demo-${Date.now()}.json`)
    await writeFile(demoFile, JSON.stringify(demo))
    const script = fileURLToPath(new URL('../../examples/scim-jwt.mjs', import.meta.url))
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [script, '--url', svc.url, '--demo', demoFile], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout.on('data', (d: Buffer) => (output += d.toString()))
      child.stderr.on('data', (d: Buffer) => (output += d.toString()))
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, output }))
    })
    expect(output).toMatch(/POST \/Users: 201/)
    expect(output).toMatch(/1 match/)
    expect(code, output).toBe(0)
  }, 30_000)
})
