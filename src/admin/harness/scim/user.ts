// SCIM 2.0 Users (RFC 7643 / 7644) without I/O: the resource's validation (POST, PUT and the result
// of a PATCH), paging parameters, errors and the resource view. PATCH is patch.ts, filters filter.ts.
import type { User } from '../../../state/redis/access.js'
import { isText } from '../../../shared/text.js'

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const MAX_PAGE = 200
const DEFAULT_PAGE = 100
const MAX_TEXT = 256
const MAX_EMAILS = 10

/** A SCIM error: HTTP status and scimType (RFC 7644 3.12). */
export class ScimError extends Error {
  override readonly name = 'ScimError'
  constructor(
    readonly status: number,
    readonly scimType: string | undefined,
    detail: string,
  ) {
    super(detail)
  }
}

export type UserInput = Omit<User, 'id' | 'created' | 'lastModified' | 'version'>

const text = (v: unknown, field: string, required = false): string | undefined => {
  if (v === undefined || v === null) {
    if (required) throw new ScimError(400, 'invalidValue', `${field} is required`)
    return undefined
  }
  if (!isText(v, MAX_TEXT) || (required && v.trim() === '')) throw new ScimError(400, 'invalidValue', `${field} must be a string of at most ${MAX_TEXT} characters`)
  return v
}

const bool = (v: unknown, field: string): boolean => {
  if (typeof v === 'boolean') return v
  // Microsoft Entra sends "True"/"False" in PATCH values.
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true'
  throw new ScimError(400, 'invalidValue', `${field} must be a boolean`)
}

/** Validates a User as sent to POST or PUT (unknown and read-only attributes are ignored). */
export function parseUser(body: unknown): UserInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ScimError(400, 'invalidSyntax', 'body must be a JSON object (a SCIM User)')
  const b = lowerKeys(body as Record<string, unknown>)
  const userName = text(b['username'], 'userName', true)!
  const rawName = b['name']
  let name: UserInput['name']
  if (rawName !== undefined && rawName !== null) {
    if (typeof rawName !== 'object' || Array.isArray(rawName)) throw new ScimError(400, 'invalidValue', 'name must be an object')
    const n = lowerKeys(rawName as Record<string, unknown>)
    name = strip({ givenName: text(n['givenname'], 'name.givenName'), familyName: text(n['familyname'], 'name.familyName'), formatted: text(n['formatted'], 'name.formatted') })
  }
  const rawEmails = b['emails']
  let emails: UserInput['emails']
  if (rawEmails !== undefined && rawEmails !== null) {
    if (!Array.isArray(rawEmails) || rawEmails.length > MAX_EMAILS) throw new ScimError(400, 'invalidValue', `emails must be an array of at most ${MAX_EMAILS}`)
    emails = rawEmails.map((e: unknown, i) => {
      if (typeof e !== 'object' || e === null) throw new ScimError(400, 'invalidValue', `emails[${i}] must be an object`)
      const o = lowerKeys(e as Record<string, unknown>)
      const value = text(o['value'], `emails[${i}].value`, true)!
      if (!/^[^\s@]+@[^\s@]+$/.test(value)) throw new ScimError(400, 'invalidValue', `emails[${i}].value must be an email address`)
      return strip({ value, type: text(o['type'], `emails[${i}].type`), primary: o['primary'] === undefined ? undefined : bool(o['primary'], `emails[${i}].primary`) })
    })
  }
  return strip({
    userName,
    externalId: text(b['externalid'], 'externalId'),
    name,
    displayName: text(b['displayname'], 'displayName'),
    emails,
    active: b['active'] === undefined || b['active'] === null ? true : bool(b['active'], 'active'),
  })
}

/** startIndex (1-based; below 1 means 1) and count (negative means 0; at most MAX_PAGE). */
export function listParams(query: Record<string, unknown>): { startIndex: number; count: number } {
  const int = (name: string, fallback: number): number => {
    const raw = query[name]
    if (raw === undefined || raw === '') return fallback
    if (typeof raw !== 'string' || !/^-?\d{1,15}$/.test(raw)) throw new ScimError(400, 'invalidValue', `${name} must be an integer`)
    return Number(raw)
  }
  return { startIndex: Math.max(1, int('startIndex', 1)), count: Math.min(MAX_PAGE, Math.max(0, int('count', DEFAULT_PAGE))) }
}

export function userView(u: User, base: string) {
  return {
    schemas: [USER_SCHEMA],
    id: u.id,
    ...(u.externalId !== undefined ? { externalId: u.externalId } : {}),
    userName: u.userName,
    ...(u.name ? { name: u.name } : {}),
    ...(u.displayName !== undefined ? { displayName: u.displayName } : {}),
    ...(u.emails ? { emails: u.emails } : {}),
    active: u.active,
    meta: { resourceType: 'User', created: new Date(u.created).toISOString(), lastModified: new Date(u.lastModified).toISOString(), location: `${base}/Users/${u.id}`, version: `W/"${u.version}"` },
  }
}

export function lowerKeys(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const [k, v] of Object.entries(o)) out[k.toLowerCase()] = v
  return out
}

export function strip<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
}
