// Test-owned names and lifetimes: every test file gets its own topics, consumer group, ClickHouse
// database and Redis key prefix, and removes them when done.
import { randomBytes } from 'node:crypto'
import { createClient, type ClickHouseClient } from '@clickhouse/client'
import { Cluster, Redis } from 'ioredis'
import { Kafka, logLevel } from 'kafkajs'
import { inject } from 'vitest'
import { createLogger } from '../../src/shared/logger.js'
import { startService, type Role, type RunningService } from '../../src/app/service.js'
import { loadConfig, type Config } from '../../src/config/index.js'
import type { PlatformStore } from '../../src/state/redis/platform.js'
import { bootstrapDemoAccount } from '../../src/state/redis/demo.js'
import {
  createRedisClient,
  createRedisState,
  isCluster,
  masters,
  type RedisClient,
  type RedisStores,
} from '../../src/state/redis/index.js'
import type { DemoAccount, TenancyStore } from '../../src/state/redis/tenancy.js'

export interface TestEnv {
  readonly env: Record<string, string>
  readonly config: Config
  readonly clickhouse: ClickHouseClient
  readonly redis: RedisClient
  readonly state: RedisStores
  readonly tenancy: TenancyStore
  readonly platform: PlatformStore
  /** Rows of `SELECT ... FROM <db>.<table>` (the database name is filled in). */
  query<T>(sql: string): Promise<T[]>
  count(table: string, where?: string): Promise<number>
  bootstrap(): Promise<DemoAccount>
  start(roles?: readonly Role[], extraEnv?: Record<string, string>): Promise<RunningService>
  /** Keys matching the pattern (on a cluster, from every master). */
  keys(pattern: string): Promise<string[]>
  close(): Promise<void>
}

