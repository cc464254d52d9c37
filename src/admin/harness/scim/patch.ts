// SCIM PATCH (RFC 7644 3.5.2) without I/O, for Users and Groups: add, replace and remove, with or
// without a path, on simple, complex and multi-valued attributes, with value filters
// (`emails[type eq "work"].value`, `members[value eq "<id>"]`), as Okta and Microsoft Entra send
// them (Entra's capitalised ops, string booleans, member removal by value list). The result is
// validated as a whole resource.
import type { Group, User } from '../../../state/redis/directory.js'
import { ScimError } from './errors.js'
import { elementFilter } from './filter.js'
import { parseGroup, type GroupWrite } from './group.js'
import { parseUser, type UserInput } from './user.js'

const MAX_OPERATIONS = 50

interface Attribute {
  readonly name: string
  /** Sub-attributes by lower-cased name (complex and multi-valued attributes). */
  readonly subs?: Readonly<Record<string, string>>
  readonly multi?: boolean
  /** Sub-attributes compared without case in value filters. */
  readonly caseless?: ReadonlySet<string>
}

interface ResourceSchema {
  readonly urn: RegExp
  readonly attributes: Readonly<Record<string, Attribute>>
  /** Cannot be removed. */
  readonly required: ReadonlySet<string>
  /** Set by the server; a PATCH may not touch them (id, meta and schemas are ignored). */
  readonly readOnly: ReadonlySet<string>
}

const USER: ResourceSchema = {
  urn: /^urn:ietf:params:scim:schemas:core:2\.0:user:/i,
  attributes: {
    username: { name: 'userName' },
    externalid: { name: 'externalId' },
    displayname: { name: 'displayName' },
    active: { name: 'active' },
    name: { name: 'name', subs: { givenname: 'givenName', familyname: 'familyName', formatted: 'formatted' } },
    emails: {
      name: 'emails',
      multi: true,
      subs: { value: 'value', type: 'type', primary: 'primary' },
      caseless: new Set(['value', 'type']),
    },
  },
  required: new Set(['username']),
  readOnly: new Set(['groups']),
}

const GROUP: ResourceSchema = {
  urn: /^urn:ietf:params:scim:schemas:core:2\.0:group:/i,
  attributes: {
    displayname: { name: 'displayName' },
    externalid: { name: 'externalId' },
    members: { name: 'members', multi: true, subs: { value: 'value', display: 'display', type: 'type', $ref: '$ref' } },
  },
  required: new Set(['displayname']),
  readOnly: new Set(),
}

const IGNORED = new Set(['id', 'meta', 'schemas'])

/** Applies a PatchOp to a user and validates the result (an `active` removed stays absent). */
export function applyPatch(user: User, body: unknown): UserInput {
  const { userName, externalId, name, displayName, emails, active } = user
  const doc = clone({ userName, externalId, name, displayName, emails, active })
  applyOperations(doc, body, USER)
  return parseUser(doc, 'keep')
}

/** Applies a PatchOp to a group and its members (user ids) and validates the result. */
export function applyGroupPatch(
  group: Group,
  members: readonly string[],
  body: unknown,
): { input: GroupWrite['input']; members: readonly string[] } {
  const doc = clone({
    displayName: group.displayName,
    externalId: group.externalId,
    members: members.map((value) => ({ value })),
  })
  applyOperations(doc, body, GROUP)
  const parsed = parseGroup(doc)
  return { input: parsed.input, members: parsed.members ?? [] }
}

function clone(o: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(o)) as Record<string, unknown>
}

