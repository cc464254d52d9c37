// Composition root: the one place where clients are created, and closed in order. A client is
// created on first use, and only for a service the process's roles need: an edge-only process
// never builds a ClickHouse client, an admin-only process no Kafka client.
import {
  createClient as createClickHouse,
  type ClickHouseClient,
  type Logger as ClickHouseLogger,
} from '@clickhouse/client'
import { ApiKeyCache } from '../auth/api-keys.js'
import { ScimAuthenticator } from '../auth/scim-jwt.js'
import { SenderAuthReports } from '../auth/sender-auth-reports.js'
import { WebhookAddressCache } from '../auth/webhooks.js'
import { KafkaBroker } from '../broker/kafka/broker.js'
import { groupIds, topicNames, type TopicNames } from '../broker/topics.js'
import type { Config } from '../config/index.js'
import { SpoolingIntake } from '../edge/spool/intake.js'
import type { Logger } from '../shared/logger.js'
import { SecretBox } from '../shared/secret-box.js'
import { AppError, messageOf } from '../shared/errors.js'
import { createMetrics, type Metrics } from '../shared/metrics.js'
import { ClickHouseTableSink, type SinkCluster } from '../sinks/clickhouse/table.sink.js'
import { probeCapabilities, type ClickHouseCapabilities } from '../sinks/clickhouse/capabilities.js'
import { clusterShape, migrate } from '../sinks/clickhouse/migrations.js'
import { createExperimentService, type ExperimentService } from '../services/experiments/service.js'
import { identityReader } from '../services/experiments/identity-dimension.js'
import { ExperimentChecks } from '../services/experiment-checks.js'
import { createDataHubService, type DataHubService } from '../services/datahub.js'
import { PlanService } from '../services/plans.js'
import { FreshnessCanary, type CanaryIntake } from '../services/freshness.js'
import { encodeEventMessages } from '../broker/messages/events.js'
import { encodeImpressionMessages } from '../broker/messages/impressions.js'
import { RecordTooLargeError } from '../broker/messages/records.js'
import { REPLAY_HEADER, type OutboundMessage } from '../broker/ports.js'
import { createReplayService, type Ingestion, type ReplayIntake, type ReplayService } from '../services/replays.js'
import { DataJobs, ErasureService } from '../services/erasures.js'
import { TailHub } from '../services/tail.js'
import { TailFeed } from '../consumers/tail.feed.js'
import { TailChannel } from '../state/redis/tail.js'
import { applyRetention, type Retention } from '../sinks/clickhouse/retention.js'
import { IntegrationService } from '../services/integrations.js'
import { encodeAlertMessage } from '../broker/messages/alerts.js'
import { MetricService } from '../services/metrics.js'
import { AutoResolveJob } from '../jobs/auto-resolve.job.js'
import { EscalationJob } from '../jobs/escalation.job.js'
import { HeartbeatJob } from '../jobs/heartbeat.job.js'
import { JobRunner } from '../jobs/runner.js'
import { PageActions } from '../services/page-actions.js'
import { NotifyConsumer } from '../consumers/notify.consumer.js'
import { NotifyService } from '../services/notify.js'
import { parseRanges, type OutboundPolicy } from '../shared/outbound.js'
import { RedisAlertSink } from '../sinks/redis-stream/alerts.sink.js'
import {
  connectClient,
  createRedisClient,
  createRedisState,
  duplicateClient,
  isCluster,
  type RedisClient,
  type RedisStores,
} from '../state/redis/index.js'
import { sharedRateLimiter, type RateLimit, type RateLimiter } from '../state/redis/rate-limits.js'
import type { NotifyStore } from '../state/redis/notify.js'
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'

/** The services a process can depend on; each role declares the ones it needs (app/roles.ts). */
export type Service = 'kafka' | 'clickhouse' | 'redis'
export const ALL_SERVICES: readonly Service[] = ['kafka', 'clickhouse', 'redis']

