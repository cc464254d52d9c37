// What the edge saw of senders' authentication, reported to Redis about once a second rather than on
// every request: a forger sending thousands of requests costs one write per interval, and a sender's
// failures and each secret's last use can still be read by the API and the console within seconds.
import type { Logger } from '../shared/logger.js'
import type { Metrics } from '../shared/metrics.js'
import type { AuthOutcomes, IntegrationStore } from '../state/redis/integrations.js'
import type { AuthOutcome } from './sender-auth.js'

/** Integrations tracked between two reports, at most (a flood of distinct ones is reported in part). */
const MAX_PENDING = 10_000

export class SenderAuthReports {
  private pending = new Map<string, AuthOutcomes>()
  private timer?: NodeJS.Timeout
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private readonly store: IntegrationStore,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly intervalMs = 1000,
  ) {}

  /** Counts one request's outcome (no I/O). */
  record(integrationId: string, outcome: AuthOutcome, now = Date.now()): void {
    if (!outcome.ok) this.metrics.webhookAuthFailures.inc({ reason: outcome.reason })
    let o = this.pending.get(integrationId)
    if (!o) {
      if (this.pending.size >= MAX_PENDING) return
      this.pending.set(integrationId, (o = { failures: 0, used: new Map() }))
    }
    if (outcome.ok) o.used.set(outcome.secretId, now)
    else {
      o.failures++
      o.lastFailureAt = now
      o.lastFailureReason = outcome.reason
    }
    this.timer ??= setTimeout(() => void this.flush(), this.intervalMs).unref()
  }

  /** Writes what was counted; a failed write is logged and its counts are dropped (they are statistics). */
  flush(): Promise<void> {
    this.timer = undefined
    const batch = this.pending
    this.pending = new Map()
    this.flushing = this.flushing.then(() =>
      this.store
        .recordAuthOutcomes(batch)
        .catch((err: unknown) =>
          this.log.warn({ err, integrations: batch.size }, 'sender authentication outcomes not recorded'),
        ),
    )
    return this.flushing
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    await this.flush()
  }
}
