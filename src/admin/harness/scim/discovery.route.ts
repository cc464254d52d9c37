// SCIM at the root of an account: the search of users and groups together, and the discovery
// resources (RFC 7644 4: GET only, other methods answer 405).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type TSchema } from 'typebox'
import {
  RESOURCE_TYPE_IDS,
  resourceType,
  schema,
  SCHEMA_IDS,
  serviceProviderConfig,
  type ResourceTypeId,
} from './discovery.js'
import { LIST_SCHEMA, ScimError } from './errors.js'
import { listParams } from './user.js'
import {
  AccountParams,
  answer,
  Discovery,
  GroupResource,
  listOf,
  scimAnswers,
  SearchBody,
  User as UserSchema,
  UserParams,
} from '../schemas.js'
import { searchRequest, sendError, discoveryList, type IdParams, type Params, type ScimContext } from './resources.js'

export function rootRoutes(app: FastifyInstance, ctx: ScimContext): void {
  const { base, list, tags, security } = ctx
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
