// Identities: create or update many in one call, and the single-identity calls Split's
// Python client makes (save, patch, delete). Attribute values are stored and returned as strings.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Static } from 'typebox'
import { HttpError } from '../../http/errors.js'
import { ATTRIBUTE_ID, type IdentityStore, type IdentityValues } from '../../state/redis/identities.js'
import type { TenancyStore } from '../../state/redis/tenancy.js'
import { isKeyText, isText, MAX_KEY_LENGTH } from '../../shared/text.js'
import type { KeyScope } from '../admin-key.js'
import {
  answer,
  Deleted,
  IdentitiesBody,
  IdentitiesParams,
  IdentitiesResult,
  Identity,
  IdentityBody,
  IdentityParams,
  splitAnswers,
  ADMIN_SECURITY,
} from './schemas.js'

const MAX_ATTRIBUTES = 100
const MAX_VALUE_LENGTH = 1024
const BODY_LIMIT = 8 * 1024 * 1024

const tags = ['split']

export async function identityRoutes(
  server: FastifyInstance,
  opts: { scope: KeyScope; store: TenancyStore; identities: IdentityStore },
): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const { scope, store, identities } = opts

  /** The traffic type and environment of the path, both in the key's scope and one workspace; else 404. */
  const target = async (request: FastifyRequest, params: Static<typeof IdentitiesParams>) => {
    const { env } = await scope.environment(request, params.env, 'all')
    const tt = await store.trafficType(params.trafficType)
    if (!tt || tt.workspaceId !== env.workspaceId)
      throw new HttpError(
        'NOT_FOUND',
        `traffic type ${params.trafficType} not found in the workspace of environment ${env.id}`,
      )
    return { trafficTypeId: tt.id, environmentId: env.id, organizationId: env.accountId }
  }
  const view = (
    t: { trafficTypeId: string; environmentId: string; organizationId: string },
    key: string,
    values: IdentityValues,
  ) => ({
    key,
    trafficTypeId: t.trafficTypeId,
    environmentId: t.environmentId,
    organizationId: t.organizationId,
    values,
  })

  // Entries are checked one by one: the invalid ones are listed in `failed`, the others saved.
  app.post(
    '/trafficTypes/:trafficType/environments/:env/identities',
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Create or update many identities in one call',
        params: IdentitiesParams,
        body: IdentitiesBody,
        response: splitAnswers(
          { 200: answer('The saved identities, and the refused entries with why', IdentitiesResult) },
          [403, 404, 413],
        ),
      },
    },
    async (request) => {
      const t = await target(request, request.params)
      const stored = new Map<string, IdentityValues>()
      const failed: { object: unknown; status: number; message: string }[] = []
      for (const entry of request.body) {
        const checked = checkIdentity(entry, t)
        if (checked.ok) stored.set(checked.key, checked.values)
        else failed.push({ object: entry, status: 400, message: checked.message })
      }
      await identities.save(
        t.trafficTypeId,
        t.environmentId,
        [...stored].map(([key, values]) => ({ key, values })),
      )
      if (failed.length) request.log.info({ stored: stored.size, failed: failed.length }, 'identities partly refused')
      return {
        objects: [...stored].map(([key, values]) => view(t, key, values)),
        failed,
        metadata: null,
        offset: null,
        limit: null,
        count: null,
        total: null,
      }
    },
  )

  const one = { tags, security: ADMIN_SECURITY, params: IdentityParams }
  app.get(
    '/trafficTypes/:trafficType/environments/:env/identities/:key',
    {
      schema: {
        ...one,
        summary: 'One identity',
        response: splitAnswers({ 200: answer('The identity', Identity) }, [403, 404]),
      },
    },
    async (request) => {
      const t = await target(request, request.params)
      const values = await identities.get(t.trafficTypeId, t.environmentId, request.params.key)
      if (!values) throw new HttpError('NOT_FOUND', `identity ${request.params.key} not found`)
      return view(t, request.params.key, values)
    },
  )

  // Save one: create or replace its values.
  const writeSchema = {
    ...one,
    body: IdentityBody,
    response: splitAnswers({ 200: answer('The identity', Identity) }, [403, 404]),
  }
  app.put(
    '/trafficTypes/:trafficType/environments/:env/identities/:key',
    { schema: { ...writeSchema, summary: 'Create or replace one identity' } },
    async (request) => {
      const t = await target(request, request.params)
      const checked = checkIdentity({ ...request.body, key: request.params.key }, t)
      if (!checked.ok) throw new HttpError('BAD_REQUEST', checked.message)
      await identities.save(t.trafficTypeId, t.environmentId, [{ key: checked.key, values: checked.values }])
      return view(t, checked.key, checked.values)
    },
  )

  // Update: merge the given values into an existing identity.
  const patch = async (
    request: FastifyRequest<{ Params: Static<typeof IdentityParams>; Body: Static<typeof IdentityBody> }>,
  ) => {
    const t = await target(request, request.params)
    const checked = checkIdentity({ ...request.body, key: request.params.key }, t)
    if (!checked.ok) throw new HttpError('BAD_REQUEST', checked.message)
    const merged = await identities.patch(t.trafficTypeId, t.environmentId, checked.key, checked.values)
    if (!merged) throw new HttpError('NOT_FOUND', `identity ${checked.key} not found`)
    return view(t, checked.key, merged)
  }
  app.patch(
    '/trafficTypes/:trafficType/environments/:env/identities/:key',
    { schema: { ...writeSchema, summary: 'Merge values into an existing identity' } },
    patch,
  )
  app.post(
    '/trafficTypes/:trafficType/environments/:env/identities/:key/patch',
    { schema: { ...writeSchema, summary: 'Merge values into an existing identity (the form Split clients call)' } },
    patch,
  )

  app.delete(
    '/trafficTypes/:trafficType/environments/:env/identities/:key',
    {
      schema: {
        ...one,
        summary: 'Delete one identity',
        response: splitAnswers({ 200: answer('Deleted', Deleted) }, [403, 404]),
      },
    },
    async (request) => {
      const t = await target(request, request.params)
      if (!(await identities.delete(t.trafficTypeId, t.environmentId, request.params.key)))
        throw new HttpError('NOT_FOUND', `identity ${request.params.key} not found`)
      return true as const
    },
  )
}

