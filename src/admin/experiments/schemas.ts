// The metrics and experiment results APIs as JSON Schema: bodies, queries, answers.
import { Type } from 'typebox'
import { FILTER_OPERATORS, METRIC_TYPES } from '../../analysis/queries.js'
import { sluiceAnswers } from '../../http/errors.js'
import { answer, partialObject } from '../../http/schemas.js'
import { MAX_METRIC_TEXT } from '../../services/metrics.js'

export { answer }

export function analysisAnswers(ok: Parameters<typeof sluiceAnswers>[0], errors: readonly number[] = []) {
  return sluiceAnswers(ok, [400, 401, 403, 404, 429, 503, ...errors])
}

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) =>
  Type.Optional(Type.Union([t, Type.Null()], { description }))

export const MetricBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: MAX_METRIC_TEXT })),
    trafficType: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'a traffic type of the workspace (name or id): events of this traffic type count',
    }),
    eventTypeId: Type.String({
      minLength: 1,
      maxLength: 80,
      description: 'the event type counted (the numerator of a ratio)',
    }),
    type: Type.Enum([...METRIC_TYPES], {
      description:
        "count_per_key and sum_per_key: every exposed key, 0 without events; average_per_key: keys with a value only; ratio_per_key: mean of per-key ratios of event counts, keys with a zero denominator left out; percent_of_keys: share of exposed keys with the event; quantile_of_events: the quantile (see quantile) of every event value, its interval clustered per key; quantile_per_key: the quantile of the keys' average values",
    }),
    valueProperty: nullable(
      Type.String({ minLength: 1, maxLength: 128 }),
      'sum_per_key, average_per_key and the quantile metrics: a numeric property instead of the event value',
    ),
    propertyFilter: nullable(
      Type.Object(
        {
          property: Type.String({ minLength: 1, maxLength: 128 }),
          operator: Type.Enum([...FILTER_OPERATORS]),
          value: Type.Union([Type.String({ maxLength: MAX_METRIC_TEXT }), Type.Number(), Type.Boolean()]),
        },
        { additionalProperties: false },
      ),
      'only events whose property compares so (a number compares numbers, a string strings)',
    ),
    cap: nullable(Type.Number({ exclusiveMinimum: 0 }), 'the most a key contributes (its value is capped at this)'),
    capPercentile: nullable(
      Type.Number({ minimum: 0.5, exclusiveMaximum: 1 }),
      "cap each key's value at this quantile of the exposed keys' values in the window (0.99: the 99th percentile), worked out per request; excludes cap",
    ),
    quantile: nullable(
      Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }),
      'quantile_of_events and quantile_per_key: the quantile compared (0.99: the 99th percentile, e.g. of latencies)',
    ),
    preExposureDays: nullable(
      Type.Integer({ minimum: 1, maximum: 90 }),
      "CUPED: the days before each key's exposure whose value of this metric is its covariate (default 14)",
    ),
    guardrail: Type.Optional(
      Type.Boolean({
        description:
          'a metric that must not get worse: tested one-sided against its desired direction, left out of the correction, shown as ok, at risk or failing',
      }),
    ),
    desiredDirection: Type.Enum(['increase', 'decrease']),
    denominatorEventTypeId: nullable(
      Type.String({ minLength: 1, maxLength: 80 }),
      'ratio_per_key: the event type of the denominator',
    ),
  },
  { additionalProperties: false },
)

export const Metric = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  ...MetricBody.properties,
  description: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
})
export const MetricList = Type.Object({ metrics: Type.Array(Metric) })
export const MetricAudit = Type.Object({
  entries: Type.Array(
    Type.Object({
      at: Type.String({ format: 'date-time' }),
      who: Type.Object({ id: Type.String(), name: Type.String() }),
      action: Type.Enum(['create', 'update', 'delete']),
      metricId: Type.String(),
      name: Type.String(),
      definition: Type.Optional(
        Type.Unsafe<object>({ type: 'object', description: 'the definition after the change' }),
      ),
    }),
  ),
})
export const WsParams = Type.Object({ ws: Type.String({ minLength: 1, maxLength: 64 }) })
export const MetricParams = Type.Object({
  ws: Type.String({ minLength: 1, maxLength: 64 }),
  id: Type.String({ minLength: 1, maxLength: 64 }),
})
export const EnvParams = Type.Object({ env: Type.String({ minLength: 1, maxLength: 64 }) })
export const FlagParams = Type.Object({
  env: Type.String({ minLength: 1, maxLength: 64 }),
  flag: Type.String({ minLength: 1, maxLength: 250 }),
})

