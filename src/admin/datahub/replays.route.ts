// Replays of refused records, under /api/v1/environments/<env>/replays: a dry run of a filter (how many would be
// stored now, why the others would be refused), a replay queued as a job (the checks role publishes the records again
// through Kafka), and the environment's replays with their progress, outcome and who asked. Admin keys are scoped as
// for the Data Hub; any role reads, a key of role `all` replays.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import {
  DRY_RUN_MS,
  DRY_RUN_RECORDS,
  MAX_REPLAY_RECORDS,
  replayFilter,
  type ReplayService,
} from '../../services/replays.js'
import type { Slots } from '../../shared/slots.js'
import type { RateLimit, RateLimiter } from '../../state/redis/rate-limits.js'
import type { TenancyStore } from '../../state/redis/tenancy.js'
import { KeyScope, useReadSlots, useScopedAdminKey } from '../admin-key.js'
import { analysisAnswers, answer, EnvParams } from '../experiments/schemas.js'
import { ADMIN_SECURITY } from '../split/schemas.js'

export interface ReplayRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly store: TenancyStore
  readonly replays: ReplayService
  readonly rateLimiter: RateLimiter
  readonly rateLimit: RateLimit
  readonly reads: Slots
}

const FilterBody = Type.Object(
  {
    kind: Type.Enum(['events', 'impressions'], { description: 'whose refused records: the events or the impressions' }),
    from: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'received from (default: 30 days before to)' }),
    ),
    to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'received until (default: now)' })),
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description: 'only records whose rejection reason starts with this text (e.g. "tracking plan v3")',
      }),
    ),
    eventType: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'events of this type only' })),
  },
  { additionalProperties: false },
)
const FilterAnswer = Type.Object({
  kind: Type.Enum(['events', 'impressions']),
  from: Type.String(),
  to: Type.String(),
  reason: Type.Optional(Type.String()),
  eventType: Type.Optional(Type.String()),
})
const DryRunAnswer = Type.Object({
  environmentId: Type.String(),
  filter: FilterAnswer,
  selected: Type.Integer({ description: 'refused records the filter selects' }),
  alreadyReplayed: Type.Integer({ description: 'of them, already published again by a replay' }),
  examined: Type.Integer({
    description: `of the others, checked again now, in the order a replay takes them: at most ${DRY_RUN_RECORDS}, and as many as ${DRY_RUN_MS / 1000} s allow (a costly tracking plan takes milliseconds per record)`,
  }),
  complete: Type.Boolean({ description: 'whether every one of the others was checked (false: examined is a sample)' }),
  accepted: Type.Integer({ description: 'of those examined, would be stored now' }),
  stillRefused: Type.Integer({ description: 'of those examined, would be refused again' }),
  notReplayable: Type.Integer({
    description: 'of those examined, cannot be published again (raw copy cut or not kept, telemetry)',
  }),
  planVersion: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the tracking plan version events were checked against (null: none)',
  }),
  refusals: Type.Array(
    Type.Object({
      reason: Type.String(),
      records: Type.Integer(),
      examples: Type.Array(Type.String({ description: 'the record as refused, cut to 2,000 characters' })),
    }),
    { description: 'why those still refused would be, most first (at most 10)' },
  ),
})
const ReplayAnswer = Type.Object({
  id: Type.String(),
  environmentId: Type.String(),
  status: Type.Enum(['pending', 'running', 'done', 'failed']),
  filter: FilterAnswer,
  requestedAt: Type.String(),
  requestedBy: Type.String({
    description: 'who asked for it: key:<public id> (the API), cli:<user> (the command line)',
  }),
  startedAt: Type.Optional(Type.String()),
  finishedAt: Type.Optional(Type.String()),
  attempts: Type.Integer({ description: 'runs started (a run cut by a process killed or an outage counts)' }),
  error: Type.Optional(Type.String()),
  published: Type.Integer({ description: 'refused records published again so far' }),
  notReplayable: Type.Integer({ description: 'records that could not be published again' }),
  stored: Type.Optional(Type.Integer({ description: 'once done: rows the consumers stored from them' })),
  refusedAgain: Type.Optional(Type.Integer({ description: 'once done: records refused again (new rejections)' })),
})
const ReplayParams = Type.Object({
  env: EnvParams.properties.env,
  id: Type.String({ minLength: 1, maxLength: 64, pattern: '^rp_[0-9a-f]+$' }),
})

export async function replayRoutes(server: FastifyInstance, opts: ReplayRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const scope = new KeyScope(opts.store)
  useScopedAdminKey(app, opts)
  useReadSlots(app, opts.reads)
  const tags = ['replays']

  app.post(
    '/api/v1/environments/:env/replays/dry-run',
    {
      // It reads and checks again up to 20,000 refused records: the account's expensive calls.
      config: { expensive: true },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'What a replay of the filter would do now: how many refused records it selects, how many were replayed already, and of the others how many would be stored and why the rest would be refused; nothing is published',
        params: EnvParams,
        body: FilterBody,
        response: analysisAnswers({ 200: answer('The dry run', DryRunAnswer) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      return opts.replays.dryRun(env, replayFilter(request.body))
    },
  )

  app.post(
    '/api/v1/environments/:env/replays',
    {
      config: { expensive: true },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: `Queues a replay: the filter's refused records not replayed yet (at most ${MAX_REPLAY_RECORDS}) published again through Kafka, each stored at most once; 409 while another replay of the environment is unfinished`,
        params: EnvParams,
        body: FilterBody,
        response: analysisAnswers({ 202: answer('The replay, queued', ReplayAnswer) }, [409]),
      },
    },
    async (request, reply) => {
      const { env } = await scope.environment(request, request.params.env, 'all')
      const by = `key:${scope.principal(request).id}`
      const job = await opts.replays.request(env, replayFilter(request.body), by)
      request.log.info({ replay: job.id, environment: env.id, filter: job.filter, by }, 'replay requested')
      return reply.code(202).send(job)
    },
  )

  app.get(
    '/api/v1/environments/:env/replays',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          "The environment's replays, most recent first (the last 100): who asked, the filter, progress, outcome",
        params: EnvParams,
        response: analysisAnswers({ 200: answer('The replays', Type.Object({ replays: Type.Array(ReplayAnswer) })) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      return { replays: await opts.replays.list(env) }
    },
  )

  app.get(
    '/api/v1/environments/:env/replays/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'One replay: its status, progress and outcome',
        params: ReplayParams,
        response: analysisAnswers({ 200: answer('The replay', ReplayAnswer) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      return opts.replays.get(env, request.params.id)
    },
  )
}
