// What Split's own SDKs need besides Sluice to run for real here: a stub of Split's SDK API (flag
// definitions, auth without streaming) serving flags with 50/50 rollouts, so that evaluations
// happen; and a recording proxy in front of Sluice, which tells exactly what the SDK sent and what
// Sluice answered to each call.
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A flag of traffic type `user` whose rule gives `on` to half the keys and `off` to the others. */
export function rolloutFlag(name: string, changeNumber = 1_700_000_000_000) {
  return {
    name,
    trafficTypeName: 'user',
    seed: 1_234_567,
    status: 'ACTIVE',
    killed: false,
    defaultTreatment: 'off',
    changeNumber,
    algo: 2,
    trafficAllocation: 100,
    trafficAllocationSeed: 7_654_321,
    configurations: {},
    sets: [],
    impressionsDisabled: false,
    conditions: [
      {
        conditionType: 'ROLLOUT',
        matcherGroup: {
          combiner: 'AND',
          matchers: [
            {
              keySelector: { trafficType: 'user', attribute: null },
              matcherType: 'ALL_KEYS',
              negate: false,
              whitelistMatcherData: null,
            },
          ],
        },
        partitions: [
          { treatment: 'on', size: 50 },
          { treatment: 'off', size: 50 },
        ],
        label: 'default rule',
      },
    ],
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** Split's SDK API for the SDK's own fetches: these flags, no segments, no streaming. Its base URL ends in /api. */
export async function sdkApiStub(flags: readonly object[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume()
    const path = new URL(req.url ?? '/', 'http://stub').pathname
    res.setHeader('content-type', 'application/json')
    const since = Number(new URL(req.url ?? '/', 'http://stub').searchParams.get('since') ?? -1)
    if (path.endsWith('/splitChanges')) {
      // The first fetch gets the flags; later ones are told nothing changed.
      const till = 1_700_000_000_000
      res.end(JSON.stringify({ ff: { d: since < till ? flags : [], s: since, t: till }, rbs: { d: [], s: -1, t: -1 } }))
    } else if (path.includes('/segmentChanges/'))
      res.end(JSON.stringify({ name: path.split('/').pop(), added: [], removed: [], since, till: since }))
    else if (path.endsWith('/v2/auth')) res.end(JSON.stringify({ pushEnabled: false, token: '' }))
    else res.end('{}')
  })
  const url = `${await listen(server)}/api`
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

export interface RecordedCall {
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: string
  readonly status: number
}

/** A proxy to `target` that records every call and its answer. Its base URL is the proxy's root. */
export async function recordingProxy(
  target: string,
): Promise<{ url: string; calls: RecordedCall[]; close(): Promise<void> }> {
  const calls: RecordedCall[] = []
  const to = new URL(target)
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const forward = httpRequest(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host },
        },
        (answer) => {
          const parts: Buffer[] = []
          answer.on('data', (c: Buffer) => parts.push(c))
          answer.on('end', () => {
            calls.push({
              method: req.method ?? '',
              path: req.url ?? '',
              headers: req.headers,
              body: body.toString('utf8'),
              status: answer.statusCode ?? 0,
            })
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            res.end(Buffer.concat(parts))
          })
        },
      )
      forward.on('error', (err) => {
        calls.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: body.toString('utf8'),
          status: -1,
        })
        res.writeHead(502).end(String(err))
      })
      forward.end(body)
    })
  })
  const url = await listen(server)
  return { url, calls, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
