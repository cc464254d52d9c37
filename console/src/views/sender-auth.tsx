// An integration's sender authentication: the scheme, its secrets (ids and last use, never a secret) and the
// refused requests (how many, when, why), so a failing sender can be seen; set it up, add a second secret to
// rotate, retire one, turn it off. A new secret is shown once, in the answer that made it.
import { useState } from 'preact/hooks'
import { ErrorLine } from '../ui.js'
import { api, errorText } from '../api.js'
import { useRead } from '../read.js'

interface View {
  scheme: 'bearer' | 'basic' | 'hmac'
  username?: string
  preset?: string
  toleranceSeconds?: number
  secrets: { id: string; createdAt: string; lastUsedAt: string | null }[]
  failures: { count: number; lastAt: string | null; lastReason: string | null }
}
interface WithSecret {
  authentication: View
  secret: { id: string; value: string }
}

export function SenderAuth({
  integrationId,
  name,
  onClose,
}: {
  integrationId: string
  name: string
  onClose: () => void
}) {
  const path = `/api/v1/integrations/${encodeURIComponent(integrationId)}/authentication`
  const read = useRead<{ authentication: View | null }>(path)
  // What a change answered replaces what was read (undefined: nothing changed here yet).
  const [written, setWritten] = useState<View | null | undefined>(undefined)
  const view = written !== undefined ? written : read.data?.authentication
  const [secret, setSecret] = useState<WithSecret['secret'] | null>(null)
  const [scheme, setScheme] = useState<View['scheme']>('bearer')
  const [preset, setPreset] = useState('grafana')
  const [username, setUsername] = useState('alertmanager')
  const [failed, setFailed] = useState<string | null>(null)
  const error = failed ?? read.error
  const load = async () => {
    setWritten(undefined)
    await read.reload()
  }
  const act = async (fn: () => Promise<void>) => {
    setFailed(null)
    try {
      await fn()
    } catch (err) {
      setFailed(errorText(err))
    }
  }
  const shown = (r: WithSecret) => {
    setWritten(r.authentication)
    setSecret(r.secret)
  }
  const setUp = (e: Event) => {
    e.preventDefault()
    void act(async () =>
      shown(
        await api<WithSecret>('PUT', path, {
          scheme,
          ...(scheme === 'basic' ? { username } : {}),
          ...(scheme === 'hmac' ? { preset } : {}),
        }),
      ),
    )
  }
  return (
    <section aria-labelledby="auth-title">
      <h2 id="auth-title">Sender authentication of {name}</h2>
      <button type="button" onClick={onClose}>
        Back to integrations
      </button>
      <ErrorLine text={error} />
      {secret && (
        <div class="once" role="status">
          <p>
            The new secret <code>{secret.id}</code>, shown this once:
          </p>
          <p>
            <code data-testid="sender-secret">{secret.value}</code>
          </p>
          <button type="button" onClick={() => setSecret(null)}>
            I have saved it
          </button>
        </div>
      )}
      {view === undefined ? (
        <p>Loading…</p>
      ) : view === null ? (
        <p>None: anyone with the webhook address is believed.</p>
      ) : (
        <>
          <p data-testid="auth-summary">
            Scheme {view.scheme}
            {view.preset ? ` (${view.preset})` : ''}
            {view.username ? `, user ${view.username}` : ''}
            {view.toleranceSeconds ? `, signed times within ${view.toleranceSeconds} s` : ''}.
          </p>
          <p data-testid="auth-failures" role={view.failures.count > 0 ? 'alert' : undefined}>
            {view.failures.count === 0
              ? 'No request refused.'
              : `${view.failures.count} requests refused; the last ${new Date(view.failures.lastAt!).toLocaleString()}: ${view.failures.lastReason ?? ''}`}
          </p>
          <table>
            <caption>Secrets (both work while there are two)</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {view.secrets.map((s) => (
                <tr>
                  <td>
                    <code>{s.id}</code>
                  </td>
                  <td>{new Date(s.createdAt).toLocaleString()}</td>
                  <td>{s.lastUsedAt ? new Date(s.lastUsedAt).toLocaleString() : 'never'}</td>
                  <td>
                    <button
                      type="button"
                      disabled={view.secrets.length < 2}
                      onClick={() =>
                        void act(async () => setWritten(await api<View>('DELETE', `${path}/secrets/${s.id}`)))
                      }
                      aria-label={`Retire ${s.id}`}
                    >
                      Retire
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="row">
            <button
              type="button"
              disabled={view.secrets.length >= 2}
              onClick={() => void act(async () => shown(await api<WithSecret>('POST', `${path}/secrets`)))}
            >
              Add a second secret
            </button>
            <button
              type="button"
              onClick={() =>
                void act(async () => {
                  await api('DELETE', path)
                  setSecret(null)
                  await load()
                })
              }
            >
              Turn off
            </button>
            <button type="button" onClick={() => void act(load)}>
              Refresh
            </button>
          </div>
        </>
      )}
      <form class="row" onSubmit={setUp}>
        <label for="auth-scheme">Scheme</label>
        <select id="auth-scheme" value={scheme} onChange={(e) => setScheme(e.currentTarget.value as View['scheme'])}>
          <option value="bearer">bearer token</option>
          <option value="basic">basic (user and password)</option>
          <option value="hmac">HMAC signature</option>
        </select>
        {scheme === 'basic' && (
          <>
            <label for="auth-username">User</label>
            <input id="auth-username" value={username} onInput={(e) => setUsername(e.currentTarget.value)} required />
          </>
        )}
        {scheme === 'hmac' && (
          <>
            <label for="auth-preset">Preset</label>
            <select id="auth-preset" value={preset} onChange={(e) => setPreset(e.currentTarget.value)}>
              <option value="grafana">Grafana</option>
              <option value="github">GitHub-style (X-Hub-Signature-256)</option>
              <option value="standard-webhooks">Standard Webhooks</option>
            </select>
          </>
        )}
        <button type="submit">{view ? 'Replace with a new secret' : 'Require it'}</button>
      </form>
    </section>
  )
}
