// The ingest APIs as JSON Schema. The edge checks the envelope only (an array of objects, the key,
// the limits); the fields of each record are checked by the events consumer, record by record, and
// described by schemas/event.json.
import { Type } from 'typebox'
import { sluiceAnswers } from '../http/errors.js'
import { answer } from '../http/schemas.js'

const Record = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'an event as SDKs send it: eventTypeId, trafficTypeName, key, timestamp, value, properties (schemas/event.json); checked by the consumer, a bad record becomes a rejection',
  },
)
export const EventsBody = Type.Array(Record, { description: 'the records of one request' })
export const BeaconBody = Type.Object({
  entries: EventsBody,
  token: Type.String({ description: 'the SDK key (a beacon cannot send headers)' }),
  sdk: Type.Optional(Type.String({ description: 'the SDK and its version' })),
})
export const Accepted = Type.Object({
  requestId: Type.String(),
  accepted: Type.Integer({ description: 'records accepted' }),
  spooled: Type.Optional(Type.Literal(true, { description: "Kafka was slow or away: the body is on the edge's disk spool and reaches Kafka when it is back" })),
})
export const eventAnswers = sluiceAnswers({ 202: answer('Kafka (or the edge spool) holds every record', Accepted) }, [400, 401, 413, 415, 429, 503])

export const WebhookParams = Type.Object({ webhookId: Type.String({ description: 'the secret address of an integration' }) })
export const WebhookBody = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Array(Type.Unknown())], {
  description: 'any JSON object or array, as the monitoring system sends it (any Content-Type)',
})
export const webhookAnswers = sluiceAnswers(
  { 202: answer('Kafka (or the edge spool) holds the payload', Type.Object({ requestId: Type.String(), spooled: Type.Optional(Type.Literal(true)) })) },
  [400, 404, 413, 429, 503],
)
