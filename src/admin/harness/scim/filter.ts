// SCIM filters (RFC 7644 3.4.2.2) on Users and Groups, without I/O: parsed by scim2-parse-filter,
// evaluated with value filters element by element and caseExact false attributes compared without
// case, and planned: the equality conditions an index answers (userName, externalId, an email,
// id; a group's displayName, externalId or member), so a list needs to read only their candidates.
import { filter as compileFilter, parse as parseFilter, type Filter } from 'scim2-parse-filter'
import { acceptAll, type Lookup } from '../../../services/directory.js'
import { nameKey, type Group, type User } from '../../../state/redis/directory.js'
import { ScimError } from './errors.js'

export type ResourceKind = 'User' | 'Group'

export interface CompiledFilter {
  /** Whether a resource (with a group's member ids when the filter names members) matches. */
  readonly test: (resource: User | (Group & { readonly members?: readonly string[] })) => boolean
  /** Index lookups whose union holds every match; undefined when the filter needs a scan. */
  readonly plan: readonly Lookup[] | undefined
  /** Whether the filter names a group's members (they must be read to test it). */
  readonly needsMembers: boolean
}

/** Attributes compared case-insensitively (caseExact false in RFC 7643): both sides go through nameKey. */
const CASELESS: Record<ResourceKind, ReadonlySet<string>> = {
  User: new Set(['username', 'emails.value', 'emails.type']),
  Group: new Set(['displayname']),
}

const MATCH_ALL: CompiledFilter = { test: acceptAll, plan: undefined, needsMembers: false }

/** Parses a filter (1,000 characters at most, no control characters); 400 invalidFilter otherwise. */
function parse(expression: string, kind: ResourceKind | undefined): Filter {
  if (expression.length > 1000) throw new ScimError(400, 'invalidFilter', 'filter is longer than 1000 characters')
  // Control characters are never needed, and newlines make the parser's string pattern backtrack exponentially.
  if (/[\u0000-\u001f\u007f]/.test(expression))
    throw new ScimError(400, 'invalidFilter', 'filter must not contain control characters')
  // `emails[type eq "work"].value eq "x"` must hold for one email: rewrite it as `emails[type eq "work" and value eq
  // "x"]` (the parser would otherwise accept the type and the value from two different emails). Both rewrites apply to
  // the filter's syntax, never inside a quoted value: quoted values are set aside first (control characters, refused
  // above, mark their places) and put back after.
  const quoted: string[] = []
  const urn = kind
    ? new RegExp(`urn:ietf:params:scim:schemas:core:2\\.0:${kind}:`, 'gi')
    : /urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/gi
  const normalized = expression
    .replace(/"(?:[^"\\]|\\.)*"/g, (q) => `\u0000${quoted.push(q) - 1}\u0000`)
    .replace(urn, '')
    .replace(
      /(\w+)\[([^\]]*)\]\.(\w+)\s+(eq|ne|co|sw|ew|gt|ge|lt|le)\s+(\u0000\d+\u0000|[^\s)]+)/gi,
      '$1[($2) and $3 $4 $5]',
    )
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => quoted[Number(i)]!)
  try {
    return parseFilter(normalized)
  } catch (err) {
    throw new ScimError(
      400,
      'invalidFilter',
      `filter cannot be parsed: ${err instanceof Error ? err.message : String(err)}`,
    )
  }
}

/** A filter over Users or Groups: its predicate and its index plan. */
export function resourceFilter(expression: string | undefined, kind: ResourceKind): CompiledFilter {
  if (expression === undefined || expression.trim() === '') return MATCH_ALL
  const ast = lowerCaseless(parse(expression, kind), '', CASELESS[kind])
  const test = evaluator(ast)
  const needsMembers = kind === 'Group' && /members/i.test(expression)
  // `value eq x` is planned only inside a value filter (emails[value eq x]).
  const lookups = plan(ast, kind)
  return {
    plan: lookups?.some((l) => (l.attribute as string) === 'value') ? undefined : lookups,
    needsMembers,
    test: (r) => test(kind === 'User' ? userView(r as User) : groupView(r as Group & { members?: readonly string[] })),
  }
}

/** A filter as a predicate on users (kept for callers that only test). */
export function userFilter(expression: string | undefined): (u: User) => boolean {
  return resourceFilter(expression, 'User').test
}

