// What every Redis-backed store shares: its connection, key prefix, transactions and scripts, and
// hashes kept with a version counter (read together, so a cache can tell when to reload them).
import { masters, type RedisClient } from './client.js'
import { accountPrefix, slotTag } from './keys.js'
import type { Scripts } from './scripts.js'
import type { Transactions } from './transactions.js'

/** What createRedisState hands every store. */
export interface RedisContext {
  readonly redis: RedisClient
  readonly prefix: string
  /** Redis Cluster: keys carry hash tags (keys.ts); one Redis: they are named as they always were. */
  readonly cluster: boolean
  readonly tx: Transactions
  readonly scripts: Scripts
}

export abstract class RedisState {
  protected readonly redis: RedisClient
  protected readonly prefix: string
  protected readonly cluster: boolean
  protected readonly tx: Transactions
  protected readonly scripts: Scripts

  constructor(context: RedisContext) {
    ;({ redis: this.redis, prefix: this.prefix, cluster: this.cluster, tx: this.tx, scripts: this.scripts } = context)
  }

  /**
   * A key of the small shared state (accounts, workspaces, environments, API keys, integrations, webhooks): one slot on
   * a cluster.
   */
  protected k(...parts: string[]): string {
    return slotTag(this.prefix, this.cluster, 'admin') + parts.join(':')
  }

  /** A key of one account's state (its directory, access settings, alerts): the account's slot on a cluster. */
  protected ka(accountId: string, ...parts: string[]): string {
    return accountPrefix(this.prefix, this.cluster, accountId) + parts.join(':')
  }

  /**
   * A key of one workspace's state (its segments in every environment, its metrics): the workspace's slot on a cluster.
   */
  protected kw(workspaceId: string, ...parts: string[]): string {
    return slotTag(this.prefix, this.cluster, `w:${workspaceId}`) + parts.join(':')
  }

  /**
   * A key only ever used alone (no script, transaction or pipeline with others): spread over a cluster by its whole
   * name.
   */
  protected kAlone(...parts: string[]): string {
    return this.prefix + parts.join(':')
  }

  /** Keys matching the pattern, a page at a time (on a cluster, from every master). */
  protected async *scanKeys(pattern: string): AsyncGenerator<string[]> {
    for (const node of masters(this.redis)) {
      for (let cursor = '0'; ;) {
        const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500)
        if (keys.length > 0) yield keys
        if (next === '0') break
        cursor = next
      }
    }
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
