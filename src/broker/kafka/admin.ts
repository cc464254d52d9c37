// Topic administration and cluster metadata (kafkajs admin client, connected on first use): creates
// missing topics with an explicit replication factor and min.insync.replicas (so that an
// acknowledged write survives a broker's loss whatever the brokers' defaults are), warns about
// existing topics replicated less, knows each topic's partition count, answers readiness pings.
import type { Admin, Kafka } from 'kafkajs'
import type { Logger } from '../../shared/logger.js'

/** kafkajs's ConfigResourceTypes.TOPIC (not reachable as a named export of its CommonJS module from ESM). */
const TOPIC_RESOURCE = 2
/** Tries (a second apart) to read the metadata of topics that exist. */
const METADATA_ATTEMPTS = 30

export interface TopicSettings {
  readonly brokers: readonly string[]
  readonly partitions: number
  /** Unset: 3 when the cluster has 3 brokers or more, else the number of brokers. */
  readonly replicationFactor: number | undefined
  /** Unset: 2, or 1 when the replication factor is 1. */
  readonly minInsyncReplicas: number | undefined
}

/** The replication a topic gets on a cluster of `brokers` brokers (an error message when it cannot). */
export function topicReplication(
  settings: TopicSettings,
  brokers: number,
): { replicationFactor: number; minInsyncReplicas: number } | string {
  const replicationFactor = settings.replicationFactor ?? Math.min(3, brokers)
  const minInsyncReplicas = settings.minInsyncReplicas ?? Math.min(2, replicationFactor)
  if (replicationFactor > brokers)
    return `KAFKA_REPLICATION_FACTOR=${replicationFactor} but the cluster has ${brokers} broker(s)`
  if (minInsyncReplicas > replicationFactor)
    return `KAFKA_MIN_INSYNC_REPLICAS=${minInsyncReplicas} is above the replication factor ${replicationFactor}: no write could be acknowledged`
  return { replicationFactor, minInsyncReplicas }
}

export class KafkaAdmin {
  /** The one admin client, connecting or connected: concurrent callers share it (each made its own, left open). */
  private admin?: Promise<Admin>
  private readonly partitionCounts = new Map<string, number>()

  constructor(
    private readonly kafka: Kafka,
    private readonly settings: TopicSettings,
    private readonly log: Logger,
    /** A client of these brokers only (to ask each broker in turn). */
    private readonly connect: (brokers: string[]) => Kafka = () => kafka,
  ) {}

