// SCIM Users: list, search, get, create, replace, patch and delete, versions as ETags with If-Match.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { type Projection } from './attributes.js'
import { applyPatch } from './patch.js'
import { parseUser, userView } from './user.js'
import {
  AccountParams,
  answer,
  ListQuery,
  listOf,
  PatchBody,
  scimAnswers,
  SearchBody,
  User as UserSchema,
  UserBody,
} from '../schemas.js'
import { searchRequest, type IdParams, type ListRequest, type Params, type ScimContext } from './resources.js'

export function userRoutes(app: FastifyInstance, ctx: ScimContext): void {
  const { directory, base, ifMatch, one, userViews, list, tags, security, byId, created } = ctx
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
}
