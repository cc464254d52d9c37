// Experiment results: pick a workspace's environment, a flag seen in its impressions, metrics, a
// window and the methods (the engine, sequential tests, CUPED, the correction or the prior); each metric
// as a table of treatments (keys, mean, lift with its confidence or credible interval drawn as a bar,
// p-values, or under the Bayesian engine the chance to win and the risk; significance, a guardrail's
// state) with a chart of the lift and its interval over time, and the sample ratio check, in the
// README's words.
// What is shown is in the address (#/experiments?ws=…&env=…&flag=…&metrics=a,b&from=…&to=…&engine=…&sequential=…&
// cuped=…&correction=…&prior=…): Show results puts it there, and the view opened at such an address (a link, a
// reload, Back) is built from it and shows those results again. The console remounts this view when its address
// changes.
import { useEffect, useRef, useState } from 'preact/hooks'
import { ErrorLine } from '../ui.js'
import { api, errorText } from '../api.js'
import type { RouteParams } from '../route.js'
import { TimeChart } from '../chart.js'
import { when } from '../format.js'

interface Workspace {
  id: string
  name: string
}
interface Environment {
  id: string
  name: string
}
interface Metric {
  id: string
  name: string
  type: string
}
interface Flag {
  flag: string
  treatments: string[]
  keys: number
  firstImpressionAt: string
}
interface Estimate {
  estimate: number | null
  /** A one-sided (guardrail) interval has its open side null. */
  ci: [number | null, number | null] | null
  pValue: number | null
}
/** The Bayesian engine's posterior of an effect. */
interface Posterior {
  expected: number
  ci: [number, number]
  chanceToWin: number
  risk: { baseline: number; treatment: number }
  reason: string | null
}
interface Comparison {
  treatment: string
  absolute: Estimate
  relative: Estimate & { of: 'baseline-mean' | 'absolute-change' }
  bayesian: { absolute: Posterior; relative: Posterior } | null
  adjustedPValue: number | null
  significant: boolean
  impact: string
  note: string | null
  guardrail: 'ok' | 'at risk' | 'failing' | null
}
interface Results {
  baseline: string
  alpha: number
  mode: {
    engine: 'frequentist' | 'bayesian'
    prior: { proper: boolean; mean?: number; variance?: number } | null
    test: 'fixed-horizon' | 'sequential'
    sequentialTuning: number | null
    cuped: boolean
    correction: string
    note: string | null
  }
  exposure: { keys: number; perTreatment: Record<string, number>; excludedKeys: number }
  srm: { pValue: number; mismatch: boolean; expected: Record<string, number> }
  metrics: {
    metricId: string
    name: string
    type: string
    desiredDirection: string
    guardrail: boolean
    cap: { value: number; percentile: number | null; applied: boolean } | null
    cuped: { preExposureDays: number; varianceReduction: number | null } | null
    perTreatment: Record<string, { keys: number; mean: number | null }>
    comparisons: Comparison[]
  }[]
  dimension: {
    correctionScope: string
    note: string | null
    slices: {
      value: string | null
      exposure: { keys: number }
      srm: { mismatch: boolean }
      metrics: {
        metricId: string
        name: string
        comparisons: (Comparison & {
          familySize: number
          differentialImpact: { difference: number; adjustedPValue: number | null; flagged: boolean } | null
        })[]
      }[]
    }[]
  } | null
}
interface Timeseries {
  points: { to: string; results: Results | null; note: string | null }[]
}

const DAY = 24 * 3600 * 1000
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const num = (x: number | null | undefined) =>
  x === null || x === undefined ? '–' : Number(x.toPrecision(4)).toString()
/** A lift as text; an open bound (one-sided interval) or an overflowed figure as `open`. */
const lift = (c: Comparison, x: number | null, open = '–') =>
  x === null ? open : c.relative.of === 'absolute-change' ? num(x) : `${(x * 100).toFixed(1)}%`
