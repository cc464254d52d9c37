// Entry of the consumer thread (see consumer-thread.ts): a container for the consumer roles'
// services, their consumers, and answers to the main thread's questions.
import { parentPort, workerData } from 'node:worker_threads'
import pino from 'pino'
import type { Consumer } from '../broker/ports.js'
import { createLogger } from '../shared/logger.js'
import { createMetrics } from '../shared/metrics.js'
import { toThreadError, type Notice, type Reply, type Request, type ThreadData } from './consumer-thread.js'
import { Container } from './container.js'
import { threadChecks } from './readiness.js'
import { healthOf, needsOf, ROLE_SPECS, startConsumers, stopConsumers } from './roles.js'

const port = parentPort!
const { config, roles } = workerData as ThreadData
// Synchronous writes: pino flushes an asynchronous destination at exit only in the main thread, so a
// worker's last lines (before a fatal error, say) would be lost when the thread ends.
const log = createLogger(config.logLevel, pino.destination({ dest: 1, sync: true })).child({ thread: 'consumers' })
const container = new Container(config, log, needsOf(roles), createMetrics({ defaults: false }))
const consumers: Record<string, Consumer> = {}
const notify = (notice: Notice) => port.postMessage(notice)

const answers: Record<Request['kind'], () => Promise<unknown>> = {
  checks: () => threadChecks(container, healthOf(consumers)),
  metrics: () => container.metrics.registry.getMetricsAsJSON(),
  stop: async () => {
    await stopConsumers(consumers)
    await container.close()
  },
}
port.on('message', (request: Request) => {
  answers[request.kind]().then(
    (value) => port.postMessage({ id: request.id, value } satisfies Reply),
    (err: unknown) => port.postMessage({ id: request.id, error: toThreadError(err).message } satisfies Reply),
  )
})

try {
  await container.prepare()
  // What the consumer roles prepare (the alerts role's auto-resolve job) runs here, beside their consumers.
  for (const role of roles) await ROLE_SPECS[role].prepare?.(container)
  await startConsumers(container, roles, consumers, (err) => notify({ kind: 'fatal', error: toThreadError(err) }))
  notify({ kind: 'started' })
} catch (err) {
  await stopConsumers(consumers).catch(() => undefined)
  await container.close().catch(() => undefined)
  notify({ kind: 'failed', error: toThreadError(err) })
}
