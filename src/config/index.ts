// The one reader of process.env. Every setting is written once, below: its variable, its schema
// (type, bounds, default), one line of documentation, and where it goes in the configuration. The
// Config type is derived from that table, the settings table of docs/operators/configuration.md is
// generated from it (a test keeps them in step), and a wrong value stops the process with a message
// naming the variable.
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import { Type, type Static, type TSchema } from 'typebox'

const MiB = 1024 * 1024

/** The validated values by variable (defaults filled in), for settings derived from others. */
type Raw = Readonly<Record<string, unknown>>

interface Setting<S extends TSchema = TSchema, T = unknown> {
  readonly env: string
  readonly schema: S
  readonly doc: string
  /** What the default means when the schema has none (for the documentation). */
  readonly defaultDoc?: string
  readonly value: (v: Static<S> | undefined, raw: Raw) => T
}

/** A setting with a default in its schema: its value is the validated one, or `map` of it. */
function setting<S extends TSchema, T = Static<S>>(
  env: string,
  schema: S,
  doc: string,
  map?: (v: Static<S>, raw: Raw) => T,
): Setting<S, T> {
  return { env, schema, doc, value: (v, raw) => (map ? map(v as Static<S>, raw) : (v as T)) }
}

/** A setting without a default: `value` decides what its absence means (documented by defaultDoc). */
function optional<S extends TSchema, T>(
  env: string,
  schema: S,
  doc: string,
  defaultDoc: string,
  value: (v: Static<S> | undefined, raw: Raw) => T,
): Setting<S, T> {
  return { env, schema, doc, defaultDoc, value }
}

const int = (min: number, max: number, def: number) => Type.Integer({ minimum: min, maximum: max, default: def })
const seconds = (v: number) => v * 1000
/** A 32-byte key in base64 or hex. */
const SECRETS_KEY = '([A-Za-z0-9+/]{43}=|[0-9a-fA-F]{64})'

const dataDirOf = (raw: Raw): string =>
  (raw['SLUICE_DATA_DIR'] as string | undefined) ?? fileURLToPath(new URL('../../.sluice', import.meta.url))

/**
 * One spool per edge process: by port, since two edges on one host cannot share one. With port 0
 * (any free port, tests) the port is not known yet, so a fresh temporary directory is used.
 */
function defaultSpoolDir(raw: Raw): string {
  const port = raw['SLUICE_PORT'] as number
  return port === 0
    ? join(tmpdir(), `sluice-spool-${process.pid}-${randomUUID().slice(0, 8)}`)
    : join(dataDirOf(raw), 'spool', `edge-${port}`)
}

