// The mapping editor: a sample payload (one the integration received, the one saved with the mapping,
// or pasted JSON) as a tree of parsed fields, and the alert fields as template boxes. Dragging a field
// onto a box inserts its placeholder ({{webhook.<path>}}, or {{item.<path>}} inside the split array)
// where it is dropped; from the keyboard, pick a field (Enter on it), then press Enter in a box to
// insert it at the caret. A live preview renders the sample through /test with the unsaved mapping
// and shows each problem beside the field it concerns. Save and Revert; Check recent payloads runs the
// mapping over what the integration really received and lists the payloads it would reject.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { api, ApiError, errorText } from '../api.js'
import { useLoad } from '../read.js'

type Mapping = Record<string, unknown> & { customFields?: Record<string, string>; splitPath?: string }
interface Integration {
  id: string
  name: string
  mapping: Mapping
  sample: unknown
}
interface Payload {
  requestId: string
  receivedAt: string
  bytes: number
  kept: boolean
  payload: unknown
}
interface Preview {
  alerts: Record<string, unknown>[]
  rejected: { index: number; reason: string }[]
}

const FIELDS = [
  ['severity', 'Severity'],
  ['description', 'Description'],
  ['source', 'Source'],
  ['service', 'Service'],
  ['environment', 'Environment'],
  ['team', 'Team'],
  ['dedupKey', 'Dedup key'],
  ['status', 'Status'],
] as const
/** The largest sample saved with a mapping (the API's limit). */
const MAX_SAMPLE_BYTES = 64 * 1024
/** Children rendered per expanded node at first; more on demand (a 1 MiB payload stays responsive). */
const PAGE = 200

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
const example = (v: unknown) => {
  if (v !== null && typeof v === 'object')
    return Array.isArray(v) ? `${v.length} items` : `${Object.keys(v).length} fields`
  const text = JSON.stringify(v)
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

/** The placeholder of a path: inside the split array, relative to its item. */
export function placeholder(path: string, splitPath: string | undefined): string {
  if (splitPath) {
    const m = new RegExp(`^${splitPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+(\\.(.+))?$`).exec(path)
    if (m) return m[2] ? `{{item.${m[2]}}}` : '{{item}}'
  }
  return `{{webhook.${path}}}`
}

/** Paths of arrays of objects: what an integration can split into one alert per item. */
function splitCandidates(v: unknown, path = '', out: string[] = [], depth = 0): string[] {
  if (depth > 6 || v === null || typeof v !== 'object') return out
  if (Array.isArray(v)) {
    if (path && v.some((x) => x !== null && typeof x === 'object' && !Array.isArray(x))) out.push(path)
    return out
  }
  for (const [k, child] of Object.entries(v))
    if (/^[A-Za-z0-9_-]+$/.test(k)) splitCandidates(child, path ? `${path}.${k}` : k, out, depth + 1)
  return out
}

function Node({
  name,
  path,
  value,
  picked,
  onPick,
  splitPath,
}: {
  name: string
  path: string
  value: unknown
  picked: string | null
  onPick: (p: string) => void
  splitPath: string | undefined
}) {
  const [open, setOpen] = useState(path.split('.').length < 2)
  const [shown, setShown] = useState(PAGE)
  const container = value !== null && typeof value === 'object'
  const entries: [string, unknown][] = container && open ? Object.entries(value) : []
  const text = placeholder(path, splitPath)
  // Moustache paths are dot-separated names: a key with a dot, slash or space cannot be reached.
  const usable = path.split('.').every((segment) => /^[A-Za-z0-9_-]+$/.test(segment))
  return (
    <li>
      <div class="field">
        {container && (
          <button
            type="button"
            class="toggle"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${path}`}
            onClick={() => setOpen(!open)}
          >
            {open ? '▾' : '▸'}
          </button>
        )}
        <button
          type="button"
          class="path"
          draggable={usable}
          disabled={!usable}
          title={usable ? undefined : 'this key has characters a {{webhook.…}} path cannot hold'}
          aria-pressed={picked === path}
          data-path={path}
          onClick={() => onPick(path)}
          onDragStart={(e) => {
            e.dataTransfer?.setData('text/plain', text)
            if (e.dataTransfer) e.dataTransfer.effectAllowed = 'copy'
          }}
        >
          {path || name}
        </button>
        <span class="type">{typeOf(value)}</span>
        <span class="example">{example(value)}</span>
      </div>
      {entries.length > 0 && (
        <ul>
          {entries.slice(0, shown).map(([k, v]) => (
            <Node
              name={k}
              path={path ? `${path}.${k}` : k}
              value={v}
              picked={picked}
              onPick={onPick}
              splitPath={splitPath}
            />
          ))}
          {entries.length > shown && (
            <li>
              <button type="button" onClick={() => setShown(shown + PAGE)}>
                Show {Math.min(PAGE, entries.length - shown)} more of {entries.length - shown}
              </button>
            </li>
          )}
        </ul>
      )}
    </li>
  )
}

/** A template box: drops and Enter (with a picked field) insert the placeholder at the caret or drop point. */
function Box({
  id,
  label,
  value,
  problems,
  onChange,
  insertion,
}: {
  id: string
  label: string
  value: string
  problems: string[]
  onChange: (v: string) => void
  insertion: string | null
}) {
  const ref = useRef<HTMLInputElement>(null)
  const insert = (text: string, at: number) => onChange(value.slice(0, at) + text + value.slice(at))
  return (
    <div class="box">
      <label for={id}>{label}</label>
      <input
        id={id}
        ref={ref}
        value={value}
        aria-invalid={problems.length > 0}
        aria-describedby={problems.length > 0 ? `${id}-problems` : undefined}
        onInput={(e) => onChange(e.currentTarget.value)}
        onDragOver={(e) => {
          e.preventDefault()
          if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy'
        }}
        onDrop={(e) => {
          const text = e.dataTransfer?.getData('text/plain')
          if (!text) return
          e.preventDefault()
          const input = e.currentTarget
          // The drop point: the caret position under the pointer, measured on the input's text.
          insert(text, dropIndex(input, e.clientX))
          input.focus()
        }}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || insertion === null) return
          e.preventDefault()
          insert(insertion, e.currentTarget.selectionStart ?? value.length)
        }}
      />
      {problems.length > 0 && (
        <p id={`${id}-problems`} class="error" role="alert">
          {problems.join('; ')}
        </p>
      )}
    </div>
  )
}

/** The index in an input's value nearest to a horizontal position, measured with the input's font. */
function dropIndex(input: HTMLInputElement, clientX: number): number {
  const style = getComputedStyle(input)
  const context = document.createElement('canvas').getContext('2d')
  if (!context) return input.value.length
  context.font = `${style.fontSize} ${style.fontFamily}`
  const x =
    clientX -
    input.getBoundingClientRect().left -
    parseFloat(style.paddingLeft) -
    parseFloat(style.borderLeftWidth) +
    input.scrollLeft
  // The character boundary nearest to x.
  let before = 0
  for (let i = 0; i <= input.value.length; i++) {
    const width = context.measureText(input.value.slice(0, i)).width
    if (width >= x) return i > 0 && x - before < width - x ? i - 1 : i
    before = width
  }
  return input.value.length
}

export function Editor({ integrationId, onClose }: { integrationId: string; onClose: () => void }) {
  const [saved, setSaved] = useState<Integration | null>(null)
  const [mapping, setMapping] = useState<Mapping>({})
  const [source, setSource] = useState('saved')
  const [pasted, setPasted] = useState('')
  const [picked, setPicked] = useState<string | null>(null)
  const [preview, setPreview] = useState<Preview | null>(null)
  const [problems, setProblems] = useState<{ field: string; problem: string }[]>([])
  const [status, setStatus] = useState<string | null>(null)
  const [checked, setChecked] = useState<{ requestId: string; rejected: string[] }[] | null>(null)
  const base = `/api/v1/integrations/${encodeURIComponent(integrationId)}`

  // The integration and its recent payloads, read together; the mapping is edited from what was read (again on Revert).
  const read = useLoad(base, async () => {
    const [integration, recent] = await Promise.all([
      api<Integration>('GET', base),
      api<{ payloads: Payload[] }>('GET', `${base}/payloads`),
    ])
    return { integration, payloads: recent.payloads }
  })
  const payloads = read.data?.payloads ?? []
  useEffect(() => {
    if (!read.data) return
    const { integration, payloads: recent } = read.data
    setSaved(integration)
    setMapping(structuredClone(integration.mapping))
    setSource(
      integration.sample !== null && integration.sample !== undefined
        ? 'saved'
        : (recent.find((p) => p.kept)?.requestId ?? 'paste'),
    )
    setStatus(null)
    setProblems([])
    setChecked(null)
    setPicked(null)
  }, [read.data])
  useEffect(() => {
    if (read.error) setStatus(read.error)
  }, [read.error])

  const sample: { value: unknown; error: string | null } = useMemo(() => {
    if (source === 'saved') return { value: saved?.sample ?? null, error: null }
    if (source === 'paste') {
      if (pasted.trim() === '') return { value: null, error: null }
      try {
        return { value: JSON.parse(pasted) as unknown, error: null }
      } catch (err) {
        return { value: null, error: `not JSON: ${errorText(err)}` }
      }
    }
    return { value: payloads.find((p) => p.requestId === source)?.payload ?? null, error: null }
  }, [source, pasted, saved, payloads])

  // The live preview, a moment after the last change; an answer to an older change is dropped.
  const latest = useRef(0)
  useEffect(() => {
    const call = ++latest.current
    if (!saved || sample.value === null || typeof sample.value !== 'object') {
      setPreview(null)
      setProblems([])
      return
    }
    const timer = setTimeout(() => {
      api<Preview>('POST', `${base}/test`, { payload: sample.value, mapping })
        .then((p) => {
          if (call !== latest.current) return
          setPreview(p)
          setProblems([])
        })
        .catch((err: unknown) => {
          if (call !== latest.current) return
          setPreview(null)
          setProblems(
            err instanceof ApiError && err.details.length > 0
              ? [...err.details]
              : [{ field: 'mapping', problem: errorText(err) }],
          )
        })
    }, 250)
    return () => clearTimeout(timer)
  }, [mapping, sample, saved])

  // Save-time problems name their field (mapping.team); render rejections start with it (severity "x" is not …).
  const problemsOf = (field: string) => [
    ...problems
      .filter((p) => p.field === `mapping.${field}` || p.field.startsWith(`mapping.${field}.`))
      .map((p) => p.problem),
    ...(preview?.rejected ?? [])
      .filter((r) => r.reason.startsWith(`${field} `))
      .map((r) => `item ${r.index}: ${r.reason}`),
  ]
  const set = (field: string, v: string) => {
    const next = { ...mapping }
    if (v === '') delete next[field]
    else next[field] = v
    setMapping(next)
  }
  const custom = Object.entries(mapping.customFields ?? {})
  const setCustom = (entries: [string, string][]) => {
    const next = { ...mapping }
    if (entries.length === 0) delete next.customFields
    else next.customFields = Object.fromEntries(entries)
    setMapping(next)
  }
  const insertion = picked === null ? null : placeholder(picked, mapping.splitPath)
  // Problems of no box of their own (defaults, maps, the whole mapping), shown once below the boxes.
  const otherProblems = problems.filter(
    (p) =>
      !['splitPath', 'customFields', ...FIELDS.map(([f]) => f)].some(
        (f) => p.field === `mapping.${f}` || p.field.startsWith(`mapping.${f}.`),
      ),
  )
  const splits = useMemo(() => splitCandidates(sample.value), [sample.value])

  const save = async () => {
    setStatus(null)
    try {
      const body: Record<string, unknown> = { mapping }
      const keep =
        sample.value !== null &&
        typeof sample.value === 'object' &&
        new TextEncoder().encode(JSON.stringify(sample.value)).length <= MAX_SAMPLE_BYTES
      if (keep) body['sample'] = sample.value
      const updated = await api<Integration>('PATCH', base, body)
      setSaved({ ...updated, sample: keep ? sample.value : saved?.sample })
      setMapping(structuredClone(updated.mapping))
      setStatus(
        keep || sample.value === null
          ? 'Saved.'
          : `Saved, without the sample: it is larger than ${MAX_SAMPLE_BYTES / 1024} KiB.`,
      )
    } catch (err) {
      if (err instanceof ApiError) setProblems([...err.details])
      setStatus(`Not saved: ${errorText(err)}`)
    }
  }
  const checkRecent = async () => {
    const results = []
    for (const p of payloads.filter((x) => x.kept)) {
      try {
        const r = await api<Preview>('POST', `${base}/test`, { payload: p.payload, mapping })
        results.push({ requestId: p.requestId, rejected: r.rejected.map((x) => x.reason) })
      } catch (err) {
        results.push({ requestId: p.requestId, rejected: [errorText(err)] })
      }
    }
    setChecked(results)
  }

  if (!saved) return <p>{status ?? 'Loading…'}</p>
  return (
    <section aria-labelledby="editor-title" class="editor">
      <h2 id="editor-title">Mapping of {saved.name}</h2>
      <div class="row">
        <label for="sample-source">Sample</label>
        <select id="sample-source" value={source} onChange={(e) => setSource(e.currentTarget.value)}>
          {saved.sample !== null && saved.sample !== undefined && (
            <option value="saved">the sample saved with the mapping</option>
          )}
          {payloads.map((p) => (
            <option value={p.requestId} disabled={!p.kept}>
              received {new Date(p.receivedAt).toLocaleString()} ({p.bytes} bytes{p.kept ? '' : ', too large to keep'})
            </option>
          ))}
          <option value="paste">paste a JSON sample</option>
        </select>
        <button type="button" onClick={() => void read.reload()}>
          Revert
        </button>
        <button type="button" onClick={() => void save()}>
          Save
        </button>
        {status && <span role="status">{status}</span>}
      </div>
      {source === 'paste' && (
        <div class="box">
          <label for="sample-text">Sample JSON</label>
          <textarea id="sample-text" rows={6} value={pasted} onInput={(e) => setPasted(e.currentTarget.value)} />
          {sample.error && (
            <p class="error" role="alert">
              {sample.error}
            </p>
          )}
        </div>
      )}
      <div class="columns">
        <div class="tree" aria-label="Payload fields">
          <h3>Payload fields</h3>
          <p class="hint">
            Drag a field onto an alert field, or pick it (Enter) and press Enter in a box.
            {picked !== null ? ` Picked: ${picked}` : ''}
          </p>
          {sample.value !== null && typeof sample.value === 'object' ? (
            <ul>
              {(Object.entries(sample.value) as [string, unknown][]).map(([k, v]) => (
                <Node name={k} path={k} value={v} picked={picked} onPick={setPicked} splitPath={mapping.splitPath} />
              ))}
            </ul>
          ) : (
            <p>No sample yet: post a payload to the integration's address, or paste one.</p>
          )}
        </div>
        <div class="fields" aria-label="Alert fields">
          <h3>Alert fields</h3>
          <div class="box">
            <label for="map-splitPath">One alert per item of</label>
            <select
              id="map-splitPath"
              value={mapping.splitPath ?? ''}
              onChange={(e) => set('splitPath', e.currentTarget.value)}
            >
              <option value="">(the whole payload is one alert)</option>
              {[...new Set([...splits, ...(mapping.splitPath ? [mapping.splitPath] : [])])].map((p) => (
                <option value={p}>{p}</option>
              ))}
            </select>
            {problemsOf('splitPath').length > 0 && (
              <p class="error" role="alert">
                {problemsOf('splitPath').join('; ')}
              </p>
            )}
          </div>
          {FIELDS.map(([field, label]) => (
            <Box
              id={`map-${field}`}
              label={label}
              value={typeof mapping[field] === 'string' ? mapping[field] : ''}
              problems={problemsOf(field)}
              onChange={(v) => set(field, v)}
              insertion={insertion}
            />
          ))}
          <fieldset>
            <legend>Custom Fields</legend>
            {custom.map(([name, template], i) => (
              <div class="custom">
                <label for={`custom-name-${i}`}>Name</label>
                <input
                  id={`custom-name-${i}`}
                  value={name}
                  onInput={(e) => {
                    const next = e.currentTarget.value
                    // Two custom fields of one name would be one: a taken name is refused, the old one kept.
                    if (custom.some(([other], j) => j !== i && other === next)) {
                      e.currentTarget.value = name
                      setStatus(`Custom field names are unique: ${next} is taken.`)
                    } else setCustom(custom.map((c, j) => (j === i ? [next, c[1]] : c)))
                  }}
                />
                <Box
                  id={`custom-value-${i}`}
                  label={`Custom field ${name || i + 1}`}
                  value={template}
                  problems={problemsOf(`customFields.${name}`)}
                  onChange={(v) => setCustom(custom.map((c, j) => (j === i ? [c[0], v] : c)))}
                  insertion={insertion}
                />
                <button type="button" onClick={() => setCustom(custom.filter((_, j) => j !== i))}>
                  Remove {name || 'custom field'}
                </button>
              </div>
            ))}
            <button
              type="button"
              onClick={() => {
                let n = custom.length + 1
                while (custom.some(([other]) => other === `field${n}`)) n++
                setCustom([...custom, [`field${n}`, '']])
              }}
            >
              Add a custom field
            </button>
            {problemsOf('customFields').length > 0 && <p class="error">{problemsOf('customFields').join('; ')}</p>}
          </fieldset>
          {otherProblems.length > 0 && (
            <p class="error" role="alert">
              {otherProblems.map((p) => `${p.field} ${p.problem}`).join('; ')}
            </p>
          )}
        </div>
      </div>
      <h3>Preview</h3>
      <div aria-live="polite" data-testid="preview">
        {preview === null ? (
          <p>No preview{sample.value === null ? ' without a sample' : ''}.</p>
        ) : (
          <>
            <p>
              {preview.alerts.length} alert{preview.alerts.length === 1 ? '' : 's'}, {preview.rejected.length} rejected
            </p>
            <table>
              <thead>
                <tr>
                  {[
                    'severity',
                    'description',
                    'source',
                    'service',
                    'environment',
                    'team',
                    'dedupKey',
                    'status',
                    'customFields',
                  ].map((f) => (
                    <th scope="col">{f}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.alerts.map((a) => (
                  <tr>
                    {[
                      'severity',
                      'description',
                      'source',
                      'service',
                      'environment',
                      'team',
                      'dedupKey',
                      'status',
                      'customFields',
                    ].map((f) => (
                      <td>{typeof a[f] === 'string' ? a[f] : a[f] === undefined ? '' : JSON.stringify(a[f])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {preview.rejected.map((r) => (
              <p class="error">
                item {r.index}: {r.reason}
              </p>
            ))}
          </>
        )}
      </div>
      <h3>Recent payloads</h3>
      <button type="button" onClick={() => void checkRecent()}>
        Check recent payloads
      </button>
      {checked && (
        <ul data-testid="checked">
          {checked.length === 0 && <li>No payloads received yet.</li>}
          {checked.map((c) => (
            <li>
              {c.requestId}: {c.rejected.length === 0 ? 'rendered' : `rejected: ${c.rejected.join('; ')}`}
            </li>
          ))}
        </ul>
      )}
      <p>
        <button type="button" onClick={onClose}>
          Back to integrations
        </button>
      </p>
    </section>
  )
}
