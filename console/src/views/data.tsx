// The Data Hub for importers: pick a workspace's environment, then see whether it is arriving (the ingestion health:
// per minute, refusal reasons, the SDKs and their impressions mode, the consumers' lag), what arrived (the event types
// with their counts, one type's properties; the flags seen), what arrives now (the live tail, filtered, sampled under
// load), what was refused and why (reasons with examples shown as text) and its replay (views/replays.tsx), what
// should arrive (the tracking plan and its violations: views/plans.tsx), and erase a person's records.
// Everything is text: a record's markup is shown, never run (Preact escapes it).
// The workspace, environment and tab are in the address: #/data?ws=<id>&env=<id>&tab=types.
import { useEffect, useRef, useState } from 'preact/hooks'
import { ErrorLine } from '../ui.js'
import { api, errorText, session } from '../api.js'
import type { RouteParams } from '../route.js'
import { useRead } from '../read.js'
import { TimeChart } from '../chart.js'
import { ago as agoText, count, plural, when } from '../format.js'
import { TrackingPlan } from './plans.js'
import { Replay } from './replays.js'

interface Workspace {
  id: string
  name: string
}
interface Environment {
  id: string
  name: string
}
interface Seen {
  firstAt: string
  lastAt: string
  last24h: number
  last7d: number
  last30d: number
  sdkVersions: string[]
}
interface EventType extends Seen {
  eventType: string
  valueShare: number | null
}
interface EventTypeDetail extends EventType {
  sample: number
  properties: { name: string; types: Record<string, number>; fillRate: number }[]
  cutRecords: number
}
interface FlagSeen extends Seen {
  flag: string
  treatments: string[]
}
interface Rejections {
  total: number
  reasons: {
    reason: string
    records: number
    lastAt: string
    examples: { raw: string; rawBytes: number; truncated: boolean; requestId: string; receivedAt: string }[]
  }[]
}
interface TailRecord {
  kind: string
  receivedAt: number
  requestId: string
  eventType?: string
  key?: string
  flag?: string
  data: Record<string, unknown>
}
interface Erasure {
  id: string
  status: string
  requestedAt: string
  deleted?: Record<string, number>
  error?: string
}

/** An environment's ingestion health (GET /api/v1/environments/<id>/health); the home page reads it too. */
export interface Health {
  minutes: { minute: string; events: number; refusedEvents: number; impressions: number; refusedImpressions: number }[]
  topReasons: { kind: string; reason: string; records: number }[]
  lastEventAt: string | null
  lastImpressionAt: string | null
  sdks: {
    sdkVersion: string
    lastSeenAt: string
    sends: string[]
    impressionsMode: string | null
    modeSource: string | null
  }[]
  consumerLag: Record<string, number> | null
  note: string | null
  freshness: { hour: string; canaries: number; p50Ms: number | null; p95Ms: number | null; notQueryable: number }[]
}

const TABS = {
  health: 'Health',
  types: 'Event types',
  flags: 'Flags seen',
  tail: 'Live tail',
  refused: 'Refused',
  plan: 'Tracking plan',
  payloads: 'Refused payloads',
  erasures: 'Erasures',
}
type Tab = keyof typeof TABS
const pct = (x: number | null) => (x === null ? '–' : `${Math.round(x * 100)}%`)
const ago = (iso: string | null) => agoText(iso, 'none in 90 days')