const time = (description: string) =>
  Type.String({ minLength: 1, maxLength: 40, description: `${description}: epoch milliseconds or ISO 8601` })

export const FlagsQuery = Type.Object(
  { from: Type.Optional(time('start (default: 30 days before to)')), to: Type.Optional(time('end (default: now)')) },
  { additionalProperties: false },
)
export const ResultsQuery = Type.Object(
  {
    metrics: Type.String({ minLength: 1, maxLength: 8192, description: 'metric ids, comma-separated (at most 20)' }),
    from: time('window start, inclusive'),
    to: time('window end, inclusive'),
    baseline: Type.Optional(
      Type.String({ minLength: 1, maxLength: 250, description: 'the treatment compared against (default off)' }),
    ),
    alpha: Type.Optional(
      Type.Number({
        minimum: 0.000001,
        exclusiveMaximum: 0.5,
        description: 'significance level (default 0.05); intervals at 1 − alpha',
      }),
    ),
    weights: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 8192,
        description: 'expected traffic shares for the sample ratio check, e.g. on:50,off:50 (default equal)',
      }),
    ),
    rule: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 250,
        description: 'only keys exposed by this targeting rule (the impression label)',
      }),
    ),
    minKeys: Type.Optional(
      Type.Integer({
        minimum: 2,
        maximum: 1_000_000_000,
        description: 'keys per treatment below which nothing is called significant (default 355)',
      }),
    ),
    sequential: Type.Optional(
      Type.Boolean({
        description:
          'always-valid intervals and p-values (a Gaussian-mixture confidence sequence), safe to look at as often as you like; default: the workspace default, else false',
      }),
    ),
    sequentialTuning: Type.Optional(
      Type.Number({
        minimum: 1,
        maximum: 1e12,
        description: 'the total keys at which the sequential interval is tightest (default 5000)',
      }),
    ),
    cuped: Type.Optional(
      Type.Boolean({
        description:
          "variance reduction by each key's pre-exposure value of the metric (CUPED); default: the workspace default, else false",
      }),
    ),
    correction: Type.Optional(
      Type.Enum(['bh', 'holm', 'none'], {
        description:
          'how p-values of the non-guardrail comparisons are adjusted: Benjamini–Hochberg (default), Holm, none',
      }),
    ),
    guardrails: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 8192,
        description: 'metric ids (among metrics) evaluated as guardrails in this request, comma-separated',
      }),
    ),
    engine: Type.Optional(
      Type.Enum(['frequentist', 'bayesian'], {
        description:
          "frequentist tests (p-values, corrected) or the Bayesian reading (chance to win, risk, credible intervals; GrowthBook's effect model); default: the workspace default, else frequentist",
      }),
    ),
    prior: Type.Optional(
      Type.Enum(['flat', 'proper'], {
        description:
          "engine=bayesian: a flat prior on the effect (the posterior is the data's likelihood) or a proper Gaussian one on the relative lift; default: proper when priorMean or priorVariance is given, else the workspace default, else flat",
      }),
    ),
    priorMean: Type.Optional(
      Type.Number({
        minimum: -1e6,
        maximum: 1e6,
        description: "a proper prior's mean of the relative lift (default 0)",
      }),
    ),
    priorVariance: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1e6,
        description: "a proper prior's variance of the relative lift (default 0.09: a standard deviation of 30%)",
      }),
    ),
    dimension: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        description:
          "break the results down by: rule (the label of the key's first impression), event:<event type>:<property> (that property of the key's first event of that type in the window) or identity:<traffic type>:<attribute> (that attribute of the key's identity, Split Admin API identities; at most 100,000 identities)",
      }),
    ),
    maxSlices: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 20,
        description: 'the top values of the dimension by exposed keys shown as slices (default 10); the rest is other',
      }),
    ),
    correctionScope: Type.Optional(
      Type.Enum(['all', 'metric', 'slice'], {
        description:
          "the family the slices' p-values are corrected in: every slice × metric × treatment (default), each metric's, or each slice's",
      }),
    ),
  },
  { additionalProperties: false },
)

