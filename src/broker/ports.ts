// What the edge and the consumers know of the broker. The Kafka adapter implements it; nothing else
// in the service imports kafkajs.

export interface OutboundMessage {
  /** With ordered = true, messages of one key go to one partition, in order; otherwise they are spread. */
  readonly ordered?: boolean
  readonly key: string
  readonly value: Buffer
  readonly headers: Readonly<Record<string, string>>
}

/**
 * Header of a message the edge published again from its disk spool. Its first attempt may have
 * landed too (or an earlier replay, before a kill -9), so a consumer skips it when the message's
 * identity, its request id and PART_HEADER, is already stored.
 */
export const REPLAY_HEADER = 'sluice-replay'
/** Header: the index of a message among the messages of its request. */
export const PART_HEADER = 'sluice-part'
/** The format of a message's value, where a topic has had more than one (absent: the first). */
export const FORMAT_HEADER = 'sluice-format'

export interface Publisher {
  /**
   * Resolves once the broker has acknowledged every message (acks = all); rejects with PublishError
   * when it cannot, in which case the caller answers 503.
   */
  publish(topic: string, messages: readonly OutboundMessage[]): Promise<void>
}

export interface InboundMessage {
  readonly offset: bigint
  readonly value: Buffer
  readonly headers: Readonly<Record<string, string>>
}

export interface InboundBatch {
  readonly topic: string
  readonly partition: number
  readonly messages: readonly InboundMessage[]
  /** Offset of the next message the broker will write: lag = highWatermark - last offset - 1. */
  readonly highWatermark: bigint
}

export interface BatchContext {
  /**
   * Aborted when the batch must be left: the consumer is stopping, or the member lost its partitions
   * (evicted after a broker pause, a rebalance). `signal.reason` is the error to throw: the adapter
   * then rejoins the group and the batch is delivered again. The adapter keeps the member's
   * heartbeat going while the handler runs, however long a sink takes.
   */
  readonly signal: AbortSignal
  /**
   * Says that the batch cannot go on until something outside Sluice's data changes (a statement the
   * sink refuses: a permission, a release that does not take Sluice's SQL), with why; `undefined`
   * once it goes on. The consumer reports itself stalled with that reason meanwhile (/readyz, metric).
   */
  readonly blocked?: (reason: string | undefined) => void
  /**
   * Resolves once the member surely still owns the partition, for long enough to start a write: its last heartbeat
   * the group answered was sent within half a session. Otherwise it heartbeats until the group answers (a member
   * cut off from the coordinator waits here); it rejects with signal.reason when the partition was lost. Call it
   * before each write: a member evicted while it could not reach the coordinator would otherwise write beside the
   * partition's new owner.
   */
  readonly owned?: () => Promise<void>
}

/**
 * Handles one batch of one partition. Resolving means the work is durable: the adapter then commits
 * the offsets. Throwing signal.reason leaves the batch to be delivered again; throwing anything
 * else is a bug the process cannot recover from (it exits non-zero).
 */
export type BatchHandler = (batch: InboundBatch, ctx: BatchContext) => Promise<void>

export interface ConsumerOptions {
  readonly groupId: string
  readonly topic: string
  readonly handler: BatchHandler
  /** Called when the group rebalances: partitions may have been processed elsewhere meanwhile. */
  readonly onRebalance?: () => void
  /**
   * Called when the consumer cannot go on (refused by the broker, a bug in the handler): the process should exit
   * non-zero.
   */
  readonly onFatal?: (err: unknown) => void
}

export interface ConsumerHealth {
  /** Messages behind the high watermark over the partitions of the topic, from the group's committed offsets. */
  readonly lag: number
  /**
   * Lag above 0 on a partition this member holds (or holds none while the group has lag) and no progress for the stall
   * time.
   */
  readonly stalled: boolean
  readonly detail: string
}

/** The whole broker as a process uses it: the Kafka adapter (kafka/broker.ts) and the in-memory one (memory.ts). */
export interface Broker extends Publisher {
  /** Creates the topics that do not exist yet. */
  ensureTopics(topics: readonly string[]): Promise<void>
  /** Throws unless the broker answers. */
  ping(): Promise<void>
  createConsumer(options: ConsumerOptions): Consumer
  /** Settles what is queued, stops the consumers, disconnects. */
  close(): Promise<void>
}

export interface Consumer {
  start(): Promise<void>
  /** Waits for the batches in progress, commits what they finished, leaves the group. */
  stop(): Promise<void>
  health(): ConsumerHealth
}

/** PUBLISH_PARTIAL: some messages of the call were written, so resending it writes those twice. */
export type PublishErrorCode = 'PUBLISH_TIMEOUT' | 'PUBLISH_FAILED' | 'PUBLISH_PARTIAL' | 'PUBLISHER_CLOSED'

export class PublishError extends Error {
  override readonly name = 'PublishError'
  readonly retriable = true
  constructor(
    readonly code: PublishErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}
