// SDK key lookup for the ingest hot path: an in-memory map by SHA-256, never a Redis round trip per
// request. The map is reloaded when the key version in Redis changes (checked every refreshMs), so a
// revoked key stops working within about refreshMs. Looking up the hash of the presented key keeps
// the comparison independent of how much of a secret matches.
import type { Logger } from '../app/logger.js'
import { hashKey, type ApiKeyRecord, type Store } from '../state/store.js'

export interface SdkPrincipal {
  readonly environmentId: string
  readonly accountId: string
  readonly kind: 'server' | 'client'
}

/** On a miss, reload at most this often, so unknown keys cannot turn into a Redis flood. */
const MISS_RELOAD_INTERVAL_MS = 250

export class SdkKeyCache {
  private keys = new Map<string, SdkPrincipal>()
  private version: string | undefined
  private loadedAt = 0
  private timer?: NodeJS.Timeout
  private inflight?: Promise<void>

  constructor(
    private readonly store: Store,
    private readonly refreshMs: number,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await this.reload()
    this.timer = setInterval(() => {
      this.refresh().catch((err: unknown) => this.log.warn({ err }, 'sdk key refresh failed; keeping the last known keys'))
    }, this.refreshMs)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
  }

  async lookup(key: string): Promise<SdkPrincipal | undefined> {
    const hash = hashKey(key)
    const found = this.keys.get(hash)
    if (found || Date.now() - this.loadedAt < MISS_RELOAD_INTERVAL_MS) return found
    // A key created a moment ago may not be loaded yet: one coalesced check of the version.
    await this.refresh().catch((err: unknown) => this.log.warn({ err }, 'sdk key refresh failed'))
    return this.keys.get(hash)
  }

  private refresh(): Promise<void> {
    this.inflight ??= (async () => {
      try {
        const version = await this.store.apiKeysVersion()
        if (version !== this.version) await this.reload()
        else this.loadedAt = Date.now()
      } finally {
        this.inflight = undefined
      }
    })()
    return this.inflight
  }

  private async reload(): Promise<void> {
    const { version, keys } = await this.store.apiKeys()
    const next = new Map<string, SdkPrincipal>()
    for (const [hash, record] of keys) {
      const principal = toPrincipal(record)
      if (principal) next.set(hash, principal)
    }
    this.keys = next
    this.version = version
    this.loadedAt = Date.now()
    this.log.debug({ version, sdkKeys: next.size }, 'sdk keys loaded')
  }
}

function toPrincipal(record: ApiKeyRecord): SdkPrincipal | undefined {
  if (record.revokedAt !== undefined || record.kind === 'admin' || !record.environmentId) return undefined
  return { environmentId: record.environmentId, accountId: record.accountId, kind: record.kind }
}
