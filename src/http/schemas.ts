// How route schemas are used: every route declares its params, query, body and answers as JSON
// Schema (TypeBox). Bodies are validated as sent (no type coercion, no defaults filled in beyond the
// schema's, nothing removed); path and query values, which are text on the wire, are coerced to the
// declared types. A refused input becomes a 400 naming each field and its problem, in the error
// body of the API the route belongs to (see errors.ts). Answer schemas describe the API (OpenAPI);
// answers are serialized as they are.
import { Ajv, type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifyInstance } from 'fastify'
import type { FieldProblem } from '../shared/errors.js'

const options = { allErrors: true, strict: false, useDefaults: true, removeAdditional: false } as const

export function installSchemaValidation(app: FastifyInstance): void {
  const bodies = addFormats.default(new Ajv({ ...options, coerceTypes: false }))
  const text = addFormats.default(new Ajv({ ...options, coerceTypes: 'array' }))
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodies : text).compile(schema))
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
}


/** At most this many problems are reported for one input. */
const MAX_PROBLEMS = 100

/** Ajv's errors as {field, problem}: the field as a path from the part of the request (`keys[3]`, `name.givenName`). */
export function fieldProblems(errors: readonly ErrorObject[], context: string | undefined): FieldProblem[] {
  const seen = new Set<string>()
  const problems: FieldProblem[] = []
  for (const e of errors) {
    // A union's branches each report; the first branch's errors are enough.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue
    let path = e.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '')
    let problem = e.message ?? 'is invalid'
    if (e.keyword === 'required') path = path ? `${path}.${String(e.params['missingProperty'])}` : String(e.params['missingProperty'])
    if (e.keyword === 'required') problem = 'is required'
    if (e.keyword === 'additionalProperties') {
      path = path ? `${path}.${String(e.params['additionalProperty'])}` : String(e.params['additionalProperty'])
      problem = 'is not a known field'
    }
    if (e.keyword === 'enum') problem = `must be one of ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
    if (e.keyword === 'pattern' && typeof e.parentSchema?.['description'] === 'string') problem = `must be ${e.parentSchema['description']}`
    const field = path || (context === 'body' ? 'body' : (context ?? 'input'))
    const key = `${field}\u0000${problem}`
    if (seen.has(key)) continue
    seen.add(key)
    problems.push({ field, problem })
    if (problems.length >= MAX_PROBLEMS) break
  }
  return problems
}
