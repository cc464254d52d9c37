// The edge's one way to hand messages to the intake (Kafka, or the disk spool) and to answer when
// neither can take them: 503 with Retry-After, saying nothing was accepted.
import type { FastifyRequest } from 'fastify'
import { PublishError, type OutboundMessage } from '../broker/ports.js'
import { AppError } from '../shared/errors.js'
import type { Intake, IntakeReceipt } from './spool/intake.js'
import { HttpError } from '../http/errors.js'

export async function acceptOr503(
  intake: Intake,
  topic: string,
  messages: readonly OutboundMessage[],
  request: FastifyRequest,
  what: string,
): Promise<IntakeReceipt> {
  try {
    return await intake.accept(topic, messages)
  } catch (err) {
    if (!(err instanceof PublishError) && !(err instanceof AppError && err.retriable)) throw err
    const full = err instanceof AppError && err.code === 'SPOOL_FULL'
    // A full spool is a state, not a fault: its message says enough; the others keep their cause.
    request.log.warn(
      full ? { code: err.code, reason: err.message } : { err },
      `${what} not accepted: ${full ? 'kafka is away and the spool is full' : err instanceof AppError ? 'the spool cannot write' : 'kafka unavailable'}`,
    )
    throw new HttpError(
      'UNAVAILABLE',
      `${what} could not be stored right now; nothing was accepted, retry later`,
      undefined,
      full ? 'spool_bytes' : undefined,
    )
  }
}
