// The analysis queries' way to ClickHouse: read-only (readonly=2, so a query can only read, whatever
// its text), bounded in time and memory, rows as JSONEachRow. Anything ClickHouse or the network
// throws is an AppError: retriable (503 to an HTTP caller) for an unreachable, slow or overloaded
// server or a table not created yet; our own bug otherwise.
import type { ClickHouseClient } from '@clickhouse/client'
import { AppError, clickhouseCode, fromClickHouse } from '../shared/errors.js'
import { bind, type Query } from './sql.js'

export interface AnalysisLimits {
  readonly timeoutMs: number
  readonly maxMemoryBytes: number
}

export type QueryRunner = (query: Query) => Promise<Record<string, unknown>[]>

const UNKNOWN_TABLE = 60

export function clickhouseRunner(client: ClickHouseClient, limits: AnalysisLimits): QueryRunner {
  return async (query) => {
    try {
      const result = await client.query({
        query: bind(query),
        format: 'JSONEachRow',
        clickhouse_settings: { readonly: '2', max_execution_time: Math.ceil(limits.timeoutMs / 1000), max_memory_usage: String(limits.maxMemoryBytes) },
        // A paused or unreachable server is not waited for past the query's own limit.
        abort_signal: AbortSignal.timeout(limits.timeoutMs + 2000),
      })
      return await result.json<Record<string, unknown>>()
    } catch (err) {
      if ((err as Error | null)?.name === 'AbortError' || (err as Error | null)?.name === 'TimeoutError')
        throw new AppError('SINK_UNAVAILABLE', `clickhouse did not answer within ${limits.timeoutMs + 2000} ms`, true, { cause: err })
      if (clickhouseCode(err) === UNKNOWN_TABLE)
        throw new AppError('SINK_UNAVAILABLE', 'clickhouse has no impressions or events tables yet (a process of the events role creates them)', true, { cause: err })
      throw fromClickHouse(err)
    }
  }
}
