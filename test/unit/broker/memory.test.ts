// The in-memory broker the unit tests of the edge and the consumers stand on: it must behave like the
// broker port says (ordered keys in one partition, delivery in order, commit only after the handler
// resolved, fatal errors reported, unavailability as a PublishError), or those tests prove nothing.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { partitionOf } from '../../../src/broker/kafka/planner.js'
import { MemoryBroker } from '../../../src/broker/memory.js'
import {
  PublishError,
  type BatchHandler,
  type Consumer,
  type InboundBatch,
  type OutboundMessage,
} from '../../../src/broker/ports.js'

const brokers: MemoryBroker[] = []
afterEach(async () => {
  for (const b of brokers.splice(0)) await b.close()
})

function broker(partitions = 3): MemoryBroker {
  const b = new MemoryBroker(partitions)
  brokers.push(b)
  return b
}

const message = (text: string, key = 'key', ordered = true): OutboundMessage => ({
  key,
  value: Buffer.from(text),
  headers: { h: text },
  ...(ordered ? { ordered: true } : {}),
})
const texts = (batch: InboundBatch) => batch.messages.map((m) => m.value.toString())

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

/** A consumer recording every batch it is given; the handler's outcome is the optional `then`. */
function recording(b: MemoryBroker, topic: string, then?: (batch: InboundBatch, signal: AbortSignal) => Promise<void>) {
  const batches: InboundBatch[] = []
  const onFatal = vi.fn()
  const handler: BatchHandler = async (batch, ctx) => {
    batches.push(batch)
    await then?.(batch, ctx.signal)
  }
  const consumer = b.createConsumer({ groupId: 'g', topic, handler, onFatal })
  return { consumer, batches, onFatal }
}

describe('MemoryBroker publish', () => {
  it('writes the ordered messages of a key to its partition, in order, with offsets from 0', async () => {
    const b = broker(3)
    await b.publish('t', [message('a'), message('b')])
    await b.publish('t', [message('c')])
    const p = partitionOf('key', 3)
    const log = b.messages('t')[p]!
    expect(log.map((m) => m.value.toString())).toEqual(['a', 'b', 'c'])
    expect(log.map((m) => m.offset)).toEqual([0n, 1n, 2n])
    expect(log.map((m) => m.headers)).toEqual([{ h: 'a' }, { h: 'b' }, { h: 'c' }])
    expect(b.messages('t').reduce((n, l) => n + l.length, 0)).toBe(3)
  })

  it('spreads unordered messages over the partitions', async () => {
    const b = broker(3)
    await b.publish(
      't',
      ['a', 'b', 'c', 'd', 'e', 'f'].map((t) => message(t, 'same', false)),
    )
    expect(b.messages('t').map((l) => l.length)).toEqual([2, 2, 2])
  })

  it('keeps topics apart', async () => {
    const b = broker(2)
    await b.publish('one', [message('a')])
    expect(b.messages('two').flat()).toEqual([])
    expect(b.messages('one').flat()).toHaveLength(1)
  })

  it('copies the headers: changing the caller’s object afterwards changes nothing', async () => {
    const b = broker(1)
    const headers: Record<string, string> = { h: 'before' }
    await b.publish('t', [{ key: 'k', value: Buffer.from('x'), headers }])
    headers['h'] = 'after'
    expect(b.messages('t')[0]![0]!.headers).toEqual({ h: 'before' })
  })
})

describe('MemoryBroker unavailable', () => {
  it('rejects publish with a retriable PublishError and writes nothing', async () => {
    const b = broker()
    b.available = false
    const err = await b.publish('t', [message('a')]).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(PublishError)
    expect(err).toMatchObject({ code: 'PUBLISH_FAILED', retriable: true })
    expect(b.messages('t').flat()).toEqual([])
  })

  it('rejects ping and ensureTopics, and answers again once available', async () => {
    const b = broker()
    b.available = false
    await expect(b.ping()).rejects.toThrow()
    await expect(b.ensureTopics(['t'])).rejects.toThrow()
    b.available = true
    await expect(b.ping()).resolves.toBeUndefined()
    await expect(b.publish('t', [message('a')])).resolves.toBeUndefined()
    expect(b.messages('t').flat()).toHaveLength(1)
  })
})

