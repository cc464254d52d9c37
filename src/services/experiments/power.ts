// The power of an experiment and how long it must run: for one metric and a minimum detectable effect, the keys each
// comparison with the baseline needs (analysis/power.ts) at the metric's mean and variance in the baseline and the
// treatments' shares of the keys (the weights), and the days to reach them at the measured growth of the distinct
// exposed keys over the window (its days' first exposures). For a running experiment (the window from its start to
// now) the answer says how many more days, or that it is under-powered for this effect.
import { daysToReach, fitGrowth, keysNeeded, powerAt, type Growth, type PowerInputs } from '../../analysis/power.js'
import { invalid, Refusal } from '../../shared/errors.js'
import type { ExperimentResults } from './service.js'
import { DEFAULT_SEQUENTIAL_TUNING, type ResultsRequest } from './request.js'

const DAY = 86_400_000
/** Days from the window's start beyond which the experiment is called under-powered for the effect. */
export const MAX_DAYS = 366

export interface PowerRequest extends Pick<
  ResultsRequest,
  'flag' | 'from' | 'to' | 'baseline' | 'weights' | 'rule' | 'alpha'
> {
  readonly metricId: string
  /** The minimum detectable effect: a relative lift (0.05: 5 %) unless `relative` is false (an absolute change). */
  readonly mde: number
  readonly relative?: boolean | undefined
  /** The power wanted (default 0.8). */
  readonly power?: number | undefined
  readonly sequential?: boolean | undefined
  readonly sequentialTuning?: number | undefined
}

export interface PowerAnswer {
  readonly flag: string
  readonly environmentId: string
  readonly metricId: string
  readonly from: string
  readonly to: string
  readonly baseline: string
  readonly alpha: number
  readonly power: number
  readonly mde: number
  readonly relative: boolean
  readonly test: 'fixed-horizon' | 'sequential'
  readonly sequentialTuning: number | null
  /** What the window measured: keys analysed, the baseline's mean and per-key variance, each day's first exposures. */
  readonly measured: {
    readonly keys: number
    readonly mean: number
    readonly variance: number
    readonly days: readonly { readonly day: string; readonly newKeys: number; readonly keys: number }[]
    /** Cumulative keys K(d) ≈ a·d^b, d in days since the window's start; null without keys. */
    readonly growth: Growth | null
  }
  /** Per treatment against the baseline: the keys needed in all (null: past any reach), and the power now. */
  readonly comparisons: readonly {
    readonly treatment: string
    readonly keysNeeded: number | null
    readonly powerNow: number
  }[]
  /** The most keys any comparison needs, and the days from the window's start to reach them at the measured growth. */
  readonly keysNeeded: number | null
  readonly daysNeeded: number | null
  /** Whole days after the window's end (0 when powered already; null when under-powered). */
  readonly moreDays: number | null
  readonly verdict: 'powered' | 'more days' | 'under-powered'
  readonly message: string
}

/** The request's own fields: an effect that is a number other than 0 (a lift above −100 %), a power in (0, 1). */
export function checkPowerRequest(req: PowerRequest): void {
  const problems = []
  if (req.metricId === '') problems.push({ field: 'metric', problem: 'is required' })
  if (!(Number.isFinite(req.mde) && req.mde !== 0 && Math.abs(req.mde) <= 1e12))
    problems.push({ field: 'mde', problem: 'must be a number other than 0 (a relative lift, e.g. 0.05 for 5 %)' })
  else if (req.relative !== false && req.mde <= -1)
    problems.push({ field: 'mde', problem: 'a relative effect must be above -1 (a fall of less than 100 %)' })
  if (req.power !== undefined && !(req.power > 0 && req.power < 1))
    problems.push({ field: 'power', problem: 'must be above 0 and below 1' })
  if (req.sequentialTuning !== undefined && req.sequential !== true)
    problems.push({ field: 'sequentialTuning', problem: 'applies only with sequential=true' })
  if (problems.length > 0) throw invalid(problems, 'invalid power request')
}

