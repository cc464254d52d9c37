// Kafka adapter of the broker port (kafkajs). kafkajs has no producer linger and puts every message of
// one partition in one record batch, so this adapter batches itself: concurrent publish calls are
// grouped into one flush ("group commit"), and a flush is cut into rounds in which each partition
// gets at most `messageMaxBytes`, so no record batch exceeds the broker's message.max.bytes.
import { Kafka, Partitioners, logLevel as KafkaLogLevel, type Admin, type Producer, type LogEntry } from 'kafkajs'
import type { Logger } from '../app/logger.js'
import type { Metrics } from '../app/metrics.js'
import type { Config } from '../config/index.js'
import { SupervisedConsumer } from './kafka-consumer.js'
import { PublishError, type Consumer, type ConsumerOptions, type OutboundMessage, type Publisher } from './ports.js'

export type KafkaSettings = Omit<Config['kafka'], 'topicPrefix' | 'groupPrefix'>

/** Bytes a message takes in a record batch, with room for the record's own framing. */
function messageBytes(m: OutboundMessage): number {
  let n = m.value.length + Buffer.byteLength(m.key) + 64
  for (const [k, v] of Object.entries(m.headers)) n += Buffer.byteLength(k) + Buffer.byteLength(v) + 8
  return n
}

const FLUSH_MAX_BYTES = 64 * 1024 * 1024

interface Job {
  readonly topic: string
  readonly messages: readonly OutboundMessage[]
  readonly bytes: number
  readonly resolve: () => void
  readonly reject: (err: Error) => void
  timer?: NodeJS.Timeout
}

export class KafkaBroker implements Publisher {
  private readonly kafka: Kafka
  private admin?: Admin
  private producer?: Producer
  private readonly consumers = new Set<Consumer>()
  private readonly partitionCounts = new Map<string, number>()
  private queue: Job[] = []
  private flushing = false
  private closed = false
  private roundRobin = 0

