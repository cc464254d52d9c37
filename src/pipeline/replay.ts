// Refused records published again (services/replays.ts): what a rejection's raw copy becomes as a record of its topic,
// the identity it is published under, and what the intake would make of it now (a replay's dry run).
//
// A replayed record's request id is `replay:<job>:<topic>:<partition>:<offset>:<index>`: the job and the position of
// the rejection it came from. Published again after a crash, it is the same message, which the consumer stores at most
// once (its check of replayed messages, consumers/clickhouse.consumer.ts); and a later job finds the rejections
// already replayed by the position at the end of it.
import { processEvent } from './events.js'
import { processImpressionRecords, type ImpressionKind, type SdkMeta } from './impressions.js'
import { planRefusal, type CompiledPlan } from './plans.js'
import { MAX_RAW_CHARS, type EnvelopeMeta, type SourcePosition } from './rows.js'

export const REPLAY_PREFIX = 'replay:'

/** A refused record as stored: where it was, and its raw copy. */
export interface StoredRejection {
  readonly topic: string
  readonly partition: number
  readonly offset: string
  readonly index: number
  /** The impressions' rejections: the kind of record (impressions, impression_counts, unique_keys, telemetry). */
  readonly kind?: string
  readonly raw: string
}

/** The position of a rejection as the end of a replay's request id names it (and SQL makes it: replays.ts). */
export const positionText = (r: StoredRejection): string => `${r.topic}:${r.partition}:${r.offset}:${r.index}`

/** The request id a replay job publishes a rejection under. */
export const replayRequestId = (jobId: string, r: StoredRejection): string =>
  `${REPLAY_PREFIX}${jobId}:${positionText(r)}`

/** What a rejection is published again as: an event, or an impressions record of a kind; or why it cannot be. */
export type Replayable =
  | { readonly topic: 'events'; readonly record: object }
  | { readonly topic: 'impressions'; readonly kind: ImpressionKind; readonly record: object }
  | { readonly problem: string }

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The record a rejection's raw copy holds, as its topic's messages carry it; or why it cannot be published again. */
export function replayableOf(topic: 'events' | 'impressions', r: StoredRejection): Replayable {
  if (r.raw === '') return { problem: 'its raw copy was not kept' }
  if (r.raw.length >= MAX_RAW_CHARS) return { problem: `its raw copy was cut at ${MAX_RAW_CHARS} characters` }
  let record: unknown
  try {
    record = JSON.parse(r.raw)
  } catch {
    return { problem: 'its raw copy is not a record (a message or line that was not JSON)' }
  }
  if (!isObject(record)) return { problem: 'its raw copy is not a record (a whole message, or not an object)' }
  if (topic === 'events') return { topic, record }
  switch (r.kind) {
    case 'impressions': {
      // An impression was refused alone, its group's flag beside it: it goes back in a group of its own.
      const { f, ...impression } = record
      return { topic, kind: 'impressions', record: { f, i: [impression] } }
    }
    case 'impression_counts':
      return { topic, kind: 'impression_counts', record }
    case 'unique_keys':
      if (Array.isArray(record['ks'])) return { topic, kind: 'unique_keys_ss', record }
      if (Array.isArray(record['fs'])) return { topic, kind: 'unique_keys_cs', record }
      return { problem: 'its raw copy is not a unique-keys entry' }
    default:
      // Telemetry is filed without saying which (config or usage): it cannot be told which endpoint it came to.
      return { problem: `records of kind ${JSON.stringify(r.kind ?? '')} are not replayed` }
  }
}

const NOWHERE: SourcePosition = { topic: '', partition: 0, offset: 0n, index: 0 }

/**
 * What the intake would make of a replayable record now: undefined when it would be stored, else the reason it would
 * be refused (the edge's and the consumer's checks, then the environment's tracking plan in block mode).
 */
export function refusalNow(
  replayable: Exclude<Replayable, { problem: string }>,
  meta: EnvelopeMeta,
  plan: CompiledPlan | undefined,
): string | undefined {
  if (replayable.topic === 'events') {
    const outcome = processEvent(replayable.record, meta, NOWHERE)
    if (!outcome.ok) return outcome.rejection.reason
    if (plan?.mode !== 'block') return undefined
    const row = outcome.row
    const verdict = plan.check(row.event_type, row.value, JSON.parse(row.properties) as Record<string, unknown>)
    if (!verdict) return undefined
    return planRefusal(plan.version, verdict)
  }
  let reason: string | undefined
  const sdk: SdkMeta = { ...meta, kind: replayable.kind, impressionsMode: '', machineIp: '', machineName: '' }
  processImpressionRecords([replayable.record], sdk, () => NOWHERE, {
    impression: () => undefined,
    count: () => undefined,
    uniqueKey: () => undefined,
    telemetry: () => undefined,
    reject: (rejection) => (reason ??= rejection.reason),
  })
  return reason
}
