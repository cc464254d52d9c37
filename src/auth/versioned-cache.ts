// An in-memory copy of a Redis hash, for lookups on a hot path without a round trip per request. The
// copy is reloaded when a version counter in Redis changes (checked every refreshMs), so a change
// (a revoked key, a rotated webhook address) takes effect within about refreshMs everywhere.
import type { Logger } from '../app/logger.js'

/**
 * On a miss, check the version unless a check ended less than this long ago: an entry created a
 * moment ago is found at once, and a flood of unknown secrets costs Redis at most one small GET per
 * interval and process.
 */
const MISS_RELOAD_INTERVAL_MS = 20

export interface VersionedSource<T> {
  version(): Promise<string>
  load(): Promise<{ version: string; entries: Map<string, T> }>
}

export class VersionedCache<T> {
  private entries = new Map<string, T>()
  private version: string | undefined
  /** When the last version check began (a check shows changes made before it began). */
  private checkStartedAt = 0
  /** When this process last changed the source itself: the next miss must see that change. */
  private invalidatedAt = 0
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

  /** The entry under key; on a miss, a version check that began after the miss (or just before). */
  async get(key: string): Promise<T | undefined> {
    const found = this.entries.get(key)
    if (found !== undefined) return found
    const since = Date.now() - MISS_RELOAD_INTERVAL_MS
    try {
      // A check already running may have read the version before the entry was created: wait for
      // it, then start another unless it began recently enough.
      while (this.inflight || this.checkStartedAt < since || this.checkStartedAt <= this.invalidatedAt) {
        await (this.inflight ?? this.refresh())
      }
    } catch (err) {
      this.log.warn({ err }, 'cache refresh failed')
    }
    return this.entries.get(key)
  }

  /** Tells the cache that this process just changed the source (a write it must see at once). */
  invalidate(): void {
    this.invalidatedAt = Date.now()
  }

  private refresh(): Promise<void> {
    this.inflight ??= (async () => {
      this.checkStartedAt = Date.now()
      try {
        const version = await this.source.version()
        if (version !== this.version) await this.reload()
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
    this.log.debug({ version, entries: entries.size }, 'cache loaded')
  }
}
