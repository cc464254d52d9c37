// The Data Hub as a use case, whoever asks (the API or `sluice rejections`): what importers need to see of their data
// without a database shell. Refused records: the rejections of an environment's events or impressions grouped by
// reason, with examples shown as text and bounded, and the request ids that carried them.
import type { ClickHouseClient } from '@clickhouse/client'
import { clickhouseRunner, type AnalysisLimits, type QueryRunner } from '../analysis/clickhouse.js'
import {
  EXAMPLE_CHARS,
  eventTypesQuery,
  flagsSeenQuery,
  lastReceivedQuery,
  MAX_CATALOGUE_ROWS,
  perMinuteQuery,
  PROPERTY_NAMES_BYTES,
  propertySampleQuery,
  rejectionsQuery,
  sdkVersionsQuery,
  topReasonsQuery,
  violationsQuery,
} from '../analysis/datahub.js'
import { EVENT_TYPE_ID } from '../pipeline/events.js'
import type { Violation, ViolationRule } from '../pipeline/plans.js'
import { invalid, Refusal } from '../shared/errors.js'
import type { Environment } from '../state/redis/tenancy.js'
import { parseTime } from './experiments/request.js'

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

export interface ViolationExample {
  readonly planVersion: number
  /** Its violations of this rule (of the first 8 described). */
  readonly violations: readonly Violation[]
  /** The record as received, as JSON text cut to 2,000 characters. */
  readonly record: string
}

export interface ViolationGroup {
  readonly eventType: string
  readonly rule: ViolationRule
  readonly sdkVersion: string
  readonly records: number
  readonly stored: number
  readonly stripped: number
  readonly refused: number
  readonly firstAt: string
  readonly lastAt: string
  readonly examples: readonly ViolationExample[]
}

export interface Violations {
  readonly environmentId: string
  readonly from: string
  readonly to: string
  /** Records that broke the plan in the window, and what became of them (the others were stored as sent). */
  readonly total: number
  readonly stripped: number
  readonly refused: number
  readonly groups: readonly ViolationGroup[]
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
  /**
   * Records of the sample whose property names came to more than the PROPERTY_NAMES_BYTES read of each: the names past
   * that were not read, so a fill rate may be low by up to cutRecords / sample.
   */
  readonly cutRecords: number
}

/**
 * A record's properties as the sample query reads them: its members as `{"name":c` or `,"name":c` (c the first
 * character of the value), cut to PROPERTY_NAMES_BYTES.
 */
