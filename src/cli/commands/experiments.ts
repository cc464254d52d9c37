// `sluice experiments flags|results`: the flags seen in an environment, and a flag's experiment results
// (the same service and document as GET /api/v1/environments/<env>/experiments[/<flag>/results]).
import type { Command } from 'commander'
import { analysisSettings } from '../../app/container.js'
import type { CorrectionScope } from '../../services/experiments/slices.js'
import {
  parseDimension,
  parseTime,
  parseWeights,
  type Correction,
  type Engine,
  type PriorKind,
} from '../../services/experiments/request.js'
import {
  createExperimentService,
  type ExperimentResults,
  type ExperimentService,
} from '../../services/experiments/service.js'
import type { PowerRequest } from '../../services/experiments/power.js'
import { MetricService } from '../../services/metrics.js'
import { identityReader } from '../../services/experiments/identity-dimension.js'
import type { Environment, Workspace } from '../../state/redis/tenancy.js'
import { collect, config, positiveInt, print, withAnalysis } from '../context.js'

function withExperiments<T>(
  envId: string,
  fn: (x: ExperimentService, env: Environment, ws: Workspace) => Promise<T>,
): Promise<T> {
  return withAnalysis(envId, (s, clickhouse, env, ws) =>
    fn(
      createExperimentService(
        clickhouse,
        analysisSettings(config()),
        new MetricService(s.state.tenancy, s.state.metrics),
        s.state.experiments,
        identityReader(s.state.tenancy, s.state.identities),
      ),
      env,
      ws,
    ),
  )
}

const num = (x: number | null | undefined, digits = 4) =>
  x === null || x === undefined ? '-' : Number(x.toPrecision(digits)).toString()
const pct = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(2)}%`)

/**
 * The results as a table: exposures and the sample ratio check, then per metric each treatment against the baseline.
 */
export function resultLines(r: ExperimentResults): string[] {
  const lines = [
    `${r.flag} in ${r.environmentId}, ${r.from} to ${r.to}${r.rule === null ? '' : `, rule ${JSON.stringify(r.rule)}`}; baseline ${r.baseline}, alpha ${r.alpha}`,
    `exposed keys: ${r.exposure.keys} (${Object.entries(r.exposure.perTreatment)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}); excluded (more than one treatment): ${r.exposure.excludedKeys}`,
    r.mode.engine === 'bayesian'
      ? `Bayesian, ${r.mode.prior?.proper ? `proper prior N(${r.mode.prior.mean}, ${r.mode.prior.variance}) on the lift` : 'flat prior'}${r.mode.cuped ? ', CUPED' : ''}`
      : `${r.mode.test === 'sequential' ? `sequential tests (tuning ${r.mode.sequentialTuning})` : 'fixed-horizon tests'}${r.mode.cuped ? ', CUPED' : ''}; correction ${r.mode.correction}`,
    ...(r.mode.note === null ? [] : [`note: ${r.mode.note}`]),
    `sample ratio: p = ${num(r.srm.pValue)}${r.srm.mismatch ? '  MISMATCH: the split of keys does not match the weights; do not trust these results' : ' (no mismatch)'}`,
  ]
  const bayesian = r.mode.engine === 'bayesian'
  for (const m of r.metrics) {
    const extras = [
      ...(m.guardrail ? ['guardrail'] : []),
      ...(m.cap
        ? [
            m.cap.applied
              ? `capped at ${num(m.cap.value)}${m.cap.percentile === null ? '' : ` (p${m.cap.percentile * 100})`}`
              : `not capped: its p${m.cap.percentile! * 100} is ${num(m.cap.value)}`,
          ]
        : []),
      ...(m.cuped
        ? [`CUPED over ${m.cuped.preExposureDays} days: variance ${pct(m.cuped.varianceReduction)} lower`]
        : []),
    ]
    lines.push('', `${m.name} (${[m.type, `${m.desiredDirection} is good`, ...extras].join(', ')})`)
    lines.push(
      [
        'treatment'.padEnd(16),
        'keys'.padStart(9),
        'mean'.padStart(12),
        'lift'.padStart(9),
        `${Math.round((1 - r.alpha) * 100)}% interval`.padStart(22),
        (bayesian ? 'chance' : 'p').padStart(9),
        (bayesian ? 'risk' : 'adj. p').padStart(9),
        '  impact',
      ].join(' '),
    )
    for (const [t, s] of Object.entries(m.perTreatment)) {
      const c = m.comparisons.find((x) => x.treatment === t)
      // Under the Bayesian engine: the posterior of the lift (of the change when the baseline mean is 0), its chance
      // to win and the risk of choosing the treatment.
      const posterior = c?.bayesian && (c.relative.of === 'absolute-change' ? c.bayesian.absolute : c.bayesian.relative)
      const ci = posterior ? posterior.ci : c?.relative.ci
      const liftOf = (x: number | null | undefined) => (c?.relative.of === 'absolute-change' ? num(x) : pct(x))
      lines.push(
        [
          t.slice(0, 16).padEnd(16),
          String(s.keys).padStart(9),
          num(s.mean).padStart(12),
          (c ? liftOf(posterior ? posterior.expected : c.relative.estimate) : 'baseline').padStart(9),
          (ci ? `[${liftOf(ci[0])}, ${liftOf(ci[1])}]` : '').padStart(22),
          (posterior ? pct(posterior.chanceToWin) : c ? num(c.absolute.pValue) : '').padStart(9),
          (posterior ? liftOf(posterior.risk.treatment) : c ? num(c.adjustedPValue) : '').padStart(9),
          c
            ? `  ${c.guardrail ? `${c.guardrail}, ` : ''}${c.significant ? 'significant, ' : ''}${c.impact}${c.note ? ` (${c.note})` : ''}`
            : '',
        ].join(' '),
      )
    }
  }
  if (r.dimension) lines.push(...sliceLines(r))
  return lines
}

/** The breakdown: per slice its keys, sample ratio and each comparison's lift, adjusted p and differential impact. */
function sliceLines(r: ExperimentResults): string[] {
  const d = r.dimension!
  const dim = d.dimension
  const name =
    dim.kind === 'rule'
      ? 'rule'
      : dim.kind === 'event'
        ? `${dim.eventTypeId}.${dim.property}`
        : `${dim.trafficType} identity's ${dim.attribute}`
  const lines = [
    '',
    `by ${name} (top ${d.maxSlices}; correction within ${d.correctionScope})${d.note ? `; ${d.note}` : ''}`,
  ]
  for (const s of d.slices) {
    const label = s.value === null ? '(other)' : s.value === '' ? '(none)' : JSON.stringify(s.value)
    lines.push(
      `${label}: ${s.exposure.keys} keys${s.srm.mismatch ? ', SAMPLE RATIO MISMATCH' : ''}`,
      ...s.metrics.flatMap((m) =>
        m.comparisons.map((c) => {
          const di = c.differentialImpact
          return `  ${m.name}, ${c.treatment}: lift ${pct(c.relative.estimate)}, adj. p ${num(c.adjustedPValue)} (of ${c.familySize})${c.significant ? ', significant' : ''}${di?.flagged ? `, DIFFERS from the rest (adj. p ${num(di.adjustedPValue)})` : ''}`
        }),
      ),
    )
  }
  return lines
}

