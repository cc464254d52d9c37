// Segments: create (endpoint 2), list (3), delete (10) at workspace level; activate (6), upload keys
// (7), read keys (8), remove keys (9) and deactivate (11) in an environment; the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { HttpError } from '../edge/errors.js'
import { AUDIT_MAX_ENTRIES, type AuditEntry, type Segment, type SegmentDefinition, type SegmentStore } from '../state/segments.js'
import type { Store, Workspace } from '../state/store.js'
import { isKeyText, isText, MAX_KEY_LENGTH } from '../edge/text.js'
import { objectBody, paging, type AdminAccess } from './split-access.js'

export const MAX_KEYS_PER_UPDATE = 10_000
export const MAX_KEYS_PER_SEGMENT = 100_000
const SEGMENT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/
const MAX_DESCRIPTION = 1024
const MAX_COMMENT = 1024
/** 10,000 keys of 250 characters, JSON-quoted, fit comfortably. */
const KEYS_BODY_LIMIT = 4 * 1024 * 1024

export interface SegmentRoutesOptions {
  readonly access: AdminAccess
  readonly store: Store
  readonly segments: SegmentStore
}

type EnvParams = { Params: { env: string; name: string } }
type WsParams = { Params: { ws: string; name: string } }

export async function segmentRoutes(app: FastifyInstance, opts: SegmentRoutesOptions): Promise<void> {
  const { access, store, segments } = opts

  const segmentOf = async (ws: Workspace, name: string): Promise<Segment> => {
    const segment = SEGMENT_NAME.test(name) ? await segments.get(ws.id, name) : undefined
    if (!segment) throw new HttpError('NOT_FOUND', `segment ${name} not found in workspace ${ws.id}`)
    return segment
  }
  const audit = (request: FastifyRequest, action: AuditEntry['action'], env: { id: string; name: string } | null, text: { comment?: string | null; title?: string | null } = {}): AuditEntry => ({
    at: Date.now(),
    who: access.actor(request),
    action,
    environment: env ? { id: env.id, name: env.name } : null,
    comment: text.comment ?? null,
    title: text.title ?? null,
  })

  // Endpoint 2: create a segment for a traffic type (given by name, or id) of the workspace.
  app.post<{ Params: { ws: string; trafficType: string } }>('/segments/ws/:ws/trafficTypes/:trafficType', async (request) => {
    const ws = await access.workspace(request, request.params.ws, 'segments')
    const body = objectBody(request.body)
    const name = body['name']
    const description = body['description'] ?? ''
    const problems: { field: string; problem: string }[] = []
    if (typeof name !== 'string' || !SEGMENT_NAME.test(name)) problems.push({ field: 'name', problem: 'must start with a letter and hold only letters, digits, "-" and "_", at most 100 characters' })
    if (!isText(description, MAX_DESCRIPTION)) problems.push({ field: 'description', problem: `must be a string of at most ${MAX_DESCRIPTION} characters` })
    if (problems.length) throw new HttpError('BAD_REQUEST', problems.map((p) => `${p.field} ${p.problem}`).join('; '), problems)
    const wanted = request.params.trafficType
    const trafficType = (await store.trafficTypes(ws.id)).find((t) => t.name === wanted || t.id === wanted)
    if (!trafficType) throw new HttpError('NOT_FOUND', `traffic type ${wanted} not found in workspace ${ws.id}`)
    const segment: Segment = { name: name as string, description: description as string, trafficType: { id: trafficType.id, name: trafficType.name }, workspaceId: ws.id, creationTime: Date.now() }
    if (!(await segments.create(segment, audit(request, 'create', null)))) throw new HttpError('CONFLICT', `a segment named ${segment.name} already exists in workspace ${ws.id}`)
    request.log.info({ workspaceId: ws.id, segment: segment.name }, 'segment created')
    return segmentView(segment)
  })

  // Endpoint 3: the workspace's segments, paged.
  app.get<{ Params: { ws: string } }>('/segments/ws/:ws', async (request) => {
    const ws = await access.workspace(request, request.params.ws, 'read')
    const { offset, limit } = paging(request.query)
    const page = await segments.list(ws.id, offset, limit)
    return { objects: page.objects.map(segmentView), offset, limit, totalCount: page.totalCount }
  })

  // Segments active in an environment, paged.
  app.get<{ Params: { ws: string; env: string } }>('/segments/ws/:ws/environments/:env', async (request) => {
    const { env, ws } = await access.environment(request, request.params.env, 'read')
    if (ws.id !== request.params.ws) throw new HttpError('NOT_FOUND', `environment ${env.id} not found in workspace ${request.params.ws}`)
    const { offset, limit } = paging(request.query)
    const page = await segments.definitions(env.id, offset, limit)
    const views = await Promise.all(page.objects.map(async (def) => definitionView(def, await segments.get(ws.id, def.name))))
    return { objects: views, offset, limit, totalCount: page.totalCount }
  })

  // Endpoint 10: delete at workspace level, with its definitions and keys in every environment.
  app.delete<WsParams>('/segments/ws/:ws/:name', async (request) => {
    const ws = await access.workspace(request, request.params.ws, 'segments')
    const segment = await segmentOf(ws, request.params.name)
    const outcome = await segments.delete(ws.id, segment.name, access.principal(request).environmentIds)
    if (outcome === 'forbidden') throw new HttpError('FORBIDDEN', `segment ${segment.name} is active in environments this API key may not change`)
    if (outcome === 'missing') throw new HttpError('NOT_FOUND', `segment ${segment.name} not found in workspace ${ws.id}`)
    request.log.info({ workspaceId: ws.id, segment: segment.name, keyId: access.principal(request).id }, 'segment deleted with its definitions, keys and audit log')
    return true
  })

  app.get<WsParams>('/segments/ws/:ws/:name/audit', async (request) => {
    const ws = await access.workspace(request, request.params.ws, 'read')
    return auditPage(request, ws, request.params.name)
  })

  app.get<EnvParams>('/segments/:env/:name/audit', async (request) => {
    const { ws } = await access.environment(request, request.params.env, 'read')
    return auditPage(request, ws, request.params.name)
  })

  // A key restricted to environments sees the workspace-level entries and those of its environments.
  const auditPage = async (request: FastifyRequest, ws: Workspace, name: string) => {
    const segment = await segmentOf(ws, name)
    const { offset, limit } = paging(request.query)
    const restricted = access.principal(request).environmentIds !== undefined
    let page = await segments.audit(ws.id, segment.name, restricted ? 0 : offset, restricted ? AUDIT_MAX_ENTRIES : limit)
    if (restricted) {
      const visible = page.objects.filter((e) => e.environment === null || access.mayUseEnvironment(request, e.environment.id))
      page = { objects: visible.slice(offset, offset + limit), totalCount: visible.length }
    }
    return { objects: page.objects.map((e) => ({ ...e, at: new Date(e.at).toISOString() })), offset, limit, totalCount: page.totalCount }
  }

  // Endpoint 6: activate in an environment. The body (Split's Python client sends "") is ignored.
  app.post<EnvParams>('/segments/:env/:name', async (request) => {
    const { env, ws } = await access.environment(request, request.params.env, 'segments')
    const segment = await segmentOf(ws, request.params.name)
    const now = Date.now()
    const outcome = await segments.activate(ws.id, segment.name, env, now, audit(request, 'activate', env))
    if (outcome === 'no-segment') throw new HttpError('NOT_FOUND', `segment ${segment.name} not found in workspace ${ws.id}`)
    if (outcome === 'active') throw new HttpError('CONFLICT', `segment ${segment.name} is already active in environment ${env.name}`)
    const def = await segments.definition(env.id, segment.name)
    if (!def) throw new HttpError('CONFLICT', `segment ${segment.name} was deactivated while being activated`)
    return definitionView(def, segment)
  })

  // Endpoint 11: deactivate in one environment; only once the segment has no keys there.
  app.delete<EnvParams>('/segments/:env/:name', async (request) => {
    const { env, ws } = await access.environment(request, request.params.env, 'segments')
    const segment = await segmentOf(ws, request.params.name)
    const outcome = await segments.deactivate(ws.id, env.id, segment.name, audit(request, 'deactivate', env))
    if (!outcome.ok && outcome.reason === 'not-active') throw new HttpError('NOT_FOUND', `segment ${segment.name} is not active in environment ${env.name}`)
    if (!outcome.ok) throw new HttpError('CONFLICT', `segment ${segment.name} still has ${outcome.keys} keys in environment ${env.name}; remove them before deactivating`)
    return true
  })

  // Endpoint 7, both forms: the spec's bare array on /upload, and {keys, comment, title} with
  // ?replace= on /uploadKeys. Both also take a key file (text/csv).
  const upload = async (request: FastifyRequest<EnvParams>) => {
    const { env, ws } = await access.environment(request, request.params.env, 'segments')
    const segment = await segmentOf(ws, request.params.name)
    const { keys, comment, title } = keysInput(request.body, request.query, { allowBareArray: true })
    const replace = booleanQuery(request.query, 'replace')
    requireTitleAndComments(ws, { comment, title })
    const distinct = [...new Set(keys)]
    const outcome = await segments.upload(ws.id, env.id, segment.name, distinct, replace, MAX_KEYS_PER_SEGMENT, audit(request, replace ? 'replace' : 'upload', env, { comment, title }))
    if (!outcome.ok && outcome.reason === 'not-active') throw new HttpError('NOT_FOUND', `segment ${segment.name} is not active in environment ${env.name}; activate it first`)
    if (!outcome.ok) {
      throw new HttpError('BAD_REQUEST', `a segment holds at most ${MAX_KEYS_PER_SEGMENT} keys per environment; this upload would make ${outcome.total}, so nothing was applied`, [
        { field: 'keys', problem: `segment would hold ${outcome.total} keys; the limit is ${MAX_KEYS_PER_SEGMENT}` },
      ])
    }
    request.log.info({ environmentId: env.id, segment: segment.name, replace, sent: keys.length, added: outcome.added, total: outcome.total }, 'segment keys uploaded')
    const def = await segments.definition(env.id, segment.name)
    if (!def) throw new HttpError('NOT_FOUND', `segment ${segment.name} is not active in environment ${env.name}`)
    return { ...definitionView(def, segment), keysCount: outcome.total }
  }
  app.put<EnvParams>('/segments/:env/:name/upload', { bodyLimit: KEYS_BODY_LIMIT }, upload)
  app.put<EnvParams>('/segments/:env/:name/uploadKeys', { bodyLimit: KEYS_BODY_LIMIT }, upload)

  // Endpoint 8: keys in a stable (lexicographic) order; count is the total.
  app.get<EnvParams>('/segments/:env/:name/keys', async (request) => {
    const { env, ws } = await access.environment(request, request.params.env, 'read')
    const segment = await segmentOf(ws, request.params.name)
    if (!(await segments.definition(env.id, segment.name))) throw new HttpError('NOT_FOUND', `segment ${segment.name} is not active in environment ${env.name}`)
    const { offset, limit } = paging(request.query, 100)
    const page = await segments.keys(env.id, segment.name, offset, limit)
    return { keys: page.objects.map((key) => ({ key })), openChangeRequestId: null, count: page.totalCount, offset, limit }
  })

  // Endpoint 9: remove keys; the comment goes to the audit log.
  app.put<EnvParams>('/segments/:env/:name/removeKeys', { bodyLimit: KEYS_BODY_LIMIT }, async (request) => {
    const { env, ws } = await access.environment(request, request.params.env, 'segments')
    const segment = await segmentOf(ws, request.params.name)
    const { keys, comment, title } = keysInput(request.body, request.query, { allowBareArray: false })
    requireTitleAndComments(ws, { comment })
    const result = await segments.removeKeys(ws.id, env.id, segment.name, [...new Set(keys)], audit(request, 'removeKeys', env, { comment, title }))
    if (!result) throw new HttpError('NOT_FOUND', `segment ${segment.name} is not active in environment ${env.name}`)
    request.log.info({ environmentId: env.id, segment: segment.name, removed: result.removed }, 'segment keys removed')
    return { code: 200, message: `${result.removed} ${result.removed === 1 ? 'key was' : 'keys were'} deleted`, details: null, transactionId: null }
  })
}

