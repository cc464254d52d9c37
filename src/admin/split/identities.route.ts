// Identities (endpoint 5): create or update many in one call, and the single-identity calls Split's
// Python client makes (save, patch, delete). Attribute values are stored and returned as strings.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { HttpError } from '../../http/errors.js'
import type { IdentityStore, IdentityValues } from '../../state/redis/identities.js'
import type { Store } from '../../state/redis/store.js'
import { isKeyText, isText, MAX_KEY_LENGTH } from '../../shared/text.js'
import { objectBody, type AdminAccess } from './access.js'

const ATTRIBUTE_ID = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/
const MAX_IDENTITIES_PER_CALL = 10_000
const MAX_ATTRIBUTES = 100
const MAX_VALUE_LENGTH = 1024
const BODY_LIMIT = 8 * 1024 * 1024

type Params = { Params: { trafficType: string; env: string } }
type KeyParams = { Params: { trafficType: string; env: string; key: string } }

export async function identityRoutes(app: FastifyInstance, opts: { access: AdminAccess; store: Store; identities: IdentityStore }): Promise<void> {
  const { access, store, identities } = opts

  /** The traffic type and environment of the path, both in the key's scope and one workspace; else 404. */
  const target = async (request: FastifyRequest<Params>) => {
    const { env } = await access.environment(request, request.params.env, 'all')
    const tt = await store.trafficType(request.params.trafficType)
    if (!tt || tt.workspaceId !== env.workspaceId) throw new HttpError('NOT_FOUND', `traffic type ${request.params.trafficType} not found in the workspace of environment ${env.id}`)
    return { trafficTypeId: tt.id, environmentId: env.id, organizationId: env.accountId }
  }
  const view = (t: { trafficTypeId: string; environmentId: string; organizationId: string }, key: string, values: IdentityValues) => ({ key, trafficTypeId: t.trafficTypeId, environmentId: t.environmentId, organizationId: t.organizationId, values })

  app.post<Params>('/trafficTypes/:trafficType/environments/:env/identities', { bodyLimit: BODY_LIMIT }, async (request) => {
    const t = await target(request)
    if (!Array.isArray(request.body)) throw new HttpError('BAD_REQUEST', 'body must be a JSON array of identities {key, values}')
    if (request.body.length > MAX_IDENTITIES_PER_CALL) throw new HttpError('BAD_REQUEST', `at most ${MAX_IDENTITIES_PER_CALL} identities per call; got ${request.body.length}`, [{ field: 'body', problem: `holds ${request.body.length} identities` }])
    const stored = new Map<string, IdentityValues>()
    const failed: { object: unknown; status: number; message: string }[] = []
    for (const entry of request.body as unknown[]) {
      const checked = checkIdentity(entry, t)
      if (checked.ok) stored.set(checked.key, checked.values)
      else failed.push({ object: entry, status: 400, message: checked.message })
    }
    await identities.save(t.trafficTypeId, t.environmentId, [...stored].map(([key, values]) => ({ key, values })))
    if (failed.length) request.log.info({ stored: stored.size, failed: failed.length }, 'identities partly refused')
    return { objects: [...stored].map(([key, values]) => view(t, key, values)), failed, metadata: null, offset: null, limit: null, count: null, total: null }
  })

  app.get<KeyParams>('/trafficTypes/:trafficType/environments/:env/identities/:key', async (request) => {
    const t = await target(request)
    const values = await identities.get(t.trafficTypeId, t.environmentId, request.params.key)
    if (!values) throw new HttpError('NOT_FOUND', `identity ${request.params.key} not found`)
    return view(t, request.params.key, values)
  })

  // Save one: create or replace its values.
  app.put<KeyParams>('/trafficTypes/:trafficType/environments/:env/identities/:key', async (request) => {
    const t = await target(request)
    const checked = checkIdentity({ ...objectBody(request.body), key: request.params.key }, t)
    if (!checked.ok) throw new HttpError('BAD_REQUEST', checked.message)
    await identities.save(t.trafficTypeId, t.environmentId, [{ key: checked.key, values: checked.values }])
    return view(t, checked.key, checked.values)
  })

  // Update: merge the given values into an existing identity.
  const patch = async (request: FastifyRequest<KeyParams>) => {
    const t = await target(request)
    const checked = checkIdentity({ ...objectBody(request.body), key: request.params.key }, t)
    if (!checked.ok) throw new HttpError('BAD_REQUEST', checked.message)
    const merged = await identities.patch(t.trafficTypeId, t.environmentId, checked.key, checked.values)
    if (!merged) throw new HttpError('NOT_FOUND', `identity ${checked.key} not found`)
    return view(t, checked.key, merged)
  }
  app.patch<KeyParams>('/trafficTypes/:trafficType/environments/:env/identities/:key', patch)
  app.post<KeyParams>('/trafficTypes/:trafficType/environments/:env/identities/:key/patch', patch)

  app.delete<KeyParams>('/trafficTypes/:trafficType/environments/:env/identities/:key', async (request) => {
    const t = await target(request)
    if (!(await identities.delete(t.trafficTypeId, t.environmentId, request.params.key))) throw new HttpError('NOT_FOUND', `identity ${request.params.key} not found`)
    return true
  })
}

type Checked = { ok: true; key: string; values: IdentityValues } | { ok: false; message: string }

/** One identity as sent: a key, attribute values (numbers, strings or booleans, kept as strings). */
function checkIdentity(entry: unknown, path: { trafficTypeId: string; environmentId: string }): Checked {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return { ok: false, message: 'an identity must be a JSON object {key, values}' }
  const e = entry as Record<string, unknown>
  const key = e['key']
  if (!isKeyText(key)) return { ok: false, message: `key must be a string of 1 to ${MAX_KEY_LENGTH} characters without control characters` }
  for (const field of ['trafficTypeId', 'environmentId'] as const) {
    if (e[field] !== undefined && e[field] !== null && e[field] !== path[field]) return { ok: false, message: `${field} must match the path (${path[field]})` }
  }
  const raw = e['values'] ?? {}
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, message: 'values must be an object of attribute id to value' }
  const entries = Object.entries(raw)
  if (entries.length > MAX_ATTRIBUTES) return { ok: false, message: `at most ${MAX_ATTRIBUTES} attributes per identity` }
  const values: Record<string, string> = Object.create(null) as Record<string, string>
  for (const [id, value] of entries) {
    if (!ATTRIBUTE_ID.test(id)) return { ok: false, message: `attribute id ${JSON.stringify(id.slice(0, 100))} must start with a letter and hold only letters, digits, "_" and "-"` }
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return { ok: false, message: `value of attribute ${id} must be a string, number or boolean` }
    const text = String(value)
    if (!isText(text, MAX_VALUE_LENGTH)) return { ok: false, message: `value of attribute ${id} must be well-formed text of at most ${MAX_VALUE_LENGTH} characters` }
    values[id] = text
  }
  return { ok: true, key, values: { ...values } }
}
