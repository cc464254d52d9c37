// Authentication of SCIM calls with a JWT (SCIM JWT rules 1-6): the account's flag, the four
// settings in effect, the token verified against the JWKS at the configured URL (jose, with an
// algorithm allow-list, exp required, 30 s tolerance), the configured claim equal to the configured
// value, and the configured service account holding the SCIM permissions. The caller learns only
// 401 or 403; the reason goes to the log and a metric.
import { createRemoteJWKSet, customFetch, decodeProtectedHeader, jwtVerify, type JWTVerifyGetKey } from 'jose'
import type { Logger } from '../shared/logger.js'
import {
  effectiveValue,
  SCIM_JWT_FLAG,
  SCIM_PERMISSIONS,
  type PlatformStore,
  type ServiceAccount,
} from '../state/redis/platform.js'
import { guardedGet, type OutboundPolicy } from '../shared/outbound.js'

export const SCIM_JWT_SETTINGS = {
  jwksUrl: 'scim_jwt_token_jwks_keys_url',
  keyField: 'scim_jwt_token_key_field',
  valueField: 'scim_jwt_token_value_field',
  serviceAccountId: 'scim_jwt_token_service_account_id',
} as const

/**
 * Optional, beyond Harness's four: a tighter binding of the token to this account. When one JWKS
 * signs tokens for several tenants or applications of an identity provider, a token minted for
 * another of them carries a valid signature (and perhaps the same claim); its issuer, its audience,
 * its lifetime and its not-before time tell it apart. Unset, each check is off.
 */
export const SCIM_JWT_BINDINGS = {
  issuer: 'scim_jwt_token_issuer',
  audience: 'scim_jwt_token_audience',
  maxLifetimeSeconds: 'scim_jwt_token_max_lifetime_seconds',
  requireNbf: 'scim_jwt_token_require_nbf',
} as const
export const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA']
const CLOCK_TOLERANCE_SECONDS = 30
/** JWKS resolvers kept (one per account and URL); the least recently created go first. */
const MAX_JWKS = 10_000

export class ScimAuthError extends Error {
  override readonly name = 'ScimAuthError'
  constructor(
    /** Why, for the log and the metric label; never sent to the caller. */
    readonly reason: string,
    readonly status: 401 | 403,
  ) {
    super(reason)
  }
}

export interface ScimAuthOptions extends OutboundPolicy {
  readonly cooldownMs: number
}

export class ScimAuthenticator {
  private readonly jwks = new Map<string, { url: string; getKey: JWTVerifyGetKey }>()

  constructor(
    private readonly platform: PlatformStore,
    private readonly options: ScimAuthOptions,
    private readonly log: Logger,
  ) {}

  /** The service account the call acts as, or a ScimAuthError. */
  async authenticate(accountId: string, authorization: string | undefined): Promise<ServiceAccount> {
    if (!(await this.platform.flagOn(accountId, SCIM_JWT_FLAG))) throw new ScimAuthError('flag_off', 401)
    const settings = await this.platform.settings(accountId)
    const now = Date.now()
    const value = (id: string) => effectiveValue(settings.get(id), now)
    const jwksUrl = value(SCIM_JWT_SETTINGS.jwksUrl)
    const keyField = value(SCIM_JWT_SETTINGS.keyField)
    const valueField = value(SCIM_JWT_SETTINGS.valueField)
    const serviceAccountId = value(SCIM_JWT_SETTINGS.serviceAccountId)
    if (!jwksUrl || !keyField || !valueField || !serviceAccountId)
      throw new ScimAuthError('settings_not_in_effect', 401)

    const token = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : undefined
    if (!token) throw new ScimAuthError('no_bearer_token', 401)
    if (token.split('.').length !== 3) throw new ScimAuthError('malformed_token', 401)
    let typ: unknown
    try {
      typ = decodeProtectedHeader(token).typ
    } catch {
      throw new ScimAuthError('malformed_token', 401)
    }
    if (typeof typ !== 'string' || !typ.toLowerCase().includes('jwt'))
      throw new ScimAuthError('header_typ_not_jwt', 401)

    const issuer = value(SCIM_JWT_BINDINGS.issuer) ?? undefined
    const audience = value(SCIM_JWT_BINDINGS.audience) ?? undefined
    const maxLifetime = Number(value(SCIM_JWT_BINDINGS.maxLifetimeSeconds) ?? 0)
    const requireNbf = value(SCIM_JWT_BINDINGS.requireNbf) === 'true'
    const requiredClaims = [
      'exp',
      ...(maxLifetime > 0 ? ['iat'] : []),
      ...(requireNbf ? ['nbf'] : []),
      ...(issuer ? ['iss'] : []),
      ...(audience ? ['aud'] : []),
    ]
    let payload: Record<string, unknown>
    try {
      // nbf, when present, is always checked (with the same tolerance as exp).
      ;({ payload } = await jwtVerify(token, this.keySet(accountId, jwksUrl), {
        algorithms: ALGORITHMS,
        requiredClaims,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        issuer,
        audience,
      }))
    } catch (err) {
      const code = (err as { code?: string }).code ?? ''
      if (!code.startsWith('ERR_J')) this.log.warn({ err, accountId }, 'SCIM JWKS could not be fetched')
      throw new ScimAuthError(refusalReason(err), 401)
    }
    if (maxLifetime > 0 && Number(payload['exp']) - Number(payload['iat']) > maxLifetime)
      throw new ScimAuthError('lifetime_too_long', 401)
    if (payload['iss'] === 'Harness Inc') throw new ScimAuthError('platform_issued_token', 401)
    const claim = payload[keyField]
    if (claim === undefined) throw new ScimAuthError('claim_missing', 401)
    if (typeof claim !== 'string') throw new ScimAuthError('claim_not_a_string', 401)
    if (claim.trim() !== valueField.trim()) throw new ScimAuthError('claim_mismatch', 401)

    const sa = await this.platform.serviceAccount(accountId, serviceAccountId)
    if (!sa) throw new ScimAuthError('service_account_missing', 403)
    if (!SCIM_PERMISSIONS.every((p) => sa.permissions.includes(p)))
      throw new ScimAuthError('service_account_lacks_permissions', 403)
    return sa
  }

  /** One remote key set per account, replaced when the account's URL changes. */
  private keySet(accountId: string, url: string): JWTVerifyGetKey {
    const cached = this.jwks.get(accountId)
    if (cached?.url === url) return cached.getKey
    const policy: OutboundPolicy = this.options
    const getKey = createRemoteJWKSet(new URL(url), {
      timeoutDuration: this.options.timeoutMs,
      cooldownDuration: this.options.cooldownMs,
      [customFetch]: (href: string, init: { headers: Headers; signal: AbortSignal }) =>
        guardedGet(href, policy, Object.fromEntries(init.headers), init.signal),
    })
    this.jwks.delete(accountId)
    this.jwks.set(accountId, { url, getKey })
    if (this.jwks.size > MAX_JWKS) this.jwks.delete(this.jwks.keys().next().value as string)
    return getKey
  }
}

/** The reason a verification failed, for the log and the metric: which claim failed how. */
function refusalReason(err: unknown): string {
  const e = err as { code?: string; claim?: string; reason?: string }
  if (e.code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && e.claim) {
    if (e.reason === 'missing') return `${e.claim}_missing`
    return (
      ({ iss: 'issuer_mismatch', aud: 'audience_mismatch', nbf: 'not_yet_valid' } as Record<string, string>)[e.claim] ??
      `${e.claim}_invalid`
    )
  }
  return e.code?.replace(/^ERR_/, '').toLowerCase() || 'verification_failed'
}
