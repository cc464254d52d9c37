// Validation and normalization of what Split's SDKs post besides events: impressions, impression
// counts, unique keys and telemetry (schemas/impressions.json). Pure: one message's records in, rows
// or rejections out, each at its own position. An impression, a count, a unique key and a telemetry
// body each end as one row or one rejection naming the field; a group whose own shape is broken (its
// flag, say) rejects each of its impressions with that reason, so every record is accounted for.
import { readFileSync } from 'node:fs'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { inspectJson, describeJsonProblem, safeJson } from '../shared/json-checks.js'
import {
  loneSurrogate,
  rejectionRow,
  rowOrigin,
  type EnvelopeMeta,
  type RejectionRow,
  type RowOrigin,
  type SourcePosition,
} from './rows.js'

const SCHEMA = JSON.parse(readFileSync(new URL('../../schemas/impressions.json', import.meta.url), 'utf8')) as {
  $id: string
}
const ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false })
ajv.addSchema(SCHEMA)
const validator = (name: string): ValidateFunction => ajv.getSchema(`${SCHEMA.$id}#/$defs/${name}`)!
// A group or unique-keys entry is checked field by field (its flag once, then each item), so that
// each impression or key is a row or a rejection of its own; the whole-record definitions of the
// schema document the shapes.
const validate = {
  impression: validator('impression'),
  count: validator('impressionCount'),
  flag: validator('flag'),
  key: validator('key'),
}

/** What a message of the impressions topic holds; the edge sets it from the route. */
export const IMPRESSION_KINDS = [
  'impressions',
  'impression_counts',
  'unique_keys_ss',
  'unique_keys_cs',
  'telemetry_config',
  'telemetry_usage',
] as const
export type ImpressionKind = (typeof IMPRESSION_KINDS)[number]

/** The request's metadata beside the origin: the SDK's headers. */
export interface SdkMeta extends EnvelopeMeta {
  readonly kind: string
  /** SplitSDKImpressionsMode (DEBUG, OPTIMIZED, NONE), or the beacon's `sim`. */
  readonly impressionsMode: string
  readonly machineIp: string
  readonly machineName: string
}

interface SdkColumns {
  impressions_mode: string
  machine_ip: string
  machine_name: string
}

export interface ImpressionRow extends RowOrigin, SdkColumns {
  flag: string
  key: string
  bucketing_key: string
  treatment: string
  label: string
  change_number: number
  time: number
  time_ms: number
  previous_time_ms: number
  properties: string
}

export interface ImpressionCountRow extends RowOrigin, SdkColumns {
  flag: string
  hour: number
  hour_ms: number
  count: number
}

export interface UniqueKeyRow extends RowOrigin, SdkColumns {
  flag: string
  key: string
  /** The receive day, YYYY-MM-DD (UTC): the SDKs send unique keys per period, without a time. */
  day: string
}

export interface TelemetryRow extends RowOrigin, SdkColumns {
  kind: string
  operation_mode: string
  storage: string
  payload: string
}

export interface ImpressionRejectionRow extends RejectionRow {
  kind: string
}

/** Where the rows of one message go (the consumer maps each to its table). */
export interface ImpressionsOutput {
  /** The row and the impression it came from (without its group's flag, which is in the row). */
  impression(row: ImpressionRow, record: unknown): void
  count(row: ImpressionCountRow, record: unknown): void
  /** The row and the key or flag of the list it came from (the other is the entry's head). */
  uniqueKey(row: UniqueKeyRow, record: unknown): void
  telemetry(row: TelemetryRow, record: unknown): void
  reject(rejection: ImpressionRejectionRow): void
}

/** Telemetry bodies are kept whole up to this many characters of JSON. */
export const MAX_TELEMETRY_CHARS = 64 * 1024
const MAX_PROPERTIES_CHARS = 32 * 1024
/** iM of the telemetry config: the impressions mode as a number. */
const IMPRESSIONS_MODES = ['OPTIMIZED', 'DEBUG', 'NONE']