export async function createTestEnv(extraEnv: Record<string, string> = {}): Promise<TestEnv> {
  const services = inject('services')
  const id = randomBytes(4).toString('hex')
  const env: Record<string, string> = {
    KAFKA_BROKERS: services.kafkaBrokers,
    // The project current-engine runs suites on a current ClickHouse (26.x) instead of the suite's server.
    CLICKHOUSE_URL:
      process.env['TEST_CLICKHOUSE_CURRENT'] === '1' ? inject('currentClickHouse') : services.clickhouseUrl,
    REDIS_URL: services.redisUrl,
    KAFKA_TOPIC_PREFIX: `test-${id}.`,
    KAFKA_GROUP_PREFIX: `test-${id}.`,
    CLICKHOUSE_DATABASE: `test_${id}`,
    REDIS_KEY_PREFIX: `test:${id}:`,
    SLUICE_PORT: '0',
    SLUICE_LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'error',
    SLUICE_KEY_REFRESH_MS: '200',
    // The freshness canary writes events of its own: off unless a test measures it (test/e2e/freshness.e2e.test.ts).
    SLUICE_FRESHNESS_INTERVAL_MS: '0',
    // HMAC secrets of alert senders are sealed with it; each test environment has its own.
    SLUICE_SECRETS_KEY: randomBytes(32).toString('base64'),
    // The project redis-cluster runs suites with their Redis state on the cluster stack's Redis Cluster.
    ...(process.env['TEST_REDIS_ON_CLUSTER'] === '1'
      ? { REDIS_CLUSTER_NODES: inject('cluster')['REDIS_CLUSTER_NODES']! }
      : {}),
    // Every answer of every test is checked against the schema its route declares (GET /openapi.json).
    SLUICE_CHECK_ANSWERS: 'true',
    // Suites call the admin APIs, and change and test rules, far faster than people do; the limits themselves are
    // tested by suites that set them (tenant-limits, split-admin) and by the hostile soak, with the defaults.
    SLUICE_ADMIN_RATE_PER_SECOND: '1000',
    SLUICE_ADMIN_BURST: '10000',
    SLUICE_ADMIN_EXPENSIVE_RATE_PER_SECOND: '1000',
    SLUICE_ADMIN_EXPENSIVE_BURST: '10000',
    ...extraEnv,
  }
  const config = loadConfig(env)
  // 64-bit integers quoted in JSON, as 18.16 does by default and current releases no longer do: the
  // tests' expected rows are the same on both engines.
  const clickhouse = createClient({
    url: config.clickhouse.url,
    username: config.clickhouse.user,
    password: config.clickhouse.password,
    clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
  })
  const redis = isCluster(config.redis) ? createRedisClient(config.redis) : new Redis(config.redis.url)
  const state = createRedisState(config.redis, redis)
  const { tenancy, platform } = state
  const running: RunningService[] = []
  const db = config.clickhouse.database

  const query = async <T>(sql: string): Promise<T[]> => {
    const result = await clickhouse.query({ query: sql.replaceAll('{db}', db), format: 'JSONEachRow' })
    return result.json<T>()
  }
  return {
    env,
    config,
    clickhouse,
    redis,
    state,
    tenancy,
    platform,
    query,
    count: async (table, where = '1') => {
      const rows = await query<{ n: string }>(`SELECT count() AS n FROM {db}.${table} WHERE ${where}`)
      return Number(rows[0]?.n ?? 0)
    },
    bootstrap: () => bootstrapDemoAccount(state),
    start: async (roles = ['edge', 'admin', 'events'], extra = {}) => {
      const cfg = Object.keys(extra).length ? loadConfig({ ...env, ...extra }) : config
      // In process under vitest the consumers stay on the test's thread: the consumer thread's entry is
      // compiled JavaScript (dist), which the spawned `sluice serve` of the e2e tests runs.
      const service = await startService({ ...cfg, consumerThread: false }, roles, createLogger(cfg.logLevel))
      running.push(service)
      return service
    },
    keys: async (pattern) => (await Promise.all(masters(redis).map((node) => node.keys(pattern)))).flat(),
    close: async () => {
      for (const s of running.splice(0)) await s.stop().catch(() => undefined)
      const onCluster = config.clickhouse.cluster ? ` ON CLUSTER ${config.clickhouse.cluster}` : ''
      await clickhouse.command({ query: `DROP DATABASE IF EXISTS ${db}${onCluster}` }).catch(() => undefined)
      await clickhouse.close()
      // (A Redis user without KEYS, as in the ACL test, cleans up with its own Redis.)
      // On a cluster, each master's keys, one at a time (keys of different slots cannot go in one DEL).
      for (const node of masters(redis)) {
        const keys = await node.keys(`${config.redis.keyPrefix}*`).catch(() => [])
        if (redis instanceof Cluster) await Promise.all(keys.map((k) => node.del(k).catch(() => undefined)))
        else if (keys.length) await redis.del(...keys)
      }
      await state.close()
      redis.disconnect()
      await deleteTopics(config).catch(() => undefined)
    },
  }
}

async function deleteTopics(config: Config): Promise<void> {
  const admin = new Kafka({ brokers: [...config.kafka.brokers], logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(config.kafka.topicPrefix))
    if (topics.length) await admin.deleteTopics({ topics })
  } finally {
    await admin.disconnect()
  }
}

/** Polls until check() returns a value that is not undefined, or fails after timeoutMs. */
/**
 * What a client of an API answering 503 while a service is slow does (under the whole suite's load, Redis can pass a
 * command's deadline): `send` again a second later, 10 times at most. For sends that may be repeated.
 */
export async function sendRetrying<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send()
    if (answer.status !== 503 || attempt === 10) return answer
    await new Promise((r) => setTimeout(r, 1000))
  }
}

