// The integrations API as JSON Schema: bodies, answers and the error body.
import { Type } from 'typebox'
import { sluiceAnswers } from '../../http/errors.js'
import { answer } from '../../http/schemas.js'
import { ALERT_STATUSES, SEVERITIES } from '../../pipeline/alerts/render.js'
import { TEMPLATE_IDS } from '../../pipeline/alerts/templates.js'
import { MAX_ALERTS_PAGE, MAX_AUTO_RESOLVE_SECONDS, MIN_AUTO_RESOLVE_SECONDS } from '../../services/integrations.js'
import { HMAC_PRESETS, SENDER_AUTH_SCHEMES } from '../../state/redis/sender-auth.js'
import {
  MAX_SECRET_CHARS,
  MAX_TOLERANCE_SECONDS,
  MIN_SECRET_CHARS,
  MIN_TOLERANCE_SECONDS,
} from '../../services/sender-auth.js'

export { answer }

const Mapping = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'one moustache template per alert field ({{webhook.<path>}}); see schemas/alert-mapping.json: severity, description and source required; service, environment, team, timestamp, correlationId, dedupKey, status, customFields, defaults, severityMap, statusMap, splitPath',
  },
)
const Template = Type.Union([Type.Enum([...TEMPLATE_IDS, 'custom', '']), Type.Null()], {
  description: 'a built-in template, or custom / blank (or null) with your own mapping',
})
const fields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  template: Type.Optional(Template),
  mapping: Type.Optional(Mapping),
  rateLimitStatus: Type.Optional(
    Type.Enum([429, 503], {
      description: 'the status answered when the address is over its rate (Alertmanager retries 503)',
    }),
  ),
  emitRepeats: Type.Optional(
    Type.Boolean({
      description:
        'write repeats of an open alert to the streams too (default false: a repeat only updates the alert and its count)',
    }),
  ),
  autoResolveAfterSeconds: Type.Optional(
    Type.Union([Type.Integer({ minimum: MIN_AUTO_RESOLVE_SECONDS, maximum: MAX_AUTO_RESOLVE_SECONDS }), Type.Null()], {
      description: 'resolve a firing alert not heard of for this long (null: never, the default)',
    }),
  ),
  sample: Type.Optional(
    Type.Union([Type.Unknown(), Type.Null()], {
      description: 'the sample payload the mapping was built on (at most 64 KiB of JSON), kept with it',
    }),
  ),
}
export const IntegrationBody = Type.Object(fields, { additionalProperties: false })
export const IntegrationPatch = Type.Object(
  { ...fields, name: Type.Optional(fields.name) },
  { additionalProperties: false },
)
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

const LifecycleCounts = Type.Object(
  {
    ignored: Type.Integer({ description: 'acknowledge or resolve notifications of no open alert' }),
    dedupFallback: Type.Integer({
      description: 'alerts whose dedup key rendered empty (keyed by a hash of their fields instead)',
    }),
    statusUnknown: Type.Integer({
      description: 'alerts whose status neither the statusMap nor the synonyms know (taken as firing)',
    }),
    dropped: Type.Integer({
      description: 'alerts an alert rule dropped (GET /api/v1/alert-rules/dropped lists a day)',
    }),
    suppressed: Type.Integer({ description: 'incidents that opened in a maintenance window (stored as suppressed)' }),
    overBudget: Type.Integer({
      description:
        "firing notifications the account's rules and windows were not applied to: they went over a payload's budget (SLUICE_ALERT_RULES_BUDGET_MS)",
    }),
  },
  { description: 'counted since the integration was created (GET of one integration only)' },
)

