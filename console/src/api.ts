// The console's one way to Sluice: the public API with the admin key of the session, as any client
// calls it. The key lives in sessionStorage only (gone with the tab), sent as Authorization: Bearer,
// never in a URL or a cookie.
import type { paths } from './api-types.js'
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

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : never

/** What an operation answers (its 200, else its 201), as GET /openapi.json describes it (console/src/api-types.ts). */
export type Answer<P extends keyof paths, M extends Method = 'get'> = paths[P][M] extends { responses: infer R }
  ? JsonOf<R extends { 200: infer A } ? A : R extends { 201: infer A } ? A : never>
  : never

/** The JSON body an operation takes. */
export type Body<P extends keyof paths, M extends Method> = paths[P][M] extends { requestBody?: infer B }
  ? JsonOf<NonNullable<B>>
  : never
