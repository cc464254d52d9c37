// SCIM 2.0 under /gateway/ng/api/scim/account/<account>, authenticated with a JWT (endpoint 14):
// Users and Groups (list with filter, startIndex, count, attributes and excludedAttributes; get,
// create, replace, patch, delete; POST .search at the root and per resource type), versions as
// ETags with If-Match, and the discovery resources (GET only: other methods answer 405). Answers
// application/scim+json; takes application/scim+json or application/json.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { ScimAuthError, type ScimAuthenticator } from '../../auth/scim-jwt.js'
import { HttpError, prepareError } from '../../http/errors.js'
import { parseJsonBody } from '../../http/json-body.js'
import { DirectoryService, type GroupWithMembers } from '../../services/directory.js'
import type { Refusal } from '../../shared/errors.js'
import type { Metrics } from '../../shared/metrics.js'
import type { ServiceAccount } from '../../state/redis/platform.js'
import type { DirectoryStore, User } from '../../state/redis/directory.js'
import { projector, type Projection } from './scim/attributes.js'
import {
  RESOURCE_TYPE_IDS,
  resourceType,
  schema,
  SCHEMA_IDS,
  serviceProviderConfig,
  type ResourceTypeId,
} from './scim/discovery.js'
import { ERROR_SCHEMA, LIST_SCHEMA, ScimError, SEARCH_SCHEMA } from './scim/errors.js'
import { resourceFilter, type ResourceKind } from './scim/filter.js'
import { groupView, parseGroup } from './scim/group.js'
import { applyGroupPatch, applyPatch } from './scim/patch.js'
import { listParams, parseUser, userView } from './scim/user.js'
import {
  AccountParams,
  answer,
  Discovery,
  GroupBody,
  GroupResource,
  ListQuery,
  listOf,
  PatchBody,
  scimAnswers,
  SearchBody,
  User as UserSchema,
  UserBody,
  UserParams,
} from './schemas.js'

export interface ScimRoutesOptions {
  readonly directory: DirectoryStore
  readonly auth: ScimAuthenticator
  readonly metrics: Metrics
  readonly maxUsersPerAccount: number
}

export const SCIM_PREFIX = '/gateway/ng/api/scim/account/:account'
const SCIM_TYPE = 'application/scim+json; charset=utf-8'
const BODY_LIMIT = 1024 * 1024

declare module 'fastify' {
  interface FastifyRequest {
    scimActor?: ServiceAccount
  }
}

