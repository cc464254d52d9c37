// The one reader of process.env. Every setting is declared here, validated once, frozen and passed down.
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'

const MiB = 1024 * 1024

const schema = {
  type: 'object',
  additionalProperties: true,
  properties: {
    SLUICE_HOST: { type: 'string', minLength: 1, default: '127.0.0.1', description: 'address the HTTP server binds to' },
    SLUICE_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080, description: 'HTTP port (0 = any free port)' },
    SLUICE_LOG_LEVEL: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    SLUICE_DATA_DIR: { type: 'string', minLength: 1, description: 'where `sluice stack` keeps data and logs; default <project>/.sluice' },
    SLUICE_SPOOL_DIR: { type: 'string', minLength: 1, description: 'the edge spool directory, one per edge process; default <data dir>/spool/edge-<port> (a fresh temporary directory with port 0)' },
    SLUICE_SPOOL_MAX_BYTES: { type: 'integer', minimum: MiB, maximum: 1024 * 1024 * MiB, default: 1024 * MiB, description: 'bytes the edge spool may hold; beyond it requests are answered 503' },
    SLUICE_SPOOL_AFTER_MS: { type: 'integer', minimum: 50, maximum: 60000, default: 2000, description: 'how long a request waits for Kafka before its messages go to the spool' },
    SLUICE_SHUTDOWN_TIMEOUT_MS: { type: 'integer', minimum: 1000, default: 20000, description: 'deadline for a graceful shutdown' },

    KAFKA_BROKERS: { type: 'string', pattern: '^[^,\\s]+:\\d+(,[^,\\s]+:\\d+)*$', default: '127.0.0.1:9092', description: 'comma-separated host:port list' },
    KAFKA_CLIENT_ID: { type: 'string', minLength: 1, default: 'sluice' },
    KAFKA_TOPIC_PREFIX: { type: 'string', pattern: '^[a-zA-Z0-9._-]*$', default: 'sluice.', description: 'prefix of every topic name' },
    KAFKA_GROUP_PREFIX: { type: 'string', pattern: '^[a-zA-Z0-9._-]*$', default: 'sluice.', description: 'prefix of every consumer group id' },
    KAFKA_PARTITIONS: { type: 'integer', minimum: 1, maximum: 1000, default: 3, description: 'partitions of topics created at startup' },
    KAFKA_REPLICATION_FACTOR: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
    KAFKA_MESSAGE_MAX_BYTES: {
      type: 'integer', minimum: 16 * 1024, maximum: 900 * 1024, default: 768 * 1024,
      description: 'largest Kafka message the edge writes; stays under the broker default message.max.bytes (1 MiB)',
    },
    KAFKA_SESSION_TIMEOUT_MS: {
      type: 'integer', minimum: 6000, maximum: 300000, default: 30000,
      description: 'consumer session timeout: how soon partitions of a crashed consumer move to the others',
    },
    KAFKA_PUBLISH_TIMEOUT_MS: { type: 'integer', minimum: 100, default: 10000, description: 'a message still queued for Kafka this long is withdrawn (with the spool, its request was spooled already)' },

    CLICKHOUSE_URL: { type: 'string', pattern: '^https?://', default: 'http://127.0.0.1:8123' },
    CLICKHOUSE_USER: { type: 'string', default: 'default' },
    CLICKHOUSE_PASSWORD: { type: 'string', default: '' },
    CLICKHOUSE_DATABASE: { type: 'string', pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$', default: 'sluice' },
    CLICKHOUSE_REQUEST_TIMEOUT_MS: {
      type: 'integer', minimum: 1000, maximum: 3_600_000, default: 300_000,
      description: 'how long an insert may wait for ClickHouse (a paused server is waited for; an abandoned insert is killed before a retry)',
    },

    REDIS_URL: { type: 'string', pattern: '^rediss?://', default: 'redis://127.0.0.1:6379' },
    REDIS_KEY_PREFIX: { type: 'string', pattern: '^[a-zA-Z0-9:._-]*$', default: 'sluice:' },

    SLUICE_EVENTS_MAX_BODY_BYTES: { type: 'integer', minimum: 8 * MiB, maximum: 256 * MiB, default: 10 * MiB },
    SLUICE_EVENTS_MAX_RECORDS: { type: 'integer', minimum: 100000, maximum: 10000000, default: 500000, description: 'most records in one body (SDK bursts reach tens of thousands; the body limit in bytes usually binds first)' },
    SLUICE_BEACON_MAX_BODY_BYTES: { type: 'integer', minimum: 1024, maximum: MiB, default: 64 * 1024, description: 'largest beacon body (read before its key is known; browsers send at most 64 KiB)' },
    SLUICE_EVENTS_RATE_PER_SECOND: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000, default: 2000, description: 'sustained event requests per second per SDK key and edge process (429 above)' },
    SLUICE_EVENTS_BURST: { type: 'integer', minimum: 1, maximum: 10_000_000, default: 10000, description: 'event requests an SDK key may send at once per edge process' },
    SLUICE_HTTP_REQUEST_TIMEOUT_MS: { type: 'integer', minimum: 1000, maximum: 3_600_000, default: 60000, description: 'time a client has to send a whole request (slow senders are cut off)' },
    SLUICE_CHECK_ANSWERS: { type: 'boolean', default: false, description: 'development and tests: an answer that does not match the schema its route declares is a 500' },
    SLUICE_HTTP_IDLE_TIMEOUT_MS: { type: 'integer', minimum: 1000, maximum: 3_600_000, default: 120000, description: 'a connection with no traffic for this long is closed' },
    SLUICE_REDIS_COMMAND_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 60000, default: 2000, description: 'deadline of every Redis command; past it an HTTP request is answered 503' },
    SLUICE_KEY_REFRESH_MS: { type: 'integer', minimum: 100, maximum: 60000, default: 1000, description: 'how often SDK key changes are picked up' },
    SLUICE_PUBLIC_BASE_URL: { type: 'string', pattern: '^https?://[^\\s]+$', description: 'base of webhook addresses handed out; default: the address the server listens on' },
    SLUICE_WEBHOOK_MAX_BODY_BYTES: { type: 'integer', minimum: 1024, maximum: 16 * MiB, default: MiB },
    SLUICE_WEBHOOK_RATE_PER_SECOND: { type: 'number', exclusiveMinimum: 0, maximum: 100000, default: 10, description: 'sustained requests per second per webhook address' },
    SLUICE_WEBHOOK_BURST: { type: 'integer', minimum: 1, maximum: 100000, default: 50, description: 'requests a webhook address may send at once' },
    SLUICE_WEBHOOK_ROTATION_OVERLAP_SECONDS: { type: 'integer', minimum: 0, maximum: 30 * 86400, default: 86400, description: 'how long a rotated-out address keeps working' },
    SLUICE_ALERT_STREAM_MAXLEN: { type: 'integer', minimum: 100, maximum: 100_000_000, default: 100_000, description: 'approximate entries kept per alert stream' },
    SLUICE_ALERT_STREAM_MAX_AGE_HOURS: { type: 'integer', minimum: 1, maximum: 24 * 3650, default: 168, description: 'alert stream entries older than this are trimmed' },
    SLUICE_INTEGRATION_REFRESH_MS: { type: 'integer', minimum: 100, maximum: 60000, default: 1000, description: 'how soon mapping changes reach the alert consumers' },
    SLUICE_ADMIN_RATE_PER_SECOND: { type: 'number', exclusiveMinimum: 0, maximum: 100000, default: 20, description: 'sustained Admin API v2 requests per second per API key' },
    SLUICE_ADMIN_BURST: { type: 'integer', minimum: 1, maximum: 100000, default: 200, description: 'Admin API v2 requests an API key may send at once' },
    SLUICE_SETTINGS_DELAY_SECONDS: { type: 'integer', minimum: 0, maximum: 86400, default: 120, description: 'how long after a successful PUT /gateway/ng/api/settings new values take effect' },
    SLUICE_OUTBOUND_ALLOW_INSECURE: { type: 'boolean', default: false, description: 'development and tests only: let the SCIM JWKS URL use http and loopback addresses' },
    SLUICE_JWKS_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 60000, default: 5000, description: 'time limit of one JWKS fetch' },
    SLUICE_JWKS_MAX_BYTES: { type: 'integer', minimum: 1024, maximum: 1048576, default: 65536, description: 'largest JWKS document accepted' },
    SLUICE_JWKS_COOLDOWN_MS: { type: 'integer', minimum: 0, maximum: 3600000, default: 30000, description: 'least time between JWKS refetches caused by an unknown kid' },
    SLUICE_CONSUMER_STALL_SECONDS: {
      type: 'integer', minimum: 5, maximum: 86400, default: 120,
      description: 'a consumer holding a partition with lag and no progress for this long is stalled: /readyz answers 503 for its role',
    },
    SLUICE_CONSUMER_FETCH_MAX_BYTES: {
      type: 'integer', minimum: MiB, maximum: 256 * MiB, default: 8 * MiB,
      description: 'bytes fetched per partition per batch; bounds consumer memory and the size of one insert',
    },
  },
} as const

