// `sluice stack up | down | status --cluster`: a local *cluster* stack for replication and failover
// tests, beside the single-node stack and on other ports: one ZooKeeper, ClickHouse as 2 shards x 2
// replicas (cluster `sluice`, replicated through the ZooKeeper), a Redis Cluster of 6 nodes (3 masters,
// 3 replicas) and 3 Kafka brokers in KRaft combined mode. All on 127.0.0.1, each node's config, data,
// pid file and logs under <dataDir>/cluster/<node>/. `up` installs what is missing, reuses the nodes
// that answer, and returns once each cluster is whole. Tests inject faults through the exported API:
// `clusterNodes` (ports, pid files), then `startClusterNode` to bring a killed node back.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../../src/config/index.js'
import { generatePasswords, setUserCommands, type AclPasswords } from '../../src/state/redis/acl.js'
import {
  DEPLOY,
  START_TIMEOUT_MS,
  StackError,
  alive,
  askTcp,
  clickhouseAnswers,
  ensureBinary,
  ensureKafkaLibs,
  formatKafkaStorage,
  formattedKafkaClusterId,
  kafkaBrokerCount,
  kafkaFormatted,
  kafkaJava,
  newKafkaClusterId,
  readPid,
  redisAnswers,
  renderTemplate,
  sleep,
  startClickHouseServer,
  startDetached,
  startRedisServer,
  stopProcess,
  type Say,
  type StackStatus,
} from './index.js'

export const CLUSTER_NAME = 'sluice'
const HOST = '127.0.0.1'
const TEMPLATES = join(DEPLOY, 'cluster')
const ZOOKEEPER_PORT = 2181
const ZOOKEEPER_JAR = '/usr/share/java/zookeeper.jar'
/**
 * Debian's zookeeper.jar names slf4j but no binding: log4j 1.2 through slf4j-log4j12 (both pulled in by the package).
 */
const ZOOKEEPER_CLASSPATH = [ZOOKEEPER_JAR, '/usr/share/java/slf4j-log4j12.jar', '/usr/share/java/log4j-1.2.jar'].join(
  ':',
)
const CLICKHOUSE_SHARDS = ['01', '02'] as const
const CLICKHOUSE_REPLICAS = 2
const REDIS_PORTS = [7001, 7002, 7003, 7004, 7005, 7006] as const
const REDIS_REPLICAS_PER_MASTER = 1
const KAFKA_NODE_IDS = [1, 2, 3] as const
/** Each Redis node may hold this much; with noeviction a full node refuses writes instead of dropping keys. */
const REDIS_MAXMEMORY = '256mb'
const POLL_MS = 500

export type ClusterNodeKind = 'zookeeper' | 'clickhouse' | 'redis' | 'kafka'

interface NodeBase {
  /** zookeeper, clickhouse-01-1 .. clickhouse-02-2, redis-7001 .. redis-7006, kafka-1 .. kafka-3 */
  readonly name: string
  /** The port clients use: ZooKeeper client port, ClickHouse HTTP, Redis, Kafka PLAINTEXT. */
  readonly port: number
  /** Config, data and logs (<dir>/log) of the node. */
  readonly dir: string
  readonly pidFile: string
}

export type ZooKeeperNode = NodeBase & { readonly kind: 'zookeeper' }
export type ClickHouseNode = NodeBase & {
  readonly kind: 'clickhouse'
  readonly shard: string
  /** Unique in the cluster ({replica} macro), e.g. 01-2 for the second replica of shard 01. */
  readonly replica: string
  readonly tcpPort: number
  readonly interserverPort: number
}
export type RedisNode = NodeBase & { readonly kind: 'redis' }
export type KafkaNode = NodeBase & { readonly kind: 'kafka'; readonly nodeId: number; readonly controllerPort: number }
export type ClusterNode = ZooKeeperNode | ClickHouseNode | RedisNode | KafkaNode

