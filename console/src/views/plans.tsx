// An environment's tracking plan beside what arrived: the plan as JSON to edit (or proposed from the catalogue), saved
// as the version after the one shown (another person's save in between is said, not overwritten), its versions, and
// the violations the events consumers reported, by event type, rule and SDK version, with examples shown as text.
import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, errorText, type Answer } from '../api.js'
import { useRead } from '../read.js'
import { count, when } from '../format.js'
import { ErrorLine } from '../ui.js'

type StoredPlan = Answer<'/api/v1/environments/{env}/tracking-plan'>
type Proposal = Answer<'/api/v1/environments/{env}/tracking-plan/proposal'>
type Changes = Answer<'/api/v1/environments/{env}/tracking-plan/versions'>
type Violations = Answer<'/api/v1/environments/{env}/violations'>

const RULES: Record<string, string> = {
  required: 'required missing',
  wrong_type: 'wrong type',
  unplanned_property: 'unplanned property',
  unplanned_event: 'unplanned event',
  out_of_range: 'out of range',
  not_in_enum: 'not in the enum',
  pattern: 'pattern',
  format: 'format',
}

export function TrackingPlan({ env }: { env: string }) {
  const base = `/api/v1/environments/${encodeURIComponent(env)}`
  // The version the text was made from (0: the environment had no plan), and the text.
  const [version, setVersion] = useState<number | null>(null)
  const [text, setText] = useState('')
  const [note, setNote] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [problems, setProblems] = useState<string[]>([])
  const changes = useRead<Changes>(`${base}/tracking-plan/versions`)
  const violations = useRead<Violations>(`${base}/violations`, { refreshMs: 10_000 })

  const load = async () => {
    setError(null)
    try {
      const stored = await api<StoredPlan>('GET', `${base}/tracking-plan`)
      setVersion(stored.version)
      setText(JSON.stringify(stored.plan, null, 2))
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        setVersion(0)
        setText('')
      } else setError(errorText(err))
    }
  }
  useEffect(() => {
    setVersion(null)
    setNote(null)
    setProblems([])
    void load()
  }, [env])

  const propose = async () => {
    setError(null)
    setNote(null)
    try {
      const p = await api<Proposal>('GET', `${base}/tracking-plan/proposal`)
      setText(JSON.stringify(p.plan, null, 2))
      const types = Object.keys(p.plan.events).length
      setNote(
        `Proposed from what arrived: ${count(types)} event types${p.truncated ? ' (the 100 most received)' : ''}. Edit it, then save.`,
      )
    } catch (err) {
      setError(errorText(err))
    }
  }

  const save = async (e: Event) => {
    e.preventDefault()
    setError(null)
    setNote(null)
    setProblems([])
    let plan: unknown
    try {
      plan = JSON.parse(text)
    } catch (err) {
      setProblems([`The plan is not JSON: ${errorText(err)}`])
      return
    }
    try {
      const saved = await api<StoredPlan>('PUT', `${base}/tracking-plan`, { plan, baseVersion: version ?? 0 })
      setVersion(saved.version)
      setText(JSON.stringify(saved.plan, null, 2))
      setNote(`Saved as version ${saved.version}: the events consumers enforce it within seconds.`)
      await changes.reload()
    } catch (err) {
      if (err instanceof ApiError && err.details.length > 0)
        setProblems(err.details.map((d) => `${d.field} ${d.problem}`))
      else setError(errorText(err))
    }
  }

  return (
    <>
      <form onSubmit={(e) => void save(e)} data-testid="plan-form">
        <p>
          {version === null
            ? 'Reading the plan…'
            : version === 0
              ? 'This environment has no tracking plan: propose one from what arrived, or write one.'
              : `Version ${version} of the plan.`}
        </p>
        <label for="plan-text">The plan (JSON)</label>
        <textarea
          id="plan-text"
          class="document"
          rows={18}
          spellcheck={false}
          value={text}
          aria-invalid={problems.length > 0}
          aria-describedby={problems.length > 0 ? 'plan-problems' : undefined}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        {problems.length > 0 && (
          <ul id="plan-problems" class="error" role="alert">
            {problems.map((p) => (
              <li>{p}</li>
            ))}
          </ul>
        )}
        <div class="row">
          <button type="button" onClick={() => void propose()}>
            Propose from what arrived
          </button>
          <button type="submit" disabled={version === null || text.trim() === ''}>
            Save as a new version
          </button>
        </div>
      </form>
      {note && <p role="status">{note}</p>}
      <ErrorLine text={error} />
      <ErrorLine text={violations.error} />
      {violations.data && <ViolationsList v={violations.data} />}
      {changes.data && changes.data.changes.length > 0 && (
        <table data-testid="plan-versions">
          <caption>Versions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Saved</th>
              <th scope="col">By</th>
              <th scope="col">Mode</th>
              <th scope="col">Event types</th>
            </tr>
          </thead>
          <tbody>
            {changes.data.changes.map((c) => (
              <tr>
                <td>{c.version}</td>
                <td>{when(c.savedAt)}</td>
                <td>{c.savedBy}</td>
                <td>{c.mode}</td>
                <td>{c.eventTypes}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}

function ViolationsList({ v }: { v: Violations }) {
  return (
    <div data-testid="violations">
      <p>
        {v.total === 0
          ? 'No event broke the plan in the last 30 days.'
          : `${count(v.total)} events broke the plan in the last 30 days (${count(v.refused)} refused, ${count(v.stripped)} stripped, the others stored):`}
      </p>
      {v.groups.map((g) => (
        <details data-rule={g.rule} data-event-type={g.eventType}>
          <summary>
            {count(g.records)} × {g.eventType}: {RULES[g.rule] ?? g.rule}
            {g.sdkVersion ? ` (${g.sdkVersion})` : ''}, last {when(g.lastAt)}
            {g.refused > 0 ? `, ${count(g.refused)} refused` : ''}
            {g.stripped > 0 ? `, ${count(g.stripped)} stripped` : ''}
          </summary>
          {g.examples.map((e) => (
            <figure>
              <figcaption>
                Plan version {e.planVersion}: {e.violations.map((x) => x.message).join('; ')}
              </figcaption>
              <pre>{e.record}</pre>
            </figure>
          ))}
        </details>
      ))}
    </div>
  )
}