/**
 * Turns the records of one message (the JSON array the edge wrote) into rows and rejections.
 * Never throws: whatever the records hold, each ends as a row or a rejection at its own position.
 */
export function processImpressionRecords(
  records: readonly unknown[],
  meta: SdkMeta,
  position: (index: number) => SourcePosition,
  out: ImpressionsOutput,
): void {
  let index = 0
  const next = () => position(index++)
  const reject = (reason: string, raw: unknown, at = next()) => out.reject(impressionRejection(reason, raw, meta, at))
  const sdk: SdkColumns = {
    impressions_mode: meta.impressionsMode,
    machine_ip: meta.machineIp,
    machine_name: meta.machineName,
  }
  const step = STEPS[meta.kind as ImpressionKind] as Step | undefined
  const ctx: StepContext = { meta, sdk, next, reject, out }
  for (const record of records) {
    try {
      if (step) step(record, ctx)
      else reject(`kafka message of unknown kind ${JSON.stringify(meta.kind.slice(0, 64))}`, record)
    } catch (err) {
      reject(`record could not be processed: ${err instanceof Error ? err.message : String(err)}`, record)
    }
  }
}

/** A rejection of the impressions topic: which kind of record, why, and the record as received. */
export function impressionRejection(
  reason: string,
  raw: unknown,
  meta: SdkMeta,
  source: SourcePosition,
): ImpressionRejectionRow {
  return Object.assign(rejectionRow(reason, raw, meta, source), { kind: kindOfRejection(meta.kind) })
}

/** The kind a rejection is filed under: the record's kind without the SDK side or telemetry type. */
function kindOfRejection(kind: string): string {
  if (kind.startsWith('unique_keys')) return 'unique_keys'
  if (kind.startsWith('telemetry')) return 'telemetry'
  return (IMPRESSION_KINDS as readonly string[]).includes(kind) ? kind : 'unknown'
}

type Reject = (reason: string, raw: unknown, at?: SourcePosition) => void

/** What every step of a message's records shares: its origin, its SDK columns, the next position, where rows go. */
interface StepContext {
  readonly meta: SdkMeta
  readonly sdk: SdkColumns
  readonly next: () => SourcePosition
  readonly reject: Reject
  readonly out: ImpressionsOutput
}
type Step = (record: unknown, ctx: StepContext) => void

const STEPS: Record<ImpressionKind, Step> = {
  impressions(group, { meta, sdk, next, reject, out }) {
    const g = group as { f?: unknown; i?: unknown }
    if (!isObject(group) || !Array.isArray(g.i)) {
      reject(isObject(group) ? RULES['i']! : 'an impressions group must be an object {f, i}', group)
      return
    }
    // The flag is checked once for the group; when it is bad, each impression says so.
    const flagProblem = validate.flag(g.f)
      ? !(g.f as string).isWellFormed()
        ? loneSurrogate('f')
        : undefined
      : describeField('f', validate.flag.errors)
    // A rejection's raw copy is the impression with its group's flag (cut: a huge bad flag is not
    // copied once per impression); a row keeps the impression itself.
    const withFlag = (impression: unknown) => (isObject(impression) ? { f: cut(g.f), ...impression } : impression)
    for (const impression of g.i as unknown[]) {
      const at = next()
      if (flagProblem) {
        reject(flagProblem, withFlag(impression), at)
        continue
      }
      const outcome = impressionRow(impression, g.f as string, meta, sdk, at)
      if (typeof outcome === 'string') reject(outcome, withFlag(impression), at)
      else out.impression(outcome, impression)
    }
  },
  impression_counts(record, { meta, sdk, next, reject, out }) {
    const at = next()
    if (!validate.count(record)) return reject(describe(validate.count.errors, 'count'), record, at)
    const r = record as { f: string; m: number; rc: number }
    if (!r.f.isWellFormed()) return reject(loneSurrogate('f'), record, at)
    out.count(
      Object.assign(rowOrigin(meta, at), sdk, { flag: r.f, hour: Math.floor(r.m / 1000), hour_ms: r.m, count: r.rc }),
      record,
    )
  },
  unique_keys_ss(record, ctx) {
    keysOf(record, SERVER_SIDE_KEYS, ctx)
  },
  unique_keys_cs(record, ctx) {
    keysOf(record, CLIENT_SIDE_KEYS, ctx)
  },
  telemetry_config(record, ctx) {
    telemetry('config', record, ctx)
  },
  telemetry_usage(record, ctx) {
    telemetry('usage', record, ctx)
  },
}

