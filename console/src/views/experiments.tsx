// Experiment results: pick a workspace's environment, a flag seen in its impressions, metrics and a
// window; each metric as a table of treatments (keys, mean, lift with its confidence interval drawn as
// a bar, p-values, significance) and the sample ratio check, in the README's words.
import { useEffect, useState } from 'preact/hooks'
import { ErrorLine } from '../ui.js'
import { api, errorText } from '../api.js'

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
}
interface Estimate {
  estimate: number
  ci: [number, number] | null
  pValue: number | null
}
interface Comparison {
  treatment: string
  absolute: Estimate
  relative: Estimate & { of: 'baseline-mean' | 'absolute-change' }
  adjustedPValue: number | null
  significant: boolean
  impact: string
  note: string | null
}
interface Results {
  baseline: string
  alpha: number
  exposure: { keys: number; perTreatment: Record<string, number>; excludedKeys: number }
  srm: { pValue: number; mismatch: boolean; expected: Record<string, number> }
  metrics: {
    metricId: string
    name: string
    type: string
    desiredDirection: string
    perTreatment: Record<string, { keys: number; mean: number }>
    comparisons: Comparison[]
  }[]
}

const DAY = 24 * 3600 * 1000
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const num = (x: number | null | undefined) =>
  x === null || x === undefined ? '–' : Number(x.toPrecision(4)).toString()
const lift = (c: Comparison, x: number) => (c.relative.of === 'absolute-change' ? num(x) : `${(x * 100).toFixed(1)}%`)

/** The interval as a bar on a scale shared by a metric's rows, with zero marked. */
function IntervalBar({ ci, scale }: { ci: [number, number] | null; scale: number }) {
  if (!ci || scale === 0) return null
  const at = (x: number) => 50 + (x / scale) * 50
  const [lo, hi] = [Math.max(0, at(ci[0])), Math.min(100, at(ci[1]))]
  const side = ci[0] > 0 ? 'up' : ci[1] < 0 ? 'down' : 'zero'
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

export function Experiments() {
  const [workspaces, setWorkspaces] = useState<Workspace[]>([])
  const [ws, setWs] = useState('')
  const [envs, setEnvs] = useState<Environment[]>([])
  const [env, setEnv] = useState('')
  const [flags, setFlags] = useState<Flag[]>([])
  const [flag, setFlag] = useState('')
  const [metrics, setMetrics] = useState<Metric[]>([])
  const [chosen, setChosen] = useState<string[]>([])
  const [from, setFrom] = useState(day(Date.now() - 30 * DAY))
  const [to, setTo] = useState(day(Date.now() + DAY))
  const [results, setResults] = useState<Results | null>(null)
  const [error, setError] = useState<string | null>(null)
  const guard = (p: Promise<void>) => p.catch((err: unknown) => setError(errorText(err)))

  useEffect(() => {
    void guard(
      api<{ objects: Workspace[] }>('GET', '/internal/api/v2/workspaces?limit=200').then((r) => {
        setWorkspaces(r.objects)
        setWs(r.objects[0]?.id ?? '')
      }),
    )
  }, [])
  useEffect(() => {
    if (!ws) return
    void guard(
      Promise.all([
        api<Environment[]>('GET', `/internal/api/v2/environments/ws/${encodeURIComponent(ws)}`),
        api<{ metrics: Metric[] }>('GET', `/api/v1/workspaces/${encodeURIComponent(ws)}/metrics`),
      ]).then(([e, m]) => {
        setEnvs(e)
        setEnv(e[0]?.id ?? '')
        setMetrics(m.metrics)
        setChosen(m.metrics.slice(0, 3).map((x) => x.id))
      }),
    )
  }, [ws])
  useEffect(() => {
    if (!env) return
    const q = new URLSearchParams({ from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z` })
    void guard(
      api<{ flags: Flag[] }>('GET', `/api/v1/environments/${encodeURIComponent(env)}/experiments?${q.toString()}`).then(
        (r) => {
          setFlags(r.flags)
          setFlag(r.flags[0]?.flag ?? '')
        },
      ),
    )
  }, [env, from, to])

  const show = (e: Event) => {
    e.preventDefault()
    setError(null)
    const q = new URLSearchParams({ metrics: chosen.join(','), from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z` })
    void guard(
      api<Results>(
        'GET',
        `/api/v1/environments/${encodeURIComponent(env)}/experiments/${encodeURIComponent(flag)}/results?${q.toString()}`,
      ).then(setResults),
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
          {flags.map((f) => (
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
        <button type="submit" disabled={!flag || chosen.length === 0}>
          Show results
        </button>
      </form>
      {flags.length === 0 && env && <p>No flag has impressions in this environment between these days.</p>}
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
          <p data-testid="srm" class={results.srm.mismatch ? 'error' : undefined}>
            Sample ratio check: p = {num(results.srm.pValue)}.{' '}
            {results.srm.mismatch
              ? 'Mismatch: the split of keys does not match the weights; do not trust these results.'
              : 'No mismatch.'}
          </p>
          {results.metrics.map((m) => {
            const scale = Math.max(
              0,
              ...m.comparisons.flatMap((c) => (c.relative.ci ? c.relative.ci.map(Math.abs) : [])),
            )
            return (
              <table>
                <caption>
                  {m.name} ({m.type}, {m.desiredDirection} is good)
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Treatment</th>
                    <th scope="col">Keys</th>
                    <th scope="col">Mean</th>
                    <th scope="col">Lift</th>
                    <th scope="col">{Math.round((1 - results.alpha) * 100)}% interval</th>
                    <th scope="col">p</th>
                    <th scope="col">Adjusted p</th>
                    <th scope="col">Verdict</th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(m.perTreatment).map(([t, s]) => {
                    const c = m.comparisons.find((x) => x.treatment === t)
                    return (
                      <tr data-treatment={t}>
                        <th scope="row">{t}</th>
                        <td>{s.keys}</td>
                        <td>{num(s.mean)}</td>
                        <td>{c ? lift(c, c.relative.estimate) : 'baseline'}</td>
                        <td>
                          {c?.relative.ci && (
                            <>
                              <IntervalBar ci={c.relative.ci} scale={scale} /> {lift(c, c.relative.ci[0])} to{' '}
                              {lift(c, c.relative.ci[1])}
                            </>
                          )}
                        </td>
                        <td>{c ? num(c.absolute.pValue) : ''}</td>
                        <td>{c ? num(c.adjustedPValue) : ''}</td>
                        <td>
                          {c ? `${c.significant ? 'significant, ' : ''}${c.impact}${c.note ? ` (${c.note})` : ''}` : ''}
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            )
          })}
        </div>
      )}
    </section>
  )
}