/** Every node of the cluster stack, in start order. */
export function clusterNodes(config: Config): ClusterNode[] {
  const base = (name: string, port: number): NodeBase => {
    const dir = join(config.dataDir, 'cluster', name)
    return { name, port, dir, pidFile: join(dir, 'pid') }
  }
  const clickhouse = CLICKHOUSE_SHARDS.flatMap((shard, s) =>
    Array.from({ length: CLICKHOUSE_REPLICAS }, (_, r): ClickHouseNode => {
      const i = s * CLICKHOUSE_REPLICAS + r + 1
      const replica = `${shard}-${r + 1}`
      return {
        ...base(`clickhouse-${replica}`, 8200 + i),
        kind: 'clickhouse',
        shard,
        replica,
        tcpPort: 9200 + i,
        interserverPort: 9300 + i,
      }
    }),
  )
  return [
    { ...base('zookeeper', ZOOKEEPER_PORT), kind: 'zookeeper' },
    ...clickhouse,
    ...REDIS_PORTS.map((port): RedisNode => ({ ...base(`redis-${port}`, port), kind: 'redis' })),
    ...KAFKA_NODE_IDS.map((nodeId): KafkaNode => ({
      ...base(`kafka-${nodeId}`, 9190 + 2 * nodeId),
      kind: 'kafka',
      nodeId,
      controllerPort: 9191 + 2 * nodeId,
    })),
  ]
}

/** The settings that point Sluice at the cluster stack. */
export function clusterEnv(config: Config): Record<string, string> {
  const nodes = clusterNodes(config)
  const addresses = (kind: ClusterNodeKind) => ofKind(nodes, kind).map(address)
  return {
    KAFKA_BROKERS: addresses('kafka').join(','),
    CLICKHOUSE_URL: `http://${address(ofKind(nodes, 'clickhouse')[0]!)}`,
    CLICKHOUSE_CLUSTER: CLUSTER_NAME,
    REDIS_CLUSTER_NODES: addresses('redis').join(','),
  }
}

/**
 * Starts the nodes that do not answer; the names of those it started. `owner`: the process the cluster is started for
 * (a test run): a cluster whose owner is gone (a run that died) is stopped and started again.
 */
export async function clusterUp(config: Config, say: Say, owner?: number): Promise<string[]> {
  const nodes = clusterNodes(config)
  const ownerFile = join(config.dataDir, 'cluster', 'owner')
  const left = readPid(ownerFile)
  if (left !== undefined && left !== owner && !alive(left)) {
    say(`the cluster stack was started by a run that is gone (pid ${left}): starting it again`)
    await clusterDown(config, say)
  }
  const deadline = Date.now() + START_TIMEOUT_MS
  await installAll(say)
  const started: string[] = []
  const ensure = async (node: ClusterNode) => {
    if (await ensureRunning(node, nodes, config, say)) started.push(node.name)
  }
  // The ClickHouse servers need ZooKeeper for their replicated tables and DDL queue; Redis and Kafka
  // start while it comes up. Each start is a quick spawn: the JVMs warm up side by side meanwhile.
  for (const node of nodes.filter((n) => n.kind !== 'clickhouse')) await ensure(node)
  await Promise.all(ofKind(nodes, 'zookeeper').map((node) => waitUntil(node, 'answer', deadline)))
  for (const node of ofKind(nodes, 'clickhouse')) await ensure(node)
  await Promise.all(nodes.map((node) => waitUntil(node, 'answer', deadline)))
  await formRedisCluster(ofKind(nodes, 'redis'), say)
  await Promise.all(nodes.map((node) => waitUntil(node, 'join', deadline)))
  say(
    `cluster stack is up (ClickHouse cluster '${CLUSTER_NAME}', Redis Cluster, ${KAFKA_NODE_IDS.length} Kafka brokers); data in ${join(config.dataDir, 'cluster')}`,
  )
  say(
    Object.entries(clusterEnv(config))
      .map(([key, value]) => `${key}=${value}`)
      .join(' '),
  )
  if (owner !== undefined && started.length > 0) writeFileSync(ownerFile, String(owner))
  return started
}

