import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Integration tests share one Kafka, ClickHouse and Redis on a 2-core machine: files run one at a
    // time, each with its own topic, consumer group, database and key prefix.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
})
