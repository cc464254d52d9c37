// The viewers' side of the live tail (state/redis/tail.ts): one subscriber connection per process, shared by its
// viewers (the API's server-sent events, `sluice tail`); a scope is subscribed while one of them watches it, and its
// watch renewed in Redis so the consumers publish it. Viewers are capped per process, and a viewer that cannot take a
// message (a reader too slow: its buffer full) is cut off, never waited for.
import type { Logger } from '../shared/logger.js'
import type { RedisClient } from '../state/redis/client.js'
import { WATCH_MS, type TailChannel, type TailMessage, type TailRecord } from '../state/redis/tail.js'

/** What a viewer asked to see; each given filter must match. */
export interface TailFilter {
  readonly eventType?: string
  readonly key?: string
  readonly flag?: string
}

export function matches(record: TailRecord, f: TailFilter): boolean {
  return (
    (f.eventType === undefined || record.eventType === f.eventType) &&
    (f.key === undefined || record.key === f.key) &&
    (f.flag === undefined || record.flag === f.flag)
  )
}

export interface Viewer {
  readonly scope: string
  readonly filter: TailFilter
  /** Takes a message's records for this viewer; false when it cannot (its reader too slow): it is then cut off. */
  readonly send: (message: TailMessage) => boolean
  /** Told it is cut off, with why. */
  readonly cut: (reason: string) => void
}

export class TailHub {
  private readonly viewers = new Map<string, Set<Viewer>>()
  private count = 0
  private renewal: NodeJS.Timeout | undefined
  private closed = false

  constructor(
    private readonly channel: TailChannel,
    private readonly subscriber: RedisClient,
    private readonly options: { readonly maxViewers: number; readonly log: Logger },
  ) {
    subscriber.on('message', (channel: string, text: string) => this.deliver(channel, text))
  }

  /** Whether the process has its most viewers. */
  get full(): boolean {
    return this.count >= this.options.maxViewers
  }

  /** Adds a viewer; returns its removal, or undefined when the process has its most viewers already. */
  async add(viewer: Viewer): Promise<(() => Promise<void>) | undefined> {
    if (this.closed || this.count >= this.options.maxViewers) return undefined
    this.count++
    let set = this.viewers.get(viewer.scope)
    const first = !set
    if (!set) this.viewers.set(viewer.scope, (set = new Set()))
    set.add(viewer)
    try {
      if (first) await this.subscriber.subscribe(this.channel.channel(viewer.scope))
      await this.channel.watch([viewer.scope])
    } catch (err) {
      await this.remove(viewer)
      throw err
    }
    this.renewal ??= setInterval(() => void this.renew(), WATCH_MS / 3).unref()
    let removed = false
    return async () => {
      if (removed) return
      removed = true
      await this.remove(viewer)
    }
  }

  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.renewal)
    this.renewal = undefined
    for (const set of this.viewers.values()) for (const v of set) v.cut('the server is stopping')
    this.viewers.clear()
    this.count = 0
  }

  private async remove(viewer: Viewer): Promise<void> {
    const set = this.viewers.get(viewer.scope)
    if (!set?.delete(viewer)) return
    this.count--
    if (set.size > 0) return
    this.viewers.delete(viewer.scope)
    if (this.viewers.size === 0) {
      clearInterval(this.renewal)
      this.renewal = undefined
    }
    await this.subscriber.unsubscribe(this.channel.channel(viewer.scope)).catch(() => undefined)
  }

  private async renew(): Promise<void> {
    try {
      await this.channel.watch([...this.viewers.keys()])
    } catch (err) {
      this.options.log.warn({ err }, 'live tail: the watch could not be renewed (Redis away); tried again')
    }
  }

  /** Runs in the subscriber connection's 'message' listener: nothing may throw out of it (it would end the process). */
  private deliver(channel: string, text: string): void {
    try {
      this.deliverTo(channel, text)
    } catch (err) {
      this.options.log.warn({ err, channel }, 'live tail: a message could not be delivered; dropped')
    }
  }

  private deliverTo(channel: string, text: string): void {
    const set = this.viewers.get(this.channel.scopeOf(channel))
    if (!set) return
    const message = JSON.parse(text) as Partial<TailMessage> | null
    // Published by a consumer of another version, or by anyone with the Redis: a message without records is none.
    if (!Array.isArray(message?.records)) return
    const all: readonly TailRecord[] = message.records
    for (const viewer of set) {
      const records = all.filter((r) => matches(r, viewer.filter))
      if (records.length === 0) continue
      if (!viewer.send({ rate: message.rate ?? 1, records })) {
        viewer.cut('the reader is too slow: records were waiting beyond its buffer')
        void this.remove(viewer)
      }
    }
  }
}
