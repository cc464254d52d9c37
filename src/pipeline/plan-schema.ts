// A tracking plan's shape as JSON Schema (TypeBox): what the API takes and documents, and what the plans service checks
// a plan read from a file against (the CLI's plans as code) before its own checks (pipeline/plans.ts: checkPlan).
import { Type } from 'typebox'
import { PLAN_FORMATS, PLAN_LIMITS, PLAN_MODES, PROPERTY_TYPES, UNPLANNED_POLICIES } from './plans.js'

const text = (description: string) => Type.Optional(Type.String({ maxLength: PLAN_LIMITS.textChars, description }))
const PropertyType = Type.Enum([...PROPERTY_TYPES])
const PropertyRule = Type.Object(
  {
    type: Type.Optional(
      Type.Union([PropertyType, Type.Array(PropertyType, { minItems: 1, maxItems: PROPERTY_TYPES.length })], {
        description: 'the type of its values, or the types it may take',
      }),
    ),
    required: Type.Optional(Type.Boolean({ description: 'every event of the type must have it' })),
    enum: Type.Optional(
      Type.Array(
        Type.Union([
          Type.String({ maxLength: PLAN_LIMITS.enumValueChars }),
          Type.Number(),
          Type.Boolean(),
          Type.Null(),
        ]),
        { minItems: 1, maxItems: PLAN_LIMITS.enumValues, description: 'the values it may take' },
      ),
    ),
    minimum: Type.Optional(Type.Number()),
    maximum: Type.Optional(Type.Number()),
    minLength: Type.Optional(Type.Integer({ minimum: 0, maximum: 32768 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 0, maximum: 32768 })),
    pattern: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: PLAN_LIMITS.patternChars,
        description: `a regex its text must match (RE2 syntax: no backreferences or lookaround); the patterns of an event type run on at most ${PLAN_LIMITS.patternStepsPerEvent} program steps per event together, and a text longer than its pattern may run on fails it`,
      }),
    ),
    format: Type.Optional(Type.Enum([...PLAN_FORMATS])),
    description: text('what it means'),
  },
  { additionalProperties: false },
)
const EventPlan = Type.Object(
  {
    description: text('what the event means, when it is sent'),
    owner: text('who answers for it (a team, a person)'),
    value: Type.Optional(
      Type.Object(
        {
          required: Type.Optional(Type.Boolean()),
          minimum: Type.Optional(Type.Number()),
          maximum: Type.Optional(Type.Number()),
          description: text('what the value measures'),
        },
        { additionalProperties: false },
      ),
    ),
    properties: Type.Optional(
      Type.Record(Type.String(), PropertyRule, { maxProperties: PLAN_LIMITS.propertiesPerEvent }),
    ),
    unplannedProperties: Type.Optional(
      Type.Enum([...UNPLANNED_POLICIES], { description: "this event type's policy (the plan's when absent)" }),
    ),
  },
  { additionalProperties: false },
)
export const TrackingPlanSchema = Type.Object(
  {
    mode: Type.Enum([...PLAN_MODES], {
      description:
        'observe: store every event, report violations; block: refuse a violating event (a rejection naming the rule); strip: drop unplanned properties, store the rest, report',
    }),
    unplannedEvents: Type.Enum([...UNPLANNED_POLICIES], {
      description: 'whether an event type the plan does not list is a violation',
    }),
    unplannedProperties: Type.Enum([...UNPLANNED_POLICIES], {
      description: 'whether a property an event type does not list is a violation (strip drops those)',
    }),
    events: Type.Record(Type.String(), EventPlan, {
      maxProperties: PLAN_LIMITS.eventTypes,
      description: 'by event type id',
    }),
  },
  { additionalProperties: false },
)
