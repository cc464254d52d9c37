// Local HTTP receivers standing in for notification destinations (Slack, PagerDuty, a generic webhook):
// every request recorded with its headers, body and time; each path answers as the test says (a status,
// headers, or a hang).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly at: number
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang'

export interface Receivers {
  readonly url: string
  /** Requests received on a path, in order. */
  on(path: string): Received[]
  /** How the path answers from now on (default 200); a function gets each request. */
  answer(path: string, how: Answer | ((r: Received) => Answer)): void
  close(): Promise<void>
}

export async function startReceivers(): Promise<Receivers> {
  const received = new Map<string, Received[]>()
  const answers = new Map<string, Answer | ((r: Received) => Answer)>()
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!
      const r: Received = { path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() }
      const list = received.get(path) ?? []
      list.push(r)
      received.set(path, list)
      const how = answers.get(path) ?? { status: 200 }
      const a = typeof how === 'function' ? how(r) : how
      if (a === 'hang') return
      const reply = () => res.writeHead(a.status, a.headers ?? {}).end(a.body ?? '')
      if (a.delayMs) setTimeout(reply, a.delayMs)
      else reply()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    on: (path) => received.get(path) ?? [],
    answer: (path, how) => void answers.set(path, how),
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
