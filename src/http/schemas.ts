// How route schemas are used: every route declares its params, query, body and answers as JSON
// Schema (TypeBox). Bodies are validated as sent (no type coercion, nothing removed); path and query
// values, which are text on the wire, are coerced to the declared types. A refused input becomes a
// 400 naming each field and its problem, in the error body of the API the route belongs to (see
// errors.ts). Answer schemas describe the API (GET /openapi.json); answers are serialized as they
// are, and with checkAnswers (tests) an answer that does not match its schema is a 500.
import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifyInstance } from 'fastify'
import { Type, type TObject, type TObjectOptions, type TSchema } from 'typebox'

// verbose: errors carry their schema, whose description makes a problem readable ("must be a letter, then ...").
const options = { strict: false, useDefaults: true, removeAdditional: false, verbose: true } as const

/** Schemas shared by several routes (error bodies), referenced as { $ref: '<$id>#' }. */
const shared: TSchema[] = []

/** Adds a shared schema (an error body) and returns a reference to it. */
export function sharedSchema(id: string, schema: TSchema): TSchema {
  shared.push({ ...schema, $id: id })
  return Type.Unsafe({ $ref: `${id}#` })
}

/**
 * Type.Partial of an object, kept closed: TypeBox's Partial (like its Pick, Omit and Required) makes a new object
 * schema without the additionalProperties of the one it is made from, so an input declared with it would take,
 * store and echo fields it does not know (and GET /openapi.json would say so). Input schemas make partial objects
 * with this only.
 */
export function partialObject<T extends TObject>(object: T, options: TObjectOptions = {}) {
  return Type.Partial(object, { ...options, additionalProperties: false })
}

/** Inputs with more values than this are reported by their first problem only. */
const DETAILED_VALUES = 10_000

/** Whether data holds at most `max` values (arrays, objects and scalars), counted without recursion. */
function small(data: unknown, max = DETAILED_VALUES): boolean {
  const stack = [data]
  for (let seen = 0; stack.length > 0; seen++) {
    if (seen > max) return false
    const v = stack.pop()
    if (typeof v === 'object' && v !== null) for (const child of Object.values(v)) stack.push(child)
  }
  return true
}

/**
 * A validator that stops at the first problem, then, for an input of modest size, looks again for
 * all of them: a hostile body of millions of wrong values must not become millions of error objects.
 */
function validator(first: Ajv, all: Ajv, schema: object): ValidateFunction {
  const quick = first.compile(schema)
  let full: ValidateFunction | undefined
  const validate = ((data: unknown) => {
    if (quick(data)) return true
    if (small(data)) {
      full ??= all.compile(schema)
      full(data)
      validate.errors = full.errors
    } else validate.errors = quick.errors
    return false
  }) as ValidateFunction
  return validate
}

export function installSchemaValidation(app: FastifyInstance, checkAnswers = false): void {
  const make = (coerceTypes: false | 'array') =>
    [false, true].map((allErrors) => addFormats.default(new Ajv({ ...options, coerceTypes, allErrors }))) as [Ajv, Ajv]
  const [bodyFirst, bodyAll] = make(false)
  const [textFirst, textAll] = make('array')
  for (const schema of shared) app.addSchema(schema)
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? validator(bodyFirst, bodyAll, schema) : validator(textFirst, textAll, schema),
  )
  if (!checkAnswers) {
    app.setSerializerCompiler(() => (data) => JSON.stringify(data))
    return
  }
  const answers = addFormats.default(new Ajv({ ...options, coerceTypes: false, allErrors: true }))
  for (const schema of shared) answers.addSchema(schema)
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) => {
    let check: ValidateFunction | undefined
    return (data) => {
      check ??= answers.compile(schema)
      // The answer as a client reads it (dates as strings, undefined fields gone).
      const json = JSON.stringify(data)
      if (!check(JSON.parse(json))) {
        throw new Error(
          `the ${httpStatus} answer of ${method} ${url} does not match its schema: ${answers.errorsText(check.errors)}`,
        )
      }
      return json
    }
  })
}

/** What each error status means, for the API description. */
const ERROR_MEANING: Record<number, string> = {
  400: 'The input is invalid; the body names each field and its problem',
  401: 'Missing, unknown or revoked credentials',
  403: 'The credentials do not allow this call',
  404: "No such resource, or one outside the caller's scope (no hint which)",
  409: 'Conflicts with what exists',
  412: 'The resource changed since the version given in If-Match',
  413: 'Over a size or count limit (the message names it)',
  415: 'Content-Type not accepted',
  429: 'Rate limited: retry after Retry-After seconds',
  503: 'A service this call needs is unavailable, or the server is shutting down: nothing was accepted or changed; retry after Retry-After seconds',
}

/** Answer schemas of error statuses, each the API's own error body. */
export function errorAnswers(body: TSchema, statuses: readonly number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, { ...body, description: ERROR_MEANING[s] ?? 'Error' }]))
}

/** A success answer with its description. */
export function answer<T extends TSchema>(description: string, schema: T): T {
  return { ...schema, description }
}
