// In-memory copies of what Redis holds, for lookups on a hot path without a round trip per request:
// - VersionedCache: a whole hash (API keys, webhook addresses), reloaded when a version counter in Redis changes
//   (checked every refreshMs), so a change (a revoked key, a rotated webhook address) takes effect within about
//   refreshMs everywhere;
// - KeyedCache: one record per key, read on first use (integrations, an account's alert rules and windows, its
//   notification destinations): after refreshMs its version is checked (or, without one, it is read again), and it
//   is read again only when that changed. Past a bound, the record read longest ago goes first.
import type { Logger } from './logger.js'

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

export interface KeyedSource<T> {
  load(key: string): Promise<T>
  /**
   * A cheap check of what load would read (a counter bumped on every change), so that an unchanged record is not read
   * again; undefined (or no such method): the record has no version, and is read again each time refreshMs passed.
   */
  version?(key: string): Promise<string | number | undefined>
}

export interface KeyedCacheOptions {
  /** How long a record is used without a check. */
  readonly refreshMs: number
  /** Records kept at most; past it the one read longest ago is dropped. */
  readonly maxEntries?: number
}

interface KeyedEntry<T> {
  readonly value: T
  readonly version: string | number | undefined
  checkedAt: number
}

/**
 * Records by key, each read from its source on first use and checked again after refreshMs. Concurrent reads of one
 * key share one round trip; a failed read is not kept (the caller sees the error, the next get tries again).
 */
export class KeyedCache<T> {
  private readonly entries = new Map<string, KeyedEntry<T>>()
  private readonly inflight = new Map<string, Promise<T>>()
  private readonly maxEntries: number

  constructor(
    private readonly source: KeyedSource<T>,
    private readonly options: KeyedCacheOptions,
  ) {
    this.maxEntries = options.maxEntries ?? 10_000
  }

  get(key: string): Promise<T> {
    const hit = this.entries.get(key)
    if (hit && Date.now() - hit.checkedAt < this.options.refreshMs) return Promise.resolve(hit.value)
    let pending = this.inflight.get(key)
    if (!pending) {
      pending = this.refresh(key, hit).finally(() => this.inflight.delete(key))
      this.inflight.set(key, pending)
    }
    return pending
  }

  /** The record if it was read before, without a check or a round trip (for what may use a stale copy). */
  peek(key: string): T | undefined {
    return this.entries.get(key)?.value
  }

  private async refresh(key: string, hit: KeyedEntry<T> | undefined): Promise<T> {
    const checkedAt = Date.now()
    // Checked before the read: a change between the two leaves a newer record under an older version, which the next
    // check reads again; never an older record under a newer version.
    const version = await this.source.version?.(key)
    if (hit && version !== undefined && version === hit.version) {
      hit.checkedAt = checkedAt
      return hit.value
    }
    const value = await this.source.load(key)
    this.entries.delete(key)
    this.entries.set(key, { value, version, checkedAt })
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
    return value
  }
}