export class Container {
  readonly topics: TopicNames
  /** The services this process's roles use: only these are connected, migrated and asked by /readyz. */
  readonly needs: ReadonlySet<Service>
  private readonly made = new Map<string, unknown>()
  /** The ClickHouse cluster written to (CLICKHOUSE_CLUSTER), as prepare() found it. */
  private sinkCluster?: SinkCluster
  /** What the ClickHouse server can do, as prepare() found it. */
  private clickhouseCapabilities?: ClickHouseCapabilities
  /** The alerts sink's own connections, when it waits for replicas. */
  private alertSinkRedis?: RedisClient
  /** The notify role's connection for blocking stream reads. */
  private notifyReader?: RedisClient
  /** A Kafka client for the consumers' lag in a process whose roles do not use Kafka (the admin role). */
  private lagBroker?: KafkaBroker
  /** The live tail's connections: the consumers' publisher, the viewers' subscriber. */
  private tailPublisher?: RedisClient
  private tailSubscriber?: RedisClient

  constructor(
    readonly config: Config,
    readonly log: Logger,
    needs: readonly Service[] = ALL_SERVICES,
    readonly metrics: Metrics = createMetrics(),
  ) {
    this.needs = new Set(needs)
    this.topics = topicNames(config)
  }

  /** A component made once, on first use; `service` is the need it depends on. */
  private one<T>(name: string, service: Service | undefined, make: () => T): T {
    if (service && !this.needs.has(service))
      throw new Error(`${name} needs ${service}, which no role of this process uses`)
    if (!this.made.has(name)) this.made.set(name, make())
    return this.made.get(name) as T
  }

  private has(name: string): boolean {
    return this.made.has(name)
  }

  get redis(): RedisClient {
    return this.one('redis', 'redis', () => {
      const redis = createRedisClient(this.config.redis)
      redis.on('error', (err: Error) => this.log.warn({ err }, 'redis connection error'))
      return redis
    })
  }

  get state(): RedisStores {
    return this.one('state', 'redis', () => createRedisState(this.config.redis, this.redis))
  }

  /**
   * The ClickHouse client: the events role writes with it; the admin role reads experiment results, without waiting for
   * ClickHouse to start.
   */
  get clickhouse(): ClickHouseClient {
    return this.one('clickhouse', undefined, () =>
      createClickHouse({
        url: this.config.clickhouse.url,
        username: this.config.clickhouse.user,
        password: this.config.clickhouse.password,
        request_timeout: this.config.clickhouse.requestTimeoutMs,
        max_open_connections: 16,
        log: { LoggerClass: pinoForClickHouse(this.log.child({ component: 'clickhouse' })) },
      }),
    )
  }

  get broker(): KafkaBroker {
    return this.one(
      'broker',
      'kafka',
      () => new KafkaBroker(this.config.kafka, this.log.child({ component: 'kafka' }), this.metrics),
    )
  }

  /** Where the edge writes: Kafka, or the disk spool when Kafka is slow or down. */
  get intake(): SpoolingIntake {
    return this.one(
      'intake',
      'kafka',
      () => new SpoolingIntake(this.broker, this.config.spool, this.metrics, this.log.child({ component: 'spool' })),
    )
  }

  /** The intake if this process made one (edge roles), for readiness. */
  get madeIntake(): SpoolingIntake | undefined {
    return this.has('intake') ? this.intake : undefined
  }

  get apiKeys(): ApiKeyCache {
    return this.one(
      'apiKeys',
      'redis',
      () => new ApiKeyCache(this.state.tenancy, this.config.keyRefreshMs, this.log.child({ component: 'api-keys' })),
    )
  }

  get webhookAddresses(): WebhookAddressCache {
    return this.one(
      'webhookAddresses',
      'redis',
      () =>
        new WebhookAddressCache(
          this.state.integrations,
          this.config.keyRefreshMs,
          this.log.child({ component: 'webhook-routes' }),
          this.secretBox,
        ),
    )
  }

