// A webhook's body template runs within a budget per message (BODY_TEMPLATE_LIMITS): one that would take a notify
// process's time (about a second a message, the review found) is given up naming the template, once, never retried.
import { expect, it } from 'vitest'
import type { NotifyItem } from '../../../../src/pipeline/notify/messages.js'
import { send, type OpenedDestination } from '../../../../src/sinks/notify/senders.js'

const items: NotifyItem[] = Array.from({ length: 60 }, (_, i) => ({
  deliveryId: `d${i}`,
  event: 'triggered',
  alert: { id: `al_${i}`, status: 'firing', severity: 'high', description: `alert ${i}` },
  link: `https://sluice.example/console/#alert=al_${i}`,
}))

const hook = (bodyTemplate: string): OpenedDestination => ({
  id: 'nd_1',
  name: 'hook',
  kind: 'webhook',
  enabled: true,
  events: ['triggered'],
  limits: {} as OpenedDestination['limits'],
  createdAt: 0,
  updatedAt: 0,
  // Port 9 on loopback: a message that gets as far as sending fails to connect (retry), which the test tells apart.
  settings: { url: 'http://127.0.0.1:9/hook', contentType: 'application/json', signingSecret: 's', bodyTemplate },
})
const policy = { allowInsecure: true, timeoutMs: 1000, maxBytes: 1024 }

it('gives up a message whose body template passes the budget (sections over a digest of 60: 216,000 renders), naming it', async () => {
  const heavy = '{{#alerts}}{{#alerts}}{{#alerts}}{{alert.nothing}}{{/alerts}}{{/alerts}}{{/alerts}}'
  const started = performance.now()
  const outcome = await send(hook(heavy), items, policy)
  expect(outcome).toEqual({
    result: 'give-up',
    error: expect.stringMatching(
      /^not sent: rendering settings.bodyTemplate takes more than (100000 steps|50 ms); change the destination/,
    ),
  })
  expect(performance.now() - started).toBeLessThan(500)
  // A template within the budget renders, and the message goes on to be sent (here: nothing listens, so retry).
  const light = await send(hook('{"n": {{count}}, "first": "{{alert.description}}"}'), items, policy)
  expect(light.result).toBe('retry')
})
