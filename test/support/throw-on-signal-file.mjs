// Preloaded into a `sluice serve` under test (NODE_OPTIONS=--import=<this file>): once the file named by
// TEST_THROW_WHEN exists, a timer of the main thread throws, as a bug of a timer or an event emitter would, for the
// test of what the process does with an exception nothing caught (test/e2e/uncaught.e2e.test.ts).
import { existsSync } from 'node:fs'
import { isMainThread } from 'node:worker_threads'

const trigger = process.env['TEST_THROW_WHEN']
if (isMainThread && trigger) {
  const poll = setInterval(() => {
    if (!existsSync(trigger)) return
    clearInterval(poll)
    throw new Error('injected: a throw from a timer that nothing catches')
  }, 50)
  poll.unref()
}
