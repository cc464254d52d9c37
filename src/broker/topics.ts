// Every topic and consumer group name in one place.
import type { Config } from '../config/index.js'

export interface TopicNames {
  readonly events: string
  /** Impressions, their counts, unique keys and SDK telemetry: the SDK data other than events. */
  readonly impressions: string
  readonly alerts: string
}

export function topicNames(config: Config): TopicNames {
  return {
    events: `${config.kafka.topicPrefix}events`,
    impressions: `${config.kafka.topicPrefix}impressions`,
    alerts: `${config.kafka.topicPrefix}alerts`,
  }
}

export function groupIds(config: Config): Readonly<Record<keyof TopicNames, string>> {
  return {
    events: `${config.kafka.groupPrefix}events-clickhouse`,
    impressions: `${config.kafka.groupPrefix}impressions-clickhouse`,
    alerts: `${config.kafka.groupPrefix}alerts-redis`,
  }
}
