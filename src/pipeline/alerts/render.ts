// Alert mappings: checked when saved, rendered per payload into normalized alerts. Pure functions.
// Moustache templates (moustache.ts) render `{{webhook.<path>}}` from the payload and, with a split
// path, `{{item.<path>}}` from each array item. Output is never HTML-escaped. The view has no
// prototype anywhere (objects and arrays alike), so no built-in method such as `join` or
// `__defineGetter__` can be reached; a placeholder that points at an object renders its JSON.
// Rendering has a budget (section depth, output per template, work and CPU time per payload) and
// yields to the event loop while it works, so a hostile payload or mapping cannot hold the process.
import { lazy } from '../../shared/lazy.js'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Ajv, type ErrorObject } from 'ajv'
import Mustache from 'mustache'
import { describeJsonProblem, inspectJson, MAX_JSON_DEPTH } from '../../shared/json-checks.js'
import { normalizeTimestamp } from '../events.js'
import { WorkBudget } from '../../shared/budget.js'
import { isRenderLimit, RENDER_LIMITS, renderTemplate, rootView, toView } from './moustache.js'

const load = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../schemas/${name}`, import.meta.url), 'utf8')) as object
const validateMappingShape = lazy(() => new Ajv({ allErrors: false, strict: true }).compile(load('alert-mapping.json')))
// Every alert checked here was built by renderOne, its two times by isoTime (toISOString within
// years 0000 to 9999): their date-time format is not checked again for each alert (it was a third
// of the check's cost).
const validateAlertShape = lazy(() =>
  new Ajv({ allErrors: false, strict: true, validateFormats: false }).compile(load('alert.json')),
)

export const SEVERITIES = ['critical', 'high', 'warning', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]
/** What a sender says of an incident, as the mapping's status and statusMap read it. */
export const ALERT_STATUSES = ['firing', 'acknowledged', 'resolved'] as const
export type AlertStatus = (typeof ALERT_STATUSES)[number]
/** Longest dedup key kept as rendered; a longer one is replaced by its SHA-256. */
export const MAX_DEDUP_KEY_CHARS = 256
const OPTIONAL_FIELDS = ['service', 'environment', 'team'] as const
const REQUIRED_FIELDS = ['severity', 'description', 'source'] as const
type DefaultableField = (typeof REQUIRED_FIELDS)[number] | (typeof OPTIONAL_FIELDS)[number]

export interface AlertMapping {
  severity: string
  description: string
  source: string
  service?: string
  environment?: string
  team?: string
  timestamp?: string
  correlationId?: string
  dedupKey?: string
  status?: string
  customFields?: Record<string, string>
  defaults?: Partial<Record<DefaultableField, string>>
  severityMap?: Record<string, Severity>
  statusMap?: Record<string, AlertStatus>
  splitPath?: string
}

export interface NormalizedAlert {
  severity: Severity
  description: string
  source: string
  service?: string
  environment?: string
  team?: string
  correlationId?: string
  /** The incident within the integration: alerts with the same key are one alert. */
  dedupKey: string
  status: AlertStatus
  timestamp: string
  receivedAt: string
  integrationId: string
  requestId: string
  customFields: Record<string, string>
  /** Added by alert rules. */
  tags?: string[]
  /** The rule set version that changed the alert, and the ids of its rules that did, in order. */
  rulesVersion?: number
  rulesApplied?: string[]
  /** The maintenance window the alert arrived in (it is stored as suppressed), and when that window ends. */
  suppressedBy?: string
  suppressedUntil?: string
  /** Why the account's rules and windows were not applied to it: they went over the payload's budget. */
  overBudget?: string
}

export interface MappingProblem {
  readonly field: string
  readonly problem: string
}

/** Synonyms senders use, folded onto the four severities (after the integration's severityMap). */
const SEVERITY_SYNONYMS: Record<string, Severity> = {
  critical: 'critical',
  crit: 'critical',
  fatal: 'critical',
  emergency: 'critical',
  emerg: 'critical',
  alert: 'critical',
  p1: 'critical',
  sev1: 'critical',
  disaster: 'critical',
  high: 'high',
  error: 'high',
  err: 'high',
  major: 'high',
  p2: 'high',
  sev2: 'high',
  warning: 'warning',
  warn: 'warning',
  medium: 'warning',
  moderate: 'warning',
  minor: 'warning',
  average: 'warning',
  p3: 'warning',
  sev3: 'warning',
  info: 'info',
  informational: 'info',
  information: 'info',
  low: 'info',
  notice: 'info',
  ok: 'info',
  success: 'info',
  resolved: 'info',
  p4: 'info',
  p5: 'info',
  sev4: 'info',
  debug: 'info',
}

/** Statuses senders use, folded onto the three (after the integration's statusMap). */
const STATUS_SYNONYMS: Record<string, AlertStatus> = {
  firing: 'firing',
  alerting: 'firing',
  alert: 'firing',
  triggered: 'firing',
  trigger: 'firing',
  problem: 'firing',
  open: 'firing',
  create: 'firing',
  acknowledged: 'acknowledged',
  acknowledge: 'acknowledged',
  ack: 'acknowledged',
  acked: 'acknowledged',
  resolved: 'resolved',
  resolve: 'resolved',
  recovered: 'resolved',
  ok: 'resolved',
  closed: 'resolved',
  close: 'resolved',
  normal: 'resolved',
}

/** One of the four severities, or undefined: a severity or a synonym senders use, in any case. */
export function foldSeverity(text: string): Severity | undefined {
  const lower = text.toLowerCase()
  return Object.hasOwn(SEVERITY_SYNONYMS, lower) ? SEVERITY_SYNONYMS[lower] : undefined
}

const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor'])
/** Deepest payload nesting rendered (the webhook edge refuses deeper ones with 400). */
export const MAX_PAYLOAD_DEPTH = MAX_JSON_DEPTH
/** Most alerts one payload may split into. */
export const MAX_ALERTS_PER_PAYLOAD = 1000

/** Checks a mapping as it is saved: shape, template syntax, names, and required fields that can render empty. */
export function checkMapping(
  input: unknown,
): { ok: true; mapping: AlertMapping } | { ok: false; problems: MappingProblem[] } {
  const validMapping = validateMappingShape()
  if (!validMapping(input)) return { ok: false, problems: [shapeProblem(validMapping.errors?.[0])] }
  const mapping = input as AlertMapping
  const problems: MappingProblem[] = []
  const templates: [string, string][] = [
    ...[
      ...REQUIRED_FIELDS,
      ...OPTIONAL_FIELDS,
      'timestamp' as const,
      'correlationId' as const,
      'dedupKey' as const,
      'status' as const,
    ]
      .filter((f) => mapping[f] !== undefined)
      .map((f): [string, string] => [`mapping.${f}`, mapping[f]!]),
    ...Object.entries(mapping.customFields ?? {}).map(([k, v]): [string, string] => [`mapping.customFields.${k}`, v]),
    ...Object.entries(mapping.defaults ?? {}).map(([k, v]): [string, string] => [`mapping.defaults.${k}`, v]),
  ]
  const literal = new Map<string, boolean>()
  for (const [field, template] of templates) {
    const result = checkTemplate(template, mapping.splitPath !== undefined ? ['webhook', 'item'] : ['webhook'])
    if (typeof result === 'string') problems.push({ field, problem: result })
    else literal.set(field, result.hasLiteralText)
  }
  for (const f of REQUIRED_FIELDS) {
    if (literal.get(`mapping.${f}`) === false && literal.get(`mapping.defaults.${f}`) !== true) {
      problems.push({
        field: `mapping.${f}`,
        problem: `is required but can render empty (it is only placeholders); add text or a default in mapping.defaults.${f}`,
      })
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, mapping }
}

type Token = [string, string, number, number, Token[]?, ...unknown[]]

/** A template's syntax and names (outside sections every name starts at one of the roots); whether it has text. */
export function checkTemplate(template: string, roots: readonly string[]): string | { hasLiteralText: boolean } {
  let tokens: Token[]
  try {
    tokens = Mustache.parse(template) as unknown as Token[]
  } catch (err) {
    return `template syntax error: ${err instanceof Error ? err.message : String(err)}`
  }
  const rootNames = roots.join(' or ')
  const walk = (list: Token[], depth: number): string | undefined => {
    const nested = depth > 0
    for (const [type, value, , , children] of list) {
      if (type === '>') return 'partials ({{> name}}) are not supported'
      if (type === '=') return 'delimiter changes ({{=...=}}) are not supported'
      if (type === 'text' || type === '!') continue
      const segments = value.split('.')
      if (segments.some((s) => FORBIDDEN_SEGMENTS.has(s)))
        return `"${value}" is not allowed (${[...FORBIDDEN_SEGMENTS].join(', ')} are reserved)`
      // Outside sections every name starts at the payload; inside one, names are relative to it.
      const root = segments[0]
      if (!nested && value !== '.' && !roots.includes(root!)) {
        const kind = type === '#' || type === '^' ? 'section' : 'placeholder'
        return `unknown ${kind} "${value}": names start with ${rootNames} (e.g. {{${roots[0]}.status}})`
      }
      if (children) {
        if (depth + 1 > RENDER_LIMITS.maxSectionDepth)
          return `sections nest deeper than ${RENDER_LIMITS.maxSectionDepth} levels`
        const problem = walk(children, depth + 1)
        if (problem) return problem
      }
    }
    return undefined
  }
  const problem = walk(tokens, 0)
  if (problem) return problem
  return { hasLiteralText: tokens.some(([type, value]) => type === 'text' && value.trim().length > 0) }
}

function shapeProblem(error: ErrorObject | undefined): MappingProblem {
  if (!error) return { field: 'mapping', problem: 'is invalid' }
  const path = `mapping${error.instancePath.replaceAll('/', '.')}`
  if (error.keyword === 'required')
    return { field: `${path}.${String(error.params['missingProperty'])}`, problem: 'is required' }
  if (error.keyword === 'additionalProperties')
    return { field: `${path}.${String(error.params['additionalProperty'])}`, problem: 'is not a mapping field' }
  if (error.keyword === 'enum')
    return {
      field: path,
      problem: `must be one of ${(path.startsWith('mapping.statusMap') ? ALERT_STATUSES : SEVERITIES).join(', ')}`,
    }
  return { field: path, problem: error.message ?? 'is invalid' }
}

/**
 * A rendered alert, or why the payload gave none. `dedupFallback`: the dedup key rendered empty and is
 * a hash of the rendered fields; `statusUnknown`: the status rendered to something neither the
 * statusMap nor the synonyms know, so it is firing. Both are counted by the consumer.
 */
export type RenderOutcome =
  { ok: true; alert: NormalizedAlert; dedupFallback: boolean; statusUnknown: boolean } | { ok: false; reason: string }

export interface RenderContext {
  readonly integrationId: string
  readonly requestId: string
  readonly receivedAtMs: number
}

/**
 * Renders a payload into alerts: one, or one per item of the split path. Never throws on payload or
 * mapping content: a payload over its budget gives one rejection naming the limit. `view`: the payload's
 * toView when the caller made it already (the alert rules read it too).
 */
export async function renderAlerts(
  mapping: AlertMapping,
  payload: unknown,
  ctx: RenderContext,
  view?: unknown,
): Promise<RenderOutcome[]> {
  const problem = inspectJson(payload, { maxDepth: MAX_PAYLOAD_DEPTH })
  if (problem) return [{ ok: false, reason: describeJsonProblem('payload', problem) }]
  const webhook = view ?? toView(payload)
  const budget = new WorkBudget()
  try {
    if (mapping.splitPath === undefined) return [renderOne(mapping, rootView({ webhook }), ctx, budget)]
    const items = lookup(webhook, mapping.splitPath)
    if (!Array.isArray(items))
      return [{ ok: false, reason: `splitPath "${mapping.splitPath}" is not an array in the payload` }]
    if (items.length > MAX_ALERTS_PER_PAYLOAD)
      return [
        {
          ok: false,
          reason: `splitPath "${mapping.splitPath}" has ${items.length} items; at most ${MAX_ALERTS_PER_PAYLOAD} alerts per payload`,
        },
      ]
    const outcomes: RenderOutcome[] = []
    // NOTE: view arrays have no prototype, so no iterator: indexes only.
    for (let i = 0; i < items.length; i++) {
      outcomes.push(renderOne(mapping, rootView({ webhook, item: items[i] as unknown }), ctx, budget))
      if (budget.sliceSpent()) await budget.yield()
    }
    return outcomes
  } catch (err) {
    if (isRenderLimit(err)) return [{ ok: false, reason: err.message }]
    throw err
  }
}

function renderOne(mapping: AlertMapping, view: object, ctx: RenderContext, budget: WorkBudget): RenderOutcome {
  const render = (template: string | undefined) =>
    template === undefined ? '' : renderTemplate(template, view, budget).trim()
  const field = (name: DefaultableField) => render(mapping[name]) || render(mapping.defaults?.[name])

  const rawSeverity = field('severity')
  const mapped = lookupCaseless(mapping.severityMap, rawSeverity) ?? rawSeverity
  const severity = foldSeverity(mapped)
  if (!severity)
    return {
      ok: false,
      reason: `severity "${mapped.slice(0, 64)}" is not one of ${SEVERITIES.join(', ')} or a known synonym; map it in severityMap`,
    }

  const receivedAt = isoTime(ctx.receivedAtMs)
  if (!receivedAt)
    return { ok: false, reason: `the message's receive time (${String(ctx.receivedAtMs).slice(0, 32)}) is not a time` }
  const rawTime = render(mapping.timestamp)
  const timestamp = rawTime ? toIsoTime(rawTime) : receivedAt
  if (!timestamp)
    return {
      ok: false,
      reason: `timestamp "${rawTime.slice(0, 64)}" is not a time (ISO 8601 or epoch seconds/milliseconds)`,
    }

  const alert: NormalizedAlert = {
    severity,
    description: field('description'),
    source: field('source'),
    timestamp,
    receivedAt,
    integrationId: ctx.integrationId,
    requestId: ctx.requestId,
    customFields: {},
    dedupKey: '',
    status: 'firing',
  }
  for (const name of OPTIONAL_FIELDS) {
    const value = field(name)
    if (value) alert[name] = value
  }
  const correlationId = render(mapping.correlationId)
  if (correlationId) alert.correlationId = correlationId
  for (const [name, template] of Object.entries(mapping.customFields ?? {})) {
    const value = render(template)
    if (value) alert.customFields[name] = value
  }
  const rawStatus = render(mapping.status)
  const status = rawStatus
    ? (lookupCaseless(mapping.statusMap, rawStatus) ?? lookupCaseless(STATUS_SYNONYMS, rawStatus))
    : 'firing'
  alert.status = status ?? 'firing'
  const renderedKey = render(mapping.dedupKey)
  alert.dedupKey = renderedKey ? dedupKeyOf(renderedKey) : fallbackDedupKey(alert)
  const validAlert = validateAlertShape()
  if (!validAlert(alert)) {
    const e = validAlert.errors?.[0]
    const where =
      e?.instancePath.replace(/^\//, '').replaceAll('/', '.') || String(e?.params['missingProperty'] ?? 'alert')
    return {
      ok: false,
      reason: `${where} ${e?.keyword === 'minLength' ? 'rendered empty' : (e?.message ?? 'is invalid')}`,
    }
  }
  return { ok: true, alert, dedupFallback: !renderedKey, statusUnknown: status === undefined }
}

