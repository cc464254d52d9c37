// An in-memory copy of a Redis hash, for lookups on a hot path without a round trip per request. The
// copy is reloaded when a version counter in Redis changes (checked every refreshMs), so a change
// (a revoked key, a rotated webhook address) takes effect within about refreshMs everywhere.
import type { Logger } from '../shared/logger.js'

/**
 * Version checks caused by misses start at most this often: an entry created a moment ago is found
 * on first use (after at most this long), and a flood of unknown secrets costs Redis at most one
 * small GET per interval and process.
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

  /** Loads the entries and keeps them fresh; a second call (two roles of one process) does nothing more. */
  async start(): Promise<void> {
    if (this.timer) return
    await this.reload()
    this.timer = setInterval(() => {
      this.refresh().catch((err: unknown) =>
        this.log.warn({ err }, 'cache refresh failed; keeping the last known entries'),
      )
    }, this.refreshMs)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
  }

  /**
   * The entry under key; on a miss, after a version check that began after the miss. Checks start
   * at most every MISS_RELOAD_INTERVAL_MS, so a miss may wait that long, and concurrent misses share
   * one check.
   */
  async get(key: string): Promise<T | undefined> {
    const found = this.entries.get(key)
    if (found !== undefined) return found
    const missAt = performance.now()
    try {
      for (;;) {
        if (this.inflight) {
          await this.inflight
          continue
        }
        // Strictly later (monotonic clock, sub-millisecond): a check begun at the miss may have read the version just
        // before.
        if (this.checkStartedAt > missAt && this.checkStartedAt > this.invalidatedAt) break
        const wait = this.checkStartedAt + MISS_RELOAD_INTERVAL_MS - performance.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        else await this.refresh()
      }
    } catch (err) {
      this.log.warn({ err }, 'cache refresh failed')
    }
    return this.entries.get(key)
  }

  /**
   * Tells the cache that this process just changed the source (a write it must see at once): the
   * next miss reloads first, and a reload starts now, so a removed entry (a revoked address) stops
   * being found here as soon as the returned promise settles.
   */
  async invalidate(): Promise<void> {
    this.invalidatedAt = performance.now()
    if (this.inflight) await this.inflight.catch(() => undefined)
    await this.refresh()
  }

  private refresh(): Promise<void> {
    this.inflight ??= (async () => {
      this.checkStartedAt = performance.now()
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