export const FlagList = Type.Object({
  environmentId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  flags: Type.Array(
    Type.Object({
      flag: Type.String(),
      treatments: Type.Array(Type.String()),
      keys: Type.Integer({ description: 'distinct keys, approximately (HyperLogLog)' }),
      impressions: Type.Integer(),
      firstImpressionAt: Type.String(),
      lastImpressionAt: Type.String(),
    }),
  ),
})

const num = Type.Number()
const nnum = Type.Union([Type.Number(), Type.Null()])
/** A number, or null where the metric's sums overflow a double (cap the metric) or a bound is open. */
const overflowed = (description: string) => Type.Union([Type.Number(), Type.Null()], { description })
const Estimate = Type.Object({
  estimate: overflowed('null when the sums overflow a double'),
  ci: Type.Union([Type.Tuple([nnum, nnum]), Type.Null()], {
    description: 'null when no test could be run; a one-sided (guardrail) interval has its open side null',
  }),
  pValue: nnum,
})
const Posterior = Type.Object({
  expected: Type.Number({ description: 'the posterior mean of the effect' }),
  sd: Type.Number({ description: 'the posterior standard deviation' }),
  ci: Type.Tuple([num, num], { description: 'the credible interval at 1 − alpha' }),
  chanceToWin: Type.Number({ description: 'the posterior probability that the treatment is better than the baseline' }),
  risk: Type.Object(
    { baseline: num, treatment: num },
    { description: "the expected loss of keeping the baseline and of choosing the treatment, on the effect's scale" },
  ),
  reason: Type.Union([Type.String(), Type.Null()], {
    description: 'why nothing could be inferred (then a chance of 0.5, no effect, no risk)',
  }),
})
const ComparisonSchema = Type.Object({
  treatment: Type.String(),
  baseline: Type.String(),
  absolute: Estimate,
  relative: Type.Object({ ...Estimate.properties, of: Type.Enum(['baseline-mean', 'absolute-change']) }),
  degreesOfFreedom: nnum,
  adjustedPValue: nnum,
  significant: Type.Boolean(),
  impact: Type.Enum(['desired', 'undesired', 'inconclusive']),
  note: Type.Union([Type.String(), Type.Null()]),
  guardrail: Type.Union([Type.Enum(['ok', 'at risk', 'failing']), Type.Null()]),
  cuped: Type.Union([Type.Object({ theta: nnum, varianceReduction: nnum }), Type.Null()]),
  bayesian: Type.Union([Type.Object({ absolute: Posterior, relative: Posterior }), Type.Null()], {
    description: 'engine=bayesian: the posterior of the effect, absolute and relative to the baseline mean',
  }),
})
const MetricResultSchema = Type.Object({
  metricId: Type.String(),
  name: Type.String(),
  type: Type.String(),
  desiredDirection: Type.String(),
  guardrail: Type.Boolean(),
  cap: Type.Union([Type.Object({ value: num, percentile: nnum, applied: Type.Boolean() }), Type.Null()], {
    description:
      "the cap of each key's value (percentile: the quantile it was worked out at; a quantile not above 0 is not applied)",
  }),
  cuped: Type.Union([Type.Object({ preExposureDays: Type.Integer(), varianceReduction: nnum }), Type.Null()]),
  quantile: Type.Union([Type.Number(), Type.Null()], {
    description:
      "a quantile metric's quantile: its treatments' keys are then the values counted (events or keys) and mean the quantile",
  }),
  perTreatment: Type.Record(
    Type.String(),
    Type.Object({
      keys: Type.Integer(),
      mean: overflowed('null when the sums overflow a double'),
      variance: overflowed('null when the sums overflow a double'),
      sum: overflowed('null when the sum overflows a double'),
    }),
  ),
  comparisons: Type.Array(ComparisonSchema),
})
const DifferentialImpact = Type.Union([
  Type.Object({
    difference: num,
    pValue: nnum,
    adjustedPValue: nnum,
    flagged: Type.Boolean(),
  }),
  Type.Null(),
])
const Breakdown = Type.Union(
  [
    Type.Object({
      dimension: Type.Union([
        Type.Object({ kind: Type.Literal('rule') }),
        Type.Object({ kind: Type.Literal('event'), eventTypeId: Type.String(), property: Type.String() }),
        Type.Object({ kind: Type.Literal('identity'), trafficType: Type.String(), attribute: Type.String() }),
      ]),
      maxSlices: Type.Integer(),
      correctionScope: Type.Enum(['all', 'metric', 'slice']),
      note: Type.Union([Type.String(), Type.Null()]),
      slices: Type.Array(
        Type.Object({
          value: Type.Union([Type.String(), Type.Null()], { description: 'null: the other values together' }),
          exposure: Type.Object({ keys: Type.Integer(), perTreatment: Type.Record(Type.String(), Type.Integer()) }),
          srm: Type.Object({ pValue: num, chiSquared: num, mismatch: Type.Boolean() }),
          metrics: Type.Array(
            Type.Object({
              ...MetricResultSchema.properties,
              comparisons: Type.Array(
                Type.Object({
                  ...ComparisonSchema.properties,
                  familySize: Type.Integer({ description: 'the comparisons corrected together, this one included' }),
                  differentialImpact: DifferentialImpact,
                }),
              ),
            }),
          ),
        }),
      ),
    }),
    Type.Null(),
  ],
  { description: 'the results by slice of the dimension asked for; null without one' },
)

