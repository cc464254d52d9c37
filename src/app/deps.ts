// Composition root: the one place where clients are created, and closed in order.
import { createClient as createClickHouse, type ClickHouseClient, type Logger as ClickHouseLogger } from '@clickhouse/client'
import { Redis } from 'ioredis'
import { ApiKeyCache } from '../auth/api-keys.js'
import { WebhookRoutes } from '../auth/webhooks.js'
import { KafkaBroker } from '../broker/kafka.js'
import type { ConsumerHealth } from '../broker/ports.js'
import { topicNames, type TopicNames } from '../broker/topics.js'
import type { Config } from '../config/index.js'
import { ClickHouseEventSink } from '../sinks/clickhouse/events.sink.js'
import { migrate } from '../sinks/clickhouse/migrations.js'
import { RedisAlertSink } from '../sinks/redis-stream/alerts.sink.js'
import { ScimAuthenticator } from '../auth/scim-jwt.js'
import { SpoolingIntake } from '../spool/intake.js'
import { AccessStore } from '../state/access.js'
import { IdentityStore } from '../state/identities.js'
import { IntegrationStore } from '../state/integrations.js'
import { SegmentStore } from '../state/segments.js'
import { Store } from '../state/store.js'
import { Transactions } from '../state/transactions.js'
import type { Logger } from './logger.js'
import { createMetrics, type Metrics } from './metrics.js'

/** The services a process can depend on; each role declares the ones it needs (app/service.ts). */
export type Service = 'kafka' | 'clickhouse' | 'redis'
export const ALL_SERVICES: readonly Service[] = ['kafka', 'clickhouse', 'redis']

export interface Deps {
  readonly config: Config
  /** The services this process's roles use: only these are connected, migrated and asked by /readyz. */
  readonly needs: ReadonlySet<Service>
  readonly log: Logger
  readonly metrics: Metrics
  readonly topics: TopicNames
  readonly redis: Redis
  readonly clickhouse: ClickHouseClient
  readonly broker: KafkaBroker
  /** Where the edge writes: Kafka, or the disk spool when Kafka is slow or down (opened by edge roles). */
  readonly intake: SpoolingIntake
  readonly transactions: Transactions
  readonly store: Store
  readonly segments: SegmentStore
  readonly identities: IdentityStore
  readonly access: AccessStore
  readonly scimAuth: ScimAuthenticator
  readonly apiKeys: ApiKeyCache
  readonly eventSink: ClickHouseEventSink
  readonly integrations: IntegrationStore
  readonly webhookRoutes: WebhookRoutes
  readonly alertSink: RedisAlertSink
}

export function createDeps(config: Config, log: Logger, needs: readonly Service[] = ALL_SERVICES): Deps {
  // Every command has a deadline: with Redis paused or gone, a request is answered 503 in about
  // commandTimeoutMs instead of waiting, and nothing piles up behind it.
  const redis = new Redis(config.redis.url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true, commandTimeout: config.redis.commandTimeoutMs })
  redis.on('error', (err: Error) => log.warn({ err }, 'redis connection error'))
  const clickhouse = createClickHouse({
    url: config.clickhouse.url,
    username: config.clickhouse.user,
    password: config.clickhouse.password,
    request_timeout: config.clickhouse.requestTimeoutMs,
    max_open_connections: 16,
    log: { LoggerClass: pinoForClickHouse(log.child({ component: 'clickhouse' })) },
  })
  const transactions = new Transactions(redis, config.redis.commandTimeoutMs * 2)
  const store = new Store(redis, config.redis.keyPrefix, transactions)
  const integrations = new IntegrationStore(redis, config.redis.keyPrefix, transactions)
  const access = new AccessStore(redis, config.redis.keyPrefix, transactions)
  const metrics = createMetrics()
  const broker = new KafkaBroker({ ...config.kafka }, log.child({ component: 'kafka' }), metrics)
  return {
    config,
    needs: new Set(needs),
    log,
    metrics,
    topics: topicNames(config),
    redis,
    transactions,
    clickhouse,
    broker,
    intake: new SpoolingIntake(broker, config.spool, metrics, log.child({ component: 'spool' })),
    store,
    segments: new SegmentStore(redis, config.redis.keyPrefix, transactions),
    identities: new IdentityStore(redis, config.redis.keyPrefix, transactions),
    access,
    scimAuth: new ScimAuthenticator(access, config.scim, log.child({ component: 'scim-auth' })),
    apiKeys: new ApiKeyCache(store, config.keyRefreshMs, log.child({ component: 'api-keys' })),
    eventSink: new ClickHouseEventSink(clickhouse, config.clickhouse.database),
    integrations,
    webhookRoutes: new WebhookRoutes(integrations, config.keyRefreshMs, log.child({ component: 'webhook-routes' })),
    alertSink: new RedisAlertSink(redis, config.redis.keyPrefix, config.webhooks.streamMaxLen, config.webhooks.streamMaxAgeMs),
  }
}

