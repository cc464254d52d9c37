// POST /api/events/bulk and POST /api/events/beacon. The edge checks the envelope only (a JSON array
// of objects within the limits, nesting, numbers a double can hold), writes the records to Kafka and
// answers 202 once Kafka has them, or the edge's disk spool when Kafka is slow or down. Field validation happens in the events consumer, record by record:
// a lone surrogate in one record rejects that record there, never the whole body (SDKs never resend).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isSdkPrincipal, presentedKey, type ApiKeyCache, type SdkPrincipal } from '../auth/api-keys.js'
import type { Metrics } from '../shared/metrics.js'
import type { Intake } from './spool/intake.js'
import { encodeEventMessages, RecordTooLargeError } from '../broker/messages/events.js'
import { acceptOr503 } from './accept.js'
import { BeaconBody, eventAnswers, EventsBody } from './schemas.js'
import { HttpError } from '../http/errors.js'
import { jsonBodyParser } from '../http/json-body.js'
import { TokenBuckets } from '../http/rate-limit.js'
import type { RateLimit } from '../state/redis/rate-limits.js'

export interface EventRoutesOptions {
  readonly intake: Intake
  readonly apiKeys: ApiKeyCache
  readonly metrics: Metrics
  readonly topic: string
  readonly maxBodyBytes: number
  readonly beaconMaxBodyBytes: number
  readonly maxRecords: number
  /** Requests per SDK key, in this process (client-side keys are public; kept off Redis on the hot path). */
  readonly rateLimit: RateLimit
  readonly messageMaxBytes: number
  readonly isDraining: () => boolean
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: SdkPrincipal
  }
}

const UNAUTHORIZED = 'missing or unknown SDK key: send Authorization: Bearer <server-side or client-side SDK key>'

export async function eventRoutes(server: FastifyInstance, opts: EventRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  app.decorateRequest('principal', undefined)
  // Lone surrogates pass here and are rejected per record by the consumer (see above).
  const parseRecords = jsonBodyParser({ allowLoneSurrogates: true })
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseRecords)
  const buckets = new TokenBuckets(opts.rateLimit)

  const authenticate = async (key: string | undefined, reply: FastifyReply): Promise<SdkPrincipal> => {
    const principal = key ? await opts.apiKeys.lookup(key) : undefined
    if (!isSdkPrincipal(principal)) throw new HttpError('UNAUTHORIZED', UNAUTHORIZED)
    const { wait } = buckets.take(principal.id)
    if (wait > 0) {
      void reply.header('retry-after', String(wait))
      throw new HttpError('RATE_LIMITED', `rate limit of ${opts.rateLimit.ratePerSecond} requests per second for this SDK key exceeded; retry after ${wait} s`)
    }
    return principal
  }

  /** text: the records' JSON array as sent (the bulk body), published as is when it fits one message. */
  const ingest = async (request: FastifyRequest, reply: FastifyReply, principal: SdkPrincipal, records: readonly object[], sdkHeader: unknown, text?: string) => {
    if (opts.isDraining()) throw new HttpError('UNAVAILABLE', 'server is shutting down; retry on another instance')
    if (records.length > opts.maxRecords) {
      throw new HttpError('PAYLOAD_TOO_LARGE', `${records.length} records is above the limit of ${opts.maxRecords} per request`, undefined, 'records')
    }
    if (records.length === 0) return reply.code(202).send({ requestId: request.id, accepted: 0 })

    const meta = {
      environmentId: principal.environmentId,
      accountId: principal.accountId,
      receivedAtMs: Date.now(),
      sdkVersion: sanitizeHeader(sdkHeader),
      requestId: request.id,
    }
    const bodyBytes = Number(request.headers['content-length']) || opts.maxBodyBytes
    let messages
    try {
      messages = encodeEventMessages(records, bodyBytes, meta, opts.messageMaxBytes, text)
    } catch (err) {
      if (err instanceof RecordTooLargeError) throw new HttpError('PAYLOAD_TOO_LARGE', err.message, undefined, 'record_bytes')
      throw err
    }
    const end = opts.metrics.publishSeconds.startTimer()
    const { spooled } = await acceptOr503(opts.intake, opts.topic, messages, request, 'events')
    end()
    opts.metrics.eventsAccepted.inc(records.length)
    request.log.info({ environmentId: principal.environmentId, records: records.length, messages: messages.length, ...(spooled ? { spooled } : {}) }, 'events accepted')
    return reply.code(202).send({ requestId: request.id, accepted: records.length, ...(spooled ? { spooled } : {}) })
  }

  // application/json only: any other Content-Type is 415 (the root registers no other parser).
  const tags = ['events']
  app.post('/api/events/bulk', {
    bodyLimit: opts.maxBodyBytes,
    schema: { tags, summary: 'Import events: a JSON array of records, answered 202 once Kafka holds them', security: [{ sdkKey: [] }], body: EventsBody, response: eventAnswers },
    // Authenticate before the body is read and parsed: an unknown key costs no parsing.
    onRequest: async (request, reply) => {
      request.principal = await authenticate(presentedKey(request.headers, false), reply)
    },
    handler: async (request, reply) => ingest(request, reply, request.principal!, request.body, request.headers['splitsdkversion'], request.jsonText),
  })

  // The browser SDK's beacon (navigator.sendBeacon) is text/plain JSON with the key inside the body,
  // so the body is read before the key is known: it is kept small (browsers cap a beacon at 64 KiB).
  await app.register(async (beacon) => {
    beacon.addContentTypeParser('text/plain', { parseAs: 'string' }, parseRecords)
    beacon.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/events/beacon',
      {
        bodyLimit: opts.beaconMaxBodyBytes,
        schema: { tags, summary: "The browser SDK's beacon (text/plain JSON with the key inside)", body: BeaconBody, response: eventAnswers },
      },
      async (request, reply) => {
        const principal = await authenticate(request.body.token, reply)
        return ingest(request, reply, principal, request.body.entries, request.body.sdk)
      },
    )
  })
}

/** SDK version as stored: printable ASCII, at most 64 characters. */
function sanitizeHeader(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[^\x20-\x7e]/g, '').slice(0, 64) : ''
}
