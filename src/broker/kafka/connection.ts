// The kafkajs client of a process (admin and consumers; the publisher uses @platformatic/kafka),
// with its log lines routed into pino.
import { Kafka, logLevel as KafkaLogLevel, type LogEntry } from 'kafkajs'
import type { Logger } from '../../shared/logger.js'

export interface ConnectionSettings {
  readonly brokers: readonly string[]
  readonly clientId: string
}

export function createKafka(settings: ConnectionSettings, log: Logger): Kafka {
  return new Kafka({
    clientId: settings.clientId,
    brokers: [...settings.brokers],
    connectionTimeout: 3000,
    requestTimeout: 15000,
    retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 5000 },
    logLevel: KafkaLogLevel.WARN,
    logCreator: () => (entry: LogEntry) => {
      const { message, ...rest } = entry.log
      // NOTE: kafkajs logs every retriable broker answer ("coordinator is loading", ...) at error
      // level from its Connection layer and retries it; what finally fails reaches our code as an
      // error, so those are warnings here. Its notice that bounded retries weaken an idempotent
      // producer concerns a producer this service no longer makes with kafkajs: debug.
      const level =
        entry.level <= KafkaLogLevel.ERROR
          ? entry.namespace === 'Connection'
            ? 'warn'
            : 'error'
          : entry.level === KafkaLogLevel.WARN && !message.startsWith('Limiting retries')
            ? 'warn'
            : 'debug'
      log[level]({ kafka: { namespace: entry.namespace, ...rest } }, message)
    },
  })
}