  /** Seals and opens the secrets Sluice must read back (SLUICE_SECRETS_KEY). */
  get secretBox(): SecretBox {
    return this.one('secretBox', undefined, () => new SecretBox(this.config.secrets.keys))
  }

  /** The edge's counts of senders' authentication outcomes, written to Redis about once a second. */
  get senderAuthReports(): SenderAuthReports {
    return this.one(
      'senderAuthReports',
      'redis',
      () => new SenderAuthReports(this.state.integrations, this.metrics, this.log.child({ component: 'sender-auth' })),
    )
  }

  get scimAuth(): ScimAuthenticator {
    return this.one(
      'scimAuth',
      'redis',
      () =>
        new ScimAuthenticator(this.state.platform, this.config.scim.jwks, this.log.child({ component: 'scim-auth' })),
    )
  }

  /** The ClickHouse writer of every consumer of SDK data (events, impressions). */
  get tableSink(): ClickHouseTableSink {
    return this.one('tableSink', 'clickhouse', () => {
      const { database, cluster } = this.config.clickhouse
      const capabilities = this.clickhouseCapabilities
      if (!capabilities || (cluster && !this.sinkCluster))
        throw new Error('the ClickHouse server is not known yet: prepare() first')
      return new ClickHouseTableSink(this.clickhouse, { database, capabilities, cluster: this.sinkCluster })
    })
  }

  /** Experiment results: metric definitions in Redis, read-only queries to ClickHouse. */
  get experiments(): ExperimentService {
    return this.one('experiments', 'redis', () =>
      createExperimentService(
        this.clickhouse,
        analysisSettings(this.config),
        this.metricService,
        this.state.experiments,
        identityReader(this.state.tenancy, this.state.identities),
      ),
    )
  }

  /** The Data Hub's views for importers: read-only queries to ClickHouse. */
  get dataHub(): DataHubService {
    return this.one('dataHub', undefined, () => createDataHubService(this.clickhouse, analysisSettings(this.config)))
  }

  /** Tracking plans: read, saved as versions, proposed from the catalogue. */
  get plans(): PlanService {
    return this.one('plans', undefined, () => new PlanService(this.state.plans, this.dataHub))
  }

  /** Replays of refused records: dry runs, requests and their audit (jobs in Redis; the checks role runs them). */
  get replays(): ReplayService {
    return this.one('replays', undefined, () =>
      createReplayService(this.clickhouse, analysisSettings(this.config), this.state.replays, this.state.plans),
    )
  }

  /**
   * The consumers' side of the live tail. Its own Redis connection, which does not queue while Redis is away (a tail
   * never holds intake up). None with SLUICE_TAIL_RECORDS_PER_SECOND=0.
   */
  get tailFeed(): TailFeed | undefined {
    return this.one('tailFeed', undefined, () => {
      if (this.config.dataHub.tailPerSecond === 0) return undefined
      this.tailPublisher = createRedisClient(this.config.redis, { enableOfflineQueue: false, maxRetriesPerRequest: 0 })
      this.tailPublisher.on('error', () => undefined)
      return new TailFeed(new TailChannel(this.tailPublisher, this.config.redis.keyPrefix), {
        perSecond: this.config.dataHub.tailPerSecond,
        refreshMs: 1000,
        log: this.log.child({ component: 'tail' }),
      })
    })
  }

  /** The viewers' side of the live tail: one subscriber connection for the process's viewers. */
  get tailHub(): TailHub {
    return this.one('tailHub', 'redis', () => {
      this.tailSubscriber = duplicateClient(this.redis)
      this.tailSubscriber.on('error', (err: Error) => this.log.warn({ err }, 'live tail: redis connection error'))
      return new TailHub(new TailChannel(this.redis, this.config.redis.keyPrefix), this.tailSubscriber, {
        maxViewers: this.config.dataHub.tailViewers,
        log: this.log.child({ component: 'tail' }),
      })
    })
  }

