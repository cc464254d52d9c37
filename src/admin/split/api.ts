// The Split Admin API v2 under /internal/api/v2, as Split's own clients call it: admin API keys
// (`Authorization: Bearer` or `x-api-key`), a rate limit per key, Split's error body
// {code, message, details, transactionId}, and success always 200 with a JSON body.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { HttpError, prepareError } from '../../http/errors.js'
import { parseJsonBody } from '../../http/json-body.js'
import type { RateLimit, RateLimiter } from '../../state/redis/rate-limits.js'
import { SegmentService } from '../../services/segments.js'
import type { RedisStores } from '../../state/redis/index.js'
import { identityRoutes } from './identities.route.js'
import { segmentRoutes } from './segments.route.js'
import { KeyScope, useScopedAdminKey } from '../admin-key.js'
import { workspaceRoutes } from './workspaces.route.js'

export interface SplitApiOptions {
  readonly apiKeys: ApiKeyCache
  readonly state: RedisStores
  /** Requests per admin API key, shared by every process through Redis. */
  readonly rateLimiter: RateLimiter
  readonly rateLimit: RateLimit
}

export const SPLIT_API_PREFIX = '/internal/api/v2'

export async function splitApi(app: FastifyInstance, opts: SplitApiOptions): Promise<void> {
  const scope = new KeyScope(opts.state.tenancy)

  app.setErrorHandler(splitErrorHandler)
  app.setNotFoundHandler(() => {
    throw new HttpError('NOT_FOUND', 'no such route in the Split Admin API v2')
  })
  // Split's Python client sends DELETE with a JSON content type and no body: no body is no input.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((typeof body === 'string' ? body : body.toString('utf8')).trim() === '') done(null, undefined)
    else parseJsonBody(request, body, done)
  })
  // Key files: one key per line (segments upload routes read the raw text).
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string' }, (_request, body, done) =>
    done(null, String(body)),
  )

  useScopedAdminKey(app, opts, ' (SDK keys are not accepted here)')

  await app.register(workspaceRoutes, { scope, store: opts.state.tenancy })
  await app.register(segmentRoutes, { scope, segments: new SegmentService(opts.state.tenancy, opts.state.segments) })
  await app.register(identityRoutes, { scope, store: opts.state.tenancy, identities: opts.state.identities })
}

/** Split's error body: {code, message, details, transactionId}, code being the HTTP status. */
export function splitErrorHandler(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): void {
  const http = prepareError(error, request, reply)
  void reply
    .code(http.statusCode)
    .send({ code: http.statusCode, message: http.message, details: http.details ?? null, transactionId: request.id })
}
