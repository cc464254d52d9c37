// What the SCIM routes share (scim.route.ts registers them): the directory service, the resources'
// URLs, versions as ETags, their views with group memberships, lists and searches of one resource
// type, and the SCIM error body.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { DirectoryService, type GroupWithMembers } from '../../../services/directory.js'
import type { User } from '../../../state/redis/directory.js'
import { projector, type Projection } from './attributes.js'
import { ERROR_SCHEMA, LIST_SCHEMA, ScimError, SEARCH_SCHEMA } from './errors.js'
import { resourceFilter, type ResourceKind } from './filter.js'
import { groupView } from './group.js'
import { listParams, userView } from './user.js'
import { UserParams } from '../schemas.js'

/** What every SCIM answer is. */
export const SCIM_TYPE = 'application/scim+json; charset=utf-8'

export type Params = { Params: { account: string } }
export type IdParams = { Params: { account: string; id: string } }
export type ListRequest = {
  startIndex?: string
  count?: string
  filter?: string
  attributes?: string
  excludedAttributes?: string
}

/** What the SCIM routes of every resource share: the directory, URLs, versions, views and lists. */
export type ScimContext = ReturnType<typeof scimContext>

export function scimContext(directory: DirectoryService) {
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

  return { directory, base, ifMatch, one, userViews, groupViews, list, tags, security, byId, created }
}

export function discoveryList(resources: readonly object[]) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: resources.length,
    Resources: resources,
    startIndex: 1,
    itemsPerPage: resources.length,
  }
}

/** A SearchRequest (RFC 7644 3.4.3) as the list parameters (attribute lists may be arrays). */
export function searchRequest(body: unknown): ListRequest {
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

export function sendError(
  reply: FastifyReply,
  status: number,
  scimType: string | undefined,
  detail: string,
): FastifyReply {
  // The type is set here too: a router error (a URL too long) is answered before the routes' own hooks run.
  return reply
    .code(status)
    .header('content-type', SCIM_TYPE)
    .send({ schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail })
}
