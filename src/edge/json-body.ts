// The JSON body parser of every route: secure-json-parse refuses `__proto__` and
// `constructor.prototype` keys, and a failure says what is wrong instead of Fastify's generic text.
import type { FastifyRequest } from 'fastify'
import secureJson from 'secure-json-parse'
import { HttpError } from './errors.js'

export function parseJsonBody(_request: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void): void {
  const text = typeof body === 'string' ? body : body.toString('utf8')
  if (text.trim().length === 0) {
    done(new HttpError('BAD_REQUEST', 'request body is empty; send JSON'))
    return
  }
  try {
    done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }))
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    done(new HttpError('BAD_REQUEST', /forbidden/i.test(message) ? 'body contains a forbidden key (__proto__ or constructor.prototype)' : `body is not valid JSON: ${message}`))
  }
}