describe('MemoryBroker consumers', () => {
  it('delivers what was published before and after start, in order, with the partition and high watermark', async () => {
    const b = broker(3)
    const p = partitionOf('key', 3)
    await b.publish('t', [message('a'), message('b')])
    const { consumer, batches } = recording(b, 't')
    await consumer.start()
    await vi.waitFor(() => expect(batches.flatMap(texts)).toEqual(['a', 'b']))
    await b.publish('t', [message('c')])
    await vi.waitFor(() => expect(batches.flatMap(texts)).toEqual(['a', 'b', 'c']))
    expect(batches[0]).toMatchObject({ topic: 't', partition: p, highWatermark: 2n })
    expect(batches.at(-1)).toMatchObject({ topic: 't', partition: p, highWatermark: 3n })
    expect(batches.flatMap((x) => x.messages.map((m) => m.offset))).toEqual([0n, 1n, 2n])
    await vi.waitFor(() => expect(consumer.health().lag).toBe(0))
  })

  it('delivers every partition of the topic', async () => {
    const b = broker(3)
    const { consumer, batches } = recording(b, 't')
    await consumer.start()
    await b.publish(
      't',
      ['a', 'b', 'c'].map((t) => message(t, t, false)),
    )
    await vi.waitFor(() => expect(new Set(batches.map((x) => x.partition))).toEqual(new Set([0, 1, 2])))
    expect(batches.flatMap(texts).sort()).toEqual(['a', 'b', 'c'])
  })

  it('commits a batch only once its handler resolved', async () => {
    const b = broker(1)
    const gate = deferred()
    const { consumer, batches } = recording(b, 't', () => gate.promise)
    await b.publish('t', [message('a'), message('b')])
    await consumer.start()
    await vi.waitFor(() => expect(batches).toHaveLength(1))
    // In the handler: nothing committed yet.
    expect(consumer.health().lag).toBe(2)
    await new Promise((r) => setTimeout(r, 20))
    expect(consumer.health().lag).toBe(2)
    expect(batches).toHaveLength(1)
    gate.resolve()
    await vi.waitFor(() => expect(consumer.health().lag).toBe(0))
    // Committed: not delivered again.
    await new Promise((r) => setTimeout(r, 20))
    expect(batches).toHaveLength(1)
  })

  it('reports the lag over all partitions', async () => {
    const b = broker(3)
    const gate = deferred()
    const { consumer, batches } = recording(b, 't', () => gate.promise)
    expect(consumer.health()).toMatchObject({ lag: 0, stalled: false })
    await b.publish(
      't',
      ['a', 'b', 'c', 'd', 'e'].map((t) => message(t, t, false)),
    )
    expect(consumer.health().lag).toBe(5)
    expect(consumer.health().detail).toContain('5')
    await consumer.start()
    await vi.waitFor(() => expect(batches).toHaveLength(1))
    gate.resolve()
    await vi.waitFor(() => expect(consumer.health().lag).toBe(0))
  })

  it('calls onFatal when the handler throws something else than the abort reason, and stops there', async () => {
    const b = broker(1)
    const boom = new Error('bug in the handler')
    const { consumer, batches, onFatal } = recording(b, 't', async () => {
      throw boom
    })
    await b.publish('t', [message('a')])
    await consumer.start()
    await vi.waitFor(() => expect(onFatal).toHaveBeenCalledTimes(1))
    expect(onFatal).toHaveBeenCalledWith(boom)
    // The batch is not committed, and nothing more is delivered.
    expect(consumer.health().lag).toBe(1)
    await b.publish('t', [message('b')])
    await new Promise((r) => setTimeout(r, 30))
    expect(batches).toHaveLength(1)
    expect(onFatal).toHaveBeenCalledTimes(1)
    expect(consumer.health().lag).toBe(2)
    await consumer.stop()
  })

  it('does not call onFatal when the handler leaves its batch on stop, and does not commit it', async () => {
    const b = broker(1)
    const { consumer, batches, onFatal } = recording(
      b,
      't',
      (_batch, signal) =>
        new Promise<void>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error))
        }),
    )
    await b.publish('t', [message('a')])
    await consumer.start()
    await vi.waitFor(() => expect(batches).toHaveLength(1))
    await consumer.stop()
    expect(onFatal).not.toHaveBeenCalled()
    expect(consumer.health().lag).toBe(1)
  })

  it('stop() waits for the batch in progress and commits it', async () => {
    const b = broker(1)
    const gate = deferred()
    let finished = false
    const { consumer, batches } = recording(b, 't', async () => {
      await gate.promise
      finished = true
    })
    await b.publish('t', [message('a')])
    await consumer.start()
    await vi.waitFor(() => expect(batches).toHaveLength(1))
    let stopped = false
    const stopping = consumer.stop().then(() => (stopped = true))
    await new Promise((r) => setTimeout(r, 20))
    expect(stopped).toBe(false)
    gate.resolve()
    await stopping
    expect(finished).toBe(true)
    expect(consumer.health().lag).toBe(0)
  })

  it('stop() ends consumption: what is published afterwards is not delivered', async () => {
    const b = broker(2)
    const { consumer, batches } = recording(b, 't')
    await consumer.start()
    await b.publish('t', [message('a')])
    await vi.waitFor(() => expect(batches).toHaveLength(1))
    await consumer.stop()
    await b.publish('t', [message('b'), message('c', 'other')])
    await new Promise((r) => setTimeout(r, 30))
    expect(batches).toHaveLength(1)
    expect(consumer.health().lag).toBe(2)
  })

  it('stop() returns promptly for an idle consumer, and close() stops every consumer', async () => {
    const b = broker(1)
    const one = recording(b, 't')
    const two = recording(b, 't')
    await one.consumer.start()
    await two.consumer.start()
    const started = Date.now()
    await b.close()
    expect(Date.now() - started).toBeLessThan(500)
    await b.publish('t', [message('a')])
    await new Promise((r) => setTimeout(r, 30))
    expect([...one.batches, ...two.batches]).toEqual([])
  })

  it('never hands the same message to a handler twice in one consumer', async () => {
    const b = broker(2)
    const seen: string[] = []
    const consumer: Consumer = b.createConsumer({
      groupId: 'g',
      topic: 't',
      handler: async (batch) => {
        seen.push(...texts(batch))
        await new Promise((r) => setTimeout(r, 1))
      },
    })
    await consumer.start()
    const sent: string[] = []
    for (let i = 0; i < 20; i++) {
      const batch = [`m${i}a`, `m${i}b`]
      sent.push(...batch)
      await b.publish(
        't',
        batch.map((t) => message(t, t, false)),
      )
    }
    await vi.waitFor(() => expect(seen).toHaveLength(40))
    expect([...seen].sort()).toEqual([...sent].sort())
    await consumer.stop()
  })
})