export const Integration = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  template: Type.String(),
  mapping: Mapping,
  rateLimitStatus: Type.Enum([429, 503]),
  emitRepeats: Type.Boolean(),
  autoResolveAfterSeconds: Type.Union([Type.Integer(), Type.Null()]),
  sample: Type.Optional(
    Type.Unknown({ description: 'the sample payload saved with the mapping, or null (GET of one integration only)' }),
  ),
  lifecycleCounts: Type.Optional(LifecycleCounts),
  senderAuth: Type.Union(
    [
      Type.Object({
        scheme: Type.Enum([...SENDER_AUTH_SCHEMES]),
        preset: Type.Optional(Type.Enum([...HMAC_PRESETS])),
        secrets: Type.Integer({ description: 'active secrets (two while rotating)' }),
      }),
      Type.Null(),
    ],
    { description: 'what a sender must prove beyond the address (GET .../authentication for more); null: nothing' },
  ),
  webhookAddressId: Type.String({ description: 'names the secret address without showing it' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
})
const addressFields = {
  webhookUrl: Type.String({ description: 'the secret address, shown only in this answer' }),
  testCommand: Type.String({ description: "a curl command posting the template's example payload to it" }),
}
export const IntegrationWithAddress = Type.Intersect([Integration, Type.Object(addressFields)])
export const Rotated = Type.Intersect([
  Integration,
  Type.Object({ ...addressFields, previousAddressValidUntil: Type.String({ format: 'date-time' }) }),
])
export const IntegrationList = Type.Object({ integrations: Type.Array(Integration) })
export const DeletedIntegration = Type.Object({ id: Type.String(), deleted: Type.Literal(true) })
export const TestBody = Type.Object(
  {
    payload: Type.Optional(
      Type.Unknown({
        description: 'a JSON object or array as the monitoring system sends it; absent: the template example',
      }),
    ),
    mapping: Type.Optional(
      Type.Unsafe<object>({
        ...Mapping,
        description:
          'a mapping to try instead of the saved one (checked as a save would check it; 400 naming each problem)',
      }),
    ),
  },
  { additionalProperties: false },
)

/** The normalized fields of an alert, as the streams, /test and the alerts API show them. */
export const ALERT_FIELDS = {
  severity: Type.Enum([...SEVERITIES]),
  description: Type.String(),
  source: Type.String(),
  service: Type.Optional(Type.String()),
  environment: Type.Optional(Type.String()),
  team: Type.Optional(Type.String()),
  correlationId: Type.Optional(Type.String()),
  dedupKey: Type.String({ description: 'the incident the alert belongs to, within its integration' }),
  status: Type.Enum([...ALERT_STATUSES], { description: 'what the sender says of it' }),
}
const Alert = Type.Object({
  ...ALERT_FIELDS,
  timestamp: Type.String({ format: 'date-time' }),
  receivedAt: Type.String({ format: 'date-time' }),
  integrationId: Type.String(),
  requestId: Type.String(),
  customFields: Type.Record(Type.String(), Type.String()),
})
export const TestResult = Type.Object({
  alerts: Type.Array(Alert),
  rejected: Type.Array(Type.Object({ index: Type.Integer(), reason: Type.String() })),
})
export const RotateQuery = Type.Object({
  revoke: Type.Optional(
    Type.Literal('now', { description: 'end the old address at once instead of after the overlap' }),
  ),
})
export const AlertsQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: MAX_ALERTS_PAGE, default: 50 }),
  before: Type.Optional(Type.String({ pattern: '^\\d+-\\d+$', description: 'an alert id (e.g. 1795341600000-0)' })),
})
/** What a stream entry adds to the alert: its lifecycle and what the alert rules and windows did. */
const EntryFields = Type.Object({
  id: Type.String({ description: 'the stream entry' }),
  event: Type.String({ description: 'triggered, reopened, suppressed, repeated, acknowledged or resolved' }),
  alertId: Type.String(),
  count: Type.Integer(),
  by: Type.String(),
  previousAlertId: Type.String(),
  tags: Type.Array(Type.String()),
  rulesVersion: Type.Integer(),
  rulesApplied: Type.Array(Type.String()),
  suppressedBy: Type.String(),
  suppressedUntil: Type.String({ format: 'date-time' }),
})
export const AlertsPage = Type.Object({
  alerts: Type.Array(
    Type.Intersect([Type.Object({ id: Type.String() }), Type.Partial(EntryFields), Type.Partial(Alert)]),
  ),
})

/** Errors every integrations route may answer (its key is checked first). */
export function integrationAnswers(ok: Parameters<typeof sluiceAnswers>[0], errors: readonly number[] = []) {
  return sluiceAnswers(ok, [400, 401, 403, 429, 503, ...errors])
}

