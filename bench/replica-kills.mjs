#!/usr/bin/env node
// Exactly once on the ClickHouse cluster, under replicas killed with kill -9 at chosen points of an
// insert: the real events consumer (ClickHouseConsumer, its table sink, quorum inserts through the
// Distributed table) stores batches of 3 requests x 100 events into a database of its own on the
// cluster stack (`npx sluice stack up --cluster`; `npm run build` first), while one ClickHouse
// server of the cluster is killed:
//   before   a replica of the batch's shard, just before the consumer's insert is sent;
//   quorum   during the quorum wait: the other replica of the shard is paused (SIGSTOP), so the one
//            that takes the insert writes its part and waits for its peer to fetch it; it is killed
//            then (its ZooKeeper quorum status seen), and the paused one resumed;
//   after    a replica of the shard once the insert is acknowledged, before the offsets would be
//            committed: the consumer is then replaced (a fresh one, knowing nothing) and handles the
//            same batch again, as after a crash or a rebalance;
//   random   any server (the one the sink talks to included), 0-150 ms after the insert is sent.
// The killed server is started again 2-8 s later. Every trial ends with a redelivery of its batch
// to a fresh consumer, and then each replica of each shard is read: every position must be stored
// exactly once. Reports duplicates and losses per kill point; exits 1 if there is any.
//
//   [TRIALS=30] [DIST=<another build's dist>] node bench/replica-kills.mjs
// Not run in CI: 30 trials take about 10 minutes and kill servers of the cluster stack.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createClient } from '@clickhouse/client'

// The stack is this checkout's; the consumer and its sink are DIST's (another build, to compare).
const OWN = new URL('../dist', import.meta.url).href
const D = process.env.DIST ?? OWN
const { loadConfig } = await import(`${OWN}/config/index.js`)
const { clusterEnv, clusterNodes, startClusterNode } = await import(`${OWN}/tools/stack/cluster.js`)
const { migrate, clusterShape, localTable, zooKeeperPath } = await import(`${D}/sinks/clickhouse/migrations.js`)
const { ClickHouseTableSink } = await import(`${D}/sinks/clickhouse/table.sink.js`)
const { ClickHouseConsumer } = await import(`${D}/consumers/clickhouse.consumer.js`)
const { EVENTS_CODEC } = await import(`${D}/consumers/events.consumer.js`)
const { encodeEventMessages } = await import(`${D}/broker/messages/events.js`)
const { createLogger } = await import(`${D}/shared/logger.js`)
const { createMetrics } = await import(`${D}/shared/metrics.js`)

const TRIALS = Number(process.env.TRIALS ?? 30)
const POINTS = ['before', 'quorum', 'after', 'random']
const REQUESTS_PER_BATCH = 3
const EVENTS_PER_REQUEST = 100
const PARTITIONS = 4

const stack = loadConfig({})
const config = loadConfig({
  ...clusterEnv(stack),
  CLICKHOUSE_DATABASE: `replica_kills_${randomBytes(4).toString('hex')}`,
})
const servers = clusterNodes(stack).filter((n) => n.kind === 'clickhouse')
const log = createLogger(process.env.LOG_LEVEL ?? 'silent')
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const { database, cluster } = config.clickhouse

const client = createClient({
  url: config.clickhouse.url,
  request_timeout: config.clickhouse.requestTimeoutMs,
  log: { level: 127 },
})
/** The insert hook: the trial's kill point arms it, the sink's next insert of event rows fires it. */
let onInsert
const insert = client.insert.bind(client)
client.insert = (params) => {
  const hook = params.table.endsWith('.events') ? onInsert : undefined
  if (hook) onInsert = undefined
  return hook ? hook(() => insert(params)) : insert(params)
}

await migrate(client, { database, cluster }, log)
const shape = await clusterShape(client, cluster)
// This build's sink or an earlier one's (DIST): the constructor took (client, database, cluster) before the
// capabilities.
const capabilities = await import(`${D}/sinks/clickhouse/capabilities.js`)
  .then((m) => m.probeCapabilities(client))
  .catch(() => undefined)
const newSink = () =>
  capabilities
    ? new ClickHouseTableSink(client, { database, capabilities, cluster: shape })
    : new ClickHouseTableSink(client, database, { ...shape, quorumParallel: false })
const metrics = createMetrics()
const errors = new Map()
const quiet = () => undefined
const consumerLog = {
  child: () => consumerLog,
  trace: quiet,
  debug: quiet,
  info: quiet,
  warn: (o, msg) => {
    const text = String(o?.err?.message ?? msg)
      .replace(/\d+\.\d+\.\d+\.\d+(:\d+)?/g, '<host>')
      .slice(0, 200)
    errors.set(text, (errors.get(text) ?? 0) + 1)
  },
  error: (o, msg) => consumerLog.warn(o, msg),
  fatal: (o, msg) => consumerLog.warn(o, msg),
}
const newConsumer = () => new ClickHouseConsumer(EVENTS_CODEC, newSink(), metrics, consumerLog)

