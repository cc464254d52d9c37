// The shapes of the on-call API: schedules (layers of rotations, restrictions, overrides), who is on call, shifts,
// calendar feeds. Counts and lengths are bounded here (SCHEDULE_LIMITS); what a schedule means (its zone, its times,
// its responders) is checked by pipeline/oncall/schedules.ts and the service.
import { Type } from 'typebox'
import { WEEKDAYS } from '../../pipeline/alerts/windows.js'
import { ROTATION_UNITS, SCHEDULE_LIMITS } from '../../pipeline/oncall/schedules.js'

const Id = Type.String({ minLength: 1, maxLength: 100 })
const Name = Type.String({ minLength: 1, maxLength: 200 })
const LocalTime = (description: string) => Type.String({ minLength: 16, maxLength: 16, description })
const Instant = (description: string) => Type.String({ minLength: 1, maxLength: 40, description })

const Restriction = Type.Object(
  {
    days: Type.Array(Type.Enum([...WEEKDAYS]), { minItems: 1, maxItems: 7, uniqueItems: true }),
    from: Type.String({ minLength: 5, maxLength: 5, description: 'wall-clock HH:MM in the schedule’s zone' }),
    to: Type.String({
      minLength: 5,
      maxLength: 5,
      description: 'HH:MM; at or before from: the next day (00:00 to 00:00: the whole day)',
    }),
  },
  { additionalProperties: false, description: 'when the layer is on call, on these days' },
)

const Layer = Type.Object(
  {
    name: Name,
    start: LocalTime('the first handoff: a wall-clock YYYY-MM-DDTHH:MM in the schedule’s zone'),
    end: Type.Optional(LocalTime('when the layer stops, as start')),
    rotation: Type.Object(
      {
        unit: Type.Enum([...ROTATION_UNITS], {
          description: 'days and weeks hand off at the same wall-clock time across DST changes; hours are hours',
        }),
        length: Type.Integer({ minimum: 1, maximum: SCHEDULE_LIMITS.length.hours, description: 'units per turn' }),
      },
      { additionalProperties: false },
    ),
    responders: Type.Array(Id, {
      minItems: 1,
      maxItems: SCHEDULE_LIMITS.respondersPerLayer,
      description: 'user ids (the account’s users, SCIM or API), in the order they take turns',
    }),
    restrictions: Type.Optional(Type.Array(Restriction, { maxItems: SCHEDULE_LIMITS.restrictionsPerLayer })),
  },
  { additionalProperties: false },
)

const Override = Type.Object(
  {
    responder: Id,
    from: Instant('ISO 8601 time'),
    to: Instant(`ISO 8601 time, at most ${SCHEDULE_LIMITS.overrideMs / 86_400_000} days after from`),
  },
  { additionalProperties: false, description: 'one responder on call for a span, over every layer' },
)

export const ScheduleBody = Type.Object(
  {
    name: Name,
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin' }),
    layers: Type.Array(Layer, {
      minItems: 1,
      maxItems: SCHEDULE_LIMITS.layers,
      description: 'rotations, lowest first: where several have someone on call, the later one wins',
    }),
    overrides: Type.Optional(
      Type.Array(Override, { maxItems: SCHEDULE_LIMITS.overrides, description: 'a later one wins over an earlier' }),
    ),
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
  layers: Type.Array(Layer),
  overrides: Type.Array(Override),
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
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 366, description: 'how many days from `from` (default 14)' }),
  ),
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
