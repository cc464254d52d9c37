// The live tail as server-sent events: GET /api/v1/environments/<env>/tail (events, impressions and refused records
// as the consumers read them, filtered by event type, key or flag) and GET /api/v1/integrations/<id>/tail (webhook
// payloads). Admin keys only, scoped as every Data Hub route; an SDK key is a 401. Each message is a TailMessage
// (`data:` lines); `event: cut` says why the server ended the stream (a reader too slow). Viewers are capped per
// process (429).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { ServerResponse } from 'node:http'
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
/** A stream ends after this long (the caller connects again, its key checked again). */
const MAX_STREAM_MS = 3600_000

export async function tailRoutes(server: FastifyInstance, opts: TailRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const scope = new KeyScope(opts.store)
  useScopedAdminKey(app, opts)
  // Streams never end by themselves: they are ended, and their connections closed, when the server closes, or closing
  // would wait for them.
  const streams = new Set<ServerResponse>()
  app.addHook('preClose', async () => {
    await opts.hub.close()
    for (const res of streams) res.destroy()
  })

  /**
   * Streams the scope's records to the caller until it goes away, is cut off, or has watched for MAX_STREAM_MS. The
   * stream and its close handling are set up before the viewer is added, so a message that comes at once, or a caller
   * that leaves at once, finds them (a viewer is always removed).
   */
  const serve = async (request: FastifyRequest, reply: FastifyReply, tailScope: string, filter: TailFilter) => {
    if (opts.hub.full)
      throw new HttpError('RATE_LIMITED', 'this server has its most live tail viewers already (SLUICE_TAIL_VIEWERS)')
    const res = reply.raw
    reply.hijack()
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      // A stream's connection ends with it (never kept for another request).
      connection: 'close',
    })
    const viewing: { removal?: () => Promise<void>; closed: boolean } = { closed: false }
    const cut = (reason: string) => {
      if (!res.writableEnded) res.end(`event: cut\ndata: ${JSON.stringify({ reason })}\n\n`)
    }
    const ping = setInterval(() => res.write(': ping\n\n'), PING_MS).unref()
    const lifetime = setTimeout(() => cut('the stream is an hour old: connect again'), MAX_STREAM_MS).unref()
    const end = () => {
      viewing.closed = true
      clearInterval(ping)
      clearTimeout(lifetime)
      void viewing.removal?.()
    }
    streams.add(res)
    res.once('close', () => {
      streams.delete(res)
      end()
    })
    res.write(`event: ready\ndata: ${JSON.stringify({ scope: tailScope, filter })}\n\n`)
    try {
      viewing.removal = await opts.hub.add({
        scope: tailScope,
        filter,
        send: (message) => {
          if (res.writableLength > opts.maxBufferBytes) return false
          res.write(`data: ${JSON.stringify(message)}\n\n`)
          return true
        },
        cut,
      })
    } catch (err) {
      request.log.warn({ err }, 'live tail: could not subscribe')
      return cut('the tail is unavailable (Redis): try again')
    }
    if (!viewing.removal) return cut('this server has its most live tail viewers already (SLUICE_TAIL_VIEWERS)')
    // The caller left while it was being added.
    if (viewing.closed) await viewing.removal()
    else request.log.info({ scope: tailScope }, 'live tail viewer connected')
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
      // As the integrations API (their payloads included): an account-wide admin key of role all.
      const p = scope.principal(request)
      if ((p.role ?? 'all') !== 'all' || p.workspaceIds || p.environmentIds)
        throw new HttpError(
          'FORBIDDEN',
          "an integration's tail needs an account-wide admin key of role all, as the integrations API does",
        )
      await opts.integration(p.accountId, request.params.id)
      await serve(request, reply, `integration:${request.params.id}`, {})
      return reply
    },
  )
}