/** Stops the cluster's nodes (`only`: those named), and forgets who started it. */
export async function clusterDown(config: Config, say: Say, only?: readonly string[]): Promise<void> {
  const nodes = clusterNodes(config).filter((n) => !only || only.includes(n.name))
  const stop = (node: ClusterNode) => stopProcess(node.name, node.pidFile, say)
  // ZooKeeper last: a ClickHouse server that loses it while shutting down waits for it.
  await Promise.all(nodes.filter((n) => n.kind !== 'zookeeper').map(stop))
  await Promise.all(ofKind(nodes, 'zookeeper').map(stop))
  rmSync(join(config.dataDir, 'cluster', 'owner'), { force: true })
}

/** The pids of the named nodes' processes (a signal handler stops them at once). */
export function clusterPids(config: Config, only: readonly string[]): number[] {
  return clusterNodes(config).flatMap((n) => {
    const pid = only.includes(n.name) ? readPid(n.pidFile) : undefined
    return pid !== undefined && alive(pid) ? [pid] : []
  })
}

export async function clusterStatus(config: Config): Promise<StackStatus[]> {
  return Promise.all(
    clusterNodes(config).map(async (node) => {
      const pid = readPid(node.pidFile)
      return {
        name: node.name,
        address: address(node),
        up: await answers(node),
        ...(pid !== undefined && alive(pid) ? { pid } : {}),
      }
    }),
  )
}

/** Starts one node of the cluster stack again (after a test killed it) and waits until it has rejoined its cluster. */
export async function startClusterNode(config: Config, name: string, say: Say = () => undefined): Promise<void> {
  const nodes = clusterNodes(config)
  const node = nodeNamed(nodes, name)
  const deadline = Date.now() + START_TIMEOUT_MS
  await ensureRunning(node, nodes, config, say)
  await waitUntil(node, 'answer', deadline)
  await waitUntil(node, 'join', deadline)
  if (node.kind !== 'zookeeper') return
  // The ClickHouse servers that kept running get their session, and their tables writable, again.
  for (const server of ofKind(nodes, 'clickhouse')) if (await answers(server)) await waitUntil(server, 'join', deadline)
}

/** Stops one node of the cluster stack (SIGTERM, then SIGKILL after a deadline). */
export async function stopClusterNode(config: Config, name: string, say: Say = () => undefined): Promise<void> {
  const node = nodeNamed(clusterNodes(config), name)
  await stopProcess(node.name, node.pidFile, say)
}

// --- nodes ---------------------------------------------------------------------------------------

/** Installs the packages and fetches the jars before anything starts (apt runs one at a time). */
async function installAll(say: Say): Promise<void> {
  await ensureBinary(ZOOKEEPER_JAR, ['zookeeper'], say)
  await ensureBinary('clickhouse-server', ['clickhouse-server', 'clickhouse-client'], say)
  await ensureBinary('redis-server', ['redis-server'], say)
  await ensureBinary('redis-cli', ['redis-tools'], say)
  ensureKafkaLibs(say)
}

/** Starts the node unless it answers, or its process is still there (starting, or paused by a test). */
/** Starts the node unless it answers or its process is there; whether it started it. */
async function ensureRunning(
  node: ClusterNode,
  nodes: readonly ClusterNode[],
  config: Config,
  say: Say,
): Promise<boolean> {
  if (await answers(node)) {
    say(`${node.name}: already answering on ${address(node)}`)
    return false
  }
  const pid = readPid(node.pidFile)
  if (pid !== undefined && alive(pid)) {
    say(`${node.name}: process ${pid} is there but does not answer yet; waiting for it`)
    return false
  }
  mkdirSync(join(node.dir, 'log'), { recursive: true })
  // A daemonized Redis writes its pid file a moment after it forks: no stale pid meanwhile.
  rmSync(node.pidFile, { force: true })
  switch (node.kind) {
    case 'zookeeper':
      await startZooKeeper(node, say)
      break
    case 'clickhouse':
      await startClickHouseNode(node, nodes, say)
      break
    case 'redis':
      await startRedisNode(node, config, say)
      break
    case 'kafka':
      await startKafkaNode(node, nodes, say)
      break
  }
  return true
}