function applyOperations(doc: Record<string, unknown>, body: unknown, schema: ResourceSchema): void {
  if (typeof body !== 'object' || body === null) throw new ScimError(400, 'invalidSyntax', 'body must be a PatchOp')
  const ops = (body as Record<string, unknown>)['Operations'] ?? (body as Record<string, unknown>)['operations']
  if (!Array.isArray(ops) || ops.length === 0 || ops.length > MAX_OPERATIONS)
    throw new ScimError(400, 'invalidSyntax', `Operations must be an array of 1 to ${MAX_OPERATIONS}`)
  for (const [i, raw] of ops.entries()) {
    if (typeof raw !== 'object' || raw === null)
      throw new ScimError(400, 'invalidSyntax', `Operations[${i}] must be an object`)
    const o = raw as Record<string, unknown>
    // Entra sends "Replace", "Add", "Remove": compared without case; anything not a string is refused.
    const op = typeof o['op'] === 'string' ? o['op'].toLowerCase() : ''
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw new ScimError(400, 'invalidSyntax', `Operations[${i}].op must be add, replace or remove`)
    const path = o['path']
    const value = o['value']
    if (path === undefined || path === null || path === '') {
      if (op === 'remove') throw new ScimError(400, 'noTarget', `Operations[${i}]: remove needs a path`)
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new ScimError(400, 'invalidValue', `Operations[${i}].value must be an object when there is no path`)
      for (const [key, v] of Object.entries(value)) {
        // Attributes of other schemas (e.g. the enterprise extension Entra maps by default) are not kept.
        if (/^urn:/i.test(key) && !schema.urn.test(`${key}:`)) continue
        apply(doc, schema, { path: parsePath(key, schema, i), op, value: v, index: i, noPath: true })
      }
      continue
    }
    if (typeof path !== 'string' || path.length > 1000)
      throw new ScimError(400, 'invalidPath', `Operations[${i}].path must be a string`)
    if (/^urn:/i.test(path) && !schema.urn.test(path)) continue
    apply(doc, schema, { path: parsePath(path, schema, i), op, value, index: i, noPath: false })
  }
}

interface Path {
  readonly attribute: string
  readonly filter?: string
  readonly sub?: string
}

function parsePath(raw: string, schema: ResourceSchema, i: number): Path {
  const path = raw.replace(schema.urn, '')
  const m = /^([A-Za-z$][\w$-]*)(?:\[(.*)\](?:\.([A-Za-z$][\w$-]*))?|\.([A-Za-z$][\w$-]*))?$/.exec(path)
  if (!m) throw new ScimError(400, 'invalidPath', `Operations[${i}].path ${raw.slice(0, 200)} is not an attribute path`)
  return {
    attribute: m[1]!.toLowerCase(),
    ...(m[2] !== undefined ? { filter: m[2] } : {}),
    ...((m[3] ?? m[4]) !== undefined ? { sub: (m[3] ?? m[4])!.toLowerCase() } : {}),
  }
}

/** One operation of a PATCH: its parsed path, what it does, its value, its index (for errors), if it had a path. */
interface Operation {
  readonly path: Path
  readonly op: 'add' | 'replace' | 'remove'
  readonly value: unknown
  readonly index: number
  readonly noPath: boolean
}

