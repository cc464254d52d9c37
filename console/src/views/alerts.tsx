// The account's alerts as incidents: filters, counts, first and last seen, Acknowledge and Resolve, and why
// an alert looks as it does (the rules that changed it, the window holding it); refreshed every 5 seconds.
// The status, the filters and the alert open are in the address (#/alerts?status=…&service=…&alert=<id>): a
// notification's link opens its alert, with its actions, whatever its status.
import { useState } from 'preact/hooks'
import { DataTable, ErrorLine, Severity, severityRank, Status } from '../ui.js'
import { api, errorText } from '../api.js'
import type { RouteParams } from '../route.js'
import { useRead } from '../read.js'
import { when } from '../format.js'

interface Alert {
  id: string
  integrationId: string
  status: 'firing' | 'suppressed' | 'inhibited' | 'acknowledged' | 'resolved'
  severity: string
  description: string
  service: string
  environment: string
  team: string
  count: number
  firstSeenAt: string
  lastSeenAt: string
  tags?: string[]
  rulesVersion?: number
  rulesApplied?: string[]
  suppressedBy?: string
  suppressedUntil?: string
  overBudget?: string
  incidentId?: string
  inhibitedBy?: string
}
interface WithHistory extends Alert {
  history: { event: string; at: string; by?: string }[]
}

interface Delivery {
  id: string
  destinationId: string
  event: string
  status: string
  attempts: number
  lastError: string | null
  log: { at: string; result: string; status?: number; error?: string; events: number }[]
}

/**
 * One alert: what it says, Acknowledge and Resolve, and why it looks as it does (the rules that changed it, the window
 * holding it, its history and its deliveries).
 */
