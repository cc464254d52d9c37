// The consumers' side of the live tail (state/redis/tail.ts): after a batch is decoded, the records of watched
// environments and integrations are handed to Redis pub/sub, sampled to a rate per scope and second. It never slows
// or endangers intake: with no one watching, offering a batch is one set lookup per environment (the watched scopes
// are read once a second, apart from the batches); a publish is not awaited, its failure (Redis away) is dropped and
// counted, never retried, and at most MAX_IN_FLIGHT wait for Redis at once.
import { eventOfColumns } from '../broker/messages/events.js'
import type { EncodedEventRow, EventRow } from '../pipeline/events.js'
import type { ImpressionRow } from '../pipeline/impressions.js'
import type { RejectionRow, RowOrigin } from '../pipeline/rows.js'
import type { Logger } from '../shared/logger.js'
import type { TailChannel, TailKind, TailRecord } from '../state/redis/tail.js'

/** How long the watched scopes last read are kept while they cannot be read again. */
const KEEP_WATCHED_MS = 10_000

/** Characters of a long text (properties, a refused record's raw text, a payload) a tail record carries. */
export const TAIL_TEXT_CHARS = 2048

/** A long text cut for the tail (never inside a surrogate pair), marked with an ellipsis. */
export const cut = (text: string) =>
  text.length > TAIL_TEXT_CHARS ? `${text.slice(0, TAIL_TEXT_CHARS).toWellFormed()}…` : text

/** A stored row as the tail shows it, or undefined for rows it does not show (counts, unique keys, telemetry). */
export function tailRecordOf(table: string, row: RowOrigin): TailRecord | undefined {
  const base = { receivedAt: row.received_at_ms, requestId: row.request_id }
  if (table === 'events') {
    const encoded = (row as Partial<EncodedEventRow>).tsv
    const e = encoded === undefined ? (row as EventRow) : { ...row, ...eventOfColumns(encoded) }
    return {
      ...base,
      kind: 'event',
      eventType: e.event_type,
      key: e.key,
      data: {
        eventTypeId: e.event_type,
        trafficTypeName: e.traffic_type,
        key: e.key,
        timestamp: e.timestamp_ms,
        value: e.value,
        properties: cut(e.properties),
        sdkVersion: e.sdk_version,
      },
    }
  }
  if (table === 'impressions') {
    const i = row as ImpressionRow
    return {
      ...base,
      kind: 'impression',
      flag: i.flag,
      key: i.key,
      data: {
        flag: i.flag,
        key: i.key,
        treatment: i.treatment,
        label: i.label,
        time: i.time_ms,
        changeNumber: i.change_number,
        sdkVersion: i.sdk_version,
      },
    }
  }
  if (table === 'event_rejections' || table === 'impression_rejections') {
    const r = row as RejectionRow
    const kind: TailKind = table === 'event_rejections' ? 'refused event' : 'refused impression'
    return { ...base, kind, data: { reason: r.reason, raw: cut(r.raw) } }
  }
  return undefined
}

export interface TailFeedOptions {
  /** Records published per scope and second by this process, at most; more are sampled. */
  readonly perSecond: number
  /** How often the watched scopes are read. */
  readonly refreshMs: number
  readonly log: Logger
  /** Told of each publish that failed (counted). */
  readonly onDropped?: () => void
}

interface Window {
  second: number
  seen: number
  sent: number
  /** One in `rate` records is kept, from the last second's count. */
  rate: number
}

/** Publishes waiting for Redis at once, at most: beyond them records are dropped (a slow Redis holds nothing up). */
const MAX_IN_FLIGHT = 100

export class TailFeed {
  private watched = new Set<string>()
  private inFlight = 0
  private timer: NodeJS.Timeout | undefined
  private readonly windows = new Map<string, Window>()

  constructor(
    private readonly channel: TailChannel,
    private readonly options: TailFeedOptions,
  ) {}

