// The publisher's round planner, without Kafka: how a flush is cut into rounds so that no partition
// of a round (one record batch) exceeds the budget, where ordered and unordered messages go, and the
// span of rounds each job's messages occupy. Examples pin the exact layout; fast-check properties
// cover the invariants over generated workloads.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  messageBytes,
  partitionOf,
  RoundPlanner,
  type PlannedJob,
  type Round,
} from '../../../../src/broker/kafka/planner.js'
import type { OutboundMessage } from '../../../../src/broker/ports.js'

const RUN = { numRuns: 200, interruptAfterTimeLimit: 8000 } as const

/** A message whose messageBytes is exactly `total` (no headers). */
function sized(total: number, key = 'k', ordered = false): OutboundMessage {
  const overhead = Buffer.byteLength(key) + 64
  if (total < overhead) throw new Error(`a message with key ${key} takes at least ${overhead} bytes`)
  return { key, value: Buffer.alloc(total - overhead, 0x61), headers: {}, ...(ordered ? { ordered: true } : {}) }
}

interface Place {
  round: number
  topic: string
  partition: number
  index: number
}

/** Where every message landed, by identity; fails when one is found twice. */
function placements(rounds: readonly Round[]): Map<OutboundMessage, Place> {
  const where = new Map<OutboundMessage, Place>()
  for (const [round, r] of rounds.entries()) {
    for (const [topic, parts] of r) {
      for (const [partition, part] of parts.entries()) {
        for (const [index, m] of part.messages.entries()) {
          if (where.has(m)) throw new Error(`message ${m.key} planned twice`)
          where.set(m, { round, topic, partition, index })
        }
      }
    }
  }
  return where
}

/** The messages of one partition of a topic, round after round, in the order they are sent. */
function partitionLog(rounds: readonly Round[], topic: string, partition: number): OutboundMessage[] {
  return rounds.flatMap((r) => r.get(topic)?.[partition]?.messages ?? [])
}

/** Per round: the total of messages in it. */
const roundSizes = (rounds: readonly Round[]) =>
  rounds.map((r) => [...r.values()].flat().reduce((n, p) => n + p.messages.length, 0))

describe('messageBytes', () => {
  it('counts the value, the key in UTF-8 and 64 bytes of framing', () => {
    expect(messageBytes({ key: 'k', value: Buffer.alloc(10), headers: {} })).toBe(10 + 1 + 64)
    expect(messageBytes({ key: 'é€', value: Buffer.alloc(0), headers: {} })).toBe(2 + 3 + 64)
    expect(messageBytes({ key: '', value: Buffer.alloc(1000), headers: {} })).toBe(1064)
  })

  it('adds every header: name and value in UTF-8 plus 8 bytes each', () => {
    const bare = messageBytes({ key: 'key', value: Buffer.alloc(5), headers: {} })
    expect(messageBytes({ key: 'key', value: Buffer.alloc(5), headers: { ab: 'cde' } })).toBe(bare + 2 + 3 + 8)
    expect(messageBytes({ key: 'key', value: Buffer.alloc(5), headers: { ab: 'cde', 'x-ü': 'ü' } })).toBe(
      bare + 13 + (4 + 2 + 8),
    )
  })

  it('counts the value by its bytes', () => {
    const value = Buffer.from('ééé', 'utf8')
    expect(messageBytes({ key: '', value, headers: {} })).toBe(6 + 64)
  })
})