  /**
   * The lag of the events and impressions consumer groups (messages not yet stored), for the ingestion health: from
   * this process's Kafka client, or one of its own made on first use; a Kafka that does not answer in 3 s fails it.
   */
  consumerLag = async (): Promise<Record<string, number>> => {
    const broker = this.needs.has('kafka')
      ? this.broker
      : (this.lagBroker ??= new KafkaBroker(this.config.kafka, this.log.child({ component: 'kafka' }), this.metrics))
    const groups = groupIds(this.config)
    const lag = Promise.all([
      broker.groupLag(groups.events, this.topics.events),
      broker.groupLag(groups.impressions, this.topics.impressions),
    ])
    lag.catch(() => undefined) // its failure after the timeout is no one's
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('kafka did not answer within 3 s')), 3000)
    })
    try {
      const [events, impressions] = await Promise.race([lag, timeout])
      return { events, impressions }
    } finally {
      clearTimeout(timer)
    }
  }

  /** Erasure requests and their status (jobs in Redis; the checks role runs them). */
  get erasures(): ErasureService {
    return this.one('erasures', 'redis', () => new ErasureService(this.state.erasures))
  }

  /** The checks role's data jobs: erasures, and the daily retention deletes on servers without TTLs. */
  get dataJobs(): DataJobs {
    return this.one('dataJobs', 'kafka', () => {
      const { database, cluster } = this.config.clickhouse
      const ingestion: Ingestion = {
        mark: async () => ({
          events: await this.broker.topicEnds(this.topics.events),
          impressions: await this.broker.topicEnds(this.topics.impressions),
        }),
        reached: async (mark) => {
          const m = mark as Record<'events' | 'impressions', Map<number, bigint>>
          const groups = groupIds(this.config)
          return (
            (await this.broker.groupReached(groups.events, this.topics.events, m.events)) &&
            (await this.broker.groupReached(groups.impressions, this.topics.impressions, m.impressions))
          )
        },
      }
      return new DataJobs(this.state.erasures, this.clickhouse, {
        target: { database, cluster },
        capabilities: () => {
          if (!this.clickhouseCapabilities) throw new Error('data jobs started before ClickHouse was probed')
          return this.clickhouseCapabilities
        },
        retention: retention(this.config),
        leaseMs: this.config.dataHub.jobLeaseMs,
        pollMs: 1000,
        owner: `checks-${hostname()}-${process.pid}`,
        log: this.log.child({ component: 'data-jobs' }),
        ingestion,
        replays: { store: this.state.replays, runner: this.replays.runner(this.replayIntake, ingestion) },
      })
    })
  }

  /**
   * How a replay publishes records again: as the edge would have (its encoders), each a message of its own under its
   * replay identity, marked as published again so that the consumers store it at most once.
   */
  private get replayIntake(): ReplayIntake {
    return async (records) => {
      const events: OutboundMessage[] = []
      const impressions: OutboundMessage[] = []
      let tooLarge = 0
      for (const { replayable, meta } of records) {
        const sizing = { bodyBytes: 1024, maxBytes: this.config.kafka.messageMaxBytes }
        let encoded: OutboundMessage[]
        try {
          encoded =
            replayable.topic === 'events'
              ? await encodeEventMessages([replayable.record], meta, sizing)
              : encodeImpressionMessages(
                  replayable.kind,
                  [replayable.record],
                  { ...meta, kind: replayable.kind, impressionsMode: '', machineIp: '', machineName: '' },
                  sizing,
                )
        } catch (err) {
          if (!(err instanceof RecordTooLargeError)) throw err
          tooLarge++
          continue
        }
        for (const m of encoded)
          (replayable.topic === 'events' ? events : impressions).push({
            ...m,
            headers: { ...m.headers, [REPLAY_HEADER]: '1' },
          })
      }
      try {
        if (events.length > 0) await this.broker.publish(this.topics.events, events)
        if (impressions.length > 0) await this.broker.publish(this.topics.impressions, impressions)
      } catch (err) {
        throw new AppError('SINK_UNAVAILABLE', `kafka: ${messageOf(err)}`, true, { cause: err })
      }
      return tooLarge
    }
  }

  /** The checks role's job: guardrail and sample ratio alerts of running experiments, into the alerts topic. */
  /** The freshness canary (the checks role runs it; the health answer reads its hours). */
  get freshness(): FreshnessCanary {
    return this.one('freshness', 'kafka', () => {
      const { config } = this
      // As the edge publishes a request's events: each canary a message of its own, spread over the partitions.
      const intake: CanaryIntake = async (canaries, environmentId, receivedAtMs) => {
        const messages = []
        for (const canary of canaries) {
          const meta = {
            environmentId,
            accountId: environmentId,
            receivedAtMs,
            sdkVersion: 'sluice-canary',
            requestId: randomUUID(),
          }
          for (const m of await encodeEventMessages([canary], meta, { bodyBytes: 256, maxBytes: 64 * 1024 }))
            messages.push({ ...m, ordered: false })
        }
        await this.broker.publish(this.topics.events, messages)
      }
      return new FreshnessCanary(this.state.freshness, intake, this.clickhouse, this.metrics, {
        intervalMs: config.dataHub.freshnessIntervalMs,
        partitions: config.kafka.partitions,
        database: config.clickhouse.database,
        owner: `checks-${hostname()}-${process.pid}`,
        log: this.log.child({ component: 'freshness' }),
      })
    })
  }

  get experimentChecks(): ExperimentChecks {
    return this.one('experimentChecks', 'kafka', () => {
      const { config } = this
      const integrations = new IntegrationService(
        this.state.integrations,
        this.alertSink,
        config.webhooks.rotationOverlapMs,
      )
      return new ExperimentChecks(
        this.state.tenancy,
        this.metricService,
        this.experiments,
        integrations,
        this.state.experiments,
        {
          intervalMs: config.experiments.checkIntervalMs,
          lookbackMs: config.experiments.checkLookbackMs,
          budget: {
            flags: config.experiments.checkFlagsPerAccount,
            ms: config.experiments.checkAccountMs,
            alerts: config.experiments.checkAlertsPerAccount,
          },
          minKeys: config.experiments.checkMinKeys,
          owner: `checks-${hostname()}-${process.pid}`,
          publish: this.ownAlerts('experiment-check'),
          log: this.log.child({ component: 'experiment-checks' }),
        },
      )
    })
  }

  /** Publishes an alert Sluice raises itself through one of its integrations, as a sender's payload would be. */
  private ownAlerts(source: string) {
    return async (accountId: string, integrationId: string, alert: object): Promise<void> => {
      const message = encodeAlertMessage(
        JSON.stringify(alert),
        { integrationId, accountId, receivedAtMs: Date.now(), requestId: `${source}:${randomUUID()}` },
        this.config.kafka.messageMaxBytes,
      )
      if (message) await this.broker.publish(this.topics.alerts, [{ ...message, ordered: true }])
    }
  }

  get metricService(): MetricService {
    return this.one('metricService', 'redis', () => new MetricService(this.state.tenancy, this.state.metrics))
  }

  get alertSink(): RedisAlertSink {
    return this.one('alertSink', 'redis', () => {
      const { redis, webhooks } = this.config
      const cluster = isCluster(redis)
      // A WAIT must end before the command deadline, or the deadline would report an outage instead.
      const wait = {
        replicas: cluster ? redis.waitReplicas : 0,
        timeoutMs: Math.min(1000, Math.floor(redis.commandTimeoutMs / 2)),
      }
      // A WAIT holds its connection until the replicas answer: the sink then has connections of its own.
      if (wait.replicas > 0) this.alertSinkRedis = duplicateClient(this.redis)
      return new RedisAlertSink(this.alertSinkRedis ?? this.redis, {
        prefix: redis.keyPrefix,
        maxLen: webhooks.streamMaxLen,
        maxAgeMs: webhooks.streamMaxAgeMs,
        cluster,
        wait,
      })
    })
  }

  /** A rate limit shared by every process through Redis (one limiter per name). */
  rateLimiter(name: string, limit: RateLimit): RateLimiter {
    return this.one(`rate:${name}`, 'redis', () =>
      sharedRateLimiter(this.redis, this.config.redis.keyPrefix, name, limit),
    )
  }

  /**
   * Connects to the services the process needs and brings them up to date: Kafka topics and
   * ClickHouse migrations (both idempotent). A service no role uses is not touched, so an edge
   * starts while ClickHouse is down.
   */
  async prepare(): Promise<void> {
    // How long each service took, logged once: what a slow start waited for.
    const took: Partial<Record<Service, number>> = {}
    let waiting: { service: Service; since: number } | undefined
    const step = async (service: Service, work: () => Promise<void>) => {
      if (!this.needs.has(service)) return
      waiting = { service, since: performance.now() }
      await work()
      took[service] = Math.round(performance.now() - waiting.since)
    }
    // A start that hangs says on what, every 10 s, instead of being silent until it ends.
    const watchdog = setInterval(() => {
      if (waiting)
        this.log.warn(
          { waitingFor: waiting.service, waitedMs: Math.round(performance.now() - waiting.since), tookMs: took },
          'starting: still waiting for a service',
        )
    }, 10_000)
    watchdog.unref()
    try {
      await step('redis', () => connectClient(this.redis))
      await step('clickhouse', async () => {
        const { database, cluster } = this.config.clickhouse
        this.clickhouseCapabilities = await probeCapabilities(this.clickhouse)
        this.log.info({ version: this.clickhouseCapabilities.version }, 'clickhouse server')
        if (cluster) this.sinkCluster = await clusterShape(this.clickhouse, cluster)
        await migrate(this.clickhouse, { database, cluster }, this.log)
        await applyRetention(
          this.clickhouse,
          { database, cluster },
          this.clickhouseCapabilities,
          retention(this.config),
          this.log,
        )
      })
      await step('kafka', () => this.broker.ensureTopics(Object.values(this.topics)))
    } finally {
      clearInterval(watchdog)
    }
    this.log.info({ tookMs: took }, 'services ready')
  }

  /** Closes what was made, in order: caches stop, the intake and producer flush, then ClickHouse and Redis. */
  /** The alerts role's auto-resolve job. */
  get autoResolveJob(): AutoResolveJob {
    return this.one(
      'autoResolveJob',
      'redis',
      () =>
        new AutoResolveJob(this.state.alerts, {
          streamMaxLen: this.config.webhooks.streamMaxLen,
          intervalMs: this.config.webhooks.autoResolveIntervalMs,
          retentionMs: this.config.webhooks.alertRetentionMs,
          metrics: this.metrics,
          log: this.log.child({ component: 'auto-resolve' }),
        }),
    )
  }

  /** The escalation job: fires the due steps of incidents' escalation policies (the notify role runs it). */
  get escalationJob(): EscalationJob {
    return this.one('escalationJob', 'redis', () => {
      const { notify } = this.config
      return new EscalationJob(this.state.escalations, this.state.oncall, this.state.notify, this.state.directory, {
        leaseMs: notify.escalationLeaseMs,
        everyMs: notify.escalationTickMs,
        perAccount: notify.escalationsPerAccount,
        giveUpMs: notify.giveUpMs,
        retentionMs: notify.retentionMs,
        log: this.log.child({ component: 'escalation' }),
        onFired: (ms) => this.metrics.escalationLateness.observe(ms / 1000),
      })
    })
  }

  /** Acknowledging where a page arrived: Slack's buttons and email links. */
  get pageActions(): PageActions {
    return this.one('pageActions', 'redis', () => {
      const { config } = this
      return new PageActions({
        oncall: this.state.oncall,
        incidents: this.state.incidents,
        directory: this.state.directory,
        secrets: this.secretBox,
        streamMaxLen: config.webhooks.streamMaxLen,
        publicBaseUrl: () => config.publicBaseUrl ?? `http://${config.http.host}:${config.http.port}`,
      })
    })
  }

  /** The notify role's background jobs, in the jobs' one lifecycle (jobs/runner.ts). */
  get notifyJobs(): JobRunner {
    return this.one('notifyJobs', 'redis', () => this.jobRunner([this.escalationJob]))
  }

  /** The alerts role's background jobs in the same lifecycle: auto-resolve. */
  get alertsJobs(): JobRunner {
    return this.one('alertsJobs', 'redis', () => this.jobRunner([this.autoResolveJob]))
  }

  /**
   * The checks role's background jobs in the same lifecycle: heartbeats, experiment checks, the data jobs (erasures,
   * replays, retention) and the freshness canary (unless turned off).
   */
  get checksJobs(): JobRunner {
    return this.one('checksJobs', 'kafka', () =>
      this.jobRunner([
        this.heartbeatJob,
        this.experimentChecks,
        this.dataJobs,
        ...(this.freshness.enabled ? [this.freshness] : []),
      ]),
    )
  }

  private jobRunner(jobs: ConstructorParameters<typeof JobRunner>[1]): JobRunner {
    return new JobRunner(this.state.jobLeases, jobs, {
      owner: `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
      leaseMs: this.config.notify.escalationLeaseMs,
      log: this.log.child({ component: 'jobs' }),
    })
  }

  /** Raises an alert when an integration with a heartbeat receives no payload for its interval and grace. */
  get heartbeatJob(): HeartbeatJob {
    return this.one('heartbeatJob', 'kafka', () => {
      const { config } = this
      const integrations = new IntegrationService(
        this.state.integrations,
        this.alertSink,
        config.webhooks.rotationOverlapMs,
      )
      return new HeartbeatJob(this.state.heartbeats, this.state.integrations, integrations, {
        everyMs: config.notify.heartbeatTickMs,
        lastPayloadAt: (accountId, integrationId) => this.alertSink.lastPayloadAt(accountId, integrationId),
        publish: this.ownAlerts('heartbeat'),
        log: this.log.child({ component: 'heartbeats' }),
      })
    })
  }

  /** Where notifications may go (destinations are checked when saved and when sent). */
  get notifyPolicy(): OutboundPolicy {
    return this.one('notifyPolicy', undefined, () => notifyPolicy(this.config))
  }

  get notifyService(): NotifyService {
    return this.one('notifyService', 'redis', () => notifyService(this.config, this.state.notify, this.secretBox))
  }

  /** The notify role's reader of the alert streams and sender of deliveries. */
  get notifyConsumer(): NotifyConsumer {
    return this.one('notifyConsumer', 'redis', () => {
      const { config } = this
      this.notifyReader = duplicateClient(this.redis)
      const limiters = new Map<string, RateLimiter>()
      return new NotifyConsumer(
        this.state.notify,
        this.state.alerts,
        this.state.incidents,
        this.state.rulesAndWindows,
        this.state.integrations,
        this.secretBox,
        this.notifyReader,
        {
          cluster: isCluster(config.redis),
          consumerName: `notify-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
          leaseMs: config.notify.leaseMs,
          giveUpMs: config.notify.giveUpMs,
          retentionMs: config.notify.retentionMs,
          refreshMs: config.webhooks.integrationRefreshMs,
          consoleUrl: config.publicBaseUrl ?? `http://${config.http.host}:${config.http.port}`,
          policy: this.notifyPolicy,
          blockMs: Math.max(50, Math.min(1000, Math.floor(config.redis.commandTimeoutMs / 2))),
          limiter: (d) => {
            const name = `notify:${d.id}:${d.limits.ratePerSecond}:${d.limits.burst}`
            let limiter = limiters.get(name)
            if (!limiter) {
              limiter = sharedRateLimiter(this.redis, config.redis.keyPrefix, name, d.limits)
              limiters.set(name, limiter)
            }
            return limiter
          },
          metrics: this.metrics,
          log: this.log.child({ component: 'notify' }),
          escalate: (start) => this.escalationJob.start(start),
          ...(this.secretBox.available
            ? { pageLinks: (a: string, i: string, u: string) => this.pageActions.emailLinks(a, i, u, Date.now()) }
            : {}),
        },
      )
    })
  }

  async close(): Promise<void> {
    if (this.has('notifyJobs')) await this.notifyJobs.stop()
    if (this.has('checksJobs')) await this.checksJobs.stop()
    if (this.has('notifyConsumer')) await this.notifyConsumer.stop()
    if (this.has('tailFeed')) this.tailFeed?.stop()
    if (this.has('tailHub')) await this.tailHub.close()
    for (const client of [this.tailPublisher, this.tailSubscriber])
      await client?.quit().catch(() => client.disconnect())
    await this.notifyReader?.quit().catch(() => this.notifyReader?.disconnect())
    if (this.has('alertsJobs')) await this.alertsJobs.stop()
    if (this.has('apiKeys')) this.apiKeys.stop()
    if (this.has('webhookAddresses')) this.webhookAddresses.stop()
    if (this.has('senderAuthReports')) await this.senderAuthReports.stop()
    if (this.has('intake')) await this.intake.close()
    if (this.has('broker')) await this.broker.close()
    await this.lagBroker?.close()
    if (this.has('clickhouse')) await this.clickhouse.close()
    if (this.has('state')) await this.state.close()
    await this.alertSinkRedis?.quit().catch(() => this.alertSinkRedis?.disconnect())
    // A client that never connected (its process failed before) is only dropped.
    if (this.has('redis'))
      await (this.redis.status === 'wait'
        ? this.redis.disconnect()
        : this.redis.quit().catch(() => this.redis.disconnect()))
  }
}

