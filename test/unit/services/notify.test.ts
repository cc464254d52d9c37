// What the notifications service checks of a destination itself (the CLI gives a file's JSON as it is, without the
// HTTP schema): the minutes of reminders and updates, the kind, a PagerDuty destination's one event per message.
import { randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { NotifyService, type DestinationInput } from '../../../src/services/notify.js'
import type { StoredDestination } from '../../../src/pipeline/notify/destinations.js'
import { Refusal } from '../../../src/shared/errors.js'
import { SecretBox } from '../../../src/shared/secret-box.js'
import type { NotifyStore } from '../../../src/state/redis/notify.js'

const saved: StoredDestination[] = []
const store = {
  destinations: async () => ({ list: saved, route: [] }),
  saveDestination: async (_account: string, d: StoredDestination) => void saved.push(d),
} as unknown as NotifyStore
const service = new NotifyService(
  store,
  new SecretBox([randomBytes(32).toString('base64')]),
  { allowInsecure: true, timeoutMs: 1000, maxBytes: 1024 },
  60_000,
  60_000,
)
const hook = { name: 'hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/hook' } } as const

async function refusal(input: DestinationInput): Promise<Refusal> {
  const err = await service.create('acc', input).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(Refusal)
  return err as Refusal
}

it.each([
  [{ updateAfterMinutes: 0 }, 'updateAfterMinutes'],
  [{ updateAfterMinutes: 0.001 }, 'updateAfterMinutes'],
  [{ updateAfterMinutes: 1441 }, 'updateAfterMinutes'],
  [{ repeatAfterMinutes: 0 }, 'repeatAfterMinutes'],
  [{ repeatAfterMinutes: -5 }, 'repeatAfterMinutes'],
])('refuses %j naming the field', async (minutes, field) => {
  const err = await refusal({ ...hook, ...minutes })
  expect(err.details).toEqual([
    { field, problem: expect.stringMatching(/^must be a whole number of minutes from 1 to/) },
  ])
})

it('refuses a kind it has no module for, and digests for PagerDuty, naming the fields', async () => {
  expect((await refusal({ ...hook, kind: '__proto__' as 'webhook' })).details).toEqual([
    { field: 'kind', problem: 'must be one of webhook, slack, pagerduty, email' },
  ])
  const pd = await refusal({
    name: 'pd',
    kind: 'pagerduty',
    limits: { maxDigest: 10 },
    settings: { routingKey: 'R'.repeat(32), url: 'http://127.0.0.1:9/pd' },
  })
  expect(pd.details).toEqual([
    { field: 'limits.maxDigest', problem: 'must be 1 for a pagerduty destination (one event per message)' },
  ])
})

it('keeps the minutes it is given, and makes a webhook signing secret shown once', async () => {
  const made = await service.create('acc', { ...hook, updateAfterMinutes: 10, repeatAfterMinutes: 30 })
  expect(made.destination).toMatchObject({ updateAfterMinutes: 10, repeatAfterMinutes: 30, kind: 'webhook' })
  expect(made.signingSecret).toMatch(/^whsec_/)
  expect(JSON.stringify(saved.at(-1))).not.toContain(made.signingSecret)
})
