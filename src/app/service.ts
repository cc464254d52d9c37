// Starts the roles asked for in one process and stops them in order:
// stop accepting (503) → HTTP drains → consumers finish their batch and commit → producer flushes →
// ClickHouse and Redis close. When the process both serves HTTP and consumes, the consumers run in a
// thread of their own (consumer-thread.ts) unless SLUICE_CONSUMER_THREAD is off.
import type { Consumer } from '../broker/ports.js'
import type { Config } from '../config/index.js'
import { buildHttpHost, registeredRoutes } from '../http/server.js'
import type { Logger } from '../shared/logger.js'
import { ConsumerThread } from './consumer-thread.js'
import { Container } from './container.js'
import { ADMIN_ERROR_HANDLERS } from './http-routes.js'
import { checkReadiness } from './readiness.js'
import { healthOf, needsOf, ROLE_SPECS, startConsumers, stopConsumers, type Role } from './roles.js'

export { ROLES, type Role } from './roles.js'

export interface RunningService {
  readonly url: string
  readonly container: Container
  /** The routes this process serves (method, URL, whether GET /openapi.json lists it). */
  readonly routes: ReturnType<typeof registeredRoutes>
  stop(): Promise<void>
}

/** onFatal: a consumer stopped for good; the process should shut down and exit non-zero. */
export async function startService(
  config: Config,
  roles: readonly Role[],
  log: Logger,
  onFatal: (err: unknown) => void = () => undefined,
): Promise<RunningService> {
  const consuming = roles.filter((r) => ROLE_SPECS[r].consumers)
  const threaded = config.consumerThread && consuming.length > 0 && roles.some((r) => ROLE_SPECS[r].routes)
  const inProcess = threaded ? roles.filter((r) => !consuming.includes(r)) : roles
  const container = new Container(config, log, needsOf(inProcess))
  let draining = false
  let thread: ConsumerThread | undefined
  const consumers: Record<string, Consumer> = {}
  const isDraining = () => draining
  const app = buildHttpHost({
    http: config.http,
    log,
    metrics: container.metrics,
    isDraining,
    readiness: () => checkReadiness(container, healthOf(consumers), threaded ? consumerThreadChecks() : {}),
    scrape: () => thread?.scrape(container.metrics) ?? container.metrics.registry.metrics(),
    apiErrorHandlers: roles.includes('admin') ? ADMIN_ERROR_HANDLERS : [],
    checkAnswers: config.http.checkAnswers,
  })
  const consumerThreadChecks = async () => (thread ? thread.checks() : { 'consumer-thread': 'starting' })
  let url: string
  try {
    await container.prepare()
    const shared = { isDraining, edgeInProcess: roles.includes('edge') }
    for (const role of inProcess) await ROLE_SPECS[role].prepare?.(container)
    for (const role of inProcess) await ROLE_SPECS[role].routes?.(app, container, shared)
    // Listen before consuming: a taken port stops the process before it joins the consumer group.
    url = await app.listen({ host: config.http.host, port: config.http.port })
    if (threaded) thread = await ConsumerThread.start(config, consuming, onFatal)
    else await startConsumers(container, roles, consumers, onFatal)
  } catch (err) {
    await app.close().catch(() => undefined)
    await stopConsumers(consumers).catch(() => undefined)
    await container.close().catch(() => undefined)
    throw err
  }
  log.info({ url, roles, ...(threaded ? { consumerThread: consuming } : {}) }, 'sluice is serving')

  return {
    url,
    container,
    routes: registeredRoutes(app),
    stop: async () => {
      draining = true
      log.info('shutting down: no new requests')
      await app.close()
      try {
        await thread?.stop()
        await stopConsumers(consumers)
      } finally {
        // The producer flushes and the spool closes even if the consumers could not stop cleanly.
        await container.close()
      }
      log.info('shutdown complete')
    },
  }
}
