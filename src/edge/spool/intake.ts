// What the edge writes accepted requests to: Kafka directly while it acknowledges in time, the disk
// spool otherwise. A request is answered 202 only once its messages are acknowledged by Kafka or
// fsync'd to the spool; 503 comes only when the spool is full or its disk fails.
//
// - Kafka acknowledges within `afterMs`: done, the spool is not touched (the healthy path).
// - Kafka fails, or is late: the messages are appended to the spool and the edge switches to spooling:
//   later requests go straight to the spool (no wait) until the drainer has emptied it.
// - The drainer publishes spooled entries in order, each message marked as a replay (REPLAY_HEADER),
//   and deletes an entry only after Kafka acknowledged it. A consumer skips a replayed message whose
//   identity (request id, part) it already stored, so a replay after a kill -9, or after a late
//   first attempt that did land, is stored once.
// - A late first attempt is still in flight: its entry is not drained until it settles (acknowledged:
//   the entry is deleted; failed: the entry is drained). The replay therefore never overtakes it.
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from '../../shared/logger.js'
import type { Metrics } from '../../shared/metrics.js'
import { REPLAY_HEADER, type OutboundMessage, type Publisher } from '../../broker/ports.js'
import { messageOf } from '../../shared/errors.js'
import { DiskSpool, type SpoolStats } from './disk-spool.js'

export interface IntakeReceipt {
  /** The messages are on the edge's disk and reach Kafka when it is back. */
  readonly spooled: boolean
}

/** The edge's side of the broker: resolves once the messages are durable (Kafka or spool). */
export interface Intake {
  accept(topic: string, messages: readonly OutboundMessage[]): Promise<IntakeReceipt>
}

export interface SpoolSettings {
  readonly dir: string
  readonly maxBytes: number
  /** How long a request waits for Kafka before its messages go to the spool. */
  readonly afterMs: number
}

export interface IntakeState {
  readonly spooling: boolean
  readonly spool: SpoolStats & { readonly maxBytes: number; readonly dir: string }
}

/** Bytes of spooled entries published per drain round. */
const DRAIN_ROUND_BYTES = 8 * 1024 * 1024
/** Kafka error types that refuse the records themselves: the same messages fail again whenever they are sent. */
const RECORDS_REFUSED = new Set(['MESSAGE_TOO_LARGE', 'CORRUPT_MESSAGE', 'INVALID_RECORD', 'RECORD_LIST_TOO_LARGE'])
const MAX_BACKOFF_MS = 5000

export class SpoolingIntake implements Intake {
  private spool?: DiskSpool
  private spooling = false
  /** Entries whose first attempt at Kafka is still in flight: not drained until it settles. */
  private readonly pending = new Set<bigint>()
  private drainer?: Promise<void>
  private wake?: () => void
  private closed = false

  constructor(
    private readonly publisher: Publisher,
    private readonly settings: SpoolSettings,
    private readonly metrics: Metrics,
    private readonly log: Logger,
  ) {}

  /** Opens the spool (taking its lock) and drains what an earlier run left in it. */
  async open(): Promise<void> {
    this.spool = await DiskSpool.open(this.settings.dir, this.settings.maxBytes)
    const stats = this.spool.stats()
    this.observe()
    this.log.info({ dir: this.settings.dir, maxBytes: this.settings.maxBytes, ...stats }, 'spool opened')
    if (stats.entries > 0) {
      this.startSpooling('the spool holds messages from an earlier run')
      this.kick()
    }
  }

  state(): IntakeState | undefined {
    if (!this.spool) return undefined
    return {
      spooling: this.spooling,
      spool: { ...this.spool.stats(), maxBytes: this.settings.maxBytes, dir: this.settings.dir },
    }
  }

  /** Whether the spool can take a typical body now (readiness): 1 MiB, or a sixteenth of a smaller spool. */
  hasRoom(): boolean {
    return this.spool?.hasRoomFor(Math.min(1024 * 1024, this.settings.maxBytes / 16)) ?? false
  }

  async accept(topic: string, messages: readonly OutboundMessage[]): Promise<IntakeReceipt> {
    const spool = this.spool
    if (!spool) {
      await this.publisher.publish(topic, messages)
      return { spooled: false }
    }
    if (this.spooling) return this.toSpool(spool, topic, messages)
    const attempt = this.publisher.publish(topic, messages)
    const outcome = await settleWithin(attempt, this.settings.afterMs)
    if (outcome.ok) return { spooled: false }
    this.startSpooling(
      outcome.late ? `kafka did not acknowledge within ${this.settings.afterMs} ms` : messageOf(outcome.error),
    )
    return this.toSpool(spool, topic, messages, outcome.late ? attempt : undefined)
  }