type Params = { Params: { account: string } }
type IdParams = { Params: { account: string; id: string } }
type ListRequest = {
  startIndex?: string
  count?: string
  filter?: string
  attributes?: string
  excludedAttributes?: string
}

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

  const base = (request: FastifyRequest<Params>) =>
    `${request.protocol}://${request.host}/gateway/ng/api/scim/account/${request.params.account}`
  const ifMatch = (request: FastifyRequest) =>
    typeof request.headers['if-match'] === 'string' ? request.headers['if-match'] : undefined
  /** Answers one resource with its version as ETag. */
  const one = <T extends { meta: { version: string } }>(
    reply: FastifyReply,
    view: T,
    projection: Projection = {},
    status = 200,
  ) => reply.code(status).header('etag', view.meta.version).send(projector(projection)(view))

  const userViews = async (request: FastifyRequest<Params>, users: readonly User[]) => {
    const groups = await directory.groupsOfUsers(
      request.params.account,
      users.map((u) => u.id),
    )
    return users.map((u) => userView(u, base(request), groups.get(u.id)))
  }
  const groupViews = async (
    request: FastifyRequest<Params>,
    groups: readonly GroupWithMembers[],
    projection: Projection,
  ) => {
    // Members are read only when the answer holds them (Okta lists groups with excludedAttributes=members).
    const withMembers = projector(projection)({ members: true, id: '' }).members !== undefined
    return Promise.all(
      groups.map(async (g) =>
        groupView(g, base(request), withMembers ? await directory.members(request.params.account, g.id) : undefined),
      ),
    )
  }

  /** A list or search of one resource type: filter, page, projection. */
  const list = async (request: FastifyRequest<Params>, kind: ResourceKind, q: ListRequest) => {
    const { startIndex, count } = listParams(q)
    const filter = resourceFilter(q.filter, kind)
    const query = { test: filter.test, plan: filter.plan, startIndex, count }
    const page =
      kind === 'User'
        ? await directory.listUsers(request.params.account, query)
        : await directory.listGroups(request.params.account, query, filter.needsMembers)
    const views =
      kind === 'User'
        ? await userViews(request, page.resources as User[])
        : await groupViews(request, page.resources as GroupWithMembers[], q)
    const project = projector(q)
    return {
      schemas: [LIST_SCHEMA],
      totalResults: page.total,
      Resources: views.map((v) => project(v)),
      startIndex,
      itemsPerPage: views.length,
    }
  }

  const tags = ['scim']
  const security = [{ scimJwt: [] }]
  const byId = { tags, security, params: UserParams }
  const created = (kind: 'Users' | 'Groups', request: FastifyRequest<Params>, id: string) =>
    `${base(request)}/${kind}/${id}`

  // ---- Users ----
  app.get<Params & { Querystring: ListRequest }>(
    '/Users',
    {
      schema: {
        tags,
        security,
        summary: 'List users: filter, startIndex, count, attributes, excludedAttributes',
        params: AccountParams,
        querystring: ListQuery,
        response: scimAnswers({ 200: answer('A ListResponse of users', listOf(UserSchema)) }),
      },
    },
    async (request) => list(request, 'User', request.query),
  )
  app.post<Params>(
    '/Users/.search',
    {
      schema: {
        tags,
        security,
        summary: 'Search users (a SearchRequest)',
        params: AccountParams,
        body: SearchBody,
        response: scimAnswers({ 200: answer('A ListResponse of users', listOf(UserSchema)) }),
      },
    },
    async (request) => list(request, 'User', searchRequest(request.body)),
  )
  app.get<IdParams & { Querystring: Projection }>(
    '/Users/:id',
    {
      schema: {
        ...byId,
        summary: 'One user',
        querystring: ListQuery,
        response: scimAnswers({ 200: answer('The user', UserSchema) }, [404]),
      },
    },
    async (request, reply) => {
      const [view] = await userViews(request, [await directory.user(request.params.account, request.params.id)])
      return one(reply, view!, request.query)
    },
  )
  app.post<Params>(
    '/Users',
    {
      schema: {
        tags,
        security,
        summary: 'Create a user',
        params: AccountParams,
        body: UserBody,
        response: scimAnswers({ 201: answer('The user', UserSchema) }, [409]),
      },
    },
    async (request, reply) => {
      const user = await directory.createUser(request.params.account, parseUser(request.body))
      request.log.info(
        { accountId: request.params.account, userId: user.id, actor: request.scimActor?.id },
        'SCIM user created',
      )
      return one(reply.header('location', created('Users', request, user.id)), userView(user, base(request)), {}, 201)
    },
  )
  app.put<IdParams>(
    '/Users/:id',
    {
      schema: {
        ...byId,
        summary: 'Replace a user',
        body: UserBody,
        response: scimAnswers({ 200: answer('The user', UserSchema) }, [404, 409, 412]),
      },
    },
    async (request, reply) => {
      const input = parseUser(request.body)
      const user = await directory.changeUser(request.params.account, request.params.id, () => input, ifMatch(request))
      request.log.info(
        { accountId: request.params.account, userId: user.id, actor: request.scimActor?.id },
        'SCIM user replaced',
      )
      return one(reply, (await userViews(request, [user]))[0]!)
    },
  )
  app.patch<IdParams>(
    '/Users/:id',
    {
      schema: {
        ...byId,
        summary: 'Change a user with a PatchOp (add, replace, remove)',
        body: PatchBody,
        response: scimAnswers({ 200: answer('The user', UserSchema) }, [404, 409, 412]),
      },
    },
    async (request, reply) => {
      const user = await directory.changeUser(
        request.params.account,
        request.params.id,
        (current) => applyPatch(current, request.body),
        ifMatch(request),
      )
      request.log.info(
        { accountId: request.params.account, userId: user.id, actor: request.scimActor?.id, active: user.active },
        'SCIM user patched',
      )
      return one(reply, (await userViews(request, [user]))[0]!)
    },
  )
  app.delete<IdParams>(
    '/Users/:id',
    {
      schema: {
        ...byId,
        summary: 'Delete a user (and its memberships)',
        response: scimAnswers({ 204: answer('Deleted', Type.Null()) }, [404, 412]),
      },
    },
    async (request, reply) => {
      await directory.deleteUser(request.params.account, request.params.id, ifMatch(request))
      request.log.info(
        { accountId: request.params.account, userId: request.params.id, actor: request.scimActor?.id },
        'SCIM user deleted',
      )
      return reply.code(204).send()
    },
  )

  // ---- Groups ----
  app.get<Params & { Querystring: ListRequest }>(
    '/Groups',
    {
      schema: {
        tags,
        security,
        summary:
          'List groups: filter (displayName eq, members[value eq]), startIndex, count, attributes, excludedAttributes',
        params: AccountParams,
        querystring: ListQuery,
        response: scimAnswers({ 200: answer('A ListResponse of groups', listOf(GroupResource)) }),
      },
    },
    async (request) => list(request, 'Group', request.query),
  )
  app.post<Params>(
    '/Groups/.search',
    {
      schema: {
        tags,
        security,
        summary: 'Search groups (a SearchRequest)',
        params: AccountParams,
        body: SearchBody,
        response: scimAnswers({ 200: answer('A ListResponse of groups', listOf(GroupResource)) }),
      },
    },
    async (request) => list(request, 'Group', searchRequest(request.body)),
  )
  app.get<IdParams & { Querystring: Projection }>(
    '/Groups/:id',
    {
      schema: {
        ...byId,
        summary: 'One group',
        querystring: ListQuery,
        response: scimAnswers({ 200: answer('The group', GroupResource) }, [404]),
      },
    },
    async (request, reply) => {
      const [view] = await groupViews(
        request,
        [await directory.group(request.params.account, request.params.id)],
        request.query,
      )
      return one(reply, view!, request.query)
    },
  )
  app.post<Params>(
    '/Groups',
    {
      schema: {
        tags,
        security,
        summary: 'Create a group with its members',
        params: AccountParams,
        body: GroupBody,
        response: scimAnswers({ 201: answer('The group', GroupResource) }, [409]),
      },
    },
    async (request, reply) => {
      const { input, members } = parseGroup(request.body)
      const group = await directory.createGroup(request.params.account, input, members ?? [])
      request.log.info(
        {
          accountId: request.params.account,
          groupId: group.id,
          members: members?.length ?? 0,
          actor: request.scimActor?.id,
        },
        'SCIM group created',
      )
      return one(
        reply.header('location', created('Groups', request, group.id)),
        (await groupViews(request, [group], {}))[0]!,
        {},
        201,
      )
    },
  )
  app.put<IdParams>(
    '/Groups/:id',
    {
      schema: {
        ...byId,
        summary: 'Replace a group and its members',
        body: GroupBody,
        response: scimAnswers({ 200: answer('The group', GroupResource) }, [404, 409, 412]),
      },
    },
    async (request, reply) => {
      const { input, members } = parseGroup(request.body)
      const group = await directory.changeGroup(
        request.params.account,
        request.params.id,
        () => ({ input, members: members ?? [] }),
        ifMatch(request),
      )
      request.log.info(
        { accountId: request.params.account, groupId: group.id, actor: request.scimActor?.id },
        'SCIM group replaced',
      )
      return one(reply, (await groupViews(request, [group], {}))[0]!)
    },
  )
  app.patch<IdParams>(
    '/Groups/:id',
    {
      schema: {
        ...byId,
        summary: 'Change a group with a PatchOp: members add and remove, displayName',
        body: PatchBody,
        response: scimAnswers({ 200: answer('The group', GroupResource) }, [404, 409, 412]),
      },
    },
    async (request, reply) => {
      const group = await directory.changeGroup(
        request.params.account,
        request.params.id,
        (current, members) => applyGroupPatch(current, members, request.body),
        ifMatch(request),
      )
      request.log.info(
        { accountId: request.params.account, groupId: group.id, actor: request.scimActor?.id },
        'SCIM group patched',
      )
      return one(reply, (await groupViews(request, [group], {}))[0]!)
    },
  )
  app.delete<IdParams>(
    '/Groups/:id',
    {
      schema: {
        ...byId,
        summary: 'Delete a group (its members stay)',
        response: scimAnswers({ 204: answer('Deleted', Type.Null()) }, [404, 412]),
      },
    },
    async (request, reply) => {
      await directory.deleteGroup(request.params.account, request.params.id, ifMatch(request))
      request.log.info(
        { accountId: request.params.account, groupId: request.params.id, actor: request.scimActor?.id },
        'SCIM group deleted',
      )
      return reply.code(204).send()
    },
  )

  // ---- Search at the root: users, then groups ----
  app.post<Params>(
    '/.search',
    {
      schema: {
        tags,
        security,
        summary: 'Search users and groups (a SearchRequest)',
        params: AccountParams,
        body: SearchBody,
        response: scimAnswers({ 200: answer('A ListResponse', listOf(Type.Union([UserSchema, GroupResource]))) }),
      },
    },
    async (request) => {
      const q = searchRequest(request.body)
      const { startIndex, count } = listParams(q)
      // Each type is asked for the part of the page that falls in it.
      const users = await list(request, 'User', { ...q, startIndex: String(startIndex), count: String(count) })
      const groupStart = Math.max(1, startIndex - users.totalResults)
      const groups = await list(request, 'Group', {
        ...q,
        startIndex: String(groupStart),
        count: String(count - users.Resources.length),
      })
      const resources = [...users.Resources, ...groups.Resources]
      return {
        schemas: [LIST_SCHEMA],
        totalResults: users.totalResults + groups.totalResults,
        Resources: resources,
        startIndex,
        itemsPerPage: resources.length,
      }
    },
  )

  // ---- Discovery (RFC 7644 4): GET only ----
  const discovery = (summary: string, params: TSchema = AccountParams, errors: number[] = []) => ({
    schema: { tags, security, summary, params, response: scimAnswers({ 200: answer(summary, Discovery) }, errors) },
  })
  const notAllowed = async (request: FastifyRequest, reply: FastifyReply) => {
    request.errorCode = 'METHOD_NOT_ALLOWED'
    return sendError(
      reply.header('allow', 'GET'),
      405,
      undefined,
      `${request.method} is not allowed here: discovery resources are read-only`,
    )
  }
  const readOnly = (url: string, params: TSchema) => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      // Not operations of the API: left out of its description.
      app.route({ method, url, schema: { hide: true, params }, handler: notAllowed })
    }
  }
  app.get<Params>('/ServiceProviderConfig', discovery('What this SCIM server supports'), async (request) =>
    serviceProviderConfig(base(request)),
  )
  app.get<Params>('/ResourceTypes', discovery('The resource types'), async (request) =>
    discoveryList(RESOURCE_TYPE_IDS.map((id) => resourceType(id, base(request)))),
  )
  app.get<IdParams>('/ResourceTypes/:id', discovery('One resource type', UserParams, [404]), async (request) => {
    if (!(RESOURCE_TYPE_IDS as string[]).includes(request.params.id))
      throw new ScimError(404, undefined, `ResourceType ${request.params.id} not found`)
    return resourceType(request.params.id as ResourceTypeId, base(request))
  })
  app.get<Params>('/Schemas', discovery('The schemas of the resources'), async (request) =>
    discoveryList(SCHEMA_IDS.map((id) => schema(id, base(request))!)),
  )
  app.get<IdParams>('/Schemas/:id', discovery('One schema', UserParams, [404]), async (request) => {
    const found = schema(request.params.id, base(request))
    if (!found) throw new ScimError(404, undefined, `Schema ${request.params.id} not found`)
    return found
  })
  for (const url of ['/ServiceProviderConfig', '/ResourceTypes', '/Schemas']) readOnly(url, AccountParams)
  for (const url of ['/ResourceTypes/:id', '/Schemas/:id']) readOnly(url, UserParams)
}

