// On call: who is on call now in each schedule; a schedule's coming two weeks as a timeline (a row per day, each
// shift a bar named by its responder); its overrides, one added by choosing a responder and a span, one removed; a
// schedule made from JSON as the API takes it; then the escalation policies and heartbeats (oncall-policies.tsx).
// Names are shown as text.
import { useState } from 'preact/hooks'
import { api, errorText, type Answer } from '../api.js'
import { when } from '../format.js'
import { useLoad } from '../read.js'
import type { RouteParams } from '../route.js'
import { ErrorLine, JsonForm } from '../ui.js'
import { Heartbeats, Policies } from './oncall-policies.js'

type Schedule = Answer<'/api/v1/schedules'>['schedules'][number]
type OnCall = Answer<'/api/v1/schedules/{id}/on-call'>
type Shift = Answer<'/api/v1/schedules/{id}/shifts'>['shifts'][number]

const DAYS = 14
const nameOf = (r: { userName: string; displayName?: string }) => r.displayName ?? r.userName
const clock = (ms: number) =>
  new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })

/** The coming days from local midnight, each with the parts of the shifts that fall in it. */
function days(shifts: Shift[], from: number) {
  return Array.from({ length: DAYS }, (_, i) => {
    const start = new Date(from).setDate(new Date(from).getDate() + i)
    const end = new Date(from).setDate(new Date(from).getDate() + i + 1)
    const parts = shifts
      .map((s) => ({ s, a: Math.max(Date.parse(s.start), start), b: Math.min(Date.parse(s.end), end) }))
      .filter(({ a, b }) => b > a)
    return { start, end, parts }
  })
}

function Timeline({ shifts, from }: { shifts: Shift[]; from: number }) {
  return (
    <div class="timeline" data-testid="timeline">
      {days(shifts, from).map((d) => {
        const label = new Date(d.start).toLocaleDateString(undefined, {
          weekday: 'short',
          month: 'short',
          day: 'numeric',
        })
        return (
          <div class="timeline-day">
            <span class="timeline-date">{label}</span>
            <ul class="timeline-bars" aria-label={label}>
              {d.parts.length === 0 && <li class="timeline-none">no one</li>}
              {d.parts.map(({ s, a, b }) => (
                <li
                  class="timeline-bar"
                  style={{
                    left: `${((a - d.start) / (d.end - d.start)) * 100}%`,
                    width: `${((b - a) / (d.end - d.start)) * 100}%`,
                  }}
                  title={`${nameOf(s.responder)}: ${when(s.start)} to ${when(s.end)}`}
                >
                  {nameOf(s.responder)} {clock(a)}–{clock(b)}
                </li>
              ))}
            </ul>
          </div>
        )
      })}
    </div>
  )
}

