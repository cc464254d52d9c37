// The cluster stack for the cluster tests (`sluice stack up --cluster`: ZooKeeper, ClickHouse 2
// shards x 2 replicas, Redis Cluster 3+3, three Kafka brokers), started here unless it answers.
// Runs after global-setup.ts, which built dist/ and found the single-node stack.
import type { TestProject } from 'vitest/node'
import { loadConfig } from '../../src/config/index.js'
import { clusterEnv, clusterUp } from '../../tools/stack/cluster.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The settings that point Sluice at the cluster stack (KAFKA_BROKERS, CLICKHOUSE_URL, CLICKHOUSE_CLUSTER, ...). */
    cluster: Record<string, string>
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const config = loadConfig({})
  const started = Date.now()
  await clusterUp(config, (line) => console.log(`[cluster] ${line}`))
  console.log(`[cluster] up in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  project.provide('cluster', clusterEnv(config))
}
