import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino'

export type { Logger }

/** Header and field names whose values are secrets: never written to the log. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'authorization',
  'token',
  'password',
  'apiKey',
  'sdkKey',
]

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'sluice', pid: process.pid },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  }
  // Pretty output only for a person at a terminal; machines always get JSON lines.
  if (!destination && process.stdout.isTTY) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true } } })
  }
  return destination ? pino(options, destination) : pino(options)
}
