// The console's address: the view and its state in the hash (#/alerts?status=firing&alert=<id>), so that a link, a
// bookmark, a reload and the browser's back button open the same view. The hash never reaches the server (a link
// carries no key), and the key stays in the tab: a link opened while signed out opens its view after signing in.
// Links sent by notifications before views had addresses (#alert=<id>) open that alert.
import { useEffect, useState } from 'preact/hooks'

export interface Route {
  readonly view: string
  readonly params: URLSearchParams
}

/** The route a hash names; an empty or unknown one is the first view's (the caller chooses it). */
export function parseHash(hash: string): Route {
  const text = hash.replace(/^#/, '')
  if (!text.startsWith('/')) {
    // #alert=<id>: the notification links of Sluice 1.x.
    const legacy = new URLSearchParams(text)
    const alert = legacy.get('alert')
    return alert
      ? { view: 'alerts', params: new URLSearchParams({ alert }) }
      : { view: '', params: new URLSearchParams() }
  }
  const at = text.indexOf('?')
  const view = decodeURIComponent(at < 0 ? text.slice(1) : text.slice(1, at))
  return { view, params: new URLSearchParams(at < 0 ? '' : text.slice(at + 1)) }
}

/** Values of a route's state; an empty or undefined value is left out of the address. */
export type RouteParams = Record<string, string | undefined>

export function hashOf(view: string, params: RouteParams = {}): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v)
  const query = q.toString()
  return `#/${encodeURIComponent(view)}${query ? `?${query}` : ''}`
}

/**
 * Goes to a view with this state: a new history entry (back returns), or `replace` for changes not worth a step of
 * the back button (text typed into a filter).
 */
export type Navigate = (view: string, params?: RouteParams, options?: { replace?: boolean }) => void

export function useRoute(): [Route, Navigate] {
  const [route, setRoute] = useState(() => parseHash(location.hash))
  useEffect(() => {
    const changed = () => setRoute(parseHash(location.hash))
    addEventListener('hashchange', changed)
    return () => removeEventListener('hashchange', changed)
  }, [])
  const navigate: Navigate = (view, params = {}, options = {}) => {
    const hash = hashOf(view, params)
    if (hash === location.hash) return
    if (options.replace) {
      // replaceState fires no hashchange: the route is set here.
      history.replaceState(history.state, '', hash)
      setRoute(parseHash(hash))
    } else location.hash = hash
  }
  return [route, navigate]
}

/** The route's params as a plain record (what a view reads its state from). */
export function paramsOf(route: Route): Record<string, string> {
  return Object.fromEntries(route.params.entries())
}
