// Retries a sink call while its failure is retriable (infrastructure: a connection, a timeout, an
// overloaded server), with backoff, until it succeeds or the batch must be left (signal aborted:
// the consumer is stopping or lost the partition). The adapter heartbeats meanwhile, and no more is
// fetched for the partition, so a slow or absent sink holds the batch instead of losing it.
// Deterministic failures (AppError with retriable false) and anything that is not an AppError (a
// bug) are thrown at once.
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from '../shared/logger.js'
import type { BatchContext } from '../broker/ports.js'
import { AppError } from '../shared/errors.js'

const MAX_BACKOFF_MS = 5000

export async function retrying<T>(ctx: BatchContext, log: Logger, what: string, attempt: (n: number) => Promise<T>, onFailure: (err: AppError) => void): Promise<T> {
  for (let n = 0; ; n++) {
    ctx.signal.throwIfAborted()
    try {
      return await attempt(n)
    } catch (err) {
      if (!(err instanceof AppError) || !err.retriable) throw err
      onFailure(err)
      log.warn({ err, attempt: n }, `${what} failed; retrying`)
      await sleep(Math.min(MAX_BACKOFF_MS, 100 * 2 ** n), undefined, { signal: ctx.signal }).catch(() => undefined)
    }
  }
}
