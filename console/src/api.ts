// The console's one way to Sluice: the public API with the admin key of the session, as any client
// calls it. The key lives in sessionStorage only (gone with the tab), sent as Authorization: Bearer,
// never in a URL or a cookie.
const KEY = 'sluice.adminKey'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: readonly { field: string; problem: string }[] = [],
  ) {
    super(message)
  }
}

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY),
  signIn: (key: string) => sessionStorage.setItem(KEY, key),
  signOut: () => sessionStorage.removeItem(KEY),
}

export async function api<T>(method: string, path: string, body?: unknown, key = session.key()): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (key) headers['authorization'] = `Bearer ${key}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    credentials: 'omit',
    cache: 'no-store',
  })
  const text = await res.text()
  const parsed = text ? (JSON.parse(text) as unknown) : undefined
  if (!res.ok) {
    const e = (parsed ?? {}) as { message?: string; details?: { field: string; problem: string }[] }
    throw new ApiError(res.status, e.message ?? `${res.status} ${res.statusText}`, e.details ?? [])
  }
  return parsed as T
}

export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err))
