// Alert rules: the account's ordered list, edited as a draft (add, edit as JSON, move up and down, remove) and saved
// as a new version (a 400 names the rule and field; a 409 says someone saved first). The draft can be tried against
// a recent payload of an integration before it is saved: each alert before and after, the rules that applied, and
// whether a rule drops it or a window would hold it. The alerts rules dropped in the last day are listed below.
import { useEffect, useState } from 'preact/hooks'
import { ErrorLine, Toast } from '../ui.js'
import { api, ApiError, errorText, type Answer } from '../api.js'
import { when } from '../format.js'
import { useLoad, useRead } from '../read.js'
import type { Destination } from './notifications.js'

type RuleSet = Answer<'/api/v1/alert-rules'>
type Rule = RuleSet['rules'][number]
// The API declares an alert before and after the rules as any object: read here as a record of fields.
type TestedAlert = Omit<Answer<'/api/v1/alert-rules/test', 'post'>['alerts'][number], 'before' | 'after'> & {
  before: Record<string, unknown>
  after: Record<string, unknown> | null
}
type Dropped = Answer<'/api/v1/alert-rules/dropped'>['dropped'][number]

const NEW_RULE = (n: number): Rule => ({
  id: `rule-${n}`,
  name: 'Production is critical',
  when: { field: 'payload.commonLabels.env', equals: 'production' },
  set: { severity: 'critical' },
  addTags: ['prod'],
})

/** What a rule does, in a line. */
function actions(r: Rule): string {
  const parts: string[] = []
  for (const [k, v] of Object.entries(r.set ?? {})) parts.push(`${k} = ${v}`)
  for (const [k, v] of Object.entries(r.customFields ?? {})) parts.push(`customFields.${k} = ${v}`)
  if (r.addTags?.length) parts.push(`tags + ${r.addTags.join(', ')}`)
  if (r.notify?.length) parts.push(`notify ${r.notify.join(', ')}`)
  if (r.drop) parts.push('drop')
  if (r.stop) parts.push('stop')
  return parts.join('; ')
}

function RuleEditor({
  rule,
  destinations,
  onApply,
  onCancel,
}: {
  rule: Rule
  destinations: Destination[]
  onApply: (r: Rule) => void
  onCancel: () => void
}) {
  const { notify: initial, ...rest } = rule
  const [text, setText] = useState(JSON.stringify(rest, null, 2))
  const [notify, setNotify] = useState<string[]>(initial ?? [])
  const [error, setError] = useState<string | null>(null)
  const apply = (e: Event) => {
    e.preventDefault()
    try {
      const parsed = JSON.parse(text) as unknown
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('a rule is a JSON object')
      const r = { ...(parsed as Rule) }
      delete r.notify
      onApply(notify.length > 0 ? { ...r, notify } : r)
    } catch (err) {
      setError(`not applied: ${errorText(err)}`)
    }
  }
  return (
    <form onSubmit={apply} class="box">
      <label for="rule-json">Rule (JSON)</label>
      <textarea id="rule-json" rows={12} cols={80} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      <fieldset>
        <legend>Notify (the alerts this rule applies to go to these destinations)</legend>
        {destinations.length === 0 && <p class="hint">No destinations yet: make one under Notifications.</p>}
        {destinations.map((d) => (
          <label class="inline">
            <input
              type="checkbox"
              checked={notify.includes(d.id)}
              onChange={(e) =>
                setNotify(e.currentTarget.checked ? [...notify, d.id] : notify.filter((id) => id !== d.id))
              }
            />{' '}
            {d.name} ({d.kind})
          </label>
        ))}
      </fieldset>
      <p class="hint">
        when: {'{'}"field", "equals" | "in" | "matches" | "exists"{'}'}, all, any, not. Actions: set, customFields,
        addTags (templates over {'{{alert.<field>}}'} and {'{{webhook.<path>}}'}), drop, stop.
      </p>
      <button type="submit">Apply to draft</button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <ErrorLine text={error} />
    </form>
  )
}

interface Payloads {
  payloads: { requestId: string; receivedAt: string; payload: unknown }[]
}

