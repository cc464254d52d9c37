// Escalation policies: ordered steps, each paging its targets (the on-call of a schedule, a responder, a notification
// destination) and then waiting some minutes before the next; the whole policy repeated some times; a step may hand
// the incident to another policy instead. Pure: the shape (TypeBox: the API's body and the OpenAPI come from it), what
// a policy means (no loop of policies handing over to each other), and the walk from one step to the next, which the
// escalation job (jobs/escalation.job.ts) follows.
import { Type, type Static } from 'typebox'
import type { FieldProblem } from '../../shared/errors.js'
import { Id } from './schedule-schema.js'

export const ESCALATION_LIMITS = {
  steps: 20,
  targetsPerStep: 10,
  /** Times the whole policy runs again after its last step. */
  repeat: 9,
  /** Minutes a step waits before the next (a day at most). */
  waitMinutes: 1440,
  /** Policies one account may keep. */
  policies: 200,
} as const

export const TARGET_KINDS = ['schedule', 'user', 'destination', 'policy'] as const
export type TargetKind = (typeof TARGET_KINDS)[number]

const Target = Type.Object(
  {
    kind: Type.Enum([...TARGET_KINDS], {
      description:
        'schedule: whoever is on call in it when the step fires; user: a responder; destination: a notification destination; policy: hand the incident to another escalation policy (the last step then)',
    }),
    id: Id,
  },
  { additionalProperties: false },
)

export const StepSchema = Type.Object(
  {
    targets: Type.Array(Target, { minItems: 1, maxItems: ESCALATION_LIMITS.targetsPerStep }),
    waitMinutes: Type.Integer({
      minimum: 0,
      maximum: ESCALATION_LIMITS.waitMinutes,
      description: 'minutes from this step to the next when nobody acknowledges (0: the next at once)',
    }),
  },
  { additionalProperties: false },
)

export const PolicySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    steps: Type.Array(StepSchema, { minItems: 1, maxItems: ESCALATION_LIMITS.steps }),
    repeat: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: ESCALATION_LIMITS.repeat,
        description: 'times the policy runs again from its first step after the last one waited (default 0)',
      }),
    ),
  },
  { additionalProperties: false },
)

export type EscalationTarget = Static<typeof Target>
export type EscalationStep = Static<typeof StepSchema>
export type PolicyDefinition = Static<typeof PolicySchema>

/** Where an escalation is: which policy, which run of it (0: the first), which step fires next. */
export interface EscalationPosition {
  readonly policyId: string
  readonly round: number
  readonly step: number
}

/**
 * The step after the one at `at` has fired, and how long after it: the next step of the policy after this one's wait,
 * its first again after the last one's wait while runs are left, another policy's first step at once when this step
 * handed over to it, or undefined when the escalation is over.
 */
export function nextPosition(
  policy: PolicyDefinition,
  at: EscalationPosition,
): { position: EscalationPosition; afterMs: number } | undefined {
  const step = policy.steps[at.step]
  if (!step) return undefined
  const handover = step.targets.find((t) => t.kind === 'policy')
  if (handover) return { position: { policyId: handover.id, round: 0, step: 0 }, afterMs: 0 }
  const afterMs = step.waitMinutes * 60_000
  if (at.step + 1 < policy.steps.length) return { position: { ...at, step: at.step + 1 }, afterMs }
  if (at.round < (policy.repeat ?? 0)) return { position: { ...at, round: at.round + 1, step: 0 }, afterMs }
  return undefined
}

/**
 * What is wrong with a policy that is the right shape: a handover to itself, or into a loop of policies handing over
 * to each other (through the account's other policies, `others` by id), or a step after a handover (it would never
 * fire). Each problem names its field.
 */
export function policyProblems(
  id: string | undefined,
  policy: PolicyDefinition,
  others: ReadonlyMap<string, PolicyDefinition>,
): FieldProblem[] {
  const problems: FieldProblem[] = []
  policy.steps.forEach((step, i) => {
    const handovers = step.targets.filter((t) => t.kind === 'policy')
    if (handovers.length > 1)
      problems.push({ field: `steps[${i}].targets`, problem: 'hands over to more than one policy: keep one' })
    if (handovers.length > 0 && i < policy.steps.length - 1)
      problems.push({
        field: `steps[${i}].targets`,
        problem: 'hands over to another policy, so the steps after it would never fire: make it the last step',
      })
  })
  if ((policy.repeat ?? 0) > 0 && policy.steps.every((s) => s.waitMinutes === 0))
    problems.push({
      field: 'repeat',
      problem: 'the policy would page again and again without a pause: give a step a wait when it repeats',
    })
  const graph = new Map(others)
  if (id !== undefined) graph.set(id, policy)
  policy.steps.forEach((step, i) =>
    step.targets.forEach((t, j) => {
      if (t.kind !== 'policy') return
      const field = `steps[${i}].targets[${j}].id`
      if (t.id === id) return problems.push({ field, problem: 'hands the incident over to this same policy' })
      if (!graph.has(t.id)) return problems.push({ field, problem: `no escalation policy ${JSON.stringify(t.id)}` })
      const loop = id === undefined ? undefined : pathBack(graph, t.id, id)
      if (loop)
        problems.push({
          field,
          problem: `makes a loop of policies handing over to each other: ${[id, ...loop].map((p) => JSON.stringify(p)).join(' → ')}`,
        })
    }),
  )
  return problems
}

/** The handovers from `from` that lead back to `to` (the path, ending with `to`), if any. */
function pathBack(graph: ReadonlyMap<string, PolicyDefinition>, from: string, to: string): string[] | undefined {
  const seen = new Set<string>()
  const walk = (at: string): string[] | undefined => {
    if (at === to) return [at]
    if (seen.has(at)) return undefined
    seen.add(at)
    for (const step of graph.get(at)?.steps ?? [])
      for (const t of step.targets)
        if (t.kind === 'policy') {
          const rest = walk(t.id)
          if (rest) return [at, ...rest]
        }
    return undefined
  }
  return walk(from)
}
