// Account settings and SCIM as JSON Schema: parameters, bodies, answers, and the error bodies of
// Harness (settings) and of SCIM (RFC 7644 3.12).
import { Type, type TSchema } from 'typebox'
import { answer, errorAnswers, sharedSchema } from '../../http/schemas.js'

export { answer }

const FieldErrors = Type.Array(Type.Object({ fieldId: Type.String(), error: Type.String() }))
/** Harness's error bodies: FAILURE naming the fields of bad input, ERROR otherwise. */
export const HarnessError = sharedSchema(
  'HarnessError',
  Type.Union([
    Type.Object({
      status: Type.Literal('FAILURE'),
      code: Type.String(),
      message: Type.String(),
      correlationId: Type.String(),
      errors: FieldErrors,
    }),
    Type.Object({
      status: Type.Literal('ERROR'),
      code: Type.String(),
      message: Type.String(),
      correlationId: Type.String(),
      detailedMessage: Type.Null(),
      responseMessages: Type.Array(
        Type.Object({
          code: Type.String(),
          level: Type.String(),
          message: Type.String(),
          exception: Type.Null(),
          failureTypes: Type.Array(Type.String()),
        }),
      ),
      metadata: Type.Null(),
    }),
  ]),
)

export const ScimErrorBody = sharedSchema(
  'ScimError',
  Type.Object({
    schemas: Type.Array(Type.String()),
    status: Type.String({ description: 'the HTTP status, as a string' }),
    scimType: Type.Optional(Type.String()),
    detail: Type.String(),
  }),
)

export const SettingsQuery = Type.Object({
  accountIdentifier: Type.String({ minLength: 1, maxLength: 100 }),
  category: Type.Optional(Type.Literal('SCIM')),
})
/** Each item is checked on its own and answered in `data` (updateStatus, errorMessage). */
export const SettingsBody = Type.Array(
  Type.Unknown({ description: '{identifier, value, allowOverrides, updateType: UPDATE | RESTORE}' }),
  { minItems: 1, maxItems: 20 },
)
const Setting = Type.Object({
  identifier: Type.Union([Type.String(), Type.Null()]),
  category: Type.Literal('SCIM'),
  groupIdentifier: Type.String(),
  valueType: Type.String(),
  value: Type.Union([Type.String(), Type.Null()]),
  defaultValue: Type.Null(),
  allowOverrides: Type.Boolean(),
  settingSource: Type.String(),
  isSettingEditable: Type.Boolean(),
})
const nullableInt = Type.Union([Type.Integer(), Type.Null()])
export const SettingsWritten = Type.Object({
  status: Type.Literal('SUCCESS'),
  data: Type.Array(
    Type.Object({
      identifier: Type.Union([Type.String(), Type.Null()]),
      setting: Setting,
      lastModifiedAt: nullableInt,
      effectiveAt: nullableInt,
      updateStatus: Type.Boolean(),
      errorMessage: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  metaData: Type.Null(),
  correlationId: Type.String(),
})
export const SettingsRead = Type.Object({
  status: Type.Literal('SUCCESS'),
  data: Type.Array(
    Type.Object({
      setting: Setting,
      pendingValue: Type.Union([Type.String(), Type.Null()]),
      effectiveAt: nullableInt,
      lastModifiedAt: nullableInt,
    }),
  ),
  metaData: Type.Null(),
  correlationId: Type.String(),
})

export function settingsAnswers(ok: Record<number, TSchema>): Record<number, TSchema> {
  return { ...ok, ...errorAnswers(HarnessError, [400, 401, 403, 503]) }
}

/** A SCIM route's answers: each in application/scim+json, the media type every SCIM answer has (RFC 7644 3.1). */
export function scimAnswers(ok: Record<number, TSchema>, errors: readonly number[] = []): Record<number, TSchema> {
  const answers = { ...ok, ...errorAnswers(ScimErrorBody, [400, 401, 403, 503, ...errors]) }
  return Object.fromEntries(
    Object.entries(answers).map(([status, schema]) => [
      status,
      { description: (schema as { description?: string }).description, content: { [SCIM_MEDIA_TYPE]: { schema } } },
    ]),
  )
}

export const SCIM_MEDIA_TYPE = 'application/scim+json'

export const AccountParams = Type.Object({ account: Type.String({ minLength: 1, maxLength: 100 }) })
export const UserParams = Type.Object({
  account: Type.String({ minLength: 1, maxLength: 100 }),
  id: Type.String({ minLength: 1, maxLength: 200 }),
})
export const ListQuery = Type.Object({
  filter: Type.Optional(Type.String({ description: 'a SCIM filter, e.g. userName eq "ada@example.com"' })),
  startIndex: Type.Optional(Type.String({ description: '1-based index of the first result' })),
  count: Type.Optional(Type.String({ description: 'results per page (at most 200)' })),
  attributes: Type.Optional(
    Type.String({ description: 'comma-separated attributes to return (id and schemas always are)' }),
  ),
  excludedAttributes: Type.Optional(Type.String({ description: 'comma-separated attributes to leave out' })),
})
/** A SearchRequest (RFC 7644 3.4.3): the list parameters in a body, attribute lists as arrays. */
export const SearchBody = Type.Object(
  {
    schemas: Type.Optional(Type.Array(Type.String())),
    filter: Type.Optional(Type.String()),
    startIndex: Type.Optional(Type.Integer()),
    count: Type.Optional(Type.Integer()),
    attributes: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
    excludedAttributes: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  },
  { additionalProperties: true },
)
/**
 * A SCIM User as sent: attribute names are case-insensitive, so the resource is validated by the SCIM code
 * (scim/user.ts).
 */
export const UserBody = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'a SCIM User (urn:ietf:params:scim:schemas:core:2.0:User): userName required; externalId, name, displayName, emails, active',
  },
)
export const GroupBody = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'a SCIM Group (urn:ietf:params:scim:schemas:core:2.0:Group): displayName required; externalId, members [{value: <user id>}]',
  },
)
export const PatchBody = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'a PatchOp: {schemas, Operations: [{op: add | replace | remove, path?, value?}]}',
  },
)

