// The Data Hub's routes for importers, under /api/v1/environments/<env>: the catalogue of event types and flags seen,
// refused records by reason, and erasures (a person's records deleted, as a job). Admin keys are
// scoped as for experiment results (another account's or a restricted key's other environments: 404); any role reads.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { EVENT_TYPE_ID } from '../../pipeline/events.js'
import type { ConsumerLag, DataHubService } from '../../services/datahub.js'
import type { FreshnessHour } from '../../services/freshness.js'
import { MAX_ERASURE_KEYS, MAX_KEY_LENGTH, type ErasureService } from '../../services/erasures.js'
import type { RateLimit, RateLimiter } from '../../state/redis/rate-limits.js'
import type { TenancyStore } from '../../state/redis/tenancy.js'
import type { Slots } from '../../shared/slots.js'
import { KeyScope, useReadSlots, useScopedAdminKey } from '../admin-key.js'
import { analysisAnswers, answer, EnvParams } from '../experiments/schemas.js'
import { ADMIN_SECURITY } from '../split/schemas.js'

export interface DataHubRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly store: TenancyStore
  readonly dataHub: DataHubService
  readonly erasures: ErasureService
  readonly consumerLag: () => Promise<ConsumerLag>
  /** The freshness canary's hours (services/freshness.ts). */
  readonly freshness: () => Promise<FreshnessHour[]>
  readonly rateLimiter: RateLimiter
  readonly rateLimit: RateLimit
  /** The process's expensive reads: each route holds one while it runs (per account). */
  readonly reads: Slots
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

const Seen = {
  firstAt: Type.String({ description: 'the first record received in the catalogue window (90 days)' }),
  lastAt: Type.String({ description: 'the last record received' }),
  last24h: Type.Integer({ description: 'records received in the last 24 hours' }),
  last7d: Type.Integer(),
  last30d: Type.Integer(),
  sdkVersions: Type.Array(Type.String(), {
    description: "up to 20 of the SDK versions that sent them (the SplitSDKVersion header; '' for none)",
  }),
}
const CatalogueWindow = {
  environmentId: Type.String(),
  since: Type.String({ description: 'records received from then on were read (90 days before at)' }),
  at: Type.String(),
  truncated: Type.Boolean({ description: 'more than the 1,000 rows listed were seen (the smallest are left out)' }),
}
const EventTypeSummary = {
  eventType: Type.String(),
  ...Seen,
  valueShare: Type.Union([Type.Number(), Type.Null()], {
    description: "the share of the last 30 days' records with a value (null without records then)",
  }),
}
const EventTypesAnswer = Type.Object({ ...CatalogueWindow, eventTypes: Type.Array(Type.Object(EventTypeSummary)) })
const PropertyTypeCount = Type.Optional(Type.Integer())
const EventTypeAnswer = Type.Object({
  ...EventTypeSummary,
  sample: Type.Integer({ description: 'the records whose properties were read: the last 1,000 received' }),
  properties: Type.Array(
    Type.Object({
      name: Type.String(),
      types: Type.Object(
        { string: PropertyTypeCount, number: PropertyTypeCount, boolean: PropertyTypeCount, null: PropertyTypeCount },
        { description: 'records of the sample with the property, by the type of its value' },
      ),
      fillRate: Type.Number({ description: "the share of the sample's records that had it" }),
    }),
  ),
  propertiesTruncated: Type.Boolean({ description: 'more than the 500 property names listed were seen' }),
  cutRecords: Type.Integer({
    description:
      'records of the sample whose property names came to more than the 16 KiB read of each: names past that were not read, so a fill rate may be low by up to cutRecords / sample',
  }),
})
const FlagsSeenAnswer = Type.Object({
  ...CatalogueWindow,
  flags: Type.Array(
    Type.Object({ flag: Type.String(), ...Seen, treatments: Type.Array(Type.String({ description: 'up to 20' })) }),
  ),
})
const EventTypeParams = Type.Object({
  env: EnvParams.properties.env,
  type: Type.String({ minLength: 1, maxLength: 80, pattern: EVENT_TYPE_ID.source }),
})

