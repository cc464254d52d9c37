// SCIM 2.0 Users under /gateway/ng/api/scim/account/<account>, authenticated with a JWT (endpoint 14):
// list (filter, startIndex, count), get, create, replace, patch, delete, and the discovery
// resources. Answers application/scim+json; takes application/scim+json or application/json.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Metrics } from '../../shared/metrics.js'
import { ScimAuthError, type ScimAuthenticator } from '../../auth/scim-jwt.js'
import { HttpError, prepareError } from '../../http/errors.js'
import { parseJsonBody } from '../../http/json-body.js'
import type { AccessStore, ServiceAccount, User as StoredUser } from '../../state/redis/access.js'
import { Type, type TSchema } from 'typebox'
import { AccountParams, answer, Discovery, ListQuery, listOf, PatchBody, scimAnswers, User, UserBody, UserParams } from './schemas.js'
import { userFilter } from './scim/filter.js'
import { applyPatch } from './scim/patch.js'
import { ERROR_SCHEMA, LIST_SCHEMA, listParams, MAX_PAGE, parseUser, ScimError, USER_SCHEMA, userView, type UserInput } from './scim/user.js'

export interface ScimRoutesOptions {
  readonly access: AccessStore
  readonly auth: ScimAuthenticator
  readonly metrics: Metrics
  readonly maxUsersPerAccount: number
}

export const SCIM_PREFIX = '/gateway/ng/api/scim/account/:account'
const SCIM_TYPE = 'application/scim+json; charset=utf-8'
const BODY_LIMIT = 64 * 1024

declare module 'fastify' {
  interface FastifyRequest {
    scimActor?: ServiceAccount
  }
}

type Params = { Params: { account: string } }
type UserIdParams = { Params: { account: string; id: string } }

