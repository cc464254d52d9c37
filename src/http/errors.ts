// One closed set of error codes, their HTTP status, and the JSON body every error answer has:
// {statusCode, code, message, requestId}.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { ErrorObject } from 'ajv'
import { AppError, isDependencyUnavailable, Refusal, type FieldProblem, type RefusalCode } from '../shared/errors.js'
import { Type, type TSchema } from 'typebox'
import { fieldProblems } from '../shared/field-problems.js'
import { errorAnswers, sharedSchema } from './schemas.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The error this request was answered with, for the request log line and the metric. */
    errorCode?: ErrorCode
    errorMessage?: string
    errorLimit?: string
  }
}

export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 5

/** The error body of Sluice's own APIs (events, webhooks, integrations). */
export const SluiceError = sharedSchema(
  'SluiceError',
  Type.Object({
    statusCode: Type.Integer(),
    code: Type.Enum(Object.keys(ERROR_STATUS)),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), problem: Type.String() }))),
    requestId: Type.String({ description: 'also in x-request-id' }),
  }),
)

/** Answers of a route of Sluice's own APIs: success by status, and the error body for the error statuses. */
export function sluiceAnswers(ok: Record<number, TSchema>, errors: readonly number[]): Record<number, TSchema> {
  return { ...ok, ...errorAnswers(SluiceError, errors) }
}

export class HttpError extends Error {
  override readonly name = 'HttpError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Field-level problems of a rejected input: [{field, problem}]. */
    readonly details?: readonly FieldProblem[],
    /** The name of the size or count limit that refused the request (logged and counted). */
    readonly limit?: string,
  ) {
    super(message)
  }

  get statusCode(): number {
    return ERROR_STATUS[this.code]
  }
}

/** How much of a refused statement's error an answer shows (the log has all of it). */
const MAX_CAUSE_CHARS = 300

/** Maps Fastify's own errors (body parsing, limits) and ours to the error body; logs the unexpected. */
export function errorHandler(
  this: unknown,
  error: FastifyError | HttpError | Refusal,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const http = prepareError(error, request, reply)
  void reply.code(http.statusCode).send({
    statusCode: http.statusCode,
    code: http.code,
    message: http.message,
    ...(http.details ? { details: http.details } : {}),
    requestId: request.id,
  })
}

/** The HttpError an error answers with; logs the unexpected and sets Retry-After where it belongs. */
const REFUSAL_CODES: Record<RefusalCode, ErrorCode> = {
  INVALID: 'BAD_REQUEST',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  FORBIDDEN: 'FORBIDDEN',
  PRECONDITION_FAILED: 'PRECONDITION_FAILED',
}

export function prepareError(
  error: FastifyError | HttpError | Refusal,
  request: FastifyRequest,
  reply: FastifyReply,
): HttpError {
  const http =
    error instanceof HttpError
      ? error
      : error instanceof Refusal
        ? new HttpError(REFUSAL_CODES[error.code], error.message, error.details)
        : fromFastifyError(error, request)
  // A read at its limits fails the same way when asked again: no Retry-After.
  const atLimit = error instanceof AppError && error.code === 'QUERY_LIMIT'
  if (http.code === 'INTERNAL') request.log.error({ err: error }, 'unhandled error')
  else if (atLimit) request.log.warn({ err: error }, 'a read stopped at its limit')
  else if (http.code === 'UNAVAILABLE' && !(error instanceof HttpError))
    request.log.warn({ err: error }, 'a dependency is unavailable')
  if ((http.code === 'UNAVAILABLE' || http.code === 'RATE_LIMITED') && !atLimit && !reply.hasHeader('retry-after'))
    void reply.header('retry-after', String(RETRY_AFTER_SECONDS))
  request.errorCode = http.code
  request.errorMessage = http.message
  request.errorLimit = http.limit
  return http
}

function fromFastifyError(error: FastifyError, request: FastifyRequest): HttpError {
  if (error.validation) {
    const details = fieldProblems(error.validation as ErrorObject[], error.validationContext)
    const shown = details
      .slice(0, 5)
      .map((d) => `${d.field} ${d.problem}`)
      .join('; ')
    return new HttpError(
      'BAD_REQUEST',
      `${details.length === 1 ? 'invalid input' : `${details.length} invalid inputs`}: ${shown}${details.length > 5 ? '; …' : ''}`,
      details,
    )
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(
        'PAYLOAD_TOO_LARGE',
        `request body is larger than the limit of ${request.routeOptions.bodyLimit ?? 'configured'} bytes`,
        undefined,
        'body_bytes',
      )
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpError('BAD_REQUEST', 'Content-Length does not match the body')
  }
  // A statement the server refuses is Sluice's fault, not a passing state: named, never "retry later".
  if (error instanceof AppError && error.code === 'SINK_REFUSED_QUERY')
    return new HttpError('INTERNAL', `internal error: ${error.message.slice(0, MAX_CAUSE_CHARS)}`)
  // A read at its limits: the same answer until the data, the request or the limit changes, so it says which limit.
  if (error instanceof AppError && error.code === 'QUERY_LIMIT') return new HttpError('UNAVAILABLE', error.message)
  if (isDependencyUnavailable(error))
    return new HttpError(
      'UNAVAILABLE',
      'a service this request needs did not answer in time; nothing was changed or the change is uncertain, retry later',
    )
  if (error.statusCode === 404) return new HttpError('NOT_FOUND', 'no such route')
  if (error.statusCode === 414) return new HttpError('BAD_REQUEST', 'the URL is too long')
  if (error.code === 'FST_ERR_BAD_URL')
    return new HttpError('BAD_REQUEST', 'the URL is malformed (bad percent-encoding)')
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
    return new HttpError('BAD_REQUEST', error.message)
  return new HttpError('INTERNAL', 'internal error')
}
