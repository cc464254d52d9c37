// Integrations: list, create from a template, the webhook address and test command shown once (with
// copy buttons), rotate, delete, and each one's sender authentication. The templates are read from the API
// description (/openapi.json). The mapping editor and the authentication of an integration have addresses:
// #/integrations?edit=<id> and #/integrations?auth=<id>.
import { useState } from 'preact/hooks'
import { ErrorLine, useConfirm } from '../ui.js'
import { api, errorText, type Answer } from '../api.js'
import type { RouteParams } from '../route.js'
import { useLoad, useRead } from '../read.js'
import { Editor } from './editor.js'
import { SenderAuth } from './sender-auth.js'

type Integration = Answer<'/api/v1/integrations'>['integrations'][number]
type WithAddress = Answer<'/api/v1/integrations', 'post'>

/** The built-in templates, as the API description lists them (custom and blank need a mapping of their own). */
async function templates(): Promise<string[]> {
  type Schema = { enum?: string[]; anyOf?: Schema[] }
  const doc = await api<{
    paths: Record<
      string,
      Record<
        string,
        { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, Schema> } }> } }
      >
    >
  }>('GET', '/openapi.json')
  const template =
    doc.paths['/api/v1/integrations']?.['post']?.requestBody?.content?.['application/json']?.schema?.properties?.[
      'template'
    ]
  const names = [...(template?.enum ?? []), ...(template?.anyOf ?? []).flatMap((s) => s.enum ?? [])]
  return names.filter((t) => t !== '' && t !== 'custom')
}

function Copy({ label, text }: { label: string; text: string }) {
  const [done, setDone] = useState(false)
  return (
    <button
      type="button"
      onClick={() => void navigator.clipboard.writeText(text).then(() => setDone(true))}
      aria-label={`Copy ${label}`}
    >
      {done ? 'Copied' : 'Copy'}
    </button>
  )
}

export function Integrations({ params, go }: { params: Record<string, string>; go: (params: RouteParams) => void }) {
  const read = useRead<{ integrations: Integration[] }>('/api/v1/integrations')
  const list = read.data?.integrations ?? null
  const templatesRead = useLoad('templates', templates)
  const names = templatesRead.data ?? []
  const [name, setName] = useState('')
  const [template, setTemplate] = useState('alertmanager')
  const [shown, setShown] = useState<WithAddress | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const error = failed ?? read.error ?? templatesRead.error
  const [question, ask] = useConfirm()
  const editing = params['edit'] || null
  // Its name is in the list (read when the view opens).
  const securing = params['auth'] ? (list?.find((i) => i.id === params['auth']) ?? null) : null
  const setEditing = (id: string | null) => go(id ? { edit: id } : {})
  const setSecuring = (i: Integration | null) => go(i ? { auth: i.id } : {})
  const load = read.reload
  const act = async (fn: () => Promise<void>) => {
    setFailed(null)
    try {
      await fn()
      await load()
    } catch (err) {
      setFailed(errorText(err))
    }
  }
  const create = (e: Event) => {
    e.preventDefault()
    void act(async () => {
      setShown(await api<WithAddress>('POST', '/api/v1/integrations', { name: name.trim(), template }))
      setName('')
    })
  }
  if (securing !== null)
    return (
      <SenderAuth
        integrationId={securing.id}
        name={securing.name}
        onClose={() => {
          setSecuring(null)
          void load()
        }}
      />
    )
  if (editing !== null)
    return (
      <Editor
        integrationId={editing}
        onClose={() => {
          setEditing(null)
          void load()
        }}
      />
    )
  return (
    <section aria-labelledby="integrations-title">
      <h2 id="integrations-title">Integrations</h2>
      <form class="row" onSubmit={create}>
        <label for="integration-name">Name</label>
        <input
          id="integration-name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          required
          maxLength={100}
        />
        <label for="integration-template">Template</label>
        <select id="integration-template" value={template} onChange={(e) => setTemplate(e.currentTarget.value)}>
          {names.map((t) => (
            <option value={t}>{t}</option>
          ))}
        </select>
        <button type="submit">Create</button>
      </form>
      <ErrorLine text={error} />
      {shown && (
        <div class="once" role="status">
          <p>
            The address of <strong>{shown.name}</strong>, shown this once (it is stored only as a hash):
          </p>
          <p>
            <code data-testid="webhook-url">{shown.webhookUrl}</code>{' '}
            <Copy label="webhook address" text={shown.webhookUrl} />
          </p>
          <p>
            Test it: <code>{shown.testCommand}</code> <Copy label="test command" text={shown.testCommand} />
          </p>
          <button type="button" onClick={() => setShown(null)}>
            Done
          </button>
        </div>
      )}
      {list === null ? (
        <p>Loading…</p>
      ) : list.length === 0 ? (
        <p>No integrations yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Template</th>
              <th scope="col">Id</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((i) => (
              <tr>
                <td>{i.name}</td>
                <td>{i.template}</td>
                <td>
                  <code>{i.id}</code>
                </td>
                <td>
                  <button type="button" onClick={() => setEditing(i.id)} aria-label={`Edit the mapping of ${i.name}`}>
                    Edit mapping
                  </button>{' '}
                  <button
                    type="button"
                    onClick={() => setSecuring(i)}
                    aria-label={`Sender authentication of ${i.name}`}
                  >
                    Authentication
                  </button>{' '}
                  <button
                    type="button"
                    onClick={() =>
                      void act(async () =>
                        setShown(
                          await api<WithAddress>('POST', `/api/v1/integrations/${encodeURIComponent(i.id)}/rotate`),
                        ),
                      )
                    }
                  >
                    Rotate address
                  </button>{' '}
                  <button
                    type="button"
                    onClick={() =>
                      void ask(`Delete ${i.name}? Its address stops working at once.`, `Delete ${i.name}`).then(
                        async (yes) => {
                          if (yes) await act(() => api('DELETE', `/api/v1/integrations/${encodeURIComponent(i.id)}`))
                        },
                      )
                    }
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {question}
    </section>
  )
}