function impressionRow(
  impression: unknown,
  flag: string,
  meta: SdkMeta,
  sdk: SdkColumns,
  at: SourcePosition,
): ImpressionRow | string {
  if (!validate.impression(impression)) return describe(validate.impression.errors, 'impression')
  const i = impression as {
    k: string
    t: string
    m: number
    c?: number | null
    r?: string | null
    b?: string | null
    pt?: number | null
    properties?: string | object | null
  }
  for (const field of ['k', 't', 'r', 'b'] as const) {
    const v = i[field]
    if (typeof v === 'string' && !v.isWellFormed()) return loneSurrogate(field)
  }
  let properties = ''
  if (typeof i.properties === 'string') {
    if (!i.properties.isWellFormed()) return loneSurrogate('properties')
    properties = i.properties
  } else if (i.properties) {
    const problem = inspectJson(i.properties)
    if (problem) return describeJsonProblem('properties', problem)
    properties = JSON.stringify(i.properties)
    if (properties.length > MAX_PROPERTIES_CHARS)
      return `properties must be at most ${MAX_PROPERTIES_CHARS} characters as JSON`
  }
  // The impression's columns set on rowOrigin's object (see rowOrigin for why).
  const row = rowOrigin(meta, at) as ImpressionRow
  row.impressions_mode = sdk.impressions_mode
  row.machine_ip = sdk.machine_ip
  row.machine_name = sdk.machine_name
  row.flag = flag
  row.key = i.k
  row.bucketing_key = i.b ?? ''
  row.treatment = i.t
  row.label = i.r ?? ''
  row.change_number = i.c ?? 0
  row.time = Math.floor(i.m / 1000)
  row.time_ms = i.m
  row.previous_time_ms = i.pt ?? 0
  row.properties = properties
  return row
}

/** The shape of a unique-keys entry: one name (f or k) and a list of the other (ks or fs), a row per pair. */
interface KeysShape {
  readonly one: 'f' | 'k'
  readonly many: 'ks' | 'fs'
  readonly pair: (one: string, many: string) => { flag: string; key: string }
}
/** Server-side SDKs: a flag and the keys that saw it. */
const SERVER_SIDE_KEYS: KeysShape = { one: 'f', many: 'ks', pair: (one, many) => ({ flag: one, key: many }) }
/** Client-side SDKs: a key and the flags it saw. */
const CLIENT_SIDE_KEYS: KeysShape = { one: 'k', many: 'fs', pair: (one, many) => ({ flag: many, key: one }) }

function keysOf(record: unknown, { one, many, pair }: KeysShape, { meta, sdk, next, reject, out }: StepContext): void {
  const r = record as Record<string, unknown>
  const list = isObject(record) ? r[many] : undefined
  if (!Array.isArray(list))
    return reject(isObject(record) ? RULES[many]! : `a unique-keys entry must be an object {${one}, ${many}}`, record)
  const head = r[one]
  const headOk = one === 'f' ? validate.flag(head) : validate.key(head)
  const headProblem = !headOk
    ? describeField(one, (one === 'f' ? validate.flag : validate.key).errors)
    : !(head as string).isWellFormed()
      ? loneSurrogate(one)
      : undefined
  const day = new Date(meta.receivedAtMs).toISOString().slice(0, 10)
  const itemCheck = many === 'ks' ? validate.key : validate.flag
  for (const [n, item] of (list as unknown[]).entries()) {
    const at = next()
    const problem =
      headProblem ??
      (!itemCheck(item)
        ? describeField(`${many}[${n}]`, itemCheck.errors)
        : !(item as string).isWellFormed()
          ? loneSurrogate(`${many}[${n}]`)
          : undefined)
    if (problem) {
      reject(problem, { [one]: cut(head), [many]: [item] }, at)
      continue
    }
    out.uniqueKey(Object.assign(rowOrigin(meta, at), sdk, pair(head as string, item as string), { day }), item)
  }
}

