// An identity provider for SCIM tests: an RSA signing key, its JWKS served on 127.0.0.1, the
// account's SCIM JWT settings written through the settings API (the service must run with
// SLUICE_SETTINGS_DELAY_SECONDS=0 and SLUICE_JWKS_ALLOW_INSECURE=true), and tokens it signs.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, type TestEnv } from './harness.js'

export const CLAIM = 'scim_client'
export const CLAIM_VALUE = 'test-idp'

export interface IdentityProvider {
  readonly jwksUrl: string
  /** A token with the configured claim; `claims` add or override, `lifetime` in seconds (default 300). */
  token(opts?: { claims?: Record<string, unknown>; lifetime?: number; iat?: number; nbf?: number }): Promise<string>
  /** Writes the account's SCIM JWT settings (the four, plus any optional binding given). */
  configure(url: string, demo: DemoAccount, extra?: Record<string, string>): Promise<void>
  close(): void
}

export async function startIdentityProvider(): Promise<IdentityProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid: 'idp-1', alg: 'RS256', use: 'sig' }
  const server = createServer((_req, res) =>
    res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [jwk] })),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`
  return {
    jwksUrl,
    token: async (opts = {}) => {
      const now = Math.floor(Date.now() / 1000)
      const iat = opts.iat ?? now
      const payload: Record<string, unknown> = {
        [CLAIM]: CLAIM_VALUE,
        iat,
        exp: iat + (opts.lifetime ?? 300),
        ...(opts.nbf !== undefined ? { nbf: opts.nbf } : {}),
        ...opts.claims,
      }
      for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k]
      return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'idp-1', typ: 'JWT' }).sign(privateKey)
    },
    configure: async (url, demo, extra = {}) => {
      const settings = {
        scim_jwt_token_jwks_keys_url: jwksUrl,
        scim_jwt_token_key_field: CLAIM,
        scim_jwt_token_value_field: CLAIM_VALUE,
        scim_jwt_token_service_account_id: demo.serviceAccountId!,
        ...extra,
      }
      const items = Object.entries(settings).map(([identifier, value]) => ({
        identifier,
        value,
        allowOverrides: false,
        updateType: 'UPDATE',
      }))
      const res = await fetch(`${url}/gateway/ng/api/settings?accountIdentifier=${demo.accountId}`, {
        method: 'PUT',
        headers: { 'x-api-key': demo.personalAccessToken!, 'content-type': 'application/json' },
        body: JSON.stringify(items),
      })
      const body = (await res.json()) as { data?: { updateStatus: boolean; errorMessage: string | null }[] }
      if (!res.ok || !body.data?.every((d) => d.updateStatus))
        throw new Error(`settings not written: ${res.status} ${JSON.stringify(body)}`)
    },
    close: () => server.close(),
  }
}

export interface ScimTestEnv {
  readonly t: TestEnv
  readonly svc: RunningService
  readonly demo: DemoAccount
  readonly idp: IdentityProvider
  close(): Promise<void>
}

/**
 * An admin process whose settings take effect at once and may fetch a loopback JWKS, the demo
 * account, and an identity provider; `configure` writes its settings unless told not to.
 */
export async function createScimTestEnv(configure = true): Promise<ScimTestEnv> {
  const t = await createTestEnv({ SLUICE_SETTINGS_DELAY_SECONDS: '0', SLUICE_JWKS_ALLOW_INSECURE: 'true' })
  const svc = await t.start(['admin'])
  const demo = await t.bootstrap()
  const idp = await startIdentityProvider()
  if (configure) await idp.configure(svc.url, demo)
  return {
    t,
    svc,
    demo,
    idp,
    close: async () => {
      idp.close()
      await t.close()
    },
  }
}
