// POST /api/events/bulk and POST /api/events/beacon. The edge checks the envelope (a JSON array of
// objects within the limits, nesting, numbers a double can hold), then each record once, into the
// line the consumer stores (an event's columns, or its rejection naming the field: one bad record
// never refuses the others, since SDKs never resend), writes the lines to Kafka and answers 202 once
// Kafka has them, or the edge's disk spool when Kafka is slow or down.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { presentedKey, type SdkPrincipal } from '../auth/api-keys.js'
import { encodeEventMessages, type EventMessageFormat } from '../broker/messages/events.js'
import { parseSdkJson, type SdkIntake } from './sdk-intake.js'
import { beaconOf, eventAnswers, EventsBody } from './schemas.js'

export interface EventRoutesOptions {
  readonly sdk: SdkIntake
  readonly topic: string
  /** The message format (broker/messages/events.ts): lines, or the JSON of releases before them. */
  readonly format: EventMessageFormat
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: SdkPrincipal
  }
}

export async function eventRoutes(server: FastifyInstance, { sdk, topic, format }: EventRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  app.decorateRequest('principal', undefined)
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseSdkJson)

  /** text: the records' JSON array as sent (a bulk body), what the json format publishes when it fits one message. */
  const ingest = async (
    request: FastifyRequest,
    reply: FastifyReply,
    {
      principal,
      records,
      sdkVersion,
      text,
    }: { principal: SdkPrincipal; records: readonly object[]; sdkVersion: unknown; text?: string | undefined },
  ) => {
    const meta = sdk.meta(request, principal, sdkVersion)
    const sizing = { bodyBytes: sdk.bodyBytes(request), maxBytes: sdk.opts.messageMaxBytes, text }
    await sdk.accept(request, reply, {
      topic,
      records: records.length,
      what: 'events',
      encode: () => encodeEventMessages(records, meta, sizing, format),
      logged: { environmentId: principal.environmentId },
    })
    sdk.opts.metrics.eventsAccepted.inc(records.length)
    return reply
  }

  // application/json only: any other Content-Type is 415 (the root registers no other parser).
  const tags = ['events']
  app.post('/api/events/bulk', {
    bodyLimit: sdk.opts.maxBodyBytes,
    schema: {
      tags,
      summary: 'Import events: a JSON array of records, answered 202 once Kafka holds them',
      security: [{ sdkKey: [] }],
      body: EventsBody,
      response: eventAnswers,
    },
    // Authenticate before the body is read and parsed: an unknown key costs no parsing.
    onRequest: async (request, reply) => {
      request.principal = await sdk.authenticate(presentedKey(request.headers, false), reply)
    },
    handler: async (request, reply) =>
      ingest(request, reply, {
        principal: request.principal!,
        records: request.body,
        sdkVersion: request.headers['splitsdkversion'],
        text: request.jsonText,
      }),
  })

  // The browser SDK's beacon (navigator.sendBeacon) is text/plain JSON with the key inside the body,
  // so the body is read before the key is known: it is kept small (browsers cap a beacon at 64 KiB).
  await app.register(async (beacon) => {
    beacon.addContentTypeParser('text/plain', { parseAs: 'string' }, parseSdkJson)
    beacon.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/events/beacon',
      {
        bodyLimit: sdk.opts.beaconMaxBodyBytes,
        schema: {
          tags,
          summary: "The browser SDK's beacon (text/plain JSON with the key inside)",
          body: beaconOf(EventsBody),
          response: eventAnswers,
        },
      },
      async (request, reply) => {
        const principal = await sdk.authenticate(request.body.token, reply)
        return ingest(request, reply, { principal, records: request.body.entries, sdkVersion: request.body.sdk })
      },
    )
  })
}
