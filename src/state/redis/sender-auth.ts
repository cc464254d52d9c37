// Sender authentication of an integration as it is stored (with the integration, and copied into its
// webhook routes): the schemes and HMAC presets, and each secret as a hash or sealed. Checked by
// auth/sender-auth.ts, managed by services/sender-auth.ts.
export const SENDER_AUTH_SCHEMES = ['bearer', 'basic', 'hmac'] as const
export type SenderAuthScheme = (typeof SENDER_AUTH_SCHEMES)[number]

/**
 * HMAC presets. grafana: Grafana alerting's webhook hmacConfig (hex HMAC-SHA256 of "<timestamp>:<body>", the
 * timestamp in Unix seconds in its own header); github: `X-Hub-Signature-256: sha256=<hex>` of the body (GitHub's
 * scheme has no timestamp, so no replay window); standard-webhooks: `webhook-signature: v1,<base64>` of
 * "<webhook-id>.<webhook-timestamp>.<body>" (standardwebhooks.com).
 */
export const HMAC_PRESETS = ['grafana', 'github', 'standard-webhooks'] as const
export type HmacPreset = (typeof HMAC_PRESETS)[number]

export const MAX_SECRETS = 2
export const DEFAULT_TOLERANCE_SECONDS = 300

/** One of a scheme's secrets as stored: a hash (bearer, basic), or sealed (hmac: the secret itself is needed). */
export interface StoredSecret {
  readonly id: string
  readonly createdAt: number
  /** bearer: SHA-256 of the token; basic: SHA-256 of the password. */
  readonly hash?: string
  /** hmac: the secret, encrypted (SecretBox). */
  readonly sealed?: string
}

/** An integration's sender authentication as stored with it and copied into its webhook routes. */
export interface SenderAuth {
  readonly scheme: SenderAuthScheme
  /** basic: the user name (not a secret). */
  readonly username?: string
  readonly preset?: HmacPreset
  /** hmac: the header holding the signature (grafana: configurable in Grafana). */
  readonly signatureHeader?: string
  /** hmac, grafana: the header holding the timestamp. */
  readonly timestampHeader?: string
  /** hmac: how far a signed timestamp may be from now, either way (seconds). */
  readonly toleranceSeconds?: number
  readonly secrets: readonly StoredSecret[]
}

/** The headers each preset reads by default. */
export const PRESET_HEADERS: Record<HmacPreset, { signature: string; timestamp?: string; id?: string }> = {
  grafana: { signature: 'x-grafana-alerting-signature', timestamp: 'x-grafana-alerting-timestamp' },
  github: { signature: 'x-hub-signature-256' },
  'standard-webhooks': { signature: 'webhook-signature', timestamp: 'webhook-timestamp', id: 'webhook-id' },
}