export const Results = Type.Object({
  flag: Type.String(),
  environmentId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  rule: Type.Union([Type.String(), Type.Null()]),
  baseline: Type.String(),
  alpha: num,
  minKeys: Type.Integer(),
  mode: Type.Object({
    engine: Type.Enum(['frequentist', 'bayesian']),
    prior: Type.Union([
      Type.Object({ proper: Type.Literal(false) }),
      Type.Object({ proper: Type.Literal(true), mean: num, variance: num, scale: Type.Literal('relative') }),
      Type.Null(),
    ]),
    test: Type.Enum(['fixed-horizon', 'sequential'], {
      description: 'how the p-values and confidence intervals are computed (under engine=bayesian too, uncorrected)',
    }),
    sequentialTuning: nnum,
    cuped: Type.Boolean(),
    correction: Type.Enum(['bh', 'holm', 'none']),
    note: Type.Union([Type.String(), Type.Null()], {
      description: 'why a figure of this mode may mislead (CUPED over a window that starts after the experiment did)',
    }),
  }),
  exposure: Type.Object({
    keys: Type.Integer({ description: 'keys exposed to exactly one treatment' }),
    perTreatment: Type.Record(Type.String(), Type.Integer()),
    excludedKeys: Type.Integer({ description: 'keys whose impressions in the window showed more than one treatment' }),
  }),
  srm: Type.Object({
    pValue: num,
    chiSquared: num,
    mismatch: Type.Boolean({
      description: 'p below 0.001: the split of keys does not match the weights; do not trust the results',
    }),
    expected: Type.Record(Type.String(), num),
  }),
  metrics: Type.Array(MetricResultSchema),
  dimension: Breakdown,
})

const defaultsFields = {
  engine: Type.Enum(['frequentist', 'bayesian'], { description: 'the engine unless a request says otherwise' }),
  sequential: Type.Boolean({ description: 'sequential tests unless a request says sequential=false' }),
  sequentialTuning: Type.Number({ minimum: 1, maximum: 1e12, description: 'the tuning parameter of sequential tests' }),
  cuped: Type.Boolean({ description: 'CUPED unless a request says cuped=false' }),
  correction: Type.Enum(['bh', 'holm', 'none']),
  prior: Type.Enum(['flat', 'proper'], { description: "the Bayesian engine's prior unless a request says otherwise" }),
  priorMean: Type.Number({ minimum: -1e6, maximum: 1e6, description: "a proper prior's mean of the relative lift" }),
  priorVariance: Type.Number({
    exclusiveMinimum: 0,
    maximum: 1e6,
    description: "a proper prior's variance of the relative lift",
  }),
  correctionScope: Type.Enum(['all', 'metric', 'slice'], {
    description: "the family a breakdown's comparisons are corrected in unless a request says otherwise",
  }),
  checksDimension: Type.Union([Type.String({ minLength: 1, maxLength: 300 }), Type.Null()], {
    description:
      "the dimension the checks role breaks running experiments down by (as a results request's dimension; default rule): a slice whose guardrail effect differs from the rest's raises an informational alert; null: none",
  }),
}
export const ExperimentDefaults = Type.Object(defaultsFields)
export const ExperimentDefaultsBody = partialObject(ExperimentDefaults)
export const FlagSettings = Type.Object(
  {
    weights: Type.Union(
      [Type.Record(Type.String({ minLength: 1, maxLength: 250 }), Type.Number({ exclusiveMinimum: 0 })), Type.Null()],
      { description: 'expected traffic shares of the treatments, e.g. {"on": 50, "off": 50}; null: equal shares' },
    ),
    baseline: Type.Union([Type.String({ minLength: 1, maxLength: 250 }), Type.Null()], {
      description: 'the treatment compared against; null: off',
    }),
  },
  { additionalProperties: false },
)

