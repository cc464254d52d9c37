// Segments: create, list and delete at workspace level; activate, upload keys, read keys, remove keys
// and deactivate in an environment; the audit log. The rules
// and limits are the segment service's; this file maps HTTP to it.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { HttpError } from '../../http/errors.js'
import { parseKeyFile, type SegmentService } from '../../services/segments.js'
import type { Segment, SegmentDefinition } from '../../state/redis/segments.js'
import type { Workspace } from '../../state/redis/tenancy.js'
import type { KeyScope } from '../admin-key.js'
import {
  answer,
  AuditPage,
  CreateSegmentBody,
  DefinitionPage,
  DefinitionView,
  Deleted,
  EnvSegmentParams,
  KeysPage,
  KeysQuery,
  pagingQuery,
  RemoveKeysBody,
  RemoveKeysResult,
  SegmentPage,
  SegmentView,
  splitAnswers,
  UploadBody,
  UploadResult,
  WsEnvParams,
  WsSegmentParams,
  WsTrafficTypeParams,
  ADMIN_SECURITY,
} from './schemas.js'

/** 10,000 keys of 250 characters, JSON-quoted, fit comfortably. */
const KEYS_BODY_LIMIT = 4 * 1024 * 1024
const tags = ['split']

/** A body that may also be a key file (text/csv or text/plain, one key per line). */
const withKeyFile = <T extends Parameters<typeof Type.Union>[0][number]>(json: T) => ({
  content: {
    'application/json': { schema: json },
    'text/csv': { schema: Type.String({ description: 'a key file: one key per line, an optional `key` header' }) },
    'text/plain': { schema: Type.String() },
  },
})

export interface SegmentRoutesOptions {
  readonly scope: KeyScope
  readonly segments: SegmentService
}

export async function segmentRoutes(server: FastifyInstance, opts: SegmentRoutesOptions): Promise<void> {
  await server.register(workspaceSegmentRoutes, opts)
  await server.register(environmentSegmentRoutes, opts)
  await server.register(segmentKeyRoutes, opts)
}

