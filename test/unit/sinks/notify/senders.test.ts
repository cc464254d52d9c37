// A webhook's body template runs within a budget per message (BODY_TEMPLATE_LIMITS): one that would take a notify
// process's time (about a second a message, the review found) is given up naming the template, once, never retried.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
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

describe('an SMTP server that answers without end', () => {
  // The review: a server that greets, then answers EHLO with 250- lines for ever (or one line without its end) held
  // the event loop for 20 to 77 s at a time (nodemailer re-reads the unfinished line at each byte) and no timeout
  // ended the send (they are idle timeouts, reset by every byte).
  const servers: Server[] = []
  afterAll(() => servers.forEach((s) => s.close()))
  const hostile = async (answer: (socket: Socket) => void): Promise<number> => {
    const server = createServer((socket) => {
      socket.on('error', () => undefined)
      socket.write('220 hostile ESMTP\r\n')
      socket.once('data', () => answer(socket))
    })
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    return (server.address() as AddressInfo).port
  }
  const flood = (line: string) => (socket: Socket) => {
    const pump = () => {
      while (!socket.destroyed && socket.write(line));
      if (!socket.destroyed) socket.once('drain', pump)
    }
    pump()
  }
  const mail = (port: number): OpenedDestination => ({
    id: 'nd_2',
    name: 'mail',
    kind: 'email',
    enabled: true,
    events: ['triggered'],
    limits: {} as OpenedDestination['limits'],
    createdAt: 0,
    updatedAt: 0,
    settings: { host: '127.0.0.1', port, security: 'none', from: 'sluice@example.com', to: ['oncall@example.com'] },
  })

  for (const [what, answer, error] of [
    ['250- lines for ever', flood('250-PIPELINING\r\n'), /answered more than 65536 bytes/],
    ['one line that never ends', flood('x'.repeat(1024)), /answered more than 65536 bytes/],
    [
      'a byte at a time, slowly',
      (socket: Socket) => {
        const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write('2')), 5)
      },
      /did not finish within 3000 ms/,
    ],
  ] as const)
    it(`ends the send within its time (${what}), the event loop free all along`, async () => {
      const port = await hostile(answer)
      let last = performance.now()
      let longest = 0
      const tick = setInterval(() => {
        longest = Math.max(longest, performance.now() - last)
        last = performance.now()
      }, 20)
      const started = performance.now()
      const outcome = await send(mail(port), items.slice(0, 1), { ...policy, timeoutMs: 3000 })
      clearInterval(tick)
      expect(outcome).toMatchObject({ result: 'retry', error: expect.stringMatching(error) })
      expect(performance.now() - started).toBeLessThan(5000)
      expect(longest).toBeLessThan(1000)
    })
})
