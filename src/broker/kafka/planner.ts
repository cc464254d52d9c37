// The round planner of the publisher, without I/O. kafkajs puts every message of one partition of a
// send in one record batch, so a flush is cut into rounds in which each partition receives at most
// a budget of bytes: no record batch exceeds the broker's message.max.bytes. Ordered messages (one
// key, one partition) never land in a round before one their partition already used.
import type { OutboundMessage } from '../ports.js'

/** Per topic, per partition: the messages of one send and their bytes. */
export type Round = Map<string, { bytes: number; messages: OutboundMessage[] }[]>

/** The first and last round holding messages of one job. */
export interface Span {
  readonly first: number
  readonly last: number
}

export interface PlannedJob {
  readonly topic: string
  readonly messages: readonly OutboundMessage[]
}

/** Bytes a message takes in a record batch, with room for the record's own framing. */
export function messageBytes(m: OutboundMessage): number {
  let n = m.value.length + Buffer.byteLength(m.key) + 64
  for (const [k, v] of Object.entries(m.headers)) n += Buffer.byteLength(k) + Buffer.byteLength(v) + 8
  return n
}

/** A stable partition for a key (FNV-1a). */
export function partitionOf(key: string, count: number): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0) % count
}

export class RoundPlanner {
  /** Where the next unordered message starts looking, so they spread over the partitions. */
  private roundRobin = 0

  /** budget: bytes a partition may receive in one round (one record batch). */
  constructor(private readonly budget: number) {}

  plan<J extends PlannedJob>(
    jobs: readonly J[],
    partitionCounts: ReadonlyMap<string, number>,
  ): { rounds: Round[]; spans: Map<J, Span> } {
    const rounds: Round[] = []
    const lastRound = new Map<string, number>()
    const spans = new Map<J, Span>()
    for (const job of jobs) {
      const count = partitionCounts.get(job.topic) ?? 1
      for (const message of job.messages) {
        const size = messageBytes(message)
        // Ordered messages have one possible partition; the others take the next one with room.
        const candidates = message.ordered
          ? [partitionOf(message.key, count)]
          : Array.from({ length: count }, (_, k) => (this.roundRobin + k) % count)
        this.roundRobin = (this.roundRobin + 1) % 1_000_000
        const from = message.ordered ? (lastRound.get(`${job.topic}:${candidates[0]}`) ?? 0) : 0
        let index = rounds.findIndex(
          (r, i) => i >= from && candidates.some((p) => this.fits(r, job.topic, count, p, size)),
        )
        if (index < 0) index = rounds.push(new Map()) - 1
        const round = rounds[index]!
        const partition = candidates.find((p) => this.fits(round, job.topic, count, p, size))!
        const part = round.get(job.topic)![partition]!
        part.bytes += size
        part.messages.push(message)
        // The latest round the partition was used in (an unordered message may take an earlier one).
        lastRound.set(`${job.topic}:${partition}`, Math.max(lastRound.get(`${job.topic}:${partition}`) ?? 0, index))
        const span = spans.get(job)
        spans.set(job, { first: Math.min(span?.first ?? index, index), last: Math.max(span?.last ?? index, index) })
      }
    }
    return { rounds, spans }
  }

  /** Whether a message of `size` bytes fits partition p of topic in the round (creating its slots). */
  private fits(round: Round, topic: string, count: number, p: number, size: number): boolean {
    let parts = round.get(topic)
    if (!parts) {
      parts = Array.from({ length: count }, () => ({ bytes: 0, messages: [] }))
      round.set(topic, parts)
    }
    const part = parts[p]!
    return part.bytes === 0 || part.bytes + size <= this.budget
  }
}
