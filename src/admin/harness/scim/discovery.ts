// The discovery resources (RFC 7644 4, RFC 7643 5-7): what this SCIM server supports, its resource
// types (User, Group) and their schemas, truthful to what the code does.
import { GROUP_SCHEMA, USER_SCHEMA } from './errors.js'
import { MAX_MEMBERS } from './group.js'
import { MAX_PAGE } from './user.js'

const SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:Schema'

export function serviceProviderConfig(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'JWT bearer token',
        description: "A JWT verified against the account's configured JWKS",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  }
}

const RESOURCE_TYPES = {
  User: { endpoint: '/Users', schema: USER_SCHEMA, description: 'User Account' },
  Group: { endpoint: '/Groups', schema: GROUP_SCHEMA, description: 'Group of users' },
} as const

export type ResourceTypeId = keyof typeof RESOURCE_TYPES
export const RESOURCE_TYPE_IDS = Object.keys(RESOURCE_TYPES) as ResourceTypeId[]

export function resourceType(id: ResourceTypeId, base: string) {
  const t = RESOURCE_TYPES[id]
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id,
    name: id,
    description: t.description,
    endpoint: t.endpoint,
    schema: t.schema,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${id}` },
  }
}

const attr = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  description: name,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
})

const SCHEMAS = {
  [USER_SCHEMA]: {
    name: 'User',
    description: 'User Account',
    attributes: [
      attr('userName', {
        required: true,
        uniqueness: 'server',
        description: 'Unique identifier for the user, case-insensitive',
      }),
      attr('externalId', { caseExact: true }),
      {
        ...attr('name', { type: 'complex' }),
        subAttributes: [attr('givenName'), attr('familyName'), attr('formatted')],
      },
      attr('displayName'),
      {
        ...attr('emails', { type: 'complex', multiValued: true }),
        subAttributes: [attr('value'), attr('type'), attr('primary', { type: 'boolean' })],
      },
      attr('active', { type: 'boolean' }),
      {
        ...attr('groups', {
          type: 'complex',
          multiValued: true,
          mutability: 'readOnly',
          description: 'The groups the user belongs to (change them through the groups)',
        }),
        subAttributes: [
          attr('value', { mutability: 'readOnly' }),
          attr('$ref', { type: 'reference', referenceTypes: ['Group'], mutability: 'readOnly', caseExact: true }),
          attr('display', { mutability: 'readOnly' }),
          attr('type', { mutability: 'readOnly', canonicalValues: ['direct'] }),
        ],
      },
    ],
  },
  [GROUP_SCHEMA]: {
    name: 'Group',
    description: 'Group',
    attributes: [
      attr('displayName', {
        required: true,
        uniqueness: 'server',
        description: 'Unique name of the group, case-insensitive',
      }),
      attr('externalId', { caseExact: true }),
      {
        ...attr('members', {
          type: 'complex',
          multiValued: true,
          description: `The users in the group (at most ${MAX_MEMBERS})`,
        }),
        subAttributes: [
          attr('value', { mutability: 'immutable', caseExact: true }),
          attr('$ref', { type: 'reference', referenceTypes: ['User'], mutability: 'immutable', caseExact: true }),

          attr('type', { mutability: 'immutable', canonicalValues: ['User'] }),
        ],
      },
    ],
  },
} as const

export const SCHEMA_IDS = Object.keys(SCHEMAS)

export function schema(id: string, base: string) {
  const s = SCHEMAS[id as keyof typeof SCHEMAS]
  return s
    ? { schemas: [SCHEMA_URN], id, ...s, meta: { resourceType: 'Schema', location: `${base}/Schemas/${id}` } }
    : undefined
}
