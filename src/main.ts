// Process entry of `sluice serve`: config → the roles asked for → signals → ordered shutdown with a
// deadline. Exit codes: 0 after a clean shutdown, 1 on a startup failure, a fatal consumer error (at
// any moment, startup included), an uncaught exception or a missed deadline, 78 on bad configuration.
// An exception nothing caught (a throw from a timer or an event emitter, a rejection nobody awaited) is a bug: the
// process logs it, stops as on SIGTERM (the edge stops taking requests, the consumers commit only what is stored)
// and exits 1 for its supervisor to restart it. Nothing accepted is lost that way: a 202 was answered only once Kafka
// or the spool held the request, and a consumer's offsets only move past what a sink stored (reliability.md).
import { createLogger } from './shared/logger.js'
import { startService, type Role, type RunningService } from './app/service.js'
import type { Config } from './config/index.js'

export async function serve(config: Config, roles: readonly Role[]): Promise<void> {
  const log = createLogger(config.logLevel)
  let service: RunningService | undefined
  let failedDuringStart = false
  let stopping = false

  const shutdown = (exitCode: number) => {
    if (stopping) return
    stopping = true
    setTimeout(() => {
      log.error({ deadlineMs: config.shutdownTimeoutMs }, 'shutdown deadline passed; exiting')
      process.exit(1)
    }, config.shutdownTimeoutMs).unref()
    ;(service?.stop() ?? Promise.resolve()).then(
      () => process.exit(exitCode),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  const onFatal = (err: unknown) => {
    log.fatal({ err }, 'a consumer cannot go on; the process exits')
    // Before startService returned there is nothing to stop yet: it is stopped right after.
    if (service) shutdown(1)
    else failedDuringStart = true
  }
  const onUncaught = (err: unknown, origin: string) => {
    log.fatal(
      { err, origin },
      'an exception nothing caught: the process stops, and exits 1 for its supervisor to restart it',
    )
    if (service) shutdown(1)
    else failedDuringStart = true
  }
  process.on('uncaughtException', onUncaught)

  try {
    service = await startService(config, roles, log, onFatal)
  } catch (err) {
    log.fatal({ err }, 'sluice could not start')
    process.exit(1)
  }
  if (failedDuringStart) {
    shutdown(1)
    return
  }
  const onSignal = (signal: string) => {
    log.info({ signal }, 'signal received')
    shutdown(0)
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
}
