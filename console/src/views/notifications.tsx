// Notifications: the account's destinations (create one, send a test, delete), the default route (which
// destinations get the alerts no rule routes), and the dead letter with Retry. A webhook's signing secret is
// shown once, when it is made; other secrets are never shown back.
import { useEffect, useState } from 'preact/hooks'
import { ErrorLine } from '../ui.js'
import { api, errorText } from '../api.js'

export interface Destination {
  id: string
  name: string
  kind: 'webhook' | 'slack' | 'pagerduty' | 'email'
  enabled: boolean
  events: string[]
  settings: Record<string, unknown>
}
interface Delivery {
  id: string
  destinationId: string
  alertId: string
  event: string
  status: string
  attempts: number
  lastError: string | null
  updatedAt: string
  alert: { description?: string }
}

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

export function Notifications() {
  // Each null until read: "none" is said only of what was read, and the default route cannot be saved (emptied) before
  // it is known.
  const [destinations, setDestinations] = useState<Destination[] | null>(null)
  const [route, setRoute] = useState<string[] | null>(null)
  const [dead, setDead] = useState<Delivery[] | null>(null)
  const [tests, setTests] = useState<Record<string, string>>({})
  const [shown, setShown] = useState<{ destination: Destination; deliveries: Delivery[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  // Each read shown as it answers: one that fails does not hide the other.
  const load = () =>
    Promise.all([
      api<{ destinations: Destination[]; route: string[] }>('GET', '/api/v1/notification-destinations').then(
        (all) => {
          setDestinations(all.destinations)
          setRoute(all.route)
        },
        (err: unknown) => setError(errorText(err)),
      ),
      api<{ deliveries: Delivery[] }>('GET', '/api/v1/notification-deliveries/dead?limit=50').then(
        (dl) => setDead(dl.deliveries),
        (err: unknown) => setError(errorText(err)),
      ),
    ])
  useEffect(() => void load(), [])
  const act = async (what: () => Promise<void>) => {
    setError(null)
    setNotice(null)
    try {
      await what()
    } catch (err) {
      setError(errorText(err))
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
  const showDeliveries = (d: Destination) =>
    act(async () => {
      const list = await api<{ deliveries: Delivery[] }>(
        'GET',
        `/api/v1/notification-destinations/${encodeURIComponent(d.id)}/deliveries?limit=20`,
      )
      setShown({ destination: d, deliveries: list.deliveries })
    })
  const remove = (d: Destination) =>
    act(async () => {
      await api('DELETE', `/api/v1/notification-destinations/${encodeURIComponent(d.id)}`)
      await load()
    })
  const saveRoute = () =>
    act(async () => {
      const saved = await api<{ destinations: string[] }>('PUT', '/api/v1/notification-route', { destinations: route })
      setRoute(saved.destinations)
      setNotice('Default route saved.')
    })
  const retry = (d: Delivery) =>
    act(async () => {
      await api('POST', `/api/v1/notification-deliveries/${encodeURIComponent(d.id)}/retry`)
      setNotice(`Delivery ${d.id} is due again.`)
      await load()
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
      {notice && <p role="status">{notice}</p>}
      {destinations === null || route === null ? (
        !error && <p>Reading destinations…</p>
      ) : (
        <>
          <table aria-label="Destinations">
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
                        setRoute(e.currentTarget.checked ? [...route, d.id] : route.filter((r) => r !== d.id))
                      }
                    />
                  </td>
                  <td>
                    <button type="button" onClick={() => void test(d)} aria-label={`Send a test to ${d.name}`}>
                      Test
                    </button>{' '}
                    <button type="button" onClick={() => void showDeliveries(d)} aria-label={`Deliveries of ${d.name}`}>
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
          <h3>Last deliveries to {shown.destination.name}</h3>
          {shown.deliveries.length === 0 ? (
            <p>None yet.</p>
          ) : (
            <ul>
              {shown.deliveries.map((x) => (
                <li data-delivery-id={x.id}>
                  {new Date(x.updatedAt).toLocaleString()}: {x.event} of {x.alert.description ?? x.alertId},{' '}
                  <strong>{x.status}</strong> after {x.attempts} attempt{x.attempts === 1 ? '' : 's'}
                  {x.lastError && x.status !== 'delivered' ? `: ${x.lastError}` : ''}
                </li>
              ))}
            </ul>
          )}
          <button type="button" onClick={() => setShown(null)}>
            Close
          </button>
        </div>
      )}
      <NewDestination onMade={() => void load()} />
      <h3>Dead letter</h3>
      {dead === null ? (
        !error && <p>Reading the dead letter…</p>
      ) : dead.length === 0 ? (
        <p>No delivery was given up.</p>
      ) : (
        <table aria-label="Dead letter">
          <thead>
            <tr>
              <th>When</th>
              <th>Destination</th>
              <th>Event</th>
              <th>Alert</th>
              <th>Last error</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {dead.map((d) => (
              <tr data-delivery-id={d.id}>
                <td>{new Date(d.updatedAt).toLocaleString()}</td>
                <td>{nameOf(d.destinationId)}</td>
                <td>{d.event}</td>
                <td>{d.alert.description ?? d.alertId}</td>
                <td>{d.lastError}</td>
                <td>
                  <button type="button" onClick={() => void retry(d)} aria-label={`Retry delivery ${d.id}`}>
                    Retry
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
