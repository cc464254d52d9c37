// An HTTP helper for the Split Admin API v2 tests, and the paging loop Split's clients use.
// Bodies are `any` by default: tests assert their shape field by field, as a JSON client would read them.
/* eslint-disable @typescript-eslint/no-explicit-any */

export interface ApiResponse<T = unknown> {
  status: number
  body: T
  headers: Headers
}

export interface CallOptions {
  key?: string
  body?: unknown
  /** Sent as is (e.g. CSV); otherwise body is sent as JSON. */
  raw?: string
  contentType?: string
  headers?: Record<string, string>
}

export function splitApi(baseUrl: string, defaultKey: string) {
  const call = async <T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> => {
    const key = 'key' in opts ? opts.key : defaultKey
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...opts.headers }
    let body: string | undefined
    if (opts.raw !== undefined) body = opts.raw
    else if (opts.body !== undefined) body = JSON.stringify(opts.body)
    if (body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json'
    const res = await fetch(`${baseUrl}/internal/api/v2${path}`, { method, headers, body })
    const text = await res.text()
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers }
  }
  return {
    call,
    get: <T = any>(path: string, opts?: CallOptions) => call<T>('GET', path, opts),
    post: <T = any>(path: string, body?: unknown, opts?: CallOptions) => call<T>('POST', path, { ...opts, body }),
    put: <T = any>(path: string, body?: unknown, opts?: CallOptions) => call<T>('PUT', path, { ...opts, body }),
    del: <T = any>(path: string, opts?: CallOptions) => call<T>('DELETE', path, opts),
  }
}

/**
 * Pages the way splitapiclient does: request `limit` at the next offset while
 * total > offset + limit, reading offset, limit and the total from each response.
 */
export async function pageAll<T>(
  fetchPage: (offset: number) => Promise<{ items: T[]; offset: number; limit: number; total: number }>,
): Promise<{ items: T[]; requests: number }> {
  const items: T[] = []
  let offset = 0
  let requests = 0
  for (;;) {
    const page = await fetchPage(offset)
    requests++
    items.push(...page.items)
    if (page.total > page.offset + page.limit) offset = page.offset + page.limit
    else return { items, requests }
  }
}