/** At workspace level: create, list (also those active in an environment) and delete; the audit log. */
async function workspaceSegmentRoutes(server: FastifyInstance, opts: SegmentRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const { scope, segments } = opts

  app.post(
    '/segments/ws/:ws/trafficTypes/:trafficType',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Create a segment for a traffic type (name or id) of the workspace',
        params: WsTrafficTypeParams,
        body: CreateSegmentBody,
        response: splitAnswers({ 200: answer('The segment', SegmentView) }, [403, 404, 409]),
      },
    },
    async (request) => {
      const ws = await scope.workspace(request, request.params.ws, 'segments')
      const { name, description } = request.body
      const segment = await segments.create(
        ws,
        { name, description: description ?? '', trafficType: request.params.trafficType },
        scope.actor(request),
      )
      request.log.info({ workspaceId: ws.id, segment: segment.name }, 'segment created')
      return segmentView(segment)
    },
  )

  app.get(
    '/segments/ws/:ws',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "The workspace's segments, paged",
        params: Type.Object({ ws: Type.String() }),
        querystring: pagingQuery(),
        response: splitAnswers({ 200: answer('A page of segments', SegmentPage) }, [404]),
      },
    },
    async (request) => {
      const ws = await scope.workspace(request, request.params.ws, 'read')
      const { offset, limit } = request.query
      const page = await segments.list(ws, offset, limit)
      return { objects: page.objects.map(segmentView), offset, limit, totalCount: page.totalCount }
    },
  )

  app.get(
    '/segments/ws/:ws/environments/:env',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Segments active in an environment, paged',
        params: WsEnvParams,
        querystring: pagingQuery(),
        response: splitAnswers({ 200: answer('A page of segment definitions', DefinitionPage) }, [404]),
      },
    },
    async (request) => {
      const { env, ws } = await scope.environment(request, request.params.env, 'read')
      if (ws.id !== request.params.ws)
        throw new HttpError('NOT_FOUND', `environment ${env.id} not found in workspace ${request.params.ws}`)
      const { offset, limit } = request.query
      const page = await segments.definitions(ws, env, offset, limit)
      const views = await Promise.all(
        page.objects.map(async (def) => definitionView(def, await segments.get(ws, def.name).catch(() => undefined))),
      )
      return { objects: views, offset, limit, totalCount: page.totalCount }
    },
  )

  app.delete(
    '/segments/ws/:ws/:name',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Delete a segment with its definitions and keys in every environment',
        params: WsSegmentParams,
        response: splitAnswers({ 200: answer('Deleted', Deleted) }, [403, 404]),
      },
    },
    async (request) => {
      const ws = await scope.workspace(request, request.params.ws, 'segments')
      await segments.delete(ws, request.params.name, scope.principal(request).environmentIds)
      request.log.info(
        { workspaceId: ws.id, segment: request.params.name, keyId: scope.principal(request).id },
        'segment deleted with its definitions, keys and audit log',
      )
      return true as const
    },
  )

  // A key restricted to environments sees the workspace-level entries and those of its environments.
  const auditPage = async (request: FastifyRequest, ws: Workspace, name: string, offset: number, limit: number) => {
    const page = await segments.audit(ws, name, offset, limit, scope.principal(request).environmentIds)
    return {
      objects: page.objects.map((e) => ({ ...e, at: new Date(e.at).toISOString() })),
      offset,
      limit,
      totalCount: page.totalCount,
    }
  }
  const auditSchema = {
    tags,
    security: ADMIN_SECURITY,
    summary: 'Who changed the segment, when, what and why (newest first)',
    querystring: pagingQuery(),
    response: splitAnswers({ 200: answer('A page of audit entries', AuditPage) }, [404]),
  }
  app.get('/segments/ws/:ws/:name/audit', { schema: { ...auditSchema, params: WsSegmentParams } }, async (request) =>
    auditPage(
      request,
      await scope.workspace(request, request.params.ws, 'read'),
      request.params.name,
      request.query.offset,
      request.query.limit,
    ),
  )
  app.get('/segments/:env/:name/audit', { schema: { ...auditSchema, params: EnvSegmentParams } }, async (request) =>
    auditPage(
      request,
      (await scope.environment(request, request.params.env, 'read')).ws,
      request.params.name,
      request.query.offset,
      request.query.limit,
    ),
  )
}

/** In an environment: activate and deactivate. */
async function environmentSegmentRoutes(server: FastifyInstance, opts: SegmentRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const { scope, segments } = opts

  // The body (Split's Python client sends "") is ignored.
  app.post(
    '/segments/:env/:name',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Activate a segment in an environment',
        params: EnvSegmentParams,
        response: splitAnswers({ 200: answer('The definition in the environment', DefinitionView) }, [403, 404, 409]),
      },
    },
    async (request) => {
      const { env, ws } = await scope.environment(request, request.params.env, 'segments')
      const { segment, definition } = await segments.activate(ws, env, request.params.name, scope.actor(request))
      return definitionView(definition, segment)
    },
  )

  app.delete(
    '/segments/:env/:name',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Deactivate a segment in an environment (once it has no keys there)',
        params: EnvSegmentParams,
        response: splitAnswers({ 200: answer('Deactivated', Deleted) }, [403, 404, 409]),
      },
    },
    async (request) => {
      const { env, ws } = await scope.environment(request, request.params.env, 'segments')
      await segments.deactivate(ws, env, request.params.name, scope.actor(request))
      return true as const
    },
  )
}