  constructor(
    private readonly settings: KafkaSettings,
    private readonly log: Logger,
    private readonly metrics: Metrics,
  ) {
    this.kafka = new Kafka({
      clientId: settings.clientId,
      brokers: [...settings.brokers],
      connectionTimeout: 3000,
      requestTimeout: 15000,
      retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 5000 },
      logLevel: KafkaLogLevel.WARN,
      logCreator: () => (entry: LogEntry) => {
        const { message, ...rest } = entry.log
        // NOTE: kafkajs logs every retriable broker answer ("coordinator is loading", ...) at error
        // level from its Connection layer and retries it; what finally fails reaches our code as an
        // error, so those are warnings here. It also warns that bounded retries weaken idempotence:
        // after a failed flush this adapter replaces the producer (new producer id), so that is debug.
        const level =
          entry.level <= KafkaLogLevel.ERROR ? (entry.namespace === 'Connection' ? 'warn' : 'error')
          : entry.level === KafkaLogLevel.WARN && !message.startsWith('Limiting retries') ? 'warn'
          : 'debug'
        log[level]({ kafka: { namespace: entry.namespace, ...rest } }, message)
      },
    })
  }

  private async getAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin()
      await admin.connect()
      this.admin = admin
    }
    return this.admin
  }

  /** Creates the topics that do not exist yet (idempotent) and learns their partition counts. */
  async ensureTopics(topics: readonly string[]): Promise<void> {
    const admin = await this.getAdmin()
    const existing = new Set(await admin.listTopics())
    const missing = topics.filter((t) => !existing.has(t))
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({
          topic,
          numPartitions: this.settings.partitions,
          replicationFactor: this.settings.replicationFactor,
        })),
      })
      this.log.info({ topics: missing, partitions: this.settings.partitions }, 'kafka topics created')
    }
    await this.learnPartitions(topics)
  }

  private async learnPartitions(topics: readonly string[]): Promise<void> {
    const admin = await this.getAdmin()
    const meta = await admin.fetchTopicMetadata({ topics: [...topics] })
    for (const t of meta.topics) this.partitionCounts.set(t.name, t.partitions.length)
  }

  /** Throws unless a broker answers a metadata request. */
  async ping(): Promise<void> {
    const admin = await this.getAdmin()
    await admin.describeCluster()
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
          reject(new PublishError('PUBLISH_TIMEOUT', `kafka did not take the messages within ${this.settings.publishTimeoutMs} ms`))
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

  private async getProducer(): Promise<Producer> {
    if (!this.producer) {
      // Idempotent: a produce request retried after a lost response is not written twice.
      // Partitions are chosen by plan(); the partitioner is set only to silence kafkajs's v2 notice.
      const producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner })
      await producer.connect()
      this.producer = producer
    }
    return this.producer
  }

  private async resetProducer(): Promise<void> {
    const producer = this.producer
    this.producer = undefined
    await producer?.disconnect().catch(() => undefined)
  }

  /**
   * Sends the rounds in order and settles each job as soon as the last round holding its messages
   * is acknowledged. On a failure the jobs not yet settled are rejected, marked partial when some of
   * their messages were acknowledged already.
   */
  private async flush(jobs: readonly Job[], bytes: number): Promise<void> {
    let spans = new Map<Job, { first: number; last: number }>()
    let acknowledged = 0
    try {
      const producer = await this.getProducer()
      const plan = await this.plan(jobs)
      spans = plan.spans
      for (const [i, round] of plan.rounds.entries()) {
        await this.send(producer, round)
        acknowledged = i + 1
        for (const job of jobs) if (spans.get(job)?.last === i) job.resolve()
      }
    } catch (err) {
      this.log.error({ err, jobs: jobs.length, bytes, acknowledgedRounds: acknowledged }, 'kafka publish failed')
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

  private async send(producer: Producer, round: Round): Promise<void> {
    await producer.sendBatch({
      acks: -1,
      timeout: this.settings.publishTimeoutMs,
      topicMessages: [...round].map(([topic, parts]) => ({
        topic,
        messages: parts.flatMap((p, partition) => p.messages.map((m) => ({ partition, key: m.key, value: m.value, headers: { ...m.headers } }))),
      })),
    })
  }

  /** Cuts the jobs into rounds where each partition receives at most messageMaxBytes. */
  private async plan(jobs: readonly Job[]): Promise<{ rounds: Round[]; spans: Map<Job, { first: number; last: number }> }> {
    const unknown = [...new Set(jobs.map((j) => j.topic))].filter((t) => !this.partitionCounts.has(t))
    if (unknown.length > 0) await this.learnPartitions(unknown)
    const budget = this.settings.messageMaxBytes + 1024
    const rounds: Round[] = []
    const lastRound = new Map<string, number>()
    const spans = new Map<Job, { first: number; last: number }>()
    for (const job of jobs) {
      const count = this.partitionCounts.get(job.topic) ?? 1
      for (const message of job.messages) {
        const size = messageBytes(message)
        // Ordered messages have one possible partition; the others take the next one with room.
        const candidates = message.ordered
          ? [partitionOf(message.key, count)]
          : Array.from({ length: count }, (_, k) => (this.roundRobin + k) % count)
        this.roundRobin = (this.roundRobin + 1) % 1_000_000
        // An ordered message never lands in a round before the last one its partition used.
        const from = message.ordered ? (lastRound.get(`${job.topic}:${candidates[0]}`) ?? 0) : 0
        let index = rounds.findIndex((r, i) => i >= from && candidates.some((p) => fits(r, job.topic, count, p, size, budget)))
        if (index < 0) index = rounds.push(new Map()) - 1
        const round = rounds[index]!
        const partition = candidates.find((p) => fits(round, job.topic, count, p, size, budget))!
        const part = round.get(job.topic)![partition]!
        part.bytes += size
        part.messages.push(message)
        lastRound.set(`${job.topic}:${partition}`, index)
        const span = spans.get(job)
        spans.set(job, { first: Math.min(span?.first ?? index, index), last: Math.max(span?.last ?? index, index) })
      }
    }
    return { rounds, spans }
  }

  createConsumer(options: ConsumerOptions): Consumer {
    const consumer = new SupervisedConsumer({ kafka: this.kafka, admin: () => this.getAdmin(), settings: this.settings, metrics: this.metrics, log: this.log }, options)
    this.consumers.add(consumer)
    return consumer
  }

  /** Rejects what is still queued, waits for the flush in progress, disconnects every client. */
  async close(): Promise<void> {
    this.closed = true
    while (this.flushing) await new Promise((r) => setTimeout(r, 10))
    for (const job of this.queue.splice(0)) {
      clearTimeout(job.timer)
      job.reject(new PublishError('PUBLISHER_CLOSED', 'publisher is closed'))
    }
    for (const consumer of this.consumers) await consumer.stop().catch(() => undefined)
    await this.resetProducer()
    await this.admin?.disconnect().catch(() => undefined)
    this.admin = undefined
  }
}

type Round = Map<string, { bytes: number; messages: OutboundMessage[] }[]>

/** Whether a message of `size` bytes fits partition p of topic in the round (creating its slots). */
function fits(round: Round, topic: string, count: number, p: number, size: number, budget: number): boolean {
  let parts = round.get(topic)
  if (!parts) {
    parts = Array.from({ length: count }, () => ({ bytes: 0, messages: [] }))
    round.set(topic, parts)
  }
  const part = parts[p]!
  return part.bytes === 0 || part.bytes + size <= budget
}

/** A stable partition for a key (FNV-1a). */
function partitionOf(key: string, count: number): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0) % count
}
