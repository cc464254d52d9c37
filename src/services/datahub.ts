// The Data Hub as a use case, whoever asks (the API or `sluice rejections`): what importers need to see of their data
// without a database shell. Refused records: the rejections of an environment's events or impressions grouped by
// reason, with examples shown as text and bounded, and the request ids that carried them.
import type { ClickHouseClient } from '@clickhouse/client'
import { clickhouseRunner, type AnalysisLimits, type QueryRunner } from '../analysis/clickhouse.js'
import {
  EXAMPLE_CHARS,
  eventTypesQuery,
  flagsSeenQuery,
  MAX_CATALOGUE_ROWS,
  propertySampleQuery,
  rejectionsQuery,
} from '../analysis/datahub.js'
import { EVENT_TYPE_ID } from '../pipeline/events.js'
import { invalid, Refusal } from '../shared/errors.js'
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

/** How far back the catalogue looks: the events' and impressions' default retention. */
export const CATALOGUE_DAYS = 90
/** Property names listed per event type (those in most of the sample first). */
export const MAX_PROPERTY_NAMES = 500

/** When a catalogue row's records were received, and how many. */
export interface Seen {
  readonly firstAt: string
  readonly lastAt: string
  readonly last24h: number
  readonly last7d: number
  readonly last30d: number
  /** Up to 20 of the SDK versions (the SplitSDKVersion header) that sent them; '' for none. */
  readonly sdkVersions: readonly string[]
}

export interface EventTypeSummary extends Seen {
  readonly eventType: string
  /** The share of the last 30 days' records that carried a value (null without records then). */
  readonly valueShare: number | null
}

export type PropertyType = 'string' | 'number' | 'boolean' | 'null'

export interface PropertySummary {
  readonly name: string
  /** How many records of the sample had the property, by the type of its value. */
  readonly types: Partial<Record<PropertyType, number>>
  /** The share of the sample's records that had it. */
  readonly fillRate: number
}

export interface EventTypeDetail extends EventTypeSummary {
  /** The records whose properties were read: the last PROPERTY_SAMPLE received. */
  readonly sample: number
  readonly properties: readonly PropertySummary[]
  /** Whether more property names were seen than listed. */
  readonly propertiesTruncated: boolean
}

export interface FlagSeen extends Seen {
  readonly flag: string
  /** Up to 20 treatments served. */
  readonly treatments: readonly string[]
}

/** Where a catalogue answer looked. */
interface CatalogueWindow {
  readonly environmentId: string
  /** The records received from then on were read (CATALOGUE_DAYS before `at`). */
  readonly since: string
  readonly at: string
  /** Whether there were more rows than the MAX_CATALOGUE_ROWS listed (those with the fewest records are left out). */
  readonly truncated: boolean
}

export interface EventTypes extends CatalogueWindow {
  readonly eventTypes: readonly EventTypeSummary[]
}

export interface FlagsSeen extends CatalogueWindow {
  readonly flags: readonly FlagSeen[]
}

const iso = (ms: unknown) => new Date(Number(ms)).toISOString()

function seen(r: Record<string, unknown>): Seen {
  return {
    firstAt: iso(r['firstMs']),
    lastAt: iso(r['lastMs']),
    last24h: Number(r['last24h']),
    last7d: Number(r['last7d']),
    last30d: Number(r['last30d']),
    sdkVersions: (r['sdkVersions'] as string[]).toSorted(),
  }
}

function eventTypeSummary(r: Record<string, unknown>): EventTypeSummary {
  const last30d = Number(r['last30d'])
  return {
    eventType: String(r['eventType']),
    ...seen(r),
    valueShare: last30d === 0 ? null : Number(r['withValue30d']) / last30d,
  }
}

/**
 * The property names of a sample of records (their properties as stored: JSON objects of strings, numbers, booleans
 * and nulls), with the types of their values and the share of records that had each, most common first.
 */