export interface Config {
  readonly http: { readonly host: string; readonly port: number; readonly requestTimeoutMs: number; readonly idleTimeoutMs: number; readonly checkAnswers: boolean }
  readonly logLevel: string
  readonly dataDir: string
  readonly shutdownTimeoutMs: number
  readonly spool: { readonly dir: string; readonly maxBytes: number; readonly afterMs: number }
  readonly kafka: {
    readonly brokers: readonly string[]
    readonly clientId: string
    readonly topicPrefix: string
    readonly groupPrefix: string
    readonly partitions: number
    readonly replicationFactor: number
    readonly messageMaxBytes: number
    readonly publishTimeoutMs: number
    readonly sessionTimeoutMs: number
    readonly fetchMaxBytes: number
    readonly stallMs: number
  }
  readonly clickhouse: { readonly url: string; readonly user: string; readonly password: string; readonly database: string; readonly requestTimeoutMs: number }
  readonly redis: { readonly url: string; readonly keyPrefix: string; readonly commandTimeoutMs: number }
  readonly events: {
    readonly maxBodyBytes: number
    readonly beaconMaxBodyBytes: number
    readonly maxRecords: number
    readonly ratePerSecond: number
    readonly burst: number
  }
  readonly keyRefreshMs: number
  /** Base of webhook addresses; undefined means the address the server listens on. */
  readonly publicBaseUrl: string | undefined
  readonly admin: { readonly ratePerSecond: number; readonly burst: number }
  readonly scim: {
    readonly settingsDelayMs: number
    readonly allowInsecure: boolean
    readonly timeoutMs: number
    readonly maxBytes: number
    readonly cooldownMs: number
  }
  readonly webhooks: {
    readonly maxBodyBytes: number
    readonly ratePerSecond: number
    readonly burst: number
    readonly rotationOverlapMs: number
    readonly streamMaxLen: number
    readonly streamMaxAgeMs: number
    readonly integrationRefreshMs: number
  }
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

type Raw = Record<string, string | number | undefined>

/** Reads and validates the settings; throws ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false })
  const validate = ajv.compile(schema)
  const raw: Raw = {}
  for (const name of Object.keys(schema.properties)) {
    const value = env[name]
    // An empty variable counts as unset, as shells and compose files often produce them.
    if (value !== undefined && value !== '') raw[name] = value
  }
  if (!validate(raw)) {
    const problems = (validate.errors ?? []).map((e) => {
      const name = e.instancePath.replace(/^\//, '') || String(e.params['missingProperty'] ?? '')
      return `${name}=${JSON.stringify(raw[name] ?? null)} ${e.message ?? 'is invalid'}`
    })
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`)
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- shape guaranteed by the schema above
  const r = raw as Record<string, any>
  const dataDir: string = r.SLUICE_DATA_DIR ?? fileURLToPath(new URL('../../.sluice', import.meta.url))
  const config: Config = {
    http: { host: r.SLUICE_HOST, port: r.SLUICE_PORT, requestTimeoutMs: r.SLUICE_HTTP_REQUEST_TIMEOUT_MS, idleTimeoutMs: r.SLUICE_HTTP_IDLE_TIMEOUT_MS, checkAnswers: r.SLUICE_CHECK_ANSWERS },
    logLevel: r.SLUICE_LOG_LEVEL,
    dataDir,
    shutdownTimeoutMs: r.SLUICE_SHUTDOWN_TIMEOUT_MS,
    spool: { dir: r.SLUICE_SPOOL_DIR ?? defaultSpoolDir(dataDir, r.SLUICE_PORT), maxBytes: r.SLUICE_SPOOL_MAX_BYTES, afterMs: r.SLUICE_SPOOL_AFTER_MS },
    kafka: {
      brokers: (r.KAFKA_BROKERS as string).split(','),
      clientId: r.KAFKA_CLIENT_ID,
      topicPrefix: r.KAFKA_TOPIC_PREFIX,
      groupPrefix: r.KAFKA_GROUP_PREFIX,
      partitions: r.KAFKA_PARTITIONS,
      replicationFactor: r.KAFKA_REPLICATION_FACTOR,
      messageMaxBytes: r.KAFKA_MESSAGE_MAX_BYTES,
      publishTimeoutMs: r.KAFKA_PUBLISH_TIMEOUT_MS,
      sessionTimeoutMs: r.KAFKA_SESSION_TIMEOUT_MS,
      fetchMaxBytes: r.SLUICE_CONSUMER_FETCH_MAX_BYTES,
      stallMs: r.SLUICE_CONSUMER_STALL_SECONDS * 1000,
    },
    clickhouse: { url: r.CLICKHOUSE_URL, user: r.CLICKHOUSE_USER, password: r.CLICKHOUSE_PASSWORD, database: r.CLICKHOUSE_DATABASE, requestTimeoutMs: r.CLICKHOUSE_REQUEST_TIMEOUT_MS },
    redis: { url: r.REDIS_URL, keyPrefix: r.REDIS_KEY_PREFIX, commandTimeoutMs: r.SLUICE_REDIS_COMMAND_TIMEOUT_MS },
    events: {
      maxBodyBytes: r.SLUICE_EVENTS_MAX_BODY_BYTES,
      beaconMaxBodyBytes: r.SLUICE_BEACON_MAX_BODY_BYTES,
      maxRecords: r.SLUICE_EVENTS_MAX_RECORDS,
      ratePerSecond: r.SLUICE_EVENTS_RATE_PER_SECOND,
      burst: r.SLUICE_EVENTS_BURST,
    },
    keyRefreshMs: r.SLUICE_KEY_REFRESH_MS,
    publicBaseUrl: r.SLUICE_PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    admin: { ratePerSecond: r.SLUICE_ADMIN_RATE_PER_SECOND, burst: r.SLUICE_ADMIN_BURST },
    scim: {
      settingsDelayMs: r.SLUICE_SETTINGS_DELAY_SECONDS * 1000,
      allowInsecure: r.SLUICE_OUTBOUND_ALLOW_INSECURE,
      timeoutMs: r.SLUICE_JWKS_TIMEOUT_MS,
      maxBytes: r.SLUICE_JWKS_MAX_BYTES,
      cooldownMs: r.SLUICE_JWKS_COOLDOWN_MS,
    },
    webhooks: {
      maxBodyBytes: r.SLUICE_WEBHOOK_MAX_BODY_BYTES,
      ratePerSecond: r.SLUICE_WEBHOOK_RATE_PER_SECOND,
      burst: r.SLUICE_WEBHOOK_BURST,
      rotationOverlapMs: r.SLUICE_WEBHOOK_ROTATION_OVERLAP_SECONDS * 1000,
      streamMaxLen: r.SLUICE_ALERT_STREAM_MAXLEN,
      streamMaxAgeMs: r.SLUICE_ALERT_STREAM_MAX_AGE_HOURS * 3_600_000,
      integrationRefreshMs: r.SLUICE_INTEGRATION_REFRESH_MS,
    },
  }
  return deepFreeze(config)
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

/**
 * One spool per edge process: by port, since two edges on one host cannot share one. With port 0
 * (any free port, tests) the port is not known yet, so a fresh temporary directory is used.
 */
function defaultSpoolDir(dataDir: string, port: number): string {
  return port === 0 ? join(tmpdir(), `sluice-spool-${process.pid}-${randomUUID().slice(0, 8)}`) : join(dataDir, 'spool', `edge-${port}`)
}
