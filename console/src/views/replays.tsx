// Replays of an environment's refused records, under the refused records: a reason (chosen from the list above or
// typed) and a window make the filter; a dry run says how many would be stored now and why the others would be
// refused (examples shown as text); a replay is started from it and its progress followed; the environment's replays
// are listed with who asked, the filter and the outcome.
import { useEffect, useState } from 'preact/hooks'
import { api, errorText, type Answer } from '../api.js'
import { useRead } from '../read.js'
import { count, when } from '../format.js'
import { ErrorLine } from '../ui.js'

type DryRun = Answer<'/api/v1/environments/{env}/replays/dry-run', 'post'>
type Replays = Answer<'/api/v1/environments/{env}/replays'>

export function Replay({
  env,
  kind,
  reason,
}: {
  env: string
  kind: 'events' | 'impressions'
  /** The reason chosen in the list of refused records (the filter's, until edited). */
  reason: string
}) {
  const base = `/api/v1/environments/${encodeURIComponent(env)}/replays`
  const [text, setText] = useState(reason)
  const [dry, setDry] = useState<DryRun | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const replays = useRead<Replays>(base, { refreshMs: 2000 })
  useEffect(() => {
    setText(reason)
    setDry(null)
  }, [reason, kind, env])
  const filter = () => ({ kind, ...(text.trim() !== '' && { reason: text }) })

  const act = async (what: () => Promise<void>) => {
    setError(null)
    setBusy(true)
    try {
      await what()
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  const dryRun = () => act(async () => setDry(await api<DryRun>('POST', `${base}/dry-run`, filter())))
  const start = () =>
    act(async () => {
      await api('POST', base, filter())
      setDry(null)
      await replays.reload()
    })
  const unfinished = replays.data?.replays.some((r) => r.status === 'pending' || r.status === 'running') ?? false

  return (
    <section aria-labelledby="replay-title" data-testid="replay">
      <h3 id="replay-title">Replay refused {kind}</h3>
      <p>
        Once the cause is fixed (a plan, a limit, a sender), refused records can be published again: each at most once,
        with its first receive time. Try a dry run first.
      </p>
      <div class="row">
        <label for="replay-reason">Reason starts with</label>
        <input
          id="replay-reason"
          value={text}
          placeholder="every reason"
          onInput={(e) => {
            setText(e.currentTarget.value)
            setDry(null)
          }}
        />
        <button type="button" disabled={busy} onClick={() => void dryRun()}>
          Dry run
        </button>
      </div>
      <ErrorLine text={error} />
      {dry && (
        <div data-testid="replay-dry-run" role="status">
          <p>
            {count(dry.selected)} refused in the last 30 days, {count(dry.alreadyReplayed)} already replayed. Of{' '}
            {count(dry.examined)} checked again now{dry.complete ? '' : ' (the first ones: not all were checked)'}
            {dry.planVersion === null ? '' : ` (tracking plan v${dry.planVersion})`}: {count(dry.accepted)} would be
            stored, {count(dry.stillRefused)} refused again, {count(dry.notReplayable)} cannot be replayed.
          </p>
          {dry.refusals.map((r) => (
            <details>
              <summary>
                {count(r.records)} would be refused again: {r.reason}
              </summary>
              {r.examples.map((e) => (
                <pre>{e}</pre>
              ))}
            </details>
          ))}
          <button
            type="button"
            disabled={busy || unfinished || dry.selected === dry.alreadyReplayed}
            onClick={() => void start()}
          >
            Replay {count(dry.selected - dry.alreadyReplayed)} records
          </button>
          {unfinished && <p>A replay of this environment is not finished yet: wait for it.</p>}
        </div>
      )}
      <ErrorLine text={replays.error} />
      {replays.data && replays.data.replays.length > 0 && (
        <table data-testid="replays">
          <caption>Replays, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Asked</th>
              <th scope="col">By</th>
              <th scope="col">Records</th>
              <th scope="col">Status</th>
              <th scope="col">Published</th>
              <th scope="col">Stored</th>
              <th scope="col">Refused again</th>
            </tr>
          </thead>
          <tbody>
            {replays.data.replays.map((r) => (
              <tr>
                <td>{when(r.requestedAt)}</td>
                <td>{r.requestedBy}</td>
                <td>
                  {r.filter.kind}
                  {r.filter.reason === undefined ? '' : `, reason “${r.filter.reason}…”`}
                  {r.filter.eventType === undefined ? '' : `, type ${r.filter.eventType}`}
                </td>
                <td>{r.error ? `${r.status}: ${r.error}` : r.status}</td>
                <td>{count(r.published)}</td>
                <td>{r.stored === undefined ? '' : count(r.stored)}</td>
                <td>{r.refusedAgain === undefined ? '' : count(r.refusedAgain)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
