// The live tail's hub runs in its Redis subscriber's 'message' listener: whatever is published on a tail channel
// (a consumer of another version, anyone with the Redis), nothing may throw out of it, which would end the process.
import { EventEmitter } from 'node:events'
import { expect, it } from 'vitest'
import { TailHub } from '../../../src/services/tail.js'
import { createLogger } from '../../../src/shared/logger.js'

it('drops a message it cannot read, and delivers the next one', async () => {
  const subscriber = Object.assign(new EventEmitter(), {
    subscribe: async () => 1,
    unsubscribe: async () => 1,
  })
  const channel = {
    channel: (scope: string) => `tail:${scope}`,
    scopeOf: (c: string) => c.slice(5),
    watch: async () => undefined,
  }
  const hub = new TailHub(channel as never, subscriber as never, { maxViewers: 5, log: createLogger('silent') })
  const got: unknown[] = []
  await hub.add({ scope: 'env:e1', filter: {}, send: (m) => (got.push(m), true), cut: () => undefined })
  for (const text of ['{"rate":1}', 'null', '{"rate":1,"records":{"length":2}}', '[]', 'not json'])
    expect(() => subscriber.emit('message', 'tail:env:e1', text)).not.toThrow()
  subscriber.emit('message', 'tail:env:e1', JSON.stringify({ rate: 1, records: [{ kind: 'event', key: 'k' }] }))
  expect(got).toEqual([{ rate: 1, records: [{ kind: 'event', key: 'k' }] }])
  await hub.close()
  // Closed, it takes no viewer (a request that was on its way when the server began to stop).
  expect(await hub.add({ scope: 'env:e1', filter: {}, send: () => true, cut: () => undefined })).toBeUndefined()
})
