// Starts the roles asked for in one process and stops them in order:
// stop accepting (503) → HTTP drains → consumers finish their batch and commit → producer flushes →
// ClickHouse and Redis close.
import type { Consumer } from '../broker/ports.js'
import type { Config } from '../config/index.js'
import { buildHttpHost, registeredRoutes } from '../http/server.js'
import type { Logger } from '../shared/logger.js'
import { Container } from './container.js'
import { ADMIN_ERROR_HANDLERS } from './http-routes.js'
import { checkReadiness } from './readiness.js'
import { needsOf, ROLE_SPECS, type Role } from './roles.js'

export { ROLES, type Role } from './roles.js'

export interface RunningService {
  readonly url: string
  readonly container: Container
  /** The routes this process serves (method, URL, whether GET /openapi.json lists it). */
  readonly routes: ReturnType<typeof registeredRoutes>
  stop(): Promise<void>
}

/** onFatal: a consumer stopped for good; the process should shut down and exit non-zero. */
export async function startService(config: Config, roles: readonly Role[], log: Logger, onFatal: (err: unknown) => void = () => undefined): Promise<RunningService> {
  const container = new Container(config, log, needsOf(roles))
  let draining = false
  const consumers: Record<string, Consumer> = {}
  const isDraining = () => draining
  const app = buildHttpHost({
    http: config.http,
    log,
    metrics: container.metrics,
    isDraining,
    readiness: () => checkReadiness(container, Object.fromEntries(Object.entries(consumers).map(([role, c]) => [role, c.health()]))),
    apiErrorHandlers: roles.includes('admin') ? ADMIN_ERROR_HANDLERS : [],
    checkAnswers: config.http.checkAnswers,
  })
  let url: string
  try {
    await container.prepare()
    const shared = { isDraining, edgeInProcess: roles.includes('edge') }
    for (const role of roles) await ROLE_SPECS[role].prepare?.(container)
    for (const role of roles) await ROLE_SPECS[role].routes?.(app, container, shared)
    // Listen before consuming: a taken port stops the process before it joins the consumer group.
    url = await app.listen({ host: config.http.host, port: config.http.port })
    for (const role of roles) {
      const options = ROLE_SPECS[role].consumer?.(container)
      if (!options) continue
      const consumer = container.broker.createConsumer({ ...options, onFatal })
      consumers[role] = consumer
      await consumer.start()
    }
  } catch (err) {
    await app.close().catch(() => undefined)
    for (const c of Object.values(consumers)) await c.stop().catch(() => undefined)
    await container.close().catch(() => undefined)
    throw err
  }
  log.info({ url, roles }, 'sluice is serving')

  return {
    url,
    container,
    routes: registeredRoutes(app),
    stop: async () => {
      draining = true
      log.info('shutting down: no new requests')
      await app.close()
      for (const c of Object.values(consumers)) await c.stop()
      await container.close()
      log.info('shutdown complete')
    },
  }
}
