// The live tail's side channel: the consumers publish what they read of an environment (events, impressions, refused
// records) or an integration (webhook payloads) on a Redis pub/sub channel, only while someone watches it; viewers
// (the API's server-sent events, `sluice tail`) subscribe. Pub/sub keeps nothing: what no one reads is gone.
//
// Keys (prefix p):
//   p:tail:watched             sorted set scope -> until when (epoch ms) someone watches it; viewers renew it
//   p:tail:<scope> (channel)   a TailMessage as JSON per publish; scope is env:<id> or integration:<id>
import type { RedisClient } from './client.js'

export type TailKind = 'event' | 'impression' | 'refused event' | 'refused impression' | 'payload' | 'refused payload'

export interface TailRecord {
  readonly kind: TailKind
  /** When the edge received it, epoch ms. */
  readonly receivedAt: number
  readonly requestId: string
  /** What the filters look at. */
  readonly eventType?: string
  readonly key?: string
  readonly flag?: string
  /** The record as stored (its long texts cut), or the reason and raw text of a refused one. */
  readonly data: Readonly<Record<string, unknown>>
}

export interface TailMessage {
  /** Of the records of this scope, one in `rate` is published (1: all of them). */
  readonly rate: number
  readonly records: readonly TailRecord[]
}

/** How long a viewer's watch lasts without renewal. */
export const WATCH_MS = 10_000

export class TailChannel {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  channel(scope: string): string {
    return `${this.prefix}tail:${scope}`
  }

  /** The scope named by a channel of this prefix. */
  scopeOf(channel: string): string {
    return channel.slice(`${this.prefix}tail:`.length)
  }

  private watchedKey(): string {
    return `${this.prefix}tail:watched`
  }

  /** Marks the scopes watched for WATCH_MS more (and forgets those no one renewed). */
  async watch(scopes: readonly string[], now = Date.now()): Promise<void> {
    if (scopes.length === 0) return
    await this.redis
      .multi()
      .zadd(this.watchedKey(), ...scopes.flatMap((s) => [now + WATCH_MS, s]))
      .zremrangebyscore(this.watchedKey(), '-inf', now)
      .exec()
  }

  /** The scopes someone watches now. */
  async watched(now = Date.now()): Promise<Set<string>> {
    return new Set(await this.redis.zrangebyscore(this.watchedKey(), now, '+inf'))
  }

  async publish(scope: string, message: TailMessage): Promise<void> {
    await this.redis.publish(this.channel(scope), JSON.stringify(message))
  }
}
