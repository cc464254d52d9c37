// One error model for the pipeline: every failure that crosses a port is an AppError with a code
// from a closed set and `retriable`. Retriable failures are infrastructure (a connection, a timeout,
// an overloaded server): waiting and trying again can help. The others are deterministic: the same
// input fails the same way, so retrying it would only stall a partition.

export type AppErrorCode =
  /** The sink could not be reached or did not answer in time, or said it is overloaded. */
  | 'SINK_UNAVAILABLE'
  /** The sink refused the data itself (a parse error, a value out of range): isolate and reject it. */
  | 'SINK_REFUSED_DATA'
  /**
   * The sink refused a statement of Sluice's own, not for its data and not for a passing state (a
   * syntax or name the server does not take, a permission): the same statement fails the same way
   * until Sluice or the server's configuration changes. Never retried at once; a consumer holds its
   * batch and says so (log, metric, /readyz), an HTTP caller gets a 500.
   */
  | 'SINK_REFUSED_QUERY'
  /** The consumer lost its partitions (evicted, rebalanced): the batch goes back to the group. */
  | 'PARTITION_LOST'
  /** The consumer is stopping: the batch is left for the next owner. */
  | 'CONSUMER_STOPPING'
  /** Logic a tenant wrote (templates, conditions, windows) went over its item's budget (shared/budget.ts). */
  | 'BUDGET_EXCEEDED'
  /** One template went over its own limits (output, section depth), whatever the budget left. */
  | 'RENDER_LIMIT_EXCEEDED'
  /**
   * A read stopped at the time or memory limit set for it: the same read fails the same way until the
   * data, the request or the limit changes (the answer names the limit; never "retry later" alone).
   */
  | 'QUERY_LIMIT'
  /** The edge's disk spool has no room for a body (Kafka is away and the spool filled up). */
  | 'SPOOL_FULL'
  /** The edge's disk spool could not write (disk error, permissions). */
  | 'SPOOL_FAILED'

export type Sink = 'clickhouse' | 'redis'

/** One problem of an input: the field (a path such as `keys[3]` or `name.givenName`) and what is wrong. */
export interface FieldProblem {
  readonly field: string
  readonly problem: string
}

/**
 * What a request is refused for, whoever made it (HTTP or the `sluice` command): invalid input, an
 * unknown id, a conflict with what exists, a caller not allowed, a resource changed since the version
 * the caller named. Deterministic, so never retried.
 */
export type RefusalCode = 'INVALID' | 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN' | 'PRECONDITION_FAILED'

export class Refusal extends Error {
  override readonly name = 'Refusal'
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly details?: readonly FieldProblem[],
  ) {
    super(message)
  }
}

/** A Refusal for invalid input, its message made of the problems. */
export function invalid(problems: readonly FieldProblem[], lead?: string): Refusal {
  const shown = problems
    .slice(0, 5)
    .map((p) => `${p.field} ${p.problem}`)
    .join('; ')
  return new Refusal('INVALID', lead ? `${lead}: ${shown}` : shown, problems.slice(0, 100))
}

