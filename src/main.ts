// Process entry of `sluice serve`: config → the roles asked for → signals → ordered shutdown with a
// deadline. Exit codes: 0 after a clean shutdown, 1 on a startup failure or a missed deadline,
// 78 on bad configuration.
import { createLogger } from './app/logger.js'
import { startService, type Role } from './app/service.js'
import type { Config } from './config/index.js'

export async function serve(config: Config, roles: readonly Role[]): Promise<void> {
  const log = createLogger(config.logLevel)
  let service
  let shutdown: (reason: string, exitCode: number) => void = () => undefined
  try {
    service = await startService(config, roles, log, (err) => {
      log.fatal({ err }, 'a consumer stopped for good')
      shutdown('consumer failure', 1)
    })
  } catch (err) {
    log.fatal({ err }, 'sluice could not start')
    process.exit(1)
  }
  let stopping = false
  shutdown = (reason: string, exitCode: number) => {
    if (stopping) return
    stopping = true
    log.info({ signal: reason }, 'signal received')
    setTimeout(() => {
      log.error({ deadlineMs: config.shutdownTimeoutMs }, 'shutdown deadline passed; exiting')
      process.exit(1)
    }, config.shutdownTimeoutMs).unref()
    service.stop().then(
      () => process.exit(exitCode),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => shutdown('SIGTERM', 0))
  process.on('SIGINT', () => shutdown('SIGINT', 0))
}