export function describeProperties(sample: readonly string[]): { properties: PropertySummary[]; truncated: boolean } {
  const byName = new Map<string, { types: Partial<Record<PropertyType, number>>; records: number }>()
  for (const text of sample) {
    let record: unknown
    try {
      record = JSON.parse(text)
    } catch {
      continue
    }
    if (record === null || typeof record !== 'object' || Array.isArray(record)) continue
    for (const [name, value] of Object.entries(record)) {
      const type: PropertyType =
        value === null
          ? 'null'
          : typeof value === 'number'
            ? 'number'
            : typeof value === 'boolean'
              ? 'boolean'
              : 'string'
      let entry = byName.get(name)
      if (!entry) byName.set(name, (entry = { types: {}, records: 0 }))
      entry.records++
      entry.types[type] = (entry.types[type] ?? 0) + 1
    }
  }
  const properties = [...byName]
    .map(([name, e]) => ({ name, types: e.types, fillRate: sample.length === 0 ? 0 : e.records / sample.length }))
    .sort((a, b) => b.fillRate - a.fillRate || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { properties: properties.slice(0, MAX_PROPERTY_NAMES), truncated: properties.length > MAX_PROPERTY_NAMES }
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

  /** The event types the environment's events had in the last CATALOGUE_DAYS, most records first. */
  async eventTypes(env: Environment, now = Date.now()): Promise<EventTypes> {
    const since = now - CATALOGUE_DAYS * DAY_MS
    const rows = await this.run(eventTypesQuery(`${this.database}.events`, env.id, since, now))
    return {
      environmentId: env.id,
      since: iso(since),
      at: iso(now),
      truncated: rows.length > MAX_CATALOGUE_ROWS,
      eventTypes: rows.slice(0, MAX_CATALOGUE_ROWS).map(eventTypeSummary),
    }
  }

  /** One event type of the environment, with the property names, types and fill rate of its last records. */
  async eventType(env: Environment, eventType: string, now = Date.now()): Promise<EventTypeDetail> {
    if (!EVENT_TYPE_ID.test(eventType))
      throw invalid([{ field: 'type', problem: 'must be an event type id (1 to 80 letters, digits or - _ . :)' }])
    const since = now - CATALOGUE_DAYS * DAY_MS
    const table = `${this.database}.events`
    const [rows, sample] = await Promise.all([
      this.run(eventTypesQuery(table, env.id, since, now, eventType)),
      this.run(propertySampleQuery(table, env.id, eventType, since)),
    ])
    if (rows.length === 0)
      throw new Refusal('NOT_FOUND', `no event of type ${eventType} was received in the last ${CATALOGUE_DAYS} days`)
    const { properties, truncated } = describeProperties(sample.map((r) => String(r['properties'])))
    return {
      ...eventTypeSummary(rows[0]!),
      sample: sample.length,
      properties,
      propertiesTruncated: truncated,
    }
  }

  /** The flags the environment's impressions named in the last CATALOGUE_DAYS, with treatments and SDK versions. */
  async flagsSeen(env: Environment, now = Date.now()): Promise<FlagsSeen> {
    const since = now - CATALOGUE_DAYS * DAY_MS
    const rows = await this.run(flagsSeenQuery(`${this.database}.impressions`, env.id, since, now))
    return {
      environmentId: env.id,
      since: iso(since),
      at: iso(now),
      truncated: rows.length > MAX_CATALOGUE_ROWS,
      flags: rows.slice(0, MAX_CATALOGUE_ROWS).map((r) => ({
        flag: String(r['flag']),
        ...seen(r),
        treatments: (r['treatments'] as string[]).toSorted(),
      })),
    }
  }

  /** The environment's refused records of `kind` within [from, to] (default the 30 days before now) by reason. */
  async rejections(env: Environment, kind: RejectionKind, fromText?: string, toText?: string): Promise<Rejections> {
    const to = toText === undefined ? Date.now() : parseTime('to', toText)
    const from = fromText === undefined ? to - 30 * DAY_MS : parseTime('from', fromText)
    if (!(to > from)) throw invalid([{ field: 'to', problem: 'must be after from' }])
    if (to - from > MAX_REJECTIONS_WINDOW_MS)
      throw invalid([{ field: 'from', problem: `must be at most ${MAX_REJECTIONS_WINDOW_MS / DAY_MS} days before to` }])
    const rows = await this.run(rejectionsQuery(`${this.database}.${REJECTION_TABLES[kind]}`, env.id, from, to))
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
