// The account's incidents: groups of alerts told as one page. A list by status (open by default), and one incident
// open at a time (#/incidents?incident=<id>): what it is, Acknowledge and Resolve (each of its open alerts), why it
// holds these alerts (its group key and rule, the alerts inhibited and by whom), its timeline and its alerts.
import { useState } from 'preact/hooks'
import { api, errorText, type Answer } from '../api.js'
import { when } from '../format.js'
import { useRead } from '../read.js'
import type { RouteParams } from '../route.js'
import { DataTable, ErrorLine, Severity, severityRank, Status } from '../ui.js'

type Incident = Answer<'/api/v1/incidents'>['incidents'][number]
type WithMembers = Answer<'/api/v1/incidents/{id}'>
type NoiseAnswer = Answer<'/api/v1/noise'>

/** The noise card: what the account's alerts came to over 24 hours and 7 days, and its noisiest sources. */
function NoiseCard() {
  const read = useRead<NoiseAnswer>('/api/v1/noise', { refreshMs: 60_000 })
  const names = useRead<{ integrations: { id: string; name: string }[] }>('/api/v1/integrations')
  const name = (id: string) => names.data?.integrations.find((i) => i.id === id)?.name ?? id
  const windows = read.data?.windows
  return (
    <section class="box" aria-labelledby="noise-title" data-testid="noise">
      <h3 id="noise-title">Noise</h3>
      <ErrorLine text={read.error} />
      {windows && (
        <DataTable
          label="Noise figures"
          rows={windows}
          empty="Nothing yet."
          columns={[
            { label: 'Over', cell: (w) => (w.hours === 24 ? 'the last 24 hours' : 'the last 7 days') },
            { label: 'Alerts', cell: (w) => `${w.alerts} (${w.received} notifications received)` },
            { label: 'Incidents', cell: (w) => w.incidents },
            { label: 'Notifications sent', cell: (w) => w.notifications },
            { label: 'Alerts per notification', cell: (w) => w.alertsPerNotification ?? '-' },
            { label: 'Transient', cell: (w) => w.transient },
            { label: 'Inhibited', cell: (w) => w.inhibited },
            {
              label: 'Noisiest',
              cell: (w) =>
                w.noisiest
                  .slice(0, 3)
                  .map((n) => `${name(n.integrationId)} (${n.alerts})`)
                  .join(', ') || '-',
            },
          ]}
        />
      )}
    </section>
  )
}

const STATUSES = ['open', 'pending', 'triggered', 'acknowledged', 'suppressed', 'resolved', 'all'] as const
type ListStatus = (typeof STATUSES)[number]
const REFRESH_MS = 5000

/** An incident's group key as people read it: the rule's and the values it grouped by, or the alert it stands for. */
function keyText(i: Incident): string {
  if (i.key.startsWith('a:')) return 'an incident of its own alert (no grouping rule applied)'
  if (i.key.startsWith('g:sha256:')) return `rule ${i.rule ?? '?'}, a key too long to show`
  const [, ...values] = i.key.slice(2).split('\n')
  return `rule ${i.rule ?? '?'}, grouped by ${values.join(', ') || 'an empty key'}`
}

function Detail({
  id,
  onClose,
  act,
}: {
  id: string
  onClose: () => void
  act: (id: string, action: 'acknowledge' | 'resolve') => Promise<void>
}) {
  const read = useRead<WithMembers>(`/api/v1/incidents/${encodeURIComponent(id)}?members=200`, {
    refreshMs: REFRESH_MS,
  })
  const i = read.data
  const acted = async (action: 'acknowledge' | 'resolve') => {
    await act(id, action)
    await read.reload()
  }
  const inhibited = i?.members.filter((m) => m.status === 'inhibited') ?? []
  return (
    <aside class="box" aria-labelledby="incident-title" data-testid="incident">
      <h3 id="incident-title">{i ? i.title || i.id : 'Incident'}</h3>
      <ErrorLine text={read.error} />
      {i && (
        <>
          <p data-testid="incident-summary">
            <Status value={i.status} />, <Severity value={i.severity} />: {i.openAlerts} of {i.alerts} alert
            {i.alerts === 1 ? '' : 's'} open, first {when(i.firstSeenAt)}, last change {when(i.lastSeenAt)}{' '}
            {(i.status === 'triggered' || i.status === 'pending' || i.status === 'suppressed') && (
              <button type="button" onClick={() => void acted('acknowledge')}>
                Acknowledge
              </button>
            )}{' '}
            {i.status !== 'resolved' && (
              <button type="button" onClick={() => void acted('resolve')}>
                Resolve
              </button>
            )}
          </p>
          <h4 id="incident-why">Why these alerts are one incident</h4>
          <ul aria-labelledby="incident-why" data-testid="incident-why">
            <li>{keyText(i)}</li>
            {i.windowMs > 0 ? (
              <li>Alerts join it within {Math.round(i.windowMs / 1000)} s of its last alert</li>
            ) : (
              <li>Alerts of its key join it until it is resolved</li>
            )}
            {i.minAlerts > 1 && <li>It is told once {i.minAlerts} of its alerts arrived</li>}
            {i.previousIncidentId && <li>The incident of this key before it: {i.previousIncidentId}</li>}
            {inhibited.map((m) => (
              <li>
                {m.id} ({m.description}) is inhibited by {m.inhibitedBy}: shown, not told
              </li>
            ))}
          </ul>
          <h4>Timeline</h4>
          <ol aria-label="Timeline" data-testid="incident-timeline">
            {i.timeline.map((e) => (
              <li>
                {when(e.at)}: {e.event}
                {e.alertId ? ` (${e.alertId})` : ''}
                {e.by ? ` by ${e.by}` : ''}
                {e.event === 'escalated' && e.step !== undefined && (
                  <>
                    {` step ${e.step + 1}${e.round ? ` (run ${e.round + 1})` : ''}: `}
                    <ul aria-label={`Paged at step ${e.step + 1}`}>
                      {(e.paged ?? []).map((p) => (
                        <li>{pagedText(p)}</li>
                      ))}
                    </ul>
                  </>
                )}
                {e.event === 'not-escalated' && `: ${(e.paged ?? []).map(pagedText).join('; ')}`}
              </li>
            ))}
          </ol>
          <DataTable
            label="Alerts of the incident"
            rows={i.members}
            empty="No alert (its alerts were removed by the retention)."
            rowProps={(a) => ({ 'data-alert-id': a.id })}
            columns={[
              {
                label: 'Alert',
                cell: (a) => <a href={`#/alerts?status=all&alert=${encodeURIComponent(a.id)}`}>{a.id}</a>,
              },
              { label: 'Status', cell: (a) => <Status value={a.status} />, sort: (a) => a.status },
              {
                label: 'Severity',
                cell: (a) => <Severity value={a.severity} />,
                sort: (a) => severityRank(a.severity),
              },
              { label: 'Description', cell: (a) => a.description, sort: (a) => a.description },
              { label: 'Service', cell: (a) => a.service, sort: (a) => a.service ?? '' },
              { label: 'Last seen', cell: (a) => when(a.lastSeenAt), sort: (a) => Date.parse(a.lastSeenAt) },
            ]}
          />
        </>
      )}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </aside>
  )
}

