#!/usr/bin/env node
// The bound of the webhook edge on this machine: a bare Fastify route that parses the same JSON
// body and answers 202, nothing else (no key, no Kafka, no log line).
//   node bench/bare-fastify.mjs <port>
import Fastify from 'fastify'

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 })
app.post('/api/v1/webhook/:id', async (request, reply) => reply.code(202).send({ requestId: request.id }))
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2] ?? 18099) })
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)))