function discoveryList(resources: readonly object[]) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: resources.length,
    Resources: resources,
    startIndex: 1,
    itemsPerPage: resources.length,
  }
}

/** A SearchRequest (RFC 7644 3.4.3) as the list parameters (attribute lists may be arrays). */
function searchRequest(body: unknown): ListRequest {
  const b = (body ?? {}) as Record<string, unknown>
  if (Array.isArray(b['schemas']) && !b['schemas'].includes(SEARCH_SCHEMA))
    throw new ScimError(400, 'invalidValue', `schemas must hold ${SEARCH_SCHEMA}`)
  const list = (v: unknown, field: string): string | undefined => {
    if (v === undefined || v === null) return undefined
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(',')
    if (typeof v === 'string') return v
    throw new ScimError(400, 'invalidValue', `${field} must be a list of attribute names`)
  }
  const int = (v: unknown, field: string): string | undefined => {
    if (v === undefined || v === null) return undefined
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw new ScimError(400, 'invalidValue', `${field} must be an integer`)
    return String(v)
  }
  if (b['filter'] !== undefined && typeof b['filter'] !== 'string')
    throw new ScimError(400, 'invalidFilter', 'filter must be a string')
  return {
    filter: b['filter'],
    startIndex: int(b['startIndex'], 'startIndex'),
    count: int(b['count'], 'count'),
    attributes: list(b['attributes'], 'attributes'),
    excludedAttributes: list(b['excludedAttributes'], 'excludedAttributes'),
  }
}

function sendError(reply: FastifyReply, status: number, scimType: string | undefined, detail: string): FastifyReply {
  return reply
    .code(status)
    .send({ schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail })
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
