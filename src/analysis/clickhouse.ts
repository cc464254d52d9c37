// The analysis queries' way to ClickHouse: read-only (readonly=2, so a query can only read, whatever
// its text), bounded in time and memory, rows as JSONEachRow. Anything ClickHouse or the network
// throws is an AppError: retriable (503 to an HTTP caller) for an unreachable, slow or overloaded
// server or a table not created yet; SINK_REFUSED_QUERY (500, its log naming the code and the query)
// for a statement the server refuses, which is a bug of Sluice's SQL for that release.
import type { ClickHouseClient } from '@clickhouse/client'
import { AppError, clickhouseCode, fromClickHouse } from '../shared/errors.js'
import { bind, type Query } from './sql.js'

export interface AnalysisLimits {
  readonly timeoutMs: number
  readonly maxMemoryBytes: number
}

export type QueryRunner = (query: Query) => Promise<Record<string, unknown>[]>

const DEFAULT_MAX_QUERY_SIZE = 262_144
const UNKNOWN_TABLE = 60
const UNKNOWN_DATABASE = 81
const TIMEOUT_EXCEEDED = 159
const MEMORY_LIMIT_EXCEEDED = 241

export function clickhouseRunner(client: ClickHouseClient, limits: AnalysisLimits): QueryRunner {
  return async (query) => {
    try {
      const text = bind(query)
      const bytes = Buffer.byteLength(text)
      const result = await client.query({
        query: text,
        format: 'JSONEachRow',
        clickhouse_settings: {
          // A query past ClickHouse's default 256 KiB (an identity dimension's values, bounded by its builder).
          ...(bytes > DEFAULT_MAX_QUERY_SIZE ? { max_query_size: String(bytes + 1024) } : {}),
          readonly: '2',
          max_execution_time: Math.ceil(limits.timeoutMs / 1000),
          max_memory_usage: String(limits.maxMemoryBytes),
          // On a cluster a key's impressions and events are on different shards (each Kafka partition
          // has its shard): a join of two Distributed tables reads its right side once, on the server
          // asked, and sends it to every shard (GLOBAL JOIN). No effect on one server.
          distributed_product_mode: 'global',
        },
        // A paused or unreachable server is not waited for past the query's own limit.
        abort_signal: AbortSignal.timeout(limits.timeoutMs + 2000),
      })
      return await result.json<Record<string, unknown>>()
    } catch (err) {
      if ((err as Error | null)?.name === 'AbortError' || (err as Error | null)?.name === 'TimeoutError')
        throw new AppError('SINK_UNAVAILABLE', `clickhouse did not answer within ${limits.timeoutMs + 2000} ms`, true, {
          cause: err,
        })
      const code = clickhouseCode(err)
      if (code === UNKNOWN_TABLE || code === UNKNOWN_DATABASE)
        throw new AppError(
          'SINK_UNAVAILABLE',
          'clickhouse has no impressions or events tables yet (a process of the events role creates them)',
          true,
          { cause: err },
        )
      if (code === TIMEOUT_EXCEEDED || code === MEMORY_LIMIT_EXCEEDED)
        throw new AppError(
          'QUERY_LIMIT',
          code === TIMEOUT_EXCEEDED
            ? `clickhouse stopped the query at its time limit of ${limits.timeoutMs} ms (SLUICE_EXPERIMENT_QUERY_TIMEOUT_MS): narrow the window or raise the limit`
            : `clickhouse stopped the query at its memory limit of ${limits.maxMemoryBytes} bytes (SLUICE_EXPERIMENT_MAX_MEMORY_BYTES): narrow the window or raise the limit`,
          false,
          { cause: err },
        )
      // An outage is retriable (503); a query ClickHouse refuses is a bug of its builder (500, never retried).
      throw fromClickHouse(err, query.purpose)
    }
  }
}
