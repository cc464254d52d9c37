// The ingest APIs as JSON Schema. The edge checks the envelope only (an array of objects, the key,
// the limits); the fields of each record are checked by the events consumer, record by record, and
// described by schemas/event.json.
import { Type, type TSchema } from 'typebox'
import { sluiceAnswers } from '../http/errors.js'
import { answer } from '../http/schemas.js'

const Record = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'an event as SDKs send it: eventTypeId, trafficTypeName, key, timestamp, value, properties (schemas/event.json); checked by the consumer, a bad record becomes a rejection',
  },
)
export const EventsBody = Type.Array(Record, { description: 'the records of one request' })
export const Accepted = Type.Object({
  requestId: Type.String(),
  accepted: Type.Integer({ description: 'records accepted' }),
  spooled: Type.Optional(
    Type.Literal(true, {
      description: "Kafka was slow or away: the body is on the edge's disk spool and reaches Kafka when it is back",
    }),
  ),
})
export const eventAnswers = sluiceAnswers(
  { 202: answer('Kafka (or the edge spool) holds every record', Accepted) },
  [400, 401, 413, 415, 429, 503],
)

// What Split's SDKs post besides events (schemas/impressions.json describes each record).
const open = (description: string) => Type.Object({}, { additionalProperties: true, description })
export const ImpressionsBody = Type.Array(
  open(
    'a flag and its impressions: {f, i: [{k, t, m, c, r, b, pt, properties}]} (schemas/impressions.json); checked by the consumer, each bad impression becomes a rejection',
  ),
  { description: 'impressions grouped by flag, as the SDKs send them' },
)
export const ImpressionCountsBody = Type.Object(
  {
    pf: Type.Array(open('{f: flag, m: start of the hour (epoch ms), rc: impressions counted instead of sent}'), {
      description: 'counts per flag and hour',
    }),
  },
  { additionalProperties: true },
)
export const UniqueKeysBody = Type.Object(
  {
    keys: Type.Array(open('server-side {f: flag, ks: [keys]}, client-side {k: key, fs: [flags]}'), {
      description: 'the keys that saw each flag (impressions mode NONE)',
    }),
  },
  { additionalProperties: true },
)
export const TelemetryBody = open(
  "the SDK's telemetry (kept as sent; its impressions mode, operation mode and storage are read into columns)",
)
/** A beacon: the body of the matching route in `entries`, the SDK key in `token`. */
export const beaconOf = <T extends TSchema>(entries: T) =>
  Type.Object({
    entries,
    token: Type.String({ description: 'the SDK key (a beacon cannot send headers)' }),
    sdk: Type.Optional(Type.String({ description: 'the SDK and its version' })),
    sim: Type.Optional(Type.String({ description: 'the impressions mode (DEBUG, OPTIMIZED, NONE)' })),
  })

export const WebhookParams = Type.Object({
  webhookId: Type.String({ description: 'the secret address of an integration' }),
})
export const OpsgenieActionParams = Type.Object({
  webhookId: Type.String({ description: 'the secret address of an integration' }),
  identifier: Type.String({
    minLength: 1,
    maxLength: 512,
    description: "the alert's alias (identifierType=alias; Sluice knows alerts by their alias)",
  }),
  action: Type.Enum(['close', 'acknowledge', 'unacknowledge']),
})
export const OpsgenieActionQuery = Type.Object({
  identifierType: Type.Optional(Type.Enum(['alias', 'id', 'tiny'], { description: 'taken as alias whatever it says' })),
})
export const WebhookBody = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Array(Type.Unknown())], {
  description: 'any JSON object or array, as the monitoring system sends it (any Content-Type)',
})
export const webhookAnswers = sluiceAnswers(
  {
    202: answer(
      'Kafka (or the edge spool) holds the payload',
      Type.Object({ requestId: Type.String(), spooled: Type.Optional(Type.Literal(true)) }),
    ),
  },
  [400, 401, 404, 413, 429, 503],
)
