// The live tail as server-sent events: GET /api/v1/environments/<env>/tail (events, impressions and refused records
// as the consumers read them, filtered by event type, key or flag) and GET /api/v1/integrations/<id>/tail (webhook
// payloads). Admin keys only, scoped as every Data Hub route; an SDK key is a 401. Each message is a TailMessage
// (`data:` lines); `event: cut` says why the server ended the stream (a reader too slow). Viewers are capped per
// process, per account and per API key (429).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { ServerResponse } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { HttpError } from '../../http/errors.js'
import type { TailFilter, TailHub } from '../../services/tail.js'
import type { Slots } from '../../shared/slots.js'
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
  /** How often an idle stream says it is alive (SLUICE_TAIL_PING_MS). */
  readonly pingMs: number
  /** How long a viewer cut off has to read the cut's message before its connection is destroyed. */
  readonly cutGraceMs: number
  readonly rateLimiter: RateLimiter
  readonly rateLimit: RateLimit
  /** The viewers this process serves at once: in all, per account, per API key. */
  readonly viewers: Slots
}

const VIEWER_LIMITS = {
  total: 'this server has its most live tail viewers already (SLUICE_TAIL_VIEWERS)',
  account: 'this account has its most live tail viewers on this server already (SLUICE_TAIL_VIEWERS_PER_ACCOUNT)',
  key: 'this API key has its most live tail viewers on this server already (SLUICE_TAIL_VIEWERS_PER_KEY)',
} as const

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
/** A stream ends after this long (the caller connects again, its key checked again). */
const MAX_STREAM_MS = 3600_000

export async function tailRoutes(server: FastifyInstance, opts: TailRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const scope = new KeyScope(opts.store)
  useScopedAdminKey(app, opts)
  // Streams never end by themselves: they are ended, and their connections closed, when the server closes, or closing
  // would wait for them.
  const streams = new Set<ServerResponse>()
  // A request still on its way to a stream when the server began closing ends instead of opening one.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
    await opts.hub.close()
    for (const res of streams) res.destroy()
  })

  /**
   * Streams the scope's records to the caller until it goes away, is cut off, or has watched for MAX_STREAM_MS. The
   * stream and its close handling are set up before the viewer is added, so a message that comes at once, or a caller
   * that leaves at once, finds them (a viewer is always removed).
   */
  const serve = async (request: FastifyRequest, reply: FastifyReply, tailScope: string, filter: TailFilter) => {
    if (closing) throw new HttpError('UNAVAILABLE', 'the server is stopping: connect again')
    const principal = scope.principal(request)
    const slot = opts.viewers.take(principal.accountId, principal.id)
    if ('refused' in slot) throw new HttpError('RATE_LIMITED', VIEWER_LIMITS[slot.refused.limit])
    const res = reply.raw
    reply.hijack()
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      // A stream's connection ends with it (never kept for another request).
      connection: 'close',
    })
    // The stream owns its timers: each write checks the stream is still open, and everything stops with it. A reader
    // that does not read cannot be waited for: the cut's last message goes into the buffer, and the connection is
    // destroyed if it is not flushed within cutGraceMs.
    const viewing: { removal?: () => Promise<void>; closed: boolean } = { closed: false }
    const open = () => !res.writableEnded && !res.destroyed
    const write = (text: string) => {
      if (open()) res.write(text)
    }
    let grace: NodeJS.Timeout | undefined
    const cut = (reason: string) => {
      if (!open()) return
      clearInterval(ping)
      clearTimeout(lifetime)
      res.end(`event: cut\ndata: ${JSON.stringify({ reason })}\n\n`)
      grace = setTimeout(() => res.destroy(), opts.cutGraceMs).unref()
    }
    const ping = setInterval(() => write(': ping\n\n'), opts.pingMs).unref()
    const lifetime = setTimeout(() => cut('the stream is an hour old: connect again'), MAX_STREAM_MS).unref()
    const end = () => {
      viewing.closed = true
      clearInterval(ping)
      clearTimeout(lifetime)
      clearTimeout(grace)
      slot.release()
      void viewing.removal?.()
    }
    streams.add(res)
    // A socket error (a reader gone, a write to a destroyed socket) ends the stream; it never reaches the process.
    res.on('error', (err) => request.log.debug({ err }, 'live tail: the connection failed'))
    const closed = () => {
      streams.delete(res)
      end()
    }
    res.once('close', closed)
    // Gone before the listener was there: 'close' has passed.
    if (res.closed) closed()
    write(`event: ready\ndata: ${JSON.stringify({ scope: tailScope, filter })}\n\n`)
    try {
      viewing.removal = await opts.hub.add({
        scope: tailScope,
        filter,
        send: (message) => {
          if (!open() || res.writableLength > opts.maxBufferBytes) return false
          res.write(`data: ${JSON.stringify(message)}\n\n`)
          return true
        },
        cut,
      })
    } catch (err) {
      request.log.warn({ err }, 'live tail: could not subscribe')
      return cut('the tail is unavailable (Redis): try again')
    }
    if (!viewing.removal) return cut(VIEWER_LIMITS.total)
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