function segmentView(s: Segment) {
  return { name: s.name, description: s.description, trafficType: s.trafficType, creationTime: s.creationTime, tags: null }
}

function definitionView(def: SegmentDefinition, segment: Segment | undefined) {
  return {
    name: def.name,
    description: segment?.description ?? '',
    environment: def.environment,
    environmentURN: { type: 'Environment', id: def.environment.id, name: def.environment.name },
    trafficType: segment?.trafficType ?? null,
    status: def.status,
    creationTime: def.creationTime,
    lastUpdateTime: def.lastUpdateTime,
    type: 'Segment',
  }
}

/**
 * Keys from a JSON body ({keys, comment, title}, or a bare array) or a key file (comment and title
 * then come from the query); 400 names the problem.
 */
function keysInput(body: unknown, query: unknown, { allowBareArray }: { allowBareArray: boolean }): { keys: string[]; comment: string | null; title: string | null } {
  let raw: unknown
  let comment: unknown = null
  let title: unknown = null
  if (typeof body === 'object' && body !== null && 'csv' in body && typeof body.csv === 'string') {
    raw = parseKeyFile(body.csv)
    const q = (query ?? {}) as Record<string, unknown>
    comment = q['comment'] ?? null
    title = q['title'] ?? null
  } else if (Array.isArray(body) && allowBareArray) raw = body
  else {
    const o = objectBody(body)
    raw = o['keys']
    comment = o['comment'] ?? null
    title = o['title'] ?? null
  }
  if (!Array.isArray(raw)) throw new HttpError('BAD_REQUEST', 'keys must be an array of strings', [{ field: 'keys', problem: 'must be an array of strings' }])
  if (raw.length > MAX_KEYS_PER_UPDATE) {
    throw new HttpError('BAD_REQUEST', `at most ${MAX_KEYS_PER_UPDATE} keys per call; got ${raw.length}, nothing was applied`, [{ field: 'keys', problem: `holds ${raw.length} keys; the limit per call is ${MAX_KEYS_PER_UPDATE}` }])
  }
  const problems: { field: string; problem: string }[] = []
  raw.forEach((k: unknown, i) => {
    if (!isKeyText(k)) {
      problems.push({ field: `keys[${i}]`, problem: `must be a string of 1 to ${MAX_KEY_LENGTH} characters without control characters` })
    }
  })
  for (const [field, text] of [['comment', comment], ['title', title]] as const) {
    if (text !== null && !isText(text, MAX_COMMENT)) problems.push({ field, problem: `must be a string of at most ${MAX_COMMENT} characters` })
  }
  if (problems.length) throw new HttpError('BAD_REQUEST', `${problems.length} invalid input(s), nothing was applied: ${problems.slice(0, 5).map((p) => `${p.field} ${p.problem}`).join('; ')}`, problems.slice(0, 100))
  return { keys: raw as string[], comment: comment as string | null, title: title as string | null }
}

