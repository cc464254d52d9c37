// Every topic and consumer group name in one place.
import type { Config } from '../config/index.js'

export interface TopicNames {
  readonly events: string
}

export function topicNames(config: Config): TopicNames {
  return { events: `${config.kafka.topicPrefix}events` }
}

export function groupIds(config: Config): { readonly events: string } {
  return { events: `${config.kafka.groupPrefix}events-clickhouse` }
}
