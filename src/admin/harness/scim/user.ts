// SCIM 2.0 Users (RFC 7643 / 7644) without I/O: input validation, PATCH operations, filters (parsed
// by scim2-parse-filter), paging, and the resource views.
import { filter as compileFilter, parse as parseFilter, type Filter } from 'scim2-parse-filter'
import { userNameKey, type User } from '../../../state/redis/access.js'
import { isText } from '../../../shared/text.js'

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const MAX_PAGE = 200
const DEFAULT_PAGE = 100
const MAX_TEXT = 256
const MAX_EMAILS = 10
const MAX_OPERATIONS = 50

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
  }) as UserInput
}

/** The user as a plain SCIM object (input attributes only), for PATCH to work on. */
function toInput(user: User): Record<string, unknown> {
  const { userName, externalId, name, displayName, emails, active } = user
  return JSON.parse(JSON.stringify({ userName, externalId, name, displayName, emails, active })) as Record<string, unknown>
}

const SIMPLE_PATHS: Record<string, string> = { username: 'userName', externalid: 'externalId', displayname: 'displayName', active: 'active', emails: 'emails', name: 'name' }
const NAME_PATHS: Record<string, string> = { 'name.givenname': 'givenName', 'name.familyname': 'familyName', 'name.formatted': 'formatted' }
const TYPED_EMAIL = /^emails\[type eq "([^"]{1,32})"\]\.value$/i

/** Applies a PatchOp (add, replace, remove) and validates the result as a whole. */
export function applyPatch(user: User, body: unknown): UserInput {
  if (typeof body !== 'object' || body === null) throw new ScimError(400, 'invalidSyntax', 'body must be a PatchOp')
  const ops = (body as Record<string, unknown>)['Operations'] ?? (body as Record<string, unknown>)['operations']
  if (!Array.isArray(ops) || ops.length === 0 || ops.length > MAX_OPERATIONS) throw new ScimError(400, 'invalidSyntax', `Operations must be an array of 1 to ${MAX_OPERATIONS}`)
  const doc = toInput(user)
  for (const [i, raw] of ops.entries()) {
    if (typeof raw !== 'object' || raw === null) throw new ScimError(400, 'invalidSyntax', `Operations[${i}] must be an object`)
    const op = String((raw as Record<string, unknown>)['op'] ?? '').toLowerCase()
    const path = (raw as Record<string, unknown>)['path']
    const value = (raw as Record<string, unknown>)['value']
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw new ScimError(400, 'invalidSyntax', `Operations[${i}].op must be add, replace or remove`)
    if (path === undefined || path === null || path === '') {
      if (op === 'remove') throw new ScimError(400, 'noTarget', `Operations[${i}]: remove needs a path`)
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ScimError(400, 'invalidValue', `Operations[${i}].value must be an object when there is no path`)
      for (const [k, v] of Object.entries(value)) {
        // Complex values without a path merge into what is there (RFC 7644 3.5.2.1/.3).
        if (k.toLowerCase() === 'name' && typeof v === 'object' && v !== null && !Array.isArray(v)) for (const [sub, sv] of Object.entries(v)) setPath(doc, `name.${sub}`, sv, i, op)
        else setPath(doc, k, v, i, op)
      }
      continue
    }
    if (typeof path !== 'string') throw new ScimError(400, 'invalidPath', `Operations[${i}].path must be a string`)
    if (op === 'remove') removePath(doc, path, i)
    else setPath(doc, path, value, i, op)
  }
  return parseUser(doc)
}

const CORE_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:user:/
/** Attributes of other schemas (e.g. the enterprise extension Entra maps by default) are not kept. */
const isOtherSchema = (p: string) => p.startsWith('urn:')

function setPath(doc: Record<string, unknown>, path: string, value: unknown, i: number, op: string): void {
  const p = path.toLowerCase().replace(CORE_PREFIX, '')
  if (isOtherSchema(p)) return
  const typed = TYPED_EMAIL.exec(p)
  if (typed) {
    const emails = Array.isArray(doc['emails']) ? (doc['emails'] as Record<string, unknown>[]) : []
    const found = emails.find((e) => String(e['type'] ?? '').toLowerCase() === typed[1]!.toLowerCase())
    if (found) found['value'] = value
    else emails.push({ type: typed[1], value })
    doc['emails'] = emails
  } else if (Object.hasOwn(NAME_PATHS, p)) {
    doc['name'] = { ...(typeof doc['name'] === 'object' && doc['name'] ? doc['name'] : {}), [NAME_PATHS[p]!]: value }
  } else if (p === 'emails' && op === 'add' && Array.isArray(value)) {
    doc['emails'] = [...(Array.isArray(doc['emails']) ? doc['emails'] : []), ...value]
  } else if (p === 'name' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [sub, sv] of Object.entries(value)) setPath(doc, `name.${sub}`, sv, i, op)
  } else if (Object.hasOwn(SIMPLE_PATHS, p)) {
    doc[SIMPLE_PATHS[p]!] = value
  } else if (p === 'schemas' || p === 'meta' || p === 'id') {
    // read-only or not an attribute to change: ignored, as RFC 7644 3.5.2 allows for read-only ones
  } else {
    throw new ScimError(400, 'invalidPath', `Operations[${i}].path ${path} is not a supported attribute`)
  }
}

