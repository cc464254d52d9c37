// The SSRF guard of admin-supplied URLs, against real sockets on loopback.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  checkUrl,
  guardedGet,
  guardedRequest,
  OutboundError,
  parseRanges,
  type OutboundPolicy,
} from '../../src/shared/outbound.js'
import { send } from '../../src/sinks/notify/senders.js'

const strict: OutboundPolicy = { allowInsecure: false, timeoutMs: 1000, maxBytes: 1024 }
const dev: OutboundPolicy = { ...strict, allowInsecure: true }
let server: Server
let base: string

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end()
    } else if (req.url === '/big') {
      res.end('x'.repeat(5000))
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('{}'), 3000)
    } else if (req.url === '/drip') {
      const timer = setInterval(() => res.write(' '), 200)
      res.on('close', () => clearInterval(timer))
    } else if (req.url === '/empty') {
      res.writeHead(204).end()
    } else {
      res.setHeader('content-type', 'application/json')
      res.end('{"keys":[]}')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  server.closeAllConnections()
  server.close()
})

describe('outbound guard', () => {
  it('refuses non-https, credentials and non-public targets by default', async () => {
    await expect(checkUrl(`${base}/jwks`, strict)).rejects.toThrow(/https URL/)
    await expect(checkUrl('https://user:pw@example.com/jwks', strict)).rejects.toThrow(/credentials/)
    for (const host of [
      '127.0.0.1',
      '10.0.0.8',
      '192.168.1.1',
      '169.254.169.254',
      '[::1]',
      '[fd00:ec2::254]',
      '100.64.0.1',
      '0.0.0.0',
      '[::ffff:127.0.0.1]',
      'localhost',
    ]) {
      await expect(checkUrl(`https://${host}/jwks`, strict), host).rejects.toThrow(/not a public address/)
    }
    await expect(checkUrl('https://8.8.8.8/jwks', strict)).resolves.toBeInstanceOf(URL)
  })

  it('checks the address actually connected to, not only the one checked at save time', async () => {
    await expect(guardedGet(`https://localhost:${new URL(base).port}/jwks`, strict)).rejects.toThrow(
      /not a public address/,
    )
    await expect(guardedGet(`${base}/jwks`, strict)).rejects.toThrow(/https URL/)
  })

  it('in development allows http and loopback, but never private or link-local targets', async () => {
    const res = await guardedGet(`${base}/jwks`, dev)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ keys: [] })
    await expect(checkUrl('http://169.254.169.254/', dev)).rejects.toThrow(/not a public address/)
    await expect(checkUrl('http://10.1.2.3/', dev)).rejects.toThrow(/not a public address/)
  })

  it('does not follow redirects, and bounds size and time', async () => {
    await expect(guardedGet(`${base}/redirect`, dev)).rejects.toThrow(/redirect/)
    await expect(guardedGet(`${base}/big`, dev)).rejects.toThrow(/larger than 1024 bytes/)
    await expect(guardedGet(`${base}/slow`, dev)).rejects.toThrow(/no answer within 1000 ms/)
    // A byte every 200 ms does not keep the request alive past the limit.
    await expect(guardedGet(`${base}/drip`, { ...dev, maxBytes: 1_000_000 })).rejects.toThrow(
      /no answer within 1000 ms/,
    )
    await expect(guardedGet(`${base}/empty`, dev)).rejects.toThrow(/answered 204, not 200/)
    await expect(checkUrl('https://[::127.0.0.1]/jwks', strict)).rejects.toThrow(/not a public address/)
  })

  it('refuses every spelling of loopback and private targets, by name or address, unless a range is allowed', async () => {
    for (const url of [
      'https://0/',
      'https://0x7f.1/',
      'https://2130706433/',
      'https://127.1/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
      'https://[::1]/',
      'https://[fe80::1]/',
      'https://172.16.0.1/',
      'https://[fc00::1]/',
      'https://224.0.0.1/',
      'https://255.255.255.255/',
      'https://localhost/',
      'https://LocalHost:8443/',
    ]) {
      await expect(checkUrl(url, strict), url).rejects.toThrow(/not a public address/)
      await expect(guardedRequest(url, strict, { method: 'POST', body: '{}' }), url).rejects.toThrow(
        /not a public address/,
      )
    }
    // Refused, not failed: no retry of the same request can succeed (a sender gives it up).
    await expect(guardedRequest('https://localhost/', strict)).rejects.toMatchObject({ refused: true })
    await expect(guardedRequest('https://localhost/', strict)).rejects.toBeInstanceOf(OutboundError)
    // A named range lets exactly its addresses through: 127.0.0.1/32 allows loopback's 127.0.0.1, not 10.x.
    const onPrem: OutboundPolicy = { ...dev, allowInsecure: false, allowedRanges: parseRanges(['127.0.0.1/32']) }
    await expect(checkUrl('https://localhost/', onPrem)).resolves.toBeInstanceOf(URL)
    await expect(checkUrl('https://10.0.0.1/', onPrem)).rejects.toThrow(/not a public address/)
    await expect(checkUrl('https://127.0.0.2/', onPrem)).rejects.toThrow(/not a public address/)
    expect(() => parseRanges(['10.0.0.0/33'])).toThrow(/not an IP range/)
  })

  it('a destination answering a redirect to a private address: not followed, given up with the reason', async () => {
    const d = {
      id: 'dst_x',
      name: 'x',
      kind: 'webhook',
      enabled: true,
      events: ['triggered'],
      limits: { ratePerSecond: 1, burst: 1, concurrency: 1, maxDigest: 1 },
      createdAt: 0,
      updatedAt: 0,
      settings: { url: `${base}/redirect`, contentType: 'application/json', signingSecret: 'whsec_AAAA' },
    } as const
    const item = {
      deliveryId: 'd1',
      event: 'triggered',
      alert: { id: 'a1', status: 'firing', severity: 'info', description: 'x' },
      link: '',
    } as const
    const outcome = await send(d, [item], dev)
    expect(outcome).toMatchObject({ result: 'give-up', status: 302, error: expect.stringMatching(/redirect/) })
    // The same URL under the strict policy is refused before any request.
    const refused = await send(d, [item], strict)
    expect(refused).toMatchObject({ result: 'give-up', error: expect.stringMatching(/http or https|https URL/) })
  })

  it('a header Node refuses is a rejected OutboundError naming it, and nothing the request started throws later', async () => {
    // Whatever escapes to the process (a timer's or a listener's throw) is caught here instead of ending the run.
    const escaped: unknown[] = []
    const onEscape = (err: unknown) => void escaped.push(err)
    process.on('uncaughtException', onEscape)
    try {
      const short: OutboundPolicy = { ...dev, timeoutMs: 200 }
      const cases: [Record<string, string>, RegExp][] = [
        [{ 'X-Token': 'caf€' }, /header X-Token/],
        [{ 'X-Token': 'a\u0001b' }, /header X-Token/],
        [{ 'X-Token': 'café ☕' }, /header X-Token/],
        [{ 'content-type': 'text/plain\r\nX-Evil: 1' }, /header content-type/],
        [{ 'X Bad': 'v' }, /header "X Bad"|header X Bad/],
      ]
      const controller = new AbortController()
      const errors = await Promise.all(
        cases.map(([headers]) =>
          guardedRequest(`${base}/jwks`, short, {
            method: 'POST',
            headers,
            body: '{}',
            signal: controller.signal,
          }).then(
            () => undefined,
            (e: unknown) => e,
          ),
        ),
      )
      // Past the deadline of every request above, and after their abort signal fires: nothing was thrown.
      controller.abort()
      await new Promise((r) => setTimeout(r, 3 * short.timeoutMs))
      expect(escaped).toEqual([])
      cases.forEach(([headers, named], i) => {
        expect(errors[i], JSON.stringify(headers)).toBeInstanceOf(OutboundError)
        expect((errors[i] as OutboundError).message).toMatch(named)
        expect((errors[i] as OutboundError).refused).toBe(true)
      })
    } finally {
      process.off('uncaughtException', onEscape)
    }
  })

  it('a signal already aborted, or aborted mid-request, ends the request at once; the deadline fires nothing after', async () => {
    const escaped: unknown[] = []
    const onEscape = (err: unknown) => void escaped.push(err)
    process.on('uncaughtException', onEscape)
    try {
      const short: OutboundPolicy = { ...dev, timeoutMs: 300 }
      const started = Date.now()
      await expect(guardedRequest(`${base}/slow`, short, { signal: AbortSignal.abort() })).rejects.toThrow(/aborted/)
      expect(Date.now() - started).toBeLessThan(short.timeoutMs)
      const controller = new AbortController()
      const pending = guardedRequest(`${base}/slow`, short, { signal: controller.signal })
      setTimeout(() => controller.abort(), 50)
      await expect(pending).rejects.toThrow(/aborted/)
      await new Promise((r) => setTimeout(r, 2 * short.timeoutMs))
      expect(escaped).toEqual([])
    } finally {
      process.off('uncaughtException', onEscape)
    }
  })
})
