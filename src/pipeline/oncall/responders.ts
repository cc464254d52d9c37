// How a responder is reached: contact methods (an email address, a Slack member mentioned in a Slack destination's
// channel, a webhook destination of their own) and notification rules (which method, how many minutes into a page, per
// urgency). Pure: the shape (TypeBox: the API's body and the OpenAPI come from it) and the pages one step sends.
import { Type, type Static } from 'typebox'

export const RESPONDER_LIMITS = { contactMethods: 10, rules: 20, afterMinutes: 60 } as const
export const URGENCIES = ['high', 'low'] as const
export type Urgency = (typeof URGENCIES)[number]

const MethodId = Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' })
const Via = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'the destination to send through (default: the account’s first enabled one of that kind)',
  }),
)

const ContactMethod = Type.Union([
  Type.Object(
    {
      id: MethodId,
      kind: Type.Literal('email'),
      address: Type.String({
        minLength: 3,
        maxLength: 254,
        pattern: '^[^\\s@<>()",;:\\\\\\[\\]]{1,64}@[A-Za-z0-9.-]{1,253}$',
        description: 'sent through an email destination’s server, to this address alone',
      }),
      via: Via,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      id: MethodId,
      kind: Type.Literal('slack'),
      memberId: Type.String({
        pattern: '^[UW][A-Z0-9]{2,20}$',
        description: 'a Slack member id (U…), mentioned in a Slack destination’s channel',
      }),
      via: Via,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      id: MethodId,
      kind: Type.Literal('webhook'),
      destinationId: Type.String({ minLength: 1, maxLength: 100, description: 'a webhook destination of the account' }),
    },
    { additionalProperties: false },
  ),
])

const NotificationRule = Type.Object(
  {
    urgency: Type.Enum([...URGENCIES], {
      description: 'high: incidents of severity critical or high; low: warning and info',
    }),
    contactMethod: MethodId,
    afterMinutes: Type.Integer({
      minimum: 0,
      maximum: RESPONDER_LIMITS.afterMinutes,
      description: 'minutes after the step pages them (0: at once)',
    }),
  },
  { additionalProperties: false },
)

export const ProfileSchema = Type.Object(
  {
    contactMethods: Type.Array(ContactMethod, { maxItems: RESPONDER_LIMITS.contactMethods }),
    rules: Type.Array(NotificationRule, {
      maxItems: RESPONDER_LIMITS.rules,
      description: 'none: every contact method at once, whatever the urgency',
    }),
  },
  { additionalProperties: false },
)

export type ContactMethod = Static<typeof ContactMethod>
export type ResponderProfile = Static<typeof ProfileSchema>

/** An incident's urgency from its severity. */
export const urgencyOf = (severity: string): Urgency =>
  severity === 'critical' || severity === 'high' ? 'high' : 'low'

/** Which of a profile's contact methods a page of `urgency` uses, and after how long each. */
export function pagesOf(profile: ResponderProfile, urgency: Urgency): { method: ContactMethod; afterMs: number }[] {
  const byId = new Map(profile.contactMethods.map((m) => [m.id, m]))
  if (profile.rules.length === 0) return profile.contactMethods.map((method) => ({ method, afterMs: 0 }))
  return profile.rules
    .filter((r) => r.urgency === urgency && byId.has(r.contactMethod))
    .map((r) => ({ method: byId.get(r.contactMethod)!, afterMs: r.afterMinutes * 60_000 }))
}

/** What is wrong with a profile of the right shape: method ids used twice, rules naming no method. */
export function profileProblems(profile: ResponderProfile): { field: string; problem: string }[] {
  const problems: { field: string; problem: string }[] = []
  const seen = new Set<string>()
  profile.contactMethods.forEach((m, i) => {
    if (seen.has(m.id)) problems.push({ field: `contactMethods[${i}].id`, problem: `${m.id} is used twice` })
    seen.add(m.id)
  })
  profile.rules.forEach((r, i) => {
    if (!seen.has(r.contactMethod))
      problems.push({
        field: `rules[${i}].contactMethod`,
        problem: `no contact method ${JSON.stringify(r.contactMethod)}`,
      })
  })
  return problems
}
