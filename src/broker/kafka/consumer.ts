// The consumer side of the Kafka adapter (kafkajs), built to stay alive or die loudly:
// - while a handler works on a batch, the member's heartbeat goes on in the background, however long
//   a sink takes; a heartbeat that says the member lost its partitions (evicted after a broker pause,
//   a rebalance) aborts the batch, and its error goes back to kafkajs, which rejoins the group;
// - when kafkajs gives up on a consumer (a commit refused after an eviction, retries exhausted), a
//   new one replaces it with backoff; only errors no restart can fix (refused credentials or
//   topics, a bug in a handler) are fatal, and reach onFatal;
// - lag is polled from the group's committed offsets and the high watermarks, so it is true even
//   while no batch completes, and a member that holds a lagging partition without progress for the
//   stall time says so (gauge, readiness).
import { setTimeout as sleep } from 'node:timers/promises'
import type { Admin, Consumer as KafkaConsumer, EachBatchPayload, Kafka } from 'kafkajs'
import type { Logger } from '../../shared/logger.js'
import type { Metrics } from '../../shared/metrics.js'
import { AppError } from '../../shared/errors.js'
import { groupPositions } from './admin.js'
import type { Consumer, ConsumerHealth, ConsumerOptions, InboundMessage } from '../ports.js'

export interface ConsumerSettings {
  readonly partitions: number
  readonly sessionTimeoutMs: number
  readonly fetchMaxBytes: number
  readonly stallMs: number
}

interface Deps {
  readonly kafka: Kafka
  readonly admin: () => Promise<Admin>
  readonly settings: ConsumerSettings
  readonly metrics: Metrics
  readonly log: Logger
}

/** Heartbeat answers that mean this member no longer owns its partitions. */
const MEMBERSHIP_LOST = new Set([
  'UNKNOWN_MEMBER_ID',
  'ILLEGAL_GENERATION',
  'REBALANCE_IN_PROGRESS',
  'FENCED_INSTANCE_ID',
  'NOT_COORDINATOR_FOR_GROUP',
])
/** Errors no restart can fix: the broker refuses this client, its group or its topic. */
const FATAL_TYPES = new Set([
  'TOPIC_AUTHORIZATION_FAILED',
  'GROUP_AUTHORIZATION_FAILED',
  'CLUSTER_AUTHORIZATION_FAILED',
  'SASL_AUTHENTICATION_FAILED',
  'UNSUPPORTED_SASL_MECHANISM',
  'ILLEGAL_SASL_STATE',
  'INVALID_GROUP_ID',
  'INVALID_SESSION_TIMEOUT',
  'UNSUPPORTED_VERSION',
  'INCONSISTENT_GROUP_PROTOCOL',
])
const FATAL_NAMES = new Set(['KafkaJSNotImplemented', 'KafkaJSSASLAuthenticationError'])
const MAX_RESTART_DELAY_MS = 30_000
const LAG_POLL_MS = 5000

/** A handler failure that is a bug, marked so the crash that follows is not restarted. */
class HandlerBug extends Error {
  override readonly name = 'HandlerBug'
}

function rootCause(err: unknown): { type?: string; name?: string } {
  let e = err as { cause?: unknown; type?: string; name?: string } | undefined
  for (let i = 0; i < 10 && e?.cause; i++) e = e.cause
  return e ?? {}
}

function isFatal(err: unknown): boolean {
  if (err instanceof HandlerBug) return true
  const root = rootCause(err)
  return FATAL_TYPES.has(root.type ?? '') || FATAL_NAMES.has(root.name ?? '') || root instanceof HandlerBug
}

interface PartitionProgress {
  /** The group's committed position (next offset to read). */
  position: bigint
  lag: number
  /** When the position last moved, or the partition was last seen without lag. */
  movedAt: number
}

export class SupervisedConsumer implements Consumer {
  private current: KafkaConsumer | undefined
  private stopping = false
  private restarts = 0
  private restartTimer: NodeJS.Timeout | undefined
  private lagTimer: NodeJS.Timeout | undefined
  private polling = false
  /** Partitions this member holds; undefined while it is not in the group (starting, crashed). */
  private assigned: Set<number> | undefined
  private outOfGroupSince = Date.now()
  private readonly progress = new Map<number, PartitionProgress>()
  private readonly inflight = new Set<AbortController>()
  /** Partitions whose batch said it cannot go on, and why (BatchContext.blocked). */
  private readonly blocked = new Map<number, string>()
  private readonly log: Logger

  constructor(
    private readonly deps: Deps,
    private readonly options: ConsumerOptions,
  ) {
    this.log = deps.log.child({ group: options.groupId })
  }

