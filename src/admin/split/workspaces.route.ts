// Workspaces (endpoint 1), environments (4) and traffic types of a workspace, as the key may see them.
import type { FastifyInstance } from 'fastify'
import type { Store } from '../../state/redis/store.js'
import { paging, type AdminAccess } from './access.js'

export async function workspaceRoutes(app: FastifyInstance, opts: { access: AdminAccess; store: Store }): Promise<void> {
  const { access, store } = opts

  app.get('/workspaces', async (request) => {
    const p = access.require(request, 'read')
    const { offset, limit } = paging(request.query)
    const all = await store.listWorkspaces(p.accountId, p.workspaceIds)
    return {
      objects: all.slice(offset, offset + limit).map((ws) => ({ name: ws.name, type: 'workspace', id: ws.id, requiresTitleAndComments: ws.requiresTitleAndComments })),
      offset,
      limit,
      totalCount: all.length,
    }
  })

  app.get<{ Params: { ws: string } }>('/environments/ws/:ws', async (request) => {
    const ws = await access.workspace(request, request.params.ws, 'read')
    const envs = await store.environments(ws.id)
    return envs.filter((e) => access.mayUseEnvironment(request, e.id)).map((e) => ({ name: e.name, id: e.id, production: e.production }))
  })

  app.get<{ Params: { ws: string } }>('/trafficTypes/ws/:ws', async (request) => {
    const ws = await access.workspace(request, request.params.ws, 'read')
    return (await store.trafficTypes(ws.id)).map((t) => ({ id: t.id, name: t.name, displayAttributeId: null }))
  })
}
