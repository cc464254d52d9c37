// The live tail as server-sent events: GET /api/v1/environments/<env>/tail (events, impressions and refused records
// as the consumers read them, filtered by event type, key or flag) and GET /api/v1/integrations/<id>/tail (webhook
// payloads). Admin keys only, scoped as every Data Hub route; an SDK key is a 401. Each message is a TailMessage
// (`data:` lines); `event: cut` says why the server ended the stream (a reader too slow). Viewers are capped per
// process (429).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { HttpError } from '../../http/errors.js'
import type { TailFilter, TailHub } from '../../services/tail.js'
import type { RateLimit, RateLimiter } from '../../state/redis/rate-limits.js'
import type { TenancyStore } from '../../state/redis/tenancy.js'
import { KeyScope, useScopedAdminKey } from '../admin-key.js'
import { analysisAnswers, EnvParams } from '../experiments/schemas.js'
import { ADMIN_SECURITY } from '../split/schemas.js'

export interface TailRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly store: TenancyStore
  readonly hub: TailHub
  /** Throws a 404 refusal when the integration is not the account's. */
  readonly integration: (accountId: string, id: string) => Promise<unknown>
  /** Bytes a viewer may have waiting to be sent before it is cut off. */
  readonly maxBufferBytes: number
  readonly rateLimiter: RateLimiter
  readonly rateLimit: RateLimit
}

const filterText = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 250, description }))
const TailQuery = Type.Object(
  {
    eventType: filterText('only events of this type'),
    key: filterText('only records of this key'),
    flag: filterText('only impressions of this flag'),
  },
  { additionalProperties: false },
)
const stream = {
  description:
    'Server-sent events: each `data:` line a JSON {rate, records}: one in `rate` of the records was kept (sampled under load); `event: cut` ends a stream whose reader fell behind',
  content: { 'text/event-stream': { schema: Type.String() } },
}
const PING_MS = 15_000

export async function tailRoutes(server: FastifyInstance, opts: TailRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const scope = new KeyScope(opts.store)
  useScopedAdminKey(app, opts)

  /** Streams the scope's records to the caller until it goes away or is cut off. */
  const serve = async (request: FastifyRequest, reply: FastifyReply, tailScope: string, filter: TailFilter) => {
    const res = reply.raw
    const viewing: { removal?: () => Promise<void>; ping?: NodeJS.Timeout } = {}
    const end = () => {
      clearInterval(viewing.ping)
      void viewing.removal?.()
    }
    viewing.removal = await opts.hub.add({
      scope: tailScope,
      filter,
      send: (message) => {
        if (res.writableLength > opts.maxBufferBytes) return false
        res.write(`data: ${JSON.stringify(message)}\n\n`)
        return true
      },
      cut: (reason) => {
        res.end(`event: cut\ndata: ${JSON.stringify({ reason })}\n\n`)
        end()
      },
    })
    if (!viewing.removal)
      throw new HttpError('RATE_LIMITED', 'this server has its most live tail viewers already (SLUICE_TAIL_VIEWERS)')
    reply.hijack()
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    })
    res.write(`event: ready\ndata: ${JSON.stringify({ scope: tailScope, filter })}\n\n`)
    viewing.ping = setInterval(() => res.write(': ping\n\n'), PING_MS).unref()
    request.raw.once('close', end)
    res.once('close', end)
    request.log.info({ scope: tailScope }, 'live tail viewer connected')
  }

  app.get(
    '/api/v1/environments/:env/tail',
    {
      schema: {
        tags: ['data hub'],
        security: ADMIN_SECURITY,
        summary:
          "The environment's events, impressions and refused records as the consumers read them (server-sent events), sampled under load",
        params: EnvParams,
        querystring: TailQuery,
        response: analysisAnswers({ 200: stream }),
      },
    },
    async (request, reply) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      await serve(request, reply, `env:${env.id}`, request.query)
      return reply
    },
  )

  app.get(
    '/api/v1/integrations/:id/tail',
    {
      schema: {
        tags: ['data hub'],
        security: ADMIN_SECURITY,
        summary:
          "The integration's webhook payloads as the alerts consumer reads them, with the alerts made or why refused (server-sent events)",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: analysisAnswers({ 200: stream }),
      },
    },
    async (request, reply) => {
      await opts.integration(request.admin!.accountId, request.params.id)
      await serve(request, reply, `integration:${request.params.id}`, {})
      return reply
    },
  )
}
