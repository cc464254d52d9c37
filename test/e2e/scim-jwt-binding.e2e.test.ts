// The optional JWT bindings beyond Harness's four settings: an expected issuer and audience, a
// maximum token lifetime (exp - iat), and a required nbf. Unset, a Harness-style token passes; set,
// each refuses what it should with a generic 401, the reason counted in the metric only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createScimTestEnv, type IdentityProvider, type ScimTestEnv } from '../support/scim-idp.js'

let env: ScimTestEnv
let svc: RunningService
let demo: DemoAccount
let idp: IdentityProvider

beforeAll(async () => {
  env = await createScimTestEnv(false)
  ;({ svc, demo, idp } = env)
}, 120_000)
afterAll(async () => env?.close())

const ISSUER = 'https://idp.example/tenant-a'
const AUDIENCE = 'sluice-scim-tenant-a'
const now = () => Math.floor(Date.now() / 1000)

async function call(token: string): Promise<{ status: number; detail?: string }> {
  const res = await fetch(`${svc.url}/gateway/ng/api/scim/account/${demo.accountId}/Users?count=1`, {
    headers: { authorization: `Bearer ${token}` },
  })
  const body = (await res.json()) as { detail?: string }
  return { status: res.status, detail: body.detail }
}

async function failures(reason: string): Promise<number> {
  const text = await (await fetch(`${svc.url}/metrics`)).text()
  return Number(
    new RegExp(`^sluice_scim_auth_failures_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
  )
}

/** The call is refused with the generic 401, and the precise reason is counted once. */
async function refused(token: string, reason: string): Promise<void> {
  const before = await failures(reason)
  expect(await call(token)).toEqual({ status: 401, detail: 'authentication failed' })
  expect(await failures(reason)).toBe(before + 1)
}

describe('without the optional bindings (Harness-compatible)', () => {
  it('accepts a token whatever its issuer, audience and lifetime, and without nbf', async () => {
    await idp.configure(svc.url, demo)
    expect(
      (await call(await idp.token({ claims: { iss: 'anyone', aud: 'anything' }, lifetime: 30 * 86_400 }))).status,
    ).toBe(200)
    expect((await call(await idp.token())).status).toBe(200)
    // nbf, when a token carries one, is always checked.
    await refused(await idp.token({ nbf: now() + 600 }), 'not_yet_valid')
  })
})

describe('with each binding set', () => {
  it('an expected issuer refuses another issuer and a token without one', async () => {
    await idp.configure(svc.url, demo, { scim_jwt_token_issuer: ISSUER })
    await refused(await idp.token({ claims: { iss: 'https://idp.example/tenant-b' } }), 'issuer_mismatch')
    await refused(await idp.token(), 'iss_missing')
    expect((await call(await idp.token({ claims: { iss: ISSUER } }))).status).toBe(200)
  })

  it('an expected audience refuses a token minted for another application', async () => {
    await idp.configure(svc.url, demo, { scim_jwt_token_issuer: ISSUER, scim_jwt_token_audience: AUDIENCE })
    await refused(await idp.token({ claims: { iss: ISSUER, aud: 'another-app' } }), 'audience_mismatch')
    await refused(await idp.token({ claims: { iss: ISSUER } }), 'aud_missing')
    expect((await call(await idp.token({ claims: { iss: ISSUER, aud: [AUDIENCE, 'other'] } }))).status).toBe(200)
  })

  it('a maximum lifetime refuses a long-lived token and one without iat', async () => {
    await idp.configure(svc.url, demo, {
      scim_jwt_token_issuer: ISSUER,
      scim_jwt_token_audience: AUDIENCE,
      scim_jwt_token_max_lifetime_seconds: '900',
    })
    const bound = { iss: ISSUER, aud: AUDIENCE }
    await refused(await idp.token({ claims: bound, lifetime: 3600 }), 'lifetime_too_long')
    await refused(await idp.token({ claims: { ...bound, iat: undefined } }), 'iat_missing')
    expect((await call(await idp.token({ claims: bound, lifetime: 900 }))).status).toBe(200)
  })

  it('a required nbf refuses a token without one, and one not valid yet', async () => {
    await idp.configure(svc.url, demo, {
      scim_jwt_token_issuer: ISSUER,
      scim_jwt_token_audience: AUDIENCE,
      scim_jwt_token_max_lifetime_seconds: '900',
      scim_jwt_token_require_nbf: 'true',
    })
    const bound = { iss: ISSUER, aud: AUDIENCE }
    await refused(await idp.token({ claims: bound }), 'nbf_missing')
    await refused(await idp.token({ claims: bound, nbf: now() + 600 }), 'not_yet_valid')
    expect((await call(await idp.token({ claims: bound, nbf: now() }))).status).toBe(200)
  })

  it('refuses malformed binding values in the settings API', async () => {
    const res = await fetch(`${svc.url}/gateway/ng/api/settings?accountIdentifier=${demo.accountId}`, {
      method: 'PUT',
      headers: { 'x-api-key': demo.personalAccessToken!, 'content-type': 'application/json' },
      body: JSON.stringify([
        {
          identifier: 'scim_jwt_token_max_lifetime_seconds',
          value: 'forever',
          allowOverrides: false,
          updateType: 'UPDATE',
        },
        { identifier: 'scim_jwt_token_require_nbf', value: 'yes', allowOverrides: false, updateType: 'UPDATE' },
      ]),
    })
    const body = (await res.json()) as { data: { updateStatus: boolean; errorMessage: string }[] }
    expect(body.data.map((d) => [d.updateStatus, d.errorMessage])).toEqual([
      [false, expect.stringMatching(/whole number of seconds/)],
      [false, 'value must be true or false'],
    ])
  })
})
