// SCIM 2.0 under /gateway/ng/api/scim/account/<account>, authenticated with a JWT:
// Users and Groups (list with filter, startIndex, count, attributes and excludedAttributes; get,
// create, replace, patch, delete; POST .search at the root and per resource type), versions as
// ETags with If-Match, and the discovery resources (GET only: other methods answer 405). Answers
// application/scim+json; takes application/scim+json or application/json.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ScimAuthError, type ScimAuthenticator } from '../../auth/scim-jwt.js'
import { HttpError, prepareError } from '../../http/errors.js'
import { parseJsonBody } from '../../http/json-body.js'
import { DirectoryService } from '../../services/directory.js'
import type { Refusal } from '../../shared/errors.js'
import type { Metrics } from '../../shared/metrics.js'
import type { ServiceAccount } from '../../state/redis/platform.js'
import type { DirectoryStore } from '../../state/redis/directory.js'
import { ScimError } from './scim/errors.js'
import { groupRoutes } from './scim/groups.route.js'
import { rootRoutes } from './scim/discovery.route.js'
import { SCIM_TYPE, scimContext, sendError } from './scim/resources.js'
import { userRoutes } from './scim/users.route.js'

export interface ScimRoutesOptions {
  readonly directory: DirectoryStore
  readonly auth: ScimAuthenticator
  readonly metrics: Metrics
  readonly maxUsersPerAccount: number
}

export const SCIM_PREFIX = '/gateway/ng/api/scim/account/:account'
const BODY_LIMIT = 1024 * 1024

declare module 'fastify' {
  interface FastifyRequest {
    scimActor?: ServiceAccount
  }
}

type Params = { Params: { account: string } }

export async function scimRoutes(app: FastifyInstance, opts: ScimRoutesOptions): Promise<void> {
  const directory = new DirectoryService(opts.directory, opts.maxUsersPerAccount)
  app.setErrorHandler(scimErrorHandler)
  app.setNotFoundHandler((request, reply) => {
    request.errorCode = 'NOT_FOUND'
    return sendError(reply, 404, undefined, 'no such SCIM resource')
  })
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(
    ['application/json', 'application/scim+json'],
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    parseJsonBody,
  )
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.header('content-type', SCIM_TYPE)
    return payload
  })

  app.decorateRequest('scimActor', undefined)
  app.addHook('onRequest', async (request: FastifyRequest<Params>, reply) => {
    try {
      request.scimActor = await opts.auth.authenticate(request.params.account, request.headers.authorization)
    } catch (err) {
      if (!(err instanceof ScimAuthError)) throw err
      opts.metrics.scimAuthFailures.inc({ reason: err.reason })
      request.log.warn({ accountId: request.params.account, reason: err.reason }, 'SCIM call refused')
      void reply.header(
        'www-authenticate',
        `Bearer realm="sluice-scim"${err.status === 401 ? ', error="invalid_token"' : ', error="insufficient_scope"'}`,
      )
      return sendError(
        reply,
        err.status,
        undefined,
        err.status === 401 ? 'authentication failed' : 'the service account may not manage users',
      )
    }
  })
  const ctx = scimContext(directory)
  userRoutes(app, ctx)
  groupRoutes(app, ctx)
  rootRoutes(app, ctx)
}

const SCIM_TYPES: Partial<Record<number, string>> = { 409: 'uniqueness' }

export function scimErrorHandler(
  error: FastifyError | HttpError | ScimError | Refusal,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error instanceof ScimError) {
    request.errorCode = error.status === 404 ? 'NOT_FOUND' : error.status === 409 ? 'CONFLICT' : 'BAD_REQUEST'
    request.errorMessage = error.message
    void sendError(reply, error.status, error.scimType, error.message)
    return
  }
  const http = prepareError(error, request, reply)
  // A refused field is an invalid value (a filter, an invalid filter); a body that cannot be read is invalid syntax.
  const scimType =
    http.statusCode !== 400
      ? SCIM_TYPES[http.statusCode]
      : http.details?.some((d) => d.field === 'filter')
        ? 'invalidFilter'
        : http.details?.length
          ? 'invalidValue'
          : 'invalidSyntax'
  void sendError(reply, http.statusCode, scimType, http.message)
}
