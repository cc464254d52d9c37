// An in-memory copy of a Redis hash, for lookups on a hot path without a round trip per request. The
// copy is reloaded when a version counter in Redis changes (checked every refreshMs), so a change
// (a revoked key, a rotated webhook address) takes effect within about refreshMs everywhere.
import type { Logger } from '../app/logger.js'

/** On a miss, check the version at most this often, so unknown secrets cannot flood Redis. */
const MISS_RELOAD_INTERVAL_MS = 250

export interface VersionedSource<T> {
  version(): Promise<string>
  load(): Promise<{ version: string; entries: Map<string, T> }>
}

export class VersionedCache<T> {
  private entries = new Map<string, T>()
  private version: string | undefined
  private loadedAt = 0
  private timer?: NodeJS.Timeout
  private inflight?: Promise<void>

  constructor(
    private readonly source: VersionedSource<T>,
    private readonly refreshMs: number,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await this.reload()
    this.timer = setInterval(() => {
      this.refresh().catch((err: unknown) => this.log.warn({ err }, 'cache refresh failed; keeping the last known entries'))
    }, this.refreshMs)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
  }

  /** The entry under key; on a miss, one coalesced version check first (an entry created a moment ago). */
  async get(key: string): Promise<T | undefined> {
    const found = this.entries.get(key)
    if (found !== undefined || Date.now() - this.loadedAt < MISS_RELOAD_INTERVAL_MS) return found
    await this.refresh().catch((err: unknown) => this.log.warn({ err }, 'cache refresh failed'))
    return this.entries.get(key)
  }

  private refresh(): Promise<void> {
    this.inflight ??= (async () => {
      try {
        const version = await this.source.version()
        if (version !== this.version) await this.reload()
        else this.loadedAt = Date.now()
      } finally {
        this.inflight = undefined
      }
    })()
    return this.inflight
  }

  private async reload(): Promise<void> {
    const { version, entries } = await this.source.load()
    this.entries = entries
    this.version = version
    this.loadedAt = Date.now()
    this.log.debug({ version, entries: entries.size }, 'cache loaded')
  }
}
