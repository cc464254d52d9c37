// The Kafka adapter of the broker port: admin (topics, metadata), publisher (grouped, planned
// sends, with @platformatic/kafka's producer) and supervised consumers (kafkajs). Nothing else in
// the service imports a Kafka client.
import type { Config } from '../../config/index.js'
import type { Logger } from '../../shared/logger.js'
import type { Metrics } from '../../shared/metrics.js'
import type { Broker, Consumer, ConsumerOptions, OutboundMessage } from '../ports.js'
import { KafkaAdmin } from './admin.js'
import { createKafka } from './connection.js'
import { SupervisedConsumer } from './consumer.js'
import { KafkaPublisher } from './publisher.js'

export type KafkaSettings = Omit<Config['kafka'], 'topicPrefix' | 'groupPrefix'>

export class KafkaBroker implements Broker {
  private readonly kafka
  private readonly admin: KafkaAdmin
  private readonly publisher: KafkaPublisher
  private readonly consumers = new Set<Consumer>()

  constructor(
    private readonly settings: KafkaSettings,
    private readonly log: Logger,
    private readonly metrics: Metrics,
  ) {
    this.kafka = createKafka(settings, log)
    this.admin = new KafkaAdmin(this.kafka, settings, log, (brokers) => createKafka({ ...settings, brokers }, log))
    this.publisher = new KafkaPublisher(this.admin, settings, log)
  }

  ensureTopics(topics: readonly string[]): Promise<void> {
    return this.admin.ensureTopics(topics)
  }

  ping(): Promise<void> {
    return this.admin.ping()
  }

  topicEnds(topic: string): Promise<Map<number, bigint>> {
    return this.admin.topicEnds(topic)
  }

  groupReached(groupId: string, topic: string, ends: ReadonlyMap<number, bigint>): Promise<boolean> {
    return this.admin.groupReached(groupId, topic, ends)
  }

  /** The messages of `topic` the consumer group has not committed. */
  groupLag(groupId: string, topic: string): Promise<number> {
    return this.admin.groupLag(groupId, topic)
  }

  publish(topic: string, messages: readonly OutboundMessage[]): Promise<void> {
    return this.publisher.publish(topic, messages)
  }

  createConsumer(options: ConsumerOptions): Consumer {
    const consumer = new SupervisedConsumer(
      {
        kafka: this.kafka,
        admin: () => this.admin.client(),
        settings: this.settings,
        metrics: this.metrics,
        log: this.log,
      },
      options,
    )
    this.consumers.add(consumer)
    return consumer
  }

  /** Settles what is queued, stops the consumers, disconnects every client. */
  async close(): Promise<void> {
    await this.publisher.close()
    for (const consumer of this.consumers) await consumer.stop().catch(() => undefined)
    await this.admin.close()
  }
}
