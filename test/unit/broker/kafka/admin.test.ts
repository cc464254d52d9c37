// The replication a topic is created with: explicit, from the settings or the cluster's size, and
// refused (before any topic is made) when the cluster cannot hold it. The real three-broker cluster
// is in test/cluster.
import { expect, it } from 'vitest'
import { KafkaAdmin, topicReplication } from '../../../../src/broker/kafka/admin.js'
import { createLogger } from '../../../../src/shared/logger.js'

const unset = { brokers: ['127.0.0.1:9092'], partitions: 3, replicationFactor: undefined, minInsyncReplicas: undefined }

it('defaults to 3 replicas and min.insync.replicas 2 on a cluster of 3 brokers or more', () => {
  expect(topicReplication(unset, 3)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 })
  expect(topicReplication(unset, 5)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 })
})

it('defaults to the number of brokers below 3, with min.insync.replicas never above it', () => {
  expect(topicReplication(unset, 1)).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 })
  expect(topicReplication(unset, 2)).toEqual({ replicationFactor: 2, minInsyncReplicas: 2 })
})

it('takes the configured values, and refuses what the cluster cannot hold', () => {
  expect(topicReplication({ ...unset, replicationFactor: 5, minInsyncReplicas: 3 }, 5)).toEqual({
    replicationFactor: 5,
    minInsyncReplicas: 3,
  })
  expect(topicReplication({ ...unset, replicationFactor: 3 }, 1)).toMatch(
    /KAFKA_REPLICATION_FACTOR=3 but the cluster has 1 broker/,
  )
  expect(topicReplication({ ...unset, replicationFactor: 2, minInsyncReplicas: 3 }, 3)).toMatch(
    /KAFKA_MIN_INSYNC_REPLICAS=3 is above the replication factor 2/,
  )
})

it('makes one admin client however many callers ask while it connects, and closes it', async () => {
  const made: { connected: boolean; disconnected: boolean }[] = []
  let open: () => void = () => undefined
  const kafka = {
    admin: () => {
      const state = { connected: false, disconnected: false }
      made.push(state)
      return {
        connect: () => new Promise<void>((resolve) => (open = () => ((state.connected = true), resolve()))),
        disconnect: async () => void (state.disconnected = true),
      }
    },
  }
  const admin = new KafkaAdmin(kafka as never, unset, createLogger('silent'))
  // Health reads while Kafka is slow to answer: each used to connect (and leave open) a client of its own.
  const asked = [admin.client(), admin.client(), admin.client()]
  open()
  const clients = await Promise.all(asked)
  expect(made).toHaveLength(1)
  expect(new Set(clients).size).toBe(1)
  await admin.close()
  expect(made[0]).toEqual({ connected: true, disconnected: true })
})