/** Received and refused per minute over the last hour, side by side, with the hour's figures as its summary. */
function PerMinute({ minutes }: { minutes: Health['minutes'] }) {
  const sum = (f: (m: Health['minutes'][number]) => number) => minutes.reduce((n, m) => n + f(m), 0)
  const label = `last hour: ${plural(
    sum((m) => m.events),
    'event',
  )} and ${plural(
    sum((m) => m.impressions),
    'impression',
  )} received, ${sum((m) => m.refusedEvents + m.refusedImpressions)} refused`
  return (
    <TimeChart
      testId="per-minute"
      x={minutes.map((m) => Date.parse(m.minute) / 1000)}
      series={[
        { label: 'received', color: 'chart-ok', kind: 'bars', values: minutes.map((m) => m.events + m.impressions) },
        {
          label: 'refused',
          color: 'chart-bad',
          kind: 'bars',
          values: minutes.map((m) => m.refusedEvents + m.refusedImpressions),
        },
      ]}
      yLabel="records per minute"
      integer
      format={count}
      summary={label}
    />
  )
}

const seconds = (ms: number | null) => (ms === null ? '–' : `${(ms / 1000).toFixed(1)} s`)

/** The freshness canary's last hour (all environments): accepted to queryable, against the 5 s promise. */
function Freshness({ hours }: { hours: Health['freshness'] }) {
  const [last] = hours
  return (
    <p data-testid="freshness">
      {last
        ? `Freshness, accepted to queryable (all environments, the hour from ${when(last.hour)}): p50 ${seconds(last.p50Ms)}, p95 ${seconds(last.p95Ms)} over ${plural(last.canaries, 'canary', 'canaries')}${last.notQueryable > 0 ? `, ${count(last.notQueryable)} not queryable within 60 s` : ''}. The promise: p95 at most 5 s.`
        : 'Freshness: no canary measured in the last 24 hours (the checks role measures it).'}
    </p>
  )
}