/** The keys of a segment in an environment: upload (add or replace), read, remove. */
async function segmentKeyRoutes(server: FastifyInstance, opts: SegmentRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const { scope, segments } = opts

  // Both forms of the key upload: the spec's bare array on /upload, {keys, comment, title} with
  // ?replace= on /uploadKeys, and a key file on either.
  const uploadSchema = {
    tags,
    security: ADMIN_SECURITY,
    summary: 'Add keys (or replace them all with ?replace=true) in one atomic update',
    params: EnvSegmentParams,
    querystring: KeysQuery,
    body: withKeyFile(UploadBody),
    response: splitAnswers(
      { 200: answer('The definition and the keys it now holds', UploadResult) },
      [403, 404, 413, 415],
    ),
  }
  const upload = async (
    request: FastifyRequest<{
      Params: Static<typeof EnvSegmentParams>
      Querystring: Static<typeof KeysQuery>
      Body: Static<typeof UploadBody> | string
    }>,
  ) => {
    const { env, ws } = await scope.environment(request, request.params.env, 'segments')
    const { keys, comment, title } = keysInput(request.body, request.query)
    const replace = request.query.replace?.toLowerCase() === 'true'
    const result = await segments.upload(ws, env, request.params.name, keys, {
      replace,
      comment,
      title,
      actor: scope.actor(request),
    })
    request.log.info(
      {
        environmentId: env.id,
        segment: result.segment.name,
        replace,
        sent: keys.length,
        added: result.added,
        total: result.total,
      },
      'segment keys uploaded',
    )
    return { ...definitionView(result.definition, result.segment), keysCount: result.total }
  }
  app.put('/segments/:env/:name/upload', { bodyLimit: KEYS_BODY_LIMIT, schema: uploadSchema }, upload)
  app.put('/segments/:env/:name/uploadKeys', { bodyLimit: KEYS_BODY_LIMIT, schema: uploadSchema }, upload)

  app.get(
    '/segments/:env/:name/keys',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Keys in a stable (lexicographic) order; count is the total',
        params: EnvSegmentParams,
        querystring: pagingQuery(100),
        response: splitAnswers({ 200: answer('A page of keys', KeysPage) }, [404]),
      },
    },
    async (request) => {
      const { env, ws } = await scope.environment(request, request.params.env, 'read')
      const { offset, limit } = request.query
      const page = await segments.keys(ws, env, request.params.name, offset, limit)
      return {
        keys: page.objects.map((key) => ({ key })),
        openChangeRequestId: null,
        count: page.totalCount,
        offset,
        limit,
      }
    },
  )

  app.put(
    '/segments/:env/:name/removeKeys',
    {
      bodyLimit: KEYS_BODY_LIMIT,
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Remove keys; the comment goes to the audit log',
        params: EnvSegmentParams,
        querystring: KeysQuery,
        body: withKeyFile(RemoveKeysBody),
        response: splitAnswers({ 200: answer('How many keys were removed', RemoveKeysResult) }, [403, 404, 413, 415]),
      },
    },
    async (request) => {
      const { env, ws } = await scope.environment(request, request.params.env, 'segments')
      // A body with content types per media type is typed unknown: the schema above has checked it.
      const { keys, comment, title } = keysInput(request.body as Static<typeof RemoveKeysBody> | string, request.query)
      const result = await segments.removeKeys(ws, env, request.params.name, keys, {
        comment,
        title,
        actor: scope.actor(request),
      })
      request.log.info(
        { environmentId: env.id, segment: request.params.name, removed: result.removed },
        'segment keys removed',
      )
      return {
        code: 200 as const,
        message: `${result.removed} ${result.removed === 1 ? 'key was' : 'keys were'} deleted`,
        details: null,
        transactionId: null,
      }
    },
  )
}

function segmentView(s: Segment) {
  return {
    name: s.name,
    description: s.description,
    trafficType: s.trafficType,
    creationTime: s.creationTime,
    tags: null,
  }
}

function definitionView(def: SegmentDefinition, segment: Segment | undefined) {
  return {
    name: def.name,
    description: segment?.description ?? '',
    environment: def.environment,
    environmentURN: { type: 'Environment' as const, id: def.environment.id, name: def.environment.name },
    trafficType: segment?.trafficType ?? null,
    status: def.status,
    creationTime: def.creationTime,
    lastUpdateTime: def.lastUpdateTime,
    type: 'Segment' as const,
  }
}

/**
 * Keys and audit texts from a validated body: a key file (texts from the query), a bare array, or {keys, comment,
 * title}.
 */
function keysInput(
  body: Static<typeof UploadBody> | string,
  query: Static<typeof KeysQuery>,
): { keys: string[]; comment: string | null; title: string | null } {
  if (typeof body === 'string')
    return { keys: parseKeyFile(body), comment: query.comment ?? null, title: query.title ?? null }
  if (Array.isArray(body)) return { keys: body, comment: null, title: null }
  return { keys: body.keys, comment: body.comment ?? null, title: body.title ?? null }
}
