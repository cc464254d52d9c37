// The Split Admin API v2 as JSON Schema: path parameters, paging, bodies, answers and Split's error
// body. The routes validate with these and GET /openapi.json describes them.
import { Type, type TSchema } from 'typebox'
import { answer, errorAnswers, sharedSchema } from '../../http/schemas.js'
import { MAX_KEYS_PER_UPDATE, MAX_SEGMENT_TEXT } from '../../services/segments.js'
import { MAX_KEY_LENGTH } from '../../shared/text.js'

/** An admin API key, as a bearer token or in x-api-key. */
export const ADMIN_SECURITY: { [scheme: string]: string[] }[] = [{ adminKey: [] }, { adminKeyHeader: [] }]

export const MAX_PAGE = 200
export const DEFAULT_PAGE = 20

/** Split's error body: the HTTP status as code, field problems in details. */
export const SplitError = sharedSchema(
  'SplitError',
  Type.Object({
    code: Type.Integer({ description: 'the HTTP status' }),
    message: Type.String(),
    details: Type.Union([Type.Array(Type.Object({ field: Type.String(), problem: Type.String() })), Type.Null()]),
    transactionId: Type.String({ description: 'the request id (also in x-request-id)' }),
  }),
)

/** Answers of a Split route: success by status, and Split's error body for the error statuses. */
export function splitAnswers(ok: Record<number, TSchema>, errors: readonly number[] = []): Record<number, TSchema> {
  return { ...ok, ...errorAnswers(SplitError, [400, 401, 429, 503, ...errors]) }
}

const id = (description: string) => Type.String({ minLength: 1, maxLength: 300, description })
export const WsParams = Type.Object({ ws: id('workspace id') })
export const EnvParams = Type.Object({ env: id('environment id') })
export const WsSegmentParams = Type.Object({ ws: id('workspace id'), name: id('segment name') })
export const EnvSegmentParams = Type.Object({ env: id('environment id'), name: id('segment name') })
export const WsEnvParams = Type.Object({ ws: id('workspace id'), env: id('environment id') })
export const WsTrafficTypeParams = Type.Object({ ws: id('workspace id'), trafficType: id('traffic type name or id') })
export const IdentitiesParams = Type.Object({ trafficType: id('traffic type id'), env: id('environment id') })
export const IdentityParams = Type.Object({
  trafficType: id('traffic type id'),
  env: id('environment id'),
  key: Type.String({ minLength: 1, maxLength: MAX_KEY_LENGTH, description: 'identity key' }),
})

export function pagingQuery(defaultLimit = DEFAULT_PAGE) {
  return Type.Object({
    limit: Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE,
      default: defaultLimit,
      description: `page size, 1 to ${MAX_PAGE}`,
    }),
    offset: Type.Integer({ minimum: 0, default: 0, description: 'items to skip' }),
  })
}

const page = <T extends TSchema>(item: T) =>
  Type.Object({ objects: Type.Array(item), offset: Type.Integer(), limit: Type.Integer(), totalCount: Type.Integer() })
const ref = Type.Object({ id: Type.String(), name: Type.String() })

export const WorkspacePage = page(
  Type.Object({
    name: Type.String(),
    type: Type.Literal('workspace'),
    id: Type.String(),
    requiresTitleAndComments: Type.Boolean(),
  }),
)
export const Environments = Type.Array(
  Type.Object({ name: Type.String(), id: Type.String(), production: Type.Boolean() }),
)
export const TrafficTypes = Type.Array(
  Type.Object({ id: Type.String(), name: Type.String(), displayAttributeId: Type.Null() }),
)

