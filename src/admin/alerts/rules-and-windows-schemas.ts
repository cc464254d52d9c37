// The alert rules and maintenance windows API as JSON Schema. Rules and conditions are trees checked by
// pipeline/alerts (rules.ts, conditions.ts, windows.ts), whose 400s name the rule and field; the schemas
// here only give their outer shape.
import { Type } from 'typebox'
import { partialObject } from '../../http/schemas.js'
import { ALERT_FIELDS } from '../integrations/schemas.js'
import { RULE_LIMITS } from '../../pipeline/alerts/rules.js'
import { WEEKDAYS } from '../../pipeline/alerts/windows.js'

const time = (description: string) => Type.String({ format: 'date-time', description })

const CONDITION_DOC =
  'a condition: {"field": <name>, "equals" | "in" | "matches" (RE2 regex) | "exists": ...}, {"all": [...]}, {"any": [...]} or {"not": {...}}; fields: severity, status, description, source, service, environment, team, correlationId, dedupKey, integrationId, tags, customFields.<name>, payload.<path>'

const Rule = Type.Object(
  {
    id: Type.String({ description: 'unique in the set: letters, digits, - and _' }),
    name: Type.String(),
    enabled: Type.Optional(Type.Boolean({ description: 'default true' })),
    when: Type.Optional(Type.Unknown({ description: `which alerts it applies to (absent: all); ${CONDITION_DOC}` })),
    set: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          'fields to set: severity, description, source, service, environment, team; moustache templates over {{alert.<field>}} and {{webhook.<path>}}',
      }),
    ),
    customFields: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'templates, as set' })),
    addTags: Type.Optional(Type.Array(Type.String())),
    drop: Type.Optional(Type.Boolean({ description: 'the alert is not stored (counted; its request id kept a day)' })),
    stop: Type.Optional(Type.Boolean({ description: 'later rules are not read' })),
    notify: Type.Optional(
      Type.Array(Type.String(), {
        description: "notification destination ids: the alert's events go to these (else to the default route)",
      }),
    ),
    escalate: Type.Optional(
      Type.String({
        description: "an escalation policy id: the alert's incident follows it (else the account's default policy)",
      }),
    ),
  },
  { additionalProperties: true },
)

export const RuleSetBody = Type.Object(
  {
    rules: Type.Array(Type.Unknown(), {
      description: `the rules in order (at most ${RULE_LIMITS.maxRules}), each ${'{id, name, enabled?, when?, set?, customFields?, addTags?, notify?, escalate?, drop?, stop?}'}`,
    }),
    version: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'the version these rules replace: 409 when another change came first (absent: replace whatever is)',
      }),
    ),
  },
  { additionalProperties: false },
)

export const RuleSet = Type.Object({
  version: Type.Integer({ description: '0 for an account that never saved rules' }),
  rules: Type.Array(Rule),
  updatedAt: Type.Union([time('when this version was saved'), Type.Null()]),
  updatedBy: Type.Optional(Type.String({ description: 'the API key that saved it (key:<public id>)' })),
})

export const VersionParams = Type.Object({ version: Type.Integer({ minimum: 1 }) })

export const TestBody = Type.Object(
  {
    integrationId: Type.Optional(
      Type.String({ maxLength: 100, description: "render payload (or its example) with this integration's mapping" }),
    ),
    payload: Type.Optional(Type.Unknown({ description: 'a payload as the sender posts it' })),
    alert: Type.Optional(
      partialObject(
        Type.Object({
          ...ALERT_FIELDS,
          integrationId: Type.String(),
          customFields: Type.Record(Type.String(), Type.String()),
        }),
        {
          description:
            'a normalized alert, instead of an integration and payload (severity warning, status firing and empty texts unless given)',
        },
      ),
    ),
    rules: Type.Optional(Type.Array(Type.Unknown(), { description: 'rules to try instead of the saved ones' })),
    at: Type.Optional(time('when the alert is taken to arrive (the windows are read at that time); default now')),
  },
  { additionalProperties: false },
)

const TestedAlert = Type.Object({
  before: Type.Unknown({ description: 'the alert as the mapping made it' }),
  after: Type.Union([Type.Unknown(), Type.Null()], { description: 'as the rules left it; null when dropped' }),
  dropped: Type.Boolean(),
  droppedBy: Type.Optional(Type.String()),
  applied: Type.Array(Type.String(), { description: 'the rules that applied, in order' }),
  suppressedBy: Type.Optional(Type.String({ description: 'the maintenance window it would be suppressed by' })),
  suppressedUntil: Type.Optional(time('when that window ends')),
  overBudget: Type.Optional(
    Type.String({ description: 'why the rules and windows were not applied: they went over the budget of a payload' }),
  ),
})

export const TestResult = Type.Object({
  rulesVersion: Type.Union([Type.Integer(), Type.Null()], { description: 'null when the rules given were tested' }),
  at: time('the time the windows were read at'),
  alerts: Type.Array(TestedAlert),
  rejected: Type.Array(Type.Object({ index: Type.Integer(), reason: Type.String() })),
})

export const DroppedQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })) },
  { additionalProperties: false },
)

export const DroppedList = Type.Object({
  dropped: Type.Array(
    Type.Object({
      id: Type.String({ description: "the record's stream id" }),
      requestId: Type.String({ description: 'the webhook request the alert came in' }),
      integrationId: Type.String(),
      dedupKey: Type.String(),
      rule: Type.String({ description: 'the rule that dropped it' }),
      receivedAt: Type.String(),
    }),
  ),
})

const Schedule = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('once'),
      from: time('start, with its offset'),
      to: time('end, with its offset (at most 366 days after from)'),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('weekly'),
      timeZone: Type.String({ description: 'an IANA time zone, e.g. Europe/Berlin' }),
      days: Type.Array(Type.Enum([...WEEKDAYS])),
      start: Type.String({ description: 'HH:MM, wall clock in timeZone' }),
      end: Type.String({ description: 'HH:MM; at or before start: the next day' }),
    },
    { additionalProperties: false },
  ),
])

export const WindowBody = Type.Object(
  {
    name: Type.String({ description: '1 to 200 characters' }),
    when: Type.Optional(Type.Unknown({ description: `which alerts it quiets (absent: all); ${CONDITION_DOC}` })),
    schedule: Type.Unknown({
      description:
        '{"kind": "once", "from", "to"} or {"kind": "weekly", "timeZone", "days": ["mon", ...], "start": "HH:MM", "end": "HH:MM"}',
    }),
  },
  { additionalProperties: true },
)

const Occurrence = Type.Object({ start: time('start'), end: time('end') })

export const Window = Type.Object({
  id: Type.String(),
  name: Type.String(),
  when: Type.Optional(Type.Unknown()),
  schedule: Schedule,
  createdAt: time('created'),
  updatedAt: time('last changed'),
  activeNow: Type.Boolean({ description: 'an occurrence is running now' }),
  next: Type.Union([Occurrence, Type.Null()], {
    description: 'the occurrence running now, or the next one within 8 days',
  }),
})

export const WindowList = Type.Object({ windows: Type.Array(Window) })
export const WindowParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

export const CalendarQuery = Type.Object(
  {
    from: Type.Optional(time('default now')),
    to: Type.Optional(time('default 7 days after from; at most 62 days after it')),
  },
  { additionalProperties: false },
)

export const Calendar = Type.Object({
  windows: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      activeNow: Type.Boolean(),
      occurrences: Type.Array(Occurrence),
    }),
  ),
})