/** The node serves clients. */
async function answers(node: ClusterNode): Promise<boolean> {
  switch (node.kind) {
    case 'zookeeper':
      // NOTE: `ruok` says imok before the server takes sessions; ClickHouse 18.16 started in that
      // window exits (it cannot attach its replicated tables). `srvr` names the mode once it serves.
      return (await askTcp(HOST, node.port, 'srvr', (data) => /Mode: \w+\n/.test(data)))?.includes('Mode: ') ?? false
    case 'clickhouse':
      return clickhouseAnswers(`http://${address(node)}`)
    case 'redis':
      return redisAnswers(HOST, node.port)
    case 'kafka':
      return (await kafkaBrokerCount([address(node)])) !== undefined
  }
}

/**
 * The node is part of a whole cluster: all of cluster `sluice` and writable replicas, cluster_state:ok, every broker.
 */
async function joined(node: ClusterNode): Promise<boolean> {
  switch (node.kind) {
    case 'zookeeper':
      return answers(node)
    case 'clickhouse': {
      // Fails while the server has no ZooKeeper session (system.zookeeper); a table stays read-only a
      // few seconds after the session is back.
      const answer = await clickhouseQuery(
        node,
        `SELECT (SELECT count() FROM system.clusters WHERE cluster = '${CLUSTER_NAME}'), (SELECT count() FROM system.replicas WHERE is_readonly), (SELECT count() FROM system.zookeeper WHERE path = '/')`,
      )
      const [replicas, readOnly] = answer?.split('\t') ?? []
      return replicas === String(CLICKHOUSE_SHARDS.length * CLICKHOUSE_REPLICAS) && readOnly === '0'
    }
    case 'redis':
      return (await redisClusterInfo(node))?.get('cluster_state') === 'ok'
    case 'kafka':
      return (await kafkaBrokerCount([address(node)])) === KAFKA_NODE_IDS.length
  }
}

async function waitUntil(node: ClusterNode, state: 'answer' | 'join', deadline: number): Promise<void> {
  const check = state === 'answer' ? answers : joined
  while (!(await check(node))) {
    const pid = readPid(node.pidFile)
    if (pid !== undefined && !alive(pid))
      throw new StackError(`${node.name} exited (pid ${pid}); see ${join(node.dir, 'log')}`)
    if (Date.now() > deadline) {
      const what = state === 'answer' ? `did not answer on ${address(node)}` : 'did not join its cluster'
      throw new StackError(`${node.name} ${what} within ${START_TIMEOUT_MS / 1000} s; see ${join(node.dir, 'log')}`)
    }
    await sleep(POLL_MS)
  }
}

// --- ZooKeeper -----------------------------------------------------------------------------------

async function startZooKeeper(node: ZooKeeperNode, say: Say): Promise<void> {
  await ensureBinary(ZOOKEEPER_JAR, ['zookeeper'], say)
  mkdirSync(join(node.dir, 'data'), { recursive: true })
  writeFileSync(
    join(node.dir, 'zoo.cfg'),
    renderTemplate(join(TEMPLATES, 'zookeeper.cfg'), { DATA: node.dir, PORT: node.port }),
  )
  say(`${node.name}: starting on ${address(node)}`)
  const logging = [
    `-Dlog4j.configuration=file:${join(TEMPLATES, 'zookeeper-log4j.properties')}`,
    `-Dzookeeper.log.dir=${join(node.dir, 'log')}`,
  ]
  startDetached(
    'java',
    [
      '-Xmx256m',
      ...logging,
      '-cp',
      ZOOKEEPER_CLASSPATH,
      'org.apache.zookeeper.server.quorum.QuorumPeerMain',
      join(node.dir, 'zoo.cfg'),
    ],
    node.dir,
  )
}

// --- ClickHouse ----------------------------------------------------------------------------------