export class AppError extends Error {
  override readonly name = 'AppError'
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly retriable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** The message of anything thrown, for logs and rejection reasons. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

// ClickHouse exception codes that describe the data of an insert, not the server: the same rows
// fail again wherever and whenever they are sent.
const CLICKHOUSE_DATA_CODES = new Set([
  6, // CANNOT_PARSE_TEXT
  25, // CANNOT_PARSE_ESCAPE_SEQUENCE (a lone UTF-16 surrogate in a JSON string)
  26, // CANNOT_PARSE_QUOTED_STRING
  27, // CANNOT_PARSE_INPUT_ASSERTION_FAILED
  32, // ATTEMPT_TO_READ_AFTER_EOF (a row cut short; the same code for a connection cut, see NETWORK_TEXT)
  38, // CANNOT_PARSE_DATE
  41, // CANNOT_PARSE_DATETIME
  53, // TYPE_MISMATCH
  69, // ARGUMENT_OUT_OF_BOUND
  70, // CANNOT_CONVERT_TYPE
  72, // CANNOT_PARSE_NUMBER
  117, // INCORRECT_DATA
  128, // TOO_LARGE_ARRAY_SIZE
  131, // TOO_LARGE_STRING_SIZE
  321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
  349, // CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN
  395, // FUNCTION_THROW_IF_VALUE_IS_NON_ZERO
  469, // VIOLATED_CONSTRAINT
])

// ClickHouse exception codes of a passing state of the server, its network or its cluster: waiting
// and trying again helps. Any other code is a refusal of the statement itself (SINK_REFUSED_QUERY).
const CLICKHOUSE_PASSING_CODES = new Set([
  23, // CANNOT_READ_FROM_ISTREAM
  24, // CANNOT_WRITE_TO_OSTREAM
  60, // UNKNOWN_TABLE (not created yet: the events role migrates)
  81, // UNKNOWN_DATABASE (idem)
  159, // TIMEOUT_EXCEEDED
  164, // READONLY (a server or replica in read-only mode)
  173, // CANNOT_ALLOCATE_MEMORY
  198, // DNS_ERROR
  202, // TOO_MANY_SIMULTANEOUS_QUERIES
  203, // NO_FREE_CONNECTION
  209, // SOCKET_TIMEOUT
  210, // NETWORK_ERROR
  225, // NO_ZOOKEEPER
  236, // ABORTED
  241, // MEMORY_LIMIT_EXCEEDED
  242, // TABLE_IS_READ_ONLY (a replica that lost ZooKeeper)
  252, // TOO_MANY_PARTS
  279, // ALL_CONNECTION_TRIES_FAILED
  285, // TOO_FEW_LIVE_REPLICAS
  286, // UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE
  289, // REPLICA_IS_NOT_IN_QUORUM (a read with sequential consistency on a replica that lacks a quorum insert)
  319, // UNKNOWN_STATUS_OF_INSERT
  394, // QUERY_WAS_CANCELLED (the sink's own KILL QUERY of an insert left without an answer)
  425, // SYSTEM_ERROR
  439, // CANNOT_SCHEDULE_TASK
  473, // DEADLOCK_AVOIDED
  999, // KEEPER_EXCEPTION
  1000, // POCO_EXCEPTION (18.16: I/O and network failures, such as a connection refused)
])

const ATTEMPT_TO_READ_AFTER_EOF = 32
/**
 * On a cluster, the server that took an insert reports a replica dying under it as "Attempt to read
 * after eof: while receiving packet from <host:port>" (code 32, the code of a row cut short too).
 * Such an insert may have been stored by the shard it reached: an outage, never a refusal of its rows.
 * (Only for code 32: other messages quote the rows themselves, whose text is the sender's.)
 */
const NETWORK_EOF = /while (?:receiving packet from|reading from socket|writing to socket)/

/**
 * The exception code in a ClickHouse error: `code` on current servers, the text on 18.16 ("Code: 25, e.displayText() =
 * ...").
 */
export function clickhouseCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code === 'string' && /^\d+$/.test(code)) return Number(code)
  const match = /^Code: (\d+)[.,]/.exec(messageOf(err))
  return match ? Number(match[1]) : undefined
}

/** What a ClickHouse failure is: the data's fault, a passing state worth waiting out, or a refusal of the statement. */
export type ClickHouseFailure = 'data' | 'passing' | 'refused'

/**
 * Classifies a ClickHouse failure. `carriesData`: the statement is an insert of rows, whose data
 * codes are the rows' fault; in any other statement they are Sluice's (its literals). A failure
 * without an exception code is the transport's (a refused or cut connection, a timeout): passing.
 */
export function clickhouseFailure(err: unknown, carriesData: boolean): ClickHouseFailure {
  const code = clickhouseCode(err)
  if (code === undefined || CLICKHOUSE_PASSING_CODES.has(code)) return 'passing'
  if (code === ATTEMPT_TO_READ_AFTER_EOF && NETWORK_EOF.test(messageOf(err))) return 'passing'
  return carriesData && CLICKHOUSE_DATA_CODES.has(code) ? 'data' : 'refused'
}