function telemetry(kind: 'config' | 'usage', record: unknown, { meta, sdk, next, reject, out }: StepContext): void {
  const at = next()
  if (!isObject(record)) return reject('telemetry must be a JSON object', record, at)
  const problem = inspectJson(record)
  if (problem) return reject(describeJsonProblem('telemetry', problem), record, at)
  const payload = JSON.stringify(record)
  if (payload.length > MAX_TELEMETRY_CHARS)
    return reject(`telemetry must be at most ${MAX_TELEMETRY_CHARS} characters as JSON`, record, at)
  // Python names the storage sT; the other SDKs st.
  const r = record as { oM?: unknown; st?: unknown; sT?: unknown; iM?: unknown }
  const storage = typeof r.st === 'string' ? r.st : r.sT
  const mode = typeof r.iM === 'number' ? (IMPRESSIONS_MODES[r.iM] ?? String(r.iM)) : sdk.impressions_mode
  out.telemetry(
    Object.assign(rowOrigin(meta, at), sdk, {
      impressions_mode: mode,
      kind,
      operation_mode: typeof r.oM === 'number' ? String(r.oM) : '',
      storage: typeof storage === 'string' ? storage.slice(0, 32) : '',
      payload,
    }),
    record,
  )
}

/** The head of a group (its flag or key) as copied into each rejection of its items: at most 256 characters of it. */
function cut(head: unknown): unknown {
  if (typeof head === 'string') return head.length > 256 ? `${head.slice(0, 256)}… (${head.length} characters)` : head
  return head !== null && typeof head === 'object' ? `${safeJson(head, 256)}…` : head
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

const RULES: Record<string, string> = {
  f: 'f must be a flag name: a string of 1 to 250 characters without control characters',
  k: 'k must be a key: a string of 1 to 250 characters',
  t: 't must be a treatment: a string of 1 to 250 characters',
  m: 'm must be an epoch time in milliseconds (an integer from 0 to 4294967295000)',
  c: 'c must be an integer change number or null',
  r: 'r must be a label: a string of at most 250 characters, or null',
  b: 'b must be a bucketing key: a string of at most 250 characters, or null',
  pt: 'pt must be an epoch time in milliseconds or null',
  properties: 'properties must be a JSON text of at most 32768 characters, an object or null',
  rc: 'rc must be a count: an integer of 0 or more',
  i: 'i must be an array of impressions',
  ks: 'ks must be an array of keys',
  fs: 'fs must be an array of flag names',
}

/** The reason of a record the schema refused, naming the field. */
function describe(errors: ErrorObject[] | null | undefined, what: string): string {
  const error = errors?.[0]
  if (!error) return `${what} is invalid`
  if (error.keyword === 'required') return `${String(error.params['missingProperty'])} is required`
  if (error.instancePath === '') return `${what} must be a JSON object`
  const [, field = ''] = error.instancePath.split('/')
  return RULES[field] ?? `${field} ${error.message ?? 'is invalid'}`
}

/** The reason of a value checked on its own (a flag, a key), under the name it has in the record. */
function describeField(name: string, errors: ErrorObject[] | null | undefined): string {
  const base = name.replace(/\[\d+\]$/, '')
  const rule = base === 'ks' ? RULES['k']! : base === 'fs' ? RULES['f']! : RULES[base]
  if (!rule) return `${name} ${errors?.[0]?.message ?? 'is invalid'}`
  return `${name}${rule.slice(rule.indexOf(' '))}`
}
