// Incidents as the alert rules make them: a rule's `group` (which alerts share an incident: fields or a template
// rendered into a group key, a window or until resolved, minAlerts, a title) and `inhibit` (Alertmanager's
// inhibit_rules: a source condition and the fields a source and its targets share), checked when the rules are
// saved, compiled once, and rendered per alert into what the lifecycle script stores (lua/incidents.lua,
// lua/inhibition.lua). The rules themselves (pipeline/alerts/rules.ts) call these.
import { createHash } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import type { WorkBudget } from '../../shared/budget.js'
import {
  checkCondition,
  type CompiledCondition,
  type ConditionChecks,
  type ConditionProblem,
} from '../alerts/conditions.js'
import { renderTemplate, rootView } from '../alerts/moustache.js'
import type { NormalizedAlert } from '../alerts/render.js'

export const GROUP_LIMITS = {
  /** Fields or payload paths of a group's `by`. */
  maxGroupBy: 10,
  /** A group key longer than this is kept as its SHA-256 (a key that renders big costs no more to store). */
  maxGroupKeyChars: 256,
  maxGroupTitleChars: 200,
  maxMinAlerts: 1000,
  /** A group's window: 10 s to 7 days. */
  minGroupWindowMs: 10_000,
  maxGroupWindowMs: 7 * 86_400_000,
} as const

/** How a rule groups alerts into incidents, as saved. */
export interface GroupPolicy {
  /**
   * Alert fields (severity, source, service, environment, team, dedupKey, integrationId, customFields.<name>) or
   * payload paths (webhook.<path>).
   */
  readonly by?: readonly string[]
  /** A moustache template over {{alert.<field>}} and {{webhook.<path>}}: its text is the group key. */
  readonly key?: string
  /** Time-based: alerts join the open incident within this long of its last alert ("30s", "5m", "2h", "1d"). */
  readonly window?: string
  /** Content-based: alerts join the open incident until it is resolved. */
  readonly until?: 'resolved'
  /** The incident opens (is told) only once this many of its alerts arrived within the window. */
  readonly minAlerts?: number
  /** A template for the incident's title (else the first alert's description). */
  readonly title?: string
}

/** An alert's group, decided by the rules: what the alert lifecycle script groups it by. */
export interface IncidentGroup {
  /** The rule that grouped it. */
  readonly rule: string
  /** The rule's id and the rendered key (at most maxGroupKeyChars, else its SHA-256). */
  readonly key: string
  /** 0: until the incident is resolved. */
  readonly windowMs: number
  readonly minAlerts: number
  readonly title?: string
}

/** Inhibition, as Alertmanager's inhibit_rules: the rule's `when` chooses the targets. */
export interface InhibitPolicy {
  /** A condition: the alerts that inhibit. */
  readonly source: unknown
  /** Fields (as a group's `by`) whose values a source and a target share. */
  readonly equal: readonly string[]
}

/** An alert's inhibition pairs (rule id, rendered equal values): as a source, and as a target. */
export interface InhibitPairs {
  readonly sources: readonly (readonly [string, string])[]
  readonly targets: readonly (readonly [string, string])[]
}

/** A group as applyRules uses it: the key's template (`by` made one), window, minAlerts and the title's template. */
export interface CompiledGroup {
  readonly key: string
  readonly windowMs: number
  readonly minAlerts: number
  readonly title?: string
}

/** An inhibition as applyRules uses it: the source condition and the template of the equal values. */
export interface CompiledInhibit {
  readonly source: CompiledCondition
  readonly equal: string
}

/** A rule as inhibitPairs reads it. */
export interface InhibitingRule {
  readonly rule: { readonly id: string; readonly enabled?: boolean }
  readonly inhibit?: CompiledInhibit
}

const GROUP_ALERT_FIELDS = [
  'severity',
  'source',
  'service',
  'environment',
  'team',
  'dedupKey',
  'integrationId',
] as const