/**
 * An AppError for anything a ClickHouse call threw. `purpose` names the statement in a refusal's
 * message (for instance "the experiment results query"), so a log line says what broke.
 */
export function fromClickHouse(err: unknown, purpose: string, carriesData = false): AppError {
  if (err instanceof AppError) return err
  const text = messageOf(err)
    .replace(/, e\.what\(\) = DB::Exception\s*$/s, '')
    .trim()
  switch (clickhouseFailure(err, carriesData)) {
    case 'data':
      return new AppError('SINK_REFUSED_DATA', text, false, { cause: err })
    case 'passing':
      return new AppError('SINK_UNAVAILABLE', `clickhouse: ${text}`, true, { cause: err })
    case 'refused':
      return new AppError(
        'SINK_REFUSED_QUERY',
        `clickhouse refused ${purpose} (code ${clickhouseCode(err)}): ${text}`,
        false,
        { cause: err },
      )
  }
}

// Redis replies that describe the server's state, not the command: waited out. Any other error reply
// (ERR, WRONGTYPE, a script error) is deterministic for that command and its arguments.
const REDIS_TRANSIENT_REPLY =
  /^(OOM|LOADING|BUSY|READONLY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|NOREPLICAS|NOPERM|NOAUTH|WRONGPASS|MOVED|ASK)\b/
/**
 * Keys of one command, script or pipeline in different slots of a Redis Cluster: a fault of Sluice's key layout
 * (keys.ts), not of the data.
 */
const REDIS_SLOT_FAULT = /CROSSSLOT|non local key|do not hash to the same slot|same slots allocation group/
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * Whether an ioredis error says Redis is away or in a passing state: a command past its deadline
 * (commandTimeout), a closed connection, retries exhausted, a server loading, busy or out of memory.
 */
export function isRedisOutage(err: unknown): boolean {
  const e = err as { name?: string; message?: string; code?: string } | null
  if (!e) return false
  if (e.name === 'ReplyError') return REDIS_TRANSIENT_REPLY.test(e.message ?? '')
  if (e.name === 'MaxRetriesPerRequestError') return true
  const m = e.message ?? ''
  return (
    m === 'Command timed out' ||
    m.startsWith('Connection is closed') ||
    m.startsWith("Stream isn't writeable") ||
    NETWORK_CODES.has(e.code ?? '')
  )
}

/** An AppError for anything an ioredis call threw: refused data for a deterministic error reply, else an outage. */
export function fromRedis(err: unknown): AppError {
  if (err instanceof AppError) return err
  const text = messageOf(err)
  // Nothing was written: kept for a retry (loudly) rather than stored as a rejection of data that is not at fault.
  if (REDIS_SLOT_FAULT.test(text))
    return new AppError(
      'SINK_UNAVAILABLE',
      `redis: keys of one call are in different cluster slots (a fault in Sluice's key layout): ${text}`,
      true,
      { cause: err },
    )
  if ((err as { name?: string } | null)?.name === 'ReplyError' && !isRedisOutage(err))
    return new AppError('SINK_REFUSED_DATA', `redis: ${text}`, false, { cause: err })
  return new AppError('SINK_UNAVAILABLE', `redis: ${text}`, true, { cause: err })
}

/** A Redis read whose failure is classified as the consumers' retries expect (fromRedis). */
export async function redisCall<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (err) {
    throw fromRedis(err)
  }
}

/** The sink_errors metric's kind of a failure. */
export function failureKind(err: AppError): 'retriable' | 'data' | 'refused' {
  return err.retriable ? 'retriable' : err.code === 'SINK_REFUSED_QUERY' ? 'refused' : 'data'
}

/** Whether an error says a dependency is away rather than the request being wrong. */
export function isDependencyUnavailable(err: unknown): boolean {
  return err instanceof AppError ? err.retriable : isRedisOutage(err)
}
