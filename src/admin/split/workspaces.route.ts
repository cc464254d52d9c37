// Workspaces, environments and traffic types of a workspace, as the key may see them.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { TenancyStore } from '../../state/redis/tenancy.js'
import type { KeyScope } from '../admin-key.js'
import {
  answer,
  Environments,
  pagingQuery,
  splitAnswers,
  TrafficTypes,
  WorkspacePage,
  WsParams,
  ADMIN_SECURITY,
} from './schemas.js'

export async function workspaceRoutes(
  server: FastifyInstance,
  opts: { scope: KeyScope; store: TenancyStore },
): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const { scope, store } = opts
  const tags = ['split']

  app.get(
    '/workspaces',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "Workspaces of the key's account (within its scope), paged",
        querystring: pagingQuery(),
        response: splitAnswers({ 200: answer('A page of workspaces', WorkspacePage) }),
      },
    },
    async (request) => {
      const p = scope.require(request, 'read')
      const { offset, limit } = request.query
      const all = await store.listWorkspaces(p.accountId, p.workspaceIds)
      return {
        objects: all.slice(offset, offset + limit).map((ws) => ({
          name: ws.name,
          type: 'workspace' as const,
          id: ws.id,
          requiresTitleAndComments: ws.requiresTitleAndComments,
        })),
        offset,
        limit,
        totalCount: all.length,
      }
    },
  )

  app.get(
    '/environments/ws/:ws',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Environments of a workspace',
        params: WsParams,
        response: splitAnswers({ 200: answer('The environments the key may use', Environments) }, [404]),
      },
    },
    async (request) => {
      const ws = await scope.workspace(request, request.params.ws, 'read')
      const envs = await store.environments(ws.id)
      return envs
        .filter((e) => scope.mayUseEnvironment(request, e.id))
        .map((e) => ({ name: e.name, id: e.id, production: e.production }))
    },
  )

  app.get(
    '/trafficTypes/ws/:ws',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Traffic types of a workspace',
        params: WsParams,
        response: splitAnswers({ 200: answer('The traffic types', TrafficTypes) }, [404]),
      },
    },
    async (request) => {
      const ws = await scope.workspace(request, request.params.ws, 'read')
      return (await store.trafficTypes(ws.id)).map((t) => ({ id: t.id, name: t.name, displayAttributeId: null }))
    },
  )
}
