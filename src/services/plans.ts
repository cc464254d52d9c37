// Tracking plans as a use case, whoever asks (the API, `sluice plans`): read an environment's plan and its versions,
// save a new version (checked, compiled whole, refused when it is not the version the change was made from), and
// propose one from what the catalogue saw.
import { lazy } from '../shared/lazy.js'
import { setImmediate } from 'node:timers/promises'
import { Ajv } from 'ajv'
import { TrackingPlanSchema } from '../pipeline/plan-schema.js'
import { checkPlan, compilePlan, proposePlan, type TrackingPlan } from '../pipeline/plans.js'
import { Type } from 'typebox'
import { invalid, Refusal } from '../shared/errors.js'
import { fieldProblems } from '../shared/field-problems.js'
import type { PlanChange, PlanStore, StoredPlan } from '../state/redis/plans.js'
import type { Environment } from '../state/redis/tenancy.js'
import type { DataHubService } from './datahub.js'

export type { TrackingPlan }

/**
 * A plan's shape (the API checks it before the service; a file of `sluice plans push` is checked here), as the API's
 * body `{plan}` is: its problems named alike (`plan.events.checkout.properties.plan.type`).
 */
const validShape = lazy(() =>
  new Ajv({ allErrors: true, strict: false, verbose: true }).compile(Type.Object({ plan: TrackingPlanSchema })),
)

/** Event types a proposal reads (most records in 30 days first): each is one read of the catalogue. */
export const PROPOSED_EVENT_TYPES = 100

export interface Proposal {
  readonly environmentId: string
  readonly plan: TrackingPlan
  /** Whether the environment had more event types than the PROPOSED_EVENT_TYPES proposed. */
  readonly truncated: boolean
}

export class PlanService {
  constructor(
    private readonly store: PlanStore,
    private readonly dataHub: DataHubService,
  ) {}

  async get(env: Environment): Promise<StoredPlan> {
    const stored = await this.store.get(env.accountId, env.id)
    if (!stored) throw new Refusal('NOT_FOUND', `environment ${env.name} has no tracking plan`)
    return stored
  }

  async at(env: Environment, version: number): Promise<StoredPlan> {
    const stored = await this.store.at(env.accountId, env.id, version)
    if (!stored)
      throw new Refusal('NOT_FOUND', `version ${version} of the tracking plan is not kept (or was never saved)`)
    return stored
  }

  log(env: Environment): Promise<PlanChange[]> {
    return this.store.log(env.accountId, env.id)
  }

  /**
   * Saves the plan as the version after baseVersion (0 for a first plan): 400 naming the place of each problem, 409
   * when the plan is no longer at baseVersion.
   */
  async save(env: Environment, plan: TrackingPlan, baseVersion: number, savedBy: string): Promise<StoredPlan> {
    const valid = validShape()
    if (!valid({ plan })) throw invalid(fieldProblems(valid.errors ?? [], 'body'), 'the tracking plan cannot be saved')
    const problems = checkPlan(plan)
    if (problems.length > 0)
      throw invalid(
        problems.map((p) => ({ ...p, field: `plan.${p.field}` })),
        'the tracking plan cannot be saved',
      )
    // Compiled whole now, an event type at a time between other requests (what the consumers compile on first use).
    const compiled = compilePlan(plan, 0)
    for (const type of Object.keys(plan.events)) {
      try {
        compiled.compile(type)
      } catch (err) {
        throw invalid([
          {
            field: `plan.events.${type}`,
            problem: `does not compile: ${err instanceof Error ? err.message : String(err)}`,
          },
        ])
      }
      await setImmediate()
    }
    const saved = await this.store.save(env.accountId, env.id, plan, baseVersion, savedBy)
    if (saved === 'conflict') {
      const now = await this.store.head(env.accountId, env.id)
      throw new Refusal(
        'CONFLICT',
        `the tracking plan is at version ${now}, not ${baseVersion}: read it again, make the change on it, and save it with baseVersion ${now}`,
      )
    }
    return saved
  }

  /** A plan that what the environment's catalogue saw passes (see proposePlan), for a person to edit and save. */
  async propose(env: Environment): Promise<Proposal> {
    const { eventTypes, truncated } = await this.dataHub.eventTypes(env)
    const seen = []
    for (const summary of eventTypes.slice(0, PROPOSED_EVENT_TYPES)) {
      try {
        seen.push(await this.dataHub.eventType(env, summary.eventType))
      } catch (err) {
        // Received in the window of the list, past it a moment later: nothing to propose for it.
        if (!(err instanceof Refusal && err.code === 'NOT_FOUND')) throw err
      }
    }
    return {
      environmentId: env.id,
      plan: proposePlan(seen),
      truncated: truncated || eventTypes.length > PROPOSED_EVENT_TYPES,
    }
  }
}