/** A duration as a group's window says it: a count of s, m, h or d; undefined when it is none. */
export function parseDuration(text: string): number | undefined {
  const m = /^([1-9][0-9]{0,6})(s|m|h|d)$/.exec(text)
  if (!m) return undefined
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd']
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A `by` entry as a template that renders its value (rendering never escapes). */
const byTemplate = (path: string) => `{{${path.startsWith('webhook.') ? path : `alert.${path}`}}}`

/** A checked group policy as the templates and numbers applyRules uses. */
export function compileGroup(g: GroupPolicy): CompiledGroup {
  // The values of `by`, one per line and each named: alerts with the same values have the same key.
  const key = g.key ?? fieldsTemplate(g.by ?? [])
  return {
    key,
    windowMs: g.window !== undefined ? parseDuration(g.window)! : 0,
    minAlerts: g.minAlerts ?? 1,
    ...(g.title !== undefined ? { title: g.title } : {}),
  }
}

/** A list of alert fields or payload paths whose values make a key (a group's `by`, an inhibition's `equal`). */
function checkFields(list: unknown, at: string): ConditionProblem[] {
  if (!Array.isArray(list) || list.length === 0 || list.length > GROUP_LIMITS.maxGroupBy)
    return [{ field: at, problem: `must be a list of 1 to ${GROUP_LIMITS.maxGroupBy} fields` }]
  return list.flatMap((p, i) =>
    typeof p === 'string' &&
    ((GROUP_ALERT_FIELDS as readonly string[]).includes(p) ||
      /^customFields\.[A-Za-z0-9_.-]{1,64}$/.test(p) ||
      /^webhook(\.[A-Za-z0-9_-]{1,128}){1,10}$/.test(p))
      ? []
      : [
          {
            field: `${at}.${i}`,
            problem: `must be an alert field (${GROUP_ALERT_FIELDS.join(', ')}), customFields.<name> or webhook.<path>`,
          },
        ],
  )
}

/** The template whose text is the values of fields, one per line and each named. */
const fieldsTemplate = (fields: readonly string[]) => fields.map((p) => `${p}=${byTemplate(p)}`).join('\n')

export function checkInhibit(
  raw: unknown,
  at: string,
  checks: ConditionChecks,
): CompiledInhibit | { problems: ConditionProblem[] } {
  if (!isObject(raw)) return { problems: [{ field: at, problem: 'must be an object: source (a condition) and equal' }] }
  const problems: ConditionProblem[] = []
  for (const k of Object.keys(raw))
    if (k !== 'source' && k !== 'equal')
      problems.push({ field: `${at}.${k.slice(0, 64)}`, problem: 'is not an inhibit field' })
  problems.push(...checkFields(raw['equal'], `${at}.equal`))
  if (raw['source'] === undefined) problems.push({ field: `${at}.source`, problem: 'is required: a condition' })
  const source = raw['source'] === undefined ? undefined : checkCondition(raw['source'], `${at}.source`, checks)
  if (source && !source.ok) problems.push(...source.problems)
  if (problems.length > 0 || !source?.ok) return { problems }
  return { source: source.condition, equal: fieldsTemplate(raw['equal'] as string[]) }
}

export function checkGroup(
  raw: unknown,
  at: string,
  template: (field: string, value: unknown) => void,
): ConditionProblem[] {
  const problems: ConditionProblem[] = []
  if (!isObject(raw)) return [{ field: at, problem: 'must be an object: by or key, window or until, minAlerts, title' }]
  for (const k of Object.keys(raw))
    if (!['by', 'key', 'window', 'until', 'minAlerts', 'title'].includes(k))
      problems.push({ field: `${at}.${k.slice(0, 64)}`, problem: 'is not a group field' })
  const by = raw['by']
  if ((by === undefined) === (raw['key'] === undefined))
    problems.push({ field: at, problem: 'must have one of by (a list of fields) or key (a template)' })
  if (by !== undefined) problems.push(...checkFields(by, `${at}.by`))
  if (raw['key'] !== undefined) template(`${at}.key`, raw['key'])
  if (raw['title'] !== undefined) template(`${at}.title`, raw['title'])
  const window = raw['window']
  if (window !== undefined && raw['until'] !== undefined)
    problems.push({ field: at, problem: 'has both window and until: give one' })
  if (window !== undefined) {
    const ms = typeof window === 'string' ? parseDuration(window) : undefined
    if (ms === undefined || ms < GROUP_LIMITS.minGroupWindowMs || ms > GROUP_LIMITS.maxGroupWindowMs)
      problems.push({ field: `${at}.window`, problem: 'must be a duration from "10s" to "7d" (s, m, h or d)' })
  }
  if (raw['until'] !== undefined && raw['until'] !== 'resolved')
    problems.push({ field: `${at}.until`, problem: 'must be "resolved"' })
  if (window === undefined && raw['until'] === undefined)
    problems.push({ field: at, problem: 'must have window (time-based) or until: "resolved" (content-based)' })
  const min = raw['minAlerts']
  if (
    min !== undefined &&
    (!Number.isInteger(min) || (min as number) < 1 || (min as number) > GROUP_LIMITS.maxMinAlerts)
  )
    problems.push({
      field: `${at}.minAlerts`,
      problem: `must be a whole number from 1 to ${GROUP_LIMITS.maxMinAlerts}`,
    })
  return problems
}

/**
 * The alert's inhibition pairs: as a source of every enabled inhibiting rule whose source condition it matches
 * (whatever rules stopped before it), as a target of those that applied to it. Its equal values rendered as a group
 * key is (a key that does not render makes no pair).
 */
export function inhibitPairs(
  rules: readonly InhibitingRule[],
  applied: readonly string[],
  alert: NormalizedAlert,
  payload: unknown,
  budget: WorkBudget,
): InhibitPairs | undefined {
  const sources: [string, string][] = []
  const targets: [string, string][] = []
  const subject = { alert: alert as unknown as Record<string, unknown>, payload }
  let view: object | undefined
  for (const { rule, inhibit } of rules) {
    if (!inhibit || rule.enabled === false) continue
    const source = inhibit.source.matches(subject, budget)
    const target = applied.includes(rule.id)
    if (!source && !target) continue
    view ??= rootView({ alert: alertView(alert), webhook: payload })
    const key = keyOf(rule.id, inhibit.equal, view, budget)
    if (key === undefined) continue
    if (source) sources.push([rule.id, key])
    if (target) targets.push([rule.id, key])
  }
  return sources.length > 0 || targets.length > 0 ? { sources, targets } : undefined
}

/**
 * A rule's key: its id and the template's text, kept as its SHA-256 past maxGroupKeyChars; undefined if it does not
 * render.
 */
function keyOf(ruleId: string, template: string, view: object, budget: WorkBudget): string | undefined {
  const rendered = render(template, view, budget)
  if (rendered === undefined) return undefined
  const key = `${ruleId}\n${rendered}`
  return key.length > GROUP_LIMITS.maxGroupKeyChars
    ? `sha256:${createHash('sha256').update(key).digest('base64url')}`
    : key
}

/**
 * The alert's group under a rule: its key and title rendered over the alert as the rules left it. A key that does not
 * render (over the render limits) groups nothing: the alert has an incident of its own.
 */
export function groupOf(
  compiled: { readonly rule: { readonly id: string }; readonly group?: CompiledGroup },
  alert: NormalizedAlert,
  payload: unknown,
  budget: WorkBudget,
): IncidentGroup | undefined {
  const g = compiled.group!
  const view = rootView({ alert: alertView(alert), webhook: payload })
  const key = keyOf(compiled.rule.id, g.key, view, budget)
  if (key === undefined) return undefined
  const title =
    g.title === undefined ? undefined : render(g.title, view, budget)?.slice(0, GROUP_LIMITS.maxGroupTitleChars)
  return { rule: compiled.rule.id, key, windowMs: g.windowMs, minAlerts: g.minAlerts, ...(title ? { title } : {}) }
}

/** An alert as templates see it (toView's shape: no prototypes), made without toView's generic walk. */
export function alertView(alert: NormalizedAlert): object {
  const view = Object.assign(Object.create(null) as object, alert) as Record<string, unknown>
  view['customFields'] = Object.assign(Object.create(null) as object, alert.customFields)
  if (alert.tags) view['tags'] = Object.setPrototypeOf([...alert.tags], null) as unknown
  if (alert.rulesApplied) view['rulesApplied'] = Object.setPrototypeOf([...alert.rulesApplied], null) as unknown
  return view
}

export function render(template: string, view: object, budget: WorkBudget): string | undefined {
  try {
    return renderTemplate(template, view, budget).trim()
  } catch (err) {
    if (err instanceof AppError && err.code === 'RENDER_LIMIT_EXCEEDED') return undefined
    throw err
  }
}