/** How long ClickHouse keeps records, from the settings. */
function retention(config: Config): Retention {
  return { dataDays: config.dataHub.retentionDays, rejectionsDays: config.dataHub.rejectionsRetentionDays }
}

/** Where notifications may go: the outbound policy of the settings. */
export function notifyPolicy(config: Config): OutboundPolicy {
  return {
    allowInsecure: config.notify.allowHttp,
    allowedRanges: parseRanges(config.notify.allowedRanges),
    timeoutMs: config.notify.timeoutMs,
    maxBytes: 64 * 1024,
  }
}

/** Notification destinations and deliveries as use cases (the admin role and `sluice destinations|deliveries`). */
export function notifyService(config: Config, store: NotifyStore, box: SecretBox): NotifyService {
  return new NotifyService(store, box, notifyPolicy(config), config.notify.giveUpMs, config.notify.retentionMs)
}

/** Where experiment results read, and their limits (the admin role and `sluice experiments`). */
export function analysisSettings(config: Config): { database: string; timeoutMs: number; maxMemoryBytes: number } {
  return {
    database: config.clickhouse.database,
    timeoutMs: config.experiments.queryTimeoutMs,
    maxMemoryBytes: config.experiments.maxMemoryBytes,
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
      // The client's advice on long request timeouts (progress headers against idle proxies) does not
      // apply: inserts wait long on purpose, and one cut by a proxy is killed by id and retried.
      const advice = p.module === 'Config' && p.message.includes('send_progress_in_http_headers')
      log[advice ? 'debug' : 'warn']({ module: p.module, err: p.err }, p.message)
    }
    error(p: Parameters<ClickHouseLogger['error']>[0]) {
      log.warn({ module: p.module, err: p.err }, p.message)
    }
  }
}
