// The incidents API as JSON Schema.
import { Type } from 'typebox'
import { SEVERITIES } from '../../pipeline/alerts/render.js'
import { INCIDENT_LIST_STATUSES, INCIDENT_STATUSES } from '../../state/redis/incidents.js'
import { Alert } from './schemas.js'

export const MAX_INCIDENT_PAGE = 500
export const MAX_MEMBERS_SHOWN = 1000

const time = (description: string) => Type.String({ format: 'date-time', description })

export const IncidentListQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Enum([...INCIDENT_LIST_STATUSES], {
        description: 'open (the default: pending, triggered, acknowledged or suppressed), one status, or all',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INCIDENT_PAGE, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 1000, description: 'nextCursor of the page before' })),
  },
  { additionalProperties: false },
)
export const IncidentParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
export const IncidentQuery = Type.Object(
  {
    members: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_MEMBERS_SHOWN,
        default: 100,
        description: 'alerts shown, first joined first',
      }),
    ),
  },
  { additionalProperties: false },
)

const TimelineEntry = Type.Object({
  event: Type.String({
    description:
      'opened or pending (made, not yet told), triggered, joined (an alert joined), acknowledged, resolved, closed (resolved without having been told), escalated (a step of its escalation policy paged), not-escalated (its account was at SLUICE_ESCALATIONS_PER_ACCOUNT: paged says so)',
  }),
  at: time('when'),
  by: Type.Optional(
    Type.String({ description: 'source (the senders), auto-resolve, or the API key (key:<public id>)' }),
  ),
  alertId: Type.Optional(Type.String({ description: 'the alert whose change it was' })),
  incidentId: Type.Optional(Type.String({ description: 'for merged: the other incident' })),
  policyId: Type.Optional(Type.String({ description: 'for escalated and not-escalated: the escalation policy' })),
  round: Type.Optional(Type.Integer({ description: 'for escalated: the run of the policy, from 0' })),
  step: Type.Optional(Type.Integer({ description: 'for escalated: the step that fired, from 0' })),
  paged: Type.Optional(
    Type.Array(
      Type.Object({
        kind: Type.String({ description: 'user, destination, schedule or policy' }),
        id: Type.String(),
        name: Type.Optional(Type.String()),
        schedule: Type.Optional(Type.String({ description: 'the schedule the user was on call in' })),
        method: Type.Optional(Type.String({ description: 'the contact method (<kind>:<id>)' })),
        via: Type.Optional(Type.String({ description: 'the destination the page went through' })),
        afterMinutes: Type.Optional(Type.Number({ description: 'when, after the step fired' })),
        problem: Type.Optional(Type.String({ description: 'nothing was sent to it, and why' })),
      }),
      { description: 'for escalated: who was paged, how' },
    ),
  ),
})

export const Incident = Type.Object({
  id: Type.String({ description: 'inc_<n>' }),
  title: Type.String(),
  status: Type.Enum([...INCIDENT_STATUSES], {
    description:
      "pending (fewer than its group's minAlerts so far: not told), triggered, acknowledged, suppressed (its open alerts are all in maintenance windows) or resolved",
  }),
  severity: Type.Enum([...SEVERITIES], { description: 'the highest of its open alerts' }),
  key: Type.String({
    description:
      "its group key: the rule's id and the rendered key of a rule's group, or a:<integration>:<dedup key> for an alert's own",
  }),
  rule: Type.Optional(Type.String({ description: 'the alert rule whose group it is' })),
  openAlerts: Type.Integer(),
  alerts: Type.Integer({ description: 'alerts that joined it' }),
  overflow: Type.Optional(
    Type.Integer({ description: 'alerts of its key that went to a continuation incident once it was full' }),
  ),
  firstSeenAt: time('its first alert'),
  lastSeenAt: time('its last change'),
  windowMs: Type.Integer({
    description: 'alerts of its key join within this long of its last alert (0: until resolved)',
  }),
  minAlerts: Type.Integer(),
  previousIncidentId: Type.Optional(Type.String({ description: 'the incident of the same key before this one' })),
  mergedInto: Type.Optional(Type.String({ description: 'the incident its alerts were merged into' })),
  mergingInto: Type.Optional(
    Type.String({ description: 'the incident it is being merged into (a merge stopped half-way: merge it again)' }),
  ),
  acknowledgedAt: Type.Optional(time('acknowledged')),
  acknowledgedBy: Type.Optional(Type.String()),
  resolvedAt: Type.Optional(time('resolved')),
  resolvedBy: Type.Optional(Type.String()),
})
export const IncidentWithMembers = Type.Object({
  ...Incident.properties,
  timeline: Type.Array(TimelineEntry, { description: 'oldest first, the last 100' }),
  members: Type.Array(Alert, { description: 'its alerts, first joined first (as many as asked)' }),
})
export const IncidentList = Type.Object({
  incidents: Type.Array(Incident),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
})

const Figures = {
  received: Type.Integer({ description: 'alert notifications received, repeats included' }),
  alerts: Type.Integer({ description: 'new alerts' }),
  incidents: Type.Integer({ description: 'incidents opened' }),
  inhibited: Type.Integer({ description: 'alerts inhibited' }),
  transient: Type.Integer({
    description: "incidents resolved before a damped destination's delay ended: told nowhere",
  }),
}
export const NoiseWindow = Type.Object({
  hours: Type.Integer(),
  from: time('the first hour counted'),
  ...Figures,
  notifications: Type.Integer({ description: 'deliveries delivered to destinations' }),
  alertsPerNotification: Type.Union([Type.Number(), Type.Null()], {
    description: 'the compression: new alerts per notification delivered (null without notifications)',
  }),
  alertsPerIncident: Type.Union([Type.Number(), Type.Null()]),
  noisiest: Type.Array(Type.Object({ integrationId: Type.String(), ...Figures }), {
    description: 'the integrations with the most alerts first, at most 10',
  }),
})
export const Noise = Type.Object({ windows: Type.Array(NoiseWindow, { description: 'the last 24 hours, and 7 days' }) })
export const MergeBody = Type.Object(
  { from: Type.String({ minLength: 1, maxLength: 100, description: 'the incident whose alerts join this one' }) },
  { additionalProperties: false },
)
export const MemberParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  alertId: Type.String({ minLength: 1, maxLength: 100 }),
})