function removePath(doc: Record<string, unknown>, path: string, i: number): void {
  const p = path.toLowerCase().replace(CORE_PREFIX, '')
  if (isOtherSchema(p)) return
  const typed = TYPED_EMAIL.exec(p)
  if (typed && Array.isArray(doc['emails'])) doc['emails'] = (doc['emails'] as Record<string, unknown>[]).filter((e) => String(e['type'] ?? '').toLowerCase() !== typed[1]!.toLowerCase())
  else if (Object.hasOwn(NAME_PATHS, p)) {
    if (typeof doc['name'] === 'object' && doc['name']) delete (doc['name'] as Record<string, unknown>)[NAME_PATHS[p]!]
  } else if (p === 'username') throw new ScimError(400, 'mutability', 'userName cannot be removed')
  else if (Object.hasOwn(SIMPLE_PATHS, p)) delete doc[SIMPLE_PATHS[p]!]
  else throw new ScimError(400, 'invalidPath', `Operations[${i}].path ${path} is not a supported attribute`)
}

/** A filter as a predicate; userName and email values compare case-insensitively (caseExact false). */
export function userFilter(expression: string | undefined): (u: User) => boolean {
  if (expression === undefined || expression.trim() === '') return () => true
  if (expression.length > 1000) throw new ScimError(400, 'invalidFilter', 'filter is longer than 1000 characters')
  // Control characters are never needed, and newlines make the parser's string pattern backtrack exponentially.
  if (/[\u0000-\u001f\u007f]/.test(expression)) throw new ScimError(400, 'invalidFilter', 'filter must not contain control characters')
  // `emails[type eq "work"].value eq "x"` must hold for one email: rewrite it as `emails[type eq "work" and value eq "x"]`
  // (the parser would otherwise accept the type and the value from two different emails).
  const normalized = expression
    .replace(/urn:ietf:params:scim:schemas:core:2\.0:User:/gi, '')
    .replace(/(\w+)\[([^\]]*)\]\.(\w+)\s+(eq|ne|co|sw|ew|gt|ge|lt|le)\s+("(?:[^"\\]|\\.)*"|[^\s)]+)/gi, '$1[($2) and $3 $4 $5]')
  let ast: Filter
  try {
    ast = parseFilter(normalized)
  } catch (err) {
    throw new ScimError(400, 'invalidFilter', `filter cannot be parsed: ${err instanceof Error ? err.message : String(err)}`)
  }
  const test = evaluator(lowerCaseInsensitive(ast, ''))
  return (u) =>
    test({
      ...u,
      userName: userNameKey(u.userName),
      emails: (u.emails ?? []).map((e) => ({ ...e, value: userNameKey(e.value), ...(e.type !== undefined ? { type: e.type.toLowerCase() } : {}) })),
    })
}

/**
 * The library's evaluator, except for value filters (`emails[type eq "work" and value eq "x"]`):
 * it tests those against the whole array, so two different emails could satisfy the two halves.
 * Here each element is tested on its own.
 */
function evaluator(f: Filter): (o: unknown) => boolean {
  const node = f as unknown as Record<string, unknown>
  switch (node['op']) {
    case 'and': {
      const parts = (node['filters'] as Filter[]).map(evaluator)
      return (o) => parts.every((p) => p(o))
    }
    case 'or': {
      const parts = (node['filters'] as Filter[]).map(evaluator)
      return (o) => parts.some((p) => p(o))
    }
    case 'not': {
      const inner = evaluator(node['filter'] as Filter)
      return (o) => !inner(o)
    }
    case '[]': {
      const inner = evaluator(node['valFilter'] as Filter)
      const attr = String(node['attrPath']).toLowerCase()
      return (o) => {
        if (typeof o !== 'object' || o === null) return false
        const key = Object.keys(o).find((k) => k.toLowerCase() === attr)
        const value = key === undefined ? undefined : (o as Record<string, unknown>)[key]
        return Array.isArray(value) ? value.some((el) => inner(el)) : inner(value)
      }
    }
    default:
      return compileFilter(f)
  }
}

/** Attributes compared case-insensitively (caseExact false in RFC 7643): both sides go through userNameKey. */
const CASE_INSENSITIVE = new Set(['username', 'emails.value', 'emails.type'])

function lowerCaseInsensitive(f: Filter, parent: string): Filter {
  const node = f as unknown as Record<string, unknown>
  const path = `${parent}${String(node['attrPath'] ?? '').toLowerCase()}`
  if (Array.isArray(node['filters'])) return { ...node, filters: (node['filters'] as Filter[]).map((c) => lowerCaseInsensitive(c, parent)) } as unknown as Filter
  if (node['filter']) return { ...node, filter: lowerCaseInsensitive(node['filter'] as Filter, parent) } as unknown as Filter
  if (node['valFilter']) return { ...node, valFilter: lowerCaseInsensitive(node['valFilter'] as Filter, `${path}.`) } as unknown as Filter
  if (typeof node['compValue'] === 'string' && CASE_INSENSITIVE.has(path)) return { ...node, compValue: userNameKey(node['compValue'] as string) } as unknown as Filter
  return f
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

function lowerKeys(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const [k, v] of Object.entries(o)) out[k.toLowerCase()] = v
  return out
}

function strip<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
}