const ErasureBody = Type.Object(
  {
    keys: Type.Array(Type.String({ minLength: 1, maxLength: MAX_KEY_LENGTH }), {
      minItems: 1,
      maxItems: MAX_ERASURE_KEYS,
      description: 'the keys (user ids) whose events, impressions and unique keys are deleted',
    }),
  },
  { additionalProperties: false },
)
const erasureFields = {
  id: Type.String({ description: 'made of the environment and the keys: the same keys name the same job' }),
  environmentId: Type.String(),
  keyCount: Type.Integer({ description: 'how many keys it erases (a finished job keeps no key, only their number)' }),
  status: Type.Enum(['pending', 'running', 'done', 'failed']),
  requestedAt: Type.String({ description: 'when it was last requested: the records received until then are erased' }),
  requests: Type.Integer({ description: 'how many times it was requested' }),
  startedAt: Type.Optional(Type.String()),
  finishedAt: Type.Optional(Type.String()),
  attempts: Type.Integer({ description: 'runs started (at most 5)' }),
  error: Type.Optional(Type.String({ description: "the last run's error; for a failed job, why it failed" })),
  deleted: Type.Optional(
    Type.Record(Type.String(), Type.Integer(), { description: 'records deleted per table, once done' }),
  ),
}
const ErasureAnswer = Type.Object({
  ...erasureFields,
  keys: Type.Array(Type.String(), { description: 'the keys, while it is unfinished; [] once finished' }),
})
const HealthAnswer = Type.Object({
  environmentId: Type.String(),
  at: Type.String(),
  minutes: Type.Array(
    Type.Object({
      minute: Type.String(),
      events: Type.Integer(),
      refusedEvents: Type.Integer(),
      impressions: Type.Integer(),
      refusedImpressions: Type.Integer(),
    }),
    { description: 'the last 60 minutes, oldest first, by the time Sluice received the records' },
  ),
  topReasons: Type.Array(
    Type.Object({ kind: Type.Enum(['events', 'impressions']), reason: Type.String(), records: Type.Integer() }),
    { description: 'the 5 reasons that refused the most records in the last hour' },
  ),
  lastEventAt: Type.Union([Type.String(), Type.Null()], { description: 'null: none in 90 days' }),
  lastImpressionAt: Type.Union([Type.String(), Type.Null()]),
  sdks: Type.Array(
    Type.Object({
      sdkVersion: Type.String(),
      lastSeenAt: Type.String(),
      sends: Type.Array(Type.String()),
      impressionsMode: Type.Union([Type.String(), Type.Null()]),
      modeSource: Type.Union([Type.Enum(['header', 'telemetry']), Type.Null()], {
        description:
          "header: the SplitSDKImpressionsMode header of its impressions; telemetry: its config telemetry's iM (a missing iM read as 0, OPTIMIZED)",
      }),
    }),
    { description: 'the SDK versions that sent anything in the last 24 hours, most recent first' },
  ),
  consumerLag: Type.Union([Type.Record(Type.String(), Type.Integer()), Type.Null()], {
    description: 'messages of the events and impressions topics not yet stored (all environments); null if unknown',
  }),
  note: Type.Union([Type.String(), Type.Null()]),
  freshness: Type.Array(
    Type.Object({
      hour: Type.String(),
      canaries: Type.Integer(),
      p50Ms: Type.Union([Type.Number(), Type.Null()]),
      p95Ms: Type.Union([Type.Number(), Type.Null()]),
      notQueryable: Type.Integer({ description: 'canaries not queryable within 60 s' }),
    }),
    {
      description:
        "the freshness canary's hours of the last day, newest first (all environments): time from accepted (202) to queryable in ClickHouse",
    },
  ),
})
const ErasureParams = Type.Object({
  env: EnvParams.properties.env,
  id: Type.String({ minLength: 1, maxLength: 64 }),
})

