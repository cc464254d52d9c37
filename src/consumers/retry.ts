// Retries a sink write until it succeeds or the batch must be given up (the consumer is stopping or
// the partition moved): infrastructure failures are waited out, with backoff and heartbeats, so a
// slow or absent sink holds the batch instead of losing it or fetching more.
import type { Logger } from '../app/logger.js'
import type { BatchContext } from '../broker/ports.js'

const MAX_BACKOFF_MS = 5000

export async function retrying<T>(
  ctx: BatchContext,
  log: Logger,
  what: string,
  attempt: (n: number) => Promise<T>,
  failures?: { inc(): void },
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      // Heartbeat before each write: a member that lost the partition stops here instead of writing.
      await ctx.heartbeat()
      return await attempt(n)
    } catch (err) {
      failures?.inc()
      log.warn({ err, attempt: n }, `${what} failed; retrying`)
      if (!ctx.shouldContinue()) throw err
      await new Promise((r) => setTimeout(r, Math.min(MAX_BACKOFF_MS, 100 * 2 ** n)))
      if (!ctx.shouldContinue()) throw err
    }
  }
}