function HealthView({ env }: { env: string }) {
  const read = useRead<Health>(`/api/v1/environments/${encodeURIComponent(env)}/health`, { refreshMs: 15_000 })
  const h = read.data
  const error = read.error
  if (!h) return <ErrorLine text={error} />
  return (
    <div data-testid="health">
      <ErrorLine text={error} />
      <p>
        Last event received: {ago(h.lastEventAt)}. Last impression: {ago(h.lastImpressionAt)}. Consumers behind:{' '}
        {h.consumerLag
          ? Object.entries(h.consumerLag)
              .map(([topic, n]) => `${topic} ${n}`)
              .join(', ')
          : `unknown (${h.note ?? ''})`}
        .
      </p>
      <Freshness hours={h.freshness} />
      <PerMinute minutes={h.minutes} />
      {h.topReasons.length > 0 && (
        <>
          <h3>Refused in the last hour, by reason</h3>
          <ul data-testid="top-reasons">
            {h.topReasons.map((r) => (
              <li>
                {plural(r.records, r.kind.replace(/s$/, ''), r.kind)}: {r.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <table data-testid="sdks">
        <caption>SDKs that sent anything in the last 24 hours</caption>
        <thead>
          <tr>
            <th scope="col">SDK</th>
            <th scope="col">Sends</th>
            <th scope="col">Impressions mode</th>
            <th scope="col">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {h.sdks.map((x) => (
            <tr data-sdk={x.sdkVersion}>
              <th scope="row">{x.sdkVersion || '(no version header)'}</th>
              <td>{x.sends.join(', ')}</td>
              <td>
                {x.impressionsMode === null
                  ? '–'
                  : `${x.impressionsMode} (from its ${x.modeSource === 'header' ? 'SplitSDKImpressionsMode header' : 'config telemetry'})`}
              </td>
              <td>{ago(x.lastSeenAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function EventTypes({ env }: { env: string }) {
  const [types, setTypes] = useState<EventType[] | null>(null)
  const [detail, setDetail] = useState<EventTypeDetail | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    setDetail(null)
    setTypes(null)
    let current = true
    api<{ eventTypes: EventType[] }>('GET', `/api/v1/environments/${encodeURIComponent(env)}/event-types`).then(
      (r) => current && setTypes(r.eventTypes),
      (err: unknown) => current && setError(errorText(err)),
    )
    // Another environment's answer, come late, is dropped.
    return () => void (current = false)
  }, [env])
  const open = (type: string) =>
    api<EventTypeDetail>(
      'GET',
      `/api/v1/environments/${encodeURIComponent(env)}/event-types/${encodeURIComponent(type)}`,
    ).then(setDetail, (err: unknown) => setError(errorText(err)))
  return (
    <>
      <ErrorLine text={error} />
      {types?.length === 0 && <p>No event arrived in this environment in the last 90 days.</p>}
      {types && types.length > 0 && (
        <table data-testid="event-types">
          <caption>Event types received in the last 90 days (by the time Sluice received them)</caption>
          <thead>
            <tr>
              <th scope="col">Event type</th>
              <th scope="col">24 h</th>
              <th scope="col">7 days</th>
              <th scope="col">30 days</th>
              <th scope="col">With a value</th>
              <th scope="col">Last received</th>
              <th scope="col">SDKs</th>
            </tr>
          </thead>
          <tbody>
            {types.map((t) => (
              <tr data-type={t.eventType}>
                <th scope="row">
                  <button type="button" class="link" onClick={() => void open(t.eventType)}>
                    {t.eventType}
                  </button>
                </th>
                <td>{t.last24h}</td>
                <td>{t.last7d}</td>
                <td>{t.last30d}</td>
                <td>{pct(t.valueShare)}</td>
                <td>{when(t.lastAt)}</td>
                <td>{t.sdkVersions.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {detail && (
        <table data-testid="properties">
          <caption>
            Properties of {detail.eventType} (its last {detail.sample} records)
            {detail.cutRecords > 0 && (
              <p class="hint" data-testid="properties-cut">
                {detail.cutRecords} of these records have more property names than the 16 KiB read of each: names past
                that are not counted, so a share may be lower than it is.
              </p>
            )}
          </caption>
          <thead>
            <tr>
              <th scope="col">Property</th>
              <th scope="col">Present in</th>
              <th scope="col">Types</th>
            </tr>
          </thead>
          <tbody>
            {detail.properties.map((p) => (
              <tr>
                <th scope="row">{p.name}</th>
                <td>{pct(p.fillRate)}</td>
                <td>
                  {Object.entries(p.types)
                    .map(([type, n]) => `${type} ${n}`)
                    .join(', ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}

function Flags({ env }: { env: string }) {
  const read = useRead<{ flags: FlagSeen[] }>(`/api/v1/environments/${encodeURIComponent(env)}/flags-seen`)
  const flags = read.data?.flags
  const error = read.error
  return (
    <>
      <ErrorLine text={error} />
      {flags?.length === 0 && <p>No impression arrived in this environment in the last 90 days.</p>}
      {flags && flags.length > 0 && (
        <table data-testid="flags-seen">
          <caption>Flags in the impressions of the last 90 days</caption>
          <thead>
            <tr>
              <th scope="col">Flag</th>
              <th scope="col">24 h</th>
              <th scope="col">30 days</th>
              <th scope="col">Treatments</th>
              <th scope="col">SDKs</th>
              <th scope="col">Last received</th>
            </tr>
          </thead>
          <tbody>
            {flags.map((f) => (
              <tr>
                <th scope="row">{f.flag}</th>
                <td>{f.last24h}</td>
                <td>{f.last30d}</td>
                <td>{f.treatments.join(', ')}</td>
                <td>{f.sdkVersions.join(', ')}</td>
                <td>{when(f.lastAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}

/** The tail's stream read with fetch (an EventSource cannot send the key as a header). */
function Tail({ env }: { env: string }) {
  const [filter, setFilter] = useState({ eventType: '', key: '', flag: '' })
  const [running, setRunning] = useState(false)
  const [records, setRecords] = useState<TailRecord[]>([])
  const [rate, setRate] = useState(1)
  const [status, setStatus] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const abort = useRef<AbortController | null>(null)
  useEffect(() => () => abort.current?.abort(), [])
  useEffect(() => stop(), [env])

  const stop = () => {
    abort.current?.abort()
    abort.current = null
    setRunning(false)
  }
  const start = async (e: Event) => {
    e.preventDefault()
    stop()
    setError(null)
    setRecords([])
    setRate(1)
    const q = new URLSearchParams(Object.entries(filter).filter(([, v]) => v.trim() !== ''))
    const controller = new AbortController()
    abort.current = controller
    try {
      const res = await fetch(`/api/v1/environments/${encodeURIComponent(env)}/tail?${q.toString()}`, {
        headers: { authorization: `Bearer ${session.key() ?? ''}` },
        signal: controller.signal,
        credentials: 'omit',
      })
      if (!res.ok) throw new Error(((await res.json()) as { message?: string }).message ?? String(res.status))
      setRunning(true)
      setStatus('Waiting for records…')
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
      let text = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        text += value
        let end: number
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end)
          text = text.slice(end + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event === 'cut' && data)
            setStatus(`Stopped by the server: ${(JSON.parse(data) as { reason: string }).reason}`)
          if (event === 'message' && data) {
            const m = JSON.parse(data) as { rate: number; records: TailRecord[] }
            setRate(m.rate)
            setStatus(null)
            // The newest first, at most 200 on the page.
            setRecords((old) => [...m.records.toReversed(), ...old].slice(0, 200))
          }
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) setError(errorText(err))
    } finally {
      if (abort.current === controller) setRunning(false)
    }
  }
  return (
    <>
      <form class="row" onSubmit={(e) => void start(e)}>
        {(['eventType', 'key', 'flag'] as const).map((f) => (
          <>
            <label for={`tail-${f}`}>{f === 'eventType' ? 'Event type' : f === 'key' ? 'Key' : 'Flag'}</label>
            <input
              id={`tail-${f}`}
              value={filter[f]}
              maxLength={250}
              onInput={(e) => setFilter({ ...filter, [f]: e.currentTarget.value })}
            />
          </>
        ))}
        <button type="submit">{running ? 'Restart' : 'Start'}</button>
        {running && (
          <button type="button" onClick={stop}>
            Stop
          </button>
        )}
      </form>
      <ErrorLine text={error} />
      {status && <p role="status">{status}</p>}
      {rate > 1 && <p data-testid="sampled">Showing 1 in {rate}: more records arrive than the tail sends.</p>}
      <table data-testid="tail">
        <caption>Records as they arrive, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Received</th>
            <th scope="col">Kind</th>
            <th scope="col">Type or flag</th>
            <th scope="col">Key</th>
            <th scope="col">Record</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr data-kind={r.kind}>
              <td>{new Date(r.receivedAt).toISOString().slice(11, 23)}</td>
              <td>{r.kind}</td>
              <td>{r.eventType ?? r.flag ?? ''}</td>
              <td>{r.key ?? ''}</td>
              <td>
                <code>{JSON.stringify(r.data)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

function Refused({ env }: { env: string }) {
  const [kind, setKind] = useState<'events' | 'impressions'>('events')
  // The reason a replay is to take (chosen with "Replay…" on a reason; '' for every reason).
  const [replayReason, setReplayReason] = useState('')
  // An answer for the kind no longer chosen is dropped (it used to overwrite the newer one).
  const read = useRead<Rejections>(`/api/v1/environments/${encodeURIComponent(env)}/rejections?kind=${kind}`)
  const r = read.data
  const error = read.error
  return (
    <>
      <div class="row">
        <label for="refused-kind">Records</label>
        <select id="refused-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as typeof kind)}>
          <option value="events">Events</option>
          <option value="impressions">Impressions</option>
        </select>
      </div>
      <ErrorLine text={error} />
      {r && (
        <div data-testid="refused">
          <p>
            {r.total} {kind} refused in the last 30 days{r.total > 0 ? ', by reason:' : '.'}
          </p>
          {r.reasons.map((x) => (
            <details data-reason={x.reason}>
              <summary>
                {x.records} × {x.reason} (last {when(x.lastAt)})
              </summary>
              <button type="button" onClick={() => setReplayReason(x.reason)}>
                Replay…
              </button>
              {x.examples.map((e) => (
                <figure>
                  <figcaption>
                    Request {e.requestId}, {when(e.receivedAt)}
                    {e.truncated ? `, first 2,048 characters of ${e.rawBytes} bytes` : ''}
                  </figcaption>
                  <pre>{e.raw}</pre>
                </figure>
              ))}
            </details>
          ))}
        </div>
      )}
      <Replay env={env} kind={kind} reason={replayReason} />
    </>
  )
}

/** The payloads each integration's mapping refused lately, by reason (the integrations are the account's). */
function RefusedPayloads() {
  const [integrations, setIntegrations] = useState<{ id: string; name: string }[]>([])
  const [id, setId] = useState('')
  const [reasons, setReasons] = useState<
    { reason: string; records: number; lastAt: string; examples: { payload: string; requestId: string }[] }[] | null
  >(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    api<{ integrations: { id: string; name: string }[] }>('GET', '/api/v1/integrations').then(
      (r) => {
        setIntegrations(r.integrations)
        setId(r.integrations[0]?.id ?? '')
      },
      (err: unknown) => setError(errorText(err)),
    )
  }, [])
  useEffect(() => {
    if (!id) return
    setReasons(null)
    api<{ reasons: NonNullable<typeof reasons> }>(
      'GET',
      `/api/v1/integrations/${encodeURIComponent(id)}/rejections`,
    ).then(
      (r) => setReasons(r.reasons),
      (err: unknown) => setError(errorText(err)),
    )
  }, [id])
  return (
    <>
      <div class="row">
        <label for="payloads-integration">Integration</label>
        <select id="payloads-integration" value={id} onChange={(e) => setId(e.currentTarget.value)}>
          {integrations.map((i) => (
            <option value={i.id}>{i.name}</option>
          ))}
        </select>
      </div>
      <ErrorLine text={error} />
      {reasons?.length === 0 && <p>No payload of this integration was refused lately.</p>}
      {reasons && reasons.length > 0 && (
        <div data-testid="refused-payloads">
          {reasons.map((x) => (
            <details>
              <summary>
                {x.records} × {x.reason} (last {when(x.lastAt)})
              </summary>
              {x.examples.map((e) => (
                <figure>
                  <figcaption>Request {e.requestId}</figcaption>
                  <pre>{e.payload}</pre>
                </figure>
              ))}
            </details>
          ))}
        </div>
      )}
    </>
  )
}

function Erasures({ env }: { env: string }) {
  const [keys, setKeys] = useState('')
  const [jobs, setJobs] = useState<Erasure[]>([])
  const [error, setError] = useState<string | null>(null)
  const load = () =>
    api<{ erasures: Erasure[] }>('GET', `/api/v1/environments/${encodeURIComponent(env)}/erasures`).then(
      (r) => setJobs(r.erasures),
      (err: unknown) => setError(errorText(err)),
    )
  useEffect(() => {
    void load()
    const timer = setInterval(() => void load(), 3000)
    return () => clearInterval(timer)
  }, [env])
  const submit = async (e: Event) => {
    e.preventDefault()
    setError(null)
    const list = keys
      .split('\n')
      .map((k) => k.trim())
      .filter((k) => k !== '')
    try {
      await api('POST', `/api/v1/environments/${encodeURIComponent(env)}/erasures`, { keys: list })
      setKeys('')
      await load()
    } catch (err) {
      setError(errorText(err))
    }
  }
  return (
    <>
      <form onSubmit={(e) => void submit(e)}>
        <label for="erase-keys">Keys to erase (one per line): their events, impressions and unique keys</label>
        <textarea id="erase-keys" rows={3} value={keys} onInput={(e) => setKeys(e.currentTarget.value)} />
        <button type="submit" disabled={keys.trim() === ''}>
          Erase
        </button>
      </form>
      <ErrorLine text={error} />
      <table data-testid="erasures">
        <caption>Erasures, most recent first</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Status</th>
            <th scope="col">Requested</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((j) => (
            <tr data-job={j.id}>
              <td>{j.id}</td>
              <td>{j.status}</td>
              <td>{when(j.requestedAt)}</td>
              <td>
                {j.deleted
                  ? Object.entries(j.deleted)
                      .map(([t, n]) => `${n} ${t}`)
                      .join(', ')
                  : (j.error ?? '')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

export function Data({
  params,
  go,
}: {
  params: Record<string, string>
  go: (params: RouteParams, options?: { replace?: boolean }) => void
}) {
  const [workspaces, setWorkspaces] = useState<Workspace[]>([])
  const [envs, setEnvs] = useState<Environment[]>([])
  const [error, setError] = useState<string | null>(null)
  // The address's workspace and environment while they exist, else the first ones.
  const ws = workspaces.some((w) => w.id === params['ws']) ? params['ws']! : (workspaces[0]?.id ?? '')
  const env = envs.some((e) => e.id === params['env']) ? params['env']! : (envs[0]?.id ?? '')
  const tab: Tab = params['tab'] && params['tab'] in TABS ? (params['tab'] as Tab) : 'health'
  const setWs = (id: string) => go({ ...params, ws: id, env: undefined })
  const setEnv = (id: string) => go({ ...params, ws, env: id })
  const setTab = (t: Tab) => go({ ...params, ws, env, tab: t === 'health' ? undefined : t })
  useEffect(() => {
    api<{ objects: Workspace[] }>('GET', '/internal/api/v2/workspaces?limit=200').then(
      (r) => setWorkspaces(r.objects),
      (err: unknown) => setError(errorText(err)),
    )
  }, [])
  useEffect(() => {
    if (!ws) return
    // The environments of a workspace no longer chosen are dropped.
    let current = true
    setEnvs([])
    api<Environment[]>('GET', `/internal/api/v2/environments/ws/${encodeURIComponent(ws)}`).then(
      (e) => current && setEnvs(e),
      (err: unknown) => current && setError(errorText(err)),
    )
    return () => void (current = false)
  }, [ws])
  return (
    <section aria-labelledby="data-title">
      <h2 id="data-title">Data</h2>
      <div class="row">
        <label for="data-ws">Workspace</label>
        <select id="data-ws" value={ws} onChange={(e) => setWs(e.currentTarget.value)}>
          {workspaces.map((w) => (
            <option value={w.id}>{w.name}</option>
          ))}
        </select>
        <label for="data-env">Environment</label>
        <select id="data-env" value={env} onChange={(e) => setEnv(e.currentTarget.value)}>
          {envs.map((x) => (
            <option value={x.id}>{x.name}</option>
          ))}
        </select>
      </div>
      <ErrorLine text={error} />
      <nav aria-label="Data views" class="tabs">
        {(Object.keys(TABS) as Tab[]).map((t) => (
          <button type="button" aria-current={tab === t ? 'page' : undefined} onClick={() => setTab(t)}>
            {TABS[t]}
          </button>
        ))}
      </nav>
      {env &&
        (tab === 'health' ? (
          <HealthView env={env} />
        ) : tab === 'types' ? (
          <EventTypes env={env} />
        ) : tab === 'flags' ? (
          <Flags env={env} />
        ) : tab === 'tail' ? (
          <Tail env={env} />
        ) : tab === 'refused' ? (
          <Refused env={env} />
        ) : tab === 'plan' ? (
          <TrackingPlan env={env} />
        ) : tab === 'payloads' ? (
          <RefusedPayloads />
        ) : (
          <Erasures env={env} />
        ))}
    </section>
  )
}
