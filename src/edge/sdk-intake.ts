// What every route of SDK data (events, impressions, counts, unique keys, telemetry) does alike: the
// SDK key (a header, or a beacon's body) within its rate limit, the record-count limit, the Kafka
// messages of the request handed to the intake (Kafka or the disk spool), and the 202 that says so.
// The routes check the envelope only; the consumers check each record.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { isSdkPrincipal, type ApiKeyCache, type SdkPrincipal } from '../auth/api-keys.js'
import { RecordTooLargeError } from '../broker/messages/records.js'
import type { OutboundMessage } from '../broker/ports.js'
import { HttpError } from '../http/errors.js'
import { jsonBodyParser } from '../http/json-body.js'
import { TokenBuckets } from '../http/rate-limit.js'
import type { EnvelopeMeta } from '../pipeline/rows.js'
import type { Metrics } from '../shared/metrics.js'
import type { RateLimit } from '../state/redis/rate-limits.js'
import { acceptOr503 } from './accept.js'
import type { Intake } from './spool/intake.js'

export interface SdkIntakeOptions {
  readonly intake: Intake
  readonly apiKeys: ApiKeyCache
  readonly metrics: Metrics
  readonly maxBodyBytes: number
  readonly beaconMaxBodyBytes: number
  readonly maxRecords: number
  /**
   * Requests per SDK key, in this process, over every SDK route (client-side keys are public; kept off Redis on the hot
   * path).
   */
  readonly rateLimit: RateLimit
  readonly messageMaxBytes: number
  readonly isDraining: () => boolean
}

const UNAUTHORIZED = 'missing or unknown SDK key: send Authorization: Bearer <server-side or client-side SDK key>'

/**
 * The JSON parser of the SDK routes. Lone surrogates pass here and are rejected per record by the
 * consumers (SDKs never resend a batch, so one record must not refuse the others).
 */
export const parseSdkJson = jsonBodyParser({ allowLoneSurrogates: true })

export class SdkIntake {
  private readonly buckets: TokenBuckets

  constructor(readonly opts: SdkIntakeOptions) {
    this.buckets = new TokenBuckets(opts.rateLimit)
  }

  /** The environment of an SDK key, if the key is known and within its rate limit (else 401 or 429). */
  async authenticate(key: string | undefined, reply: FastifyReply): Promise<SdkPrincipal> {
    const principal = key ? await this.opts.apiKeys.lookup(key) : undefined
    if (!isSdkPrincipal(principal)) throw new HttpError('UNAUTHORIZED', UNAUTHORIZED)
    const { wait } = this.buckets.take(principal.id)
    if (wait > 0) {
      void reply.header('retry-after', String(wait))
      throw new HttpError(
        'RATE_LIMITED',
        `rate limit of ${this.opts.rateLimit.ratePerSecond} requests per second for this SDK key exceeded; retry after ${wait} s`,
      )
    }
    return principal
  }

  /** The metadata of a request of this principal, for every message and row of it. */
  meta(request: FastifyRequest, principal: SdkPrincipal, sdkVersion: unknown): EnvelopeMeta {
    return {
      environmentId: principal.environmentId,
      accountId: principal.accountId,
      receivedAtMs: Date.now(),
      sdkVersion: headerText(sdkVersion),
      requestId: request.id,
    }
  }

  /** The length of the body as sent (its first guess of how many messages the records need). */
  bodyBytes(request: FastifyRequest): number {
    return Number(request.headers['content-length']) || this.opts.maxBodyBytes
  }

  /**
   * Refuses `records` over the limit, publishes the request's messages and answers 202 with how
   * many records were accepted.
   */
  async accept(request: FastifyRequest, reply: FastifyReply, accepted: Accepted): Promise<FastifyReply> {
    const { topic, records, what, encode, logged = {} } = accepted
    if (this.opts.isDraining()) throw new HttpError('UNAVAILABLE', 'server is shutting down; retry on another instance')
    if (records > this.opts.maxRecords) {
      throw new HttpError(
        'PAYLOAD_TOO_LARGE',
        `${records} records is above the limit of ${this.opts.maxRecords} per request`,
        undefined,
        'records',
      )
    }
    if (records === 0) return reply.code(202).send({ requestId: request.id, accepted: 0 })
    let messages
    try {
      messages = await encode()
    } catch (err) {
      if (err instanceof RecordTooLargeError)
        throw new HttpError('PAYLOAD_TOO_LARGE', err.message, undefined, 'record_bytes')
      throw err
    }
    const end = this.opts.metrics.publishSeconds.startTimer()
    const { spooled } = await acceptOr503(this.opts.intake, topic, messages, request, what)
    end()
    request.log.info(
      { ...logged, records, messages: messages.length, ...(spooled ? { spooled } : {}) },
      `${what} accepted`,
    )
    return reply.code(202).send({ requestId: request.id, accepted: records, ...(spooled ? { spooled } : {}) })
  }
}

/** What a request brings to a topic. */
export interface Accepted {
  readonly topic: string
  /** How many records it holds (the limit and the answer count these). */
  readonly records: number
  /** What they are, in logs and refusals ("events", "impression counts"). */
  readonly what: string
  /** Its messages (made only once the request is within the limits). */
  readonly encode: () => OutboundMessage[] | Promise<OutboundMessage[]>
  /** More fields of its log line. */
  readonly logged?: object
}

/** A header (or beacon field) as stored: printable ASCII, at most 64 characters. */
export function headerText(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[^\x20-\x7e]/g, '').slice(0, 64) : ''
}