function batchOf(trial, partition) {
  const topic = `trial-${trial}`
  const messages = []
  for (let r = 0; r < REQUESTS_PER_BATCH; r++) {
    const records = Array.from({ length: EVENTS_PER_REQUEST }, (_, i) => ({
      eventTypeId: 'kill',
      trafficTypeName: 'user',
      key: `k${r}-${i}`,
      timestamp: 1_764_000_000_000 + i,
      value: i,
    }))
    const meta = {
      environmentId: 'env',
      accountId: 'acc',
      receivedAtMs: Date.now(),
      sdkVersion: 'stress',
      requestId: `${topic}-${r}`,
    }
    // This build's encoder takes (records, meta, sizing); builds before it (records, bodyBytes, meta, maxBytes).
    const [message] =
      encodeEventMessages.length >= 4
        ? encodeEventMessages(records, 0, meta, 1 << 20)
        : encodeEventMessages(records, meta, { bodyBytes: 0, maxBytes: 1 << 20 })
    messages.push({ offset: BigInt(r), value: message.value, headers: message.headers })
  }
  return { topic, partition, messages, highWatermark: BigInt(messages.length) }
}

const pidOf = (node) => Number(readFileSync(node.pidFile, 'utf8').trim())
const signal = (node, sig) => process.kill(pidOf(node), sig)
/**
 * A consumer handles the batch. Its handler throwing is fatal in a real process (it exits, and a
 * new one gets the batch again): counted, and the batch is then handled by a fresh consumer.
 */
async function handled(consumer, batch) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await consumer.handle(batch, { signal: AbortSignal.timeout(300_000) })
    } catch (err) {
      if (attempt >= 5) throw err
      fatal.push(String(err.message).slice(0, 200))
      consumer = newConsumer()
    }
  }
}
const fatal = []
/** Kills made while a quorum insert was pending (the quorum point's aim). */
let quorumWaits = 0
/** The shard a partition's rows go to (Distributed by source_partition over two shards of weight 1). */
const shardOf = (partition) => ['01', '02'][partition % 2]
const replicasOf = (shard) => servers.filter((n) => n.shard === shard)

/**
 * The replicas (their {replica} names) that have the part of a pending quorum insert into the shard's events, or
 * undefined.
 */
async function quorumHolders(shard) {
  const path = `${zooKeeperPath(database, 'events', shard)}/quorum`
  const [row] = await (
    await client.query({
      query: `SELECT value FROM system.zookeeper WHERE path = '${path}' AND name = 'status'`,
      format: 'JSONEachRow',
    })
  ).json()
  // ReplicatedMergeTreeQuorumEntry: "version: 1\npart_name: ...\nrequired_number_of_replicas:
  // 2\nactual_number_of_replicas: 1\nreplicas:\n02-2\n"
  return row ? row.value.split('replicas:\n')[1]?.split('\n').filter(Boolean) : undefined
}

/** Runs a statement on one server of the cluster. */
async function on(node, query) {
  const c = createClient({ url: `http://127.0.0.1:${node.port}` })
  try {
    await c.command({ query })
  } finally {
    await c.close()
  }
}

async function trial(n, point) {
  // The quorum wait is made on shard 02, whose servers are not the one the sink talks to (clickhouse-01-1).
  const partition =
    point === 'quorum' ? 1 + 2 * Math.floor(Math.random() * (PARTITIONS / 2)) : Math.floor(Math.random() * PARTITIONS)
  const shard = replicasOf(shardOf(partition))
  const batch = batchOf(n, partition)
  let victim = point === 'random' ? servers[n % servers.length] : shard[n % 2]
  let restart
  const restarted = (async () => {
    await new Promise((resolve) => (restart = resolve))
    await sleep(2000 + Math.random() * 6000)
    await startClusterNode(stack, victim.name)
  })()
  const kill = () => (signal(victim, 'SIGKILL'), restart())
  if (point === 'before') {
    kill()
    await handled(newConsumer(), batch)
  } else if (point === 'quorum') {
    // Neither replica of the shard fetches: the one that takes the insert writes its part and waits
    // for its peer (the quorum). It is killed then, once ZooKeeper's quorum status names it, and
    // the peer fetches again.
    onInsert = async (send) => {
      for (const node of shard) await on(node, `SYSTEM STOP FETCHES ${database}.${localTable('events')}`)
      const sent = send()
      void (async () => {
        const until = Date.now() + 10_000
        let holders
        while (!(holders = await quorumHolders(shardOf(partition)).catch(() => undefined)) && Date.now() < until)
          await sleep(10)
        victim = shard.find((node) => holders?.includes(node.replica)) ?? victim
        quorumWaits += holders ? 1 : 0
        kill()
        for (const node of shard)
          if (node !== victim) await on(node, `SYSTEM START FETCHES ${database}.${localTable('events')}`)
      })()
      return sent
    }
    await handled(newConsumer(), batch)
  } else if (point === 'random') {
    onInsert = (send) => {
      const sent = send()
      // Anywhere from the request's first bytes to its answer (a 300-row insert takes 10-200 ms here).
      setTimeout(kill, Math.random() * 150)
      return sent
    }
    await handled(newConsumer(), batch)
    if (onInsert) {
      onInsert = undefined
      kill()
    }
  } else {
    onInsert = async (send) => {
      const answer = await send()
      kill()
      return answer
    }
    await handled(newConsumer(), batch)
  }
  // Offsets are never committed here: a fresh consumer gets the same batch, as after a crash.
  await handled(newConsumer(), batch)
  await restarted
  return { victim: victim.name, partition, ...(await stored(batch)) }
}

