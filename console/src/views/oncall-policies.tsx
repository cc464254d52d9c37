// The on-call view's escalation policies (each step: who is paged, then how long it waits; the account's default,
// another made the default; a policy made from JSON as the API takes it) and heartbeats (each integration's interval,
// whether it is up, its last payload). Names are shown as text.
import { useState } from 'preact/hooks'
import { api, errorText, type Answer } from '../api.js'
import { ago, plural } from '../format.js'
import { useLoad } from '../read.js'
import { Badge, ErrorLine, JsonForm } from '../ui.js'

type Policy = Answer<'/api/v1/escalation-policies'>['policies'][number]
type Target = Policy['steps'][number]['targets'][number]
type Heartbeat = Answer<'/api/v1/heartbeats'>['heartbeats'][number]

export function Policies({
  schedules,
  people,
}: {
  schedules: ReadonlyMap<string, string>
  people: ReadonlyMap<string, string>
}) {
  const list = useLoad('policies', async () => {
    const [{ policies }, { policyId }] = await Promise.all([
      api<{ policies: Policy[] }>('GET', '/api/v1/escalation-policies'),
      api<{ policyId: string | null }>('GET', '/api/v1/oncall/default-policy'),
    ])
    return { policies, defaultId: policyId }
  })
  const [error, setError] = useState<string | null>(null)
  const names = new Map((list.data?.policies ?? []).map((p) => [p.id, p.name]))
  const target = (t: Target) =>
    t.kind === 'schedule'
      ? `whoever is on call in ${schedules.get(t.id) ?? t.id}`
      : t.kind === 'user'
        ? (people.get(t.id) ?? `user ${t.id}`)
        : t.kind === 'policy'
          ? `hand over to ${names.get(t.id) ?? t.id}`
          : `destination ${t.id}`
  const makeDefault = async (id: string) => {
    setError(null)
    try {
      await api('PUT', '/api/v1/oncall/default-policy', { policyId: id })
      void list.reload()
    } catch (err) {
      setError(errorText(err))
    }
  }
  return (
    <section aria-labelledby="policies-title">
      <h3 id="policies-title">Escalation policies</h3>
      <ErrorLine text={list.error ?? error} />
      {list.data === undefined ? (
        !list.error && <p>Loading…</p>
      ) : list.data.policies.length === 0 ? (
        <p>No escalation policies yet.</p>
      ) : (
        <table data-testid="policies">
          <caption>Who is paged, step after step, until someone acknowledges</caption>
          <thead>
            <tr>
              <th scope="col">Policy</th>
              <th scope="col">Steps</th>
              <th scope="col">Runs again</th>
              <th scope="col">Default</th>
            </tr>
          </thead>
          <tbody>
            {list.data.policies.map((p) => (
              <tr>
                <td>{p.name}</td>
                <td>
                  <ol class="steps">
                    {p.steps.map((s) => (
                      <li>
                        {s.targets.map(target).join(', ')}
                        {s.waitMinutes > 0 ? `; then ${plural(s.waitMinutes, 'minute')}` : ''}
                      </li>
                    ))}
                  </ol>
                </td>
                <td>{p.repeat > 0 ? plural(p.repeat, 'time') : 'no'}</td>
                <td>
                  {p.id === list.data!.defaultId ? (
                    'default'
                  ) : (
                    <button
                      type="button"
                      aria-label={`Make ${p.name} the default policy`}
                      onClick={() => void makeDefault(p.id)}
                    >
                      Make default
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <JsonForm
        id="policy-json"
        legend="New escalation policy"
        label="Policy (JSON, as the API takes it: see the on-call docs)"
        rows={6}
        placeholder='{"name": "Payments", "steps": [{"targets": [{"kind": "schedule", "id": "<schedule id>"}], "waitMinutes": 10}], "repeat": 1}'
        path="/api/v1/escalation-policies"
        button="Add policy"
        onMade={() => void list.reload()}
      />
    </section>
  )
}

export function Heartbeats() {
  const list = useLoad(
    'heartbeats',
    async () => (await api<{ heartbeats: Heartbeat[] }>('GET', '/api/v1/heartbeats')).heartbeats,
    {
      refreshMs: 10_000,
    },
  )
  return (
    <section aria-labelledby="heartbeats-title">
      <h3 id="heartbeats-title">Heartbeats</h3>
      <ErrorLine text={list.error} />
      {list.data === undefined ? (
        !list.error && <p>Loading…</p>
      ) : list.data.length === 0 ? (
        <p>No heartbeats yet: give an integration one (PUT /api/v1/integrations/&lt;id&gt;/heartbeat).</p>
      ) : (
        <table data-testid="heartbeats">
          <caption>Integrations expected to send now and then</caption>
          <thead>
            <tr>
              <th scope="col">Integration</th>
              <th scope="col">Expected every</th>
              <th scope="col">State</th>
              <th scope="col">Last payload</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((h) => (
              <tr>
                <td>{h.name}</td>
                <td>
                  {plural(h.intervalSeconds, 'second')} (+{h.graceSeconds} s grace)
                </td>
                <td>
                  <Badge tone={h.state === 'down' ? 'danger' : 'ok'}>
                    {h.state === 'down' ? 'silent: alert raised' : 'up'}
                  </Badge>
                </td>
                <td>{ago(h.lastPayloadAt, 'none in the last week')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
