// The cluster stack for the cluster tests (`sluice stack up --cluster`: ZooKeeper, ClickHouse 2
// shards x 2 replicas, Redis Cluster 3+3, three Kafka brokers), started here unless it answers.
// Runs after global-setup.ts, which built dist/ and found the single-node stack.
import type { TestProject } from 'vitest/node'
import { loadConfig } from '../../src/config/index.js'
import { clusterDown, clusterEnv, clusterPids, clusterUp } from '../../tools/stack/cluster.js'
import { stopOnSignal } from './stop-on-signal.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The settings that point Sluice at the cluster stack (KAFKA_BROKERS, CLICKHOUSE_URL, CLICKHOUSE_CLUSTER, ...). */
    cluster: Record<string, string>
  }
}

/** The cluster stack for the projects that need it, once per run; what this run started, it stops when it ends. */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const config = loadConfig({})
  const at = Date.now()
  const say = (line: string) => console.log(`[cluster] ${line}`)
  const started = await clusterUp(config, say, process.pid)
  console.log(`[cluster] up in ${((Date.now() - at) / 1000).toFixed(1)} s`)
  project.provide('cluster', clusterEnv(config))
  if (started.length === 0) return undefined
  const forget = stopOnSignal(() => clusterPids(config, started))
  return async () => {
    forget()
    await clusterDown(config, say, started)
  }
}
