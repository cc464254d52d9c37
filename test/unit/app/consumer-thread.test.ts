// The main thread's side of the consumer thread, against a stand-in entry that misbehaves on purpose:
// a dead thread never makes a shutdown wait, a fatal error is reported once, a thread that does not
// answer fails the scrape (never an empty one) and is reported busy by readiness.
import { afterEach, expect, it, vi } from 'vitest'
import { ConsumerThread } from '../../../src/app/consumer-thread.js'
import type { Role } from '../../../src/app/roles.js'
import type { Config } from '../../../src/config/index.js'
import { HttpError } from '../../../src/http/errors.js'
import { createMetrics } from '../../../src/shared/metrics.js'

const entry = new URL('./thread-fixture.mjs', import.meta.url)
const running: ConsumerThread[] = []
const start = async (behaviour: string, onFatal: (err: unknown) => void = () => undefined) => {
  const thread = await ConsumerThread.start({} as Config, [behaviour as Role], onFatal, entry)
  running.push(thread)
  return thread
}
afterEach(async () => {
  for (const t of running.splice(0)) await t.stop()
})

it('sums its metrics with the main registry', async () => {
  const thread = await start('ok')
  const text = await thread.scrape(createMetrics({ defaults: false }))
  expect(text).toMatch(/^fixture_total 7$/m)
  expect(text).toMatch(/^sluice_events_accepted_total 0$/m)
})

it('rejects the start with the error the thread gave, its type and code kept', async () => {
  const err = await ConsumerThread.start({} as Config, ['fail-start' as Role], () => undefined, entry).catch(
    (e: unknown) => e,
  )
  expect(err).toMatchObject({ name: 'TypeError', message: 'no clickhouse', code: 'ECONNREFUSED' })
})

it('reports a thread that dies once, and a stop after that returns at once', async () => {
  const onFatal = vi.fn()
  const thread = await start('fatal-then-die', onFatal)
  await vi.waitFor(() =>
    expect(thread.checks()).resolves.toEqual({ 'consumer-thread': expect.stringMatching(/exited \(code 1\)/) }),
  )
  expect(onFatal).toHaveBeenCalledTimes(1)
  expect(String(onFatal.mock.calls[0]![0])).toMatch(/consumer gave up/)
  const t0 = performance.now()
  await thread.stop()
  expect(performance.now() - t0).toBeLessThan(1000)
})

it('a stop asked while the thread dies does not wait for an answer', async () => {
  const thread = await start('die')
  await thread.stop()
})

it('a thread that does not answer: the scrape fails with 503, readiness says busy', async () => {
  const thread = await start('mute')
  const err = await thread.scrape(createMetrics({ defaults: false })).catch((e: unknown) => e)
  expect(err).toBeInstanceOf(HttpError)
  expect(err).toMatchObject({ code: 'UNAVAILABLE' })
  expect(await thread.checks()).toEqual({ 'consumer-thread': expect.stringMatching(/^busy: no answer within/) })
})
