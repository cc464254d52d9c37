// A TCP proxy on 127.0.0.1 in front of a real service, that a test can hold (what the service answers waits in the
// proxy until released: a service that takes its time) or cut (every connection dropped, new ones refused).
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net'

export interface TcpProxy {
  /** host:port of the proxy. */
  readonly address: string
  readonly port: number
  /** Answers wait in the proxy until release(). */
  hold(): void
  release(): void
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let held = false
  const waiting: (() => void)[] = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host)
    sockets.add(client).add(upstream)
    const drop = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    // What the service sends, and its end, reach the client in order, after any held answer before them.
    const toClient = (send: () => void) => {
      if (held || waiting.length > 0) waiting.push(send)
      else send()
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', () => toClient(drop))
    upstream.on('data', (chunk: Buffer) => toClient(() => client.write(chunk)))
    upstream.on('end', () => toClient(() => client.end()))
    client.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    address: `127.0.0.1:${port}`,
    port,
    hold: () => void (held = true),
    release: () => {
      held = false
      for (const send of waiting.splice(0)) send()
    },
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
