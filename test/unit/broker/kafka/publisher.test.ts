// The publisher when the Kafka client misbehaves (stand-in producers; the publisher on a real Kafka is
// every e2e and fault test): a send the client never settles fails the publish instead of holding
// every later one behind it, and a partition without a leader in the client's metadata is an error
// of the send, not an exception thrown from a network callback.
import { kGetConnection } from '@platformatic/kafka'
import { expect, it } from 'vitest'
import { GuardedProducer, KafkaPublisher, type SendingProducer } from '../../../../src/broker/kafka/publisher.js'
import { PublishError } from '../../../../src/broker/ports.js'
import { createLogger } from '../../../../src/shared/logger.js'

const settings = { brokers: ['127.0.0.1:1'], clientId: 'test', messageMaxBytes: 1 << 20, publishTimeoutMs: 100 }
const admin = { partitions: (topics: readonly string[]) => Promise.resolve(new Map(topics.map((t) => [t, 3]))) }
const message = { key: 'k', value: Buffer.from('{}'), headers: {} }

it('fails a publish whose send the client never settles, replaces the producer, and publishes the next one', async () => {
  const made: string[] = []
  const producers: SendingProducer[] = [
    { send: () => new Promise(() => undefined), close: () => Promise.resolve() },
    { send: () => Promise.resolve({ offsets: [] }), close: () => Promise.resolve() },
  ] as unknown as SendingProducer[]
  const publisher = new KafkaPublisher(admin, settings, createLogger('silent'), () => {
    made.push('producer')
    return producers.shift()!
  })
  const started = Date.now()
  const first = await publisher.publish('t', [message]).catch((err: unknown) => err)
  expect(first).toBeInstanceOf(PublishError)
  expect((first as PublishError).code).toBe('PUBLISH_FAILED')
  expect(Date.now() - started).toBeLessThan(10_000)
  await publisher.publish('t', [message])
  expect(made).toHaveLength(2)
  await publisher.close()
})

it('answers a connection to a partition leader missing from the metadata with an error, not a thrown TypeError', async () => {
  const producer = new GuardedProducer({ clientId: 'test', bootstrapBrokers: ['127.0.0.1:1'] })
  const error = await new Promise<unknown>((resolve) => {
    producer[kGetConnection](undefined, (err) => resolve(err))
  })
  expect(error).toMatchObject({ message: expect.stringMatching(/no leader in the metadata/) })
  await producer.close()
})

it('names the Kafka errors nested in a failed send, as @platformatic/kafka nests them', async () => {
  const { protocolErrors } = await import('../../../../src/broker/kafka/publisher.js')
  const { ProtocolError } = await import('@platformatic/kafka')
  const nested = new AggregateError(
    [
      new AggregateError(
        [new ProtocolError('NOT_ENOUGH_REPLICAS'), new ProtocolError('NOT_ENOUGH_REPLICAS')],
        'response',
      ),
      new Error('socket'),
    ],
    'Producing messages failed.',
  )
  expect(protocolErrors(nested)).toEqual(['NOT_ENOUGH_REPLICAS'])
  expect(protocolErrors(new Error('plain'))).toEqual([])
})