export async function dataHubRoutes(server: FastifyInstance, opts: DataHubRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const scope = new KeyScope(opts.store)
  useScopedAdminKey(app, opts)
  useReadSlots(app, opts.reads)

  app.get(
    '/api/v1/environments/:env/event-types',
    {
      schema: {
        tags: ['data hub'],
        security: ADMIN_SECURITY,
        summary:
          'The event types the environment received in the last 90 days (most records in 30 days first, at most 1,000): when first and last, how many, the share with a value, the SDK versions',
        params: EnvParams,
        response: analysisAnswers({ 200: answer('The event types', EventTypesAnswer) }),
      },
    },
    async (request) => opts.dataHub.eventTypes((await scope.environment(request, request.params.env, 'read')).env),
  )

  app.get(
    '/api/v1/environments/:env/event-types/:type',
    {
      schema: {
        tags: ['data hub'],
        security: ADMIN_SECURITY,
        summary:
          'One event type: its counts, and the property names of its last 1,000 records with the types of their values and how often each is present (404 if none was received in 90 days)',
        params: EventTypeParams,
        response: analysisAnswers({ 200: answer('The event type', EventTypeAnswer) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      return opts.dataHub.eventType(env, request.params.type)
    },
  )

  app.get(
    '/api/v1/environments/:env/health',
    {
      schema: {
        tags: ['data hub'],
        security: ADMIN_SECURITY,
        summary:
          "The environment's ingestion health: records received and refused per minute over the last hour, the top reasons, the SDKs talking to it with their impressions mode, the last event, the consumers' lag",
        params: EnvParams,
        response: analysisAnswers({ 200: answer('The ingestion health', HealthAnswer) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      const [health, freshness] = await Promise.all([opts.dataHub.health(env, opts.consumerLag), opts.freshness()])
      return { ...health, freshness }
    },
  )

  app.get(
    '/api/v1/environments/:env/flags-seen',
    {
      schema: {
        tags: ['data hub'],
        security: ADMIN_SECURITY,
        summary:
          "The flags the environment's impressions named in the last 90 days (most in 30 days first, at most 1,000), with the treatments and SDK versions seen",
        params: EnvParams,
        response: analysisAnswers({ 200: answer('The flags seen', FlagsSeenAnswer) }),
      },
    },
    async (request) => opts.dataHub.flagsSeen((await scope.environment(request, request.params.env, 'read')).env),
  )

  app.post(
    '/api/v1/environments/:env/erasures',
    {
      schema: {
        tags: ['data hub'],
        security: ADMIN_SECURITY,
        summary:
          "Erases the keys' events, impressions, unique keys and refused records in the environment, as a job (202; the same keys again while it waits or runs: 200 and that job; once finished, it runs again)",
        params: EnvParams,
        body: ErasureBody,
        response: analysisAnswers(
          {
            200: answer('The same erasure, already waiting or running', ErasureAnswer),
            202: answer('The erasure, queued', ErasureAnswer),
          },
          [409],
        ),
      },
    },
    async (request, reply) => {
      const { env } = await scope.environment(request, request.params.env, 'all')
      const { job, queued } = await opts.erasures.request(env, request.body)
      return reply.code(queued ? 202 : 200).send(job)
    },
  )

  app.get(
    '/api/v1/environments/:env/erasures',
    {
      schema: {
        tags: ['data hub'],
        security: ADMIN_SECURITY,
        summary: "The environment's erasures, most recent first (at most 100; each one's keys in its own answer)",
        params: EnvParams,
        response: analysisAnswers({
          200: answer('The erasures', Type.Object({ erasures: Type.Array(Type.Object(erasureFields)) })),
        }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'all')
      return { erasures: await opts.erasures.list(env) }
    },
  )

  app.get(
    '/api/v1/environments/:env/erasures/:id',
    {
      schema: {
        tags: ['data hub'],
        security: ADMIN_SECURITY,
        summary: 'One erasure and its status',
        params: ErasureParams,
        response: analysisAnswers({ 200: answer('The erasure', ErasureAnswer) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'all')
      return opts.erasures.get(env, request.params.id)
    },
  )

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
