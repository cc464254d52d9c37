// The freshness promise, measured: every SLUICE_FRESHNESS_INTERVAL_MS one process of the checks role publishes a
// canary event to each partition of the events topic, as the edge publishes a request's events (the moment Kafka
// acknowledges them is the moment the edge answers 202), then reads ClickHouse every 100 ms until each is queryable.
// Each canary's time is a sample of sluice_freshness_seconds and is kept per hour (the health answer's p50 and p95);
// sluice_freshness_unseen_age_seconds is how long the oldest canary not yet queryable has waited (0 when none), which
// the SluiceDataNotQueryable rule watches: with the consumers stopped it grows until it fires.
// Canaries are events of the reserved environment CANARY_ENVIRONMENT (no account's), kept as events are.
import { randomUUID } from 'node:crypto'
import type { ClickHouseClient } from '@clickhouse/client'
import { messageOf } from '../shared/errors.js'
import type { Logger } from '../shared/logger.js'
import type { Metrics } from '../shared/metrics.js'
import type { FreshnessStore } from '../state/redis/freshness.js'

export const CANARY_ENVIRONMENT = '__sluice_canary'
export const CANARY_EVENT_TYPE = 'sluice.canary'
/** How long a canary is looked for before it counts as not queryable in time (it is then still watched). */
const WAIT_MS = 60_000
const POLL_MS = 100
const HOUR_MS = 3_600_000

/** A canary event, as it is sent. */
export interface Canary {
  readonly eventTypeId: string
  readonly trafficTypeName: string
  readonly key: string
  readonly timestamp: number
}

/**
 * Publishes canaries as the edge publishes a request's events, one message each, spread over the events topic's
 * partitions (app/container.ts); resolves once Kafka acknowledged them all.
 */
export type CanaryIntake = (canaries: readonly Canary[], environmentId: string, receivedAtMs: number) => Promise<void>

export interface FreshnessOptions {
  readonly intervalMs: number
  /** Canaries per tick: the events topic's partitions (unordered messages spread over them). */
  readonly partitions: number
  readonly database: string
  readonly owner: string
  readonly log: Logger
}

/** One hour's canaries: how many, their p50 and p95 (ms) from accepted to queryable, and how many were not in time. */
export interface FreshnessHour {
  readonly hour: string
  readonly canaries: number
  readonly p50Ms: number | null
  readonly p95Ms: number | null
  readonly notQueryable: number
}

/** The nearest-rank quantile of sorted times. */
const quantile = (sorted: readonly number[], q: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

/** The hours' figures, newest first, from their recorded times (-1: not queryable in time). */
export function freshnessHours(recorded: ReadonlyMap<number, readonly number[]>): FreshnessHour[] {
  return [...recorded.entries()]
    .sort(([a], [b]) => b - a)
    .map(([hour, times]) => {
      const seen = times.filter((t) => t >= 0).sort((a, b) => a - b)
      return {
        hour: new Date(hour * HOUR_MS).toISOString(),
        canaries: times.length,
        p50Ms: quantile(seen, 0.5),
        p95Ms: quantile(seen, 0.95),
        notQueryable: times.length - seen.length,
      }
    })
}

/** The last 24 hours' figures, newest first (for any process: it reads Redis only). */
export async function freshnessOfLastDay(store: FreshnessStore, now = Date.now()): Promise<FreshnessHour[]> {
  const hour = Math.floor(now / HOUR_MS)
  return freshnessHours(await store.hours(Array.from({ length: 24 }, (_, i) => hour - i)))
}

export class FreshnessCanary {
  /** A job of the checks role (jobs/runner.ts): every process ticks it, one claims each interval. */
  readonly name = 'freshness-canary'
  readonly exclusive = false
  private stopping: () => boolean = () => false
  /** When the oldest canary not yet queryable was accepted (undefined: every canary was seen). */
  private oldestUnseenAt: number | undefined

  constructor(
    private readonly store: FreshnessStore,
    private readonly intake: CanaryIntake,
    private readonly clickhouse: ClickHouseClient,
    private readonly metrics: Metrics,
    private readonly options: FreshnessOptions,
  ) {}

  get everyMs(): number {
    return this.options.intervalMs
  }

  /** Whether it runs at all (an interval of 0 turns it off). */
  get enabled(): boolean {
    return this.options.intervalMs > 0
  }

  async tick(_now: number, stopping: () => boolean): Promise<void> {
    this.stopping = stopping
    await this.run().catch((err: unknown) =>
      this.options.log.warn({ err: messageOf(err) }, 'freshness canary failed; tried again'),
    )
  }

  private async run(): Promise<void> {
    const { intervalMs, partitions, owner } = this.options
    const tick = Math.floor(Date.now() / intervalMs)
    if (!(await this.store.claimTick(tick, owner, intervalMs * 2))) return
    const keys = Array.from({ length: partitions }, (_, i) => `canary-${tick}-${i}-${randomUUID().slice(0, 8)}`)
    const sentAt = Date.now()
    const canaries = keys.map((key) => ({
      eventTypeId: CANARY_EVENT_TYPE,
      trafficTypeName: 'sluice',
      key,
      timestamp: sentAt,
    }))
    await this.intake(canaries, CANARY_ENVIRONMENT, sentAt)
    // Accepted: from here on, as the edge's 202.
    const acceptedAt = Date.now()
    this.oldestUnseenAt ??= acceptedAt
    const times = new Map<string, number>()
    while (times.size < keys.length && Date.now() - acceptedAt < WAIT_MS && !this.stopping()) {
      for (const key of await this.queryable(keys, sentAt)) if (!times.has(key)) times.set(key, Date.now() - acceptedAt)
      this.showAge()
      if (times.size < keys.length) await new Promise((r) => setTimeout(r, POLL_MS))
    }
    if (times.size === keys.length) this.oldestUnseenAt = undefined
    this.showAge()
    for (const t of times.values()) this.metrics.freshnessSeconds.observe(t / 1000)
    await this.store.record(
      Math.floor(acceptedAt / HOUR_MS),
      keys.map((k) => times.get(k) ?? -1),
    )
  }

  private showAge(): void {
    const at = this.oldestUnseenAt
    this.metrics.freshnessUnseenAge.set(at === undefined ? 0 : (Date.now() - at) / 1000)
  }

  /** Which of the canaries ClickHouse answers already. */
  private async queryable(keys: readonly string[], sentAt: number): Promise<string[]> {
    const { database } = this.options
    // Only values of the code's own making go into the statement (ClickHouse 18.16 has no query parameters).
    const result = await this.clickhouse.query({
      query: `SELECT key FROM ${database}.events WHERE environment_id = '${CANARY_ENVIRONMENT}' AND event_type = '${CANARY_EVENT_TYPE}'
        AND timestamp >= toDateTime(${Math.floor(sentAt / 1000) - 1}) AND key IN (${keys.map((k) => `'${k}'`).join(', ')})`,
      format: 'JSONEachRow',
    })
    return (await result.json<{ key: string }>()).map((r) => r.key)
  }
}
