// What every Redis-backed store shares: its connection, key prefix, transactions and scripts, and
// hashes kept with a version counter (read together, so a cache can tell when to reload them).
import type { Redis } from 'ioredis'
import type { Scripts } from './scripts.js'
import type { Transactions } from './transactions.js'

/** What createRedisState hands every store. */
export interface RedisContext {
  readonly redis: Redis
  readonly prefix: string
  readonly tx: Transactions
  readonly scripts: Scripts
}

export abstract class RedisState {
  protected readonly redis: Redis
  protected readonly prefix: string
  protected readonly tx: Transactions
  protected readonly scripts: Scripts

  constructor(context: RedisContext) {
    ;({ redis: this.redis, prefix: this.prefix, tx: this.tx, scripts: this.scripts } = context)
  }

  protected k(...parts: string[]): string {
    return this.prefix + parts.join(':')
  }

  /** The hash `name` (JSON values) and the counter `name:version`, in one MULTI so they agree. */
  protected async versionedHash<T>(name: string): Promise<{ version: string; entries: Map<string, T> }> {
    const res = await this.redis.multi().get(this.k(name, 'version')).hgetall(this.k(name)).exec()
    const version = (res?.[0]?.[1] as string | null) ?? '0'
    const all = (res?.[1]?.[1] as Record<string, string> | null) ?? {}
    return { version, entries: new Map(Object.entries(all).map(([field, json]) => [field, JSON.parse(json) as T])) }
  }

  protected async hashVersion(name: string): Promise<string> {
    return (await this.redis.get(this.k(name, 'version'))) ?? '0'
  }

  /** HGETALL of each key in one pipeline, in order; hashes without `field` (missing ones) are left out. */
  protected async hashes(keys: readonly string[], field: string): Promise<Record<string, string>[]> {
    if (keys.length === 0) return []
    const pipe = this.redis.pipeline()
    for (const key of keys) pipe.hgetall(key)
    return ((await pipe.exec()) ?? []).map(([, h]) => h as Record<string, string>).filter((h) => h[field] !== undefined)
  }
}