/** Routes @clickhouse/client's own log lines into pino. Its errors are warnings here: the caller
 * (consumer, readiness) decides what a failed request means and logs that with context. */
function pinoForClickHouse(log: Logger): new () => ClickHouseLogger {
  return class implements ClickHouseLogger {
    trace(p: Parameters<ClickHouseLogger['trace']>[0]) {
      log.trace({ module: p.module, args: p.args }, p.message)
    }
    debug(p: Parameters<ClickHouseLogger['debug']>[0]) {
      log.debug({ module: p.module, args: p.args }, p.message)
    }
    info(p: Parameters<ClickHouseLogger['info']>[0]) {
      log.info({ module: p.module, args: p.args }, p.message)
    }
    warn(p: Parameters<ClickHouseLogger['warn']>[0]) {
      log.warn({ module: p.module, err: p.err }, p.message)
    }
    error(p: Parameters<ClickHouseLogger['error']>[0]) {
      log.warn({ module: p.module, err: p.err }, p.message)
    }
  }
}

/**
 * Connects to the services the process needs and brings them up to date: Kafka topics and ClickHouse
 * migrations (both idempotent). A service no role of the process uses is not touched, so an edge
 * starts while ClickHouse is down.
 */
export async function prepareDeps(deps: Deps): Promise<void> {
  if (deps.needs.has('redis')) await deps.redis.connect()
  if (deps.needs.has('clickhouse')) await migrate(deps.clickhouse, deps.config.clickhouse.database, deps.log)
  if (deps.needs.has('kafka')) await deps.broker.ensureTopics(Object.values(deps.topics))
}

/** Closes what createDeps opened, producer first (it may still flush), Redis last. */
export async function closeDeps(deps: Deps): Promise<void> {
  deps.apiKeys.stop()
  deps.webhookRoutes.stop()
  await deps.intake.close()
  await deps.broker.close()
  await deps.clickhouse.close()
  await deps.transactions.close()
  if (deps.needs.has('redis')) await deps.redis.quit().catch(() => deps.redis.disconnect())
  else deps.redis.disconnect()
}

export type Readiness = Record<string, 'ok' | string>

/**
 * Each dependency answers within the timeout, or its error is reported; each consumer of this
 * process is progressing (not stalled), or says where it is stuck.
 */
export async function checkReadiness(deps: Deps, consumers: Readonly<Record<string, ConsumerHealth>> = {}, timeoutMs = 2000): Promise<{ ready: boolean; degraded: boolean; checks: Readiness }> {
  const within = async (p: Promise<unknown>): Promise<string> => {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    })
    try {
      await Promise.race([p, timeout])
      return 'ok'
    } catch (err) {
      return err instanceof Error ? err.message : String(err)
    } finally {
      clearTimeout(timer)
    }
  }
  const probes: Record<Service, () => Promise<unknown>> = {
    kafka: () => deps.broker.ping(),
    clickhouse: () =>
      deps.clickhouse.ping().then((r) => {
        if (!r.success) throw r.error
      }),
    redis: () => deps.redis.ping(),
  }
  const needed = ALL_SERVICES.filter((s) => deps.needs.has(s))
  const results = await Promise.all(needed.map((s) => within(probes[s]())))
  const checks: Readiness = Object.fromEntries(needed.map((s, i) => [s, results[i]!]))
  for (const [role, health] of Object.entries(consumers)) checks[`${role}-consumer`] = health.stalled ? `stalled: ${health.detail}` : 'ok'
  // An edge that spools still takes data: Kafka being away makes it degraded, not unready, until the
  // spool is full.
  const intake = deps.intake.state()
  const spoolTakes = intake !== undefined && deps.intake.hasRoom()
  if (intake) {
    const held = `${intake.spool.messages} messages, ${intake.spool.bytes} of ${intake.spool.maxBytes} bytes`
    checks['spool'] = !intake.spooling ? 'ok' : spoolTakes ? `spooling: ${held}` : `full: ${held}`
  }
  const failing = Object.entries(checks).filter(([name, v]) => v !== 'ok' && !(spoolTakes && (name === 'kafka' || name === 'spool')))
  return { ready: failing.length === 0, degraded: Object.values(checks).some((v) => v !== 'ok'), checks }
}
