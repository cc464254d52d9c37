// Notifications: the account's destinations (create one, send a test, delete), the default route (which
// destinations get the alerts no rule routes), and the dead letter with Retry. A webhook's signing secret is
// shown once, when it is made; other secrets are never shown back.
import { useState } from 'preact/hooks'
import { DataTable, ErrorLine, Status, Toast } from '../ui.js'
import { api, errorText, type Answer } from '../api.js'
import { TimeChart } from '../chart.js'
import { count, plural, when } from '../format.js'
import { useRead } from '../read.js'

export type Destination = Answer<'/api/v1/notification-destinations'>['destinations'][number]
type Delivery = Answer<'/api/v1/notification-deliveries/dead'>['deliveries'][number]
type Volume = Answer<'/api/v1/notification-volume'>
type Counts = Volume['hours'][number]['total']

const KINDS = ['webhook', 'slack', 'pagerduty', 'email'] as const
type Kind = (typeof KINDS)[number]

/** The settings fields each kind asks for (label, setting, input type). */
const FIELDS: Record<Kind, [string, string, 'url' | 'password' | 'text' | 'number' | 'email'][]> = {
  webhook: [['URL', 'url', 'url']],
  slack: [['Incoming webhook URL', 'url', 'url']],
  pagerduty: [
    ['Routing key', 'routingKey', 'password'],
    ['Events API URL (optional)', 'url', 'url'],
  ],
  email: [
    ['SMTP host', 'host', 'text'],
    ['Port', 'port', 'number'],
    ['Security (tls, starttls, none)', 'security', 'text'],
    ['From', 'from', 'email'],
    ['To (comma-separated)', 'to', 'text'],
    ['Username (optional)', 'username', 'text'],
    ['Password (optional)', 'password', 'password'],
  ],
}

function settingsOf(kind: Kind, values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [, name] of FIELDS[kind]) {
    const v = values[name]?.trim()
    if (!v) continue
    out[name] = name === 'port' ? Number(v) : name === 'to' ? v.split(',').map((x) => x.trim()) : v
  }
  return out
}

function NewDestination({ onMade }: { onMade: () => void }) {
  const [name, setName] = useState('')
  const [kind, setKind] = useState<Kind>('webhook')
  const [values, setValues] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [secret, setSecret] = useState<string | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    setError(null)
    setSecret(null)
    try {
      const made = await api<{ destination: Destination; signingSecret?: string }>(
        'POST',
        '/api/v1/notification-destinations',
        { name, kind, settings: settingsOf(kind, values) },
      )
      if (made.signingSecret) setSecret(made.signingSecret)
      setName('')
      setValues({})
      onMade()
    } catch (err) {
      setError(errorText(err))
    }
  }
  return (
    <form class="box" onSubmit={(e) => void submit(e)} aria-labelledby="new-destination-title">
      <h3 id="new-destination-title">New destination</h3>
      <label for="destination-name">Name</label>
      <input id="destination-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required />
      <label for="destination-kind">Kind</label>
      <select id="destination-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
        {KINDS.map((k) => (
          <option value={k}>{k}</option>
        ))}
      </select>
      {FIELDS[kind].map(([label, field, type]) => (
        <>
          <label for={`destination-${field}`}>{label}</label>
          <input
            id={`destination-${field}`}
            type={type as 'text'}
            autocomplete="off"
            value={values[field] ?? ''}
            onInput={(e) => setValues({ ...values, [field]: e.currentTarget.value })}
          />
        </>
      ))}
      <button type="submit">Create destination</button>
      <ErrorLine text={error} />
      {secret && (
        <p role="status" data-testid="signing-secret">
          Signing secret (shown once; receivers verify webhook-signature with it): <code>{secret}</code>
        </p>
      )}
    </form>
  )
}

/** Notifications per hour over the last day: delivered, failed tries and given up, with the day's figures as text. */
function VolumeChart({ volume }: { volume: Volume }) {
  const sum = (k: keyof Counts) => volume.hours.reduce((n, h) => n + h.total[k], 0)
  const line = (label: string, color: string, k: keyof Counts) => ({
    label,
    color,
    values: volume.hours.map((h) => h.total[k]),
  })
  return (
    <TimeChart
      testId="volume"
      x={volume.hours.map((h) => Date.parse(h.at) / 1000)}
      series={[
        line('delivered', 'chart-ok', 'delivered'),
        line('failed', 'series-3', 'failed'),
        line('given up', 'chart-bad', 'dead'),
      ]}
      yLabel="notifications per hour"
      integer
      format={count}
      summary={`last 24 hours: ${plural(sum('delivered'), 'notification')} delivered, ${plural(sum('failed'), 'try', 'tries')} failed and retried, ${sum('dead')} given up`}
    />
  )
}