function Overrides({
  schedule,
  names,
  onSaved,
}: {
  schedule: Schedule
  names: Map<string, string>
  onSaved: () => void
}) {
  const responders = [
    ...new Set([...schedule.layers.flatMap((l) => l.responders), ...schedule.overrides.map((o) => o.responder)]),
  ]
  const [responder, setResponder] = useState(responders[0] ?? '')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [error, setError] = useState<string | null>(null)
  const save = async (overrides: Schedule['overrides']) => {
    setError(null)
    try {
      const { id, name, timeZone, layers, version } = schedule
      await api('PUT', `/api/v1/schedules/${encodeURIComponent(id)}`, { name, timeZone, layers, overrides, version })
      onSaved()
    } catch (err) {
      setError(errorText(err))
    }
  }
  const add = (e: Event) => {
    e.preventDefault()
    // datetime-local inputs are the browser's local time: sent as instants.
    void save([
      ...schedule.overrides,
      { responder, from: new Date(from).toISOString(), to: new Date(to).toISOString() },
    ])
  }
  return (
    <div>
      {schedule.overrides.length > 0 && (
        <table>
          <caption>Overrides</caption>
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {schedule.overrides.map((o, i) => (
              <tr>
                <td>{names.get(o.responder) ?? o.responder}</td>
                <td>{when(o.from)}</td>
                <td>{when(o.to)}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Remove the override of ${names.get(o.responder) ?? o.responder} from ${when(o.from)}`}
                    onClick={() => void save(schedule.overrides.filter((_, j) => j !== i))}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form class="box" onSubmit={add}>
        <fieldset>
          <legend>Add an override</legend>
          <div class="row">
            <label for="override-who">Who</label>
            <select id="override-who" value={responder} onChange={(e) => setResponder(e.currentTarget.value)}>
              {responders.map((r) => (
                <option value={r}>{names.get(r) ?? r}</option>
              ))}
            </select>
            <label for="override-from">From</label>
            <input
              id="override-from"
              type="datetime-local"
              value={from}
              onInput={(e) => setFrom(e.currentTarget.value)}
              required
            />
            <label for="override-to">To</label>
            <input
              id="override-to"
              type="datetime-local"
              value={to}
              onInput={(e) => setTo(e.currentTarget.value)}
              required
            />
            <button type="submit">Add override</button>
          </div>
          <ErrorLine text={error} />
        </fieldset>
      </form>
    </div>
  )
}

export function OnCallView({ params, go }: { params: Record<string, string>; go: (params: RouteParams) => void }) {
  const [from] = useState(() => new Date().setHours(0, 0, 0, 0))
  const list = useLoad('schedules', async () => {
    const { schedules } = await api<{ schedules: Schedule[] }>('GET', '/api/v1/schedules')
    const now = await Promise.all(
      schedules.map((s) => api<OnCall>('GET', `/api/v1/schedules/${encodeURIComponent(s.id)}/on-call`)),
    )
    return schedules.map((s, i) => ({ schedule: s, now: now[i]! }))
  })
  const chosen = list.data?.find((x) => x.schedule.id === params['schedule'])?.schedule ?? list.data?.[0]?.schedule
  const shifts = useLoad(chosen ? `shifts:${chosen.id}:${chosen.version}` : null, async () => {
    const q = new URLSearchParams({ from: new Date(from).toISOString(), days: String(DAYS + 1) })
    return (await api<{ shifts: Shift[] }>('GET', `/api/v1/schedules/${encodeURIComponent(chosen!.id)}/shifts?${q}`))
      .shifts
  })
  const names = new Map((shifts.data ?? []).map((s) => [s.responder.id, nameOf(s.responder)]))
  return (
    <section aria-labelledby="oncall-title">
      <h2 id="oncall-title">On call</h2>
      <ErrorLine text={list.error ?? shifts.error} />
      {list.data === undefined ? (
        !list.error && <p>Loading…</p>
      ) : list.data.length === 0 ? (
        <p>No schedules yet.</p>
      ) : (
        <table data-testid="on-call-now">
          <caption>On call now</caption>
          <thead>
            <tr>
              <th scope="col">Schedule</th>
              <th scope="col">Who</th>
              <th scope="col">Until</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map(({ schedule, now }) => (
              <tr aria-current={schedule.id === chosen?.id ? 'true' : undefined}>
                <td>
                  <button type="button" class="link" onClick={() => go({ schedule: schedule.id })}>
                    {schedule.name}
                  </button>
                </td>
                <td>{now.responder ? nameOf(now.responder) : 'no one'}</td>
                <td>{now.until ? when(now.until) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {chosen && (
        <>
          <h3>
            {chosen.name} ({chosen.timeZone}): the coming {DAYS} days
          </h3>
          {shifts.data && <Timeline shifts={shifts.data} from={from} />}
          <Overrides
            key={`${chosen.id}:${chosen.version}`}
            schedule={chosen}
            names={names}
            onSaved={() => void list.reload()}
          />
        </>
      )}
      <JsonForm<Schedule>
        id="schedule-json"
        legend="New schedule"
        label="Schedule (JSON, as the API takes it: see the on-call docs)"
        rows={8}
        placeholder='{"name": "Payments primary", "timeZone": "Europe/Berlin", "layers": [{"name": "weekly", "start": "2026-12-07T09:00", "rotation": {"unit": "weeks", "length": 1}, "responders": ["<user id>", "<user id>"]}]}'
        path="/api/v1/schedules"
        button="Add schedule"
        onMade={(made) => {
          void list.reload()
          go({ schedule: made.id })
        }}
      />
      <Policies
        schedules={new Map((list.data ?? []).map(({ schedule }) => [schedule.id, schedule.name]))}
        people={
          new Map([
            ...(list.data ?? []).flatMap(({ now }) =>
              now.responder ? [[now.responder.id, nameOf(now.responder)] as const] : [],
            ),
            ...names,
          ])
        }
      />
      <Heartbeats />
    </section>
  )
}