const SETTINGS = {
  http: {
    host: setting(
      'SLUICE_HOST',
      Type.String({ minLength: 1, default: '127.0.0.1' }),
      'address the HTTP server binds to',
    ),
    port: setting('SLUICE_PORT', int(0, 65535, 8080), 'HTTP port (0: any free port)'),
    requestTimeoutMs: setting(
      'SLUICE_HTTP_REQUEST_TIMEOUT_MS',
      int(1000, 3_600_000, 60_000),
      'time a client has to send a whole request (slow senders are cut off)',
    ),
    idleTimeoutMs: setting(
      'SLUICE_HTTP_IDLE_TIMEOUT_MS',
      int(1000, 3_600_000, 120_000),
      'a connection with no traffic for this long is closed',
    ),
    checkAnswers: setting(
      'SLUICE_CHECK_ANSWERS',
      Type.Boolean({ default: false }),
      'development and tests: an answer that does not match the schema its route declares is a 500',
    ),
  },
  logLevel: setting(
    'SLUICE_LOG_LEVEL',
    Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
    'pino log level',
  ),
  dataDir: optional(
    'SLUICE_DATA_DIR',
    Type.String({ minLength: 1 }),
    'where `sluice stack` keeps data and logs',
    '`<project>/.sluice`',
    (_v, raw) => dataDirOf(raw),
  ),
  shutdownTimeoutMs: setting(
    'SLUICE_SHUTDOWN_TIMEOUT_MS',
    int(1000, 600_000, 20_000),
    'deadline of a graceful shutdown',
  ),
  consumerThread: setting(
    'SLUICE_CONSUMER_THREAD',
    Type.Boolean({ default: true }),
    'a process that serves HTTP (edge, admin) and consumes (events, alerts) runs its consumers in a worker thread of their own, so they do not share one event loop with the routes',
  ),
  spool: {
    dir: optional(
      'SLUICE_SPOOL_DIR',
      Type.String({ minLength: 1 }),
      'the edge spool, one directory per edge process',
      '`<data dir>/spool/edge-<port>` (a temporary one with port 0)',
      (v, raw) => v ?? defaultSpoolDir(raw),
    ),
    maxBytes: setting(
      'SLUICE_SPOOL_MAX_BYTES',
      int(MiB, 1024 * 1024 * MiB, 1024 * MiB),
      'bytes the edge spool may hold; beyond it requests are answered 503',
    ),
    afterMs: setting(
      'SLUICE_SPOOL_AFTER_MS',
      int(50, 60_000, 2000),
      'how long a request waits for Kafka before its messages go to the spool',
    ),
  },
  kafka: {
    brokers: setting(
      'KAFKA_BROKERS',
      Type.String({ pattern: '^[^,\\s]+:\\d+(,[^,\\s]+:\\d+)*$', default: '127.0.0.1:9092' }),
      'comma-separated host:port list',
      (v) => v.split(','),
    ),
    clientId: setting(
      'KAFKA_CLIENT_ID',
      Type.String({ minLength: 1, default: 'sluice' }),
      'client id of every Kafka connection',
    ),
    topicPrefix: setting(
      'KAFKA_TOPIC_PREFIX',
      Type.String({ pattern: '^[a-zA-Z0-9._-]*$', default: 'sluice.' }),
      'prefix of every topic name',
    ),
    groupPrefix: setting(
      'KAFKA_GROUP_PREFIX',
      Type.String({ pattern: '^[a-zA-Z0-9._-]*$', default: 'sluice.' }),
      'prefix of every consumer group id',
    ),
    partitions: setting('KAFKA_PARTITIONS', int(1, 1000, 3), 'partitions of topics created at startup'),
    replicationFactor: optional(
      'KAFKA_REPLICATION_FACTOR',
      Type.Integer({ minimum: 1, maximum: 10 }),
      'replication factor of topics created at startup',
      '3 when the cluster has 3 brokers or more, else the number of brokers',
      (v) => v,
    ),
    minInsyncReplicas: optional(
      'KAFKA_MIN_INSYNC_REPLICAS',
      Type.Integer({ minimum: 1, maximum: 10 }),
      '`min.insync.replicas` of topics created at startup: a write is acknowledged (acks=all) only once this many replicas have it, else the edge spools or answers 503',
      '2, or the replication factor when it is 1',
      (v) => v,
    ),
    messageMaxBytes: setting(
      'KAFKA_MESSAGE_MAX_BYTES',
      int(16 * 1024, 900 * 1024, 768 * 1024),
      'largest Kafka message the edge writes; stays under the broker default message.max.bytes (1 MiB)',
    ),
    publishTimeoutMs: setting(
      'KAFKA_PUBLISH_TIMEOUT_MS',
      int(100, 600_000, 10_000),
      'a message still queued for Kafka this long is withdrawn (its request was spooled already)',
    ),
    sessionTimeoutMs: setting(
      'KAFKA_SESSION_TIMEOUT_MS',
      int(6000, 300_000, 30_000),
      'consumer session timeout: how soon partitions of a crashed consumer move to the others',
    ),
    fetchMaxBytes: setting(
      'SLUICE_CONSUMER_FETCH_MAX_BYTES',
      int(MiB, 256 * MiB, 8 * MiB),
      'bytes fetched per partition per batch; bounds consumer memory and the size of one insert',
    ),
    stallMs: setting(
      'SLUICE_CONSUMER_STALL_SECONDS',
      int(5, 86_400, 120),
      'a consumer holding a partition with lag and no progress for this long is stalled: /readyz answers 503 for its role',
      seconds,
    ),
  },
  clickhouse: {
    url: setting(
      'CLICKHOUSE_URL',
      Type.String({ pattern: '^https?://', default: 'http://127.0.0.1:8123' }),
      'ClickHouse HTTP address',
    ),
    user: setting('CLICKHOUSE_USER', Type.String({ default: 'default' }), 'ClickHouse user'),
    password: setting('CLICKHOUSE_PASSWORD', Type.String({ default: '' }), 'ClickHouse password'),
    database: setting(
      'CLICKHOUSE_DATABASE',
      Type.String({ pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$', default: 'sluice' }),
      'database of the events tables (created and migrated at start)',
    ),
    cluster: optional(
      'CLICKHOUSE_CLUSTER',
      Type.String({ pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$' }),
      "a cluster of the servers' `remote_servers`: tables are made ON CLUSTER, replicated per shard, and read and written through Distributed tables of the same names (see Running on clusters)",
      'unset: one server',
      (v) => v,
    ),
    requestTimeoutMs: setting(
      'CLICKHOUSE_REQUEST_TIMEOUT_MS',
      int(1000, 3_600_000, 300_000),
      'how long an insert may wait for ClickHouse (a paused server is waited for; an abandoned insert is killed before a retry)',
    ),
  },
  redis: {
    url: setting(
      'REDIS_URL',
      Type.String({ pattern: '^rediss?://', default: 'redis://127.0.0.1:6379' }),
      'Redis address, with credentials: redis://sluice:<password>@host:6379',
    ),
    clusterNodes: optional(
      'REDIS_CLUSTER_NODES',
      Type.String({ pattern: '^[^,\\s]+:\\d+(,[^,\\s]+:\\d+)*$' }),
      'comma-separated host:port of Redis Cluster nodes (some or all): keys carry hash tags and every write of the alerts sink waits for a replica; REDIS_URL then gives only the credentials and TLS (rediss://)',
      'one Redis, at REDIS_URL',
      (v) => (v === undefined ? [] : v.split(',')),
    ),
    waitReplicas: setting(
      'REDIS_WAIT_REPLICAS',
      int(0, 5, 1),
      'on a Redis Cluster, replicas that must have each write of the alerts sink (WAIT) before its Kafka offset is committed, so a failover loses none; 0 does not wait',
    ),
    keyPrefix: setting(
      'REDIS_KEY_PREFIX',
      Type.String({ pattern: '^[a-zA-Z0-9:._-]*$', default: 'sluice:' }),
      'prefix of every Redis key',
    ),
    commandTimeoutMs: setting(
      'SLUICE_REDIS_COMMAND_TIMEOUT_MS',
      int(100, 60_000, 2000),
      'deadline of every Redis command; past it an HTTP request is answered 503',
    ),
    accountBytes: setting(
      'SLUICE_ACCOUNT_STORED_BYTES',
      int(64 * 1024, 1024 * MiB, 32 * MiB),
      "bytes one account's alert rules (with the versions kept), maintenance windows and notification destinations may take in Redis; a change past it is refused (409), old rule versions are let go first",
    ),
  },
  events: {
    maxBodyBytes: setting(
      'SLUICE_EVENTS_MAX_BODY_BYTES',
      int(8 * MiB, 256 * MiB, 10 * MiB),
      'largest body of an SDK route: events, impressions, counts, unique keys, telemetry (413 above)',
    ),
    beaconMaxBodyBytes: setting(
      'SLUICE_BEACON_MAX_BODY_BYTES',
      int(1024, MiB, 64 * 1024),
      'largest beacon body (read before its key is known; browsers send at most 64 KiB)',
    ),
    messageFormat: setting(
      'SLUICE_EVENTS_MESSAGE_FORMAT',
      Type.Union([Type.Literal('lines'), Type.Literal('json')], { default: 'lines' }),
      "how the edge writes events to Kafka: `lines` (each record checked once, at the edge), or `json` (the body's records as sent, checked by the consumer), which releases before 2026-11-29 read: set it during a rolling upgrade from one of them, until no process of it is left",
    ),
    maxRecords: setting(
      'SLUICE_EVENTS_MAX_RECORDS',
      int(100_000, 10_000_000, 500_000),
      'most records (events, impressions, keys) in one body of an SDK route (SDK bursts reach tens of thousands; the body limit in bytes usually binds first)',
    ),
    ratePerSecond: setting(
      'SLUICE_EVENTS_RATE_PER_SECOND',
      Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, default: 2000 }),
      'sustained requests per second per SDK key and edge process, over every SDK route (429 above)',
    ),
    burst: setting(
      'SLUICE_EVENTS_BURST',
      int(1, 10_000_000, 10_000),
      'requests an SDK key may send at once per edge process, over every SDK route',
    ),
  },
  keyRefreshMs: setting(
    'SLUICE_KEY_REFRESH_MS',
    int(100, 60_000, 1000),
    'how soon API key and webhook address changes reach every process',
  ),
  publicBaseUrl: optional(
    'SLUICE_PUBLIC_BASE_URL',
    Type.String({ pattern: '^https?://[^\\s]+$' }),
    'base of the webhook addresses handed out',
    'the address the server listens on',
    (v) => v?.replace(/\/+$/, ''),
  ),
  admin: {
    ratePerSecond: setting(
      'SLUICE_ADMIN_RATE_PER_SECOND',
      Type.Number({ exclusiveMinimum: 0, maximum: 100_000, default: 20 }),
      'sustained admin API requests per second per API key, shared by every process through Redis',
    ),
    burst: setting('SLUICE_ADMIN_BURST', int(1, 100_000, 200), 'admin API requests an API key may send at once'),
    expensivePerSecond: setting(
      'SLUICE_ADMIN_EXPENSIVE_RATE_PER_SECOND',
      Type.Number({ exclusiveMinimum: 0, maximum: 100_000, default: 2 }),
      'sustained expensive admin calls per second per account (tests of rules, mappings and destinations; changes of alert rules and maintenance windows, which are compiled), shared by every process through Redis',
    ),
    expensiveBurst: setting(
      'SLUICE_ADMIN_EXPENSIVE_BURST',
      int(1, 100_000, 20),
      'expensive admin calls an account may send at once',
    ),
    reads: setting(
      'SLUICE_ADMIN_READS',
      int(1, 1000, 8),
      'expensive reads (Data Hub pages, experiment results: ClickHouse queries over many rows) one admin process runs at once; a read beyond them waits up to 5 s for a slot, then is a 429',
    ),
    readsPerAccount: setting(
      'SLUICE_ADMIN_READS_PER_ACCOUNT',
      int(1, 1000, 2),
      'expensive reads of one account one admin process runs at once; a read beyond them waits up to 5 s for a slot, then is a 429',
    ),
  },
  experiments: {
    maxConcurrent: setting(
      'SLUICE_EXPERIMENT_MAX_CONCURRENT',
      int(1, 64, 2),
      'experiment results computed at once per admin process, one per account (a request beyond them waits up to 5 s, then is a 429: each is a ClickHouse query over every exposed key)',
    ),
    queryTimeoutMs: setting(
      'SLUICE_EXPERIMENT_QUERY_TIMEOUT_MS',
      int(1000, 3_600_000, 120_000),
      'how long ClickHouse may compute one experiment result (503 after)',
    ),
    maxMemoryBytes: setting(
      'SLUICE_EXPERIMENT_MAX_MEMORY_BYTES',
      int(64 * MiB, 1024 * 1024 * MiB, 8 * 1024 * MiB),
      "ClickHouse's memory limit for one results query (max_memory_usage)",
    ),
    checkIntervalMs: setting(
      'SLUICE_EXPERIMENT_CHECK_SECONDS',
      int(1, 86_400, 3600),
      'the checks role: how often each running experiment (a flag with impressions in the last day) is checked for failing guardrails and a sample ratio mismatch',
      seconds,
    ),
    checkLookbackMs: setting(
      'SLUICE_EXPERIMENT_CHECK_DAYS',
      int(1, 366, 30),
      'the checks role: the window of impressions and events a check analyses, ending now',
      (v) => v * 86_400_000,
    ),
    checkFlagsPerAccount: setting(
      'SLUICE_EXPERIMENT_CHECK_FLAGS_PER_ACCOUNT',
      int(1, 1_000_000, 500),
      "the checks role: running experiments of one account analysed per run (the accounts take turns, one flag each); the flags not reached are the account's first ones next run, those with saved settings first",
    ),
    checkAccountMs: setting(
      'SLUICE_EXPERIMENT_CHECK_ACCOUNT_SECONDS',
      int(1, 86_400, 600),
      "the checks role: time one account's checks may take per run (listing its flags, analysing them, sending alerts); past it, its flags not reached wait for the next run",
      seconds,
    ),
    checkAlertsPerAccount: setting(
      'SLUICE_EXPERIMENT_CHECK_ALERTS_PER_ACCOUNT',
      int(1, 1_000_000, 100),
      "the checks role: firing alerts one account's run may send (repeats included); past it, the rest are cut (counted and logged) and its flags not reached wait for the next run",
    ),
    checkMinKeys: setting(
      'SLUICE_EXPERIMENT_CHECK_MIN_KEYS',
      int(0, 1_000_000_000, 0),
      'the checks role: exposed keys from which a flag without saved experiment settings raises its alerts with their severity (sample ratio critical, guardrail warning); 0: never, only flags with saved settings do. Others are info: anyone with a public client-side SDK key can post impressions (100,000 in one request) of flags it makes up',
    ),
  },
  dataHub: {
    retentionDays: setting(
      'SLUICE_RETENTION_DAYS',
      int(0, 36_500, 90),
      'days events, impressions, impression counts, unique keys and SDK telemetry are kept after they were received (0: for ever): a TTL on servers that have one (19.6 on), else deleted daily by the checks role',
    ),
    rejectionsRetentionDays: setting(
      'SLUICE_REJECTIONS_RETENTION_DAYS',
      int(0, 36_500, 30),
      'days refused records are kept after they were received (0: for ever), as SLUICE_RETENTION_DAYS',
    ),
    tailViewers: setting(
      'SLUICE_TAIL_VIEWERS',
      int(0, 10_000, 20),
      'live tail viewers (server-sent event streams) one process serves at once; more are a 429',
    ),
    tailPerSecond: setting(
      'SLUICE_TAIL_RECORDS_PER_SECOND',
      int(0, 10_000, 50),
      'records of one environment or integration a consumer process sends to its live tail viewers per second; more are sampled (the viewers are told: 1 in N); 0 turns the tail off',
    ),
    tailViewersPerAccount: setting(
      'SLUICE_TAIL_VIEWERS_PER_ACCOUNT',
      int(1, 10_000, 5),
      'live tail viewers of one account one process serves at once; more are a 429',
    ),
    tailViewersPerKey: setting(
      'SLUICE_TAIL_VIEWERS_PER_KEY',
      int(1, 10_000, 2),
      'live tail viewers of one admin API key one process serves at once; more are a 429',
    ),
    tailBufferBytes: setting(
      'SLUICE_TAIL_BUFFER_BYTES',
      int(1024, 64 * MiB, 256 * 1024),
      'bytes of records a live tail viewer may have waiting to be sent; a reader slower than that is cut off',
    ),
    tailPingMs: setting(
      'SLUICE_TAIL_PING_MS',
      int(100, 600_000, 15_000),
      'how often an idle live tail stream sends a comment line, so that proxies keep it open',
    ),
    tailCutGraceMs: setting(
      'SLUICE_TAIL_CUT_GRACE_MS',
      int(100, 600_000, 5000),
      'how long a live tail viewer cut off for reading too slowly has to read why before its connection is closed',
    ),
    freshnessIntervalMs: setting(
      'SLUICE_FRESHNESS_INTERVAL_MS',
      int(0, 3_600_000, 60_000),
      'the checks role: how often a canary event per partition measures the time from accepted to queryable in ClickHouse (0: never)',
    ),
    jobLeaseMs: setting(
      'SLUICE_JOB_LEASE_SECONDS',
      int(1, 3600, 30),
      'the checks role: how long a data job (an erasure, a replay) is held by a process without news from it before another takes it over (a process killed mid-job)',
      seconds,
    ),
  },
  scim: {
    settingsDelayMs: setting(
      'SLUICE_SETTINGS_DELAY_SECONDS',
      int(0, 86_400, 120),
      'how long after a successful PUT /gateway/ng/api/settings new values take effect',
      seconds,
    ),
    /** Fetching an account's JWKS: the outbound policy of that request, and how often an unknown kid may refetch. */
    jwks: {
      allowInsecure: setting(
        'SLUICE_JWKS_ALLOW_INSECURE',
        Type.Boolean({ default: false }),
        'development and tests only: let the SCIM JWKS URL use http and loopback addresses',
      ),
      timeoutMs: setting('SLUICE_JWKS_TIMEOUT_MS', int(100, 60_000, 5000), 'time limit of one JWKS fetch'),
      maxBytes: setting('SLUICE_JWKS_MAX_BYTES', int(1024, MiB, 65_536), 'largest JWKS document accepted'),
      cooldownMs: setting(
        'SLUICE_JWKS_COOLDOWN_MS',
        int(0, 3_600_000, 30_000),
        'least time between JWKS refetches caused by an unknown kid',
      ),
    },
  },
  secrets: {
    keys: optional(
      'SLUICE_SECRETS_KEY',
      Type.String({ pattern: `^${SECRETS_KEY}(,${SECRETS_KEY})*$` }),
      'keys (32 bytes each, base64 or hex; comma-separated, the first one encrypts) under which secrets Sluice must read back, such as HMAC secrets of alert senders, are encrypted at rest; every process needs the same keys',
      'unset: HMAC sender authentication cannot be set up (npm start makes one in .sluice/secrets-key)',
      (v) => (v ? v.split(',') : []),
    ),
  },
  webhooks: {
    maxBodyBytes: setting(
      'SLUICE_WEBHOOK_MAX_BODY_BYTES',
      int(1024, 16 * MiB, MiB),
      'largest webhook body (413 above)',
    ),
    ratePerSecond: setting(
      'SLUICE_WEBHOOK_RATE_PER_SECOND',
      Type.Number({ exclusiveMinimum: 0, maximum: 100_000, default: 10 }),
      'sustained requests per second per webhook address, shared by every edge through Redis',
    ),
    burst: setting('SLUICE_WEBHOOK_BURST', int(1, 100_000, 50), 'requests a webhook address may send at once'),
    rotationOverlapMs: setting(
      'SLUICE_WEBHOOK_ROTATION_OVERLAP_SECONDS',
      int(0, 30 * 86_400, 86_400),
      'how long a rotated-out address keeps working',
      seconds,
    ),
    streamMaxLen: setting(
      'SLUICE_ALERT_STREAM_MAXLEN',
      int(100, 100_000_000, 100_000),
      'approximate entries kept per alert stream',
    ),
    streamMaxAgeMs: setting(
      'SLUICE_ALERT_STREAM_MAX_AGE_HOURS',
      int(1, 24 * 3650, 168),
      'alert stream entries older than this are trimmed',
      (v) => v * 3_600_000,
    ),
    integrationRefreshMs: setting(
      'SLUICE_INTEGRATION_REFRESH_MS',
      int(100, 60_000, 1000),
      'how soon changes of integrations, alert rules and windows, and tracking plans reach the consumers',
    ),
    alertRetentionMs: setting(
      'SLUICE_ALERT_RETENTION_DAYS',
      int(1, 3650, 30),
      'resolved alerts (their records and history) are removed this many days after they were resolved',
      (v) => v * 86_400_000,
    ),
    autoResolveIntervalMs: setting(
      'SLUICE_ALERT_AUTO_RESOLVE_INTERVAL_MS',
      int(100, 60_000, 5000),
      "how often a process of the alerts role resolves the firing alerts whose integration's autoResolveAfterSeconds has passed",
    ),
    rulesBudgetMs: setting(
      'SLUICE_ALERT_RULES_BUDGET_MS',
      int(1, 10_000, 100),
      "CPU time an account's alert rules and maintenance windows may take for one webhook payload (all its alerts) or one test of the rules; past it the alerts are stored as their mapping made them, saying why (overBudget)",
    ),
  },
  notify: {
    allowedRanges: optional(
      'SLUICE_NOTIFY_ALLOWED_RANGES',
      Type.String({ pattern: '^[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*$' }),
      'private address ranges (CIDR, comma-separated, e.g. 10.20.0.0/16) notification destinations may reach, for receivers on premises',
      'none: public addresses only',
      (v) => (v ? v.split(',') : []),
    ),
    allowHttp: setting(
      'SLUICE_NOTIFY_ALLOW_HTTP',
      Type.Boolean({ default: false }),
      'let notification destinations use http (and loopback addresses): development and tests only',
    ),
    timeoutMs: setting('SLUICE_NOTIFY_TIMEOUT_MS', int(100, 120_000, 10_000), 'time limit of one notification request'),
    leaseMs: setting(
      'SLUICE_NOTIFY_LEASE_SECONDS',
      int(2, 3600, 60),
      'how long a notify process holds a delivery it is sending; one killed while sending has it sent again after this',
      seconds,
    ),
    giveUpMs: setting(
      'SLUICE_NOTIFY_GIVE_UP_SECONDS',
      int(5, 30 * 86_400, 86_400),
      'a delivery still failing this long after its alert event goes to the dead letter',
      seconds,
    ),
    retentionMs: setting(
      'SLUICE_NOTIFY_RETENTION_DAYS',
      int(1, 365, 7),
      'how long deliveries and their log are kept',
      (v) => v * 86_400_000,
    ),
    escalationLeaseMs: setting(
      'SLUICE_ESCALATION_LEASE_SECONDS',
      int(1, 600, 10),
      'how long a notify process holds the escalation job, and a step it is firing: one killed has them taken over after this (a step is late by at most this)',
      seconds,
    ),
    escalationsPerAccount: setting(
      'SLUICE_ESCALATIONS_PER_ACCOUNT',
      int(1, 1_000_000, 10_000),
      'escalations an account may run at once; an incident opened past it is not escalated, and its timeline says why',
    ),
    escalationTickMs: setting(
      'SLUICE_ESCALATION_TICK_MS',
      int(50, 60_000, 500),
      'how often the escalation job looks for due steps',
    ),
    heartbeatTickMs: setting(
      'SLUICE_HEARTBEAT_TICK_MS',
      int(100, 60_000, 5000),
      'how often the heartbeat job (checks role) looks for integrations whose payloads stopped',
    ),
  },
} as const

type Value<X> = X extends Setting<TSchema, infer T> ? T : { readonly [K in keyof X]: Value<X[K]> }

/** The configuration, as the table above makes it. */
export type Config = Value<typeof SETTINGS>

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

const isSetting = (x: unknown): x is Setting => typeof x === 'object' && x !== null && 'env' in x && 'schema' in x

/** Every setting, in the order of the table. */
export function settings(): readonly Setting[] {
  const all: Setting[] = []
  const walk = (node: object) => {
    for (const child of Object.values(node)) {
      if (isSetting(child)) all.push(child)
      else walk(child as object)
    }
  }
  walk(SETTINGS)
  return all
}

const validate = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false }).compile({
  type: 'object',
  properties: Object.fromEntries(settings().map((s) => [s.env, s.schema])),
})

