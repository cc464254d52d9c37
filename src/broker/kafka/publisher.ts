// The publisher of the Kafka adapter. Concurrent publish calls are grouped into one flush ("group
// commit"), cut into rounds by the planner; each call settles as soon as the last round holding its
// messages is acknowledged (acks = all). It sends with @platformatic/kafka's idempotent producer
// rather than kafkajs's (which the admin and consumers still use): on this machine that producer
// spent 18 µs of CPU per 1.8 KB webhook message where kafkajs spent 86, and 265 µs per SDK body of
// 500 events where kafkajs spent 1,427 (npm run bench:kafka-clients): kafkajs copies each record
// through several encoders and computes CRC32C in JavaScript.
import {
  kGetConnection,
  NetworkError,
  ProduceAcks,
  Producer,
  type Broker,
  type Callback,
  type Connection,
} from '@platformatic/kafka'
import type { Logger } from '../../shared/logger.js'
import { PublishError, type OutboundMessage, type Publisher } from '../ports.js'
import type { KafkaAdmin } from './admin.js'
import { messageBytes, RoundPlanner, type Round, type Span } from './planner.js'

export interface PublisherSettings {
  readonly brokers: readonly string[]
  readonly clientId: string
  readonly messageMaxBytes: number
  readonly publishTimeoutMs: number
}

const FLUSH_MAX_BYTES = 64 * 1024 * 1024
/** A send the client has not settled this long after its own timeout is given up (the producer is replaced). */
const SEND_GRACE_MS = 2000

/** What the publisher uses of a producer. */
export type SendingProducer = Pick<Producer<Buffer, Buffer, Buffer, Buffer>, 'send' | 'close'>

/**
 * Idempotent: a produce request retried after a lost response is not written twice. Partitions are
 * chosen by the planner. Connections are made on the first send.
 */
function guardedProducer(settings: PublisherSettings): GuardedProducer {
  return new GuardedProducer({
    clientId: settings.clientId,
    bootstrapBrokers: [...settings.brokers],
    idempotent: true,
    acks: ProduceAcks.ALL,
    autocreateTopics: false,
    connectTimeout: 3000,
    timeout: settings.publishTimeoutMs,
    retries: 3,
    retryDelay: 200,
  })
}

/**
 * The client looks up the leader of each partition in its metadata and connects to it. While a
 * broker recovers (after a pause, during a leader election) the leader can be missing from the
 * metadata; the undefined broker then made its connection pool throw inside a network callback (an
 * uncaught TypeError) and the send never settled, so every later flush waited behind it
 * (platformatic/kafka#69 is the same lookup). Here a missing broker is an error of that send: the
 * client retries it and then reports it, and the edge spools what it could not publish.
 */
export class GuardedProducer extends Producer<Buffer, Buffer, Buffer, Buffer> {
  override [kGetConnection](broker: Broker | undefined, callback: Callback<Connection>): void {
    if (broker === undefined) {
      callback(
        new NetworkError('kafka: a partition has no leader in the metadata (the broker may be recovering)'),
        undefined,
      )
      return
    }
    super[kGetConnection](broker, callback)
  }
}

interface Job {
  readonly topic: string
  readonly messages: readonly OutboundMessage[]
  readonly bytes: number
  readonly resolve: () => void
  readonly reject: (err: Error) => void
  timer?: NodeJS.Timeout
}

export class KafkaPublisher implements Publisher {
  private producer?: SendingProducer
  private queue: Job[] = []
  private flushing = false
  private closed = false
  private readonly planner: RoundPlanner

  constructor(
    private readonly admin: Pick<KafkaAdmin, 'partitions'>,
    private readonly settings: PublisherSettings,
    private readonly log: Logger,
    /** How a producer is made (tests give a stand-in). */
    private readonly createProducer: (settings: PublisherSettings) => SendingProducer = guardedProducer,
  ) {
    this.planner = new RoundPlanner(settings.messageMaxBytes + 1024)
  }

