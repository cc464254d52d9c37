// Pieces every view shows the same way.
import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, errorText } from './api.js'

/** A failed call's message, announced to screen readers; nothing when there is none. */
export function ErrorLine({ text }: { text: string | null }) {
  return text === null ? null : (
    <p role="alert" class="error">
      {text}
    </p>
  )
}

export type Tone = 'danger' | 'warn' | 'ok' | 'info' | 'neutral'

/** A status or severity as a word in a coloured pill (the word is always there: colour is never the only sign). */
export function Badge({ tone, children }: { tone: Tone; children: string }) {
  return <span class={`badge ${tone}`}>{children}</span>
}

const SEVERITY_TONES: Record<string, Tone> = {
  critical: 'danger',
  high: 'danger',
  error: 'danger',
  warning: 'warn',
  medium: 'warn',
  low: 'info',
  info: 'info',
}
const STATUS_TONES: Record<string, Tone> = {
  firing: 'danger',
  triggered: 'danger',
  suppressed: 'neutral',
  inhibited: 'neutral',
  pending: 'info',
  acknowledged: 'warn',
  resolved: 'ok',
}

const SEVERITY_ORDER = ['critical', 'high', 'error', 'warning', 'medium', 'low', 'info']
/** A severity's place, the most severe first (an unknown one last). */
export const severityRank = (s: string) =>
  SEVERITY_ORDER.includes(s) ? SEVERITY_ORDER.indexOf(s) : SEVERITY_ORDER.length

export const Severity = ({ value }: { value: string }) => (
  <Badge tone={SEVERITY_TONES[value] ?? 'neutral'}>{value}</Badge>
)
export const Status = ({ value }: { value: string }) => <Badge tone={STATUS_TONES[value] ?? 'neutral'}>{value}</Badge>

export interface Column<R> {
  readonly label: string
  /** What a cell shows. */
  readonly cell: (row: R) => ComponentChildren
  /** A sortable column's value (a header button sorts by it, again to reverse). */
  readonly sort?: (row: R) => string | number
}

/**
 * A table of rows: its caption, sortable columns (the header says which way, `aria-sort`), and what is said when
 * there is no row. The rows are shown in the order given until a header is chosen.
 */
export function DataTable<R>({
  label,
  columns,
  rows,
  empty,
  rowProps,
}: {
  label: string
  columns: readonly Column<R>[]
  rows: readonly R[]
  empty: string
  rowProps?: (row: R) => Record<string, string>
}) {
  const [by, setBy] = useState<{ column: number; down: boolean } | null>(null)
  if (rows.length === 0) return <p>{empty}</p>
  const key = by === null ? undefined : columns[by.column]?.sort
  const shown =
    key === undefined
      ? rows
      : [...rows].sort((a, b) => {
          const [x, y] = [key(a), key(b)]
          const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
          return by!.down ? -order : order
        })
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          {columns.map((c, i) => {
            const sorted = by?.column === i
            return (
              <th scope="col" aria-sort={sorted ? (by.down ? 'descending' : 'ascending') : undefined}>
                {c.sort ? (
                  <button
                    type="button"
                    class="sort"
                    onClick={() => setBy({ column: i, down: sorted ? !by.down : false })}
                  >
                    {c.label}
                    <span aria-hidden="true">{sorted ? (by.down ? ' ▼' : ' ▲') : ' ↕'}</span>
                  </button>
                ) : (
                  c.label
                )}
              </th>
            )
          })}
        </tr>
      </thead>
      <tbody>
        {shown.map((r) => (
          <tr {...(rowProps?.(r) ?? {})}>
            {columns.map((c) => (
              <td>{c.cell(r)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** What just happened, said once (`role="status"`), until it is closed or the next thing happens. */
export function Toast({ text, onClose }: { text: string | null; onClose: () => void }) {
  return text === null ? null : (
    <div class="toast" role="status">
      <span>{text}</span>
      <button type="button" aria-label="Dismiss" onClick={onClose}>
        ×
      </button>
    </div>
  )
}

/**
 * Asks before a change that cannot be undone, in a modal dialog (the focus kept in it; Escape or Cancel says no).
 * Returns the dialog to render and the question to await.
 */
export function useConfirm(): [ComponentChildren, (question: string, action: string) => Promise<boolean>] {
  const [asked, setAsked] = useState<{ question: string; action: string; answer: (yes: boolean) => void } | null>(null)
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    if (asked && !dialog.current?.open) dialog.current?.showModal()
  }, [asked])
  const answer = (yes: boolean) => {
    asked?.answer(yes)
    setAsked(null)
    if (dialog.current?.open) dialog.current.close()
  }
  const element = asked && (
    <dialog ref={dialog} class="confirm" aria-label={asked.action} onClose={() => answer(false)}>
      <p>{asked.question}</p>
      <div class="row">
        <button type="button" class="danger" onClick={() => answer(true)}>
          {asked.action}
        </button>
        <button type="button" onClick={() => answer(false)} autofocus>
          Cancel
        </button>
      </div>
    </dialog>
  )
  const ask = (question: string, action: string) =>
    new Promise<boolean>((resolve) => setAsked({ question, action, answer: resolve }))
  return [element, ask]
}

/**
 * A form that makes something from JSON as the API takes it (a POST to `path`); the API's refusal, or "not JSON", is
 * shown under it; `onMade` gets the answer.
 */
export function JsonForm<T>({
  id,
  legend,
  label,
  placeholder,
  path,
  button,
  rows,
  onMade,
}: {
  id: string
  legend: string
  label: string
  placeholder: string
  path: string
  button: string
  rows: number
  onMade: (made: T) => void
}) {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    setError(null)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return setError('not JSON: write a JSON object, as the API takes it')
    }
    try {
      const made = await api<T>('POST', path, body)
      setText('')
      onMade(made)
    } catch (err) {
      setError(errorText(err))
    }
  }
  return (
    <form class="box" onSubmit={(e) => void submit(e)}>
      <fieldset>
        <legend>{legend}</legend>
        <label for={id}>{label}</label>
        <textarea
          id={id}
          rows={rows}
          cols={80}
          value={text}
          placeholder={placeholder}
          onInput={(e) => setText(e.currentTarget.value)}
          required
        />
        <button type="submit">{button}</button>
        <ErrorLine text={error} />
      </fieldset>
    </form>
  )
}
