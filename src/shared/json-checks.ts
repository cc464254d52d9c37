// Checks of parsed JSON that a schema cannot express: nesting depth, numbers JSON.parse turned into
// Infinity (1e400), and strings that are not well-formed UTF-16 (a lone surrogate from a `\ud800`
// escape, which ClickHouse refuses and Redis scripts mangle). A clean value is walked once, without
// bookkeeping, to at most the depth limit; one with a problem is walked again, iteratively, to name
// the first problem and where it is.

/** The default nesting limit of every JSON body (an array or object counts as one level). */
export const MAX_JSON_DEPTH = 64

export interface JsonProblem {
  /** Where: a dot path from the root (`[3].properties.price`), or '' for the root itself. */
  readonly path: string
  readonly problem: string
}

export interface JsonCheckOptions {
  readonly maxDepth?: number
  /** Leave strings unchecked (the caller checks them per record). */
  readonly allowLoneSurrogates?: boolean
}

interface Frame {
  readonly v: unknown
  readonly depth: number
  readonly key: string | number | undefined
  readonly parent: Frame | undefined
}

/** The first problem in a parsed JSON value, or undefined when it is clean. */
export function inspectJson(value: unknown, options: JsonCheckOptions = {}): JsonProblem | undefined {
  // The quick walk recurses as deep as the limit allows: beyond a few hundred levels, only the iterative one.
  const quick = (options.maxDepth ?? MAX_JSON_DEPTH) <= MAX_RECURSIVE_DEPTH
  return quick && isCleanJson(value, options) ? undefined : findJsonProblem(value, options)
}

const MAX_RECURSIVE_DEPTH = 512

/**
 * Whether a value passes inspectJson's checks: a recursive walk that keeps no path, which most
 * values (clean ones) need alone. It recurses to at most maxDepth levels (inspectJson uses it only
 * for limits up to MAX_RECURSIVE_DEPTH).
 */
export function isCleanJson(value: unknown, options: JsonCheckOptions = {}): boolean {
  return clean(value, options.maxDepth ?? MAX_JSON_DEPTH, !options.allowLoneSurrogates, 0)
}

function clean(v: unknown, maxDepth: number, checkStrings: boolean, depth: number): boolean {
  if (typeof v === 'string') return !checkStrings || v.isWellFormed()
  if (typeof v === 'number') return Number.isFinite(v)
  if (v === null || typeof v !== 'object') return true
  if (depth >= maxDepth) return false
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!clean(v[i], maxDepth, checkStrings, depth + 1)) return false
    return true
  }
  for (const k of Object.keys(v)) {
    if (checkStrings && !k.isWellFormed()) return false
    if (!clean((v as Record<string, unknown>)[k], maxDepth, checkStrings, depth + 1)) return false
  }
  return true
}

/** The first problem in a parsed JSON value, with where it is: iterative, so hostile depth cannot exhaust the stack. */
export function findJsonProblem(value: unknown, options: JsonCheckOptions = {}): JsonProblem | undefined {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH
  const checkStrings = !options.allowLoneSurrogates
  const stack: Frame[] = [{ v: value, depth: 0, key: undefined, parent: undefined }]
  while (stack.length > 0) {
    const frame = stack.pop()!
    const { v, depth } = frame
    if (typeof v === 'string') {
      if (checkStrings && !v.isWellFormed())
        return { path: pathOf(frame), problem: 'contains a lone UTF-16 surrogate (malformed Unicode)' }
      continue
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { path: pathOf(frame), problem: 'is a number beyond the range of a double' }
      continue
    }
    if (v === null || typeof v !== 'object') continue
    if (depth + 1 > maxDepth) return { path: pathOf(frame), problem: `nests deeper than ${maxDepth} levels` }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, key: i, parent: frame })
    } else {
      for (const [k, child] of Object.entries(v)) {
        if (checkStrings && !k.isWellFormed())
          return {
            path: pathOf({ v: child, depth, key: k.toWellFormed(), parent: frame }),
            problem: 'is a name with a lone UTF-16 surrogate (malformed Unicode)',
          }
        stack.push({ v: child, depth: depth + 1, key: k, parent: frame })
      }
    }
  }
  return undefined
}

const MAX_PATH_CHARS = 160

/** The dot path of a frame (`[3].properties.price`), cut to a readable length. */
function pathOf(frame: Frame): string {
  const keys: (string | number)[] = []
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) keys.push(f.key)
  let path = ''
  for (const key of keys.reverse()) {
    const segment =
      typeof key === 'number' ? `[${key}]` : `${path ? '.' : ''}${key.length > 64 ? `${key.slice(0, 64)}…` : key}`
    if (path.length + segment.length > MAX_PATH_CHARS) return `${path}…`
    path += segment
  }
  return path
}

/**
 * Where a problem is: its path ("comment", "alerts[2].labels"), under root when it starts at an index or is the root
 * itself.
 */
export function jsonProblemField(root: string, p: JsonProblem): string {
  return p.path === '' || p.path.startsWith('[') ? `${root}${p.path}` : p.path
}

/** Text of a problem for an error message, from the root: "body[3].key contains …", "payload.check nests …". */
export function describeJsonProblem(root: string, p: JsonProblem): string {
  const where = p.path === '' || p.path.startsWith('[') ? `${root}${p.path}` : `${root}.${p.path}`
  return `${where} ${p.problem}`
}

/**
 * JSON text of any value that never throws: too deep or cyclic values become a placeholder, lone
 * surrogates are replaced (U+FFFD), and the text is cut at maxChars. For reasons and raw copies of
 * records that could not be stored.
 */
export function safeJson(value: unknown, maxChars: number, maxDepth = MAX_JSON_DEPTH): string {
  let text: string
  if (typeof value === 'string') text = value
  else if (inspectJson(value, { maxDepth, allowLoneSurrogates: true })?.problem.startsWith('nests'))
    text = `[value nests deeper than ${maxDepth} levels; not kept]`
  else {
    try {
      text = JSON.stringify(value) ?? String(value)
    } catch (err) {
      text = `[value could not be serialized: ${err instanceof Error ? err.message : String(err)}]`
    }
  }
  return (text.length > maxChars ? text.slice(0, maxChars) : text).toWellFormed()
}