/** Rows per position of the trial's batch on every replica of every shard, once the replicas agree. */
async function stored(batch) {
  const expected = REQUESTS_PER_BATCH * EVENTS_PER_REQUEST
  for (const attempt of [1, 2, 3, 4, 5]) {
    const perReplica = []
    for (const node of servers) {
      const c = createClient({ url: `http://127.0.0.1:${node.port}` })
      try {
        await c.command({ query: `SYSTEM SYNC REPLICA ${database}.${localTable('events')}` })
        const [row] = await (
          await c.query({
            query: `SELECT count() AS rows, uniqExact(source_offset, source_index) AS positions FROM ${database}.${localTable('events')} WHERE source_topic = '${batch.topic}'`,
            format: 'JSONEachRow',
          })
        ).json()
        perReplica.push({ shard: node.shard, rows: Number(row.rows), positions: Number(row.positions) })
      } finally {
        await c.close()
      }
    }
    const shards = new Map()
    for (const r of perReplica) shards.set(r.shard, [...(shards.get(r.shard) ?? []), r])
    const agree = [...shards.values()].every((rs) =>
      rs.every((r) => r.rows === rs[0].rows && r.positions === rs[0].positions),
    )
    if (agree || attempt === 5) {
      const rows = [...shards.values()].reduce((n, rs) => n + rs[0].rows, 0)
      const positions = [...shards.values()].reduce((n, rs) => n + rs[0].positions, 0)
      return { duplicates: rows - positions, losses: expected - positions, replicasAgree: agree }
    }
    await sleep(2000)
  }
}

/** The consumers' failed sink calls by kind (retriable, data, refused) so far. */
async function sinkErrors() {
  const counts = { retriable: 0, data: 0, refused: 0 }
  for (const { labels, value } of (await metrics.sinkErrors.get()).values)
    counts[labels.kind] = (counts[labels.kind] ?? 0) + value
  return counts
}

const results = []
try {
  for (let n = 0; n < TRIALS; n++) {
    const point = POINTS[n % POINTS.length]
    const started = Date.now()
    const before = await sinkErrors()
    const r = await trial(n, point)
    const after = await sinkErrors()
    results.push({ point, ...r, fatal: fatal.splice(0), dataRefusals: after.data - before.data })
    const crashes = results.at(-1).fatal
    console.log(
      `trial ${n + 1}/${TRIALS}: ${point.padEnd(6)} ${r.victim} partition ${r.partition}: ${r.duplicates} duplicates, ${r.losses} losses${r.replicasAgree ? '' : ' (replicas disagree)'} (${Date.now() - started} ms)${results.at(-1).dataRefusals ? `; ${results.at(-1).dataRefusals} inserts refused as data (split in halves)` : ''}${crashes.length ? `; the consumer failed (a process would exit): ${crashes.join(' | ')}` : ''}`,
    )
  }
} finally {
  await client.command({ query: `DROP DATABASE IF EXISTS ${database} ON CLUSTER ${cluster}` }).catch(() => undefined)
  await client.close()
}
console.log(
  '\n| kill point | kills | duplicates | losses | inserts refused as data | consumer failures |\n|---|---|---|---|---|---|',
)
for (const point of POINTS) {
  const mine = results.filter((r) => r.point === point)
  const sum = (f) => mine.reduce((n, r) => n + f(r), 0)
  console.log(
    `| ${point} | ${mine.length} | ${sum((r) => r.duplicates)} | ${sum((r) => r.losses)} | ${sum((r) => r.dataRefusals)} | ${sum((r) => r.fatal.length)} |`,
  )
}
console.log(
  `\nquorum point: ${quorumWaits} of ${results.filter((r) => r.point === 'quorum').length} kills while the insert waited for its quorum`,
)
console.log('\nfailures the consumer met (warnings and errors it logged):')
for (const [text, count] of [...errors].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${count} x ${text}`)
process.exit(results.some((r) => r.duplicates > 0 || r.losses > 0) ? 1 : 0)
