// Tracking plans and their violations, under /api/v1/environments/<env>: the plan now and its versions, a new version
// saved from the one it was made on (409 otherwise), a plan proposed from the catalogue, and the violations the events
// consumers reported. Admin keys are scoped as for the Data Hub; any role reads, a key of role `all` saves.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { TrackingPlanSchema } from '../../pipeline/plan-schema.js'
import { PLAN_LIMITS, PLAN_MODES, VIOLATION_RULES } from '../../pipeline/plans.js'
import type { DataHubService } from '../../services/datahub.js'
import type { PlanService } from '../../services/plans.js'
import type { Slots } from '../../shared/slots.js'
import type { StoredPlan } from '../../state/redis/plans.js'
import type { RateLimit, RateLimiter } from '../../state/redis/rate-limits.js'
import type { TenancyStore } from '../../state/redis/tenancy.js'
import { KeyScope, useReadSlots, useScopedAdminKey } from '../admin-key.js'
import { analysisAnswers, answer, EnvParams } from '../experiments/schemas.js'
import { ADMIN_SECURITY } from '../split/schemas.js'

export interface PlanRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly store: TenancyStore
  readonly plans: PlanService
  readonly dataHub: DataHubService
  readonly rateLimiter: RateLimiter
  readonly rateLimit: RateLimit
  readonly reads: Slots
}

const StoredPlanAnswer = Type.Object({
  environmentId: Type.String(),
  version: Type.Integer({ description: 'counts the saves, from 1' }),
  plan: TrackingPlanSchema,
  savedAt: Type.String(),
  savedBy: Type.String({ description: 'the API key that saved it (key:<public id>)' }),
})
const SaveBody = Type.Object(
  {
    plan: TrackingPlanSchema,
    baseVersion: Type.Integer({
      minimum: 0,
      description: 'the version the change was made on (0 for a first plan): another version now is a 409',
    }),
  },
  { additionalProperties: false },
)
const VersionParams = Type.Object({ env: EnvParams.properties.env, version: Type.Integer({ minimum: 1 }) })
const ChangesAnswer = Type.Object({
  changes: Type.Array(
    Type.Object({
      version: Type.Integer(),
      savedAt: Type.String(),
      savedBy: Type.String(),
      mode: Type.Enum([...PLAN_MODES]),
      eventTypes: Type.Integer(),
      bytes: Type.Integer(),
    }),
    { description: 'every save, newest first (the last 1,000)' },
  ),
})
const ProposalAnswer = Type.Object({
  environmentId: Type.String(),
  plan: TrackingPlanSchema,
  truncated: Type.Boolean({ description: 'the environment had more than the 100 event types proposed' }),
})
const ViolationsQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'start (default: 30 days before to)' }),
    ),
    to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'end (default: now)' })),
  },
  { additionalProperties: false },
)
const Violation = Type.Object({
  rule: Type.Enum([...VIOLATION_RULES]),
  field: Type.String({ description: "'' (the event), value or properties.<name>" }),
  message: Type.String(),
})
const ViolationsAnswer = Type.Object({
  environmentId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  total: Type.Integer({ description: 'events that broke the plan in the window' }),
  stripped: Type.Integer({ description: 'of them, stored without their unplanned properties' }),
  refused: Type.Integer({ description: 'of them, refused (in the rejections)' }),
  groups: Type.Array(
    Type.Object({
      eventType: Type.String(),
      rule: Type.Enum([...VIOLATION_RULES]),
      sdkVersion: Type.String(),
      records: Type.Integer(),
      stored: Type.Integer(),
      stripped: Type.Integer(),
      refused: Type.Integer(),
      firstAt: Type.String(),
      lastAt: Type.String(),
      examples: Type.Array(
        Type.Object({
          planVersion: Type.Integer(),
          violations: Type.Array(Violation),
          record: Type.String({ description: 'the event as received, JSON cut to 2,000 characters' }),
        }),
      ),
    }),
    { description: 'by event type, rule and SDK version, most records first (at most 200)' },
  ),
})

/** A plan as JSON is at most PLAN_LIMITS.bytes; the body around it a little more. */
const PLAN_BODY_LIMIT = PLAN_LIMITS.bytes + 64 * 1024

const view = (environmentId: string, s: StoredPlan) => ({
  environmentId,
  version: s.version,
  plan: s.plan,
  savedAt: new Date(s.savedAt).toISOString(),
  savedBy: s.savedBy,
})

export async function planRoutes(server: FastifyInstance, opts: PlanRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const scope = new KeyScope(opts.store)
  useScopedAdminKey(app, opts)
  useReadSlots(app, opts.reads)
  const tags = ['tracking plans']

  app.get(
    '/api/v1/environments/:env/tracking-plan',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "The environment's tracking plan now (404 without one)",
        params: EnvParams,
        response: analysisAnswers({ 200: answer('The plan', StoredPlanAnswer) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      return view(env.id, await opts.plans.get(env))
    },
  )

  app.put(
    '/api/v1/environments/:env/tracking-plan',
    {
      bodyLimit: PLAN_BODY_LIMIT,
      // A save compiles the plan whole, and every events consumer compiles it again as its events come: counted as the
      // account's expensive calls.
      config: { expensive: true },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'Saves the plan as the next version, enforced by the events consumers within seconds: 400 naming the place of each problem, 409 when the plan is no longer at baseVersion',
        params: EnvParams,
        body: SaveBody,
        response: analysisAnswers({ 200: answer('The plan saved', StoredPlanAnswer) }, [409, 413]),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'all')
      const by = `key:${scope.principal(request).id}`
      const { plan, baseVersion } = request.body
      return view(env.id, await opts.plans.save(env, plan, baseVersion, by))
    },
  )

  app.get(
    '/api/v1/environments/:env/tracking-plan/versions',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "Every change of the environment's tracking plan, newest first: who saved which version, when",
        params: EnvParams,
        response: analysisAnswers({ 200: answer('The changes', ChangesAnswer) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      const changes = await opts.plans.log(env)
      return { changes: changes.map((c) => ({ ...c, savedAt: new Date(c.savedAt).toISOString() })) }
    },
  )

  app.get(
    '/api/v1/environments/:env/tracking-plan/versions/:version',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'A version of the plan (the last 50 are kept, fewer when the account runs short of stored bytes)',
        params: VersionParams,
        response: analysisAnswers({ 200: answer('The version', StoredPlanAnswer) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      return view(env.id, await opts.plans.at(env, request.params.version))
    },
  )

  app.get(
    '/api/v1/environments/:env/tracking-plan/proposal',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          "A plan that what the environment's catalogue saw passes (the types of each property in the last 1,000 records of each event type, required when all had it), in observe mode, for a person to edit and save; nothing is saved",
        params: EnvParams,
        response: analysisAnswers({ 200: answer('The proposal', ProposalAnswer) }),
      },
    },
    async (request) => opts.plans.propose((await scope.environment(request, request.params.env, 'read')).env),
  )

  app.get(
    '/api/v1/environments/:env/violations',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          "The tracking plan's violations in the environment's events by event type, rule and SDK version, with what became of the events and examples",
        params: EnvParams,
        querystring: ViolationsQuery,
        response: analysisAnswers({ 200: answer('The violations', ViolationsAnswer) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      return opts.dataHub.violations(env, request.query.from, request.query.to)
    },
  )
}
