// Metric definitions per workspace and experiment results per environment, under /api/v1. Admin keys
// are scoped as in the Split Admin API: a key sees only the workspaces and environments it is
// restricted to (404 for the others); every role reads metrics and results; changing a metric needs
// role all and a key not restricted to environments (a metric serves every environment of its
// workspace). Results are ClickHouse queries over every exposed key: at most a few run at once per
// process (429 beyond), each bounded in time and memory.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Static } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { HttpError } from '../../http/errors.js'
import { parseDimension, parseTime, parseWeights, type ResultsRequest } from '../../services/experiments/request.js'
import type { PowerRequest } from '../../services/experiments/power.js'
import type { ExperimentService } from '../../services/experiments/service.js'
import type { MetricService } from '../../services/metrics.js'
import type { Metric as MetricRecord, MetricAuditEntry } from '../../state/redis/metrics.js'
import type { RateLimit, RateLimiter } from '../../state/redis/rate-limits.js'
import type { TenancyStore } from '../../state/redis/tenancy.js'
import { Slots } from '../../shared/slots.js'
import { KeyScope, READ_SLOT_WAIT_MS, useScopedAdminKey, waitForSlot, withReadSlot } from '../admin-key.js'
import { ADMIN_SECURITY } from '../split/schemas.js'
import {
  analysisAnswers,
  answer,
  EnvParams,
  ExperimentDefaults,
  ExperimentDefaultsBody,
  FlagList,
  FlagSettings,
  FlagParams,
  FlagsQuery,
  Metric,
  MetricAudit,
  MetricBody,
  MetricList,
  MetricParams,
  Power,
  PowerBody,
  Results,
  ResultsQuery,
  Timeseries,
  TimeseriesQuery,
  WsParams,
} from './schemas.js'

export interface ExperimentRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly store: TenancyStore
  readonly metrics: MetricService
  readonly experiments: ExperimentService
  readonly rateLimiter: RateLimiter
  readonly rateLimit: RateLimit
  /** Results computed at once by this process. */
  readonly maxConcurrent: number
  /** The process's expensive reads (shared with the Data Hub): results hold one while they run (per account). */
  readonly reads: Slots
  /** How long a results query may take: the time limit of a whole timeseries too. */
  readonly queryTimeoutMs: number
}

const iso = (ms: number) => new Date(ms).toISOString()

/** A results request from the route's flag and query. */
function resultsRequest(flag: string, q: Static<typeof ResultsQuery>): ResultsRequest {
  return {
    flag,
    metricIds: q.metrics.split(',').map((s) => s.trim()),
    from: parseTime('from', q.from),
    to: parseTime('to', q.to),
    baseline: q.baseline,
    alpha: q.alpha,
    weights: q.weights === undefined ? undefined : parseWeights(q.weights),
    rule: q.rule,
    minKeys: q.minKeys,
    sequential: q.sequential,
    sequentialTuning: q.sequentialTuning,
    cuped: q.cuped,
    correction: q.correction,
    guardrails: q.guardrails?.split(',').map((s) => s.trim()),
    engine: q.engine,
    prior: q.prior,
    priorMean: q.priorMean,
    priorVariance: q.priorVariance,
    dimension: q.dimension === undefined ? undefined : parseDimension(q.dimension),
    maxSlices: q.maxSlices,
    correctionScope: q.correctionScope,
  }
}

export function metricView(m: MetricRecord) {
  // Definitions saved before guardrails, percentile caps and CUPED windows existed lack those fields.
  return {
    ...m,
    capPercentile: m.capPercentile ?? null,
    preExposureDays: m.preExposureDays ?? null,
    quantile: m.quantile ?? null,
    guardrail: m.guardrail ?? false,
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
  }
}

