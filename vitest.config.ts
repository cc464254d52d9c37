import { defineConfig } from 'vitest/config'
import { LongestFirst } from './test/support/sequencer.js'

// The kinds of tests, run with `vitest --project <name>` or all together by `npm test`:
// - unit: no I/O beyond the file system, no service at all; the files mirror src/.
// - integration: real Kafka, ClickHouse and Redis (test/integration and test/e2e: HTTP in, data out), several files at
//   once: each file has its own topics, consumer group, database and key prefix, and most of a file's time is spent
//   waiting on the services.
// - solo: the integration files that measure latency or memory under load (the hostile soak, a breakdown of ten
//   million keys), one at a time, last, with the machine to themselves.
// - fault: faults (pauses, kills) on private instances, after the integration files, beside each other and the
//   cluster file: no other file uses what a fault file pauses.
// - cluster: the pipeline on the local cluster stack (ClickHouse shards and replicas, three Kafka
//   brokers, Redis Cluster) through node failures, after the redis-cluster files and the bench smoke (the only others
//   on that stack).
// - redis-cluster: the suites of the Redis state (alerts and their lifecycle, segments and the rest of
//   the Split Admin API, SCIM, metrics) again, with that state on the cluster stack's Redis Cluster.
// - current-engine: the suites of the ClickHouse data path (events, impressions, refused records, the
//   catalogue, ingestion health, erasure and retention, a consumer killed, experiment results, statements refused,
//   tracking plans)
//   again, on a current ClickHouse (26.x, chDB behind an HTTP front:
//   test/support/chdb-server.mjs). The statements themselves are
//   proven on both engines by the integration suites (test/support/engines.ts).
// The global setup (build, then find or start the stack) runs only for the projects that need it.
const services = {
  globalSetup: ['test/support/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 180_000,
}

/** Files that must have the machine to themselves (the soak states a p99 bound): run last, one at a time. */
const SOLO = ['test/e2e/hostile-soak.e2e.test.ts', 'test/integration/analysis-hostile-dimension.test.ts']

/**
 * The files that break a service run after the files that share the stacks (groupOrder 0), three at a time in a pool
 * of their own (threads, BREAKING_AT_ONCE), each on what it alone uses: the cluster file the cluster stack, each fault
 * file its private instances on its worker's ports. They mostly wait on their faults' clocks (pauses of 30-60 s).
 */
const breaking = { sequence: { groupOrder: 1 }, pool: 'threads' as const }
const BREAKING_AT_ONCE = 3

/** One file at a time, in one fork, after everything else. */
const alone = { sequence: { groupOrder: 2 }, poolOptions: { forks: { singleFork: true } } }

/** A project running some e2e suites again, with a setup of its own after the stack's and an environment. */
function again(
  name: string,
  suites: readonly string[],
  { setup, env }: { setup: string; env: Record<string, string> },
) {
  return {
    test: {
      name,
      include: suites.map((suite) => `test/e2e/${suite}.e2e.test.ts`),
      ...services,
      globalSetup: [...services.globalSetup, setup],
      env,
    },
  }
}

export default defineConfig({
  test: {
    pool: 'forks',
    // The real-stack files share one Kafka, ClickHouse and Redis on a 2-core machine and mostly wait on them: up to
    // three at once (SLUICE_TEST_WORKERS), each with its own topics, consumer group, database and key prefix. The
    // fault and cluster files run after them (`breaking`), the solo files last (`alone`). Files start longest first
    // (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    maxWorkers: Number(process.env['SLUICE_TEST_WORKERS'] ?? 3),
    poolOptions: { threads: { maxThreads: BREAKING_AT_ONCE, minThreads: 1 } },
    minWorkers: 1,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 60_000 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          exclude: SOLO,
          ...services,
        },
      },
      { test: { name: 'solo', include: SOLO, ...services, ...alone } },
      { test: { name: 'fault', include: ['test/fault/**/*.test.ts'], ...services, ...breaking } },
      // The same guarantees on clusters (`sluice stack up --cluster`), with node failures.
      {
        test: {
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          ...services,
          ...breaking,
          globalSetup: [...services.globalSetup, 'test/support/cluster-setup.ts'],
        },
      },
      // The suites of the Redis state again, that state on the cluster stack's Redis Cluster.
      again(
        'redis-cluster',
        [
          'alert-lifecycle',
          'alerts',
          'alert-rules',
          'incidents',
          'notify',
          'split-admin',
          'scim',
          'scim-groups',
          'experiments',
          'experiment-checks',
          'oncall-schedules',
          'oncall-costs',
          'escalation',
          'experiment-checks-fairness',
        ],
        {
          setup: 'test/support/cluster-setup.ts',
          env: { TEST_REDIS_ON_CLUSTER: '1' },
        },
      ),
      // The suites of the ClickHouse data path again, on ClickHouse 26.x (chDB behind an HTTP front).
      again(
        'current-engine',
        [
          'events',
          'impressions',
          'poison',
          'crash-recovery',
          'experiments',
          'experiment-methods',
          'refused-statements',
          'rejections',
          'catalogue',
          'erasures',
          'health',
          'tracking-plans',
          'replays',
        ],
        {
          setup: 'test/support/current-engine-setup.ts',
          env: { TEST_CLICKHOUSE_CURRENT: '1' },
        },
      ),
    ],
  },
})
