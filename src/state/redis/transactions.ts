// Optimistic transactions (WATCH / MULTI / EXEC) on a Redis connection of their own. WATCH belongs to
// a connection: on the shared one, another request's EXEC or UNWATCH would silently drop this one's
// watch. Here transactions run one at a time on a dedicated connection, and a write by anyone else
// (another request is serialized; another process is caught by WATCH) makes EXEC fail and the
// attempt start again. A transaction waits in that line for at most `maxWaitMs`: with Redis away,
// the requests behind it are answered (503) instead of queueing without bound.
import { Cluster, type ChainableCommander } from 'ioredis'
import { AppError, isRedisOutage } from '../../shared/errors.js'
import { duplicateClient, masters, type RedisClient } from './client.js'

const MAX_ATTEMPTS = 10

export type Attempt<T> = { readonly done: T } | { readonly tx: ChainableCommander; readonly result: T }

export class Transactions {
  private readonly conn: RedisClient
  private tail: Promise<unknown> = Promise.resolve()

  constructor(
    redis: RedisClient,
    private readonly maxWaitMs = 10_000,
  ) {
    // On a cluster the keys of one transaction share a slot (keys.ts): WATCH and MULTI go to its node.
    this.conn = duplicateClient(redis)
  }

  /**
   * Watches keys, lets body read (with the given connection) and either finish ({done}) or return a
   * MULTI built on that connection ({tx, result}), and retries while EXEC reports a conflict.
   */
  optimistic<T>(keys: readonly string[], body: (conn: RedisClient) => Promise<Attempt<T>>): Promise<T> {
    const queuedAt = Date.now()
    const run = async (): Promise<T> => {
      if (Date.now() - queuedAt > this.maxWaitMs)
        throw new AppError('SINK_UNAVAILABLE', `redis: transactions waited more than ${this.maxWaitMs} ms`, true)
      try {
        return await this.attempts(keys, body)
      } catch (err) {
        // A command past its deadline leaves the connection's WATCH state unknown: start afresh.
        if (isRedisOutage(err)) this.conn.disconnect(true)
        throw err
      }
    }
    const result = this.tail.then(run, run)
    this.tail = result.catch(() => undefined)
    return result
  }

  private async attempts<T>(keys: readonly string[], body: (conn: RedisClient) => Promise<Attempt<T>>): Promise<T> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      await this.conn.watch(...keys)
      let outcome: Attempt<T>
      try {
        outcome = await body(this.conn)
      } catch (err) {
        await this.unwatch().catch(() => undefined)
        throw err
      }
      if ('done' in outcome) {
        await this.unwatch()
        return outcome.done
      }
      if (await outcome.tx.exec()) return outcome.result
    }
    throw new Error(`redis transaction on ${keys.join(', ')} kept conflicting`)
  }

  /**
   * UNWATCH names no key: on a cluster it goes to every master (each connection of this client is the transactions'
   * own).
   */
  private async unwatch(): Promise<void> {
    if (this.conn instanceof Cluster)
      await Promise.all(masters(this.conn).map((node) => node.unwatch().catch(() => undefined)))
    else await this.conn.unwatch()
  }

  async close(): Promise<void> {
    await this.conn.quit().catch(() => this.conn.disconnect())
  }
}
