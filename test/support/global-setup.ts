// Finds Kafka, ClickHouse and Redis for the suite, in this order: KAFKA_BROKERS / CLICKHOUSE_URL /
// REDIS_URL when set; containers when a Docker engine answers (testcontainers); otherwise the local
// stack (`sluice stack up`), started here if it is not running yet. What the run started it stops when
// it ends (passing, failing, or interrupted: SIGINT, SIGTERM); a stack already running is left as it is
// (start one with `npx sluice stack up` to keep it between runs), unless the run that started it is gone.
import { spawnSync } from 'node:child_process'
import type { TestProject } from 'vitest/node'
import { loadConfig } from '../../src/config/index.js'
import { stackDown, stackPids, stackUp } from '../../tools/stack/index.js'
import { stopChildrenOnSignal, stopOnSignal } from './stop-on-signal.js'

export interface Services {
  kafkaBrokers: string
  clickhouseUrl: string
  redisUrl: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    services: Services
  }
}

const KAFKA_IMAGE = 'apache/kafka:3.9.1'
const CLICKHOUSE_IMAGE = 'clickhouse/clickhouse-server:25.8'
const REDIS_IMAGE = 'redis:7.4'

let stopContainers: (() => Promise<void>) | undefined

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  stopChildrenOnSignal()
  // Tests that run `sluice` as a separate process (kill -9, import-events) run the compiled CLI: built once per run,
  // whichever projects run this setup.
  if (process.env['SLUICE_TEST_BUILT'] !== String(process.pid)) {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
    if (build.status !== 0) throw new Error('npm run build failed')
    process.env['SLUICE_TEST_BUILT'] = String(process.pid)
  }
  const env = process.env
  let stopStack: (() => Promise<void>) | undefined
  let services: Services
  if (env['KAFKA_BROKERS'] && env['CLICKHOUSE_URL'] && env['REDIS_URL']) {
    services = { kafkaBrokers: env['KAFKA_BROKERS'], clickhouseUrl: env['CLICKHOUSE_URL'], redisUrl: env['REDIS_URL'] }
  } else if (await dockerAnswers()) {
    services = await startContainers()
  } else {
    const config = loadConfig()
    const say = (line: string) => console.log(`[stack] ${line}`)
    const started = await stackUp(config, say, process.pid)
    if (started.length > 0) {
      const forget = stopOnSignal(() => stackPids(config, started))
      stopStack = async () => {
        forget()
        await stackDown(config, say, started)
      }
    }
    services = {
      kafkaBrokers: config.kafka.brokers.join(','),
      clickhouseUrl: config.clickhouse.url,
      redisUrl: config.redis.url,
    }
  }
  project.provide('services', services)
  return async () => {
    await stopContainers?.()
    await stopStack?.()
  }
}

async function dockerAnswers(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers')
    await getContainerRuntimeClient()
    return true
  } catch {
    return false
  }
}

async function startContainers(): Promise<Services> {
  const { GenericContainer, Wait } = await import('testcontainers')
  // Kafka advertises the address clients must use, so its port on the host is fixed up front.
  const kafkaPort = 19092
  const [kafka, clickhouse, redis] = await Promise.all([
    new GenericContainer(KAFKA_IMAGE)
      .withExposedPorts({ container: 9092, host: kafkaPort })
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${kafkaPort}`,
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start(),
    new GenericContainer(CLICKHOUSE_IMAGE)
      .withExposedPorts(8123)
      .withEnvironment({ CLICKHOUSE_SKIP_USER_SETUP: '1' })
      .withWaitStrategy(Wait.forHttp('/ping', 8123))
      .start(),
    new GenericContainer(REDIS_IMAGE)
      .withExposedPorts(6379)
      .withCommand(['redis-server', '--appendonly', 'yes'])
      .start(),
  ])
  stopContainers = async () => {
    await Promise.all([kafka.stop(), clickhouse.stop(), redis.stop()])
  }
  return {
    kafkaBrokers: `127.0.0.1:${kafkaPort}`,
    clickhouseUrl: `http://${clickhouse.getHost()}:${clickhouse.getMappedPort(8123)}`,
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
  }
}