export const PayloadList = Type.Object({
  payloads: Type.Array(
    Type.Object({
      requestId: Type.String({ description: 'the request that brought it (also in its alerts and rejections)' }),
      receivedAt: Type.String({ format: 'date-time' }),
      bytes: Type.Integer({ description: 'its size as received' }),
      kept: Type.Boolean({ description: 'false when it was larger than 64 KiB: only its size and time are kept' }),
      payload: Type.Unknown({ description: 'the JSON as received (null when not kept)' }),
    }),
    { description: 'newest first: the last 20 of the past week' },
  ),
})

export const RejectionList = Type.Object({
  reasons: Type.Array(
    Type.Object({
      reason: Type.String(),
      records: Type.Integer(),
      lastAt: Type.String(),
      examples: Type.Array(
        Type.Object({
          payload: Type.String({ description: 'as received, cut to 2,048 characters' }),
          truncated: Type.Boolean(),
          requestId: Type.String(),
          receivedAt: Type.String(),
        }),
        { description: 'up to 3, newest first' },
      ),
    }),
    { description: 'most refused first' },
  ),
})

/** Sender authentication: what a create or replace takes, and what is shown (never a secret, except once). */
export const SenderAuthBody = Type.Object(
  {
    scheme: Type.Enum([...SENDER_AUTH_SCHEMES], {
      description: 'bearer: Authorization: Bearer <token>; basic: user and password; hmac: a signature of the body',
    }),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'basic: the user name' })),
    preset: Type.Optional(
      Type.Enum([...HMAC_PRESETS], {
        description:
          "hmac: grafana (Grafana's hmacConfig with a timestamp header), github (X-Hub-Signature-256: sha256=<hex>, no timestamp), standard-webhooks (webhook-id, webhook-timestamp, webhook-signature); default grafana",
      }),
    ),
    signatureHeader: Type.Optional(
      Type.String({ maxLength: 64, description: 'hmac, grafana: the signature header (X-Grafana-Alerting-Signature)' }),
    ),
    timestampHeader: Type.Optional(
      Type.String({ maxLength: 64, description: 'hmac, grafana: the timestamp header (X-Grafana-Alerting-Timestamp)' }),
    ),
    toleranceSeconds: Type.Optional(
      Type.Integer({
        minimum: MIN_TOLERANCE_SECONDS,
        maximum: MAX_TOLERANCE_SECONDS,
        description: 'hmac: how far a signed timestamp may be from now (default 300): older signatures are replays',
      }),
    ),
    secret: Type.Optional(
      Type.String({
        minLength: MIN_SECRET_CHARS,
        maxLength: MAX_SECRET_CHARS,
        description:
          'the secret to use (e.g. the one PagerDuty made); absent: Sluice makes one, shown in the answer only',
      }),
    ),
  },
  { additionalProperties: false },
)
export const SecretBody = Type.Object(
  { secret: Type.Optional(SenderAuthBody.properties.secret) },
  { additionalProperties: false },
)
export const SecretParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  secretId: Type.String({ minLength: 1, maxLength: 100 }),
})
export const SenderAuthView = Type.Object({
  scheme: Type.Enum([...SENDER_AUTH_SCHEMES]),
  username: Type.Optional(Type.String()),
  preset: Type.Optional(Type.Enum([...HMAC_PRESETS])),
  signatureHeader: Type.Optional(Type.String()),
  timestampHeader: Type.Optional(Type.String()),
  toleranceSeconds: Type.Optional(Type.Integer()),
  secrets: Type.Array(
    Type.Object({
      id: Type.String(),
      createdAt: Type.String({ format: 'date-time' }),
      lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'the last request it authenticated (reported by the edges about once a second)',
      }),
    }),
    { description: 'one or two: two while a sender is moved to a new one' },
  ),
  failures: Type.Object(
    {
      count: Type.Integer({ description: 'requests refused with 401 since it was set up' }),
      lastAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      lastReason: Type.Union([Type.String(), Type.Null()], { description: 'e.g. signature mismatch' }),
    },
    { description: 'refused requests: what a failing sender looks like, without what it sent' },
  ),
})
export const SenderAuthAnswer = Type.Object({ authentication: Type.Union([SenderAuthView, Type.Null()]) })
export const SenderAuthWithSecret = Type.Object({
  authentication: SenderAuthView,
  secret: Type.Object(
    { id: Type.String(), value: Type.String() },
    { description: 'the new secret: shown in this answer only; give it to the sender' },
  ),
})