const methods = (m: Results['mode']) =>
  m.engine === 'bayesian'
    ? `Bayesian, ${m.prior?.proper ? `proper prior N(${m.prior.mean}, ${m.prior.variance}) on the lift` : 'flat prior'}${m.cuped ? ', CUPED' : ''}`
    : `${m.test === 'sequential' ? `sequential tests (tuning ${m.sequentialTuning})` : 'fixed-horizon tests'}${m.cuped ? ', CUPED' : ''}, correction ${m.correction === 'bh' ? 'Benjamini–Hochberg' : m.correction === 'holm' ? 'Holm' : 'none'}`

/** A comparison's figures as shown: the posterior of the lift (of the change when the baseline mean is 0), if any. */
const posteriorOf = (c: Comparison) =>
  c.bayesian && (c.relative.of === 'absolute-change' ? c.bayesian.absolute : c.bayesian.relative)
const chance = (x: number) => `${(x * 100).toFixed(1)}%`
/** The lift shown and its interval: the posterior's under the Bayesian engine, else the test's. */
const estimateOf = (c: Comparison) => posteriorOf(c)?.expected ?? c.relative.estimate
const intervalOf = (c: Comparison) => posteriorOf(c)?.ci ?? c.relative.ci

/** The interval as a bar on a scale shared by a metric's rows, with zero marked (an open side runs to the edge). */
function IntervalBar({ ci, scale }: { ci: [number | null, number | null] | null; scale: number }) {
  if (!ci || scale === 0) return null
  const at = (x: number) => 50 + (x / scale) * 50
  const [lo, hi] = [ci[0] === null ? 0 : Math.max(0, at(ci[0])), ci[1] === null ? 100 : Math.min(100, at(ci[1]))]
  const side = ci[0] !== null && ci[0] > 0 ? 'up' : ci[1] !== null && ci[1] < 0 ? 'down' : 'zero'
  return (
    <svg
      class="ci"
      viewBox="0 0 100 10"
      width="160"
      height="14"
      role="img"
      aria-label={`interval ${num(ci[0])} to ${num(ci[1])}`}
    >
      <line x1="50" y1="0" x2="50" y2="10" class="zero" />
      <rect x={lo} y="3" width={Math.max(0.5, hi - lo)} height="4" class={side} />
    </svg>
  )
}

/**
 * The lift of each treatment over time with its interval as a band (what a sequential chart shows: the band narrows
 * as keys come in), on one scale; the last point's figures are its summary.
 */
