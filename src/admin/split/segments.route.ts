// Segments: create (endpoint 2), list (3), delete (10) at workspace level; activate (6), upload keys
// (7), read keys (8), remove keys (9) and deactivate (11) in an environment; the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { HttpError } from '../../http/errors.js'
import { MAX_SEGMENT_TEXT, parseKeyFile, SEGMENT_NAME, type SegmentService } from '../../services/segments.js'
import type { Segment, SegmentDefinition } from '../../state/redis/segments.js'
import type { Workspace } from '../../state/redis/store.js'
import { isText } from '../../shared/text.js'
import { objectBody, paging, type AdminAccess } from './access.js'

const MAX_DESCRIPTION = MAX_SEGMENT_TEXT
const MAX_COMMENT = MAX_SEGMENT_TEXT
/** 10,000 keys of 250 characters, JSON-quoted, fit comfortably. */
const KEYS_BODY_LIMIT = 4 * 1024 * 1024

export interface SegmentRoutesOptions {
  readonly access: AdminAccess
  readonly segments: SegmentService
}

type EnvParams = { Params: { env: string; name: string } }
type WsParams = { Params: { ws: string; name: string } }

export async function segmentRoutes(app: FastifyInstance, opts: SegmentRoutesOptions): Promise<void> {
  const { access, segments } = opts

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
    const segment = await segments.create(ws, { name: name as string, description: description as string, trafficType: request.params.trafficType }, access.actor(request))
    request.log.info({ workspaceId: ws.id, segment: segment.name }, 'segment created')
    return segmentView(segment)
  })

  // Endpoint 3: the workspace's segments, paged.
  app.get<{ Params: { ws: string } }>('/segments/ws/:ws', async (request) => {
    const ws = await access.workspace(request, request.params.ws, 'read')
    const { offset, limit } = paging(request.query)
    const page = await segments.list(ws, offset, limit)
    return { objects: page.objects.map(segmentView), offset, limit, totalCount: page.totalCount }
  })

  // Segments active in an environment, paged.
  app.get<{ Params: { ws: string; env: string } }>('/segments/ws/:ws/environments/:env', async (request) => {
    const { env, ws } = await access.environment(request, request.params.env, 'read')
    if (ws.id !== request.params.ws) throw new HttpError('NOT_FOUND', `environment ${env.id} not found in workspace ${request.params.ws}`)
    const { offset, limit } = paging(request.query)
    const page = await segments.definitions(env, offset, limit)
    const views = await Promise.all(page.objects.map(async (def) => definitionView(def, await segments.get(ws, def.name).catch(() => undefined))))
    return { objects: views, offset, limit, totalCount: page.totalCount }
  })

  // Endpoint 10: delete at workspace level, with its definitions and keys in every environment.
  app.delete<WsParams>('/segments/ws/:ws/:name', async (request) => {
    const ws = await access.workspace(request, request.params.ws, 'segments')
    await segments.delete(ws, request.params.name, access.principal(request).environmentIds)
    request.log.info({ workspaceId: ws.id, segment: request.params.name, keyId: access.principal(request).id }, 'segment deleted with its definitions, keys and audit log')
    return true
  })

  // A key restricted to environments sees the workspace-level entries and those of its environments.
  const auditPage = async (request: FastifyRequest, ws: Workspace, name: string) => {
    const { offset, limit } = paging(request.query)
    const page = await segments.audit(ws, name, offset, limit, access.principal(request).environmentIds)
    return { objects: page.objects.map((e) => ({ ...e, at: new Date(e.at).toISOString() })), offset, limit, totalCount: page.totalCount }
  }
  app.get<WsParams>('/segments/ws/:ws/:name/audit', async (request) => auditPage(request, await access.workspace(request, request.params.ws, 'read'), request.params.name))
  app.get<EnvParams>('/segments/:env/:name/audit', async (request) => auditPage(request, (await access.environment(request, request.params.env, 'read')).ws, request.params.name))

  // Endpoint 6: activate in an environment. The body (Split's Python client sends "") is ignored.
  app.post<EnvParams>('/segments/:env/:name', async (request) => {
    const { env, ws } = await access.environment(request, request.params.env, 'segments')
    const { segment, definition } = await segments.activate(ws, env, request.params.name, access.actor(request))
    return definitionView(definition, segment)
  })

  // Endpoint 11: deactivate in one environment; only once the segment has no keys there.
  app.delete<EnvParams>('/segments/:env/:name', async (request) => {
    const { env, ws } = await access.environment(request, request.params.env, 'segments')
    await segments.deactivate(ws, env, request.params.name, access.actor(request))
    return true
  })

  // Endpoint 7, both forms: the spec's bare array on /upload, and {keys, comment, title} with
  // ?replace= on /uploadKeys. Both also take a key file (text/csv).
  const upload = async (request: FastifyRequest<EnvParams>) => {
    const { env, ws } = await access.environment(request, request.params.env, 'segments')
    const { keys, comment, title } = keysInput(request.body, request.query, { allowBareArray: true })
    const replace = booleanQuery(request.query, 'replace')
    const result = await segments.upload(ws, env, request.params.name, keys, { replace, comment, title }, access.actor(request))
    request.log.info({ environmentId: env.id, segment: result.segment.name, replace, sent: keys.length, added: result.added, total: result.total }, 'segment keys uploaded')
    return { ...definitionView(result.definition, result.segment), keysCount: result.total }
  }
  app.put<EnvParams>('/segments/:env/:name/upload', { bodyLimit: KEYS_BODY_LIMIT }, upload)
  app.put<EnvParams>('/segments/:env/:name/uploadKeys', { bodyLimit: KEYS_BODY_LIMIT }, upload)

  // Endpoint 8: keys in a stable (lexicographic) order; count is the total.
  app.get<EnvParams>('/segments/:env/:name/keys', async (request) => {
    const { env, ws } = await access.environment(request, request.params.env, 'read')
    const { offset, limit } = paging(request.query, 100)
    const page = await segments.keys(ws, env, request.params.name, offset, limit)
    return { keys: page.objects.map((key) => ({ key })), openChangeRequestId: null, count: page.totalCount, offset, limit }
  })

  // Endpoint 9: remove keys; the comment goes to the audit log.
  app.put<EnvParams>('/segments/:env/:name/removeKeys', { bodyLimit: KEYS_BODY_LIMIT }, async (request) => {
    const { env, ws } = await access.environment(request, request.params.env, 'segments')
    const { keys, comment, title } = keysInput(request.body, request.query, { allowBareArray: false })
    const result = await segments.removeKeys(ws, env, request.params.name, keys, { comment, title }, access.actor(request))
    request.log.info({ environmentId: env.id, segment: request.params.name, removed: result.removed }, 'segment keys removed')
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
  const problems: { field: string; problem: string }[] = []
  for (const [field, text] of [['comment', comment], ['title', title]] as const) {
    if (text !== null && !isText(text, MAX_COMMENT)) problems.push({ field, problem: `must be a string of at most ${MAX_COMMENT} characters` })
  }
  if (problems.length) throw new HttpError('BAD_REQUEST', `${problems.length} invalid input(s), nothing was applied: ${problems.slice(0, 5).map((p) => `${p.field} ${p.problem}`).join('; ')}`, problems.slice(0, 100))
  return { keys: raw as string[], comment: comment as string | null, title: title as string | null }
}

/** `true`/`True`/`false`/`False` (as Split's clients send) or absent (false). */
function booleanQuery(query: unknown, name: string): boolean {
  const raw = (query as Record<string, unknown> | undefined)?.[name]
  if (raw === undefined || raw === '') return false
  if (typeof raw === 'string' && /^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true'
  throw new HttpError('BAD_REQUEST', `${name} must be true or false`, [{ field: name, problem: 'must be true or false' }])
}
