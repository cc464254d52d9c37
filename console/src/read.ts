// One way for a view to read the API: useRead(path) owns the loading state, the error, reading again every
// refreshMs, and dropping an answer that comes after a newer request or after the view is gone. Views used to do
// this by hand, each its own way, and six races where a late answer overwrote a newer one were fixed one by one.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, errorText } from './api.js'

export interface Read<T> {
  /** The last answer for this path; undefined until the first arrives (never another path's). */
  readonly data: T | undefined
  /** Why the last read failed (the data of an earlier one stays shown); null when it did not. */
  readonly error: string | null
  /** True until the first answer or failure for this path. */
  readonly loading: boolean
  /** Reads again now (after a change the view made); resolves once the answer is shown. */
  readonly reload: () => Promise<void>
}

interface State<T> {
  readonly path: string | null
  readonly data?: T
  readonly error: string | null
  readonly loading: boolean
}

/** Reads `path` (GET) while the view shows it; null reads nothing. */
export function useRead<T>(path: string | null, options: { readonly refreshMs?: number } = {}): Read<T> {
  return useLoad(path, () => api<T>('GET', path!), options)
}

/**
 * As useRead, for what takes more than one call (read together, shown together): `key` names what is read (a new
 * key reads again and drops the answers for the old one); null reads nothing.
 */
export function useLoad<T>(
  key: string | null,
  read: () => Promise<T>,
  options: { readonly refreshMs?: number } = {},
): Read<T> {
  const path = key
  const [state, setState] = useState<State<T>>({ path, error: null, loading: path !== null })
  // Every request takes a number; only the answer to the newest is shown.
  const latest = useRef(0)
  // A read still going when the next refresh is due is not doubled (a slow API is not asked twice as often).
  const reading = useRef(false)
  const load = async (): Promise<void> => {
    if (path === null) return
    const call = ++latest.current
    reading.current = true
    try {
      const data = await read()
      if (call === latest.current) setState({ path, data, error: null, loading: false })
    } catch (err) {
      if (call === latest.current)
        setState((s) => ({ ...(s.path === path ? s : { path }), error: errorText(err), loading: false }))
    } finally {
      if (call === latest.current) reading.current = false
    }
  }
  useEffect(() => {
    reading.current = false
    void load()
    const timer =
      options.refreshMs && path !== null
        ? setInterval(() => void (reading.current || load()), options.refreshMs)
        : undefined
    return () => {
      clearInterval(timer)
      // Answers to requests made before (for another path, or for a view that is gone) are dropped.
      latest.current++
    }
  }, [path, options.refreshMs])
  const current = state.path === path
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : null,
    loading: path !== null && (!current || state.loading),
    reload: load,
  }
}
