// The Data Hub as a use case, whoever asks (the API or `sluice rejections`): what importers need to see of their data
// without a database shell. Refused records: the rejections of an environment's events or impressions grouped by
// reason, with examples shown as text and bounded, and the request ids that carried them.
import type { ClickHouseClient } from '@clickhouse/client'
import { clickhouseRunner, type AnalysisLimits, type QueryRunner } from '../analysis/clickhouse.js'
import { EXAMPLE_CHARS, rejectionsQuery } from '../analysis/datahub.js'
import { invalid } from '../shared/errors.js'
import type { Environment } from '../state/redis/tenancy.js'
import { parseTime } from './experiments.js'

export const REJECTION_TABLES = { events: 'event_rejections', impressions: 'impression_rejections' } as const
export type RejectionKind = keyof typeof REJECTION_TABLES
const DAY_MS = 86_400_000
/** The longest window asked at once (rejections are kept for about a month). */
export const MAX_REJECTIONS_WINDOW_MS = 92 * DAY_MS

export interface RefusedExample {
  /** The record as it was received, as text, cut to EXAMPLE_CHARS characters. */
  readonly raw: string
  /** The size of the record as kept (the consumer keeps the first 256 Ki characters of a refused record). */
  readonly rawBytes: number
  readonly truncated: boolean
  readonly requestId: string
  readonly receivedAt: string
}

export interface RefusedReason {
  readonly reason: string
  readonly records: number
  readonly firstAt: string
  readonly lastAt: string
  readonly examples: readonly RefusedExample[]
}

export interface Rejections {
  readonly environmentId: string
  readonly kind: RejectionKind
  readonly from: string
  readonly to: string
  readonly total: number
  readonly reasons: readonly RefusedReason[]
}

export function createDataHubService(
  client: ClickHouseClient,
  settings: { database: string } & AnalysisLimits,
): DataHubService {
  return new DataHubService(clickhouseRunner(client, settings), settings.database)
}

export class DataHubService {
  constructor(
    private readonly run: QueryRunner,
    private readonly database: string,
  ) {}

  /** The environment's refused records of `kind` within [from, to] (default the 30 days before now) by reason. */
  async rejections(env: Environment, kind: RejectionKind, fromText?: string, toText?: string): Promise<Rejections> {
    const to = toText === undefined ? Date.now() : parseTime('to', toText)
    const from = fromText === undefined ? to - 30 * DAY_MS : parseTime('from', fromText)
    if (!(to > from)) throw invalid([{ field: 'to', problem: 'must be after from' }])
    if (to - from > MAX_REJECTIONS_WINDOW_MS)
      throw invalid([{ field: 'from', problem: `must be at most ${MAX_REJECTIONS_WINDOW_MS / DAY_MS} days before to` }])
    const rows = await this.run(rejectionsQuery(`${this.database}.${REJECTION_TABLES[kind]}`, env.id, from, to))
    const iso = (ms: unknown) => new Date(Number(ms)).toISOString()
    return {
      environmentId: env.id,
      kind,
      from: iso(from),
      to: iso(to),
      total: Number(rows[0]?.['total'] ?? 0),
      reasons: rows.map((r) => {
        const raws = r['raws'] as string[]
        const bytes = r['bytes'] as (number | string)[]
        const requestIds = r['requestIds'] as string[]
        const received = r['receivedMs'] as (number | string)[]
        return {
          reason: String(r['reason']),
          records: Number(r['records']),
          firstAt: iso(r['firstMs']),
          lastAt: iso(r['lastMs']),
          examples: raws.map((text, i) => {
            // Cut by characters, never inside a surrogate pair; what ClickHouse cut inside a character is replaced.
            const raw = text.slice(0, EXAMPLE_CHARS).toWellFormed()
            return {
              raw,
              rawBytes: Number(bytes[i]),
              truncated: Number(bytes[i]) > Buffer.byteLength(raw, 'utf8'),
              requestId: requestIds[i] ?? '',
              receivedAt: iso(received[i]),
            }
          }),
        }
      }),
    }
  }
}
