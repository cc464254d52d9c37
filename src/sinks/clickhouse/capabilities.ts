// What the ClickHouse server Sluice talks to can do, asked once at start (system.settings), so the
// statements that depend on the release are built from one object instead of version checks. Sluice
// runs on ClickHouse 18.16 (Debian's package) and on current releases (23.8 to 26.x): a setting only
// newer servers know is sent only to servers that list it, since 18.16 refuses unknown settings.
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client'

export interface ClickHouseCapabilities {
  /** version(), for logs and readiness. */
  readonly version: string
  /**
   * async_insert (20.x on; on by default from 26.2): an insert is then acknowledged from a buffer
   * shared with other inserts, which neither KILL QUERY nor block deduplication see as this insert.
   * The sink turns it off for its own inserts.
   */
  readonly asyncInsert: boolean
  /** insert_quorum_parallel (21.x on, default 1): quorum inserts in parallel, without sequential consistency. */
  readonly quorumParallel: boolean
  /** insert_deduplication_token (22.x on): a retried insert names its block itself, whatever its bytes. */
  readonly deduplicationToken: boolean
  /**
   * Table TTLs (19.6 on; probed by materialize_ttl_after_modify, 20.x on): retention is then the server's, set at
   * start.
   * 18.16 has none: the checks role deletes what is past retention once a day.
   */
  readonly ttl: boolean
  /** mutations_sync (19.x on): an ALTER ... DELETE then answers once its mutation is done; else the caller polls. */
  readonly mutationsSync: boolean
}

/** The capabilities of a server that knows none of the settings above (ClickHouse 18.16). */
export const CLICKHOUSE_18: ClickHouseCapabilities = {
  version: '18.16',
  asyncInsert: false,
  quorumParallel: false,
  deduplicationToken: false,
  ttl: false,
  mutationsSync: false,
}

const PROBED = [
  'async_insert',
  'insert_quorum_parallel',
  'insert_deduplication_token',
  'materialize_ttl_after_modify',
  'mutations_sync',
] as const

export async function probeCapabilities(client: ClickHouseClient): Promise<ClickHouseCapabilities> {
  const names = PROBED.map((n) => `'${n}'`).join(', ')
  const result = await client.query({
    query: `SELECT version() AS v, groupArray(name) AS names FROM system.settings WHERE name IN (${names})`,
    format: 'JSONEachRow',
  })
  const [row] = await result.json<{ v: string; names: string[] }>()
  const known = new Set(row?.names ?? [])
  return {
    version: row?.v ?? 'unknown',
    asyncInsert: known.has('async_insert'),
    quorumParallel: known.has('insert_quorum_parallel'),
    deduplicationToken: known.has('insert_deduplication_token'),
    ttl: known.has('materialize_ttl_after_modify'),
    mutationsSync: known.has('mutations_sync'),
  }
}

/** Settings every insert of the sink sends: synchronous inserts wherever the server could make them asynchronous. */
export function insertSettings(capabilities: ClickHouseCapabilities): ClickHouseSettings {
  return capabilities.asyncInsert ? { async_insert: 0 } : {}
}
