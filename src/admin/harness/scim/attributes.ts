// `attributes` and `excludedAttributes` (RFC 7644 3.4.2.5, 3.9): which attributes of a resource an
// answer holds. Names are case-insensitive and may carry the schema URN
// (`urn:ietf:params:scim:schemas:core:2.0:User:name.givenName`); a sub-attribute keeps its parent
// with only that sub-attribute. `id` and `schemas` are always returned.
import { ScimError } from './errors.js'

const ALWAYS = new Set(['id', 'schemas'])
const MAX_LIST = 2000

/**
 * The attribute paths of a comma-separated list, lower-cased, without the core schema URN. Names of
 * other schemas (an extension's) are dropped: no resource here holds them.
 */
function paths(list: string | undefined, field: string): string[][] | undefined {
  if (list === undefined || list.trim() === '') return undefined
  if (list.length > MAX_LIST) throw new ScimError(400, 'invalidValue', `${field} is longer than ${MAX_LIST} characters`)
  return list.split(',').flatMap((raw) => {
    const name = raw.trim().replace(/^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i, '')
    if (/^urn:/i.test(name)) return []
    if (!/^[A-Za-z$][\w$-]*(\.[A-Za-z$][\w$-]*)?$/.test(name))
      throw new ScimError(400, 'invalidValue', `${field}: "${raw.trim().slice(0, 100)}" is not an attribute name`)
    return [name.toLowerCase().split('.')]
  })
}

export interface Projection {
  readonly attributes?: string
  readonly excludedAttributes?: string
}

/** A function that keeps what the projection asks for; checks the lists once. */
export function projector(p: Projection): <T extends object>(resource: T) => Partial<T> {
  const include = paths(p.attributes, 'attributes')
  const exclude = paths(p.excludedAttributes, 'excludedAttributes')
  if (!include && !exclude) return (resource) => resource
  return (resource) => {
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(resource)) {
      const name = key.toLowerCase()
      if (ALWAYS.has(name)) {
        out[key] = value
        continue
      }
      if (include) {
        const wanted = include.filter((path) => path[0] === name)
        if (wanted.length === 0) continue
        const subs = wanted.filter((path) => path.length > 1).map((path) => path[1]!)
        out[key] = wanted.some((path) => path.length === 1) ? value : pick(value, subs)
        continue
      }
      const dropped = exclude!.filter((path) => path[0] === name)
      if (dropped.some((path) => path.length === 1)) continue
      out[key] = dropped.length
        ? omit(
            value,
            dropped.map((path) => path[1]!),
          )
        : value
    }
    return out as Partial<typeof resource>
  }
}

/** Only the given sub-attributes of a complex value (each element of a multi-valued one). */
function pick(value: unknown, subs: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, subs))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).filter(([k]) => subs.includes(k.toLowerCase())))
}

function omit(value: unknown, subs: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => omit(v, subs))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).filter(([k]) => !subs.includes(k.toLowerCase())))
}