describe('partitionOf', () => {
  it('is 32-bit FNV-1a of the key, modulo the count', () => {
    const all = 2 ** 32
    expect(partitionOf('', all)).toBe(0x811c9dc5)
    expect(partitionOf('a', all)).toBe(0xe40c292c)
    expect(partitionOf('foobar', all)).toBe(0xbf9cf968)
    expect(partitionOf('foobar', 7)).toBe(0xbf9cf968 % 7)
  })

  it('puts every key in partition 0 of a one-partition topic', () => {
    for (const key of ['', 'a', 'req-1', 'é', 'x'.repeat(500)]) expect(partitionOf(key, 1)).toBe(0)
  })

  it('is a stable partition in range for any key and count', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40, unit: 'binary' }), fc.integer({ min: 1, max: 1000 }), (key, count) => {
        const p = partitionOf(key, count)
        expect(Number.isInteger(p)).toBe(true)
        expect(p).toBeGreaterThanOrEqual(0)
        expect(p).toBeLessThan(count)
        expect(partitionOf(key, count)).toBe(p)
      }),
      RUN,
    )
  })

  it('spreads distinct keys over the partitions', () => {
    const counts = Array.from({ length: 8 }, () => 0)
    for (let i = 0; i < 8000; i++) counts[partitionOf(`request-${i}`, 8)]! += 1
    for (const n of counts) expect(n).toBeGreaterThan(700)
  })
})

