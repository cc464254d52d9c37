// The roles a process can run, and what each declares: the services it needs (only those are
// connected, migrated and asked by /readyz), what it prepares before the process listens, its HTTP
// routes, and its consumer. `sluice serve` with no --roles runs them all.
import type { FastifyInstance } from 'fastify'
import { registerAdminRoutes, registerEdgeRoutes } from './http-routes.js'
import { groupIds } from '../broker/topics.js'
import type { Consumer, ConsumerHealth, ConsumerOptions } from '../broker/ports.js'
import { AlertsConsumer, integrationCache, rulesAndWindowsCache } from '../consumers/alerts.consumer.js'
import { ClickHouseConsumer } from '../consumers/clickhouse.consumer.js'
import { eventsCodec } from '../consumers/events.consumer.js'
import { PlanBook } from '../consumers/plan-book.js'
import { IMPRESSIONS_CODEC } from '../consumers/impressions.consumer.js'
import type { Container, Service } from './container.js'

export const ROLES = ['edge', 'admin', 'events', 'alerts', 'notify', 'checks'] as const
export type Role = (typeof ROLES)[number]

export interface RoleSpec {
  readonly needs: readonly Service[]
  /** Before the process listens: caches loaded, the spool opened. */
  readonly prepare?: (c: Container) => Promise<void>
  readonly routes?: (app: FastifyInstance, c: Container, shared: SharedHttp) => Promise<void>
  /** Its consumers, by name (readiness reports each as `<name>-consumer`). */
  readonly consumers?: (c: Container) => Readonly<Record<string, Omit<ConsumerOptions, 'onFatal'>>>
}

/** What routes of different roles in one process share. */
export interface SharedHttp {
  readonly isDraining: () => boolean
  /** Whether this process also runs the edge (its webhook routes reload at once after a change). */
  readonly edgeInProcess: boolean
}

export const ROLE_SPECS: Readonly<Record<Role, RoleSpec>> = {
  // Events, beacon and webhooks: Kafka holds what it accepts; Redis holds the keys and addresses.
  edge: {
    needs: ['kafka', 'redis'],
    prepare: async (c) => {
      await c.intake.open()
      const hashed = await c.state.integrations.hashStoredAddresses()
      if (hashed > 0)
        c.log.info(
          { integrations: hashed },
          'webhook addresses stored in plain text by an earlier version now kept only as hashes',
        )
      await c.apiKeys.start()
      await c.webhookAddresses.start()
    },
    routes: registerEdgeRoutes,
  },
  // Split Admin API v2, integrations, account settings and SCIM: all state is in Redis.
  admin: {
    needs: ['redis'],
    prepare: (c) => c.apiKeys.start(),
    routes: registerAdminRoutes,
  },
  // The ClickHouse writers: events (checked against their environment's tracking plan, from Redis), and the SDKs'
  // impressions, counts, unique keys and telemetry.
  events: {
    needs: ['kafka', 'clickhouse', 'redis'],
    prepare: async (c) => c.tailFeed?.start(),
    consumers: (c) => {
      const counted = ({ rows, rejections }: { rows: number; rejections: number }) => {
        c.metrics.eventsInserted.inc(rows)
        c.metrics.eventsRejected.inc(rejections)
      }
      const log = c.log.child({ component: 'events-consumer' })
      const plans = new PlanBook(c.state.plans, c.config.webhooks.integrationRefreshMs, log)
      const events = new ClickHouseConsumer(eventsCodec(plans), c.tableSink, c.metrics, log, counted, c.tailFeed)
      const impressions = new ClickHouseConsumer(
        IMPRESSIONS_CODEC,
        c.tableSink,
        c.metrics,
        c.log.child({ component: 'impressions-consumer' }),
        undefined,
        c.tailFeed,
      )
      const groups = groupIds(c.config)
      return {
        events: { groupId: groups.events, topic: c.topics.events, handler: events.handle, onRebalance: events.reset },
        impressions: {
          groupId: groups.impressions,
          topic: c.topics.impressions,
          handler: impressions.handle,
          onRebalance: impressions.reset,
        },
      }
    },
  },
  alerts: {
    needs: ['kafka', 'redis'],
    prepare: async (c) => {
      c.alertsJobs.start()
      c.tailFeed?.start()
    },
    consumers: (c) => {
      const log = c.log.child({ component: 'alerts-consumer' })
      const alerts = new AlertsConsumer(
        integrationCache(c.state.integrations, c.config.webhooks.integrationRefreshMs),
        rulesAndWindowsCache(c.state.rulesAndWindows, c.config.webhooks.integrationRefreshMs, log),
        c.alertSink,
        c.metrics,
        log,
        c.tailFeed,
        c.config.webhooks.rulesBudgetMs,
      )
      return { alerts: { groupId: groupIds(c.config).alerts, topic: c.topics.alerts, handler: alerts.handle } }
    },
  },
  // Notifications: a consumer group on the alert streams (Redis), delivering to each account's destinations.
  notify: {
    needs: ['redis'],
    prepare: async (c) => {
      c.notifyConsumer.start()
      c.notifyJobs.start()
    },
  },
  // Scheduled jobs: experiment checks (failing guardrails and sample ratio mismatches of running experiments, raised
  // as alerts), erasures, retention deletes on ClickHouse servers without TTLs, and the freshness canary.
  checks: {
    needs: ['kafka', 'clickhouse', 'redis'],
    prepare: async (c) => {
      c.checksJobs.start()
    },
  },
}

/** The services the roles need together. */
export function needsOf(roles: readonly Role[]): Service[] {
  return [...new Set(roles.flatMap((r) => ROLE_SPECS[r].needs))]
}

/** Starts the consumers of the roles, into `started` by name (so a failure can stop those already running). */
export async function startConsumers(
  container: Container,
  roles: readonly Role[],
  started: Record<string, Consumer>,
  onFatal: (err: unknown) => void,
): Promise<void> {
  for (const role of roles) {
    for (const [name, options] of Object.entries(ROLE_SPECS[role].consumers?.(container) ?? {})) {
      const consumer = container.broker.createConsumer({ ...options, onFatal })
      started[name] = consumer
      await consumer.start()
    }
  }
}

/** Each consumer finishes its batch in progress, commits and leaves its group. */
export async function stopConsumers(consumers: Readonly<Record<string, Consumer>>): Promise<void> {
  for (const c of Object.values(consumers)) await c.stop()
}

/** Each running consumer's health, by name (for readiness). */
export function healthOf(consumers: Readonly<Record<string, Consumer>>): Record<string, ConsumerHealth> {
  return Object.fromEntries(Object.entries(consumers).map(([role, c]) => [role, c.health()]))
}