async function startClickHouseNode(node: ClickHouseNode, nodes: readonly ClusterNode[], say: Say): Promise<void> {
  const zookeeper = ofKind(nodes, 'zookeeper')[0]!
  // NOTE: ClickHouse 18.16 exits at start when it cannot reach ZooKeeper for a replicated table it has.
  if (!(await answers(zookeeper)))
    throw new StackError(
      `${node.name} needs ZooKeeper at ${address(zookeeper)}, which does not answer: start ${zookeeper.name} first`,
    )
  const config = renderTemplate(join(TEMPLATES, 'clickhouse.xml'), {
    CLUSTER: CLUSTER_NAME,
    DATA: node.dir,
    HTTP_PORT: node.port,
    TCP_PORT: node.tcpPort,
    INTERSERVER_PORT: node.interserverPort,
    ZOOKEEPER_PORT: zookeeper.port,
    SHARD: node.shard,
    REPLICA: node.replica,
    SHARDS: remoteShards(ofKind(nodes, 'clickhouse')),
  })
  return startClickHouseServer(`${node.name} (shard ${node.shard})`, node.dir, node.port, config, say)
}

/**
 * The <shard> elements of <remote_servers>. Every replica is 127.0.0.1: a server takes the entry
 * with its own TCP port for itself (prefers it for reads, runs its ON CLUSTER DDL).
 */
function remoteShards(nodes: readonly ClickHouseNode[]): string {
  const indent = ' '.repeat(12)
  return CLICKHOUSE_SHARDS.map((shard) => {
    const replicas = nodes
      .filter((n) => n.shard === shard)
      .map((n) => `${indent}    <replica><host>${HOST}</host><port>${n.tcpPort}</port></replica>`)
    return [
      `${indent}<shard>`,
      `${indent}    <internal_replication>true</internal_replication>`,
      ...replicas,
      `${indent}</shard>`,
    ].join('\n')
  }).join('\n')
}

/** The answer of a query over HTTP, trimmed; undefined when the server does not answer or refuses. */
async function clickhouseQuery(node: ClickHouseNode, sql: string): Promise<string | undefined> {
  try {
    const res = await fetch(`http://${address(node)}/`, {
      method: 'POST',
      body: sql,
      signal: AbortSignal.timeout(2000),
    })
    const text = await res.text()
    return res.ok ? text.trim() : undefined
  } catch {
    return undefined
  }
}

// --- Redis Cluster -------------------------------------------------------------------------------

function startRedisNode(node: RedisNode, config: Config, say: Say): Promise<void> {
  const cluster = [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    join(node.dir, 'nodes.conf'),
    '--cluster-node-timeout',
    '2000',
  ]
  return startRedisServer(
    node.name,
    node.dir,
    node.port,
    [...cluster, '--maxmemory', REDIS_MAXMEMORY, '--aclfile', writeRedisUsers(node, config)],
    say,
  )
}

/**
 * The users of every node (ACLs are not shared by a Redis Cluster): the service and alert-reader
 * users with the cluster's rules and the passwords of <data>/cluster/redis-users.json (made once),
 * in an ACL file each node reads at every start; the default user stays open, as on the local stack.
 */
function writeRedisUsers(node: RedisNode, config: Config): string {
  const file = join(config.dataDir, 'cluster', 'redis-users.json')
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(generatePasswords(), null, 2), { mode: 0o600 })
  const passwords = JSON.parse(readFileSync(file, 'utf8')) as AclPasswords
  const acl = join(node.dir, 'users.acl')
  const lines = [
    'user default on nopass ~* &* +@all',
    ...setUserCommands(config.redis.keyPrefix, passwords, true).map(
      ([user, , ...rules]) => `user ${user} ${rules.join(' ')}`,
    ),
  ]
  writeFileSync(acl, `${lines.join('\n')}\n`, { mode: 0o600 })
  return acl
}

/**
 * Creates the Redis Cluster when all its nodes are new (each knows only itself, no slot assigned);
 * a cluster formed before keeps its nodes.conf files and is left as it is.
 */
