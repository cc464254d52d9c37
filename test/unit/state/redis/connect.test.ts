// A Redis Cluster whose first ready check fails (CLUSTER INFO says the cluster is not ok yet, as a node can just
// after a failover) must not leave a starting process waiting forever: ioredis's Cluster.connect() never settles then
// (the client reconnects and becomes ready on its own), which once held an edge's start past two minutes in CI. The
// server here is a one-node cluster speaking just enough RESP on 127.0.0.1.
import { createServer, type Server, type Socket } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { connectClient, createRedisClient, type RedisClient } from '../../../../src/state/redis/client.js'

const bulk = (s: string) => `$${Buffer.byteLength(s)}\r\n${s}\r\n`

/** Reads RESP commands (arrays of bulk strings) off a socket, one callback per command. */
function commands(socket: Socket, onCommand: (args: string[]) => void): void {
  let buffer = ''
  socket.on('data', (chunk) => {
    buffer += chunk.toString('latin1')
    for (;;) {
      const m = /^\*(\d+)\r\n/.exec(buffer)
      if (!m) return
      let at = m[0].length
      const args: string[] = []
      for (let i = 0; i < Number(m[1]); i++) {
        const len = /^\$(\d+)\r\n/.exec(buffer.slice(at))
        if (!len || buffer.length < at + len[0].length + Number(len[1]) + 2) return
        at += len[0].length
        args.push(buffer.slice(at, at + Number(len[1])))
        at += Number(len[1]) + 2
      }
      buffer = buffer.slice(at)
      onCommand(args)
    }
  })
}

let server: Server | undefined
let client: RedisClient | undefined
afterEach(async () => {
  client?.disconnect()
  if (server?.listening) await new Promise((r) => server!.close(r))
})

it('resolves once a cluster whose first ready check failed is ready', async () => {
  let clusterInfos = 0
  server = createServer((socket) =>
    commands(socket, (args) => {
      const command = args.map((a) => a.toUpperCase()).join(' ')
      const { port } = server!.address() as { port: number }
      if (command === 'CLUSTER SLOTS')
        socket.write(`*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n${bulk('127.0.0.1')}:${port}\r\n`)
      else if (command === 'CLUSTER INFO')
        socket.write(bulk(clusterInfos++ === 0 ? 'cluster_state:fail\r\n' : 'cluster_state:ok\r\n'))
      else if (command === 'INFO') socket.write(bulk('# Server\r\nloading:0\r\n'))
      else if (command === 'PING') socket.write('+PONG\r\n')
      else socket.write(`-ERR unknown command ${args[0]}\r\n`)
    }),
  )
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  const { port } = server.address() as { port: number }
  client = createRedisClient({ url: 'redis://127.0.0.1', clusterNodes: [`127.0.0.1:${port}`], keyPrefix: 'p:' })
  await connectClient(client)
  expect(client.status).toBe('ready')
  expect(clusterInfos).toBeGreaterThanOrEqual(2)
  expect(await client.ping()).toBe('PONG')
}, 20_000)

it('rejects when no node can be reached', async () => {
  server = createServer()
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  const { port } = server.address() as { port: number }
  await new Promise((r) => server!.close(r))
  server = undefined
  client = createRedisClient({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'p:' })
  await expect(connectClient(client)).rejects.toThrow()
})