function Tester({ draft }: { draft: Rule[] }) {
  const integrationsRead = useRead<{ integrations: { id: string; name: string }[] }>('/api/v1/integrations')
  const integrations = integrationsRead.data?.integrations ?? []
  const [picked, setPicked] = useState('')
  const integrationId = picked || integrations[0]?.id || ''
  const payloadsRead = useRead<Payloads>(
    integrationId ? `/api/v1/integrations/${encodeURIComponent(integrationId)}/payloads` : null,
  )
  // null until the integration's payloads are read: a test run before then would use the template's example. With
  // no integration, or when they cannot be read, the template's example it is.
  const payloads =
    payloadsRead.data?.payloads.filter((p) => p.payload !== null) ??
    ((integrationsRead.data && !integrationId) || integrationsRead.error || payloadsRead.error ? [] : null)
  const [chosen, setChosen] = useState(0)
  const [result, setResult] = useState<TestedAlert[] | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const error = failed ?? integrationsRead.error ?? payloadsRead.error
  const pick = (id: string) => {
    setPicked(id)
    setChosen(0)
    setResult(null)
  }
  const run = async () => {
    setFailed(null)
    try {
      const payload = payloads?.[chosen]?.payload
      const r = await api<{ alerts: TestedAlert[] }>('POST', '/api/v1/alert-rules/test', {
        integrationId,
        ...(payload !== undefined ? { payload } : {}),
        rules: draft,
      })
      setResult(r.alerts)
    } catch (err) {
      setResult(null)
      setFailed(errorText(err))
    }
  }
  const shown = (a: Record<string, unknown> | null, f: string) => (a && typeof a[f] === 'string' ? a[f] : '')
  return (
    <fieldset>
      <legend>Try the draft on a recent payload</legend>
      <div class="row">
        <label for="test-integration">Integration</label>
        <select id="test-integration" value={integrationId} onChange={(e) => pick(e.currentTarget.value)}>
          {integrations.map((i) => (
            <option value={i.id}>{i.name}</option>
          ))}
        </select>
        <label for="test-payload">Payload</label>
        <select id="test-payload" value={String(chosen)} onChange={(e) => setChosen(Number(e.currentTarget.value))}>
          {payloads === null && <option value="0">reading its payloads…</option>}
          {payloads?.length === 0 && <option value="0">its template's example</option>}
          {payloads?.map((p, i) => (
            <option value={String(i)}>{`${when(p.receivedAt)} (${p.requestId.slice(0, 8)})`}</option>
          ))}
        </select>
        <button type="button" disabled={payloads === null} onClick={() => void run()}>
          Test the draft
        </button>
      </div>
      <ErrorLine text={error} />
      {result && (
        <table data-testid="rule-test">
          <caption>What the draft makes of each alert of the payload</caption>
          <thead>
            <tr>
              <th scope="col">Alert</th>
              <th scope="col">Severity</th>
              <th scope="col">Team</th>
              <th scope="col">Tags</th>
              <th scope="col">Rules applied</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {result.map((a) => (
              <tr>
                <td>{shown(a.before, 'description')}</td>
                <td>
                  {shown(a.before, 'severity')} → {a.after ? shown(a.after, 'severity') : '—'}
                </td>
                <td>
                  {shown(a.before, 'team')} → {a.after ? shown(a.after, 'team') : '—'}
                </td>
                <td>{a.after && Array.isArray(a.after['tags']) ? (a.after['tags'] as string[]).join(', ') : ''}</td>
                <td>{a.applied.join(', ')}</td>
                <td>
                  {a.dropped
                    ? `dropped by ${a.droppedBy ?? ''}`
                    : a.overBudget
                      ? `stored as the mapping made it: ${a.overBudget}`
                      : a.suppressedBy
                        ? `suppressed by ${a.suppressedBy} until ${when(a.suppressedUntil!)}`
                        : 'stored'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </fieldset>
  )
}

export function Rules() {
  // Read together, and the rules shown (and editable) only once read: a draft begun before the read answered would be
  // replaced by it, and "No rules." said of rules not yet read.
  const read = useLoad('rules', async () => {
    const [d, set, dr] = await Promise.all([
      api<{ destinations: Destination[] }>('GET', '/api/v1/notification-destinations'),
      api<RuleSet>('GET', '/api/v1/alert-rules'),
      api<{ dropped: Dropped[] }>('GET', '/api/v1/alert-rules/dropped?limit=50'),
    ])
    return { destinations: d.destinations, set, dropped: dr.dropped }
  })
  const destinations = read.data?.destinations ?? []
  const dropped = read.data?.dropped ?? []
  // The version the draft starts from (read, or the answer to a save) and the draft.
  const [saved, setSaved] = useState<RuleSet | null>(null)
  const [draft, setDraft] = useState<Rule[]>([])
  useEffect(() => {
    if (!read.data) return
    setSaved(read.data.set)
    setDraft(read.data.set.rules)
  }, [read.data])
  const [editing, setEditing] = useState<number | 'new' | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const error = failed ?? read.error
  const [notice, setNotice] = useState<string | null>(null)
  const changed = saved !== null && JSON.stringify(saved.rules) !== JSON.stringify(draft)
  const move = (i: number, by: -1 | 1) => {
    const next = [...draft]
    const [r] = next.splice(i, 1)
    next.splice(i + by, 0, r!)
    setDraft(next)
  }
  const save = async () => {
    setFailed(null)
    setNotice(null)
    try {
      const set = await api<RuleSet>('PUT', '/api/v1/alert-rules', { rules: draft, version: saved?.version ?? 0 })
      setSaved(set)
      setDraft(set.rules)
      setNotice(`Saved as version ${set.version}.`)
    } catch (err) {
      setFailed(
        err instanceof ApiError && err.status === 409
          ? `${err.message} (Reload to see their change; your draft is kept until you do.)`
          : errorText(err),
      )
    }
  }
  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">Alert rules</h2>
      <p class="hint">
        Applied in order to every alert of the account after its mapping.{' '}
        {saved && `Version ${saved.version}${saved.updatedAt ? `, saved ${when(saved.updatedAt)}` : ''}.`}
        {changed && <strong> The draft has unsaved changes.</strong>}
      </p>
      <ErrorLine text={error} />
      <Toast text={notice} onClose={() => setNotice(null)} />
      {saved === null ? (
        !error && <p>Reading the rules…</p>
      ) : draft.length === 0 ? (
        <p>No rules.</p>
      ) : (
        <ol class="rules" aria-label="Rules in order">
          {draft.map((r, i) => (
            <li data-rule-id={r.id}>
              <strong>{r.name}</strong> <code>{r.id}</code>
              {r.enabled === false && ' (disabled)'}
              <br />
              <span class="hint">
                when {r.when === undefined ? 'every alert' : JSON.stringify(r.when)}: {actions(r)}
              </span>
              <br />
              <button type="button" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move ${r.name} up`}>
                Up
              </button>{' '}
              <button
                type="button"
                disabled={i === draft.length - 1}
                onClick={() => move(i, 1)}
                aria-label={`Move ${r.name} down`}
              >
                Down
              </button>{' '}
              <button type="button" onClick={() => setEditing(i)} aria-label={`Edit ${r.name}`}>
                Edit
              </button>{' '}
              <button
                type="button"
                onClick={() => setDraft(draft.filter((_, j) => j !== i))}
                aria-label={`Remove ${r.name}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      {saved === null ? null : editing === null ? (
        <div class="row">
          <button type="button" onClick={() => setEditing('new')}>
            Add rule
          </button>
          <button type="button" disabled={!changed} onClick={() => void save()}>
            Save rules
          </button>
          <button type="button" disabled={!changed} onClick={() => saved && setDraft(saved.rules)}>
            Discard changes
          </button>
        </div>
      ) : (
        <RuleEditor
          destinations={destinations}
          rule={editing === 'new' ? NEW_RULE(draft.length + 1) : draft[editing]!}
          onCancel={() => setEditing(null)}
          onApply={(r) => {
            setDraft(editing === 'new' ? [...draft, r] : draft.map((old, j) => (j === editing ? r : old)))
            setEditing(null)
          }}
        />
      )}
      {saved !== null && <Tester draft={draft} />}
      <h3>Dropped in the last day</h3>
      {saved === null ? null : dropped.length === 0 ? (
        <p>None.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Rule</th>
              <th scope="col">Dedup key</th>
              <th scope="col">Request</th>
            </tr>
          </thead>
          <tbody>
            {dropped.map((d) => (
              <tr>
                <td>{new Date(d.receivedAt).toLocaleString()}</td>
                <td>{d.rule}</td>
                <td>{d.dedupKey}</td>
                <td>
                  <code>{d.requestId}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
