// Starts the roles asked for in one process and stops them in order:
// stop accepting (503) → HTTP drains → consumers finish their batch and commit → producer flushes →
// ClickHouse and Redis close.
import { groupIds } from '../broker/topics.js'
import type { Consumer } from '../broker/ports.js'
import type { Config } from '../config/index.js'
import { AlertsConsumer, IntegrationCache } from '../consumers/alerts.consumer.js'
import { EventsConsumer } from '../consumers/events.consumer.js'
import { buildServer } from '../edge/server.js'
import { closeDeps, createDeps, prepareDeps, type Deps, type Service } from './deps.js'
import type { Logger } from './logger.js'

export const ROLES = ['edge', 'events', 'alerts'] as const
export type Role = (typeof ROLES)[number]

/**
 * What each role talks to. A process connects to, migrates and reports on only what its roles need:
 * an edge takes data while ClickHouse is down (Kafka holds it), a consumer runs without the edge's Redis.
 */
export const ROLE_NEEDS: Readonly<Record<Role, readonly Service[]>> = {
  edge: ['kafka', 'redis'],
  events: ['kafka', 'clickhouse'],
  alerts: ['kafka', 'redis'],
}

export interface RunningService {
  readonly url: string
  readonly deps: Deps
  stop(): Promise<void>
}

/** onFatal: a consumer stopped for good; the process should shut down and exit non-zero. */
export async function startService(config: Config, roles: readonly Role[], log: Logger, onFatal: (err: unknown) => void = () => undefined): Promise<RunningService> {
  const deps = createDeps(config, log, [...new Set(roles.flatMap((r) => ROLE_NEEDS[r]))])
  let draining = false
  const consumers: Consumer[] = []
  const health: Record<string, Consumer> = {}
  const app = await buildServer(deps, {
    edge: roles.includes('edge'),
    isDraining: () => draining,
    consumers: () => Object.fromEntries(Object.entries(health).map(([role, c]) => [role, c.health()])),
  })
  let url: string
  try {
    await prepareDeps(deps)
    if (roles.includes('edge')) {
      await deps.intake.open()
      const hashed = await deps.integrations.hashStoredAddresses()
      if (hashed > 0) log.info({ integrations: hashed }, 'webhook addresses stored in plain text by an earlier version now kept only as hashes')
      await deps.apiKeys.start()
      await deps.webhookRoutes.start()
    }
    // Listen before consuming: a taken port stops the process before it joins the consumer group.
    url = await app.listen({ host: config.http.host, port: config.http.port })
    if (roles.includes('events')) {
      const events = new EventsConsumer(deps.eventSink, deps.metrics, log.child({ component: 'events-consumer' }))
      const consumer = deps.broker.createConsumer({
        groupId: groupIds(config).events,
        topic: deps.topics.events,
        handler: events.handle,
        onRebalance: events.reset,
        onFatal,
      })
      consumers.push(consumer)
      health['events'] = consumer
      await consumer.start()
    }
    if (roles.includes('alerts')) {
      const alerts = new AlertsConsumer(
        new IntegrationCache(deps.integrations, config.webhooks.integrationRefreshMs),
        deps.alertSink,
        deps.metrics,
        log.child({ component: 'alerts-consumer' }),
      )
      const consumer = deps.broker.createConsumer({ groupId: groupIds(config).alerts, topic: deps.topics.alerts, handler: alerts.handle, onFatal })
      consumers.push(consumer)
      health['alerts'] = consumer
      await consumer.start()
    }
  } catch (err) {
    await app.close().catch(() => undefined)
    for (const c of consumers) await c.stop().catch(() => undefined)
    await closeDeps(deps).catch(() => undefined)
    throw err
  }
  log.info({ url, roles }, 'sluice is serving')

  return {
    url,
    deps,
    stop: async () => {
      draining = true
      log.info('shutting down: no new requests')
      await app.close()
      for (const c of consumers) await c.stop()
      await closeDeps(deps)
      log.info('shutdown complete')
    },
  }
}