export async function experimentRoutes(server: FastifyInstance, opts: ExperimentRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const scope = new KeyScope(opts.store)
  useScopedAdminKey(app, opts)
  const editor = (request: FastifyRequest, ws: string) => {
    if (scope.principal(request).environmentIds)
      throw new HttpError(
        'FORBIDDEN',
        'metrics serve every environment of their workspace: changing one needs an admin API key not restricted to environments',
      )
    return scope.workspace(request, ws, 'all')
  }
  const metricsTags = ['metrics']
  const tags = ['experiments']

  app.get(
    '/api/v1/workspaces/:ws/metrics',
    {
      schema: {
        tags: metricsTags,
        security: ADMIN_SECURITY,
        summary: "The workspace's metric definitions, oldest first",
        params: WsParams,
        response: analysisAnswers({ 200: answer('The metrics', MetricList) }),
      },
    },
    async (request) => {
      const ws = await scope.workspace(request, request.params.ws, 'read')
      return { metrics: (await opts.metrics.list(ws)).map(metricView) }
    },
  )

  app.post(
    '/api/v1/workspaces/:ws/metrics',
    {
      schema: {
        tags: metricsTags,
        security: ADMIN_SECURITY,
        summary: 'Define a metric (recorded in the audit log)',
        params: WsParams,
        body: MetricBody,
        response: analysisAnswers({ 201: answer('The metric', Metric) }, [409]),
      },
    },
    async (request, reply) => {
      const ws = await editor(request, request.params.ws)
      const metric = await opts.metrics.create(ws, request.body, scope.actor(request))
      request.log.info({ workspaceId: ws.id, metricId: metric.id }, 'metric created')
      return reply.code(201).send(metricView(metric))
    },
  )

  app.get(
    '/api/v1/workspaces/:ws/metrics/:id',
    {
      schema: {
        tags: metricsTags,
        security: ADMIN_SECURITY,
        summary: 'One metric definition',
        params: MetricParams,
        response: analysisAnswers({ 200: answer('The metric', Metric) }),
      },
    },
    async (request) =>
      metricView(await opts.metrics.get(await scope.workspace(request, request.params.ws, 'read'), request.params.id)),
  )

  app.put(
    '/api/v1/workspaces/:ws/metrics/:id',
    {
      schema: {
        tags: metricsTags,
        security: ADMIN_SECURITY,
        summary: 'Replace a metric definition (recorded in the audit log); results computed afterwards use it',
        params: MetricParams,
        body: MetricBody,
        response: analysisAnswers({ 200: answer('The metric', Metric) }, [409]),
      },
    },
    async (request) => {
      const ws = await editor(request, request.params.ws)
      const metric = await opts.metrics.replace(ws, request.params.id, request.body, scope.actor(request))
      request.log.info({ workspaceId: ws.id, metricId: metric.id }, 'metric replaced')
      return metricView(metric)
    },
  )

  app.delete(
    '/api/v1/workspaces/:ws/metrics/:id',
    {
      schema: {
        tags: metricsTags,
        security: ADMIN_SECURITY,
        summary: 'Delete a metric definition (recorded in the audit log)',
        params: MetricParams,
        response: analysisAnswers({ 204: { type: 'null', description: 'Deleted' } }),
      },
    },
    async (request, reply) => {
      const ws = await editor(request, request.params.ws)
      await opts.metrics.delete(ws, request.params.id, scope.actor(request))
      request.log.info({ workspaceId: ws.id, metricId: request.params.id }, 'metric deleted')
      return reply.code(204).send()
    },
  )

  app.get(
    '/api/v1/workspaces/:ws/metrics-audit',
    {
      schema: {
        tags: metricsTags,
        security: ADMIN_SECURITY,
        summary: 'Who created, changed or deleted which metric, when (newest first)',
        params: WsParams,
        response: analysisAnswers({ 200: answer('The audit log', MetricAudit) }),
      },
    },
    async (request) => {
      const ws = await scope.workspace(request, request.params.ws, 'read')
      return {
        entries: (await opts.metrics.audit(ws)).map((e: MetricAuditEntry) => ({
          ...e,
          at: iso(e.at),
          ...(e.definition ? { definition: metricView(e.definition) } : {}),
        })),
      }
    },
  )

  app.get(
    '/api/v1/environments/:env/experiments',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'The flags with impressions in the environment within a window (default the last 30 days), with their treatments',
        params: EnvParams,
        querystring: FlagsQuery,
        response: analysisAnswers({ 200: answer('The flags seen', FlagList) }),
      },
    },
    async (request, reply) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      const { from, to, flags } = await limited(request, reply, () =>
        opts.experiments.flags(env, request.query.from, request.query.to),
      )
      return { environmentId: env.id, from: iso(from), to: iso(to), flags }
    },
  )

  app.get(
    '/api/v1/environments/:env/experiments/:flag/results',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          "A flag's experiment results: exposures, the sample ratio check, and per metric each treatment against the baseline (Welch t-tests or sequential tests, CUPED, percentile caps, guardrails, Benjamini–Hochberg or Holm)",
        params: FlagParams,
        querystring: ResultsQuery,
        response: analysisAnswers({ 200: answer('The results', Results) }),
      },
    },
    async (request, reply) => {
      const { env, ws } = await scope.environment(request, request.params.env, 'read')
      const req = resultsRequest(request.params.flag, request.query)
      const results = await limited(request, reply, () => opts.experiments.results(ws, env, req))
      request.log.info(
        { environmentId: env.id, metrics: req.metricIds.length, keys: results.exposure.keys },
        'experiment results computed',
      )
      return results
    },
  )

  app.get(
    '/api/v1/environments/:env/experiments/:flag/results/timeseries',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'The results at the end of each hour or day of the window, each cumulative from its start: how the estimates and their intervals moved (a sequential chart)',
        params: FlagParams,
        querystring: TimeseriesQuery,
        response: analysisAnswers({ 200: answer('The results over time', Timeseries) }),
      },
    },
    async (request, reply) => {
      const { env, ws } = await scope.environment(request, request.params.env, 'read')
      const { interval, ...query } = request.query
      const req = resultsRequest(request.params.flag, query)
      // One concurrency slot for the whole series: its queries run one after the other, within one query's time limit
      // in all, and stop when the caller goes away.
      const gone = new AbortController()
      reply.raw.once('close', () => gone.abort())
      const series = await limited(request, reply, () =>
        opts.experiments.timeseries(ws, env, req, interval ?? 'day', {
          signal: gone.signal,
          timeoutMs: opts.queryTimeoutMs,
        }),
      )
      request.log.info(
        { environmentId: env.id, metrics: req.metricIds.length, points: series.points.length },
        'experiment results timeseries computed',
      )
      return { flag: req.flag, environmentId: env.id, ...series }
    },
  )

  app.post(
    '/api/v1/environments/:env/experiments/:flag/power',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'The keys a metric needs to detect an effect at a power, and the days to reach them at the measured growth of exposed keys (for a running experiment: how many more days, or under-powered)',
        params: FlagParams,
        body: PowerBody,
        response: analysisAnswers({ 200: answer('The power and duration', Power) }, [412]),
      },
    },
    async (request, reply) => {
      const { env, ws } = await scope.environment(request, request.params.env, 'read')
      const b = request.body
      const req: PowerRequest = {
        flag: request.params.flag,
        metricId: b.metric,
        mde: b.mde,
        relative: b.relative,
        power: b.power,
        from: parseTime('from', b.from),
        to: b.to === undefined ? Date.now() : parseTime('to', b.to),
        baseline: b.baseline,
        alpha: b.alpha,
        weights: b.weights,
        rule: b.rule,
        sequential: b.sequential,
        sequentialTuning: b.sequentialTuning,
      }
      const power = await limited(request, reply, () => opts.experiments.power(ws, env, req))
      request.log.info(
        { environmentId: env.id, verdict: power.verdict, keysNeeded: power.keysNeeded },
        'experiment power computed',
      )
      return power
    },
  )

  app.get(
    '/api/v1/workspaces/:ws/experiment-defaults',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "The workspace's defaults for results requests (what a request leaves out)",
        params: WsParams,
        response: analysisAnswers({ 200: answer('The defaults', ExperimentDefaults) }),
      },
    },
    async (request) => opts.experiments.defaults(await scope.workspace(request, request.params.ws, 'read')),
  )

  app.put(
    '/api/v1/workspaces/:ws/experiment-defaults',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "Change the workspace's defaults for results requests (fields left out keep their value)",
        params: WsParams,
        body: ExperimentDefaultsBody,
        response: analysisAnswers({ 200: answer('The defaults', ExperimentDefaults) }),
      },
    },
    async (request) => {
      const ws = await editor(request, request.params.ws)
      const defaults = await opts.experiments.saveDefaults(ws, request.body)
      request.log.info({ workspaceId: ws.id, ...defaults }, 'experiment defaults changed')
      return defaults
    },
  )

  app.get(
    '/api/v1/environments/:env/experiments/:flag/settings',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "A flag's saved analysis settings: the expected weights (the sample ratio check's) and the baseline",
        params: FlagParams,
        response: analysisAnswers({ 200: answer('The settings', FlagSettings) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'read')
      return opts.experiments.flagSettings(env, request.params.flag)
    },
  )

  app.put(
    '/api/v1/environments/:env/experiments/:flag/settings',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          "Save a flag's analysis settings: results requests and the experiment checks use its weights and baseline when they give none",
        params: FlagParams,
        body: FlagSettings,
        response: analysisAnswers({ 200: answer('The settings', FlagSettings) }),
      },
    },
    async (request) => {
      const { env } = await scope.environment(request, request.params.env, 'all')
      const settings = await opts.experiments.saveFlagSettings(env, request.params.flag, {
        weights: request.body.weights ?? null,
        baseline: request.body.baseline ?? null,
      })
      request.log.info({ environmentId: env.id }, 'flag analysis settings saved')
      return settings
    },
  )

  // Results are the heaviest reads: SLUICE_EXPERIMENT_MAX_CONCURRENT at once in the process, one per account, each
  // within a slot of the expensive reads too; a request waits for both within READ_SLOT_WAIT_MS.
  const results = new Slots({ total: opts.maxConcurrent, perAccount: 1 })
  const limited = async <T>(request: FastifyRequest, reply: FastifyReply, fn: () => Promise<T>): Promise<T> => {
    const deadline = Date.now() + READ_SLOT_WAIT_MS
    const slot = await waitForSlot(results, request, reply, deadline)
    if ('refused' in slot) {
      void reply.header('retry-after', '2')
      throw new HttpError(
        'RATE_LIMITED',
        slot.refused.limit === 'total'
          ? `${opts.maxConcurrent} experiment queries are running in this process; retry in a few seconds`
          : 'an experiment query of this account is running in this process; retry when it is done',
      )
    }
    try {
      return await withReadSlot(opts.reads, request, reply, fn, deadline)
    } finally {
      slot.release()
    }
  }
}
