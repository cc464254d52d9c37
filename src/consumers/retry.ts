// Retries a sink call while its failure is retriable (infrastructure: a connection, a timeout, an
// overloaded server), with backoff, until it succeeds or the batch must be left (signal aborted:
// the consumer is stopping or lost the partition). The adapter heartbeats meanwhile, and no more is
// fetched for the partition, so a slow or absent sink holds the batch instead of losing it.
// A statement the sink refuses (SINK_REFUSED_QUERY) holds the batch, reported as blocked, and is
// tried again once a minute. Other deterministic failures (refused data) and anything that is not an
// AppError (a bug) are thrown at once.
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from '../shared/logger.js'
import type { BatchContext } from '../broker/ports.js'
import { AppError } from '../shared/errors.js'

const MAX_BACKOFF_MS = 5000
/** How often a statement the sink refused is tried again (an operator may have fixed the cause meanwhile). */
export const REFUSED_RETRY_MS = 60_000

export async function retrying<T>(
  ctx: BatchContext,
  log: Logger,
  what: string,
  attempt: (n: number) => Promise<T>,
  onFailure: (err: AppError) => void,
): Promise<T> {
  let blocked = false
  for (let n = 0; ; n++) {
    ctx.signal.throwIfAborted()
    try {
      const result = await attempt(n)
      if (blocked) {
        ctx.blocked?.(undefined)
        log.info(`${what} succeeded again; the partition goes on`)
      }
      return result
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      onFailure(err)
      // A statement the sink refuses is not the data's fault (no rejection) and not passing (no
      // quick retry): the partition holds its batch, loudly, and asks again now and then.
      if (err.code === 'SINK_REFUSED_QUERY') {
        if (!blocked)
          log.error(
            { err },
            `${what} refused by the sink; the partition holds its batch and tries again every ${REFUSED_RETRY_MS / 1000} s`,
          )
        blocked = true
        ctx.blocked?.(err.message)
        await sleep(REFUSED_RETRY_MS, undefined, { signal: ctx.signal }).catch(() => undefined)
        continue
      }
      if (!err.retriable) throw err
      log.warn({ err, attempt: n }, `${what} failed; retrying`)
      await sleep(Math.min(MAX_BACKOFF_MS, 100 * 2 ** n), undefined, { signal: ctx.signal }).catch(() => undefined)
    }
  }
}