function apply(
  doc: Record<string, unknown>,
  schema: ResourceSchema,
  { path, op, value, index: i, noPath }: Operation,
): void {
  if (IGNORED.has(path.attribute)) return
  if (schema.readOnly.has(path.attribute))
    throw new ScimError(400, 'mutability', `Operations[${i}]: ${path.attribute} is read-only`)
  const attr = own(schema.attributes, path.attribute)
  if (!attr)
    throw new ScimError(400, 'invalidPath', `Operations[${i}].path ${path.attribute} is not a supported attribute`)
  const sub = path.sub === undefined ? undefined : own(attr.subs, path.sub)
  if (path.sub !== undefined && sub === undefined)
    throw new ScimError(400, 'invalidPath', `Operations[${i}].path: ${attr.name} has no sub-attribute ${path.sub}`)
  if (path.filter !== undefined && !attr.multi)
    throw new ScimError(400, 'invalidPath', `Operations[${i}].path: ${attr.name} is not multi-valued`)

  if (!attr.multi && !attr.subs) {
    if (op === 'remove') {
      if (schema.required.has(path.attribute)) throw new ScimError(400, 'mutability', `${attr.name} cannot be removed`)
      delete doc[attr.name]
    } else doc[attr.name] = value
    return
  }
  if (!attr.multi) {
    // A complex attribute (name): a sub-attribute, or the whole of it (merged by add and by a PATCH without path).
    const current = isObject(doc[attr.name]) ? (doc[attr.name] as Record<string, unknown>) : {}
    if (sub !== undefined) {
      if (op === 'remove') delete current[sub]
      else current[sub] = value
      doc[attr.name] = current
    } else if (op === 'remove') delete doc[attr.name]
    else if (!isObject(value))
      throw new ScimError(400, 'invalidValue', `Operations[${i}].value of ${attr.name} must be an object`)
    else doc[attr.name] = op === 'add' || noPath ? { ...current, ...canonical(value, attr) } : canonical(value, attr)
    return
  }

  // A multi-valued attribute (emails, members). Removing from one that is absent changes nothing.
  if (op === 'remove' && !Array.isArray(doc[attr.name]) && path.filter !== undefined) return
  const list = Array.isArray(doc[attr.name]) ? (doc[attr.name] as Record<string, unknown>[]) : []
  const values: unknown[] = (value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value]).map(
    (v) => (isObject(v) ? canonical(v, attr) : v),
  )
  if (path.filter === undefined) {
    if (sub !== undefined) {
      // `emails.value`: every element's sub-attribute.
      if (op === 'remove') list.forEach((el) => delete el[sub])
      else if (list.length === 0) list.push({ [sub]: value })
      else list.forEach((el) => (el[sub] = value))
      doc[attr.name] = list
    } else if (op === 'add') doc[attr.name] = [...list, ...values]
    else if (op === 'replace') doc[attr.name] = values
    else if (values.length > 0) {
      // Entra removes members by listing them: {op: Remove, path: members, value: [{value: id}]}.
      const gone = new Set<unknown>(values.map((v) => (isObject(v) ? v['value'] : v)))
      doc[attr.name] = list.filter((el) => !gone.has(el['value']))
    } else delete doc[attr.name]
    return
  }
  const matches = elementFilter(path.filter, attr.caseless)
  const matching = list.filter((el) => matches(el))
  if (op === 'remove') {
    // Removing the value of an element removes the element: an email or member is its value.
    if (sub === undefined || sub === 'value') doc[attr.name] = list.filter((el) => !matching.includes(el))
    else matching.forEach((el) => delete el[sub])
    return
  }
  if (matching.length === 0) {
    // `emails[type eq "work"].value` on a user without a work email adds one, as Entra expects.
    const seed = simpleEquality(path.filter, attr)
    if (seed === undefined) {
      if (op === 'replace')
        throw new ScimError(400, 'noTarget', `Operations[${i}]: no ${attr.name} value matches ${path.filter}`)
      return
    }
    list.push(
      sub === undefined ? { ...seed, ...(isObject(value) ? canonical(value, attr) : {}) } : { ...seed, [sub]: value },
    )
  } else {
    for (const el of matching) {
      if (sub !== undefined) el[sub] = value
      else if (isObject(value)) Object.assign(el, canonical(value, attr))
    }
  }
  doc[attr.name] = list
}

/** A table's own entry (never one of Object.prototype's, such as constructor). */
const own = <T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined =>
  table && Object.hasOwn(table, key) ? table[key] : undefined

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The value with its sub-attribute names in their canonical case. A complex attribute (name) takes
 * only its own sub-attributes (400 invalidPath otherwise); the elements of a multi-valued one keep
 * what they carry for the resource's validation to pick from. Prototype keys are never copied.
 */
function canonical(value: Record<string, unknown>, attr: Attribute): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const name = own(attr.subs, k.toLowerCase())
    if (name === undefined && !attr.multi)
      throw new ScimError(400, 'invalidPath', `${attr.name} has no sub-attribute ${k.slice(0, 100)}`)
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue
    out[name ?? k] = v
  }
  return out
}

/** `type eq "work"`: the element it describes ({type: 'work'}), to create when none matches. */
function simpleEquality(filter: string, attr: Attribute): Record<string, unknown> | undefined {
  const m = /^\s*([A-Za-z$][\w$-]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter)
  const sub = m && own(attr.subs, m[1]!.toLowerCase())
  return sub ? { [sub]: JSON.parse(`"${m[2]}"`) as string } : undefined
}
