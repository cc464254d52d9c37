// Heartbeats: PUT|DELETE /api/v1/integrations/<id>/heartbeat sets or removes an integration's heartbeat (a payload
// expected every interval, with a grace), GET /api/v1/heartbeats lists them with their last payload and state.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import type { HeartbeatService, HeartbeatView } from '../../services/heartbeats.js'
import { roleAll, useAccountWideAdminKey, type AdminLimits } from '../admin-key.js'
import { alertAnswers, answer } from '../alerts/schemas.js'
import { ADMIN_SECURITY } from '../split/schemas.js'

export interface HeartbeatRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly limits: AdminLimits
  readonly heartbeats: HeartbeatService
}

const HeartbeatBody = Type.Object(
  {
    intervalSeconds: Type.Integer({
      minimum: 10,
      maximum: 86_400,
      description: 'a payload is expected this often (Alertmanager: its repeat_interval for the Watchdog alert)',
    }),
    graceSeconds: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 86_400, description: 'how much later it may come (default 60)' }),
    ),
  },
  { additionalProperties: false },
)

const HeartbeatAnswer = Type.Object({
  integrationId: Type.String(),
  name: Type.String({ description: 'the integration’s' }),
  intervalSeconds: Type.Integer(),
  graceSeconds: Type.Integer(),
  state: Type.Enum(['up', 'down'], { description: 'down: its alert is raised (no payload for interval + grace)' }),
  since: Type.String({ description: 'when it was set or last changed state' }),
  lastPayloadAt: Type.Union([Type.String(), Type.Null()], { description: 'null: none kept (the last week)' }),
})

const iso = (ms: number) => new Date(ms).toISOString()
const view = (h: HeartbeatView) => ({
  integrationId: h.integrationId,
  name: h.name,
  intervalSeconds: Math.round(h.intervalMs / 1000),
  graceSeconds: Math.round(h.graceMs / 1000),
  state: h.state,
  since: iso(h.since),
  lastPayloadAt: h.lastPayloadAt === undefined ? null : iso(h.lastPayloadAt),
})

export async function heartbeatRoutes(server: FastifyInstance, opts: HeartbeatRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  useAccountWideAdminKey(app, opts, 'heartbeats', false)
  const tags = ['on call']
  const params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

  app.get(
    '/api/v1/heartbeats',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "The account's heartbeats, with each integration's last payload",
        response: alertAnswers({
          200: answer('The heartbeats', Type.Object({ heartbeats: Type.Array(HeartbeatAnswer) })),
        }),
      },
    },
    async (request) => ({ heartbeats: (await opts.heartbeats.list(request.admin!.accountId)).map(view) }),
  )

  app.put(
    '/api/v1/integrations/:id/heartbeat',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'Sets an integration’s heartbeat: no payload for the interval and its grace raises an alert, payloads that resume resolve it',
        params,
        body: HeartbeatBody,
        response: alertAnswers({ 200: answer('The heartbeat', HeartbeatAnswer) }, [404, 409]),
      },
    },
    async (request) => {
      roleAll(request, 'setting a heartbeat')
      const { intervalSeconds, graceSeconds = 60 } = request.body
      const saved = await opts.heartbeats.set(
        request.admin!.accountId,
        request.params.id,
        intervalSeconds * 1000,
        graceSeconds * 1000,
      )
      return view(saved)
    },
  )

  app.delete(
    '/api/v1/integrations/:id/heartbeat',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Removes an integration’s heartbeat',
        params,
        response: alertAnswers({ 204: Type.Null({ description: 'Removed' }) }, [404]),
      },
    },
    async (request, reply) => {
      roleAll(request, 'removing a heartbeat')
      await opts.heartbeats.remove(request.admin!.accountId, request.params.id)
      return reply.code(204).send()
    },
  )
}