export const TimeseriesQuery = Type.Object(
  {
    ...ResultsQuery.properties,
    interval: Type.Optional(
      Type.Enum(['hour', 'day', 'week'], {
        description: 'one point at the end of each (default day); at most 100 points',
      }),
    ),
  },
  { additionalProperties: false },
)
export const Timeseries = Type.Object({
  flag: Type.String(),
  environmentId: Type.String(),
  interval: Type.Enum(['hour', 'day', 'week']),
  points: Type.Array(
    Type.Object({
      to: Type.String({ description: 'the end of the point: its results are over [from, to]' }),
      results: Type.Union([Results, Type.Null()]),
      note: Type.Union([Type.String(), Type.Null()], {
        description: 'why a point has no results (no impressions yet, a treatment not yet seen)',
      }),
    }),
  ),
})

export const PowerBody = Type.Object(
  {
    metric: Type.String({ minLength: 1, maxLength: 64, description: 'the metric id' }),
    mde: Type.Number({
      description:
        'the minimum detectable effect: a relative lift (0.05 for 5 %) unless relative is false (an absolute change); not 0',
    }),
    relative: Type.Optional(Type.Boolean({ description: 'the effect is a lift relative to the mean (default true)' })),
    power: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1, description: 'the power wanted (default 0.8)' }),
    ),
    from: time('the start of the measured window (for a running experiment: when it started)'),
    to: Type.Optional(time('the end of the measured window (default: now)')),
    baseline: ResultsQuery.properties.baseline,
    alpha: ResultsQuery.properties.alpha,
    weights: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 250 }), Type.Number({ exclusiveMinimum: 0 }), {
        description:
          'the treatments and their shares of the keys, e.g. {"on": 50, "off": 50} (default: the saved weights, else equal)',
      }),
    ),
    rule: ResultsQuery.properties.rule,
    sequential: Type.Optional(
      Type.Boolean({ description: 'for sequential tests (always-valid): more keys for the same power' }),
    ),
    sequentialTuning: ResultsQuery.properties.sequentialTuning,
  },
  { additionalProperties: false },
)

export const Power = Type.Object({
  flag: Type.String(),
  environmentId: Type.String(),
  metricId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  baseline: Type.String(),
  alpha: num,
  power: num,
  mde: num,
  relative: Type.Boolean(),
  test: Type.Enum(['fixed-horizon', 'sequential']),
  sequentialTuning: nnum,
  measured: Type.Object({
    keys: Type.Integer({ description: 'keys analysed in the window' }),
    mean: Type.Number({ description: "the metric's mean in the baseline" }),
    variance: Type.Number({ description: "the metric's per-key variance in the baseline" }),
    days: Type.Array(
      Type.Object({
        day: Type.String({ description: 'a UTC day of the window' }),
        newKeys: Type.Integer({ description: 'keys first exposed that day' }),
        keys: Type.Integer({ description: 'keys exposed so far' }),
      }),
    ),
    growth: Type.Union([Type.Object({ a: num, b: num }), Type.Null()], {
      description: 'the fitted growth of the keys: a·d^b after d days',
    }),
  }),
  comparisons: Type.Array(
    Type.Object({
      treatment: Type.String(),
      keysNeeded: Type.Union([Type.Integer(), Type.Null()], {
        description: 'keys in all (every treatment) for the power asked; null: beyond reach',
      }),
      powerNow: Type.Number({ description: 'the power at the keys so far' }),
    }),
  ),
  keysNeeded: Type.Union([Type.Integer(), Type.Null()]),
  daysNeeded: Type.Union([Type.Number(), Type.Null()], {
    description: 'days from the window start to reach keysNeeded at the measured growth',
  }),
  moreDays: Type.Union([Type.Integer(), Type.Null()], { description: 'whole days after the window end' }),
  verdict: Type.Enum(['powered', 'more days', 'under-powered']),
  message: Type.String(),
})
