// `npm run bench` works: a seconds-long smoke run of the whole suite (every section, one short run
// each) writes its JSON and table. No figure is asserted: speed lives in the benchmarks, not in tests.
// The run is awaited, not spawned synchronously: a blocked worker misses vitest's own heartbeats.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { expect, inject, it } from 'vitest'

it('runs every section of the benchmark suite and writes its results', async () => {
  const services = inject('services')
  const run = await promisify(execFile)(process.execPath, ['bench/run.mjs', '--smoke'], {
    env: {
      ...process.env,
      KAFKA_BROKERS: services.kafkaBrokers,
      CLICKHOUSE_URL: services.clickhouseUrl,
      REDIS_URL: services.redisUrl,
    },
    encoding: 'utf8',
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  })
  const results = JSON.parse(readFileSync('bench/results/latest.json', 'utf8')) as Record<string, unknown>
  for (const section of [
    'events',
    'impressions',
    'freshness',
    'webhooks',
    'policies',
    'latency',
    'lifecycle',
    'experiments',
    'datahub',
    'admin',
    'rss',
    'cluster',
  ])
    expect(results, section).toHaveProperty(section)
  expect(run.stdout).toMatch(/^\| events end to end, bodies of 500, 8 in flight +\| [\d,]+ /m)
  expect(run.stdout).toMatch(/^\|   50 alert rules and one maintenance window running +\| [\d,]+ /m)
  expect(run.stdout).toMatch(/^\| Data Hub: the event types of an environment of [\d,]+ events .*\| [\d,]+ /m)
  expect(run.stdout).toMatch(/^\| the live tail with no viewer: Sluice CPU per event .*\| [\d.]+ /m)
  expect(run.stdout).toMatch(
    /^\| experiment results, 3 metrics over [\d,]+ exposed keys and [\d,]+ events +\| [\d,]+ /m,
  )
}, 660_000)