  async start(): Promise<void> {
    await this.launch()
    this.lagTimer = setInterval(() => void this.pollLag(), LAG_POLL_MS)
    this.lagTimer.unref()
  }

  async stop(): Promise<void> {
    if (this.stopping) return
    this.stopping = true
    clearInterval(this.lagTimer)
    clearTimeout(this.restartTimer)
    // Retry loops waiting on a sink end now; a write in progress finishes and is committed.
    for (const c of this.inflight) c.abort(new AppError('CONSUMER_STOPPING', 'the consumer is stopping', true))
    await this.current?.disconnect()
    this.deps.metrics.consumerStalled.set({ group: this.options.groupId }, 0)
  }

  health(): ConsumerHealth {
    const now = Date.now()
    const stallMs = this.deps.settings.stallMs
    let lag = 0
    const stuck: number[] = []
    for (const [partition, p] of this.progress) {
      lag += p.lag
      if (p.lag > 0 && now - p.movedAt > stallMs && this.assigned?.has(partition)) stuck.push(partition)
    }
    const outOfGroup = this.assigned === undefined && now - this.outOfGroupSince > stallMs && lag > 0
    const [blocked] = this.blocked
    const stalled = stuck.length > 0 || outOfGroup || blocked !== undefined
    const detail = blocked
      ? `partition ${blocked[0]} holds its batch: ${blocked[1]}`
      : stuck.length > 0
        ? `no progress for over ${stallMs / 1000} s on partitions ${stuck.join(', ')} (lag ${lag})`
        : outOfGroup
          ? `not in the consumer group for over ${stallMs / 1000} s (lag ${lag})`
          : `lag ${lag}`
    return { lag, stalled, detail }
  }