export const SegmentView = Type.Object({
  name: Type.String(),
  description: Type.String(),
  trafficType: ref,
  creationTime: Type.Integer({ description: 'epoch ms' }),
  tags: Type.Null(),
})
export const DefinitionView = Type.Object({
  name: Type.String(),
  description: Type.String(),
  environment: ref,
  environmentURN: Type.Object({ type: Type.Literal('Environment'), id: Type.String(), name: Type.String() }),
  trafficType: Type.Union([ref, Type.Null()]),
  status: Type.String(),
  creationTime: Type.Integer(),
  lastUpdateTime: Type.Integer(),
  type: Type.Literal('Segment'),
})
export const UploadResult = Type.Intersect([DefinitionView, Type.Object({ keysCount: Type.Integer() })])
export const SegmentPage = page(SegmentView)
export const DefinitionPage = page(DefinitionView)
export const AuditPage = page(
  Type.Object({
    at: Type.String({ format: 'date-time' }),
    who: ref,
    action: Type.Enum(['create', 'activate', 'upload', 'replace', 'removeKeys', 'deactivate', 'delete']),
    environment: Type.Union([ref, Type.Null()]),
    comment: Type.Union([Type.String(), Type.Null()]),
    title: Type.Union([Type.String(), Type.Null()]),
    count: Type.Optional(Type.Integer()),
  }),
)
export const KeysPage = Type.Object({
  keys: Type.Array(Type.Object({ key: Type.String() })),
  openChangeRequestId: Type.Null(),
  count: Type.Integer(),
  offset: Type.Integer(),
  limit: Type.Integer(),
})
export const Deleted = Type.Literal(true)
export const RemoveKeysResult = Type.Object({
  code: Type.Literal(200),
  message: Type.String(),
  details: Type.Null(),
  transactionId: Type.Null(),
})

export const SEGMENT_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,99}$'
const text = (max: number) => Type.String({ maxLength: max })
const note = Type.Union([text(MAX_SEGMENT_TEXT), Type.Null()])

export const CreateSegmentBody = Type.Object({
  name: Type.String({
    pattern: SEGMENT_NAME_PATTERN,
    description: 'a letter, then letters, digits, "-" and "_", at most 100 characters',
  }),
  description: Type.Optional(Type.Union([text(MAX_SEGMENT_TEXT), Type.Null()])),
})

const Key = Type.String({ minLength: 1, maxLength: MAX_KEY_LENGTH })
const Keys = Type.Array(Key, {
  maxItems: MAX_KEYS_PER_UPDATE,
  description: `at most ${MAX_KEYS_PER_UPDATE} keys per call`,
})
/** Keys with the texts of the audit entry (a key file sends its texts in the query instead). */
export const RemoveKeysBody = Type.Object({ keys: Keys, comment: Type.Optional(note), title: Type.Optional(note) })
/** Keys to upload: the spec's bare array, or {keys, comment, title}. */
export const UploadBody = Type.Union([Keys, RemoveKeysBody])
export const KeysQuery = Type.Object({
  replace: Type.Optional(
    Type.String({ pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$', description: 'true or false (any case)' }),
  ),
  comment: Type.Optional(text(MAX_SEGMENT_TEXT)),
  title: Type.Optional(text(MAX_SEGMENT_TEXT)),
})

const Values = Type.Record(Type.String(), Type.String(), { description: 'attribute id to value (stored as strings)' })
export const Identity = Type.Object({
  key: Type.String(),
  trafficTypeId: Type.String(),
  environmentId: Type.String(),
  organizationId: Type.String(),
  values: Values,
})
/** Identities are checked one by one: a bad entry is listed in `failed`, the others are saved. */
export const IdentitiesBody = Type.Array(Type.Unknown(), {
  maxItems: 10_000,
  description: 'identities {key, values}; at most 10,000 per call',
})
export const IdentitiesResult = Type.Object({
  objects: Type.Array(Identity),
  failed: Type.Array(Type.Object({ object: Type.Unknown(), status: Type.Integer(), message: Type.String() })),
  metadata: Type.Null(),
  offset: Type.Null(),
  limit: Type.Null(),
  count: Type.Null(),
  total: Type.Null(),
})
export const IdentityBody = Type.Object({
  values: Type.Optional(Type.Unknown()),
  trafficTypeId: Type.Optional(Type.Unknown()),
  environmentId: Type.Optional(Type.Unknown()),
  key: Type.Optional(Type.Unknown()),
})

export { answer }
