// The HTTP server of every process: health, readiness and metrics always; the ingest routes when the
// process runs the edge role. Built apart from listening, so tests can use inject() or listen on :0.
import { randomUUID } from 'node:crypto'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { checkReadiness, type Deps } from '../app/deps.js'
import type { ConsumerHealth } from '../broker/ports.js'
import { errorHandler, HttpError } from './errors.js'
import { integrationRoutes } from '../admin/integrations.route.js'
import { SPLIT_API_PREFIX, splitApi, splitErrorHandler } from '../admin/split-api.js'
import { scimErrorHandler, scimRoutes } from '../admin/scim.route.js'
import { harnessErrorHandler, settingsRoutes } from '../admin/settings.route.js'
import { eventRoutes } from './events.route.js'
import { parseJsonBody } from './json-body.js'
import { webhookRoutes } from './webhook.route.js'

export interface ServerOptions {
  readonly edge: boolean
  readonly isDraining: () => boolean
  /** The health of the consumers this process runs, by role (for /readyz). */
  readonly consumers: () => Readonly<Record<string, ConsumerHealth>>
}

type ErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void

/** The error handler of the API a path belongs to (its own error body). */
function apiErrorHandler(url: string): ErrorHandler {
  if (url.startsWith(`${SPLIT_API_PREFIX}/`)) return splitErrorHandler
  if (url.startsWith('/gateway/ng/api/scim/')) return scimErrorHandler
  if (url.startsWith('/gateway/ng/api/')) return harnessErrorHandler
  return errorHandler
}

function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address()
  if (address === null || typeof address === 'string') return `http://${address ?? '127.0.0.1'}`
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}`
}

export async function buildServer(deps: Deps, options: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    // One line per request, written in onResponse below, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Request ids are ours; a client-sent id is not trusted into the logs.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Path parameters hold identity keys of up to 250 characters (Fastify's default is 100).
    routerOptions: { maxParamLength: 300 },
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    // Slow senders (slowloris) are cut off: the whole request within requestTimeout, no idle socket
    // beyond the idle timeout (longer than any answer takes: Kafka's and Redis's deadlines are shorter).
    requestTimeout: deps.config.http.requestTimeoutMs,
    connectionTimeout: deps.config.http.idleTimeoutMs,
    // NOTE: Node honours a request timeout given when its server is created (Fastify sets it after),
    // and checks it every 30 s by default: a slow sender would be left alone.
    http: { requestTimeout: deps.config.http.requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, deps.config.http.requestTimeoutMs) },
    // Errors the router meets before any route (a malformed percent-encoding, a parameter over the
    // length limit) get the error body of the API the path belongs to, a request id, a log line and
    // the metric, like every other error, and never echo the URL.
    frameworkErrors: (error, request, reply) => {
      void reply.header('x-request-id', request.id)
      apiErrorHandler(request.url)(error, request, reply)
      deps.metrics.httpErrors.inc({ route: 'unmatched', code: request.errorCode ?? 'BAD_REQUEST', limit: '' })
      request.log.info({ method: request.method, route: 'unmatched', statusCode: reply.statusCode, code: request.errorCode }, 'request refused by the router')
    },
  })
  app.setErrorHandler(errorHandler)
  // JSON is the only body every route takes; routes that take more (beacon, webhooks, key files) say so.
  app.removeContentTypeParser('text/plain')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody)
  // NOTE: the URL is never echoed: webhook addresses are secrets and URLs end up in client logs.
  app.setNotFoundHandler(() => {
    throw new HttpError('NOT_FOUND', 'no such route')
  })
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id)
  })
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    deps.metrics.httpRequests.inc({ route, method: request.method, status_code: String(reply.statusCode) })
    if (request.errorCode) deps.metrics.httpErrors.inc({ route, code: request.errorCode, limit: request.errorLimit ?? '' })
    const level = route === '/metrics' || route === '/healthz' || route === '/readyz' ? 'debug' : 'info'
    // An error's own message says what was refused and by which limit (it never holds a secret or the URL).
    const error = request.errorCode ? { code: request.errorCode, reason: request.errorMessage, ...(request.errorLimit ? { limit: request.errorLimit } : {}) } : {}
    request.log[level]({ method: request.method, route, statusCode: reply.statusCode, ...error, ms: Math.round(reply.elapsedTime) }, 'request completed')
  })

  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async (_request, reply) => {
    if (options.isDraining()) return reply.code(503).send({ status: 'draining' })
    const { ready, degraded, checks } = await checkReadiness(deps, options.consumers())
    return reply.code(ready ? 200 : 503).send({ status: !ready ? 'unavailable' : degraded ? 'degraded' : 'ready', checks })
  })
  app.get('/metrics', async (_request, reply) => {
    return reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics())
  })

  if (options.edge) {
    await app.register(eventRoutes, {
      intake: deps.intake,
      apiKeys: deps.apiKeys,
      metrics: deps.metrics,
      topic: deps.topics.events,
      maxBodyBytes: deps.config.events.maxBodyBytes,
      beaconMaxBodyBytes: deps.config.events.beaconMaxBodyBytes,
      maxRecords: deps.config.events.maxRecords,
      ratePerSecond: deps.config.events.ratePerSecond,
      burst: deps.config.events.burst,
      messageMaxBytes: deps.config.kafka.messageMaxBytes,
      isDraining: options.isDraining,
    })
    await app.register(webhookRoutes, {
      intake: deps.intake,
      routes: deps.webhookRoutes,
      metrics: deps.metrics,
      topic: deps.topics.alerts,
      maxBodyBytes: deps.config.webhooks.maxBodyBytes,
      messageMaxBytes: deps.config.kafka.messageMaxBytes,
      ratePerSecond: deps.config.webhooks.ratePerSecond,
      burst: deps.config.webhooks.burst,
      isDraining: options.isDraining,
    })
    await app.register(integrationRoutes, {
      apiKeys: deps.apiKeys,
      integrations: deps.integrations,
      alerts: deps.alertSink,
      publicBaseUrl: () => deps.config.publicBaseUrl ?? listeningUrl(app),
      rotationOverlapMs: deps.config.webhooks.rotationOverlapMs,
      onRoutesChanged: () => deps.webhookRoutes.invalidate(),
    })
    await app.register(splitApi, {
      prefix: SPLIT_API_PREFIX,
      apiKeys: deps.apiKeys,
      store: deps.store,
      segments: deps.segments,
      identities: deps.identities,
      ratePerSecond: deps.config.admin.ratePerSecond,
      burst: deps.config.admin.burst,
    })
    const outbound = { allowInsecure: deps.config.scim.allowInsecure, timeoutMs: deps.config.scim.timeoutMs, maxBytes: deps.config.scim.maxBytes }
    await app.register(settingsRoutes, { prefix: '/gateway/ng/api', access: deps.access, delayMs: deps.config.scim.settingsDelayMs, outbound })
    await app.register(scimRoutes, { prefix: '/gateway/ng/api/scim/account/:account', access: deps.access, auth: deps.scimAuth, metrics: deps.metrics, maxUsersPerAccount: 10_000 })
  }
  return app
}