/** A key file: one key per line, an optional `key` header, optional double quotes around a key. */
export function parseKeyFile(text: string): string[] {
  const keys: string[] = []
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    let key = line.trim()
    if (key === '' || (i === 0 && key.toLowerCase().replace(/^\ufeff/, '') === 'key')) continue
    if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) key = key.slice(1, -1).replaceAll('""', '"')
    keys.push(key)
  }
  return keys
}

/** `true`/`True`/`false`/`False` (as Split's clients send) or absent (false). */
function booleanQuery(query: unknown, name: string): boolean {
  const raw = (query as Record<string, unknown> | undefined)?.[name]
  if (raw === undefined || raw === '') return false
  if (typeof raw === 'string' && /^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true'
  throw new HttpError('BAD_REQUEST', `${name} must be true or false`, [{ field: name, problem: 'must be true or false' }])
}

/** In a workspace that requires them, the given texts (comment, and title where the call has one) must be filled. */
function requireTitleAndComments(ws: Workspace, texts: { comment: string | null; title?: string | null }): void {
  if (!ws.requiresTitleAndComments) return
  const missing = Object.entries(texts).filter(([, v]) => !v?.trim()).map(([field]) => field)
  if (missing.length) throw new HttpError('BAD_REQUEST', `workspace ${ws.name} requires a title and a comment on every change`, missing.map((field) => ({ field, problem: 'is required in this workspace' })))
}
