// The one place Redis clients are made: one Redis from REDIS_URL, or a Redis Cluster from
// REDIS_CLUSTER_NODES with REDIS_URL's credentials (and TLS) for every node. Either is used through
// the same commands; what differs is where keys live (keys.ts) and that a cluster client sends each
// command, pipeline or transaction to the node of its keys' slot.
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis'

export type RedisClient = Redis | Cluster

export interface RedisSettings {
  readonly url: string
  /**
   * host:port of Redis Cluster nodes (any of them: the client learns the others); absent or empty: one Redis at url.
   */
  readonly clusterNodes?: readonly string[]
  readonly keyPrefix: string
  /** Deadline of every command (ms); past it a command fails and callers answer 503. */
  readonly commandTimeoutMs?: number
  /** SLUICE_ACCOUNT_STORED_BYTES: what one account's rules, windows and destinations may take (default 32 MiB). */
  readonly accountBytes?: number
}

export function isCluster(settings: RedisSettings): boolean {
  return (settings.clusterNodes?.length ?? 0) > 0
}

/** A client with the service's deadlines; not connected until first used (or connect()). */
export function createRedisClient(settings: RedisSettings, options: RedisOptions = {}): RedisClient {
  // With Redis paused or gone a command fails after its deadline instead of waiting, and nothing
  // piles up behind it.
  const common: RedisOptions = {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    commandTimeout: settings.commandTimeoutMs,
    ...options,
  }
  if (!isCluster(settings)) return new Redis(settings.url, common)
  const url = new URL(settings.url)
  const redisOptions: RedisOptions = {
    ...common,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  }
  const clusterOptions: ClusterOptions = {
    lazyConnect: true,
    enableOfflineQueue: common.enableOfflineQueue,
    redisOptions,
    // A failover takes the cluster's node timeout and an election: MOVED and CLUSTERDOWN are retried
    // (slots refreshed) for about that long before a command fails as an outage.
    maxRedirections: 16,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 100,
    slotsRefreshTimeout: 2000,
    // Slots that moved (resharding, a manual failover) are learnt within 5 s even if no reply says so.
    slotsRefreshInterval: 5000,
  }
  return new Cluster(
    settings.clusterNodes!.map((node) => {
      const at = node.lastIndexOf(':')
      return { host: node.slice(0, at), port: Number(node.slice(at + 1)) }
    }),
    clusterOptions,
  )
}

/**
 * Connects; resolves once the client is ready, rejects when its first connection fails. A Cluster's own connect()
 * never settles when its first ready check fails (a CLUSTER INFO that times out on a loaded node, or a node that says
 * the cluster is not ok yet): the client then reconnects and becomes ready by itself, and its 'ready' is what counts.
 */
export function connectClient(client: RedisClient): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const ready = () => resolve()
    client.once('ready', ready)
    client.connect().then(ready, (err: Error) => {
      client.off('ready', ready)
      reject(err)
    })
  })
}

/**
 * The connections a command without keys must go to, to reach every key: each master of a cluster, or the one Redis.
 */
export function masters(client: RedisClient): Redis[] {
  return client instanceof Cluster ? client.nodes('master') : [client]
}

/** A second connection (or set of connections) to the same Redis, e.g. for WATCH, which belongs to a connection. */
export function duplicateClient(client: RedisClient): RedisClient {
  return client instanceof Cluster ? client.duplicate() : client.duplicate({ lazyConnect: true })
}