function OverTime({ series, metricId }: { series: Timeseries; metricId: string }) {
  const points = series.points.flatMap((p) => {
    const m = p.results?.metrics.find((x) => x.metricId === metricId)
    return m ? [{ to: p.to, m }] : []
  })
  if (points.length === 0) return <p>No results over time yet.</p>
  const last = points[points.length - 1]!
  const treatments = last.m.comparisons.map((c) => c.treatment)
  const absolute = last.m.comparisons[0]?.relative.of === 'absolute-change'
  const unit = (v: number | null | undefined) => (v === null || v === undefined ? null : absolute ? v : v * 100)
  // The scale: every estimate and the last intervals, with room; the wide intervals of the first few keys are clipped.
  const bounds = [
    ...points.flatMap((p) => p.m.comparisons.map((c) => unit(estimateOf(c)))),
    ...last.m.comparisons.flatMap((c) => (intervalOf(c) ?? []).map(unit)),
  ].filter((v): v is number => v !== null)
  const scale = 1.5 * Math.max(1e-12, ...bounds.map(Math.abs))
  const of = (t: string, f: (c: Comparison) => number | null | undefined) =>
    points.map((p) => {
      const c = p.m.comparisons.find((x) => x.treatment === t)
      return c ? unit(f(c)) : null
    })
  const summary = `Lift against the baseline over time, each point over the window from its start (${when(points[0]!.to)} to ${when(last.to)}), with its interval. At the last point: ${last.m.comparisons
    .map(
      (c) =>
        `${c.treatment} ${lift(c, estimateOf(c))} from ${lift(c, intervalOf(c)?.[0] ?? null, '−∞')} to ${lift(c, intervalOf(c)?.[1] ?? null, '∞')}`,
    )
    .join('; ')}.`
  return (
    <TimeChart
      testId="over-time"
      x={points.map((p) => Date.parse(p.to) / 1000)}
      series={treatments.map((t, k) => ({
        label: t,
        color: `series-${k % 4}`,
        values: of(t, (c) => estimateOf(c)),
        interval: { lower: of(t, (c) => intervalOf(c)?.[0]), upper: of(t, (c) => intervalOf(c)?.[1]) },
      }))}
      yLabel={absolute ? 'change' : 'lift (%)'}
      yRange={[-scale, scale]}
      format={(v) => (absolute ? num(v) : `${v.toFixed(1)}%`)}
      summary={summary}
    />
  )
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const CORRECTIONS = ['bh', 'holm', 'none']
const ENGINES = ['frequentist', 'bayesian']
const PRIORS = ['flat', 'proper']

export function Experiments({ params, go }: { params: Record<string, string>; go: (params: RouteParams) => void }) {
  // The address this view was opened at: each choice starts from it while it names one that exists.
  const opened = useRef(params)
  const wanted = (name: string) => opened.current[name] ?? ''
  const [workspaces, setWorkspaces] = useState<Workspace[]>([])
  const [ws, setWs] = useState('')
  const [envs, setEnvs] = useState<Environment[]>([])
  const [env, setEnv] = useState('')
  // null while the environment's flags are read (none said only of flags read).
  const [flags, setFlags] = useState<Flag[] | null>(null)
  const [flag, setFlag] = useState('')
  const [metrics, setMetrics] = useState<Metric[]>([])
  const [chosen, setChosen] = useState<string[]>([])
  const [from, setFrom] = useState(DATE.test(wanted('from')) ? wanted('from') : day(Date.now() - 30 * DAY))
  const [to, setTo] = useState(DATE.test(wanted('to')) ? wanted('to') : day(Date.now() + DAY))
  const [sequential, setSequential] = useState(false)
  const [cuped, setCuped] = useState(false)
  const [correction, setCorrection] = useState('bh')
  const [engine, setEngine] = useState('frequentist')
  const [prior, setPrior] = useState('flat')
  // A breakdown: none, rule, or event:<event type>:<property>.
  const [dimension, setDimension] = useState(wanted('dimension'))
  const [results, setResults] = useState<Results | null>(null)
  const [series, setSeries] = useState<Timeseries | null>(null)
  const [error, setError] = useState<string | null>(null)
  // Set once the address's flag is chosen: its results are then shown without a click.
  const [showOpened, setShowOpened] = useState(false)
  const guard = (p: Promise<void>) => p.catch((err: unknown) => setError(errorText(err)))
  /** The id the address names, if it is among the items, else the first item's. */
  const pick = <T,>(items: readonly T[], id: (item: T) => string, name: string): string => {
    const found = items.find((x) => id(x) === wanted(name)) ?? items[0]
    return found === undefined ? '' : id(found)
  }

  useEffect(() => {
    void guard(
      api<{ objects: Workspace[] }>('GET', '/internal/api/v2/workspaces?limit=200').then((r) => {
        setWorkspaces(r.objects)
        setWs(pick(r.objects, (w) => w.id, 'ws'))
      }),
    )
  }, [])
  useEffect(() => {
    if (!ws) return
    void guard(
      Promise.all([
        api<Environment[]>('GET', `/internal/api/v2/environments/ws/${encodeURIComponent(ws)}`),
        api<{ metrics: Metric[] }>('GET', `/api/v1/workspaces/${encodeURIComponent(ws)}/metrics`),
        api<{ engine: string; prior: string; sequential: boolean; cuped: boolean; correction: string }>(
          'GET',
          `/api/v1/workspaces/${encodeURIComponent(ws)}/experiment-defaults`,
        ),
      ]).then(([e, m, d]) => {
        // The address's methods, else the workspace's defaults, which the controls start from.
        const named = ws === wanted('ws')
        setSequential(named && wanted('sequential') ? wanted('sequential') === 'true' : d.sequential)
        setCuped(named && wanted('cuped') ? wanted('cuped') === 'true' : d.cuped)
        setCorrection(named && CORRECTIONS.includes(wanted('correction')) ? wanted('correction') : d.correction)
        setEngine(named && ENGINES.includes(wanted('engine')) ? wanted('engine') : d.engine)
        setPrior(named && PRIORS.includes(wanted('prior')) ? wanted('prior') : d.prior)
        setEnvs(e)
        setEnv(pick(e, (x) => x.id, 'env'))
        setMetrics(m.metrics)
        const listed = wanted('metrics')
          .split(',')
          .filter((id) => m.metrics.some((x) => x.id === id))
        setChosen(named && listed.length > 0 ? listed : m.metrics.slice(0, 3).map((x) => x.id))
      }),
    )
  }, [ws])
  useEffect(() => {
    setFlags(null)
    setFlag('')
    if (!env) return
    // The answer for an environment or days no longer chosen is dropped.
    let current = true
    const q = new URLSearchParams({ from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z` })
    void guard(
      api<{ flags: Flag[] }>('GET', `/api/v1/environments/${encodeURIComponent(env)}/experiments?${q.toString()}`).then(
        (r) => {
          if (!current) return
          setFlags(r.flags)
          setFlag(pick(r.flags, (f) => f.flag, 'flag'))
          if (wanted('flag') && r.flags.some((f) => f.flag === wanted('flag')) && env === wanted('env')) {
            setShowOpened(true)
            opened.current = {}
          }
        },
      ),
    )
    return () => void (current = false)
  }, [env, from, to])

  useEffect(() => {
    if (!showOpened || !flag) return
    setShowOpened(false)
    load()
  }, [showOpened, flag])
  /** Puts what is chosen in the address (the view is then built from it and shows the results), or shows it here. */
  const show = (e: Event) => {
    e.preventDefault()
    const next: Record<string, string> = {
      ws,
      env,
      flag,
      metrics: chosen.join(','),
      from,
      to,
      engine,
      sequential: String(sequential),
      cuped: String(cuped),
      correction,
      prior,
      dimension,
    }
    const same =
      Object.keys(next).every((k) => next[k] === (params[k] ?? '')) &&
      Object.keys(params).length === Object.keys(next).length
    if (same) load()
    else go(next)
  }
  const load = () => {
    setError(null)
    // Each engine is sent only its own methods.
    const q = new URLSearchParams({
      metrics: chosen.join(','),
      from: `${from}T00:00:00Z`,
      to: `${to}T00:00:00Z`,
      engine,
      cuped: String(cuped),
      ...(engine === 'bayesian' ? { prior } : { sequential: String(sequential), correction }),
      ...(dimension ? { dimension } : {}),
    })
    const path = `/api/v1/environments/${encodeURIComponent(env)}/experiments/${encodeURIComponent(flag)}/results`
    // The last results go as the new ones are asked for: never shown as the answer to this request.
    setResults(null)
    setSeries(null)
    void guard(
      api<Results>('GET', `${path}?${q.toString()}`).then((r) => {
        setResults(r)
        // Over time: from the flag's first impression in the window to now (or the window's end), by hour over a
        // few days, by day up to 100 days, else by week.
        const seen = flags?.find((f) => f.flag === flag)
        const start = Math.max(Date.parse(`${from}T00:00:00Z`), Date.parse(seen?.firstImpressionAt ?? '') || 0)
        const end = Math.min(Date.parse(`${to}T00:00:00Z`), Date.now())
        if (!(end > start)) return
        const interval = end - start <= 4 * DAY ? 'hour' : end - start <= 99 * DAY ? 'day' : 'week'
        const step = interval === 'hour' ? 3600_000 : DAY
        const t = new URLSearchParams(q)
        t.set('from', new Date(start - (start % step)).toISOString())
        t.set('to', new Date(end).toISOString())
        t.set('interval', interval)
        return api<Timeseries>('GET', `${path}/timeseries?${t.toString()}`).then(setSeries)
      }),
    )
  }

  return (
    <section aria-labelledby="experiments-title">
      <h2 id="experiments-title">Experiments</h2>
      <form class="row" onSubmit={show}>
        <label for="exp-ws">Workspace</label>
        <select id="exp-ws" value={ws} onChange={(e) => setWs(e.currentTarget.value)}>
          {workspaces.map((w) => (
            <option value={w.id}>{w.name}</option>
          ))}
        </select>
        <label for="exp-env">Environment</label>
        <select id="exp-env" value={env} onChange={(e) => setEnv(e.currentTarget.value)}>
          {envs.map((x) => (
            <option value={x.id}>{x.name}</option>
          ))}
        </select>
        <label for="exp-from">From</label>
        <input id="exp-from" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <label for="exp-to">To</label>
        <input id="exp-to" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        <label for="exp-flag">Flag</label>
        <select id="exp-flag" value={flag} onChange={(e) => setFlag(e.currentTarget.value)}>
          {flags?.map((f) => (
            <option value={f.flag}>
              {f.flag} ({f.treatments.join(', ')})
            </option>
          ))}
        </select>
        <label for="exp-metrics">Metrics</label>
        <select
          id="exp-metrics"
          multiple
          size={Math.min(5, Math.max(2, metrics.length))}
          onChange={(e) => setChosen([...e.currentTarget.selectedOptions].map((o) => o.value))}
        >
          {metrics.map((m) => (
            <option value={m.id} selected={chosen.includes(m.id)}>
              {m.name} ({m.type})
            </option>
          ))}
        </select>
        <label for="exp-engine">Engine</label>
        <select id="exp-engine" value={engine} onChange={(e) => setEngine(e.currentTarget.value)}>
          <option value="frequentist">Frequentist</option>
          <option value="bayesian">Bayesian</option>
        </select>
        <label>
          <input
            type="checkbox"
            checked={sequential && engine === 'frequentist'}
            disabled={engine !== 'frequentist'}
            onChange={(e) => setSequential(e.currentTarget.checked)}
          />{' '}
          Sequential (safe to look often)
        </label>
        <label>
          <input type="checkbox" checked={cuped} onChange={(e) => setCuped(e.currentTarget.checked)} /> CUPED
        </label>
        <label for="exp-correction">Correction</label>
        <select
          id="exp-correction"
          value={correction}
          disabled={engine !== 'frequentist'}
          onChange={(e) => setCorrection(e.currentTarget.value)}
        >
          <option value="bh">Benjamini–Hochberg</option>
          <option value="holm">Holm</option>
          <option value="none">None</option>
        </select>
        <label for="exp-prior">Prior</label>
        <select
          id="exp-prior"
          value={prior}
          disabled={engine !== 'bayesian'}
          onChange={(e) => setPrior(e.currentTarget.value)}
        >
          <option value="flat">Flat</option>
          <option value="proper">Proper (the workspace's)</option>
        </select>
        <label for="exp-dimension">Break down by</label>
        <input
          id="exp-dimension"
          list="exp-dimensions"
          placeholder="rule, event:visit:platform or identity:user:plan"
          value={dimension}
          onInput={(e) => setDimension(e.currentTarget.value.trim())}
        />
        <datalist id="exp-dimensions">
          <option value="rule">the rule of the first impression</option>
        </datalist>
        <button type="submit" disabled={!flag || chosen.length === 0}>
          Show results
        </button>
      </form>
      {flags?.length === 0 && <p>No flag has impressions in this environment between these days.</p>}
      <ErrorLine text={error} />
      {results && (
        <div data-testid="results">
          <p>
            Exposed keys: {results.exposure.keys} (
            {Object.entries(results.exposure.perTreatment)
              .map(([t, n]) => `${t} ${n}`)
              .join(', ')}
            ); excluded for seeing more than one treatment: {results.exposure.excludedKeys}. Baseline:{' '}
            {results.baseline}.
          </p>
          <p data-testid="methods">
            Methods: {methods(results.mode)}.{results.mode.note && ` Note: ${results.mode.note}.`}
          </p>
          <p data-testid="srm" class={results.srm.mismatch ? 'error' : undefined}>
            Sample ratio check: p = {num(results.srm.pValue)}.{' '}
            {results.srm.mismatch
              ? 'Mismatch: the split of keys does not match the weights; do not trust these results.'
              : 'No mismatch.'}
          </p>
          {results.metrics.map((m) => {
            const bayesian = results.mode.engine === 'bayesian'
            const scale = Math.max(
              0,
              ...m.comparisons.flatMap(
                (c) =>
                  intervalOf(c)
                    ?.filter((x): x is number => x !== null)
                    .map(Math.abs) ?? [],
              ),
            )
            const about = [
              m.type,
              `${m.desiredDirection} is good`,
              ...(m.guardrail ? ['guardrail'] : []),
              ...(m.cap
                ? [
                    m.cap.applied
                      ? `capped at ${num(m.cap.value)}${m.cap.percentile === null ? '' : ` (percentile ${m.cap.percentile * 100})`}`
                      : `not capped: its percentile ${m.cap.percentile! * 100} is ${num(m.cap.value)}`,
                  ]
                : []),
              ...(m.cuped
                ? [
                    `CUPED over ${m.cuped.preExposureDays} days removed ${m.cuped.varianceReduction === null ? '–' : `${(m.cuped.varianceReduction * 100).toFixed(0)}%`} of the variance`,
                  ]
                : []),
            ]
            return (
              <>
                <table data-metric={m.metricId}>
                  <caption>
                    {m.name} ({about.join(', ')})
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Treatment</th>
                      <th scope="col">Keys</th>
                      <th scope="col">Mean</th>
                      <th scope="col">Lift</th>
                      <th scope="col">
                        {Math.round((1 - results.alpha) * 100)}% {bayesian ? 'credible interval' : 'interval'}
                      </th>
                      <th scope="col">{bayesian ? 'Chance to win' : 'p'}</th>
                      <th scope="col">{bayesian ? 'Risk (expected loss)' : 'Adjusted p'}</th>
                      <th scope="col">Verdict</th>
                    </tr>
                  </thead>
                  <tbody>
                    {Object.entries(m.perTreatment).map(([t, s]) => {
                      const c = m.comparisons.find((x) => x.treatment === t)
                      const post = c && posteriorOf(c)
                      const ci = c && intervalOf(c)
                      return (
                        <tr data-treatment={t}>
                          <th scope="row">{t}</th>
                          <td>{s.keys}</td>
                          <td>{num(s.mean)}</td>
                          <td>{c ? lift(c, estimateOf(c)) : 'baseline'}</td>
                          <td>
                            {c && ci && (
                              <>
                                <IntervalBar ci={ci} scale={scale} /> {lift(c, ci[0], '−∞')} to {lift(c, ci[1], '∞')}
                              </>
                            )}
                          </td>
                          <td data-testid="chance">
                            {post ? chance(post.chanceToWin) : c ? num(c.absolute.pValue) : ''}
                          </td>
                          <td data-testid="risk">
                            {post && c
                              ? `${lift(c, post.risk.treatment)} if chosen, ${lift(c, post.risk.baseline)} if not`
                              : c
                                ? num(c.adjustedPValue)
                                : ''}
                          </td>
                          <td>
                            {c
                              ? `${c.guardrail ? `${c.guardrail}, ` : ''}${c.significant ? 'significant, ' : ''}${c.impact}${c.note ? ` (${c.note})` : ''}`
                              : ''}
                          </td>
                        </tr>
                      )
                    })}
                  </tbody>
                </table>
                {series && <OverTime series={series} metricId={m.metricId} />}
              </>
            )
          })}
          {results.dimension && <Slices breakdown={results.dimension} alpha={results.alpha} />}
          <PowerForm env={env} flag={flag} from={from} to={to} metrics={results.metrics} />
        </div>
      )}
    </section>
  )
}

interface PowerAnswer {
  keysNeeded: number | null
  measured: { keys: number }
  verdict: 'powered' | 'more days' | 'under-powered'
  message: string
}

/**
 * How long the experiment must run to detect a lift on a metric: the keys needed at the power asked for and the days
 * to reach them at the measured growth of exposed keys (POST .../power), over the same window as the results.
 */
function PowerForm(props: { env: string; flag: string; from: string; to: string; metrics: Results['metrics'] }) {
  const [metric, setMetric] = useState(props.metrics[0]?.metricId ?? '')
  const [mde, setMde] = useState('5')
  const [answer, setAnswer] = useState<PowerAnswer | null>(null)
  const [error, setError] = useState<string | null>(null)
  const ask = (e: Event) => {
    e.preventDefault()
    setError(null)
    setAnswer(null)
    const path = `/api/v1/environments/${encodeURIComponent(props.env)}/experiments/${encodeURIComponent(props.flag)}/power`
    // Up to now at most: the keys so far are those of a running experiment.
    const end = Math.min(Date.parse(`${props.to}T00:00:00Z`), Date.now())
    api<PowerAnswer>('POST', path, {
      metric,
      mde: Number(mde) / 100,
      from: `${props.from}T00:00:00Z`,
      to: new Date(end).toISOString(),
    })
      .then(setAnswer)
      .catch((err: unknown) => setError(errorText(err)))
  }
  return (
    <form class="row" onSubmit={ask} data-testid="power">
      <label for="power-metric">Power for</label>
      <select id="power-metric" value={metric} onChange={(e) => setMetric(e.currentTarget.value)}>
        {props.metrics.map((m) => (
          <option value={m.metricId}>{m.name}</option>
        ))}
      </select>
      <label for="power-mde">Smallest lift to detect (%)</label>
      <input id="power-mde" type="number" step="any" value={mde} onInput={(e) => setMde(e.currentTarget.value)} />
      <button type="submit" disabled={!metric}>
        How long?
      </button>
      {answer && (
        <p data-testid="power-answer" class={answer.verdict === 'under-powered' ? 'error' : undefined}>
          {answer.message[0]!.toUpperCase() + answer.message.slice(1)}.
        </p>
      )}
      <ErrorLine text={error} />
    </form>
  )
}

/**
 * The results by slice: per metric a table of each slice's comparisons (lift, interval, adjusted p with the size of its
 * correction family, verdict) and whether its effect differs from the rest's, the flagged slices marked.
 */
function Slices({ breakdown, alpha }: { breakdown: NonNullable<Results['dimension']>; alpha: number }) {
  const label = (v: string | null) => (v === null ? '(other)' : v === '' ? '(none)' : v)
  const metrics = breakdown.slices[0]?.metrics ?? []
  return (
    <div data-testid="slices">
      <h3>By slice</h3>
      <p>
        Corrected within{' '}
        {breakdown.correctionScope === 'all'
          ? 'every slice, metric and treatment'
          : `each ${breakdown.correctionScope}`}
        .{breakdown.note && ` ${breakdown.note}.`}
      </p>
      {metrics.map((m, i) => (
        <table data-slices-metric={m.metricId}>
          <caption>{m.name} by slice</caption>
          <thead>
            <tr>
              <th scope="col">Slice</th>
              <th scope="col">Keys</th>
              <th scope="col">Treatment</th>
              <th scope="col">Lift</th>
              <th scope="col">{Math.round((1 - alpha) * 100)}% interval</th>
              <th scope="col">Adjusted p (family)</th>
              <th scope="col">Verdict</th>
              <th scope="col">Against the rest</th>
            </tr>
          </thead>
          <tbody>
            {breakdown.slices.flatMap((s) =>
              (s.metrics[i]?.comparisons ?? []).map((c) => {
                const ci = intervalOf(c)
                const di = c.differentialImpact
                return (
                  <tr data-slice={label(s.value)} class={di?.flagged ? 'flagged' : undefined}>
                    <th scope="row">{label(s.value)}</th>
                    <td>
                      {s.exposure.keys}
                      {s.srm.mismatch ? ' (sample ratio mismatch)' : ''}
                    </td>
                    <td>{c.treatment}</td>
                    <td>{lift(c, estimateOf(c))}</td>
                    <td>{ci ? `${lift(c, ci[0], '−∞')} to ${lift(c, ci[1], '∞')}` : ''}</td>
                    <td>
                      {num(c.adjustedPValue)} ({c.familySize})
                    </td>
                    <td>{`${c.significant ? 'significant, ' : ''}${c.impact}${c.note ? ` (${c.note})` : ''}`}</td>
                    <td data-testid="differs">
                      {di === null ? '–' : di.flagged ? `differs (p = ${num(di.adjustedPValue)})` : 'no difference'}
                    </td>
                  </tr>
                )
              }),
            )}
          </tbody>
        </table>
      ))}
    </div>
  )
}