describe('RoundPlanner examples', () => {
  const counts = (entries: Record<string, number>) => new Map(Object.entries(entries))

  it('plans no round for no messages, and no span for a job without messages', () => {
    const planner = new RoundPlanner(1000)
    const empty = { topic: 't', messages: [] }
    const { rounds, spans } = planner.plan([empty], counts({ t: 3 }))
    expect(rounds).toEqual([])
    expect(spans.has(empty)).toBe(false)
  })

  it('puts everything in one round while each partition stays within the budget', () => {
    const planner = new RoundPlanner(10_000)
    const job = { topic: 't', messages: Array.from({ length: 9 }, () => sized(200)) }
    const { rounds, spans } = planner.plan([job], counts({ t: 3 }))
    expect(rounds).toHaveLength(1)
    expect(rounds[0]!.get('t')!.map((p) => p.messages.length)).toEqual([3, 3, 3])
    expect(rounds[0]!.get('t')!.map((p) => p.bytes)).toEqual([600, 600, 600])
    expect(spans.get(job)).toEqual({ first: 0, last: 0 })
  })

  it('opens a new round when a partition would exceed the budget', () => {
    const planner = new RoundPlanner(1000)
    const messages = Array.from({ length: 5 }, () => sized(400))
    const job = { topic: 't', messages }
    const { rounds, spans } = planner.plan([job], counts({ t: 1 }))
    expect(rounds.map((r) => r.get('t')![0]!.messages)).toEqual([
      [messages[0], messages[1]],
      [messages[2], messages[3]],
      [messages[4]],
    ])
    expect(rounds.map((r) => r.get('t')![0]!.bytes)).toEqual([800, 800, 400])
    expect(spans.get(job)).toEqual({ first: 0, last: 2 })
  })

  it('fills a partition up to exactly the budget', () => {
    const planner = new RoundPlanner(1000)
    const messages = [sized(600), sized(400), sized(100)]
    const { rounds } = planner.plan([{ topic: 't', messages }], counts({ t: 1 }))
    expect(rounds.map((r) => r.get('t')![0]!.bytes)).toEqual([1000, 100])
  })

  it('gives a message bigger than the budget a partition of a round to itself', () => {
    const planner = new RoundPlanner(1000)
    const [small1, huge, small2] = [sized(300), sized(5000), sized(300)]
    const { rounds } = planner.plan([{ topic: 't', messages: [small1, huge, small2] }], counts({ t: 1 }))
    // The huge one cannot join the partition already holding 300 bytes, and nothing joins it.
    expect(rounds.map((r) => r.get('t')![0]!.messages)).toEqual([[small1, small2], [huge]])
    expect(rounds[1]!.get('t')![0]!.bytes).toBe(5000)
  })

  it('sends an ordered message after an oversized one of its key in a later round', () => {
    const planner = new RoundPlanner(1000)
    const [a, huge, b] = [sized(300, 'req', true), sized(5000, 'req', true), sized(300, 'req', true)]
    const { rounds } = planner.plan([{ topic: 't', messages: [a, huge, b] }], counts({ t: 1 }))
    expect(rounds.map((r) => r.get('t')![0]!.messages)).toEqual([[a], [huge], [b]])
  })

  it('spreads unordered messages over the partitions before opening another round', () => {
    const planner = new RoundPlanner(1000)
    // 600 bytes: one message per partition per round.
    const job = { topic: 't', messages: Array.from({ length: 6 }, () => sized(600)) }
    const { rounds } = planner.plan([job], counts({ t: 3 }))
    expect(rounds).toHaveLength(2)
    for (const r of rounds) expect(r.get('t')!.map((p) => p.messages.length)).toEqual([1, 1, 1])
  })

  it('keeps the ordered messages of a key in its partition, one round after the other', () => {
    const planner = new RoundPlanner(1000)
    const key = 'request-42'
    const p = partitionOf(key, 4)
    const messages = Array.from({ length: 5 }, () => sized(600, key, true))
    const job = { topic: 't', messages }
    const { rounds, spans } = planner.plan([job], counts({ t: 4 }))
    // Unordered, 5 such messages would take 2 rounds; ordered, each needs a round of its partition.
    expect(rounds).toHaveLength(5)
    expect(partitionLog(rounds, 't', p)).toEqual(messages)
    for (const r of rounds)
      expect(
        r
          .get('t')!
          .filter((_, i) => i !== p)
          .every((part) => part.messages.length === 0),
      ).toBe(true)
    expect(spans.get(job)).toEqual({ first: 0, last: 4 })
  })

  it('lets messages of other partitions share the rounds of an ordered key', () => {
    const planner = new RoundPlanner(1000)
    const count = 3
    const key = 'k1'
    const p = partitionOf(key, count)
    const ordered = { topic: 't', messages: [sized(600, key, true), sized(600, key, true)] }
    const spread = { topic: 't', messages: [sized(600), sized(600)] }
    const { rounds, spans } = planner.plan([ordered, spread], counts({ t: count }))
    expect(rounds).toHaveLength(2)
    const where = placements(rounds)
    for (const m of spread.messages) {
      expect(where.get(m)!.round).toBe(0)
      expect(where.get(m)!.partition).not.toBe(p)
    }
    expect(spans.get(ordered)).toEqual({ first: 0, last: 1 })
    expect(spans.get(spread)).toEqual({ first: 0, last: 0 })
  })

  it('reports the first and last round of each job', () => {
    const planner = new RoundPlanner(1000)
    const a = { topic: 't', messages: [sized(700)] }
    const b = { topic: 't', messages: [sized(700), sized(700), sized(700)] }
    const c = { topic: 't', messages: [sized(200)] }
    const { rounds, spans } = planner.plan([a, b, c], counts({ t: 1 }))
    // Rounds: [a0 (700) + c (200)], [b0], [b1], [b2] — c fits in round 0 beside a.
    expect(roundSizes(rounds)).toEqual([2, 1, 1, 1])
    expect(spans.get(a)).toEqual({ first: 0, last: 0 })
    expect(spans.get(b)).toEqual({ first: 1, last: 3 })
    expect(spans.get(c)).toEqual({ first: 0, last: 0 })
  })

  it('plans each topic with its own partitions and budget, one partition when its count is unknown', () => {
    const planner = new RoundPlanner(1000)
    const a = { topic: 'a', messages: [sized(600), sized(600)] }
    const b = { topic: 'b', messages: [sized(600), sized(600)] }
    const { rounds, spans } = planner.plan([a, b], counts({ a: 2 }))
    // Topic a has 2 partitions: one round. Topic b is unknown: 1 partition, so 2 rounds, the first shared with a.
    expect(rounds).toHaveLength(2)
    expect(rounds[0]!.get('a')!.map((p) => p.messages.length)).toEqual([1, 1])
    expect(rounds[0]!.get('b')!.map((p) => p.messages.length)).toEqual([1])
    expect(rounds[1]!.get('b')!.map((p) => p.messages.length)).toEqual([1])
    expect(spans.get(a)).toEqual({ first: 0, last: 0 })
    expect(spans.get(b)).toEqual({ first: 0, last: 1 })
  })

  it('keeps spreading unordered messages from where the previous plan stopped', () => {
    const planner = new RoundPlanner(100_000)
    const first = planner.plan([{ topic: 't', messages: [sized(100)] }], counts({ t: 3 }))
    const second = planner.plan([{ topic: 't', messages: [sized(100)] }], counts({ t: 3 }))
    const p1 = first.rounds[0]!.get('t')!.findIndex((p) => p.messages.length > 0)
    const p2 = second.rounds[0]!.get('t')!.findIndex((p) => p.messages.length > 0)
    expect(p2).not.toBe(p1)
  })
})

