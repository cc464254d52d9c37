// The Sluice console: sign in with an admin API key, then the home page (is everything all right?), the account's
// integrations (with the mapping editor and sender authentication), incidents, who is on call, alerts, alert rules,
// maintenance windows, notifications, experiment results and the Data Hub (what arrived, the live tail, refused
// records, erasures).
// Everything shown comes from the public API and is rendered as text (Preact escapes it): a payload
// or alert holding markup is shown as that markup's text, never run.
// Each view has an address (route.ts): #/alerts, #/experiments, ... with its state after a "?".
import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { hashOf, paramsOf, useRoute, type RouteParams } from './route.js'
import { ErrorLine } from './ui.js'
import { api, errorText, session } from './api.js'
import { Alerts } from './views/alerts.js'
import { Incidents } from './views/incidents.js'
import { Data } from './views/data.js'
import { Experiments } from './views/experiments.js'
import { Home } from './views/home.js'
import { Integrations } from './views/integrations.js'
import { Rules } from './views/rules.js'
import { Windows } from './views/windows.js'
import { Notifications } from './views/notifications.js'
import { OnCallView } from './views/oncall.js'

const VIEWS = {
  home: 'Home',
  integrations: 'Integrations',
  incidents: 'Incidents',
  oncall: 'On call',
  alerts: 'Alerts',
  rules: 'Rules',
  windows: 'Maintenance',
  notifications: 'Notifications',
  experiments: 'Experiments',
  data: 'Data',
} as const
type View = keyof typeof VIEWS

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('')
  const [error, setError] = useState<string | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    setError(null)
    try {
      await api('GET', '/api/v1/integrations', undefined, key.trim())
      session.signIn(key.trim())
      onSignedIn()
    } catch (err) {
      setError(errorText(err))
    }
  }
  return (
    <main class="signin">
      <h1>Sluice console</h1>
      <form onSubmit={(e) => void submit(e)}>
        <label for="admin-key">Admin API key</label>
        <input
          id="admin-key"
          type="password"
          autocomplete="off"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          required
        />
        <button type="submit">Sign in</button>
        <ErrorLine text={error} />
      </form>
      <p class="hint">The key stays in this tab only (sessionStorage) and is sent as Authorization: Bearer.</p>
    </main>
  )
}

function App() {
  const [signedIn, setSignedIn] = useState(session.key() !== null)
  const [route, navigate] = useRoute()
  const view: View = route.view in VIEWS ? (route.view as View) : 'home'
  const params = paramsOf(route)
  const go = (next: RouteParams, options?: { replace?: boolean }) => navigate(view, next, options)
  useEffect(() => void (document.title = signedIn ? `${VIEWS[view]} · Sluice` : 'Sluice console'), [view, signedIn])
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />
  return (
    <div class="shell">
      <header>
        <strong>Sluice</strong>
        <nav aria-label="Views">
          {(Object.keys(VIEWS) as View[]).map((v) => (
            <a href={hashOf(v)} aria-current={view === v ? 'page' : undefined}>
              {VIEWS[v]}
            </a>
          ))}
        </nav>
        <button
          type="button"
          class="signout"
          onClick={() => {
            session.signOut()
            setSignedIn(false)
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        {view === 'home' ? (
          <Home />
        ) : view === 'integrations' ? (
          <Integrations params={params} go={go} />
        ) : view === 'incidents' ? (
          <Incidents params={params} go={go} />
        ) : view === 'oncall' ? (
          <OnCallView params={params} go={go} />
        ) : view === 'alerts' ? (
          <Alerts params={params} go={go} />
        ) : view === 'rules' ? (
          <Rules />
        ) : view === 'windows' ? (
          <Windows />
        ) : view === 'notifications' ? (
          <Notifications />
        ) : view === 'experiments' ? (
          // Built again from its address when the address changes (Show results, Back, a link).
          <Experiments key={route.params.toString()} params={params} go={go} />
        ) : (
          <Data params={params} go={go} />
        )}
      </main>
    </div>
  )
}

const root = document.getElementById('app')!
root.textContent = '' // the loading line
render(<App />, root)