type Checked = { ok: true; key: string; values: IdentityValues } | { ok: false; message: string }

/** One identity as sent: a key, attribute values (numbers, strings or booleans, kept as strings). */
function checkIdentity(entry: unknown, path: { trafficTypeId: string; environmentId: string }): Checked {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return { ok: false, message: 'an identity must be a JSON object {key, values}' }
  const e = entry as Record<string, unknown>
  const key = e['key']
  if (!isKeyText(key))
    return {
      ok: false,
      message: `key must be a string of 1 to ${MAX_KEY_LENGTH} characters without control characters`,
    }
  for (const field of ['trafficTypeId', 'environmentId'] as const) {
    if (e[field] !== undefined && e[field] !== null && e[field] !== path[field])
      return { ok: false, message: `${field} must match the path (${path[field]})` }
  }
  const raw = e['values'] ?? {}
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, message: 'values must be an object of attribute id to value' }
  const entries = Object.entries(raw)
  if (entries.length > MAX_ATTRIBUTES)
    return { ok: false, message: `at most ${MAX_ATTRIBUTES} attributes per identity` }
  const values: Record<string, string> = Object.create(null) as Record<string, string>
  for (const [id, value] of entries) {
    if (!ATTRIBUTE_ID.test(id))
      return {
        ok: false,
        message: `attribute id ${JSON.stringify(id.slice(0, 100))} must start with a letter and hold only letters, digits, "_" and "-"`,
      }
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      return { ok: false, message: `value of attribute ${id} must be a string, number or boolean` }
    const text = String(value)
    if (!isText(text, MAX_VALUE_LENGTH))
      return {
        ok: false,
        message: `value of attribute ${id} must be well-formed text of at most ${MAX_VALUE_LENGTH} characters`,
      }
    values[id] = text
  }
  return { ok: true, key, values: { ...values } }
}