export interface PropertiesRead {
  readonly members: string
  /** Whether they were cut: only the complete ones are read. */
  readonly cut: boolean
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

/** A value's type by its first character in JSON (an object or array, which properties do not hold, counts as text). */
function typeOf(first: string): PropertyType {
  if (first === 'n') return 'null'
  if (first === 't' || first === 'f') return 'boolean'
  if (first === '-' || (first >= '0' && first <= '9')) return 'number'
  return 'string'
}

/**
 * The names and value types of a record's members as read (see PropertiesRead), in order. A member cut short, or one
 * that is not `{` or `,`, a JSON string, `:` and a character, ends the list.
 */
export function membersOf(members: string): { name: string; type: PropertyType }[] {
  const out: { name: string; type: PropertyType }[] = []
  let i = 0
  while ((members[i] === '{' || members[i] === ',') && members[i + 1] === '"') {
    let end = i + 2
    while (end < members.length && members[end] !== '"') end += members[end] === '\\' ? 2 : 1
    const first = members.codePointAt(end + 2)
    if (end >= members.length || members[end + 1] !== ':' || first === undefined) break
    let name: unknown
    try {
      name = JSON.parse(members.slice(i + 1, end + 1))
    } catch {
      break
    }
    const char = String.fromCodePoint(first)
    out.push({ name: String(name), type: typeOf(char) })
    i = end + 2 + char.length
  }
  return out
}

/**
 * The property names of a sample of records (their members as read: see PropertiesRead), with the types of their values
 * and the share of records that had each, most common first. A name repeated in a record counts once, by its last
 * value, as JSON.parse would read the record.
 */
export function describeProperties(sample: readonly PropertiesRead[]): {
  properties: PropertySummary[]
  truncated: boolean
} {
  const byName = new Map<string, { types: Partial<Record<PropertyType, number>>; records: number }>()
  for (const { members } of sample) {
    for (const [name, type] of new Map(membersOf(members).map((m) => [m.name, m.type]))) {
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

/** Impressions modes by the number SDKs' config telemetry gives them (`iM`). */
const TELEMETRY_MODES = ['OPTIMIZED', 'DEBUG', 'NONE']

export interface MinuteCounts {
  readonly minute: string
  readonly events: number
  readonly refusedEvents: number
  readonly impressions: number
  readonly refusedImpressions: number
}

export interface SdkSeen {
  readonly sdkVersion: string
  readonly lastSeenAt: string
  /** What it sent in the last 24 hours: events, impressions, impression counts, unique keys, telemetry. */
  readonly sends: readonly string[]
  /** Its impressions mode, and where that came from: the SplitSDKImpressionsMode header, or the config telemetry. */
  readonly impressionsMode: string | null
  readonly modeSource: 'header' | 'telemetry' | null
}

/** The consumers' lag (messages not yet stored) per topic, as the Kafka group offsets say; null if unknown. */
export type ConsumerLag = Readonly<Record<string, number>> | null

export interface IngestionHealth {
  readonly environmentId: string
  readonly at: string
  /** The last 60 minutes, oldest first, each with what was received in it. */
  readonly minutes: readonly MinuteCounts[]
  readonly topReasons: readonly { kind: 'events' | 'impressions'; reason: string; records: number }[]
  readonly lastEventAt: string | null
  readonly lastImpressionAt: string | null
  readonly sdks: readonly SdkSeen[]
  readonly consumerLag: ConsumerLag
  /** Why the lag is missing, when it is. */
  readonly note: string | null
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

  /**
   * The environment's ingestion health: the last hour per minute, the top refusal reasons, the SDKs of the last day
   * with their impressions mode, the last event and impression received, and the consumers' lag (`lag`, from Kafka).
   */
  async health(env: Environment, lag: () => Promise<ConsumerLag>, now = Date.now()): Promise<IngestionHealth> {
    const db = this.database
    const t = (name: string) => `${db}.${name}`
    const hourStart = Math.floor(now / 60_000) * 60_000 - 59 * 60_000
    const daySince = now - DAY_MS
    const counted = ['events', 'event_rejections', 'impressions', 'impression_rejections']
    const sources = [
      ['events', 'events', 'none'],
      ['impressions', 'impressions', 'header'],
      ['impression_counts', 'impression counts', 'header'],
      ['unique_keys', 'unique keys', 'header'],
      ['sdk_telemetry', 'telemetry', 'telemetry'],
    ] as const
    const [perMinute, eventReasons, impressionReasons, sdkRows, last, lagged] = await Promise.all([
      Promise.all(counted.map((table) => this.run(perMinuteQuery(t(table), env.id, hourStart)))),
      this.run(topReasonsQuery(t('event_rejections'), env.id, hourStart)),
      this.run(topReasonsQuery(t('impression_rejections'), env.id, hourStart)),
      Promise.all(sources.map(([table, , mode]) => this.run(sdkVersionsQuery(t(table), env.id, daySince, mode)))),
      this.run(lastReceivedQuery(t('events'), t('impressions'), env.id, now - CATALOGUE_DAYS * DAY_MS)),
      lag().then(
        (l) => ({ lag: l, note: null }),
        (err: unknown) => ({ lag: null, note: `the consumers' lag is unknown: ${(err as Error).message}` }),
      ),
    ])
    const minutes = Array.from({ length: 60 }, (_, i) => {
      const minute = hourStart / 60_000 + i
      const count = (rows: Record<string, unknown>[]) =>
        Number(rows.find((r) => Number(r['minute']) === minute)?.['n'] ?? 0)
      return {
        minute: new Date(minute * 60_000).toISOString(),
        events: count(perMinute[0]!),
        refusedEvents: count(perMinute[1]!),
        impressions: count(perMinute[2]!),
        refusedImpressions: count(perMinute[3]!),
      }
    })
    const sdks = new Map<string, { lastMs: number; sends: string[]; header?: string; telemetry?: string }>()
    sources.forEach(([, what], i) => {
      for (const r of sdkRows[i]!) {
        const version = String(r['sdkVersion'])
        const entry = sdks.get(version) ?? { lastMs: 0, sends: [] }
        entry.lastMs = Math.max(entry.lastMs, Number(r['lastMs']))
        entry.sends.push(what)
        const mode = String((r['mode'] as string | number | null | undefined) ?? '')
        if (what === 'telemetry') entry.telemetry = TELEMETRY_MODES[Number(mode)] ?? mode
        else if (mode !== '') entry.header ??= mode
        sdks.set(version, entry)
      }
    })
    const at = (ms: unknown) => (Number(ms) > 0 ? iso(ms) : null)
    return {
      environmentId: env.id,
      at: iso(now),
      minutes,
      topReasons: [
        ...eventReasons.map((r) => ({ kind: 'events' as const, reason: String(r['reason']), records: Number(r['n']) })),
        ...impressionReasons.map((r) => ({
          kind: 'impressions' as const,
          reason: String(r['reason']),
          records: Number(r['n']),
        })),
      ]
        .sort((a, b) => b.records - a.records)
        .slice(0, 5),
      lastEventAt: at(last[0]?.['lastEventMs']),
      lastImpressionAt: at(last[0]?.['lastImpressionMs']),
      sdks: [...sdks]
        .sort(([, a], [, b]) => b.lastMs - a.lastMs)
        .map(([sdkVersion, e]) => ({
          sdkVersion,
          lastSeenAt: iso(e.lastMs),
          sends: e.sends,
          impressionsMode: e.header ?? e.telemetry ?? null,
          modeSource: e.header ? 'header' : e.telemetry ? 'telemetry' : null,
        })),
      consumerLag: lagged.lag,
      note: lagged.note,
    }
  }

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
    const read = sample.map((r) => ({ members: String(r['head']), cut: Number(r['bytes']) > PROPERTY_NAMES_BYTES }))
    const { properties, truncated } = describeProperties(read)
    return {
      ...eventTypeSummary(rows[0]!),
      sample: sample.length,
      properties,
      propertiesTruncated: truncated,
      cutRecords: read.filter((r) => r.cut).length,
    }
  }

  /** The tracking plan's reports of the environment's events within a window (default: the last 30 days). */
  async violations(env: Environment, fromText?: string, toText?: string): Promise<Violations> {
    const { from, to } = rejectionsWindow(fromText, toText)
    const rows = await this.run(violationsQuery(`${this.database}.event_violations`, env.id, from, to))
    const [total, stripped, refused] = (rows[0]?.['totals'] as (number | string)[] | undefined) ?? [0, 0, 0]
    return {
      environmentId: env.id,
      from: iso(from),
      to: iso(to),
      total: Number(total),
      stripped: Number(stripped),
      refused: Number(refused),
      groups: rows.map((r) => {
        const rule = String(r['rule']) as ViolationRule
        const samples = r['samples'] as string[]
        const versions = r['versions'] as (number | string)[]
        return {
          eventType: String(r['eventType']),
          rule,
          sdkVersion: String(r['sdkVersion']),
          records: Number(r['records']),
          stored: Number(r['stored']),
          stripped: Number(r['stripped']),
          refused: Number(r['refused']),
          firstAt: iso(r['firstMs']),
          lastAt: iso(r['lastMs']),
          examples: (r['details'] as string[]).map((details, i) => ({
            planVersion: Number(versions[i]),
            violations: (JSON.parse(details) as Violation[]).filter((v) => v.rule === rule),
            record: (samples[i] ?? '').toWellFormed(),
          })),
        }
      }),
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
    const { from, to } = rejectionsWindow(fromText, toText)
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

/** A window of refused records or violations: [from, to], by default the last 30 days, at most 92 days. */
export function rejectionsWindow(fromText?: string, toText?: string): { from: number; to: number } {
  const to = toText === undefined ? Date.now() : parseTime('to', toText)
  const from = fromText === undefined ? to - 30 * DAY_MS : parseTime('from', fromText)
  if (!(to > from)) throw invalid([{ field: 'to', problem: 'must be after from' }])
  if (to - from > MAX_REJECTIONS_WINDOW_MS)
    throw invalid([{ field: 'from', problem: `must be at most ${MAX_REJECTIONS_WINDOW_MS / DAY_MS} days before to` }])
  return { from, to }
}
