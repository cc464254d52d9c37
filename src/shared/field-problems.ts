// Ajv's errors as the field problems every API answers with (a 400's `details`), whoever validated: the routes' schemas
// (http/schemas.ts) and the services that check a document read from elsewhere (a tracking plan's file).
import type { ErrorObject } from 'ajv'
import type { FieldProblem } from './errors.js'

/** At most this many problems are reported for one input. */
const MAX_PROBLEMS = 100

/** Ajv's errors as {field, problem}: the field as a path into the part of the request (`keys[3]`, `name.givenName`). */
export function fieldProblems(errors: readonly ErrorObject[], context: string | undefined): FieldProblem[] {
  const byField = new Map<string, string[]>()
  // A union reports each branch's errors, then its own. Where a branch of the right type went
  // deeper, the other branches' "must be <type>" at the union's place say nothing useful.
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath)
  const deeper = (at: string) => errors.some((e) => e.instancePath.length > at.length && e.instancePath.startsWith(at))
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue
    if (e.keyword === 'type' && unions.includes(e.instancePath) && deeper(e.instancePath)) continue
    let path = e.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '')
    let problem = e.message ?? 'is invalid'
    const params = e.params as Record<string, unknown>
    const child =
      e.keyword === 'required'
        ? params['missingProperty']
        : e.keyword === 'additionalProperties'
          ? params['additionalProperty']
          : undefined
    if (typeof child === 'string') path = path ? `${path}.${child}` : child
    if (e.keyword === 'required') problem = 'is required'
    if (e.keyword === 'additionalProperties') problem = 'is not a known field'
    if (e.keyword === 'enum')
      problem = `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
    if (e.keyword === 'const') problem = `must be ${JSON.stringify(params['allowedValue'])}`
    const description: unknown = e.parentSchema?.['description']
    if (typeof description === 'string') {
      if (e.keyword === 'pattern') problem = `must be ${description}`
      else if (LIMIT_KEYWORDS.has(e.keyword)) problem = `${problem} (${description})`
    }
    const part = context === 'body' ? 'body' : (context ?? 'input')
    const field = !path ? part : path.startsWith('[') ? `${part}${path}` : path
    // One problem per field: the branches of a union ("must be string", "must be null") are joined.
    const known = byField.get(field)
    if (known) {
      if (!known.includes(problem)) known.push(problem)
      continue
    }
    if (byField.size >= MAX_PROBLEMS) break
    byField.set(field, [problem])
  }
  return [...byField].map(([field, list]) => ({ field, problem: list.join(', or ') }))
}

const LIMIT_KEYWORDS = new Set([
  'maxItems',
  'minItems',
  'maxLength',
  'minLength',
  'maximum',
  'minimum',
  'maxProperties',
])
