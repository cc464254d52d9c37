// What the edge and the consumers know of the broker. The Kafka adapter implements it; nothing else
// in the service imports kafkajs.

export interface OutboundMessage {
  /** With ordered = true, messages of one key go to one partition, in order; otherwise they are spread. */
  readonly ordered?: boolean
  readonly key: string
  readonly value: Buffer
  readonly headers: Readonly<Record<string, string>>
}

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
  /** Keeps the group membership alive during a long wait (retries while a sink is down). */
  heartbeat(): Promise<void>
  /** False once the consumer is stopping or the partition was taken away: stop retrying and throw. */
  shouldContinue(): boolean
}

/**
 * Handles one batch of one partition. Resolving means the work is durable: the adapter then commits
 * the offsets. Throwing means nothing is committed and the batch will be delivered again.
 */
export type BatchHandler = (batch: InboundBatch, ctx: BatchContext) => Promise<void>

export interface ConsumerOptions {
  readonly groupId: string
  readonly topic: string
  readonly handler: BatchHandler
  /** Called when the group rebalances: partitions may have been processed elsewhere meanwhile. */
  readonly onRebalance?: () => void
  /** Called when the consumer stopped for good (the client library gave up restarting it). */
  readonly onFatal?: (err: unknown) => void
}

export interface Consumer {
  start(): Promise<void>
  /** Waits for the batches in progress, commits what they finished, leaves the group. */
  stop(): Promise<void>
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
