// What every Redis-backed store shares: its connection, key prefix, transactions and scripts, and
// hashes kept with a version counter (read together, so a cache can tell when to reload them).
import type { ChainableCommander } from 'ioredis'
import { Refusal } from '../../shared/errors.js'
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
  /** What one account's stored objects may take (SLUICE_ACCOUNT_STORED_BYTES). */
  readonly accountBytes: number
}

/** A change of an account's stored bytes: a ledger field (an object) and its bytes, 0 when it is gone. */
export type ByteChanges = Readonly<Record<string, number>>

export abstract class RedisState {
  protected readonly redis: RedisClient
  protected readonly prefix: string
  protected readonly cluster: boolean
  protected readonly tx: Transactions
  protected readonly scripts: Scripts
  protected readonly accountBytes: number

  constructor(context: RedisContext) {
    ;({
      redis: this.redis,
      prefix: this.prefix,
      cluster: this.cluster,
      tx: this.tx,
      scripts: this.scripts,
      accountBytes: this.accountBytes,
    } = context)
  }

  /**
   * The ledger of an account's stored objects (rules, their versions, windows, destinations): a hash of object to
   * bytes, in the account's slot, written in the same transaction as the objects. A store's optimistic transaction
   * watches it beside its own keys.
   */
  protected bytesKey(accountId: string): string {
    return this.ka(accountId, 'stored-bytes', accountId)
  }

  /**
   * Within an optimistic transaction watching bytesKey: the account's ledger after `changes`, when its total stays
   * within SLUICE_ACCOUNT_STORED_BYTES (or does not grow); `letGo` (fields to drop, in order, e.g. old rule versions)
   * are dropped while it does not. Returns what to queue in the transaction and the fields let go; throws a CONFLICT
   * naming the budget when even so the change does not fit. `stored`: the bytes the changed objects take now, for
   * those stored before the ledger existed (counted from their first change on).
   */
  protected async chargeBytes(
    conn: RedisClient,
    accountId: string,
    changes: ByteChanges,
    what: string,
    { letGo = [], stored = {} }: { letGo?: readonly string[]; stored?: ByteChanges } = {},
  ): Promise<{ queue: (tx: ChainableCommander) => void; dropped: string[] }> {
    const ledger = new Map(Object.entries(await conn.hgetall(this.bytesKey(accountId))).map(([f, n]) => [f, Number(n)]))
    for (const [field, bytes] of Object.entries(stored)) if (!ledger.has(field) && bytes > 0) ledger.set(field, bytes)
    const before = [...ledger.values()].reduce((a, b) => a + b, 0)
    for (const [field, bytes] of Object.entries(changes)) {
      if (bytes > 0) ledger.set(field, bytes)
      else ledger.delete(field)
    }
    let total = [...ledger.values()].reduce((a, b) => a + b, 0)
    const dropped: string[] = []
    for (const field of letGo) {
      if (total <= this.accountBytes) break
      const bytes = ledger.get(field)
      if (bytes === undefined || Object.hasOwn(changes, field)) continue
      ledger.delete(field)
      total -= bytes
      dropped.push(field)
    }
    // A change that makes the account smaller is always taken (its budget may have been lowered).
    if (total > this.accountBytes && total > before)
      throw new Refusal(
        'CONFLICT',
        `${what} would take the account's stored alert rules, windows, destinations and tracking plans to ${total} bytes, past its ${this.accountBytes} (SLUICE_ACCOUNT_STORED_BYTES): make them smaller, or remove some`,
      )
    const key = this.bytesKey(accountId)
    return {
      queue: (tx) => {
        const set = Object.entries(changes).filter(([, n]) => n > 0)
        const gone = [
          ...Object.entries(changes)
            .filter(([, n]) => n <= 0)
            .map(([f]) => f),
          ...dropped,
        ]
        if (set.length > 0) tx.hset(key, Object.fromEntries(set))
        if (gone.length > 0) tx.hdel(key, ...gone)
      },
      dropped,
    }
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
