// SCIM Groups: list, search, get, create, replace, patch and delete, with their members.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { type Projection } from './attributes.js'
import { parseGroup } from './group.js'
import { applyGroupPatch } from './patch.js'
import {
  AccountParams,
  answer,
  GroupBody,
  GroupResource,
  ListQuery,
  listOf,
  PatchBody,
  scimAnswers,
  SearchBody,
} from '../schemas.js'
import { searchRequest, type IdParams, type ListRequest, type Params, type ScimContext } from './resources.js'

export function groupRoutes(app: FastifyInstance, ctx: ScimContext): void {
  const { directory, ifMatch, one, groupViews, list, tags, security, byId, created } = ctx
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
}
