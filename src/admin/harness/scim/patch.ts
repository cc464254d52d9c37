// SCIM PATCH (RFC 7644 3.5.2) on a User, without I/O: add, replace and remove, with or without a
// path, as Okta and Microsoft Entra send them; the result is validated as a whole User.
import type { User } from '../../../state/redis/access.js'
import { parseUser, ScimError, type UserInput } from './user.js'

const MAX_OPERATIONS = 50

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
    const rawOp = (raw as Record<string, unknown>)['op']
    // Entra sends "Replace", "Add", "Remove": compared without case; anything not a string is refused.
    const op = typeof rawOp === 'string' ? rawOp.toLowerCase() : ''
    const path = (raw as Record<string, unknown>)['path']
    const value = (raw as Record<string, unknown>)['value']
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw new ScimError(400, 'invalidSyntax', `Operations[${i}].op must be add, replace or remove`)
    if (path === undefined || path === null || path === '') {
      if (op === 'remove') throw new ScimError(400, 'noTarget', `Operations[${i}]: remove needs a path`)
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ScimError(400, 'invalidValue', `Operations[${i}].value must be an object when there is no path`)
      for (const [k, v] of Object.entries(value)) {
        // Complex values without a path merge into what is there (RFC 7644 3.5.2.1/.3).
        if (k.toLowerCase() === 'name' && typeof v === 'object' && v !== null && !Array.isArray(v))
          for (const [sub, sv] of Object.entries(v as Record<string, unknown>)) setPath(doc, `name.${sub}`, sv, i, op)
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
    const found = emails.find((e) => typeOf(e) === typed[1]!.toLowerCase())
    if (found) found['value'] = value
    else emails.push({ type: typed[1], value })
    doc['emails'] = emails
  } else if (Object.hasOwn(NAME_PATHS, p)) {
    doc['name'] = { ...(typeof doc['name'] === 'object' && doc['name'] ? doc['name'] : {}), [NAME_PATHS[p]!]: value }
  } else if (p === 'emails' && op === 'add' && Array.isArray(value)) {
    doc['emails'] = [...(Array.isArray(doc['emails']) ? (doc['emails'] as unknown[]) : []), ...(value as unknown[])]
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
  if (typed) {
    if (Array.isArray(doc['emails'])) doc['emails'] = (doc['emails'] as Record<string, unknown>[]).filter((e) => typeOf(e) !== typed[1]!.toLowerCase())
  } else if (Object.hasOwn(NAME_PATHS, p)) {
    if (typeof doc['name'] === 'object' && doc['name']) delete (doc['name'] as Record<string, unknown>)[NAME_PATHS[p]!]
  } else if (p === 'username') throw new ScimError(400, 'mutability', 'userName cannot be removed')
  else if (Object.hasOwn(SIMPLE_PATHS, p)) delete doc[SIMPLE_PATHS[p]!]
  else throw new ScimError(400, 'invalidPath', `Operations[${i}].path ${path} is not a supported attribute`)
}

/** An email's type, lower-cased ('' when absent or not text). */
const typeOf = (e: Record<string, unknown>): string => (typeof e['type'] === 'string' ? e['type'].toLowerCase() : '')