export function Incidents({
  params,
  go,
}: {
  params: Record<string, string>
  go: (params: RouteParams, options?: { replace?: boolean }) => void
}) {
  const status: ListStatus = STATUSES.includes(params['status'] as ListStatus)
    ? (params['status'] as ListStatus)
    : 'open'
  const open = params['incident'] || null
  const [failed, setFailed] = useState<string | null>(null)
  const change = (next: RouteParams) => go({ ...params, ...next })
  const list = useRead<{ incidents: Incident[] }>(`/api/v1/incidents?status=${status}&limit=200`, {
    refreshMs: REFRESH_MS,
  })
  const incidents = list.data?.incidents ?? null
  const act = async (id: string, action: 'acknowledge' | 'resolve') => {
    setFailed(null)
    try {
      await api('POST', `/api/v1/incidents/${encodeURIComponent(id)}/${action}`)
      await list.reload()
    } catch (err) {
      setFailed(errorText(err))
    }
  }
  return (
    <section aria-labelledby="incidents-title">
      <h2 id="incidents-title">Incidents</h2>
      <form class="row" onSubmit={(e) => e.preventDefault()}>
        <label for="incident-status">Status</label>
        <select
          id="incident-status"
          value={status}
          onChange={(e) => change({ status: e.currentTarget.value === 'open' ? undefined : e.currentTarget.value })}
        >
          {STATUSES.map((s) => (
            <option value={s}>{s}</option>
          ))}
        </select>
      </form>
      <p aria-live="polite" data-testid="incident-counts">
        {incidents === null
          ? 'Loading…'
          : `${incidents.length} shown, ${incidents.reduce((n, i) => n + i.openAlerts, 0)} open alerts in them`}
      </p>
      <ErrorLine text={failed ?? list.error} />
      <NoiseCard />
      {open && <Detail id={open} onClose={() => change({ incident: undefined })} act={act} />}
      {incidents && (
        <DataTable
          label="Incidents"
          rows={incidents}
          empty="No incident matches."
          rowProps={(i) => ({ 'data-incident-id': i.id })}
          columns={[
            { label: 'Status', cell: (i) => <Status value={i.status} />, sort: (i) => i.status },
            { label: 'Severity', cell: (i) => <Severity value={i.severity} />, sort: (i) => severityRank(i.severity) },
            { label: 'Title', cell: (i) => i.title, sort: (i) => i.title },
            { label: 'Open alerts', cell: (i) => `${i.openAlerts} of ${i.alerts}`, sort: (i) => i.openAlerts },
            { label: 'First seen', cell: (i) => when(i.firstSeenAt), sort: (i) => Date.parse(i.firstSeenAt) },
            { label: 'Last change', cell: (i) => when(i.lastSeenAt), sort: (i) => Date.parse(i.lastSeenAt) },
            {
              label: 'Actions',
              cell: (i) => (
                <button type="button" onClick={() => change({ incident: i.id })} aria-label={`Open ${i.title}`}>
                  Open
                </button>
              ),
            },
          ]}
        />
      )}
    </section>
  )
}

/** Who a step paged, and how, or why no one could be: one line of the timeline. */
function pagedText(p: {
  kind: string
  id: string
  name?: string
  schedule?: string
  method?: string
  via?: string
  afterMinutes?: number
  problem?: string
}): string {
  const who = `${p.name ?? p.id}${p.schedule ? ' (on call)' : ''}`
  if (p.problem) return `${who}: ${p.problem}`
  if (p.kind === 'destination') return `${who} (destination)`
  if (p.kind === 'policy') return `handed over to ${who}`
  return `${who} by ${p.method ?? '?'}${p.afterMinutes ? ` after ${p.afterMinutes} min` : ''}`
}