/** The answer from the metric's results over the window and the keys first exposed per day (UTC day numbers). */
export function powerAnswer(
  req: PowerRequest,
  results: ExperimentResults,
  perDay: readonly { day: number; keys: number }[],
): PowerAnswer {
  const metric = results.metrics[0]!
  const base = metric.perTreatment[results.baseline]!
  const relative = req.relative !== false
  if (relative && !(base.mean !== 0 && Number.isFinite(base.mean)))
    throw new Refusal(
      'PRECONDITION_FAILED',
      `the metric's mean in ${results.baseline} is ${base.mean}: a relative effect has no meaning (ask for an absolute one, relative=false)`,
    )
  if (!(base.variance > 0 && Number.isFinite(base.variance)))
    throw new Refusal(
      'PRECONDITION_FAILED',
      `the metric's values in ${results.baseline} do not vary (variance ${base.variance}): nothing to measure the power from yet`,
    )
  const sequentialTuning = req.sequential ? (req.sequentialTuning ?? DEFAULT_SEQUENTIAL_TUNING) : undefined
  const target = req.power ?? 0.8
  const shares = results.srm.expected
  const keysNow = results.exposure.keys
  const comparisons = metric.comparisons.map((c) => {
    const inputs: PowerInputs = {
      mean: base.mean,
      variance: base.variance,
      mde: req.mde,
      relative,
      alpha: results.alpha,
      shares: { baseline: shares[results.baseline]!, treatment: shares[c.treatment]! },
      sequentialTuning,
    }
    return { treatment: c.treatment, keysNeeded: keysNeeded(inputs, target), powerNow: powerAt(keysNow, inputs) }
  })
  // Day by day from the window's start: each day's end (the window's end on its last), its first exposures, and the
  // keys so far.
  const firstDay = Math.floor(req.from / DAY)
  const lastDay = Math.floor(req.to / DAY)
  const newOn = new Map(perDay.map((d) => [d.day, d.keys]))
  let sum = 0
  const days = []
  const points = []
  for (let d = firstDay; d <= lastDay; d++) {
    sum += newOn.get(d) ?? 0
    days.push({ day: new Date(d * DAY).toISOString().slice(0, 10), newKeys: newOn.get(d) ?? 0, keys: sum })
    points.push({ days: (Math.min(req.to, (d + 1) * DAY) - req.from) / DAY, keys: sum })
  }
  const growth = fitGrowth(points)
  const needed = comparisons.some((c) => c.keysNeeded === null)
    ? null
    : Math.max(...comparisons.map((c) => c.keysNeeded!))
  const elapsed = (req.to - req.from) / DAY
  const daysNeeded = needed === null || growth === null ? null : daysToReach(growth, needed)
  const within = daysNeeded !== null && daysNeeded <= MAX_DAYS
  const verdict = needed !== null && keysNow >= needed ? 'powered' : within ? 'more days' : 'under-powered'
  const moreDays =
    verdict === 'powered' ? 0 : verdict === 'more days' ? Math.max(1, Math.ceil(daysNeeded! - elapsed)) : null
  const effect = relative ? `a ${(req.mde * 100).toPrecision(3)}% lift` : `a change of ${req.mde}`
  const message =
    verdict === 'powered'
      ? `powered: ${keysNow} keys, at least ${needed} needed for ${effect} at power ${target}`
      : verdict === 'more days'
        ? `about ${moreDays} more days at the current rate: ${needed} keys needed for ${effect} at power ${target}, ${keysNow} so far`
        : `under-powered for ${effect}: ${needed === null ? 'no number of keys' : `${needed} keys`} would reach power ${target}${needed === null ? '' : `, not within ${MAX_DAYS} days of the start at the current rate`}`
  return {
    flag: results.flag,
    environmentId: results.environmentId,
    metricId: metric.metricId,
    from: results.from,
    to: results.to,
    baseline: results.baseline,
    alpha: results.alpha,
    power: target,
    mde: req.mde,
    relative,
    test: sequentialTuning === undefined ? 'fixed-horizon' : 'sequential',
    sequentialTuning: sequentialTuning ?? null,
    measured: { keys: keysNow, mean: base.mean, variance: base.variance, days, growth },
    comparisons,
    keysNeeded: needed,
    daysNeeded,
    moreDays,
    verdict,
    message,
  }
}
