// The HTTP host of every process: Fastify with its limits and timeouts, health, readiness and
// metrics, one log line per request, the JSON body parser, and errors in the body of the API a path
// belongs to. Routes are registered on it by the roles (app/http-routes.ts). Built apart from
// listening, so tests can use inject() or listen on :0.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type {} from '@fastify/swagger'
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify'
import type { Logger } from '../shared/logger.js'
import type { Metrics } from '../shared/metrics.js'
import { errorHandler, HttpError } from './errors.js'
import { parseJsonBody } from './json-body.js'
import { registerOpenApi } from './openapi.js'
import { installSchemaValidation } from './schemas.js'

export type ErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void

export interface Readiness {
  readonly ready: boolean
  readonly degraded: boolean
  readonly checks: Readonly<Record<string, string>>
}

export interface HostOptions {
  readonly http: { readonly requestTimeoutMs: number; readonly idleTimeoutMs: number }
  readonly log: Logger
  readonly metrics: Metrics
  readonly isDraining: () => boolean
  readonly readiness: () => Promise<Readiness>
  /** The text of GET /metrics; by default the registry's. */
  readonly scrape?: () => Promise<string>
  /** The error body of each API by path prefix, for errors met before any route (the router's). */
  readonly apiErrorHandlers?: readonly { readonly prefix: string; readonly handler: ErrorHandler }[]
  /** Development and tests: an answer that does not match its declared schema is a 500. */
  readonly checkAnswers?: boolean
}

export function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address()
  if (address === null || typeof address === 'string') return `http://${address ?? '127.0.0.1'}`
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}`
}

const registered = new WeakMap<FastifyInstance, { method: string; url: string; public: boolean }[]>()

/** Every route registered on the host: method, URL, and whether the API description lists it. */
export function registeredRoutes(app: FastifyInstance): readonly { method: string; url: string; public: boolean }[] {
  return registered.get(app) ?? []
}

/**
 * When the host closes, its connections that never sent a byte are closed at once, and again until the server has
 * closed, instead of waiting for them. Node closes idle keep-alive connections itself, but one that connected and
 * never sent a request (a browser's preconnect, a balancer's pool) counts as a request begun: it would be waited for
 * until the request timeout (60 s), past the shutdown deadline, and the process would exit without stopping cleanly.
 * Requests in progress, and connections that sent part of one, are left to Node.
 */
function closeUnusedConnectionsOnClose(app: FastifyInstance): void {
  // Connections only, not requests: one that sent no byte has no request in progress (nothing is added per request).
  const connections = new Set<Socket>()
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket)
    socket.once('close', () => connections.delete(socket))
  })
  app.addHook('preClose', async () => {
    const sweep = () => {
      for (const socket of connections) if (socket.bytesRead === 0) socket.destroy()
    }
    sweep()
    const timer = setInterval(sweep, 100).unref()
    app.server.once('close', () => clearInterval(timer))
  })
}

export function buildHttpHost(options: HostOptions): FastifyInstance {
  const { http, metrics } = options
  const apiErrorHandler = (url: string): ErrorHandler =>
    options.apiErrorHandlers?.find((h) => url.startsWith(h.prefix))?.handler ?? errorHandler
  // Typed as Fastify's logger, so the instance is FastifyInstance with its default logger type.
  const logger: FastifyBaseLogger = options.log
  const app = Fastify({
    loggerInstance: logger,
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
    requestTimeout: http.requestTimeoutMs,
    connectionTimeout: http.idleTimeoutMs,
    // NOTE: Node honours a request timeout given when its server is created (Fastify sets it after),
    // and checks it every 30 s by default: a slow sender would be left alone.
    http: { requestTimeout: http.requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, http.requestTimeoutMs) },
    // Errors the router meets before any route (a malformed percent-encoding, a parameter over the
    // length limit) get the error body of the API the path belongs to, a request id, a log line and
    // the metric, like every other error, and never echo the URL.
    frameworkErrors: (error, request, reply) => {
      void reply.header('x-request-id', request.id)
      apiErrorHandler(request.url)(error, request, reply)
      metrics.httpErrors.inc({ route: 'unmatched', code: request.errorCode ?? 'BAD_REQUEST', limit: '' })
      request.log.info(
        { method: request.method, route: 'unmatched', statusCode: reply.statusCode, code: request.errorCode },
        'request refused by the router',
      )
    },
  })
  const routes: { method: string; url: string; public: boolean }[] = []
  registered.set(app, routes)
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      routes.push({ method, url: route.url, public: route.schema?.hide !== true })
  })
  closeUnusedConnectionsOnClose(app)
  installSchemaValidation(app, options.checkAnswers)
  registerOpenApi(app)
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
    // A body refused for its size has not been read: answered at once, the sender would still be
    // writing when the connection closes (EPIPE) and never see why. The rest is read and dropped first.
    if (reply.statusCode === 413) await drained(request.raw)
  })
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    metrics.httpRequests.inc({ route, method: request.method, status_code: String(reply.statusCode) })
    if (request.errorCode) metrics.httpErrors.inc({ route, code: request.errorCode, limit: request.errorLimit ?? '' })
    const level = route === '/metrics' || route === '/healthz' || route === '/readyz' ? 'debug' : 'info'
    // An error's own message says what was refused and by which limit (it never holds a secret or the URL).
    const error = request.errorCode
      ? {
          code: request.errorCode,
          reason: request.errorMessage,
          ...(request.errorLimit ? { limit: request.errorLimit } : {}),
        }
      : {}
    request.log[level](
      { method: request.method, route, statusCode: reply.statusCode, ...error, ms: Math.round(reply.elapsedTime) },
      'request completed',
    )
  })

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }))
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (options.isDraining()) return reply.code(503).send({ status: 'draining' })
    const { ready, degraded, checks } = await options.readiness()
    return reply
      .code(ready ? 200 : 503)
      .send({ status: !ready ? 'unavailable' : degraded ? 'degraded' : 'ready', checks })
  })
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    return reply.type(metrics.registry.contentType).send(await (options.scrape?.() ?? metrics.registry.metrics()))
  })
  return app
}

/** The most of a refused body that is read (and dropped) before its 413 is sent, in bytes and time. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024
const DRAIN_MAX_MS = 10_000

/** Reads what is left of a request's body, up to the bounds; resolves once it ended or a bound is reached. */
function drained(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    let bytes = 0
    const done = () => {
      clearTimeout(timer)
      raw.off('data', onData).off('end', done).off('close', done).off('error', done)
      resolve()
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > DRAIN_MAX_BYTES) done()
    }
    const timer = setTimeout(done, DRAIN_MAX_MS)
    raw.on('data', onData).on('end', done).on('close', done).on('error', done)
    raw.resume()
  })
}