  private build(): KafkaConsumer {
    const { settings } = this.deps
    const consumer = this.deps.kafka.consumer({
      groupId: this.options.groupId,
      maxBytesPerPartition: settings.fetchMaxBytes,
      maxBytes: settings.fetchMaxBytes * 2,
      sessionTimeout: settings.sessionTimeoutMs,
      heartbeatInterval: Math.floor(settings.sessionTimeoutMs / 10),
      allowAutoTopicCreation: false,
    })
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      if (consumer !== this.current) return
      this.assigned = new Set(event.payload.memberAssignment[this.options.topic] ?? [])
      this.restarts = 0
      this.log.info({ partitions: [...this.assigned] }, 'joined the consumer group')
      this.options.onRebalance?.()
    })
    consumer.on(consumer.events.CRASH, (event) => this.onCrash(consumer, event.payload.error, event.payload.restart))
    return consumer
  }

  private async launch(): Promise<void> {
    const consumer = this.build()
    this.current = consumer
    await consumer.connect()
    await consumer.subscribe({ topics: [this.options.topic], fromBeginning: true })
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: true,
      partitionsConsumedConcurrently: this.deps.settings.partitions,
      eachBatch: (payload) => this.eachBatch(consumer, payload),
    })
  }

  private leaveGroup(): void {
    if (this.assigned !== undefined) this.outOfGroupSince = Date.now()
    this.assigned = undefined
  }

  private onCrash(consumer: KafkaConsumer, error: Error, restart: boolean): void {
    if (this.stopping || consumer !== this.current) return
    this.leaveGroup()
    if (isFatal(error)) {
      this.log.fatal({ err: error }, 'consumer cannot go on')
      this.options.onFatal?.(error)
      return
    }
    if (restart) {
      this.log.warn({ err: error }, 'consumer crashed; the client library restarts it')
      return
    }
    // kafkajs gave up on this consumer (a non-retriable answer, such as a commit refused after the
    // member was evicted): a new consumer, with a new member id, replaces it.
    const delayMs = Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** this.restarts++)
    this.deps.metrics.consumerRestarts.inc({ group: this.options.groupId })
    this.log.warn({ err: error, delayMs }, 'consumer stopped by the client library; starting a new one')
    this.restartTimer = setTimeout(() => void this.relaunch(consumer), delayMs)
  }

  private async relaunch(old: KafkaConsumer): Promise<void> {
    if (this.stopping) return
    await old.disconnect().catch(() => undefined)
    if (this.stopping) return
    try {
      await this.launch()
    } catch (err) {
      this.onCrash(this.current!, err as Error, false)
    }
  }

  private async eachBatch(consumer: KafkaConsumer, payload: EachBatchPayload): Promise<void> {
    const { batch } = payload
    const heartbeat = () => payload.heartbeat()
    if (batch.messages.length === 0) return
    const controller = new AbortController()
    this.inflight.add(controller)
    let lost = false
    let beating: Promise<void> | undefined
    const interval = Math.max(500, Math.floor(this.deps.settings.sessionTimeoutMs / 10))
    /**
     * When the last heartbeat the group answered was sent, at the earliest (kafkajs sends one only when its own
     * interval has passed since the last it completed, so a call that sent nothing vouches for one an interval back).
     */
    let answeredFrom = -Infinity
    const beat = () => (beating ??= beatOnce().finally(() => (beating = undefined)))
    const beatOnce = async () => {
      const sentAt = Date.now()
      try {
        await heartbeat()
        answeredFrom = sentAt - interval
      } catch (err) {
        // A pause or an unreachable coordinator is not a verdict: keep working, keep trying.
        if (MEMBERSHIP_LOST.has((err as { type?: string }).type ?? '')) {
          lost = true
          this.log.warn(
            { err, partition: batch.partition },
            'partition lost (member evicted or group rebalancing); leaving the batch',
          )
          controller.abort(err)
        } else {
          this.log.debug({ err }, 'heartbeat failed; retrying')
        }
      }
    }
    const owned = async () => {
      const fresh = () => Date.now() - answeredFrom < this.deps.settings.sessionTimeoutMs / 2
      while (!fresh()) {
        controller.signal.throwIfAborted()
        await beat()
        if (!fresh()) await sleep(interval, undefined, { signal: controller.signal }).catch(() => undefined)
      }
      controller.signal.throwIfAborted()
    }
    const timer = setInterval(() => void beat(), interval)
    try {
      await beat()
      if (lost) throw controller.signal.reason
      const messages: InboundMessage[] = batch.messages.map((m) => ({
        offset: BigInt(m.offset),
        value: m.value ?? Buffer.alloc(0),
        headers: decodeHeaders(m.headers),
      }))
      const blocked = (reason: string | undefined) => {
        if (reason === undefined) this.blocked.delete(batch.partition)
        else this.blocked.set(batch.partition, reason)
        this.updateStalled()
      }
      await this.options.handler(
        { topic: batch.topic, partition: batch.partition, messages, highWatermark: BigInt(batch.highWatermark) },
        { signal: controller.signal, blocked, owned },
      )
      // The work is durable; a member that lost the partition must not commit (it would be refused).
      if (lost) throw controller.signal.reason
      const next = BigInt(batch.lastOffset()) + 1n
      await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: next.toString() }])
      this.markProgress(batch.partition, next, BigInt(batch.highWatermark))
    } catch (err) {
      if (controller.signal.aborted && err === controller.signal.reason) throw err
      if ((err as { name?: string }).name?.startsWith('KafkaJS')) throw err
      // Handlers turn content into rejections and wait out sinks: anything else is a bug.
      this.log.fatal({ err, partition: batch.partition }, 'the batch handler failed')
      this.options.onFatal?.(err)
      throw new HandlerBug(err instanceof Error ? err.message : String(err), { cause: err })
    } finally {
      clearInterval(timer)
      this.inflight.delete(controller)
      if (this.blocked.delete(batch.partition)) this.updateStalled()
    }
  }

  private markProgress(partition: number, position: bigint, highWatermark: bigint): void {
    const lag = Math.max(0, Number(highWatermark - position))
    this.progress.set(partition, { position, lag, movedAt: Date.now() })
    this.deps.metrics.consumerLag.set({ topic: this.options.topic, partition: String(partition) }, lag)
    this.updateStalled()
  }

  /** Lag of every partition from the group's committed offsets and the high watermarks. */
  private async pollLag(): Promise<void> {
    if (this.polling || this.stopping) return
    this.polling = true
    try {
      const positions = await groupPositions(await this.deps.admin(), this.options.groupId, this.options.topic)
      const now = Date.now()
      for (const { partition, position, high } of positions) {
        const lag = Math.max(0, Number(high - position))
        const before = this.progress.get(partition)
        const moved = !before || before.position !== position || lag === 0
        this.progress.set(partition, { position, lag, movedAt: moved ? now : before.movedAt })
        this.deps.metrics.consumerLag.set({ topic: this.options.topic, partition: String(partition) }, lag)
      }
    } catch (err) {
      this.log.debug({ err }, 'lag poll failed')
    } finally {
      this.polling = false
      this.updateStalled()
    }
  }

  private reportedStalled = false

  private updateStalled(): void {
    const { stalled, detail } = this.health()
    this.deps.metrics.consumerStalled.set({ group: this.options.groupId }, stalled ? 1 : 0)
    if (stalled !== this.reportedStalled) {
      this.reportedStalled = stalled
      if (stalled) this.log.error({ detail }, 'consumer stalled')
      else this.log.info({ detail }, 'consumer progressing again')
    }
  }
}

function decodeHeaders(
  headers: Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (v === undefined) continue
    const one = Array.isArray(v) ? v[0] : v
    if (one !== undefined) out[k] = one.toString()
  }
  return out
}
