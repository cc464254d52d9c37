// How long ClickHouse keeps what Sluice stored: every table of records has a retention in days after receipt
// (SLUICE_RETENTION_DAYS for the data, SLUICE_REJECTIONS_RETENTION_DAYS for refused records). On servers with table
// TTLs (19.6 on) it is the table's TTL, set at start after the migrations, and changed when the setting changes.
// ClickHouse 18.16 has none: the checks role then runs retentionDeletes() once a day (a mutation per table).
import type { ClickHouseClient } from '@clickhouse/client'
import type { Logger } from '../../shared/logger.js'
import type { ClickHouseCapabilities } from './capabilities.js'
import { localTable, type SchemaTarget } from './migrations.js'

export interface Retention {
  /** Days events, impressions, counts, unique keys and telemetry are kept after receipt; 0 for ever. */
  readonly dataDays: number
  /** Days refused records are kept; 0 for ever. */
  readonly rejectionsDays: number
}

/** Every table of records, and which retention applies to it. Each has `received_at` (DateTime). */
export const RETAINED_TABLES = {
  events: 'data',
  impressions: 'data',
  impression_counts: 'data',
  unique_keys: 'data',
  sdk_telemetry: 'data',
  event_rejections: 'rejections',
  impression_rejections: 'rejections',
  event_violations: 'rejections',
} as const satisfies Record<string, 'data' | 'rejections'>

export type RetainedTable = keyof typeof RETAINED_TABLES

export function retentionDays(retention: Retention, table: RetainedTable): number {
  return RETAINED_TABLES[table] === 'data' ? retention.dataDays : retention.rejectionsDays
}

/** The TTL expression of a retention, as the server shows it back in system.tables.engine_full. */
export const ttlExpression = (days: number) => `received_at + toIntervalDay(${days})`

/** The table's TTL expression as the server reports it, or undefined without one. */
export function currentTtl(engineFull: string): string | undefined {
  return /\bTTL\s+(.+?)(?:\s+SETTINGS\s|\s*$)/.exec(engineFull)?.[1]?.trim()
}

/**
 * Sets each table's TTL to its retention where the server has TTLs, changing only those that differ (so a start
 * changes nothing once they are set; several processes starting at once set the same). On a cluster, on every
 * server's local tables. Returns the tables changed.
 */
export async function applyRetention(
  client: ClickHouseClient,
  { database: db, cluster }: SchemaTarget,
  capabilities: ClickHouseCapabilities,
  retention: Retention,
  log: Logger,
): Promise<RetainedTable[]> {
  if (!capabilities.ttl) {
    log.info(
      { retentionDays: retention.dataDays, rejectionsRetentionDays: retention.rejectionsDays },
      'clickhouse has no table TTL (before 19.6): records past retention are deleted once a day by the checks role',
    )
    return []
  }
  const changed: RetainedTable[] = []
  for (const table of Object.keys(RETAINED_TABLES) as RetainedTable[]) {
    const name = cluster ? localTable(table) : table
    const result = await client.query({
      query: `SELECT engine_full FROM system.tables WHERE database = '${db}' AND name = '${name}'`,
      format: 'JSONEachRow',
    })
    const [row] = await result.json<{ engine_full: string }>()
    const days = retentionDays(retention, table)
    const wanted = days === 0 ? undefined : ttlExpression(days)
    if (!row || currentTtl(row.engine_full) === wanted) continue
    const onCluster = cluster ? ` ON CLUSTER ${cluster}` : ''
    await client.command({
      query: `ALTER TABLE ${db}.${name}${onCluster} ${wanted ? `MODIFY TTL ${wanted}` : 'REMOVE TTL'}`,
    })
    log.info({ table, days }, days === 0 ? 'retention removed: kept for ever' : 'retention set (table TTL)')
    changed.push(table)
  }
  return changed
}

/**
 * For servers without TTLs: one ALTER ... DELETE per table with a retention, of the records received more than its
 * days before `now` (on a cluster, on every server's local tables). Mutations: ClickHouse rewrites the parts that hold
 * such records, in the background.
 */
export function retentionDeletes({ database: db, cluster }: SchemaTarget, retention: Retention, now: number): string[] {
  return (Object.keys(RETAINED_TABLES) as RetainedTable[]).flatMap((table) => {
    const days = retentionDays(retention, table)
    if (days === 0) return []
    const cutoff = Math.floor((now - days * 86_400_000) / 1000)
    const target = cluster ? `${localTable(table)} ON CLUSTER ${cluster}` : table
    return [`ALTER TABLE ${db}.${target} DELETE WHERE received_at < toDateTime(${cutoff})`]
  })
}
