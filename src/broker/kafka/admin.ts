// Topic administration and cluster metadata (kafkajs admin client, connected on first use): creates
// missing topics, knows each topic's partition count, answers readiness pings.
import type { Admin, Kafka } from 'kafkajs'
import type { Logger } from '../../shared/logger.js'

export interface TopicSettings {
  readonly partitions: number
  readonly replicationFactor: number
}

export class KafkaAdmin {
  private admin?: Admin
  private readonly partitionCounts = new Map<string, number>()

  constructor(
    private readonly kafka: Kafka,
    private readonly settings: TopicSettings,
    private readonly log: Logger,
  ) {}

  async client(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin()
      await admin.connect()
      this.admin = admin
    }
    return this.admin
  }

  /** Creates the topics that do not exist yet (idempotent) and learns their partition counts. */
  async ensureTopics(topics: readonly string[]): Promise<void> {
    const admin = await this.client()
    const existing = new Set(await admin.listTopics())
    const missing = topics.filter((t) => !existing.has(t))
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({ topic, numPartitions: this.settings.partitions, replicationFactor: this.settings.replicationFactor })),
      })
      this.log.info({ topics: missing, partitions: this.settings.partitions }, 'kafka topics created')
    }
    await this.learnPartitions(topics)
  }

  /** Partition counts of the topics, asking the cluster for those not known yet. */
  async partitions(topics: readonly string[]): Promise<ReadonlyMap<string, number>> {
    const unknown = [...new Set(topics)].filter((t) => !this.partitionCounts.has(t))
    if (unknown.length > 0) await this.learnPartitions(unknown)
    return this.partitionCounts
  }

  private async learnPartitions(topics: readonly string[]): Promise<void> {
    const meta = await (await this.client()).fetchTopicMetadata({ topics: [...topics] })
    for (const t of meta.topics) this.partitionCounts.set(t.name, t.partitions.length)
  }

  /** Throws unless a broker answers a metadata request. */
  async ping(): Promise<void> {
    await (await this.client()).describeCluster()
  }

  async close(): Promise<void> {
    await this.admin?.disconnect().catch(() => undefined)
    this.admin = undefined
  }
}
