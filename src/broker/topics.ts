// Every topic and consumer group name in one place.
import type { Config } from '../config/index.js'

export interface TopicNames {
  readonly events: string
  readonly alerts: string
}

export function topicNames(config: Config): TopicNames {
  return { events: `${config.kafka.topicPrefix}events`, alerts: `${config.kafka.topicPrefix}alerts` }
}

export function groupIds(config: Config): { readonly events: string; readonly alerts: string } {
  return { events: `${config.kafka.groupPrefix}events-clickhouse`, alerts: `${config.kafka.groupPrefix}alerts-redis` }
}