export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    try {
      const value = await check()
      if (value !== undefined) return value
    } catch (err) {
      last = err
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}${last ? `: ${last instanceof Error ? last.message : JSON.stringify(last)}` : ''}`,
      )
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Waits until the service's polled lag gauge is 0 on every partition of the topic whose name ends so. */
export async function waitForZeroLag(
  url: string,
  topicSuffix: string,
  partitions: number,
  timeoutMs = 20_000,
): Promise<void> {
  await waitFor(
    `lag back to 0 on every partition of ${topicSuffix}`,
    async () => {
      const metrics = await (await fetch(`${url}/metrics`)).text()
      const lags = [
        ...metrics.matchAll(
          new RegExp(`^sluice_consumer_lag_messages\\{topic="[^"]*${topicSuffix}",partition="\\d+"\\} (\\d+)$`, 'gm'),
        ),
      ].map((m) => Number(m[1]))
      return lags.length === partitions && lags.every((l) => l === 0) ? true : undefined
    },
    timeoutMs,
  )
}

export function event(i: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventTypeId: 'checkout',
    trafficTypeName: 'user',
    key: `user-${i}`,
    timestamp: 1_700_000_000_000 + i,
    value: i,
    properties: { plan: i % 2 ? 'pro' : 'free', seats: i % 7, trial: i % 3 === 0 },
    ...extra,
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = Record<string, any>

/** A metric defined in the demo account's workspace through the API: its status and answer. */
export async function defineMetric(
  url: string,
  demo: DemoAccount,
  body: Record<string, unknown>,
): Promise<{ status: number; body: Answer }> {
  const res = await fetch(`${url}/api/v1/workspaces/${demo.workspaceId}/metrics`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ trafficType: 'user', ...body }),
  })
  return { status: res.status, body: (await res.json()) as Answer }
}

export async function postEvents(
  url: string,
  key: string | undefined,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(`${url}/api/events/bulk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  let parsed: Record<string, unknown> = {}
  try {
    parsed = JSON.parse(text) as Record<string, unknown>
  } catch {
    parsed = { raw: text }
  }
  return { status: res.status, body: parsed, headers: res.headers }
}

/**
 * Sends an experiment through the intake: the impressions of `flag` and the events (bodies of 5,000), then waits until
 * ClickHouse holds all of them, and `otherEvents` more events the test sent elsewhere.
 */
export async function sendExperiment(
  t: TestEnv,
  url: string,
  sdkKey: string,
  flag: string,
  impressions: readonly object[],
  events: readonly object[],
  otherEvents = 0,
): Promise<void> {
  for (let i = 0; i < impressions.length; i += 5000) {
    const res = await fetch(`${url}/api/testImpressions/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sdkKey}` },
      body: JSON.stringify([{ f: flag, i: impressions.slice(i, i + 5000) }]),
    })
    if (res.status !== 202) throw new Error(`impressions: ${res.status} ${await res.text()}`)
  }
  for (let i = 0; i < events.length; i += 5000) {
    const res = await postEvents(url, sdkKey, events.slice(i, i + 5000))
    if (res.status !== 202) throw new Error(`events: ${res.status} ${JSON.stringify(res.body)}`)
  }
  await waitFor(
    'impressions and events stored',
    async () =>
      (await t.count('impressions')) === impressions.length && (await t.count('events')) === events.length + otherEvents
        ? true
        : undefined,
    60_000,
  )
}

/** A caller of a service's admin APIs with an admin key: JSON bodies, any other header on top. */
export function adminCaller(url: () => string, key: () => string) {
  return (path: string, init: RequestInit = {}) =>
    fetch(`${url()}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key()}`, 'content-type': 'application/json', ...init.headers },
    })
}

/** An answer read as JSON: its status, its body ({} when empty, {text} when not JSON), and its headers. */
export interface JsonAnswer {
  readonly status: number
  readonly body: Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly headers: Headers
}

/**
 * Calls of an API with a bearer key and a JSON body (no content type without a body: Fastify refuses an empty JSON
 * body), read as JSON.
 */
export function jsonCaller(url: () => string) {
  return async (key: string, method: string, path: string, body?: unknown): Promise<JsonAnswer> => {
    const res = await fetch(`${url()}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    })
    const text = await res.text()
    let parsed: JsonAnswer['body']
    try {
      parsed = text ? (JSON.parse(text) as JsonAnswer['body']) : {}
    } catch {
      parsed = { text }
    }
    return { status: res.status, body: parsed, headers: res.headers }
  }
}