// ---- properties -------------------------------------------------------------------------------

interface MessageSpec {
  readonly ordered: boolean
  readonly key: string
  readonly size: number
}

interface Workload {
  readonly budget: number
  readonly counts: ReadonlyMap<string, number>
  readonly jobs: readonly { topic: string; messages: readonly MessageSpec[] }[]
}

const TOPICS = ['a', 'b', 'c'] as const
const KEYS = ['k1', 'k2', 'k3', 'k4', 'k5', 'request-6'] as const

function workload(ordered: fc.Arbitrary<boolean>): fc.Arbitrary<Workload> {
  const message = fc.record({ ordered, key: fc.constantFrom(...KEYS), size: fc.integer({ min: 80, max: 3000 }) })
  return fc.record({
    budget: fc.integer({ min: 300, max: 4000 }),
    // Topic c is sometimes absent from the map: the planner then uses one partition.
    counts: fc
      .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.option(fc.integer({ min: 1, max: 6 })))
      .map(([a, b, c]) => {
        const m = new Map<string, number>([
          ['a', a],
          ['b', b],
        ])
        if (c !== null) m.set('c', c)
        return m
      }),
    jobs: fc.array(fc.record({ topic: fc.constantFrom(...TOPICS), messages: fc.array(message, { maxLength: 8 }) }), {
      maxLength: 6,
    }),
  })
}

/** Fresh message objects for a workload, each with its input position in a header. */
function build(w: Workload): PlannedJob[] {
  let n = 0
  return w.jobs.map((j) => ({
    topic: j.topic,
    messages: j.messages.map((s) => ({
      key: s.key,
      value: Buffer.alloc(s.size),
      headers: { seq: String(n++) },
      ...(s.ordered ? { ordered: true } : {}),
    })),
  }))
}

const seqOf = (m: OutboundMessage) => Number(m.headers['seq'])