export async function scimRoutes(app: FastifyInstance, opts: ScimRoutesOptions): Promise<void> {
  const { access } = opts
  app.setErrorHandler(scimErrorHandler)
  app.setNotFoundHandler((request, reply) => {
    request.errorCode = 'NOT_FOUND'
    return sendError(reply, 404, undefined, 'no such SCIM resource')
  })
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(['application/json', 'application/scim+json'], { parseAs: 'string', bodyLimit: BODY_LIMIT }, parseJsonBody)
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
      void reply.header('www-authenticate', `Bearer realm="sluice-scim"${err.status === 401 ? ', error="invalid_token"' : ', error="insufficient_scope"'}`)
      return sendError(reply, err.status, undefined, err.status === 401 ? 'authentication failed' : 'the service account may not manage users')
    }
  })

  const base = (request: FastifyRequest<Params>) => `${request.protocol}://${request.host}/gateway/ng/api/scim/account/${request.params.account}`
  const found = async (request: FastifyRequest<UserIdParams>): Promise<StoredUser> => {
    const user = await access.user(request.params.account, request.params.id)
    if (!user) throw new ScimError(404, undefined, `User ${request.params.id} not found`)
    return user
  }
  /** Writes a change based on what was read, retrying when another write came in between. */
  const write = async (request: FastifyRequest<UserIdParams>, change: (current: StoredUser) => UserInput): Promise<StoredUser> => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await found(request)
      const { outcome, user } = await access.replaceUser(request.params.account, current, change(current))
      if (outcome === 'ok') return user
      if (outcome === 'conflict') throw new ScimError(409, 'uniqueness', 'userName is already taken')
      if (outcome === 'missing') throw new ScimError(404, undefined, `User ${request.params.id} not found`)
    }
    throw new ScimError(409, undefined, 'the user kept changing; retry')
  }

  const tags = ['scim']
  const security = [{ scimJwt: [] }]
  const user = { tags, security, params: UserParams }
  app.get<Params>(
    '/Users',
    {
      schema: {
        tags,
        security,
        summary: 'List users: filter, startIndex, count',
        params: AccountParams,
        querystring: ListQuery,
        response: scimAnswers({ 200: answer('A ListResponse of users', listOf(User)) }),
      },
    },
    async (request) => {
      const q = request.query as Record<string, unknown>
      const { startIndex, count } = listParams(q)
      if (q['filter'] !== undefined && typeof q['filter'] !== 'string') throw new ScimError(400, 'invalidFilter', 'give one filter parameter')
      const matches = (await access.users(request.params.account)).filter(userFilter(q['filter']))
      const page = matches.slice(startIndex - 1, startIndex - 1 + count)
      return { schemas: [LIST_SCHEMA], totalResults: matches.length, Resources: page.map((u) => userView(u, base(request))), startIndex, itemsPerPage: page.length }
    },
  )

  app.get<UserIdParams>('/Users/:id', { schema: { ...user, summary: 'One user', response: scimAnswers({ 200: answer('The user', User) }, [404]) } }, async (request) =>
    userView(await found(request), base(request)),
  )

  app.post<Params>(
    '/Users',
    { schema: { tags, security, summary: 'Create a user', params: AccountParams, body: UserBody, response: scimAnswers({ 201: answer('The user', User) }, [409]) } },
    async (request, reply) => {
      const input = parseUser(request.body)
      if ((await access.userCount(request.params.account)) >= opts.maxUsersPerAccount) throw new ScimError(400, 'tooMany', `an account holds at most ${opts.maxUsersPerAccount} users`)
      const { outcome, user } = await access.createUser(request.params.account, input)
      if (outcome !== 'ok') throw new ScimError(409, 'uniqueness', `userName ${input.userName} is already taken`)
      request.log.info({ accountId: request.params.account, userId: user.id, actor: request.scimActor?.id }, 'SCIM user created')
      return reply
        .code(201)
        .header('location', `${base(request)}/Users/${user.id}`)
        .send(userView(user, base(request)))
    },
  )

  app.put<UserIdParams>('/Users/:id', { schema: { ...user, summary: 'Replace a user', body: UserBody, response: scimAnswers({ 200: answer('The user', User) }, [404, 409]) } }, async (request) => {
    const input = parseUser(request.body)
    const user = await write(request, () => input)
    request.log.info({ accountId: request.params.account, userId: user.id, actor: request.scimActor?.id }, 'SCIM user replaced')
    return userView(user, base(request))
  })

  app.patch<UserIdParams>(
    '/Users/:id',
    { schema: { ...user, summary: 'Change a user with a PatchOp (add, replace, remove)', body: PatchBody, response: scimAnswers({ 200: answer('The user', User) }, [404, 409]) } },
    async (request) => {
      const user = await write(request, (current) => applyPatch(current, request.body))
      request.log.info({ accountId: request.params.account, userId: user.id, actor: request.scimActor?.id, active: user.active }, 'SCIM user patched')
      return userView(user, base(request))
    },
  )

  app.delete<UserIdParams>('/Users/:id', { schema: { ...user, summary: 'Delete a user', response: scimAnswers({ 204: answer('Deleted', Type.Null()) }, [404]) } }, async (request, reply) => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = await access.deleteUser(request.params.account, await found(request))
      if (outcome === 'missing') break
      if (outcome === 'ok') {
        request.log.info({ accountId: request.params.account, userId: request.params.id, actor: request.scimActor?.id }, 'SCIM user deleted')
        return reply.code(204).send()
      }
    }
    throw new ScimError(404, undefined, `User ${request.params.id} not found`)
  })

  // Discovery (RFC 7644 section 4).
  const discovery = (summary: string, params: TSchema = AccountParams, errors: number[] = []) => ({
    schema: { tags, security, summary, params, response: scimAnswers({ 200: answer(summary, Discovery) }, errors) },
  })
  app.get<Params>('/ServiceProviderConfig', discovery('What this SCIM server supports'), async (request) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'JWT bearer token', description: "A JWT verified against the account's configured JWKS", primary: true }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base(request)}/ServiceProviderConfig` },
  }))
  const resourceType = (request: FastifyRequest<Params>) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    schema: USER_SCHEMA,
    meta: { resourceType: 'ResourceType', location: `${base(request)}/ResourceTypes/User` },
  })
  app.get<Params>('/ResourceTypes', discovery('The resource types'), async (request) => ({
    schemas: [LIST_SCHEMA],
    totalResults: 1,
    Resources: [resourceType(request)],
    startIndex: 1,
    itemsPerPage: 1,
  }))
  app.get<UserIdParams>('/ResourceTypes/:id', discovery('One resource type', UserParams, [404]), async (request) => {
    if (request.params.id !== 'User') throw new ScimError(404, undefined, `ResourceType ${request.params.id} not found`)
    return resourceType(request)
  })
  app.get<Params>('/Schemas', discovery('The schemas of the resources'), async (request) => ({
    schemas: [LIST_SCHEMA],
    totalResults: 1,
    Resources: [userSchema(base(request))],
    startIndex: 1,
    itemsPerPage: 1,
  }))
  app.get<UserIdParams>('/Schemas/:id', discovery('One schema', UserParams, [404]), async (request) => {
    if (request.params.id !== USER_SCHEMA) throw new ScimError(404, undefined, `Schema ${request.params.id} not found`)
    return userSchema(base(request))
  })
}

function userSchema(base: string) {
  const attr = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    type: 'string',
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...extra,
  })
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: USER_SCHEMA,
    name: 'User',
    description: 'User Account',
    attributes: [
      attr('userName', { required: true, uniqueness: 'server' }),
      attr('externalId', { caseExact: true }),
      { ...attr('name', { type: 'complex' }), subAttributes: [attr('givenName'), attr('familyName'), attr('formatted')] },
      attr('displayName'),
      { ...attr('emails', { type: 'complex', multiValued: true }), subAttributes: [attr('value'), attr('type'), attr('primary', { type: 'boolean' })] },
      attr('active', { type: 'boolean' }),
    ],
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${USER_SCHEMA}` },
  }
}

function sendError(reply: FastifyReply, status: number, scimType: string | undefined, detail: string): FastifyReply {
  return reply.code(status).send({ schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail })
}

export function scimErrorHandler(error: FastifyError | HttpError | ScimError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof ScimError) {
    void sendError(reply, error.status, error.scimType, error.message)
    return
  }
  const http = prepareError(error, request, reply)
  // A refused field is an invalid value (a filter, an invalid filter); a body that cannot be read is invalid syntax.
  const scimType = http.statusCode !== 400 ? undefined : http.details?.some((d) => d.field === 'filter') ? 'invalidFilter' : http.details?.length ? 'invalidValue' : 'invalidSyntax'
  void sendError(reply, http.statusCode, scimType, http.message)
}
