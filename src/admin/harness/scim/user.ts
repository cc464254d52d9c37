// SCIM 2.0 Users (RFC 7643 / 7644) without I/O: the resource's validation (POST, PUT and the result
// of a PATCH), paging parameters and the resource view. PATCH is patch.ts, filters filter.ts.
import type { User, UserInput } from '../../../state/redis/directory.js'
import { isText } from '../../../shared/text.js'
import { ScimError, USER_SCHEMA } from './errors.js'

export { ERROR_SCHEMA, LIST_SCHEMA, PATCH_SCHEMA, ScimError, USER_SCHEMA } from './errors.js'
export type { UserInput }

export const MAX_PAGE = 200
const DEFAULT_PAGE = 100
const MAX_TEXT = 256
const MAX_EMAILS = 10

export const text = (v: unknown, field: string, required = false): string | undefined => {
  if (v === undefined || v === null) {
    if (required) throw new ScimError(400, 'invalidValue', `${field} is required`)
    return undefined
  }
  if (!isText(v, MAX_TEXT) || (required && v.trim() === ''))
    throw new ScimError(400, 'invalidValue', `${field} must be a string of at most ${MAX_TEXT} characters`)
  return v
}

export const bool = (v: unknown, field: string): boolean => {
  if (typeof v === 'boolean') return v
  // Microsoft Entra sends "True"/"False" in PATCH values.
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true'
  throw new ScimError(400, 'invalidValue', `${field} must be a boolean`)
}

/**
 * Validates a User as sent to POST or PUT (unknown and read-only attributes, such as groups, are
 * ignored). A user sent without `active` is active; after a PATCH that removed it (absentActive
 * 'keep') it stays absent.
 */
export function parseUser(body: unknown, absentActive: 'true' | 'keep' = 'true'): UserInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ScimError(400, 'invalidSyntax', 'body must be a JSON object (a SCIM User)')
  const b = lowerKeys(body as Record<string, unknown>)
  const userName = text(b['username'], 'userName', true)!
  const rawName = b['name']
  let name: UserInput['name']
  if (rawName !== undefined && rawName !== null) {
    if (typeof rawName !== 'object' || Array.isArray(rawName))
      throw new ScimError(400, 'invalidValue', 'name must be an object')
    const n = lowerKeys(rawName as Record<string, unknown>)
    name = strip({
      givenName: text(n['givenname'], 'name.givenName'),
      familyName: text(n['familyname'], 'name.familyName'),
      formatted: text(n['formatted'], 'name.formatted'),
    })
  }
  const rawEmails = b['emails']
  let emails: UserInput['emails']
  if (rawEmails !== undefined && rawEmails !== null) {
    if (!Array.isArray(rawEmails) || rawEmails.length > MAX_EMAILS)
      throw new ScimError(400, 'invalidValue', `emails must be an array of at most ${MAX_EMAILS}`)
    emails = rawEmails.map((e: unknown, i) => {
      if (typeof e !== 'object' || e === null)
        throw new ScimError(400, 'invalidValue', `emails[${i}] must be an object`)
      const o = lowerKeys(e as Record<string, unknown>)
      const value = text(o['value'], `emails[${i}].value`, true)!
      if (!/^[^\s@]+@[^\s@]+$/.test(value))
        throw new ScimError(400, 'invalidValue', `emails[${i}].value must be an email address`)
      return strip({
        value,
        type: text(o['type'], `emails[${i}].type`),
        primary: o['primary'] === undefined ? undefined : bool(o['primary'], `emails[${i}].primary`),
      })
    })
  }
  return strip({
    userName,
    externalId: text(b['externalid'], 'externalId'),
    name,
    displayName: text(b['displayname'], 'displayName'),
    emails,
    active:
      b['active'] === undefined || b['active'] === null
        ? absentActive === 'true'
          ? true
          : undefined
        : bool(b['active'], 'active'),
  })
}

/** startIndex (1-based; below 1 means 1) and count (negative means 0; at most MAX_PAGE). */
export function listParams(query: Record<string, unknown>): { startIndex: number; count: number } {
  const int = (name: string, fallback: number): number => {
    const raw = query[name]
    if (raw === undefined || raw === '') return fallback
    if (typeof raw !== 'string' || !/^-?\d{1,15}$/.test(raw))
      throw new ScimError(400, 'invalidValue', `${name} must be an integer`)
    return Number(raw)
  }
  return {
    startIndex: Math.max(1, int('startIndex', 1)),
    count: Math.min(MAX_PAGE, Math.max(0, int('count', DEFAULT_PAGE))),
  }
}

/** A group a user belongs to, as the user's read-only `groups` attribute lists it. */
export interface UserGroup {
  readonly value: string
  readonly display: string
}

export function userView(u: User, base: string, groups?: readonly UserGroup[]) {
  return {
    schemas: [USER_SCHEMA],
    id: u.id,
    ...(u.externalId !== undefined ? { externalId: u.externalId } : {}),
    userName: u.userName,
    ...(u.name ? { name: u.name } : {}),
    ...(u.displayName !== undefined ? { displayName: u.displayName } : {}),
    ...(u.emails ? { emails: u.emails } : {}),
    ...(u.active !== undefined ? { active: u.active } : {}),
    ...(groups?.length
      ? {
          groups: groups.map((g) => ({
            value: g.value,
            display: g.display,
            $ref: `${base}/Groups/${g.value}`,
            type: 'direct',
          })),
        }
      : {}),
    meta: {
      resourceType: 'User',
      created: new Date(u.created).toISOString(),
      lastModified: new Date(u.lastModified).toISOString(),
      location: `${base}/Users/${u.id}`,
      version: `W/"${u.version}"`,
    },
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
