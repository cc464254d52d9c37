// POST /api/v1/webhook/<webhook id>: any JSON object or array from a monitoring system. Answers 202 once Kafka or the
// edge's disk spool holds the payload; the alerts consumer renders it. The address is a secret: it is looked up by
// hash, never logged (routes log their template, not the URL), and unknown, revoked or expired addresses all get the
// same 404. An integration with sender authentication also needs a bearer token, basic auth or an HMAC signature of
// the body (auth/sender-auth.ts): a request without it gets 401 and nothing is published. Header schemes are checked
// before the body is read; a signature once the body is (the signature is over its bytes as sent).
// A signature covers the body (and a timestamp, an id), not the path: on an HMAC integration the Opsgenie calls whose
// alias and action are in the path are refused (a captured call would replay against any alias or action), and a
// Standard Webhooks message id is accepted once (state/redis/webhook-ids.ts): a replay is answered 200, unpublished.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Metrics } from '../shared/metrics.js'
import type { AddressLookup, WebhookAddressCache } from '../auth/webhooks.js'
import type { SenderAuthReports } from '../auth/sender-auth-reports.js'
import { needsBody, verifySender } from '../auth/sender-auth.js'
import type { Intake } from './spool/intake.js'
import { encodeAlertMessage } from '../broker/messages/alerts.js'
import { acceptOr503 } from './accept.js'
import { OpsgenieActionParams, OpsgenieActionQuery, WebhookBody, webhookAnswers, WebhookParams } from './schemas.js'
import { HttpError, sluiceAnswers } from '../http/errors.js'
import { answer } from '../http/schemas.js'
import { parseJsonBody } from '../http/json-body.js'
import type { RateLimit, RateLimiter } from '../state/redis/rate-limits.js'
import { DEFAULT_TOLERANCE_SECONDS, type SenderAuth } from '../state/redis/sender-auth.js'
import type { WebhookIds } from '../state/redis/webhook-ids.js'

export interface WebhookRoutesOptions {
  readonly intake: Intake
  readonly routes: WebhookAddressCache
  readonly metrics: Metrics
  readonly topic: string
  readonly maxBodyBytes: number
  readonly messageMaxBytes: number
  /** Requests per webhook address, shared by every edge through Redis. */
  readonly rateLimiter: RateLimiter
  readonly rateLimit: RateLimit
  readonly isDraining: () => boolean
  /** Where each sender authentication outcome is counted. */
  readonly senderAuth: SenderAuthReports
  /** The Standard Webhooks message ids accepted, per integration: a replay is not published again. */
  readonly webhookIds: WebhookIds
}

/** How long an accepted message id is remembered: as long as its signed timestamp can pass, and a margin. */
export function messageIdTtlMs(auth: SenderAuth): number {
  return (2 * (auth.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) + 30) * 1000
}

const answers = {
  ...webhookAnswers,
  ...sluiceAnswers(
    {
      200: answer(
        'A Standard Webhooks message whose webhook-id this integration accepted before (within twice the tolerance): not published again',
        Type.Object({ requestId: Type.String(), duplicate: Type.Literal(true) }),
      ),
    },
    [409],
  ),
}

declare module 'fastify' {
  interface FastifyRequest {
    webhook?: AddressLookup
    /** The body as received (webhook routes only): what a sender's HMAC signature covers. */
    rawBody?: Buffer
    /** The sender's authentication was checked (it passed, or the request was refused). */
    senderVerified?: boolean
    /** The verified sender's id of the message (Standard Webhooks' webhook-id). */
    senderMessageId?: string
  }
  interface FastifyContextConfig {
    /** An empty body (whatever its content type) is no body. */
    emptyBodyAllowed?: boolean
    /** Part of the message is in the path, which no signature covers: refused on an HMAC integration. */
    meaningInPath?: boolean
  }
}

