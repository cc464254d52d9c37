// Maintenance windows: what is quiet now and next (a calendar of the coming 7 days, day by day), the windows with
// their schedule, and a form to add one (one-off, or weekly in a time zone; optionally only for alerts matching a
// condition) or delete one (what it holds is released at once).
import { useState } from 'preact/hooks'
import { ErrorLine, useConfirm } from '../ui.js'
import { api, errorText, type Answer } from '../api.js'
import { when } from '../format.js'
import { useLoad } from '../read.js'

type Window = Answer<'/api/v1/maintenance-windows'>['windows'][number]
type Schedule = Window['schedule']
type CalendarEntry = Answer<'/api/v1/maintenance-windows/calendar'>['windows'][number]

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
const DAY_MS = 86_400_000

const describe = (s: Schedule) =>
  s.kind === 'once'
    ? `once, ${when(s.from)} to ${when(s.to)}`
    : `every ${s.days.join(', ')}, ${s.start} to ${s.end} (${s.timeZone})`

/** The coming days, each with the occurrences that overlap it. */
function days(calendar: CalendarEntry[], from: number) {
  return Array.from({ length: 7 }, (_, i) => {
    const start = from + i * DAY_MS
    const end = start + DAY_MS
    const quiet = calendar.flatMap((w) =>
      w.occurrences
        .filter((o) => Date.parse(o.start) < end && Date.parse(o.end) > start)
        .map((o) => ({ name: w.name, start: o.start, end: o.end })),
    )
    return { start, quiet }
  })
}

function AddWindow({ onAdded }: { onAdded: () => void }) {
  const [name, setName] = useState('')
  const [kind, setKind] = useState<'once' | 'weekly'>('once')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [timeZone, setTimeZone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone)
  const [weekdays, setWeekdays] = useState<string[]>(['sat', 'sun'])
  const [start, setStart] = useState('22:00')
  const [end, setEnd] = useState('06:00')
  const [condition, setCondition] = useState('')
  const [error, setError] = useState<string | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    setError(null)
    try {
      const matching = condition.trim() ? (JSON.parse(condition) as unknown) : undefined
      // datetime-local inputs are the browser's local time: sent as instants with their offset.
      const schedule =
        kind === 'once'
          ? { kind, from: new Date(from).toISOString(), to: new Date(to).toISOString() }
          : { kind, timeZone, days: weekdays, start, end }
      await api('POST', '/api/v1/maintenance-windows', {
        name,
        schedule,
        ...(matching !== undefined ? { when: matching } : {}),
      })
      setName('')
      onAdded()
    } catch (err) {
      setError(errorText(err))
    }
  }
  return (
    <form class="box" onSubmit={(e) => void submit(e)}>
      <fieldset>
        <legend>Add a window</legend>
        <div class="row">
          <label for="window-name">Name</label>
          <input
            id="window-name"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            required
            maxLength={200}
          />
          <label for="window-kind">Kind</label>
          <select id="window-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as 'once' | 'weekly')}>
            <option value="once">once</option>
            <option value="weekly">weekly</option>
          </select>
        </div>
        {kind === 'once' ? (
          <div class="row">
            <label for="window-from">From</label>
            <input
              id="window-from"
              type="datetime-local"
              value={from}
              onInput={(e) => setFrom(e.currentTarget.value)}
              required
            />
            <label for="window-to">To</label>
            <input
              id="window-to"
              type="datetime-local"
              value={to}
              onInput={(e) => setTo(e.currentTarget.value)}
              required
            />
          </div>
        ) : (
          <div class="row">
            <label for="window-zone">Time zone</label>
            <input id="window-zone" value={timeZone} onInput={(e) => setTimeZone(e.currentTarget.value)} required />
            {DAYS.map((d) => (
              <label>
                <input
                  type="checkbox"
                  checked={weekdays.includes(d)}
                  onChange={(e) =>
                    setWeekdays(e.currentTarget.checked ? [...weekdays, d] : weekdays.filter((x) => x !== d))
                  }
                />
                {d}
              </label>
            ))}
            <label for="window-start">Start</label>
            <input id="window-start" type="time" value={start} onInput={(e) => setStart(e.currentTarget.value)} />
            <label for="window-end">End</label>
            <input id="window-end" type="time" value={end} onInput={(e) => setEnd(e.currentTarget.value)} />
          </div>
        )}
        <label for="window-when">Only alerts matching (a condition as JSON; empty: every alert)</label>
        <textarea
          id="window-when"
          rows={2}
          cols={80}
          value={condition}
          placeholder='{"field": "service", "equals": "checkout"}'
          onInput={(e) => setCondition(e.currentTarget.value)}
        />
        <button type="submit">Add window</button>
        <ErrorLine text={error} />
      </fieldset>
    </form>
  )
}

