// SCIM filters (RFC 7644 3.4.2.2) on Users, without I/O: parsed by scim2-parse-filter, evaluated
// with value filters element by element and caseExact false attributes compared case-insensitively.
import { filter as compileFilter, parse as parseFilter, type Filter } from 'scim2-parse-filter'
import { userNameKey, type User } from '../../../state/redis/access.js'
import { ScimError } from './user.js'

/** A filter as a predicate; userName and email values compare case-insensitively (caseExact false). */
export function userFilter(expression: string | undefined): (u: User) => boolean {
  if (expression === undefined || expression.trim() === '') return () => true
  if (expression.length > 1000) throw new ScimError(400, 'invalidFilter', 'filter is longer than 1000 characters')
  // Control characters are never needed, and newlines make the parser's string pattern backtrack exponentially.
  if (/[\u0000-\u001f\u007f]/.test(expression)) throw new ScimError(400, 'invalidFilter', 'filter must not contain control characters')
  // `emails[type eq "work"].value eq "x"` must hold for one email: rewrite it as `emails[type eq "work" and value eq "x"]`
  // (the parser would otherwise accept the type and the value from two different emails).
  // Both rewrites apply to the filter's syntax, never inside a quoted value: quoted values are set
  // aside first (control characters, refused above, mark their places) and put back after.
  const quoted: string[] = []
  const normalized = expression
    .replace(/"(?:[^"\\]|\\.)*"/g, (q) => `\u0000${quoted.push(q) - 1}\u0000`)
    .replace(/urn:ietf:params:scim:schemas:core:2\.0:User:/gi, '')
    .replace(/(\w+)\[([^\]]*)\]\.(\w+)\s+(eq|ne|co|sw|ew|gt|ge|lt|le)\s+(\u0000\d+\u0000|[^\s)]+)/gi, '$1[($2) and $3 $4 $5]')
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => quoted[Number(i)]!)
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
      // No emails is no value at all (`emails pr` is false), as RFC 7644 3.4.2.2 has it.
      emails: u.emails?.length ? u.emails.map((e) => ({ ...e, value: userNameKey(e.value), ...(e.type !== undefined ? { type: e.type.toLowerCase() } : {}) })) : undefined,
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
  const attr = node['attrPath']
  const path = `${parent}${typeof attr === 'string' ? attr.toLowerCase() : ''}`
  if (Array.isArray(node['filters'])) return { ...node, filters: (node['filters'] as Filter[]).map((c) => lowerCaseInsensitive(c, parent)) } as unknown as Filter
  if (node['filter']) return { ...node, filter: lowerCaseInsensitive(node['filter'] as Filter, parent) } as unknown as Filter
  if (node['valFilter']) return { ...node, valFilter: lowerCaseInsensitive(node['valFilter'] as Filter, `${path}.`) } as unknown as Filter
  if (typeof node['compValue'] === 'string' && CASE_INSENSITIVE.has(path)) return { ...node, compValue: userNameKey(node['compValue']) } as unknown as Filter
  return f
}