/** A value filter of a PATCH path (`type eq "work"`, `value eq "<id>"`) as a predicate on one element. */
export function elementFilter(
  expression: string,
  caseless: ReadonlySet<string> = new Set(),
): (element: Record<string, unknown>) => boolean {
  const test = evaluator(lowerCaseless(parse(expression, undefined), '', caseless))
  return (el) =>
    test(
      Object.fromEntries(
        Object.entries(el).map(([k, v]) => [
          k,
          caseless.has(k.toLowerCase()) && typeof v === 'string' ? nameKey(v) : v,
        ]),
      ),
    )
}

function userView(u: User): Record<string, unknown> {
  return {
    ...u,
    userName: nameKey(u.userName),
    // No emails is no value at all (`emails pr` is false), as RFC 7644 3.4.2.2 has it.
    emails: u.emails?.length
      ? u.emails.map((e) => ({
          ...e,
          value: nameKey(e.value),
          ...(e.type !== undefined ? { type: e.type.toLowerCase() } : {}),
        }))
      : undefined,
  }
}

function groupView(g: Group & { members?: readonly string[] }): Record<string, unknown> {
  return {
    ...g,
    displayName: nameKey(g.displayName),
    members: g.members?.length ? g.members.map((value) => ({ value, type: 'User' })) : undefined,
  }
}

type Node = Record<string, unknown>

/** The lookups an `eq` on an indexed attribute gives; `and` needs one side, `or` both. */
function plan(f: Filter, kind: ResourceKind): Lookup[] | undefined {
  const node = f as unknown as Node
  const op = node['op']
  if (op === 'and') {
    for (const child of node['filters'] as Filter[]) {
      const p = plan(child, kind)
      if (p) return p
    }
    return undefined
  }
  if (op === 'or') {
    const parts = (node['filters'] as Filter[]).map((c) => plan(c, kind))
    return parts.every((p) => p !== undefined) ? (parts.flat<(Lookup[] | undefined)[]>() as Lookup[]) : undefined
  }
  if (op === '[]') {
    const attr = String(node['attrPath']).toLowerCase()
    const inner = plan(node['valFilter'] as Filter, kind)
    const value = inner?.length === 1 && inner[0]!.attribute === ('value' as string) ? inner[0]!.value : undefined
    if (value === undefined) return undefined
    if (kind === 'User' && attr === 'emails') return [{ attribute: 'email', value }]
    if (kind === 'Group' && attr === 'members') return [{ attribute: 'member', value }]
    return undefined
  }
  if (op !== 'eq' || typeof node['compValue'] !== 'string') return undefined
  const attr = String(node['attrPath']).toLowerCase()
  const value = node['compValue']
  const byAttr: Record<string, Lookup['attribute'] | 'value'> =
    kind === 'User'
      ? { id: 'id', username: 'userName', externalid: 'externalId', 'emails.value': 'email', value: 'value' }
      : { id: 'id', displayname: 'displayName', externalid: 'externalId', 'members.value': 'member', value: 'value' }
  const attribute = byAttr[attr]
  return attribute ? [{ attribute: attribute as Lookup['attribute'], value }] : undefined
}

/**
 * The library's evaluator, except for value filters (`emails[type eq "work" and value eq "x"]`):
 * it tests those against the whole array, so two different emails could satisfy the two halves.
 * Here each element is tested on its own.
 */
function evaluator(f: Filter): (o: unknown) => boolean {
  const node = f as unknown as Node
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

/** The filter with the values of caseless attributes lower-cased (the resource's are, by the views above). */
function lowerCaseless(f: Filter, parent: string, caseless: ReadonlySet<string>): Filter {
  const node = f as unknown as Node
  const attr = node['attrPath']
  const path = `${parent}${typeof attr === 'string' ? attr.toLowerCase() : ''}`
  if (Array.isArray(node['filters']))
    return {
      ...node,
      filters: (node['filters'] as Filter[]).map((c) => lowerCaseless(c, parent, caseless)),
    } as unknown as Filter
  if (node['filter'])
    return { ...node, filter: lowerCaseless(node['filter'] as Filter, parent, caseless) } as unknown as Filter
  if (node['valFilter'])
    return { ...node, valFilter: lowerCaseless(node['valFilter'] as Filter, `${path}.`, caseless) } as unknown as Filter
  if (typeof node['compValue'] === 'string' && caseless.has(path))
    return { ...node, compValue: nameKey(node['compValue']) } as unknown as Filter
  return f
}