export function Notifications() {
  const all = useRead<{ destinations: Destination[]; route: string[] }>('/api/v1/notification-destinations')
  const deadRead = useRead<{ deliveries: Delivery[] }>('/api/v1/notification-deliveries/dead?limit=50', {
    refreshMs: 30_000,
  })
  const volume = useRead<Volume>('/api/v1/notification-volume?hours=24', { refreshMs: 60_000 })
  const destinations = all.data?.destinations ?? null
  const dead = deadRead.data?.deliveries ?? null
  // The default route as edited here: the saved one until a box is ticked (null until read: it cannot be saved,
  // emptied, before it is known).
  const [draft, setDraft] = useState<string[] | null>(null)
  const route = draft ?? all.data?.route ?? null
  const [tests, setTests] = useState<Record<string, string>>({})
  const [shownId, setShownId] = useState<string | null>(null)
  const shownRead = useRead<{ deliveries: Delivery[] }>(
    shownId === null ? null : `/api/v1/notification-destinations/${encodeURIComponent(shownId)}/deliveries?limit=20`,
  )
  const shown = destinations?.find((d) => d.id === shownId)
  const [failed, setFailed] = useState<string | null>(null)
  const error = failed ?? all.error ?? deadRead.error ?? volume.error ?? shownRead.error
  const [notice, setNotice] = useState<string | null>(null)
  const act = async (what: () => Promise<void>) => {
    setFailed(null)
    setNotice(null)
    try {
      await what()
    } catch (err) {
      setFailed(errorText(err))
    }
  }
  const test = (d: Destination) =>
    act(async () => {
      const o = await api<{ result: string; status?: number; error?: string }>(
        'POST',
        `/api/v1/notification-destinations/${encodeURIComponent(d.id)}/test`,
      )
      setTests({ ...tests, [d.id]: `${o.result}${o.status ? ` (${o.status})` : ''}${o.error ? `: ${o.error}` : ''}` })
    })
  const remove = (d: Destination) =>
    act(async () => {
      await api('DELETE', `/api/v1/notification-destinations/${encodeURIComponent(d.id)}`)
      if (shownId === d.id) setShownId(null)
      await all.reload()
    })
  const saveRoute = () =>
    act(async () => {
      await api<{ destinations: string[] }>('PUT', '/api/v1/notification-route', { destinations: route })
      await all.reload()
      setDraft(null)
      setNotice('Default route saved.')
    })
  const retry = (d: Delivery) =>
    act(async () => {
      await api('POST', `/api/v1/notification-deliveries/${encodeURIComponent(d.id)}/retry`)
      setNotice(`Delivery ${d.id} is due again.`)
      await deadRead.reload()
    })
  const nameOf = (id: string) => destinations?.find((d) => d.id === id)?.name ?? id
  return (
    <section aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      <p class="hint">
        Where alert events go: to the destinations of the rules that applied (a rule's notify), else to the default
        route. Suppressed alerts are never sent.
      </p>
      <ErrorLine text={error} />
      <Toast text={notice} onClose={() => setNotice(null)} />
      {destinations === null || route === null ? (
        !error && <p>Reading destinations…</p>
      ) : (
        <>
          {destinations.length === 0 && <p>No destination yet: add one below.</p>}
          <table aria-label="Destinations" hidden={destinations.length === 0}>
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th>Events</th>
                <th>Default route</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {destinations.map((d) => (
                <tr data-destination-id={d.id}>
                  <td>
                    {d.name} <code>{d.id}</code>
                    {!d.enabled && ' (disabled)'}
                  </td>
                  <td>{d.kind}</td>
                  <td>{d.events.join(', ')}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${d.name} on the default route`}
                      checked={route.includes(d.id)}
                      onChange={(e) =>
                        setDraft(e.currentTarget.checked ? [...route, d.id] : route.filter((r) => r !== d.id))
                      }
                    />
                  </td>
                  <td>
                    <button type="button" onClick={() => void test(d)} aria-label={`Send a test to ${d.name}`}>
                      Test
                    </button>{' '}
                    <button type="button" onClick={() => setShownId(d.id)} aria-label={`Deliveries of ${d.name}`}>
                      Deliveries
                    </button>{' '}
                    <button type="button" onClick={() => void remove(d)} aria-label={`Delete ${d.name}`}>
                      Delete
                    </button>
                    {tests[d.id] && <span data-testid="test-result"> {tests[d.id]}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" onClick={() => void saveRoute()}>
            Save default route
          </button>
        </>
      )}
      {shown && (
        <div class="box" data-testid="destination-deliveries">
          <h3>Last deliveries to {shown.name}</h3>
          {!shownRead.data ? (
            <p>Reading its deliveries…</p>
          ) : shownRead.data.deliveries.length === 0 ? (
            <p>None yet.</p>
          ) : (
            <ul>
              {shownRead.data.deliveries.map((x) => (
                <li data-delivery-id={x.id}>
                  {when(x.updatedAt)}: {x.event} of {x.alert.description ?? x.alertId}, <Status value={x.status} />{' '}
                  after {plural(x.attempts, 'attempt')}
                  {x.lastError && x.status !== 'delivered' ? `: ${x.lastError}` : ''}
                </li>
              ))}
            </ul>
          )}
          <button type="button" onClick={() => setShownId(null)}>
            Close
          </button>
        </div>
      )}
      <NewDestination onMade={() => void all.reload()} />
      <h3>Volume</h3>
      {volume.data ? <VolumeChart volume={volume.data} /> : !volume.error && <p>Reading the volume…</p>}
      <h3>Dead letter</h3>
      {dead === null ? (
        !error && <p>Reading the dead letter…</p>
      ) : (
        <DataTable
          label="Dead letter"
          rows={dead}
          empty="No delivery was given up."
          rowProps={(d) => ({ 'data-delivery-id': d.id })}
          columns={[
            { label: 'When', cell: (d) => when(d.updatedAt), sort: (d) => Date.parse(d.updatedAt) },
            { label: 'Destination', cell: (d) => nameOf(d.destinationId), sort: (d) => nameOf(d.destinationId) },
            { label: 'Event', cell: (d) => d.event, sort: (d) => d.event },
            { label: 'Alert', cell: (d) => d.alert.description ?? d.alertId },
            { label: 'Last error', cell: (d) => d.lastError },
            {
              label: 'Actions',
              cell: (d) => (
                <button type="button" onClick={() => void retry(d)} aria-label={`Retry delivery ${d.id}`}>
                  Retry
                </button>
              ),
            },
          ]}
        />
      )}
    </section>
  )
}
