// The Redis state factory: one connection's typed stores, with their transactions and scripts. Used
// by the service, the `sluice` command, the tests and the benchmarks alike, so every store is wired
// one way.
import { PlatformStore } from './platform.js'
import { AlertStore } from './alerts.js'
import { IncidentStore } from './incidents.js'
import { RulesAndWindowsStore } from './rules-and-windows.js'
import { DirectoryStore } from './directory.js'
import { IdentityStore } from './identities.js'
import { IntegrationStore } from './integrations.js'
import { DataJobStore, type ErasureStore, type ReplayStore } from './data-jobs.js'
import { ExperimentStore } from './experiments.js'
import { MetricStore } from './metrics.js'
import { FreshnessStore } from './freshness.js'
import { NotifyStore } from './notify.js'
import { OnCallStore } from './oncall.js'
import { EscalationStore, JobLeases } from './escalations.js'
import { HeartbeatStore } from './heartbeats.js'
import { PlanStore } from './plans.js'
import { createRedisClient, isCluster, type RedisClient, type RedisSettings } from './client.js'
import type { RedisContext } from './redis-state.js'
import { defineScripts } from './scripts.js'
import { SegmentStore } from './segments.js'
import { TenancyStore } from './tenancy.js'
import { Transactions } from './transactions.js'

export {
  connectClient,
  createRedisClient,
  duplicateClient,
  isCluster,
  masters,
  type RedisClient,
  type RedisSettings,
} from './client.js'

export interface RedisStores {
  readonly redis: RedisClient
  /** Accounts, workspaces, environments, traffic types, API keys, the demo account. */
  readonly tenancy: TenancyStore
  readonly segments: SegmentStore
  readonly identities: IdentityStore
  /** Service accounts, personal access tokens, flags, settings. */
  readonly platform: PlatformStore
  /** Users and groups (the SCIM resources), with their indexes and memberships. */
  readonly directory: DirectoryStore
  readonly integrations: IntegrationStore
  /** Alerts as incidents: their records, lists, acknowledge and resolve. */
  readonly alerts: AlertStore
  /** Incidents: groups of alerts, their lists, acknowledge and resolve. */
  readonly incidents: IncidentStore
  /** Alert rules and maintenance windows, per account. */
  readonly rulesAndWindows: RulesAndWindowsStore
  /** Metric definitions of experiment results, per workspace, with their audit log. */
  readonly metrics: MetricStore
  /** Notification destinations, routes and deliveries, per account. */
  readonly notify: NotifyStore
  /** Flags' analysis settings, the workspaces' experiment defaults, the checks role's state. */
  readonly experiments: ExperimentStore
  /** Erasure jobs (a person's events and impressions deleted), their queue and the daily retention slot. */
  readonly erasures: ErasureStore
  /** Replays of refused records (published again through Kafka), queued with the erasures. */
  readonly replays: ReplayStore
  /** Tracking plans, per environment, with their versions and their log of changes. */
  readonly plans: PlanStore
  /** The freshness canary's runs and times. */
  readonly freshness: FreshnessStore
  /** On-call schedules and their calendar feeds, escalation policies, responders' contact methods, per account. */
  readonly oncall: OnCallStore
  /** Running escalations: their states and due steps. */
  readonly escalations: EscalationStore
  /** Which process runs each exclusive background job. */
  readonly jobLeases: JobLeases
  /** Integrations expected to receive payloads every interval. */
  readonly heartbeats: HeartbeatStore
  /** Closes the transactions' connection, and the main one when the factory created it. */
  close(): Promise<void>
}

/**
 * The stores of the settings' key prefix, on `client` when given (the caller closes it), else on a
 * client of their own that close() quits. Transactions run on a connection of their own and wait at
 * most twice the command deadline in line.
 */
export function createRedisState(settings: RedisSettings, client?: RedisClient): RedisStores {
  const redis = client ?? createRedisClient(settings)
  const tx = new Transactions(redis, (settings.commandTimeoutMs ?? 5000) * 2)
  const context: RedisContext = {
    redis,
    prefix: settings.keyPrefix,
    cluster: isCluster(settings),
    tx,
    scripts: defineScripts(redis),
    accountBytes: settings.accountBytes ?? 32 * 1024 * 1024,
  }
  const notify = new NotifyStore(context)
  return {
    redis,
    tenancy: new TenancyStore(context),
    segments: new SegmentStore(context),
    identities: new IdentityStore(context),
    platform: new PlatformStore(context),
    directory: new DirectoryStore(context),
    integrations: new IntegrationStore(context),
    alerts: new AlertStore(context),
    incidents: new IncidentStore(context),
    rulesAndWindows: new RulesAndWindowsStore(context),
    metrics: new MetricStore(context),
    notify,
    experiments: new ExperimentStore(context),
    erasures: new DataJobStore(context, 'erasures'),
    replays: new DataJobStore(context, 'replays'),
    plans: new PlanStore(context),
    freshness: new FreshnessStore(context),
    oncall: new OnCallStore(context),
    escalations: new EscalationStore(context, notify),
    jobLeases: new JobLeases(context),
    heartbeats: new HeartbeatStore(context),
    close: async () => {
      await tx.close()
      if (!client) await redis.quit().catch(() => redis.disconnect())
    },
  }
}