describe('RoundPlanner properties', () => {
  it('plans every message exactly once, in its topic, no partition of a round over the budget unless alone', () => {
    fc.assert(
      fc.property(workload(fc.boolean()), (w) => {
        const jobs = build(w)
        const { rounds } = new RoundPlanner(w.budget).plan(jobs, w.counts)
        const where = placements(rounds)
        const all = jobs.flatMap((j) => j.messages.map((m) => ({ m, topic: j.topic })))
        expect(where.size).toBe(all.length)
        for (const { m, topic } of all) {
          const place = where.get(m)
          expect(place).toBeDefined()
          expect(place!.topic).toBe(topic)
        }
        for (const r of rounds) {
          expect([...r.values()].flat().some((p) => p.messages.length > 0)).toBe(true)
          for (const [topic, parts] of r) {
            expect(parts).toHaveLength(w.counts.get(topic) ?? 1)
            for (const part of parts) {
              expect(part.bytes).toBe(part.messages.reduce((n, m) => n + messageBytes(m), 0))
              if (part.messages.length > 1) expect(part.bytes).toBeLessThanOrEqual(w.budget)
            }
          }
        }
      }),
      RUN,
    )
  })

  it('puts every ordered message in the partition of its key', () => {
    fc.assert(
      fc.property(workload(fc.boolean()), (w) => {
        const jobs = build(w)
        const where = placements(new RoundPlanner(w.budget).plan(jobs, w.counts).rounds)
        for (const j of jobs) {
          for (const m of j.messages)
            if (m.ordered) expect(where.get(m)!.partition).toBe(partitionOf(m.key, w.counts.get(j.topic) ?? 1))
        }
      }),
      RUN,
    )
  })

  it('reports for each job the first and last round holding its messages', () => {
    fc.assert(
      fc.property(workload(fc.boolean()), (w) => {
        const jobs = build(w)
        const { rounds, spans } = new RoundPlanner(w.budget).plan(jobs, w.counts)
        const where = placements(rounds)
        for (const j of jobs) {
          if (j.messages.length === 0) {
            expect(spans.has(j)).toBe(false)
            continue
          }
          const used = j.messages.map((m) => where.get(m)!.round)
          expect(spans.get(j)).toEqual({ first: Math.min(...used), last: Math.max(...used) })
        }
      }),
      RUN,
    )
  })

  it('sends the ordered messages of a partition in their input order (ordered messages only)', () => {
    fc.assert(
      fc.property(workload(fc.constant(true)), (w) => {
        const jobs = build(w)
        const { rounds } = new RoundPlanner(w.budget).plan(jobs, w.counts)
        for (const topic of TOPICS) {
          for (let p = 0; p < (w.counts.get(topic) ?? 1); p++) {
            const seqs = partitionLog(rounds, topic, p).map(seqOf)
            expect(seqs).toEqual([...seqs].sort((x, y) => x - y))
          }
        }
      }),
      RUN,
    )
  })

  // An unordered message placed in an earlier round of the partition must not move the partition's
  // "last round used" back (1 partition, budget 1000: ordered 600, ordered 600, unordered 100,
  // ordered 200: the last one goes after the second, not into round 0).
  it('keeps the ordered messages of a key in input order when unordered messages share the partition', () => {
    const [m1, m2, m3, m4] = [
      sized(600, 'k', true),
      sized(600, 'k', true),
      sized(100, 'k', false),
      sized(200, 'k', true),
    ]
    const { rounds } = new RoundPlanner(1000).plan([{ topic: 't', messages: [m1, m2, m3, m4] }], new Map([['t', 1]]))
    const log = partitionLog(rounds, 't', 0)
    expect(log.indexOf(m4)).toBeGreaterThan(log.indexOf(m2))
    const place = placements(rounds)
    expect(place.get(m4)!.round).toBeGreaterThanOrEqual(place.get(m2)!.round)
  })

  it('spreads unordered messages evenly over the partitions when they all fit in one round', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.integer({ min: 80, max: 500 }), { minLength: 1, maxLength: 60 }),
        (count, sizes) => {
          const planner = new RoundPlanner(1_000_000)
          const { rounds } = planner.plan(
            [{ topic: 't', messages: sizes.map((s) => sized(s)) }],
            new Map([['t', count]]),
          )
          expect(rounds).toHaveLength(1)
          const perPartition = rounds[0]!.get('t')!.map((p) => p.messages.length)
          expect(Math.max(...perPartition) - Math.min(...perPartition)).toBeLessThanOrEqual(1)
        },
      ),
      RUN,
    )
  })

  it('gives a message bigger than the budget a partition of its round alone', () => {
    fc.assert(
      fc.property(workload(fc.boolean()), (w) => {
        const jobs = build(w)
        const { rounds } = new RoundPlanner(w.budget).plan(jobs, w.counts)
        for (const r of rounds) {
          for (const parts of r.values()) {
            for (const part of parts)
              if (part.messages.some((m) => messageBytes(m) > w.budget)) expect(part.messages).toHaveLength(1)
          }
        }
      }),
      RUN,
    )
  })
})
