// The roles a process can run, and what each declares: the services it needs (only those are
// connected, migrated and asked by /readyz), what it prepares before the process listens, its HTTP
// routes, and its consumer. `sluice serve` with no --roles runs them all.
import type { FastifyInstance } from 'fastify'
import { registerAdminRoutes, registerEdgeRoutes } from './http-routes.js'
import { groupIds } from '../broker/topics.js'
import type { Consumer, ConsumerHealth, ConsumerOptions } from '../broker/ports.js'
import { AlertsConsumer, IntegrationCache } from '../consumers/alerts.consumer.js'
import { EventsConsumer } from '../consumers/events.consumer.js'
import type { Container, Service } from './container.js'

export const ROLES = ['edge', 'admin', 'events', 'alerts'] as const
export type Role = (typeof ROLES)[number]

export interface RoleSpec {
  readonly needs: readonly Service[]
  /** Before the process listens: caches loaded, the spool opened. */
  readonly prepare?: (c: Container) => Promise<void>
  readonly routes?: (app: FastifyInstance, c: Container, shared: SharedHttp) => Promise<void>
  readonly consumer?: (c: Container) => Omit<ConsumerOptions, 'onFatal'>
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
      if (hashed > 0) c.log.info({ integrations: hashed }, 'webhook addresses stored in plain text by an earlier version now kept only as hashes')
      await c.apiKeys.start()
      await c.webhookRoutes.start()
    },
    routes: registerEdgeRoutes,
  },
  // Split Admin API v2, integrations, account settings and SCIM: all state is in Redis.
  admin: {
    needs: ['redis'],
    prepare: (c) => c.apiKeys.start(),
    routes: registerAdminRoutes,
  },
  events: {
    needs: ['kafka', 'clickhouse'],
    consumer: (c) => {
      const events = new EventsConsumer(c.eventSink, c.metrics, c.log.child({ component: 'events-consumer' }))
      return { groupId: groupIds(c.config).events, topic: c.topics.events, handler: events.handle, onRebalance: events.reset }
    },
  },
  alerts: {
    needs: ['kafka', 'redis'],
    consumer: (c) => {
      const alerts = new AlertsConsumer(new IntegrationCache(c.state.integrations, c.config.webhooks.integrationRefreshMs), c.alertSink, c.metrics, c.log.child({ component: 'alerts-consumer' }))
      return { groupId: groupIds(c.config).alerts, topic: c.topics.alerts, handler: alerts.handle }
    },
  },
}

/** The services the roles need together. */
export function needsOf(roles: readonly Role[]): Service[] {
  return [...new Set(roles.flatMap((r) => ROLE_SPECS[r].needs))]
}

/** Starts the consumer of each role that has one, into `started` (so a failure can stop those already running). */
export async function startConsumers(container: Container, roles: readonly Role[], started: Record<string, Consumer>, onFatal: (err: unknown) => void): Promise<void> {
  for (const role of roles) {
    const options = ROLE_SPECS[role].consumer?.(container)
    if (!options) continue
    const consumer = container.broker.createConsumer({ ...options, onFatal })
    started[role] = consumer
    await consumer.start()
  }
}

/** Each consumer finishes its batch in progress, commits and leaves its group. */
export async function stopConsumers(consumers: Readonly<Record<string, Consumer>>): Promise<void> {
  for (const c of Object.values(consumers)) await c.stop()
}

/** Each running consumer's health, by role (for readiness). */
export function healthOf(consumers: Readonly<Record<string, Consumer>>): Record<string, ConsumerHealth> {
  return Object.fromEntries(Object.entries(consumers).map(([role, c]) => [role, c.health()]))
}
