// The JSON body parser of every route: secure-json-parse refuses `__proto__` and
// `constructor.prototype` keys; the parsed value is then checked for what a schema cannot say
// (nesting depth, numbers beyond a double, lone surrogates). A failure says what is wrong and where,
// instead of Fastify's generic text.
import type { FastifyRequest } from 'fastify'
import secureJson from 'secure-json-parse'
import { describeJsonProblem, inspectJson, jsonProblemField, type JsonCheckOptions } from '../shared/json-checks.js'
import { HttpError } from './errors.js'

type Done = (err: Error | null, value?: unknown) => void

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The JSON body as it was sent, once it parsed and passed the checks: what the edge publishes
     * when it needs no change (so the body is not serialized again).
     */
    jsonText?: string
  }
}

/** A content-type parser for JSON with the given checks (default: depth 64, finite numbers, well-formed strings). */
export function jsonBodyParser(options: JsonCheckOptions = {}) {
  return (request: FastifyRequest, body: string | Buffer, done: Done): void => {
    const raw = typeof body === 'string' ? body : body.toString('utf8')
    // A byte order mark is not JSON: secure-json-parse skips it, and so does the text kept (the
    // consumers' JSON.parse of a published body would refuse it, rejecting every record).
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw
    if (text.trim().length === 0) {
      done(new HttpError('BAD_REQUEST', 'request body is empty; send JSON'))
      return
    }
    let value: unknown
    try {
      // secure-json-parse would skip a second mark too, which the consumers' JSON.parse refuses.
      if (text.charCodeAt(0) === 0xfeff) throw new Error('a second byte order mark is not JSON')
      value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      done(
        new HttpError(
          'BAD_REQUEST',
          /forbidden/i.test(message)
            ? 'body contains a forbidden key (__proto__ or constructor.prototype)'
            : `body is not valid JSON: ${message.toWellFormed()}`,
        ),
      )
      return
    }
    const problem = inspectJson(value, options)
    if (problem) {
      done(
        new HttpError('BAD_REQUEST', describeJsonProblem('body', problem), [
          { field: jsonProblemField('body', problem), problem: problem.problem },
        ]),
      )
      return
    }
    request.jsonText = text
    done(null, value)
  }
}

export const parseJsonBody = jsonBodyParser()