const Email = Type.Object({
  value: Type.String(),
  type: Type.Optional(Type.String()),
  primary: Type.Optional(Type.Boolean()),
})
const Meta = (resourceType: string) =>
  Type.Object({
    resourceType: Type.Literal(resourceType),
    created: Type.String({ format: 'date-time' }),
    lastModified: Type.String({ format: 'date-time' }),
    location: Type.String(),
    version: Type.String(),
  })
// Every attribute but id and schemas is optional in an answer: `attributes` and `excludedAttributes` choose them.
// (The $ref of members and groups is not declared: a property named $ref confuses JSON Schema tools.)
export const User = Type.Object({
  schemas: Type.Array(Type.String()),
  id: Type.String(),
  externalId: Type.Optional(Type.String()),
  userName: Type.Optional(Type.String()),
  name: Type.Optional(
    Type.Object({
      givenName: Type.Optional(Type.String()),
      familyName: Type.Optional(Type.String()),
      formatted: Type.Optional(Type.String()),
    }),
  ),
  displayName: Type.Optional(Type.String()),
  emails: Type.Optional(Type.Array(Type.Partial(Email))),
  active: Type.Optional(Type.Boolean()),
  groups: Type.Optional(
    Type.Array(
      Type.Partial(Type.Object({ value: Type.String(), display: Type.String(), type: Type.Literal('direct') })),
      {
        description: 'read-only: change memberships through the groups',
      },
    ),
  ),
  meta: Type.Optional(Type.Partial(Meta('User'))),
})
export const GroupResource = Type.Object({
  schemas: Type.Array(Type.String()),
  id: Type.String(),
  externalId: Type.Optional(Type.String()),
  displayName: Type.Optional(Type.String()),
  members: Type.Optional(Type.Array(Type.Partial(Type.Object({ value: Type.String(), type: Type.Literal('User') })))),
  meta: Type.Optional(Type.Partial(Meta('Group'))),
})
export const listOf = (item: TSchema) =>
  Type.Object({
    schemas: Type.Array(Type.String()),
    totalResults: Type.Integer(),
    Resources: Type.Array(item),
    startIndex: Type.Integer(),
    itemsPerPage: Type.Integer(),
  })
export const Discovery = Type.Object({ schemas: Type.Array(Type.String()) }, { additionalProperties: true })
