// An in-memory implementation of the broker port, for unit tests of what sits on either side of it
// (edge routes, the spool, consumers): topics of partitions held in arrays, consumers that deliver
// batches in order and commit only after their handler resolved, as the Kafka adapter does. It is no
// proof that the pipeline works with Kafka; the integration and e2e tests are.
import { partitionOf } from './kafka/planner.js'
import {
  PublishError,
  type Broker,
  type Consumer,
  type ConsumerHealth,
  type ConsumerOptions,
  type InboundMessage,
  type OutboundMessage,
} from './ports.js'

export class MemoryBroker implements Broker {
  private readonly topics = new Map<string, InboundMessage[][]>()
  private readonly consumers = new Set<MemoryConsumer>()
  private roundRobin = 0
  /** While false, publish and ping fail as they do when Kafka is away. */
  available = true

  constructor(private readonly partitions = 3) {}

  async ensureTopics(topics: readonly string[]): Promise<void> {
    if (!this.available) throw new Error('broker unavailable')
    for (const topic of topics) this.partitionsOf(topic)
  }

  async ping(): Promise<void> {
    if (!this.available) throw new Error('broker unavailable')
  }

  async publish(topic: string, messages: readonly OutboundMessage[]): Promise<void> {
    if (!this.available)
      throw new PublishError('PUBLISH_FAILED', 'kafka did not acknowledge the messages (in-memory broker unavailable)')
    const partitions = this.partitionsOf(topic)
    for (const m of messages) {
      const p = m.ordered ? partitionOf(m.key, partitions.length) : this.roundRobin++ % partitions.length
      const log = partitions[p]!
      log.push({ offset: BigInt(log.length), value: m.value, headers: { ...m.headers } })
    }
    for (const c of this.consumers) c.wake()
  }

  /** Every message of a topic, partition by partition. */
  messages(topic: string): readonly (readonly InboundMessage[])[] {
    return this.partitionsOf(topic)
  }

  createConsumer(options: ConsumerOptions): Consumer {
    const consumer = new MemoryConsumer(this.partitionsOf(options.topic), options)
    this.consumers.add(consumer)
    return consumer
  }

  async close(): Promise<void> {
    for (const c of this.consumers) await c.stop()
  }

  private partitionsOf(topic: string): InboundMessage[][] {
    let partitions = this.topics.get(topic)
    if (!partitions) {
      partitions = Array.from({ length: this.partitions }, () => [])
      this.topics.set(topic, partitions)
    }
    return partitions
  }
}

class MemoryConsumer implements Consumer {
  /** The committed position (next offset to deliver) of each partition. */
  readonly committed: number[]
  private running = false
  private loop: Promise<void> | undefined
  private wakeUp: (() => void) | undefined
  private readonly controller = new AbortController()

  constructor(
    private readonly partitions: InboundMessage[][],
    private readonly options: ConsumerOptions,
  ) {
    this.committed = partitions.map(() => 0)
  }

  async start(): Promise<void> {
    this.running = true
    this.loop = this.run()
  }

  wake(): void {
    this.wakeUp?.()
  }

  private async run(): Promise<void> {
    while (this.running) {
      let delivered = false
      for (const [partition, log] of this.partitions.entries()) {
        const from = this.committed[partition]!
        if (from >= log.length || !this.running) continue
        const messages = log.slice(from)
        try {
          await this.options.handler(
            { topic: this.options.topic, partition, messages, highWatermark: BigInt(log.length) },
            { signal: this.controller.signal, blocked: (reason) => (this.blockedBy = reason) },
          )
          this.committed[partition] = from + messages.length
          delivered = true
        } catch (err) {
          // The handler left the batch (stopping): it is delivered again to the next owner.
          if (this.controller.signal.aborted) return
          this.running = false
          this.options.onFatal?.(err)
          return
        }
      }
      if (!delivered) await new Promise<void>((resolve) => (this.wakeUp = resolve))
    }
  }

  async stop(): Promise<void> {
    this.running = false
    this.controller.abort(new Error('the consumer is stopping'))
    this.wakeUp?.()
    await this.loop
  }

  /** Why the batch in progress cannot go on (BatchContext.blocked). */
  private blockedBy: string | undefined

  health(): ConsumerHealth {
    const lag = this.partitions.reduce((n, log, p) => n + log.length - this.committed[p]!, 0)
    return { lag, stalled: this.blockedBy !== undefined, detail: this.blockedBy ?? `lag ${lag}` }
  }
}
