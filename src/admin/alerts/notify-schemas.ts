// The notifications API as JSON Schema: destinations, the default route and deliveries.
import { Type } from 'typebox'
import { DESTINATION_KINDS } from '../../pipeline/notify/destinations.js'
import { NOTIFY_EVENTS } from '../../pipeline/notify/messages.js'
import { partialObject } from '../../http/schemas.js'
import { KIND_SETTINGS } from '../../services/notify.js'

/** "webhook: {url, headers?, ...}; slack: {url}": each kind's settings, from its module's schema. */
const settingsWords = Object.entries(KIND_SETTINGS)
  .map(([kind, schema]) => {
    const required = new Set(schema.required ?? [])
    const fields = Object.keys(schema.properties).map((f) => (required.has(f) ? f : `${f}?`))
    return `${kind}: {${fields.join(', ')}}`
  })
  .join('; ')

const Limits = Type.Object(
  {
    ratePerSecond: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1000,
      description: 'messages per second, shared by every notify process',
    }),
    burst: Type.Integer({ minimum: 1, maximum: 10_000, description: 'messages at once' }),
    concurrency: Type.Integer({
      minimum: 1,
      maximum: 100,
      description: 'requests in flight at once, per notify process',
    }),
    maxDigest: Type.Integer({
      minimum: 1,
      maximum: 1000,
      description:
        'most alert events one message carries: deliveries held back by the rate limit go out together as a digest (1: never)',
    }),
  },
  { additionalProperties: false },
)

const Events = Type.Array(Type.Enum([...NOTIFY_EVENTS]), {
  maxItems: NOTIFY_EVENTS.length,
  description:
    "lifecycle events sent (default triggered, reopened, acknowledged, resolved); repeated: a reminder every repeatAfterMinutes while the alert (its incident) fires unacknowledged; updated: an open incident's alerts added, at most once every updateAfterMinutes. Suppressed alerts are never sent",
})

export const DestinationBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    kind: Type.Enum([...DESTINATION_KINDS]),
    enabled: Type.Optional(Type.Boolean({ description: 'default true' })),
    events: Type.Optional(Events),
    repeatAfterMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_080, description: 'default 60' })),
    updateAfterMinutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1440,
        description:
          "with updated among the events: an open incident's alerts added are told at most once this many minutes (default 5)",
      }),
    ),
    delay: Type.Optional(
      Type.String({
        maxLength: 8,
        description:
          'damping, "10s" to "1h": an incident\'s events wait this long; one whose alerts all resolved meanwhile is not sent at all (counted transient). Default: sent at once',
      }),
    ),
    limits: Type.Optional(partialObject(Limits)),
    settings: Type.Record(Type.String(), Type.Unknown(), {
      description: `per kind, checked against its schema (a field marked ? may be left out). ${settingsWords}. A new Slack or PagerDuty destination needs its url or routingKey; on a change, secrets left out (slack url, routingKey, password; a header given as null) keep their stored value`,
    }),
  },
  { additionalProperties: false },
)

export const Destination = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: Type.Enum([...DESTINATION_KINDS]),
  enabled: Type.Boolean(),
  events: Events,
  repeatAfterMinutes: Type.Optional(Type.Integer()),
  updateAfterMinutes: Type.Optional(Type.Integer()),
  delay: Type.Optional(Type.String()),
  limits: Limits,
  settings: Type.Record(Type.String(), Type.Unknown(), {
    description: 'the settings without secrets (hints of them only)',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
})

export const Created = Type.Object({
  destination: Destination,
  signingSecret: Type.Optional(
    Type.String({
      description: "a webhook's signing secret (Standard Webhooks: verify webhook-signature with it), shown this once",
    }),
  ),
})

export const DestinationList = Type.Object({
  destinations: Type.Array(Destination),
  route: Type.Array(Type.String(), { description: 'the default route: destinations of alerts no rule routes' }),
})

export const DestinationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

export const Route = Type.Object(
  { destinations: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20 }) },
  { additionalProperties: false },
)

export const TestOutcome = Type.Object({
  result: Type.Enum(['delivered', 'retry', 'give-up']),
  status: Type.Optional(Type.Number({ description: "the receiver's HTTP status or SMTP reply code" })),
  error: Type.Optional(Type.String()),
  retryAfterMs: Type.Optional(Type.Number()),
})

const Attempt = Type.Object({
  at: Type.String({ format: 'date-time' }),
  result: Type.Enum(['delivered', 'retry', 'give-up']),
  status: Type.Optional(Type.Number()),
  error: Type.Optional(Type.String()),
  ms: Type.Number(),
  events: Type.Integer({ description: 'alert events in the message (a digest when above 1; 0: not sent)' }),
})

export const Delivery = Type.Object({
  id: Type.String({
    description:
      "also the receiver's idempotency key (webhook-id, Idempotency-Key, Message-ID, PagerDuty's dedup_key is the alert id)",
  }),
  destinationId: Type.String(),
  alertId: Type.String(),
  event: Type.Enum([...NOTIFY_EVENTS]),
  status: Type.Enum(['pending', 'delivered', 'dead', 'cancelled']),
  attempts: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  giveUpAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastStatus: Type.Union([Type.String(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  log: Type.Array(Attempt),
  alert: Type.Record(Type.String(), Type.Unknown(), { description: 'the alert as the event told it' }),
})

export const DeliveryList = Type.Object({ deliveries: Type.Array(Delivery) })
export const DeliveryParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
export const DeadQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 100 })) },
  { additionalProperties: false },
)

export const VolumeQuery = Type.Object(
  {
    hours: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 168, default: 24, description: 'how many hours back, the current one last' }),
    ),
  },
  { additionalProperties: false },
)
const VolumeCounts = Type.Object({
  delivered: Type.Integer({ description: 'deliveries sent and accepted' }),
  failed: Type.Integer({ description: 'tries that failed and were retried later' }),
  dead: Type.Integer({ description: 'deliveries given up (the dead letter)' }),
})
export const Volume = Type.Object({
  hours: Type.Array(
    Type.Object({
      at: Type.String({ format: 'date-time', description: "the hour's start" }),
      total: VolumeCounts,
      destinations: Type.Record(Type.String(), VolumeCounts, {
        description: 'per destination id, those that had a try in the hour',
      }),
    }),
  ),
})
