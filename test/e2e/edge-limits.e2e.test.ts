// The edge's bounds on hostile input, on a real service: content types, small beacon bodies, the
// per-key intake rate limit, slow senders cut off, router errors in each API's own error body (with a
// request id, a log line and a metric, never echoing the URL), and a deep body refused before any of
// it is saved.
import { request } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { spawnSluice } from '../support/cli.js'
import { createTestEnv, event, postEvents, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let key: string

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_EVENTS_RATE_PER_SECOND: '5',
    SLUICE_EVENTS_BURST: '10',
    SLUICE_HTTP_REQUEST_TIMEOUT_MS: '1500',
    SLUICE_BEACON_MAX_BODY_BYTES: '2048',
  })
  demo = await t.bootstrap()
  key = demo.environments[1]!.clientSideSdkKey
  service = await t.start(['edge', 'admin'])
})
afterAll(async () => t?.close())

it('takes JSON on the bulk route only (415 otherwise), and text/plain on the beacon route, small', async () => {
  const staging = demo.environments[1]!.serverSideSdkKey
  const plain = await postEvents(service.url, staging, [event(1)], { 'content-type': 'text/plain' })
  expect(plain.status).toBe(415)
  expect(plain.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', requestId: expect.any(String) })

  const beacon = (body: string) =>
    fetch(`${service.url}/api/events/beacon`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body })
  expect((await beacon(JSON.stringify({ entries: [event(2)], token: staging, sdk: 'javascript-10' }))).status).toBe(202)
  const big = await beacon(JSON.stringify({ entries: Array.from({ length: 40 }, (_, i) => event(i)), token: staging }))
  expect(big.status).toBe(413)
  expect(((await big.json()) as { message: string }).message).toMatch(/larger than the limit of 2048 bytes/)
})

it('limits requests per SDK key, with Retry-After, and other keys are not affected', async () => {
  // The burst of 10 passes; then a request is refused. (Which one is not fixed: the key earns a request back every
  // 200 ms, so a refused one may be followed by one that passes. The refusal is the one to read.)
  const answers: Awaited<ReturnType<typeof postEvents>>[] = []
  for (let i = 0; i < 15; i++) answers.push(await postEvents(service.url, key, [event(i)]))
  expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array.from({ length: 10 }, () => 202))
  const limited = answers.find((a) => a.status === 429)
  expect(limited).toBeDefined()
  expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(limited!.body['message']).toMatch(/rate limit of 5 requests per second for this SDK key/)
  expect((await postEvents(service.url, demo.environments[0]!.serverSideSdkKey, [event(100)])).status).toBe(202)
})

it('cuts off a sender that does not finish its request in time (slowloris)', async () => {
  const socket = connect(Number(new URL(service.url).port), '127.0.0.1')
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write(
    `POST /api/events/bulk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${demo.environments[0]!.clientSideSdkKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[`,
  )
  const started = Date.now()
  let answer = ''
  socket.on('data', (d: Buffer) => (answer += d.toString()))
  await new Promise((resolve) => socket.once('close', resolve))
  expect(Date.now() - started).toBeLessThan(5000)
  expect(answer).toMatch(/^HTTP\/1\.1 408/)
})

it('answers router errors in the API own error body, with a request id, without echoing the URL, and counts them', async () => {
  const secret = 'A'.repeat(400)
  const long = await fetch(`${service.url}/api/v1/webhook/${secret}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  expect(long.status).toBe(400)
  const longBody = await long.text()
  expect(longBody).not.toContain(secret)
  expect(JSON.parse(longBody)).toMatchObject({ code: 'BAD_REQUEST', requestId: long.headers.get('x-request-id') })

  const split = await fetch(`${service.url}/internal/api/v2/segments/%E0%A4%A`, {
    headers: { authorization: `Bearer ${demo.adminApiKey}` },
  })
  expect(split.status).toBe(400)
  expect(await split.json()).toEqual({
    code: 400,
    message: 'the URL is malformed (bad percent-encoding)',
    details: null,
    transactionId: split.headers.get('x-request-id'),
  })

  // SCIM answers in its own media type, even to a URL the router refuses before SCIM's routes run.
  const scim = await fetch(`${service.url}/gateway/ng/api/scim/account/${demo.accountId}/Users/${secret}`)
  expect(scim.status).toBe(400)
  expect(scim.headers.get('content-type')).toBe('application/scim+json; charset=utf-8')
  expect(await scim.json()).toMatchObject({ status: '400', scimType: 'invalidSyntax' })

  const unknown = await fetch(`${service.url}/api/v1/webhook-typo/${secret}`)
  expect(unknown.status).toBe(404)
  expect(await unknown.text()).not.toContain(secret)

  const metrics = await (await fetch(`${service.url}/metrics`)).text()
  expect(metrics).toMatch(/^sluice_http_errors_total\{route="unmatched",code="BAD_REQUEST",limit=""\} [2-9]/m)
  expect(metrics).toMatch(
    /^sluice_http_errors_total\{route="\/api\/events\/bulk",code="RATE_LIMITED",limit=""\} [1-9]/m,
  )
})

it('refuses a deep identities body with 400 before saving any entry of it', async () => {
  const admin = { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' }
  const types = (await (
    await fetch(`${service.url}/internal/api/v2/trafficTypes/ws/${demo.workspaceId}`, { headers: admin })
  ).json()) as { id: string; name: string }[]
  const path = `${service.url}/internal/api/v2/trafficTypes/${types[0]!.id}/environments/${demo.environments[0]!.id}/identities`
  const body = `[{"key":"saved-if-bug","values":{"a":"1"}},{"key":"deep","values":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}]`
  const res = await fetch(path, { method: 'POST', headers: admin, body })
  expect(res.status).toBe(400)
  expect(await res.json()).toMatchObject({
    code: 400,
    message: expect.stringMatching(/nests deeper than 64 levels$/),
    details: [{ field: expect.stringMatching(/^body\[1\]\.values\.a/) }],
  })
  expect((await fetch(`${path}/saved-if-bug`, { headers: admin })).status).toBe(404)
})

it('lets a sender of a body far over the limit finish writing it and read its 413 (no EPIPE)', async () => {
  const created = await fetch(`${service.url}/api/v1/integrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'big bodies', template: 'generic' }),
  })
  const { pathname } = new URL(((await created.json()) as { webhookUrl: string }).webhookUrl)
  // An edge as it runs in production, a process of its own (in this test's process the refused
  // connection happened to close after the sender had written all).
  const port = 19633
  const edge = spawnSluice(['serve', '--roles', 'edge'], { ...t.env, SLUICE_PORT: String(port) })
  try {
    await waitFor('the edge ready', async () =>
      (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200 ? true : undefined,
    )
    const body = Buffer.alloc(10_000_000, 0x61)
    const outcomes: string[] = []
    // A 10 MB body against the 1 MiB webhook limit, as a sender without Expect: 100-continue sends it.
    // Each request ends with its socket closed: the answer it read and any error its writes met.
    for (let i = 0; i < 10; i++)
      outcomes.push(
        await new Promise<string>((resolve) => {
          let status = 'no answer'
          const errors: string[] = []
          const req = request({
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: pathname,
            headers: { 'content-type': 'application/json', 'content-length': body.length },
          })
          req.on('response', (res) => {
            status = String(res.statusCode)
            res.resume()
          })
          req.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? 'error'))
          req.on('close', () => resolve([status, ...errors].join(' ')))
          req.end(body)
        }),
      )
    expect(outcomes).toEqual(Array.from({ length: 10 }, () => '413'))
  } finally {
    edge.kill('SIGKILL')
  }
})