async function formRedisCluster(nodes: readonly RedisNode[], say: Say): Promise<void> {
  const infos = await Promise.all(nodes.map(redisClusterInfo))
  const isNew = (info: Map<string, string> | undefined) =>
    info?.get('cluster_known_nodes') === '1' && info.get('cluster_slots_assigned') === '0'
  const fresh = nodes.filter((_, i) => isNew(infos[i]))
  if (fresh.length === 0) return
  if (fresh.length < nodes.length) {
    throw new StackError(
      `${fresh.map((n) => n.name).join(', ')} left the Redis Cluster the others still form: run \`sluice stack down --cluster\` and remove ${join(nodes[0]!.dir, '..', 'redis-*')} to start afresh`,
    )
  }
  const replicas = REDIS_REPLICAS_PER_MASTER
  say(`redis: creating the Redis Cluster (${nodes.length / (replicas + 1)} masters with ${replicas} replica each)`)
  const cli = await ensureBinary('redis-cli', ['redis-tools'], say)
  const res = spawnSync(
    cli,
    ['--cluster', 'create', ...nodes.map(address), '--cluster-replicas', String(replicas), '--cluster-yes'],
    { encoding: 'utf8' },
  )
  if (res.status !== 0) throw new StackError(`redis-cli --cluster create failed:\n${res.stdout}${res.stderr}`)
}

/** CLUSTER INFO as a map (cluster_state, cluster_known_nodes, ...), undefined when the node does not answer. */
async function redisClusterInfo(node: RedisNode): Promise<Map<string, string> | undefined> {
  const reply = await askTcp(HOST, node.port, 'CLUSTER INFO\r\n', bulkStringComplete)
  if (!reply?.startsWith('$')) return undefined
  return new Map(
    reply
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(':') as [string, string])
      .filter((pair) => pair.length === 2),
  )
}

/** A RESP bulk string ($<length>\r\n<data>\r\n) is all there, or the reply is another type (one line). */
function bulkStringComplete(data: string): boolean {
  const header = /^\$(\d+)\r\n/.exec(data)
  if (!header) return data.includes('\r\n')
  return Buffer.byteLength(data) >= header[0].length + Number(header[1]) + 2
}

// --- Kafka ---------------------------------------------------------------------------------------

async function startKafkaNode(node: KafkaNode, nodes: readonly ClusterNode[], say: Say): Promise<void> {
  const libs = ensureKafkaLibs(say)
  const brokers = ofKind(nodes, 'kafka')
  const properties = renderTemplate(join(TEMPLATES, 'kafka.properties'), {
    DATA: node.dir,
    NODE_ID: node.nodeId,
    PORT: node.port,
    CONTROLLER_PORT: node.controllerPort,
    VOTERS: brokers.map((b) => `${b.nodeId}@${HOST}:${b.controllerPort}`).join(','),
  })
  writeFileSync(join(node.dir, 'server.properties'), properties)
  const java = kafkaJava(libs, node.dir)
  // The voters are listed in the properties, so the storage is formatted without --standalone.
  if (!kafkaFormatted(node.dir)) formatKafkaStorage(java, node.dir, kafkaClusterId(brokers))
  say(`${node.name}: starting Kafka (KRaft broker and controller, node.id ${node.nodeId}) on ${address(node)}`)
  startDetached('java', ['-Xms128m', '-Xmx512m', ...java, 'kafka.Kafka', join(node.dir, 'server.properties')], node.dir)
}

/** The id of the Kafka cluster: the one a formatted broker already has, else a new one. */
function kafkaClusterId(brokers: readonly KafkaNode[]): string {
  for (const broker of brokers) {
    const id = formattedKafkaClusterId(broker.dir)
    if (id) return id
  }
  return newKafkaClusterId()
}

// --- helpers -------------------------------------------------------------------------------------

function address(node: ClusterNode): string {
  return `${HOST}:${node.port}`
}

function ofKind<K extends ClusterNodeKind>(
  nodes: readonly ClusterNode[],
  kind: K,
): Extract<ClusterNode, { kind: K }>[] {
  return nodes.filter((n): n is Extract<ClusterNode, { kind: K }> => n.kind === kind)
}

function nodeNamed(nodes: readonly ClusterNode[], name: string): ClusterNode {
  const node = nodes.find((n) => n.name === name)
  if (!node)
    throw new StackError(`no node ${name} in the cluster stack; its nodes are ${nodes.map((n) => n.name).join(', ')}`)
  return node
}