  start(): void {
    if (this.timer) return
    // A failed read keeps what was known for a while (a Redis hiccup under load used to blank every viewer's tail
    // until the next read); then no one is taken to watch (publishes would fail anyway).
    let readAt = Date.now()
    const refresh = () =>
      void this.channel.watched().then(
        (scopes) => {
          this.watched = scopes
          readAt = Date.now()
        },
        () => {
          if (Date.now() - readAt > KEEP_WATCHED_MS) this.watched = new Set()
        },
      )
    refresh()
    this.timer = setInterval(refresh, this.options.refreshMs).unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
    this.watched = new Set()
  }

  /** Whether anyone watches anything (a batch with no watched scope is not looked at). */
  get active(): boolean {
    return this.watched.size > 0
  }

  /** A decoded batch's rows by table, and its rejections (the rejections table's name). */
  offerRows(
    rows: ReadonlyMap<{ readonly name: string }, readonly RowOrigin[]>,
    rejections: readonly RejectionRow[],
    rejectionsTable: string,
  ): void {
    if (!this.active) return
    try {
      this.publish(this.recordsOf(rows, rejections, rejectionsTable))
    } catch (err) {
      this.options.log.debug({ err }, 'live tail: records could not be made')
    }
  }

  private recordsOf(
    rows: ReadonlyMap<{ readonly name: string }, readonly RowOrigin[]>,
    rejections: readonly RejectionRow[],
    rejectionsTable: string,
  ): Map<string, TailRecord[]> {
    const byScope = new Map<string, TailRecord[]>()
    const take = (table: string, row: RowOrigin) => {
      const scope = `env:${row.environment_id}`
      if (!this.watched.has(scope) || !this.keep(scope)) return
      const record = tailRecordOf(table, row)
      if (!record) return
      let list = byScope.get(scope)
      if (!list) byScope.set(scope, (list = []))
      list.push(record)
    }
    for (const [table, list] of rows)
      if (table.name === 'events' || table.name === 'impressions') for (const row of list) take(table.name, row)
    for (const row of rejections) take(rejectionsTable, row)
    return byScope
  }

  /**
   * A webhook payload of an integration as the alerts consumer read it, made by `record` only if someone watches the
   * integration and the sample keeps it; a record that cannot be made is left out, never a failure of the batch.
   */
  offerPayload(integrationId: string, record: () => TailRecord): void {
    const scope = `integration:${integrationId}`
    if (!this.watched.has(scope) || !this.keep(scope)) return
    let made: TailRecord
    try {
      made = record()
    } catch (err) {
      this.options.log.debug({ err }, 'live tail: a payload record could not be made')
      return
    }
    this.publish(new Map([[scope, [made]]]))
  }

  /** Whether the next record of the scope is kept: one in `rate`, and never more than perSecond in a second. */
  private keep(scope: string): boolean {
    const second = Math.floor(Date.now() / 1000)
    let w = this.windows.get(scope)
    if (!w) this.windows.set(scope, (w = { second, seen: 0, sent: 0, rate: 1 }))
    if (w.second !== second) {
      // The rate for this second, from the last one's count (after a quiet second, all again).
      w.rate = w.second === second - 1 ? Math.max(1, Math.ceil(w.seen / this.options.perSecond)) : 1
      w.second = second
      w.seen = 0
      w.sent = 0
    }
    w.seen++
    if (w.sent >= this.options.perSecond || (w.seen - 1) % w.rate !== 0) return false
    w.sent++
    return true
  }

  private publish(byScope: ReadonlyMap<string, TailRecord[]>): void {
    for (const [scope, records] of byScope) {
      if (records.length === 0) continue
      const w = this.windows.get(scope)!
      // Once over the rate within a second the count decides: the record's share is reported as 1 in rate.
      const rate = Math.max(w.rate, w.sent >= this.options.perSecond ? Math.ceil(w.seen / w.sent) : 1)
      if (this.inFlight >= MAX_IN_FLIGHT) {
        this.options.onDropped?.()
        continue
      }
      this.inFlight++
      this.channel
        .publish(scope, { rate, records })
        .catch(() => this.options.onDropped?.())
        .finally(() => this.inFlight--)
    }
    if (this.windows.size > 10_000) this.windows.clear()
  }
}
