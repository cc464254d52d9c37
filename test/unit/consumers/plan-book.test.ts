// The events consumer's plans while Redis fails: an environment's plan read before is used as it was (its events go
// on, without waiting for a failure per batch); one never read holds the batch as an outage (retried), so a `block`
// plan is never skipped.
import { expect, it } from 'vitest'
import { ORIGIN_HEADERS } from '../../../src/broker/messages/records.js'
import type { InboundMessage } from '../../../src/broker/ports.js'
import { PlanBook } from '../../../src/consumers/plan-book.js'
import type { TrackingPlan } from '../../../src/pipeline/plans.js'
import { AppError } from '../../../src/shared/errors.js'
import { createLogger } from '../../../src/shared/logger.js'
import type { PlanStore } from '../../../src/state/redis/plans.js'

const plan: TrackingPlan = { mode: 'block', unplannedEvents: 'violation', unplannedProperties: 'allow', events: {} }

function fakeStore() {
  const state = { down: false, version: 1, calls: 0 }
  const call = <T>(value: T) => {
    state.calls++
    return state.down ? Promise.reject(new Error('Command timed out')) : Promise.resolve(value)
  }
  const store = {
    head: () => call(state.version),
    get: (_a: string, env: string) =>
      call(env === 'env-a' ? { version: state.version, plan, savedAt: 0, savedBy: 'key:x' } : undefined),
  } as unknown as PlanStore
  return { store, state }
}

const message = (env: string) =>
  ({
    value: Buffer.alloc(0),
    headers: { [ORIGIN_HEADERS.environment]: env, [ORIGIN_HEADERS.account]: 'acct' },
  }) as unknown as InboundMessage

it('uses the last known plan while Redis fails, checking again only after refreshMs, and holds an unknown one', async () => {
  const { store, state } = fakeStore()
  const book = new PlanBook(store, 60_000, createLogger('silent'))
  const first = await book.plansOf([message('env-a'), message('env-b')])
  expect(first.get('env-a')?.version).toBe(1)
  expect(first.get('env-b')).toBeUndefined()

  const short = new PlanBook(store, 100, createLogger('silent'))
  await short.plansOf([message('env-a')])
  state.down = true
  await new Promise((r) => setTimeout(r, 150))
  expect((await short.plansOf([message('env-a')])).get('env-a')?.version).toBe(1)
  const calls = state.calls
  // Within refreshMs of the failure, no batch waits on Redis again.
  expect((await short.plansOf([message('env-a')])).get('env-a')?.version).toBe(1)
  expect(state.calls).toBe(calls)

  // An environment never read: the batch is held as an outage (retriable), never decoded without its plan.
  const failure = await short.plansOf([message('env-c')]).catch((err: unknown) => err)
  expect(failure).toBeInstanceOf(AppError)
  expect((failure as AppError).retriable).toBe(true)

  // Back: the change is seen.
  state.down = false
  state.version = 2
  await new Promise((r) => setTimeout(r, 150))
  expect((await short.plansOf([message('env-a')])).get('env-a')?.version).toBe(2)
})

it('gives each batch its own plans: batches of partitions read at once never see each other’s', async () => {
  const { store } = fakeStore()
  const book = new PlanBook(store, 60_000, createLogger('silent'))
  await book.plansOf([message('env-a')])
  // One batch waits for a plan not read yet while another, of another environment, is read.
  const [a, b] = await Promise.all([
    book.plansOf([message('env-a'), message('env-new')]),
    book.plansOf([message('env-b')]),
  ])
  expect(a.get('env-a')?.version).toBe(1)
  expect(b.size).toBe(0)
})
