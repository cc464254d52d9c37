// The alerts API as JSON Schema: queries, answers and the error body.
import { Type } from 'typebox'
import { sluiceAnswers } from '../../http/errors.js'
import { answer } from '../../http/schemas.js'
import { ALERT_STATUSES, SEVERITIES } from '../../pipeline/alerts/render.js'
import { ALERT_FIELDS } from '../integrations/schemas.js'
import { ALERT_LIST_STATUSES } from '../../state/redis/alerts.js'

export { answer }

export const MAX_ALERT_PAGE = 500
const filter = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 512, description }))

export const AlertListQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Enum([...ALERT_LIST_STATUSES], {
        description:
          'open (the default: firing, suppressed, inhibited or acknowledged), firing, suppressed, inhibited, acknowledged, resolved or all',
      }),
    ),
    integrationId: filter('only alerts of this integration'),
    severity: Type.Optional(Type.Enum([...SEVERITIES])),
    service: filter('only alerts of this service'),
    environment: filter('only alerts of this environment'),
    team: filter('only alerts of this team'),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ALERT_PAGE, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 1000, description: 'nextCursor of the page before' })),
  },
  { additionalProperties: false },
)
export const AlertParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

const time = (description: string) => Type.String({ format: 'date-time', description })
const HistoryEntry = Type.Object({
  event: Type.String({
    description:
      'triggered (also when a maintenance window releases it), suppressed, repeated, acknowledged, resolved or reopened',
  }),
  at: time('when'),
  by: Type.Optional(
    Type.String({
      description: 'source (the sender), auto-resolve, maintenance-end, or the API key that acted (key:<public id>)',
    }),
  ),
  requestId: Type.Optional(Type.String()),
  entryId: Type.Optional(
    Type.String({ description: 'its entry in the all-alerts stream (a repeat kept out of the streams has none)' }),
  ),
})
export const Alert = Type.Object({
  id: Type.String(),
  integrationId: Type.String(),
  ...ALERT_FIELDS,
  status: Type.Enum([...ALERT_STATUSES, 'suppressed', 'inhibited'], {
    description:
      'firing, suppressed (it arrived in a maintenance window: firing, not told), inhibited (by another alert, inhibitedBy: firing, not told), acknowledged or resolved',
  }),
  timestamp: Type.String({ description: 'when the last notification says the alert happened' }),
  customFields: Type.Record(Type.String(), Type.String()),
  count: Type.Integer({ description: 'notifications received for this incident' }),
  firstSeenAt: time('first notification'),
  lastSeenAt: time('last notification'),
  acknowledgedAt: Type.Optional(time('acknowledged')),
  acknowledgedBy: Type.Optional(Type.String()),
  resolvedAt: Type.Optional(time('resolved')),
  resolvedBy: Type.Optional(Type.String()),
  lastRequestId: Type.Optional(Type.String()),
  previousAlertId: Type.Optional(Type.String({ description: 'the resolved incident of the same key before this one' })),
  tags: Type.Optional(Type.Array(Type.String(), { description: 'added by alert rules' })),
  rulesVersion: Type.Optional(Type.Integer({ description: 'the alert rules version that changed it' })),
  rulesApplied: Type.Optional(
    Type.Array(Type.String(), {
      description: 'the ids of the rules that changed its last firing notification, in order',
    }),
  ),
  suppressedBy: Type.Optional(Type.String({ description: 'the maintenance window that suppressed it (the last one)' })),
  suppressedUntil: Type.Optional(time('when that window ends (while suppressed)')),
  overBudget: Type.Optional(
    Type.String({
      description:
        "why the account's rules and windows were not applied to its last firing notification: they went over the payload's budget (SLUICE_ALERT_RULES_BUDGET_MS)",
    }),
  ),
  incidentId: Type.Optional(Type.String({ description: 'the incident it is in' })),
  inhibitedBy: Type.Optional(
    Type.String({ description: 'the alert that inhibits it, by an alert rule whose inhibit it is a target of' }),
  ),
})
export const AlertWithHistory = Type.Object({
  ...Alert.properties,
  history: Type.Array(HistoryEntry, {
    description:
      'what changed the alert (triggered or reopened, acknowledged, resolved; repeats are its count), oldest first, the last 50',
  }),
})
export const AlertList = Type.Object({
  alerts: Type.Array(Alert),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
})

export function alertAnswers(ok: Parameters<typeof sluiceAnswers>[0], errors: readonly number[] = []) {
  return sluiceAnswers(ok, [400, 401, 403, 429, 503, ...errors])
}