  client(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin()
      const connecting = admin.connect().then(() => admin)
      this.admin = connecting
      // A failed connect is not kept: the next caller tries again.
      connecting.catch(() => {
        if (this.admin === connecting) this.admin = undefined
      })
    }
    return this.admin
  }

  /** The messages of `topic` that `groupId` has not committed, over its partitions (all of them before a commit). */
  async groupLag(groupId: string, topic: string): Promise<number> {
    const positions = await groupPositions(await this.client(), groupId, topic)
    return Number(positions.reduce((lag, p) => lag + (p.high - p.position), 0n))
  }

  /** The end (high watermark) of each partition of `topic` now. */
  async topicEnds(topic: string): Promise<Map<number, bigint>> {
    const admin = await this.client()
    return new Map((await admin.fetchTopicOffsets(topic)).map((t) => [t.partition, BigInt(t.high)]))
  }

  /** Whether `groupId` has committed every partition of `topic` up to `ends` (a partition empty then needs nothing). */
  async groupReached(groupId: string, topic: string, ends: ReadonlyMap<number, bigint>): Promise<boolean> {
    const at = new Map(
      (await groupPositions(await this.client(), groupId, topic)).map((p) => [p.partition, p.position]),
    )
    return [...ends].every(([partition, end]) => (at.get(partition) ?? 0n) >= end)
  }

  /** Creates the topics that do not exist yet (idempotent) and learns their partition counts. */
  async ensureTopics(topics: readonly string[]): Promise<void> {
    const admin = await this.client()
    const replication = topicReplication(this.settings, (await admin.describeCluster()).brokers.length)
    if (typeof replication === 'string') throw new Error(`kafka topics: ${replication}`)
    const existing = new Set(await admin.listTopics())
    const missing = topics.filter((t) => !existing.has(t))
    if (missing.length > 0) {
      await admin.createTopics({
        // kafkajs waits out only LEADER_NOT_AVAILABLE; on a cluster a broker may not know a new topic
        // at all for a moment (UNKNOWN_TOPIC_OR_PARTITION): the metadata is asked for below instead.
        waitForLeaders: false,
        topics: missing.map((topic) => ({
          topic,
          numPartitions: this.settings.partitions,
          replicationFactor: replication.replicationFactor,
          configEntries: [{ name: 'min.insync.replicas', value: String(replication.minInsyncReplicas) }],
        })),
      })
      this.log.info({ topics: missing, partitions: this.settings.partitions, ...replication }, 'kafka topics created')
    }
    // A topic just made (here or by another process starting beside this one) is listed before every
    // broker serves its metadata, and kafkajs's consumers and admin fail on a broker that does not:
    // each broker named in KAFKA_BROKERS is asked until it serves them.
    if (this.settings.brokers.length > 1)
      for (const broker of this.settings.brokers) await this.untilServed(this.connect([broker]).admin(), topics, true)
    await this.untilServed(admin, topics, false)
    await this.learnPartitions(topics)
    // A look, not a condition of starting: metadata can lag just after another process made the topics.
    await this.checkReplication(
      topics.filter((t) => existing.has(t)),
      replication,
    ).catch((err: unknown) => this.log.warn({ err }, 'kafka: could not check the replication of existing topics'))
  }

  /** Warns about topics made before (by hand, or with other settings) that are replicated less than asked. */
  private async checkReplication(
    topics: readonly string[],
    wanted: { replicationFactor: number; minInsyncReplicas: number },
  ): Promise<void> {
    if (topics.length === 0) return
    const admin = await this.client()
    const meta = await admin.fetchTopicMetadata({ topics: [...topics] })
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: topics.map((name) => ({ type: TOPIC_RESOURCE, name, configNames: ['min.insync.replicas'] })),
    })
    for (const t of meta.topics) {
      const replicationFactor = Math.min(...t.partitions.map((p) => p.replicas.length))
      const entry = configs.resources
        .find((r) => r.resourceName === t.name)
        ?.configEntries.find((c) => c.configName === 'min.insync.replicas')
      const minInsyncReplicas = Number(entry?.configValue ?? 1)
      if (replicationFactor < wanted.replicationFactor || minInsyncReplicas < wanted.minInsyncReplicas) {
        this.log.warn(
          { topic: t.name, replicationFactor, minInsyncReplicas, wanted },
          'kafka topic is replicated less than configured: an acknowledged write may be lost with a broker (raise it with kafka-topics/kafka-configs; Sluice does not change existing topics)',
        )
      }
    }
  }

  /** `own`: a client of its own for this wait, connected and disconnected here. */
  private async untilServed(admin: Admin, topics: readonly string[], own: boolean): Promise<void> {
    try {
      if (own) await admin.connect()
      for (let attempt = 1; ; attempt++) {
        try {
          await admin.fetchTopicMetadata({ topics: [...topics] })
          return
        } catch (err) {
          if (attempt >= METADATA_ATTEMPTS || !(err as { retriable?: boolean }).retriable) throw err
          this.log.info({ err, attempt }, 'kafka: topic metadata not served yet, asking again')
          await new Promise((r) => setTimeout(r, 1000))
        }
      }
    } finally {
      if (own) await admin.disconnect().catch(() => undefined)
    }
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
    const admin = this.admin
    this.admin = undefined
    await admin?.then((a) => a.disconnect()).catch(() => undefined)
  }
}

/**
 * Where a consumer group stands on each partition of a topic: its committed offset (the partition's low watermark
 * before any commit, where consuming would start) and the partition's high watermark.
 */
export async function groupPositions(
  admin: Admin,
  groupId: string,
  topic: string,
): Promise<{ partition: number; position: bigint; high: bigint }[]> {
  const [group, offsets] = await Promise.all([
    admin.fetchOffsets({ groupId, topics: [topic] }),
    admin.fetchTopicOffsets(topic),
  ])
  const committed = new Map((group[0]?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]))
  return offsets.map((t) => {
    const c = committed.get(t.partition) ?? -1n
    return { partition: t.partition, position: c >= 0n ? c : BigInt(t.low), high: BigInt(t.high) }
  })
}
