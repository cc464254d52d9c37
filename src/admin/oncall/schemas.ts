// The shapes of the on-call API: schedules (pipeline/oncall/schedule-schema.ts, with their version), who is on call,
// shifts, calendar feeds; escalation policies, the default one, responders' contact methods, a running escalation.
import { Type } from 'typebox'
import { PolicySchema, StepSchema } from '../../pipeline/oncall/escalation.js'
import { ProfileSchema } from '../../pipeline/oncall/responders.js'
import { Id, Instant, LayerSchema, OverrideSchema, ScheduleSchema } from '../../pipeline/oncall/schedule-schema.js'

export const ScheduleBody = Type.Object(
  {
    ...ScheduleSchema.properties,
    version: Type.Optional(
      Type.Integer({ minimum: 1, description: 'on a replace: the version it replaces (a 409 when it changed since)' }),
    ),
  },
  { additionalProperties: false },
)

export const Schedule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  timeZone: Type.String(),
  layers: Type.Array(LayerSchema),
  overrides: Type.Array(OverrideSchema),
  version: Type.Integer(),
  updatedAt: Type.String(),
  updatedBy: Type.String({ description: 'the API key that changed it last (key:<public id>)' }),
})

export const ScheduleParams = Type.Object({ id: Id })

const Responder = Type.Object({
  id: Type.String(),
  userName: Type.String(),
  displayName: Type.Optional(Type.String()),
})

export const OnCallQuery = Type.Object({ at: Type.Optional(Instant('ISO 8601 time (default: now)')) })
export const OnCall = Type.Object({
  at: Type.String(),
  responder: Type.Union([Responder, Type.Null()], { description: 'null: no one is on call then' }),
  until: Type.Union([Type.String(), Type.Null()], {
    description: 'when this shift ends (or the gap, when no one is on call), within the next 92 days; null: later',
  }),
})

export const ShiftsQuery = Type.Object({
  from: Type.Optional(Instant('ISO 8601 time (default: now)')),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 92, description: 'how many days from `from` (default 14)' })),
})
export const Shifts = Type.Object({
  from: Type.String(),
  to: Type.String(),
  shifts: Type.Array(Type.Object({ start: Type.String(), end: Type.String(), responder: Responder }), {
    description: 'who is on call, in order; spans with no one are not listed',
  }),
})

export const FeedBody = Type.Union(
  [
    Type.Object({ scheduleId: Id }, { additionalProperties: false }),
    Type.Object({ userId: Id }, { additionalProperties: false }),
  ],
  { description: 'a schedule’s feed, or a responder’s shifts in every schedule of the account' },
)
export const FeedAnswer = Type.Object({
  url: Type.String({ description: 'the feed’s secret address (iCalendar, RFC 5545): shown once, keep it secret' }),
})
export const FeedParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) })

export const PolicyBody = Type.Object(
  {
    ...PolicySchema.properties,
    version: Type.Optional(
      Type.Integer({ minimum: 1, description: 'on a replace: the version it replaces (a 409 when it changed since)' }),
    ),
  },
  { additionalProperties: false },
)

export const Policy = Type.Object({
  id: Type.String(),
  name: Type.String(),
  steps: Type.Array(StepSchema),
  repeat: Type.Integer(),
  version: Type.Integer(),
  updatedAt: Type.String(),
  updatedBy: Type.String({ description: 'the API key that changed it last (key:<public id>)' }),
})

export const DefaultPolicy = Type.Object(
  {
    policyId: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
      description: 'the policy an incident follows when no alert rule gives it one (escalate); null: none',
    }),
  },
  { additionalProperties: false },
)

export const ResponderParams = Type.Object({ userId: Id })
export const Profile = Type.Object({
  userId: Type.String(),
  contactMethods: ProfileSchema.properties.contactMethods,
  rules: ProfileSchema.properties.rules,
  updatedAt: Type.Union([Type.String(), Type.Null()], { description: 'null: never set' }),
})

export const IncidentParams = Type.Object({ id: Id })
export const RunningEscalation = Type.Object({
  running: Type.Boolean({ description: 'false: it never started, or it ended (acknowledged, resolved, last step)' }),
  policyId: Type.Optional(Type.String()),
  round: Type.Optional(Type.Integer({ description: 'the run of the policy, from 0' })),
  step: Type.Optional(Type.Integer({ description: 'the step that fires next, from 0' })),
  nextAt: Type.Optional(Type.String({ description: 'when it is due' })),
})
