// The home page: is everything all right? One line says so or counts what needs a look, then a card per concern,
// each linking to its view: the open alerts by severity, the notifications given up (the dead letter) and the
// destinations turned off, and each environment's ingestion (the last event, what was refused in the last hour, how
// far the consumers are behind). Read when opened and every 30 seconds. Ingestion is an expensive read per environment
// (ClickHouse): the first MAX_ENVIRONMENTS environments are read, one at a time, and the card says when there are more.
import { Badge, ErrorLine, Severity, severityRank } from '../ui.js'
import { api, errorText } from '../api.js'
import { hashOf } from '../route.js'
import { ago, plural } from '../format.js'
import { useLoad } from '../read.js'
import type { Health } from './data.js'

const REFRESH_MS = 30_000
const MAX_ENVIRONMENTS = 6
/** Messages the consumers are behind by, past which ingestion needs a look. */
const LAG_TO_LOOK_AT = 10_000

interface Ingestion {
  workspace: { id: string; name: string }
  environment: { id: string; name: string }
  health: Health | null
  error: string | null
}
interface Overview {
  openBySeverity: [string, number][]
  open: number
  dead: number
  destinationsOff: number
  ingestion: Ingestion[]
  moreEnvironments: boolean
}

const since = (iso: string | null) => (iso === null ? 'no event in 90 days' : `last event ${ago(iso, '')}`)

async function read(): Promise<Overview> {
  const [alerts, dead, destinations, workspaces] = await Promise.all([
    api<{ alerts: { severity: string }[] }>('GET', '/api/v1/alerts?status=open&limit=200'),
    api<{ deliveries: unknown[] }>('GET', '/api/v1/notification-deliveries/dead?limit=50'),
    api<{ destinations: { enabled: boolean }[] }>('GET', '/api/v1/notification-destinations'),
    api<{ objects: { id: string; name: string }[] }>('GET', '/internal/api/v2/workspaces?limit=200'),
  ])
  const bySeverity = new Map<string, number>()
  for (const a of alerts.alerts) bySeverity.set(a.severity, (bySeverity.get(a.severity) ?? 0) + 1)
  const ingestion: Ingestion[] = []
  let moreEnvironments = false
  for (const workspace of workspaces.objects) {
    const environments = await api<{ id: string; name: string }[]>(
      'GET',
      `/internal/api/v2/environments/ws/${encodeURIComponent(workspace.id)}`,
    )
    for (const environment of environments) {
      if (ingestion.length === MAX_ENVIRONMENTS) {
        moreEnvironments = true
        break
      }
      const health = await api<Health>('GET', `/api/v1/environments/${encodeURIComponent(environment.id)}/health`)
        .then((h) => ({ health: h, error: null }))
        .catch((err: unknown) => ({ health: null, error: errorText(err) }))
      ingestion.push({ workspace, environment, ...health })
    }
    if (moreEnvironments) break
  }
  return {
    openBySeverity: [...bySeverity].sort((a, b) => severityRank(a[0]) - severityRank(b[0])),
    open: alerts.alerts.length,
    dead: dead.deliveries.length,
    destinationsOff: destinations.destinations.filter((d) => !d.enabled).length,
    ingestion,
    moreEnvironments,
  }
}

const refusedInTheHour = (h: Health) => h.minutes.reduce((n, m) => n + m.refusedEvents + m.refusedImpressions, 0)
const behind = (h: Health) => Object.values(h.consumerLag ?? {}).reduce((n, x) => n + x, 0)

/** What needs a look, in words (empty: everything is all right). */
function concerns(o: Overview): string[] {
  const out: string[] = []
  if (o.open > 0) out.push(plural(o.open, 'open alert'))
  if (o.dead > 0) out.push(plural(o.dead, 'notification given up', 'notifications given up'))
  for (const i of o.ingestion) {
    const where = `${i.workspace.name} / ${i.environment.name}`
    if (i.error) out.push(`${where}: ingestion could not be read`)
    else if (i.health && refusedInTheHour(i.health) > 0)
      out.push(`${where}: ${plural(refusedInTheHour(i.health), 'record')} refused in the last hour`)
    if (i.health && behind(i.health) > LAG_TO_LOOK_AT)
      out.push(`${where}: consumers ${plural(behind(i.health), 'message')} behind`)
  }
  return out
}

export function Home() {
  const overviewRead = useLoad('overview', read, { refreshMs: REFRESH_MS })
  const overview = overviewRead.data ?? null
  const error = overviewRead.error
  const look = overview ? concerns(overview) : []
  return (
    <section aria-labelledby="home-title">
      <h2 id="home-title">Overview</h2>
      <ErrorLine text={error} />
      <p data-testid="verdict" aria-live="polite" class={look.length > 0 ? 'verdict look' : 'verdict ok'}>
        {overview === null
          ? 'Reading…'
          : look.length === 0
            ? 'Everything looks all right: no open alert, no notification given up, nothing refused in the last hour.'
            : `Needs a look: ${look.join('; ')}.`}
      </p>
      {overview && (
        <div class="cards">
          <a class="card" href={hashOf('alerts')} data-testid="card-alerts">
            <h3>Open alerts</h3>
            {overview.open === 0 ? (
              <p>None open.</p>
            ) : (
              <p>
                {overview.openBySeverity.map(([severity, n]) => (
                  <span class="count">
                    {n} <Severity value={severity} />{' '}
                  </span>
                ))}
              </p>
            )}
          </a>
          <a class="card" href={hashOf('notifications')} data-testid="card-notifications">
            <h3>Notifications</h3>
            <p>
              {overview.dead === 0 ? (
                'None given up.'
              ) : (
                <>
                  <Badge tone="danger">{`${overview.dead}${overview.dead === 50 ? '+' : ''} given up`}</Badge> in the
                  dead letter.
                </>
              )}
              {overview.destinationsOff > 0 && ` ${plural(overview.destinationsOff, 'destination')} turned off.`}
            </p>
          </a>
          {overview.ingestion.map((i) => (
            <a
              class="card"
              href={hashOf('data', { ws: i.workspace.id, env: i.environment.id })}
              data-testid="card-ingestion"
              data-environment={i.environment.id}
            >
              <h3>
                {i.workspace.name} / {i.environment.name}
              </h3>
              {i.health ? (
                <p>
                  {since(i.health.lastEventAt)};{' '}
                  {refusedInTheHour(i.health) === 0 ? (
                    'nothing refused in the last hour'
                  ) : (
                    <Badge tone="warn">{`${refusedInTheHour(i.health)} refused in the last hour`}</Badge>
                  )}
                  ;{' '}
                  {i.health.consumerLag === null
                    ? 'consumers: not known'
                    : `consumers ${plural(behind(i.health), 'message')} behind`}
                  .
                </p>
              ) : (
                <p class="error">Could not be read: {i.error}</p>
              )}
            </a>
          ))}
        </div>
      )}
      {overview?.moreEnvironments && (
        <p class="hint">
          The first {MAX_ENVIRONMENTS} environments are shown; the others are in <a href={hashOf('data')}>Data</a>.
        </p>
      )}
    </section>
  )
}
