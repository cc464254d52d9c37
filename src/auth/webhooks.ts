// Webhook address lookup for the ingest hot path: the address is the credential, looked up by its
// SHA-256 in an in-memory copy of the routes in Redis (no round trip per request). Expired rotated
// addresses are refused here, at lookup time.
import type { Logger } from '../shared/logger.js'
import type { IntegrationStore, WebhookRoute } from '../state/redis/integrations.js'
import { hashKey } from '../state/redis/tenancy.js'
import { VersionedCache } from './versioned-cache.js'

export class WebhookAddressCache {
  private readonly cache: VersionedCache<WebhookRoute>

  constructor(store: IntegrationStore, refreshMs: number, log: Logger) {
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
  async lookup(webhookId: string, now = Date.now()): Promise<{ route: WebhookRoute; hash: string } | undefined> {
    const hash = hashKey(webhookId)
    const route = await this.cache.get(hash)
    if (!route || (route.expiresAt !== undefined && route.expiresAt <= now)) return undefined
    return { route, hash }
  }
}