  private async toSpool(
    spool: DiskSpool,
    topic: string,
    messages: readonly OutboundMessage[],
    attempt?: Promise<void>,
  ): Promise<IntakeReceipt> {
    const seq = await spool.append(topic, messages)
    this.metrics.spoolAppended.inc(messages.length)
    this.observe()
    if (attempt) {
      this.pending.add(seq)
      void attempt
        .then(
          () => spool.remove([seq]).then(() => this.observe()),
          () => undefined,
        )
        .catch((err: unknown) =>
          this.log.warn({ err }, 'spool entry acknowledged by kafka late could not be deleted; it will be replayed'),
        )
        .finally(() => {
          this.pending.delete(seq)
          this.kick()
        })
    }
    this.kick()
    return { spooled: true }
  }

  private startSpooling(reason: string): void {
    if (this.spooling) return
    this.spooling = true
    this.metrics.spooling.set(1)
    this.log.warn({ reason }, 'spooling started: requests are written to the disk spool until kafka takes them again')
  }

  private stopSpooling(): void {
    if (!this.spooling) return
    this.spooling = false
    this.metrics.spooling.set(0)
    this.log.info('spooling stopped: the spool is drained, requests go to kafka directly')
  }

  private kick(): void {
    if (this.closed || !this.spool) return
    if (this.drainer) {
      this.wake?.()
      return
    }
    this.drainer = this.drain(this.spool)
      .catch((err: unknown) => {
        // The spool's own disk failed (a read or delete): try again a little later.
        this.log.error({ err }, 'spool drain failed on the spool itself; retrying in 5 s')
        setTimeout(() => this.kick(), MAX_BACKOFF_MS).unref()
      })
      .finally(() => {
        this.drainer = undefined
      })
  }

  private async pause(ms: number): Promise<void> {
    const controller = new AbortController()
    this.wake = () => controller.abort()
    await sleep(ms, undefined, { signal: controller.signal }).catch(() => undefined)
    this.wake = undefined
  }

  private async drain(spool: DiskSpool): Promise<void> {
    let backoff = 200
    // After Kafka refused the records of a round, entries go one at a time until the refused one is found.
    let isolating = false
    while (!this.closed) {
      const entries = await spool.oldest(isolating ? 0 : DRAIN_ROUND_BYTES, this.pending)
      if (entries.length === 0) {
        if (spool.stats().entries === 0) {
          this.stopSpooling()
          return
        }
        await this.pause(200)
        continue
      }
      try {
        const byTopic = new Map<string, OutboundMessage[]>()
        for (const e of entries) {
          const list = byTopic.get(e.topic) ?? []
          for (const m of e.messages) list.push({ ...m, headers: { ...m.headers, [REPLAY_HEADER]: '1' } })
          byTopic.set(e.topic, list)
        }
        await Promise.all([...byTopic].map(([topic, messages]) => this.publisher.publish(topic, messages)))
        await spool.remove(entries.map((e) => e.seq))
        this.metrics.spoolDrained.inc(entries.reduce((n, e) => n + e.messages.length, 0))
        this.metrics.spoolDrainedBytes.inc(entries.reduce((n, e) => n + e.bytes, 0))
        this.observe()
        backoff = 200
      } catch (err) {
        const refused = refusedRecords(err)
        if (refused && entries.length > 1) {
          isolating = true
          continue
        }
        if (refused) {
          // Not an outage: retrying would hold every entry behind this one for ever.
          isolating = false
          const file = await spool.setAside(entries[0]!.seq)
          this.metrics.spoolRefused.inc(entries[0]!.messages.length)
          this.observe()
          this.log.error(
            { err, refused, file, messages: entries[0]!.messages.length },
            'kafka refuses the records of a spooled entry; set aside in a file, the drain goes on',
          )
          continue
        }
        this.log.warn(
          { err, entries: entries.length, retryInMs: backoff },
          'spool drain: kafka did not take the messages; retrying',
        )
        await this.pause(backoff)
        backoff = Math.min(MAX_BACKOFF_MS, backoff * 2)
      }
    }
  }

  private observe(): void {
    const stats = this.spool?.stats()
    if (!stats) return
    this.metrics.spoolBytes.set(stats.bytes)
    this.metrics.spoolMessages.set(stats.messages)
    this.metrics.spoolOldest.set(stats.oldestMs === undefined ? 0 : stats.oldestMs / 1000)
  }

  /** Stops draining (what is left stays on disk for the next start) and releases the spool. */
  async close(): Promise<void> {
    this.closed = true
    this.wake?.()
    await this.drainer
    await this.spool?.close()
    this.spool = undefined
  }
}

function refusedRecords(err: unknown): string | undefined {
  for (
    let e = err as { type?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 8;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.type === 'string' && RECORDS_REFUSED.has(e.type)) return e.type
  }
  return undefined
}

type Settled = { ok: true } | { ok: false; late: true } | { ok: false; late: false; error: unknown }

async function settleWithin(attempt: Promise<void>, ms: number): Promise<Settled> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<Settled>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, late: true }), ms)
  })
  try {
    return await Promise.race([
      attempt.then(
        (): Settled => ({ ok: true }),
        (error: unknown): Settled => ({ ok: false, late: false, error }),
      ),
      late,
    ])
  } finally {
    clearTimeout(timer)
  }
}