/** Reads and validates the settings; throws ConfigError naming each bad variable. */
/** Variables that were renamed: setting the old name stops the process with the new one, rather than being ignored. */
const RENAMED: Readonly<Record<string, string>> = {
  SLUICE_OUTBOUND_ALLOW_INSECURE: 'SLUICE_JWKS_ALLOW_INSECURE',
  SLUICE_ALERT_POLICY_BUDGET_MS: 'SLUICE_ALERT_RULES_BUDGET_MS',
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const renamed = Object.entries(RENAMED).filter(([old]) => env[old] !== undefined && env[old] !== '')
  if (renamed.length > 0)
    throw new ConfigError(
      `invalid configuration: ${renamed.map(([old, now]) => `${old} is now called ${now}`).join('; ')}`,
    )
  const raw: Record<string, unknown> = {}
  for (const s of settings()) {
    const value = env[s.env]
    // An empty variable counts as unset, as shells and compose files often produce them.
    if (value !== undefined && value !== '') raw[s.env] = value
  }
  if (!validate(raw)) {
    const problems = (validate.errors ?? []).map((e) => {
      const name = e.instancePath.replace(/^\//, '')
      return `${name}=${JSON.stringify(raw[name] ?? null)} ${e.message ?? 'is invalid'}`
    })
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`)
  }
  const build = (node: object): unknown =>
    Object.fromEntries(
      Object.entries(node).map(([key, child]) => [
        key,
        isSetting(child) ? child.value(raw[child.env], raw) : build(child as object),
      ]),
    )
  return deepFreeze(build(SETTINGS) as Config)
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

/** The settings as a Markdown table (docs/operators/configuration.md holds this table). */
export function settingsTable(): string {
  const def = (s: Setting) => {
    const d = (s.schema as { default?: unknown }).default
    return (
      s.defaultDoc ?? (d === undefined ? '' : d === '' ? 'empty' : `\`${JSON.stringify(d).replace(/^"(.*)"$/, '$1')}\``)
    )
  }
  const rows = settings().map((s) => `| \`${s.env}\` | ${def(s)} | ${s.doc.replaceAll('|', '\\|')} |`)
  return ['| variable | default | what it does |', '|---|---|---|', ...rows].join('\n')
}