  publish(topic: string, messages: readonly OutboundMessage[]): Promise<void> {
    if (this.closed) return Promise.reject(new PublishError('PUBLISHER_CLOSED', 'publisher is closed'))
    if (messages.length === 0) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      const job: Job = { topic, messages, bytes: messages.reduce((n, m) => n + messageBytes(m), 0), resolve, reject }
      // A job still queued at its deadline is withdrawn and never sent, so a 503 for it is certain.
      job.timer = setTimeout(() => {
        const i = this.queue.indexOf(job)
        if (i >= 0) {
          this.queue.splice(i, 1)
          reject(
            new PublishError(
              'PUBLISH_TIMEOUT',
              `kafka did not take the messages within ${this.settings.publishTimeoutMs} ms`,
            ),
          )
        }
      }, this.settings.publishTimeoutMs)
      this.queue.push(job)
      void this.flushLoop()
    })
  }

  private async flushLoop(): Promise<void> {
    if (this.flushing) return
    this.flushing = true
    try {
      while (this.queue.length > 0) {
        const jobs: Job[] = []
        let bytes = 0
        while (this.queue.length > 0 && (jobs.length === 0 || bytes + this.queue[0]!.bytes <= FLUSH_MAX_BYTES)) {
          const job = this.queue.shift()!
          clearTimeout(job.timer)
          jobs.push(job)
          bytes += job.bytes
        }
        await this.flush(jobs, bytes)
      }
    } finally {
      this.flushing = false
    }
  }

  private getProducer(): SendingProducer {
    this.producer ??= this.createProducer(this.settings)
    return this.producer
  }

  private async resetProducer(): Promise<void> {
    const producer = this.producer
    this.producer = undefined
    await producer?.close().catch(() => undefined)
  }

  /**
   * Sends the rounds in order and settles each job as soon as the last round holding its messages
   * is acknowledged. On a failure the jobs not yet settled are rejected, marked partial when some of
   * their messages were acknowledged already.
   */
  private async flush(jobs: readonly Job[], bytes: number): Promise<void> {
    let spans = new Map<Job, Span>()
    let acknowledged = 0
    try {
      const producer = this.getProducer()
      const plan = this.planner.plan(jobs, await this.admin.partitions(jobs.map((j) => j.topic)))
      spans = plan.spans
      for (const [i, round] of plan.rounds.entries()) {
        await this.send(producer, round)
        acknowledged = i + 1
        for (const job of jobs) if (spans.get(job)?.last === i) job.resolve()
      }
    } catch (err) {
      const kafkaErrors = protocolErrors(err)
      this.log.error(
        { err, kafkaErrors, jobs: jobs.length, bytes, acknowledgedRounds: acknowledged },
        `kafka publish failed${kafkaErrors.length ? `: ${kafkaErrors.join(', ')}` : ''}`,
      )
      await this.resetProducer()
      for (const job of jobs) {
        const span = spans.get(job)
        if (span && span.last < acknowledged) continue
        const partial = span !== undefined && span.first < acknowledged
        job.reject(
          partial
            ? new PublishError('PUBLISH_PARTIAL', 'kafka acknowledged only part of the messages', { cause: err })
            : new PublishError('PUBLISH_FAILED', 'kafka did not acknowledge the messages', { cause: err }),
        )
      }
    }
  }

  /**
   * Sends one round; a send the client has not settled soon after its own timeout fails here (whatever it wrote is
   * unknown).
   */
  private async send(producer: SendingProducer, round: Round): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new PublishError(
              'PUBLISH_TIMEOUT',
              `kafka did not settle a send within ${this.settings.publishTimeoutMs + SEND_GRACE_MS} ms`,
            ),
          ),
        this.settings.publishTimeoutMs + SEND_GRACE_MS,
      )
    })
    const sending = producer.send({
      messages: [...round].flatMap(([topic, parts]) =>
        parts.flatMap((p, partition) =>
          p.messages.map((m) => ({
            topic,
            partition,
            key: Buffer.from(m.key),
            value: m.value,
            headers: new Map(Object.entries(m.headers).map(([k, v]) => [Buffer.from(k), Buffer.from(v)])),
          })),
        ),
      ),
    })
    // A send given up may still settle later: its answer is dropped then.
    sending.catch(() => undefined)
    try {
      await Promise.race([sending, deadline])
    } finally {
      clearTimeout(timer)
    }
  }

  /** Rejects what is still queued, waits for the flush in progress, disconnects the producer. */
  async close(): Promise<void> {
    this.closed = true
    while (this.flushing) await new Promise((r) => setTimeout(r, 10))
    for (const job of this.queue.splice(0)) {
      clearTimeout(job.timer)
      job.reject(new PublishError('PUBLISHER_CLOSED', 'publisher is closed'))
    }
    await this.resetProducer()
  }
}

/**
 * The Kafka error names inside a failed send (e.g. NOT_ENOUGH_REPLICAS when fewer replicas than
 * min.insync.replicas are in sync): @platformatic/kafka nests them in aggregate errors deeper than
 * the log shows.
 */
export function protocolErrors(err: unknown, found = new Set<string>(), depth = 0): string[] {
  if (err && typeof err === 'object' && depth < 8) {
    const e = err as { apiId?: unknown; errors?: unknown; cause?: unknown }
    if (typeof e.apiId === 'string') found.add(e.apiId)
    if (Array.isArray(e.errors)) for (const inner of e.errors) protocolErrors(inner, found, depth + 1)
    if (e.cause) protocolErrors(e.cause, found, depth + 1)
  }
  return [...found]
}