function Why({
  id,
  onClose,
  act,
}: {
  id: string
  onClose: () => void
  act: (a: Alert, action: 'acknowledge' | 'resolve') => Promise<void>
}) {
  const path = `/api/v1/alerts/${encodeURIComponent(id)}`
  const read = useRead<WithHistory>(path, { refreshMs: REFRESH_MS })
  // undefined until read: "Not sent anywhere." is said only of deliveries read.
  const sent = useRead<{ deliveries: Delivery[] }>(`${path}/deliveries`, { refreshMs: REFRESH_MS })
  const alert = read.data
  const deliveries = sent.data?.deliveries
  const error = read.error ?? sent.error
  const acted = async (action: 'acknowledge' | 'resolve') => {
    await act(alert!, action)
    await Promise.all([read.reload(), sent.reload()])
  }
  return (
    <aside class="box" aria-labelledby="alert-title" data-testid="why">
      <h3 id="alert-title">{alert ? alert.description || alert.id : 'Alert'}</h3>
      <ErrorLine text={error} />
      {alert && (
        <p data-testid="alert-summary">
          <Status value={alert.status} />, <Severity value={alert.severity} />
          {alert.service ? `, service ${alert.service}` : ''}
          {alert.team ? `, team ${alert.team}` : ''}: {alert.count} notification{alert.count === 1 ? '' : 's'}, first{' '}
          {when(alert.firstSeenAt)}, last {when(alert.lastSeenAt)}{' '}
          {(alert.status === 'firing' || alert.status === 'suppressed' || alert.status === 'inhibited') && (
            <button type="button" onClick={() => void acted('acknowledge')}>
              Acknowledge
            </button>
          )}{' '}
          {alert.status !== 'resolved' && (
            <button type="button" onClick={() => void acted('resolve')}>
              Resolve
            </button>
          )}
        </p>
      )}
      <h4 id="why-title">Why this alert looks as it does</h4>
      {alert && (
        <ul aria-labelledby="why-title">
          <li>
            {alert.overBudget
              ? `Neither the rules nor the maintenance windows were applied to its last notification: ${alert.overBudget}. It is as its mapping made it.`
              : alert.rulesApplied?.length
                ? `Changed by rules ${alert.rulesApplied.join(', ')} (rule set version ${alert.rulesVersion ?? '?'})`
                : 'No rule changed it: it is as its mapping made it.'}
          </li>
          {alert.tags?.length ? <li>Tags: {alert.tags.join(', ')}</li> : null}
          {alert.incidentId && (
            <li>
              In incident{' '}
              <a href={`#/incidents?status=all&incident=${encodeURIComponent(alert.incidentId)}`}>{alert.incidentId}</a>
            </li>
          )}
          {alert.status === 'inhibited' && alert.inhibitedBy && (
            <li>Inhibited by {alert.inhibitedBy}: stored, not told, until it resolves</li>
          )}
          {alert.suppressedBy && (
            <li>
              {alert.status === 'suppressed'
                ? `Held by maintenance window ${alert.suppressedBy} until ${when(alert.suppressedUntil!)}: stored, not told`
                : `It arrived in maintenance window ${alert.suppressedBy}`}
            </li>
          )}
          {alert.history.map((h) => (
            <li>
              {when(h.at)}: {h.event}
              {h.by ? ` by ${h.by}` : ''}
            </li>
          ))}
        </ul>
      )}
      <h4>Deliveries</h4>
      {deliveries === undefined ? (
        !error && <p>Reading deliveries…</p>
      ) : deliveries.length === 0 ? (
        <p>Not sent anywhere.</p>
      ) : (
        <ul aria-label="Deliveries" data-testid="deliveries">
          {deliveries.map((d) => (
            <li data-delivery-id={d.id}>
              {d.event} to {d.destinationId}: <strong>{d.status}</strong> after {d.attempts} attempt
              {d.attempts === 1 ? '' : 's'}
              {d.log.length > 0 &&
                ` (last: ${when(d.log.at(-1)!.at)}, ${d.log.at(-1)!.result}${d.log.at(-1)!.status ? ` ${d.log.at(-1)!.status}` : ''}${d.log.at(-1)!.events > 1 ? `, in a digest of ${d.log.at(-1)!.events}` : ''})`}
              {d.lastError && d.status !== 'delivered' ? `: ${d.lastError}` : ''}
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </aside>
  )
}

const STATUSES = ['open', 'firing', 'suppressed', 'inhibited', 'acknowledged', 'resolved', 'all'] as const
const FILTERS = ['severity', 'service', 'environment', 'team'] as const
const REFRESH_MS = 5000

type Status = (typeof STATUSES)[number]

export function Alerts({
  params,
  go,
}: {
  params: Record<string, string>
  go: (params: RouteParams, options?: { replace?: boolean }) => void
}) {
  const status: Status = STATUSES.includes(params['status'] as Status) ? (params['status'] as Status) : 'open'
  const filters: Record<string, string> = Object.fromEntries(FILTERS.map((f) => [f, params[f] ?? '']))
  const why = params['alert'] || null
  const [failed, setFailed] = useState<string | null>(null)
  const change = (next: RouteParams, options?: { replace?: boolean }) => go({ ...params, ...next }, options)
  const q = new URLSearchParams({ status, limit: '200' })
  for (const f of FILTERS) if (filters[f]?.trim()) q.set(f, filters[f].trim())
  const list = useRead<{ alerts: Alert[] }>(`/api/v1/alerts?${q.toString()}`, { refreshMs: REFRESH_MS })
  const alerts = list.data?.alerts ?? null
  const error = failed ?? list.error
  const act = async (a: Alert, action: 'acknowledge' | 'resolve') => {
    setFailed(null)
    try {
      await api('POST', `/api/v1/alerts/${encodeURIComponent(a.id)}/${action}`)
      await list.reload()
    } catch (err) {
      setFailed(errorText(err))
    }
  }
  const counts = { firing: 0, suppressed: 0, inhibited: 0, acknowledged: 0, resolved: 0 }
  for (const a of alerts ?? []) counts[a.status]++
  return (
    <section aria-labelledby="alerts-title">
      <h2 id="alerts-title">Alerts</h2>
      <form class="row" onSubmit={(e) => e.preventDefault()}>
        <label for="alert-status">Status</label>
        <select
          id="alert-status"
          value={status}
          onChange={(e) => change({ status: e.currentTarget.value === 'open' ? undefined : e.currentTarget.value })}
        >
          {STATUSES.map((s) => (
            <option value={s}>{s}</option>
          ))}
        </select>
        {FILTERS.map((f) => (
          <>
            <label for={`alert-${f}`}>{f[0]!.toUpperCase() + f.slice(1)}</label>
            <input
              id={`alert-${f}`}
              value={filters[f] ?? ''}
              onChange={(e) => change({ [f]: e.currentTarget.value.trim() }, { replace: true })}
            />
          </>
        ))}
      </form>
      <p aria-live="polite" data-testid="alert-counts">
        {alerts === null
          ? 'Loading…'
          : `${alerts.length} shown: ${counts.firing} firing, ${counts.suppressed} suppressed, ${counts.inhibited ? `${counts.inhibited} inhibited, ` : ''}${counts.acknowledged} acknowledged, ${counts.resolved} resolved`}
      </p>
      <ErrorLine text={error} />
      {why && <Why id={why} onClose={() => change({ alert: undefined })} act={act} />}
      {alerts && (
        <DataTable
          label="Alerts"
          rows={alerts}
          empty="No alert matches."
          rowProps={(a) => ({ 'data-alert-id': a.id })}
          columns={[
            { label: 'Status', cell: (a) => <Status value={a.status} />, sort: (a) => a.status },
            { label: 'Severity', cell: (a) => <Severity value={a.severity} />, sort: (a) => severityRank(a.severity) },
            { label: 'Description', cell: (a) => a.description, sort: (a) => a.description },
            { label: 'Service', cell: (a) => a.service, sort: (a) => a.service ?? '' },
            { label: 'Team', cell: (a) => a.team, sort: (a) => a.team ?? '' },
            { label: 'Count', cell: (a) => a.count, sort: (a) => a.count },
            { label: 'First seen', cell: (a) => when(a.firstSeenAt), sort: (a) => Date.parse(a.firstSeenAt) },
            { label: 'Last seen', cell: (a) => when(a.lastSeenAt), sort: (a) => Date.parse(a.lastSeenAt) },
            {
              label: 'Actions',
              cell: (a) => (
                <>
                  <button type="button" onClick={() => change({ alert: a.id })} aria-label={`Why ${a.description}`}>
                    Why
                  </button>{' '}
                  {(a.status === 'firing' || a.status === 'suppressed' || a.status === 'inhibited') && (
                    <button
                      type="button"
                      onClick={() => void act(a, 'acknowledge')}
                      aria-label={`Acknowledge ${a.description}`}
                    >
                      Acknowledge
                    </button>
                  )}{' '}
                  {a.status !== 'resolved' && (
                    <button
                      type="button"
                      onClick={() => void act(a, 'resolve')}
                      aria-label={`Resolve ${a.description}`}
                    >
                      Resolve
                    </button>
                  )}
                </>
              ),
            },
          ]}
        />
      )}
    </section>
  )
}
