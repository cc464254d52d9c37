// The Data Hub's routes for importers, under /api/v1/environments/<env>: refused records by reason. Admin keys are
// scoped as for experiment results (another account's or a restricted key's other environments: 404); any role reads.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import type { DataHubService } from '../../services/datahub.js'
import type { RateLimit, RateLimiter } from '../../state/redis/rate-limits.js'
import type { TenancyStore } from '../../state/redis/tenancy.js'
import { KeyScope, useScopedAdminKey } from '../admin-key.js'
import { analysisAnswers, answer, EnvParams } from '../experiments/schemas.js'
import { ADMIN_SECURITY } from '../split/schemas.js'

export interface DataHubRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly store: TenancyStore
  readonly dataHub: DataHubService
  readonly rateLimiter: RateLimiter
  readonly rateLimit: RateLimit
}

const time = (description: string) =>
  Type.Optional(
    Type.String({ minLength: 1, maxLength: 40, description: `${description}: epoch milliseconds or ISO 8601` }),
  )
const RejectionsQuery = Type.Object(
  {
    kind: Type.Optional(Type.Enum(['events', 'impressions'], { description: 'which records (default events)' })),
    from: time('start (default: 30 days before to)'),
    to: time('end (default: now)'),
  },
  { additionalProperties: false },
)
const RejectionsAnswer = Type.Object({
  environmentId: Type.String(),
  kind: Type.Enum(['events', 'impressions']),
  from: Type.String(),
  to: Type.String(),
  total: Type.Integer({ description: 'records refused in the window' }),
  reasons: Type.Array(
    Type.Object({
      reason: Type.String(),
      records: Type.Integer(),
      firstAt: Type.String(),
      lastAt: Type.String(),
      examples: Type.Array(
        Type.Object({
          raw: Type.String({ description: 'the record as received, as text, cut to 2,048 characters' }),
          rawBytes: Type.Integer({
            description: 'the size of the record as kept (the first 256 Ki characters of a refused record are kept)',
          }),
          truncated: Type.Boolean(),
          requestId: Type.String({ description: 'the request that carried it (its 202 answer gave this id)' }),
          receivedAt: Type.String(),
        }),
      ),
    }),
  ),
})

export async function dataHubRoutes(server: FastifyInstance, opts: DataHubRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const scope = new KeyScope(opts.store)
  useScopedAdminKey(app, opts)

  app.get(
    '/api/v1/environments/:env/rejections',
    {
      schema: {
        tags: ['data hub'],
        security: ADMIN_SECURITY,
        summary:
          "The environment's refused events or impressions by reason (most first, at most 100 reasons), with up to 5 examples each and the requests that carried them",
        params: EnvParams,
        querystring: RejectionsQuery,
        response: analysisAnswers({ 200: answer('The refused records', RejectionsAnswer) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      const q = request.query
      return opts.dataHub.rejections(env, q.kind ?? 'events', q.from, q.to)
    },
  )
}