export function experimentCommands(program: Command): void {
  const experiments = program
    .command('experiments')
    .description('experiment results from the impressions and events in ClickHouse')
  experiments
    .command('flags')
    .description('the flags with impressions in an environment, with their treatments')
    .requiredOption('--environment <id>', 'environment id')
    .option('--from <time>', 'epoch ms or ISO 8601 (default: 30 days before --to)')
    .option('--to <time>', 'epoch ms or ISO 8601 (default: now)')
    .option('--json', 'print JSON')
    .action(async (opts: { environment: string; from?: string; to?: string; json?: boolean }) => {
      const { flags } = await withExperiments(opts.environment, (x, env) => x.flags(env, opts.from, opts.to))
      print(opts.json, { flags }, () =>
        flags.map(
          (f) =>
            `${f.flag}  ${f.treatments.join(',')}  ~${f.keys} keys  ${f.impressions} impressions  ${f.firstImpressionAt} .. ${f.lastImpressionAt}`,
        ),
      )
    })
  experiments
    .command('results <flag>')
    .description(
      'per metric, each treatment against the baseline (Welch or sequential tests, or the Bayesian reading; CUPED, guardrails, Benjamini–Hochberg or Holm), and the sample ratio check',
    )
    .requiredOption('--environment <id>', 'environment id')
    .requiredOption('--metric <id>', 'a metric id of the environment’s workspace (repeat for several)', collect)
    .requiredOption('--from <time>', 'window start, epoch ms or ISO 8601')
    .requiredOption('--to <time>', 'window end, epoch ms or ISO 8601')
    .option('--baseline <treatment>', 'the treatment compared against (default off)')
    .option('--alpha <alpha>', 'significance level (default 0.05)', Number)
    .option('--weights <weights>', 'expected shares, e.g. on:50,off:50 (default equal)')
    .option('--rule <label>', 'only keys exposed by this targeting rule')
    .option('--min-keys <n>', 'keys per treatment below which nothing is called significant (default 355)', positiveInt)
    .option('--sequential', 'always-valid (sequential) tests, safe to look at as often as you like')
    .option('--no-sequential', 'fixed-horizon tests even where the workspace defaults to sequential')
    .option('--tuning <n>', 'the sequential tests’ tuning parameter (default 5000)', Number)
    .option('--cuped', 'variance reduction by each key’s pre-exposure value (CUPED)')
    .option('--no-cuped', 'no CUPED even where the workspace defaults to it')
    .option('--correction <name>', 'bh (default), holm or none')
    .option('--guardrail <id>', 'a metric evaluated as a guardrail (repeat for several)', collect)
    .option('--engine <name>', 'frequentist (default) or bayesian (chance to win, risk, credible intervals)')
    .option('--prior <kind>', 'bayesian: flat (default) or proper')
    .option('--prior-mean <lift>', 'bayesian: a proper prior’s mean of the relative lift (default 0)', Number)
    .option('--prior-variance <v>', 'bayesian: a proper prior’s variance of the relative lift (default 0.09)', Number)
    .option(
      '--dimension <d>',
      'break down by: rule, event:<event type>:<property> (of the key’s first such event) or identity:<traffic type>:<attribute>',
    )
    .option('--max-slices <n>', 'the top values of the dimension shown (default 10); the rest is other', positiveInt)
    .option('--correction-scope <scope>', 'the slices’ correction family: all (default), metric or slice')
    .option('--json', 'print the results document')
    .action(
      async (
        flag: string,
        opts: {
          environment: string
          metric: string[]
          from: string
          to: string
          baseline?: string
          alpha?: number
          weights?: string
          rule?: string
          minKeys?: number
          sequential?: boolean
          tuning?: number
          cuped?: boolean
          correction?: string
          guardrail?: string[]
          engine?: string
          prior?: string
          priorMean?: number
          priorVariance?: number
          dimension?: string
          maxSlices?: number
          correctionScope?: string
          json?: boolean
        },
      ) => {
        const req = {
          flag,
          metricIds: opts.metric,
          from: parseTime('--from', opts.from),
          to: parseTime('--to', opts.to),
          baseline: opts.baseline,
          alpha: opts.alpha,
          weights: opts.weights === undefined ? undefined : parseWeights(opts.weights),
          rule: opts.rule,
          minKeys: opts.minKeys,
          sequential: opts.sequential,
          sequentialTuning: opts.tuning,
          cuped: opts.cuped,
          correction: opts.correction as Correction | undefined,
          guardrails: opts.guardrail,
          engine: opts.engine as Engine | undefined,
          prior: opts.prior as PriorKind | undefined,
          priorMean: opts.priorMean,
          priorVariance: opts.priorVariance,
          dimension: opts.dimension === undefined ? undefined : parseDimension(opts.dimension),
          maxSlices: opts.maxSlices,
          correctionScope: opts.correctionScope as CorrectionScope | undefined,
        }
        const results = await withExperiments(opts.environment, (x, env, ws) => x.results(ws, env, req))
        print(opts.json, results, () => resultLines(results))
      },
    )
  experiments
    .command('power <flag>')
    .description(
      'the keys a metric needs to detect an effect, and the days to reach them at the measured growth of exposed keys',
    )
    .requiredOption('--environment <id>', 'environment id')
    .requiredOption('--metric <id>', 'a metric id of the environment’s workspace')
    .requiredOption('--mde <effect>', 'the minimum detectable effect: a relative lift (0.05 for 5 %)', Number)
    .requiredOption('--from <time>', 'start of the measured window (a running experiment: its start)')
    .option('--to <time>', 'end of the measured window (default: now)')
    .option('--absolute', 'the effect is an absolute change, not a relative lift')
    .option('--power <p>', 'the power wanted (default 0.8)', Number)
    .option('--alpha <alpha>', 'significance level (default 0.05)', Number)
    .option('--baseline <treatment>', 'the treatment compared against (default off)')
    .option('--weights <weights>', 'the treatments’ shares, e.g. on:50,off:50 (default: saved, else equal)')
    .option('--rule <label>', 'only keys exposed by this targeting rule')
    .option('--sequential', 'for sequential (always-valid) tests')
    .option('--tuning <n>', 'the sequential tests’ tuning parameter (default 5000)', Number)
    .option('--json', 'print the answer document')
    .action(
      async (
        flag: string,
        opts: {
          environment: string
          metric: string
          mde: number
          from: string
          to?: string
          absolute?: boolean
          power?: number
          alpha?: number
          baseline?: string
          weights?: string
          rule?: string
          sequential?: boolean
          tuning?: number
          json?: boolean
        },
      ) => {
        const req: PowerRequest = {
          flag,
          metricId: opts.metric,
          mde: opts.mde,
          relative: !opts.absolute,
          power: opts.power,
          from: parseTime('--from', opts.from),
          to: opts.to === undefined ? Date.now() : parseTime('--to', opts.to),
          alpha: opts.alpha,
          baseline: opts.baseline,
          weights: opts.weights === undefined ? undefined : parseWeights(opts.weights),
          rule: opts.rule,
          sequential: opts.sequential,
          sequentialTuning: opts.tuning,
        }
        const power = await withExperiments(opts.environment, (x, env, ws) => x.power(ws, env, req))
        print(opts.json, power, () => [
          `${power.flag} in ${power.environmentId}, ${power.from} to ${power.to}; baseline ${power.baseline}; ${power.test} tests at alpha ${power.alpha}`,
          `measured: ${power.measured.keys} keys; baseline mean ${num(power.measured.mean)}, variance ${num(power.measured.variance)}`,
          ...power.comparisons.map(
            (c) => `${c.treatment}: ${c.keysNeeded ?? 'no number of'} keys needed in all; power now ${pct(c.powerNow)}`,
          ),
          power.message,
        ])
      },
    )
}
