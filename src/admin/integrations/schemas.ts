// The integrations API as JSON Schema: bodies, answers and the error body.
import { Type } from 'typebox'
import { sluiceAnswers } from '../../http/errors.js'
import { answer } from '../../http/schemas.js'
import { ALERT_STATUSES, SEVERITIES } from '../../pipeline/alerts/render.js'
import { TEMPLATE_IDS } from '../../pipeline/alerts/templates.js'
import { MAX_ALERTS_PAGE, MAX_AUTO_RESOLVE_SECONDS, MIN_AUTO_RESOLVE_SECONDS } from '../../services/integrations.js'

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
export const TestBody = Type.Object({
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
})

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
export const AlertsPage = Type.Object({
  alerts: Type.Array(Type.Intersect([Type.Object({ id: Type.String() }), Type.Partial(Alert)])),
})

/** Errors every integrations route may answer (its key is checked first). */
export function integrationAnswers(ok: Parameters<typeof sluiceAnswers>[0], errors: readonly number[] = []) {
  return sluiceAnswers(ok, [400, 401, 403, 503, ...errors])
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
