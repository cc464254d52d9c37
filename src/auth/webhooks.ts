// Webhook address lookup for the ingest hot path: the address is the credential, looked up by its
// SHA-256 in an in-memory copy of the routes in Redis (no round trip per request). Expired rotated
// addresses are refused here, at lookup time. A route's sender authentication comes with its secrets
// ready to compare (hashes decoded, HMAC secrets unsealed once per version of the routes).
import type { Logger } from '../shared/logger.js'
import type { SecretBox } from '../shared/secret-box.js'
import type { SenderAuth } from '../state/redis/sender-auth.js'
import { hmacKeyOf, type ResolvedSecret } from './sender-auth.js'
import type { IntegrationStore, WebhookRoute } from '../state/redis/integrations.js'
import { hashKey } from '../state/redis/tenancy.js'
import { VersionedCache } from '../shared/versioned-cache.js'

export class WebhookAddressCache {
  private readonly cache: VersionedCache<WebhookRoute>
  private readonly resolved = new WeakMap<SenderAuth, readonly ResolvedSecret[]>()

  constructor(
    store: IntegrationStore,
    refreshMs: number,
    log: Logger,
    private readonly secretBox: SecretBox,
  ) {
    this.cache = new VersionedCache(
      { version: () => store.webhookRoutesVersion(), load: () => store.webhookRoutes() },
      refreshMs,
      log,
    )
  }

  start(): Promise<void> {
    return this.cache.start()
  }

  stop(): void {
    this.cache.stop()
  }

  /** After this process changed a route: reloads now (a revoked address is refused once this resolves). */
  invalidate(): Promise<void> {
    return this.cache.invalidate()
  }

  /** The route of a live address, and the hash to use as its name anywhere it must be named. */
  async lookup(webhookId: string, now = Date.now()): Promise<AddressLookup | undefined> {
    const hash = hashKey(webhookId)
    const route = await this.cache.get(hash)
    if (!route || (route.expiresAt !== undefined && route.expiresAt <= now)) return undefined
    return { route, hash, secrets: route.auth ? this.secretsOf(route.auth) : [] }
  }

  /** A secret that cannot be unsealed (another process's key) has no key: requests signed with it are refused. */
  private secretsOf(auth: SenderAuth): readonly ResolvedSecret[] {
    let secrets = this.resolved.get(auth)
    if (!secrets) {
      secrets = auth.secrets.map((s): ResolvedSecret => {
        if (s.hash !== undefined) return { id: s.id, hash: Buffer.from(s.hash, 'hex') }
        const plain = s.sealed === undefined ? undefined : this.secretBox.open(s.sealed)
        return plain === undefined ? { id: s.id } : { id: s.id, key: hmacKeyOf(auth.preset ?? 'grafana', plain) }
      })
      this.resolved.set(auth, secrets)
    }
    return secrets
  }
}

export interface AddressLookup {
  readonly route: WebhookRoute
  readonly hash: string
  /** The secrets of the route's sender authentication, ready to compare (none without one). */
  readonly secrets: readonly ResolvedSecret[]
}