/**
 * A rendered dedup key as stored: as rendered up to MAX_DEDUP_KEY_CHARS, else its SHA-256 (never cut: two long keys
 * must not collide).
 */
function dedupKeyOf(rendered: string): string {
  return rendered.length <= MAX_DEDUP_KEY_CHARS && rendered.isWellFormed()
    ? rendered
    : `sha256:${createHash('sha256').update(rendered.toWellFormed()).digest('hex')}`
}

/** The dedup key of an alert whose key rendered empty: a hash of what identifies it (not its times or request). */
function fallbackDedupKey(alert: NormalizedAlert): string {
  const { severity, description, source, service, environment, team, customFields } = alert
  const fields = JSON.stringify([
    severity,
    description,
    source,
    service ?? '',
    environment ?? '',
    team ?? '',
    Object.entries(customFields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ])
  return `auto:${createHash('sha256').update(fields.toWellFormed()).digest('hex').slice(0, 32)}`
}

function toIsoTime(value: string): string | undefined {
  if (/^\d+(\.\d+)?$/.test(value)) {
    const ts = normalizeTimestamp(value)
    return ts.ok ? isoTime(ts.ms) : undefined
  }
  return isoTime(Date.parse(value))
}

/** Years 0000 to 9999: what RFC 3339 (the alert schema's date-time) can write. */
const MIN_ISO_MS = Date.parse('0000-01-01T00:00:00.000Z')
const MAX_ISO_MS = Date.parse('9999-12-31T23:59:59.999Z')

/**
 * The RFC 3339 text of a time, or undefined when it is none or outside years 0000 to 9999 (toISOString would write
 * "+010000-…").
 */
function isoTime(ms: number): string | undefined {
  return Number.isFinite(ms) && ms >= MIN_ISO_MS && ms <= MAX_ISO_MS ? new Date(ms).toISOString() : undefined
}

function lookupCaseless<T>(map: Record<string, T> | undefined, key: string): T | undefined {
  if (!map) return undefined
  if (Object.hasOwn(map, key)) return map[key]
  const lower = key.toLowerCase()
  for (const [k, v] of Object.entries(map)) if (k.toLowerCase() === lower) return v
  return undefined
}

function lookup(view: unknown, path: string): unknown {
  let current = view
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}
