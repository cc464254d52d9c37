// The shape of an on-call schedule (TypeBox: the API's body schema and the OpenAPI come from it, and the service checks
// a schedule read from elsewhere with it). Counts and lengths are bounded here (SCHEDULE_LIMITS); what a schedule means
// (its zone, its times, its responders) is checked by schedules.ts and the service.
import { Type } from 'typebox'
import { WEEKDAYS } from '../alerts/windows.js'
import { ROTATION_UNITS, SCHEDULE_LIMITS } from './schedules.js'

export const Id = Type.String({ minLength: 1, maxLength: 100 })
const Name = Type.String({ minLength: 1, maxLength: 200 })
const LocalTime = (description: string) => Type.String({ minLength: 16, maxLength: 16, description })
export const Instant = (description: string) => Type.String({ minLength: 1, maxLength: 40, description })

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

export const LayerSchema = Type.Object(
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

export const OverrideSchema = Type.Object(
  {
    responder: Id,
    from: Instant('ISO 8601 time'),
    to: Instant(`ISO 8601 time, at most ${SCHEDULE_LIMITS.overrideMs / 86_400_000} days after from`),
  },
  { additionalProperties: false, description: 'one responder on call for a span, over every layer' },
)

export const ScheduleSchema = Type.Object(
  {
    name: Name,
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin' }),
    layers: Type.Array(LayerSchema, {
      minItems: 1,
      maxItems: SCHEDULE_LIMITS.layers,
      description: 'rotations, lowest first: where several have someone on call, the later one wins',
    }),
    overrides: Type.Optional(
      Type.Array(OverrideSchema, {
        maxItems: SCHEDULE_LIMITS.overrides,
        description: 'a later one wins over an earlier',
      }),
    ),
  },
  { additionalProperties: false },
)
