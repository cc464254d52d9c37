// Optimistic transactions (WATCH / MULTI / EXEC) on a Redis connection of their own. WATCH belongs to
// a connection: on the shared one, another request's EXEC or UNWATCH would silently drop this one's
// watch. Here transactions run one at a time on a dedicated connection, and a write by anyone else
// (another request is serialized; another process is caught by WATCH) makes EXEC fail and the
// attempt start again.
import type { ChainableCommander, Redis } from 'ioredis'

const MAX_ATTEMPTS = 10

export type Attempt<T> = { readonly done: T } | { readonly tx: ChainableCommander; readonly result: T }

export class Transactions {
  private readonly conn: Redis
  private tail: Promise<unknown> = Promise.resolve()

  constructor(redis: Redis) {
    this.conn = redis.duplicate({ lazyConnect: true })
  }

  /**
   * Watches keys, lets body read (with the given connection) and either finish ({done}) or return a
   * MULTI built on that connection ({tx, result}), and retries while EXEC reports a conflict.
   */
  optimistic<T>(keys: readonly string[], body: (conn: Redis) => Promise<Attempt<T>>): Promise<T> {
    const run = async (): Promise<T> => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        await this.conn.watch(...keys)
        let outcome: Attempt<T>
        try {
          outcome = await body(this.conn)
        } catch (err) {
          await this.conn.unwatch()
          throw err
        }
        if ('done' in outcome) {
          await this.conn.unwatch()
          return outcome.done
        }
        if (await outcome.tx.exec()) return outcome.result
      }
      throw new Error(`redis transaction on ${keys.join(', ')} kept conflicting`)
    }
    const result = this.tail.then(run, run)
    this.tail = result.catch(() => undefined)
    return result
  }

  async close(): Promise<void> {
    await this.conn.quit().catch(() => this.conn.disconnect())
  }
}
