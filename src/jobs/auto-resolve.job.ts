// The auto-resolve job of the alerts role (in the jobs' lifecycle, runner.ts): every interval, the firing alerts whose
// integration's silence (autoResolveAfterSeconds) has passed since their last notification are resolved, with an
// entry in the streams, suppressed alerts whose maintenance window has ended are released (triggered), the inhibition
// scans of sources with many targets are continued, and alerts resolved longer ago than the retention are removed. Its
// state is in Redis (alerts:auto-resolve), so it survives restarts; each call is one atomic script, so every process
// of the role may run it (not exclusive) and an alert is resolved once.
import type { Logger } from '../shared/logger.js'
import type { Metrics } from '../shared/metrics.js'
import type { AlertStore } from '../state/redis/alerts.js'

const PER_CALL = 100
/** Calls of the inhibition scans per account and sweep (each changes at most 200 targets). */
const INHIBIT_CALLS = 50

export interface AutoResolverOptions {
  /** Entries a stream keeps (the resolve entries it writes are trimmed like the consumer's). */
  readonly streamMaxLen: number
  readonly intervalMs: number
  /** Resolved alerts are removed this long after they were resolved. */
  readonly retentionMs: number
  readonly metrics: Metrics
  readonly log: Logger
}

export class AutoResolveJob {
  readonly name = 'auto-resolve'
  readonly exclusive = false

  constructor(
    private readonly alerts: AlertStore,
    private readonly options: AutoResolverOptions,
  ) {}

  get everyMs(): number {
    return this.options.intervalMs
  }

  /** Resolves what is due now. A Redis failure is logged and left to the next tick. */
  async tick(_now: number, stopping: () => boolean): Promise<void> {
    await this.resolveDue(stopping)
  }

  private async resolveDue(stopping: () => boolean): Promise<void> {
    let total = 0
    try {
      for (;;) {
        const ids = await this.alerts.autoResolve(Date.now(), PER_CALL, this.options.streamMaxLen)
        total += ids.length
        if (ids.length < PER_CALL || stopping()) break
      }
      let released = 0
      for (;;) {
        const ids = await this.alerts.release(Date.now(), PER_CALL, this.options.streamMaxLen)
        released += ids.length
        if (ids.length < PER_CALL || stopping()) break
      }
      if (released > 0) {
        this.options.metrics.alertsReleased.inc(released)
        this.options.log.info({ released }, 'suppressed alerts released: their maintenance window ended')
      }
      // Inhibition scans left pending by sources of many targets (a page of 200 per call).
      const pending = await this.alerts.inhibitContinue(this.options.streamMaxLen, INHIBIT_CALLS)
      if (pending > 0) this.options.log.info({ pending }, 'inhibition scans still pending after this sweep')
      let pruned = 0
      while (!stopping()) {
        const n = await this.alerts.prune(Date.now() - this.options.retentionMs, PER_CALL)
        pruned += n
        if (n < PER_CALL) break
      }
      if (pruned > 0) this.options.log.info({ pruned }, 'resolved alerts past their retention removed')
    } catch (err) {
      this.options.log.warn({ err }, 'auto-resolve failed; retried at the next interval')
    }
    if (total > 0) {
      this.options.metrics.alertsAutoResolved.inc(total)
      this.options.log.info({ resolved: total }, 'alerts resolved after their silence')
    }
  }
}