export function Windows() {
  const [from] = useState(() => {
    const d = new Date()
    d.setHours(0, 0, 0, 0)
    return d.getTime()
  })
  // Both read, then both shown: the list and the calendar always say the same.
  const read = useLoad('windows', async () => {
    const q = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(from + 7 * DAY_MS).toISOString() })
    const [list, cal] = await Promise.all([
      api<{ windows: Window[] }>('GET', '/api/v1/maintenance-windows'),
      api<{ windows: CalendarEntry[] }>('GET', `/api/v1/maintenance-windows/calendar?${q}`),
    ])
    return { windows: list.windows, calendar: cal.windows }
  })
  const windows = read.data?.windows ?? null
  const calendar = read.data?.calendar ?? null
  const [failed, setFailed] = useState<string | null>(null)
  const error = failed ?? read.error
  const [question, ask] = useConfirm()
  const remove = async (w: Window) => {
    if (!(await ask(`Delete ${w.name}? The alerts it holds are released now.`, `Delete ${w.name}`))) return
    try {
      await api('DELETE', `/api/v1/maintenance-windows/${encodeURIComponent(w.id)}`)
      setFailed(null)
      await read.reload()
    } catch (err) {
      setFailed(errorText(err))
    }
  }
  const quietNow = (windows ?? []).filter((w) => w.activeNow)
  return (
    <section aria-labelledby="windows-title">
      <h2 id="windows-title">Maintenance windows</h2>
      <ErrorLine text={error} />
      <p role="status" data-testid="quiet-now">
        {windows === null
          ? !error && 'Loading…'
          : quietNow.length === 0
            ? 'Nothing is quiet now.'
            : `Quiet now: ${quietNow.map((w) => `${w.name} (until ${when(w.next!.end)})`).join('; ')}`}
      </p>
      {calendar !== null && (
        <table data-testid="calendar">
          <caption>The coming 7 days</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Quiet</th>
            </tr>
          </thead>
          <tbody>
            {days(calendar, from).map((d) => (
              <tr>
                <td>
                  {new Date(d.start).toLocaleDateString(undefined, {
                    weekday: 'short',
                    month: 'short',
                    day: 'numeric',
                  })}
                </td>
                <td>
                  {d.quiet.length === 0
                    ? '—'
                    : d.quiet
                        .map(
                          (q) =>
                            `${q.name}: ${new Date(q.start).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}–${new Date(q.end).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`,
                        )
                        .join('; ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {windows && windows.length > 0 && (
        <table>
          <caption>Windows</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Schedule</th>
              <th scope="col">Alerts</th>
              <th scope="col">Now</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {windows.map((w) => (
              <tr data-window-id={w.id}>
                <td>{w.name}</td>
                <td>{describe(w.schedule)}</td>
                <td>{w.when === undefined ? 'all' : JSON.stringify(w.when)}</td>
                <td>{w.activeNow ? 'quiet' : w.next ? `next ${when(w.next.start)}` : '—'}</td>
                <td>
                  <button type="button" onClick={() => void remove(w)} aria-label={`Delete ${w.name}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <AddWindow onAdded={() => void read.reload()} />
      {question}
    </section>
  )
}