export async function webhookRoutes(app: FastifyInstance, opts: WebhookRoutesOptions): Promise<void> {
  app.decorateRequest('webhook', undefined)
  app.decorateRequest('rawBody', undefined)
  app.decorateRequest('senderVerified', false)
  app.decorateRequest('senderMessageId', undefined)
  // Senders label their JSON in many ways (text/plain included): whatever the Content-Type, the body
  // must parse as JSON with the checks of every JSON body (depth, numbers, well-formed text), else 400.
  // The bytes are kept for the signature check.
  const parse = (request: FastifyRequest, body: Buffer, done: (err: Error | null, value?: unknown) => void) => {
    request.rawBody = body
    // A forger learns nothing of how its body parses: the signature is checked first.
    try {
      verifySignature(request)
    } catch (err) {
      done(err as Error)
      return
    }
    if (request.routeOptions.config.emptyBodyAllowed && body.toString('utf8').trim().length === 0) done(null, undefined)
    else parseJsonBody(request, body, done)
  }
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(['application/json', '*'], { parseAs: 'buffer' }, parse)

  /** The sender's credentials against the integration's sender authentication: 401 and counted when they fail. */
  const verify = (request: FastifyRequest) => {
    request.senderVerified = true
    const { route, secrets } = request.webhook!
    const outcome = verifySender(
      route.auth!,
      secrets,
      { headers: request.headers, body: request.rawBody ?? Buffer.alloc(0) },
      Date.now(),
    )
    opts.senderAuth.record(route.integrationId, outcome)
    if (!outcome.ok) {
      request.log.info({ integrationId: route.integrationId, reason: outcome.reason }, 'webhook sender refused')
      if (outcome.problem)
        throw new HttpError('BAD_REQUEST', `sender authentication failed: ${outcome.reason}`, [outcome.problem])
      throw new HttpError('UNAUTHORIZED', `sender authentication failed: ${outcome.reason}`)
    }
    request.senderMessageId = outcome.messageId
  }

  // Before the body is read: an unknown address costs no parsing, a wrong token no body and no share of the rate, a
  // limited one no Kafka write.
  const authorize = async (request: FastifyRequest, reply: FastifyReply) => {
    const found = await opts.routes.lookup((request.params as { webhookId: string }).webhookId)
    if (!found) throw new HttpError('NOT_FOUND', 'no such webhook address')
    request.webhook = found
    const auth = found.route.auth
    // Before anything of the request is read: nothing it could carry would make the call safe.
    if (auth?.scheme === 'hmac' && request.routeOptions.config.meaningInPath)
      throw new HttpError(
        'BAD_REQUEST',
        'this integration requires HMAC signatures, and a signature does not cover the path (a captured call could be ' +
          'replayed against another alias or action): post {"alias": …, "action": "close"} (or "acknowledge", ' +
          '"unacknowledge"), signed, to the webhook address itself instead',
        [
          {
            field: 'path',
            problem: 'cannot carry the alias and action on an integration that requires HMAC signatures',
          },
        ],
      )
    // A wrong token is refused before the limit is counted: a forger cannot spend the sender's rate. (A signature
    // needs the body, so an HMAC sender's forger is counted like any request.)
    if (auth && !needsBody(auth)) verify(request)
    const { wait } = await opts.rateLimiter.take(found.hash)
    if (wait > 0) {
      opts.metrics.webhookRateLimited.inc()
      void reply.header('retry-after', String(wait))
      throw new HttpError(
        found.route.rateLimitStatus === 503 ? 'UNAVAILABLE' : 'RATE_LIMITED',
        `rate limit of ${opts.rateLimit.ratePerSecond} requests per second exceeded; retry after ${wait} s`,
      )
    }
  }
  // Once the body is read, before it is parsed (or, without a body, before the handler): a signature over it.
  const verifySignature = (request: FastifyRequest) => {
    const auth = request.webhook?.route.auth
    if (auth && needsBody(auth) && !request.senderVerified) verify(request)
  }
  const verifySignatureOfNoBody = async (request: FastifyRequest) => verifySignature(request)
  /** Publishes a payload (its JSON text) of the request's integration and answers 202. */
  const accept = async (request: FastifyRequest, reply: FastifyReply, payload: string) => {
    if (opts.isDraining()) throw new HttpError('UNAVAILABLE', 'server is shutting down; retry on another instance')
    const { route } = request.webhook!
    const message = encodeAlertMessage(
      payload,
      {
        integrationId: route.integrationId,
        accountId: route.accountId,
        receivedAtMs: Date.now(),
        requestId: request.id,
      },
      opts.messageMaxBytes,
    )
    if (!message)
      throw new HttpError(
        'PAYLOAD_TOO_LARGE',
        `payload is larger than ${opts.messageMaxBytes} bytes even compressed`,
        undefined,
        'message_bytes',
      )
    // A signed message id is published once: claimed before, remembered after, given back if it was not published.
    const messageId = request.senderMessageId
    if (messageId !== undefined) {
      const claim = await opts.webhookIds.claim(route.integrationId, messageId)
      if (claim === 'duplicate') {
        request.log.info({ integrationId: route.integrationId }, 'webhook duplicate not published')
        return reply.code(200).send({ requestId: request.id, duplicate: true })
      }
      if (claim === 'in progress') {
        void reply.header('retry-after', '1')
        throw new HttpError(
          'CONFLICT',
          'another request with this webhook-id is being accepted right now; retry, and it is answered as a duplicate once accepted',
        )
      }
    }
    let spooled: boolean
    try {
      ;({ spooled } = await acceptOr503(opts.intake, opts.topic, [{ ...message, ordered: true }], request, 'the alert'))
    } catch (err) {
      if (messageId !== undefined) await opts.webhookIds.release(route.integrationId, messageId)
      throw err
    }
    if (messageId !== undefined)
      await opts.webhookIds.accepted(route.integrationId, messageId, messageIdTtlMs(route.auth!))
    opts.metrics.webhooksAccepted.inc()
    request.log.info({ integrationId: route.integrationId, ...(spooled ? { spooled } : {}) }, 'webhook accepted')
    return reply.code(202).send({ requestId: request.id, ...(spooled ? { spooled } : {}) })
  }
  const typed = app.withTypeProvider<TypeBoxTypeProvider>()

  typed.post('/api/v1/webhook/:webhookId', {
    bodyLimit: opts.maxBodyBytes,
    schema: {
      tags: ['webhooks'],
      summary: 'Post an alert payload to an integration: answered 202 once Kafka holds it',
      params: WebhookParams,
      body: WebhookBody,
      response: answers,
    },
    onRequest: authorize,
    preValidation: verifySignatureOfNoBody,
    // The payload as sent (it parsed and passed the checks): not serialized again.
    handler: async (request, reply) => accept(request, reply, request.jsonText ?? JSON.stringify(request.body)),
  })

  // Senders built for Opsgenie's alert API, with the webhook address as their API base: create is
  // POST /v2/alerts (the body as it is), close and acknowledge are POST /v2/alerts/<alias>/<action>
  // (the body, often empty, with the alias and the action added: the opsgenie template reads both).
  typed.post('/api/v1/webhook/:webhookId/v2/alerts', {
    bodyLimit: opts.maxBodyBytes,
    schema: {
      tags: ['webhooks'],
      summary: "Opsgenie's create-alert call on an integration's address (as POST /api/v1/webhook/<id>)",
      params: WebhookParams,
      body: WebhookBody,
      response: answers,
    },
    onRequest: authorize,
    preValidation: verifySignatureOfNoBody,
    handler: async (request, reply) => accept(request, reply, request.jsonText ?? JSON.stringify(request.body)),
  })
  typed.post('/api/v1/webhook/:webhookId/v2/alerts/:identifier/:action', {
    bodyLimit: opts.maxBodyBytes,
    schema: {
      tags: ['webhooks'],
      summary:
        "Opsgenie's close, acknowledge and unacknowledge calls on an integration's address: the payload is the body with alias and action (400 on an integration that requires HMAC signatures: post the alias and action in the signed body to the address)",
      params: OpsgenieActionParams,
      querystring: OpsgenieActionQuery,
      response: webhookAnswers,
    },
    // The README says the body is optional: empty is none, whatever the sender's Content-Type.
    config: { emptyBodyAllowed: true, meaningInPath: true },
    onRequest: authorize,
    preValidation: verifySignatureOfNoBody,
    handler: async (request, reply) => {
      const body: unknown = request.body ?? {}
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new HttpError('BAD_REQUEST', 'body must be a JSON object or empty', [
          { field: 'body', problem: 'must be a JSON object or empty' },
        ])
      return accept(
        request,
        reply,
        JSON.stringify({ ...body, alias: request.params.identifier, action: request.params.action }),
      )
    },
  })
}
