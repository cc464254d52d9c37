#!/usr/bin/env node
// npm run bench:kafka-clients: the producer of kafkajs (Sluice's consumers' client) beside
// @platformatic/kafka's (its publisher's), on the local stack's Kafka, for the edge's two
// message shapes: a 1.9 KB webhook payload and an SDK body of 500 events (~75 KB). Both send the
// same messages with acks = all, in the same batches and with as many sends in flight, one client
// after the other, alternating, --runs times; printed: messages per second and this process's CPU
// per message (median and spread). Not part of `npm run bench`.
import { parseArgs } from 'node:util'
import { Producer } from '@platformatic/kafka'
import { Kafka, logLevel } from 'kafkajs'

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '3' } } })
const BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',')
const kafka = new Kafka({ brokers: BROKERS, logLevel: logLevel.NOTHING })

const webhook = Buffer.from(
  JSON.stringify({
    receiver: 'sluice',
    status: 'firing',
    alerts: [0, 1, 2].map((i) => ({
      status: 'firing',
      labels: { alertname: `HighLatency${i}`, severity: 'critical', instance: `web-${i}` },
      annotations: { summary: 'p99 above 500 ms', description: 'd'.repeat(400) },
      startsAt: new Date().toISOString(),
    })),
  }),
)
const events = Buffer.from(
  JSON.stringify(
    Array.from({ length: 500 }, (_, j) => ({
      eventTypeId: 'checkout',
      trafficTypeName: 'user',
      key: `user-${j}`,
      timestamp: Date.now(),
      value: j + 0.99,
      properties: { plan: 'pro', country: 'DE', seats: j % 9 },
    })),
  ),
)
const headers = {
  'sluice-environment': 'e'.repeat(36),
  'sluice-received-at': String(Date.now()),
  'sluice-request-id': 'r'.repeat(36),
}
const SHAPES = [
  {
    name: `webhook payload (${webhook.length} B), batches of 32, 2 in flight`,
    value: webhook,
    batch: 32,
    inFlight: 2,
    total: 40_000,
  },
  {
    name: `SDK body of 500 events (${events.length} B), batches of 2, 4 in flight`,
    value: events,
    batch: 2,
    inFlight: 4,
    total: 2_000,
  },
]

const clients = {
  kafkajs: async (topic) => {
    const p = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false })
    await p.connect()
    return {
      send: (msgs) =>
        p.sendBatch({
          acks: -1,
          topicMessages: [
            { topic, messages: msgs.map((m) => ({ partition: m.partition, key: m.key, value: m.value, headers })) },
          ],
        }),
      close: () => p.disconnect(),
    }
  },
  '@platformatic/kafka': async (topic) => {
    const p = new Producer({ clientId: 'bench', bootstrapBrokers: BROKERS, acks: -1, idempotent: true })
    const h = new Map(Object.entries(headers).map(([k, v]) => [Buffer.from(k), Buffer.from(v)]))
    return {
      send: (msgs) =>
        p.send({
          messages: msgs.map((m) => ({ topic, partition: m.partition, key: m.key, value: m.value, headers: h })),
        }),
      close: () => p.close(),
    }
  },
}

async function measure(client, shape) {
  const topic = `bench-clients-${Date.now()}-${Math.random().toString(16).slice(2, 8)}`
  const admin = kafka.admin()
  await admin.connect()
  await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true })
  const c = await clients[client](topic)
  const msgs = Array.from({ length: shape.batch }, (_, i) => ({
    partition: i % 3,
    key: Buffer.from(`k${i}`),
    value: shape.value,
  }))
  try {
    await c.send(msgs) // connections and producer id
    let sent = 0
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: shape.inFlight }, async () => {
        while (sent < shape.total) {
          sent += shape.batch
          await c.send(msgs)
        }
      }),
    )
    const cpu = process.cpuUsage(cpu0)
    return { perSecond: sent / ((performance.now() - t0) / 1000), cpuUsPerMessage: (cpu.user + cpu.system) / sent }
  } finally {
    await c.close()
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined)
    await admin.disconnect()
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmt = (xs, d = 0) => `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`
console.log('| messages | client | messages/s | CPU µs per message |\n|---|---|---|---|')
for (const shape of SHAPES) {
  const runs = { kafkajs: [], '@platformatic/kafka': [] }
  for (let r = 0; r < Number(opts.runs); r++)
    for (const client of Object.keys(clients)) runs[client].push(await measure(client, shape))
  for (const [client, rs] of Object.entries(runs))
    console.log(
      `| ${shape.name} | ${client} | ${fmt(rs.map((x) => x.perSecond))} | ${fmt(
        rs.map((x) => x.cpuUsPerMessage),
        1,
      )} |`,
    )
}
