// Alert rules: an account's ordered list of (condition, actions), applied to every alert after its
// integration's mapping and before its lifecycle. Pure functions: check a rule set as it is saved,
// then apply it to an alert and the payload it came from.
// A rule whose condition holds (no condition: every alert) applies its actions in this order: `set`
// fields (moustache templates over {{alert.<field>}} and {{webhook.<path>}}), `customFields`,
// `addTags`, then `drop` (the alert is not stored; later rules are not read) and `stop` (later rules
// are not read). `notify` names notification destinations: the notify role sends the alert's events to
// those of every rule that applied (else to the account's default route). `group` puts the alert in an
// incident with the other alerts of its group key (the last rule that applied with a group decides), and `inhibit`
// holds the alerts it selects while a source alert is open: both are pipeline/incidents/grouping.ts's. Each rule
// sees the alert as the rules before it left it. The alert records the rule set's version and the rules that changed
// it.
import { checkCondition, ConditionChecks, type CompiledCondition, type ConditionProblem } from './conditions.js'
import { WorkBudget } from '../../shared/budget.js'
import { rootView } from './moustache.js'
import {
  alertView,
  checkGroup,
  checkInhibit,
  compileGroup,
  GROUP_LIMITS,
  groupOf,
  inhibitPairs,
  render,
  type CompiledGroup,
  type CompiledInhibit,
  type GroupPolicy,
  type IncidentGroup,
  type InhibitPairs,
  type InhibitPolicy,
} from '../incidents/grouping.js'
import { checkTemplate, foldSeverity, type NormalizedAlert } from './render.js'

/** Fields a rule may set, and the longest each may be (as the alert schema says). */
export const SETTABLE_FIELDS = {
  severity: 16,
  description: 16384,
  source: 512,
  service: 512,
  environment: 512,
  team: 512,
} as const
export type SettableField = keyof typeof SETTABLE_FIELDS

export const RULE_LIMITS = {
  maxRules: 500,
  maxIdChars: 64,
  maxNameChars: 200,
  maxTemplateChars: 4096,
  maxTags: 20,
  maxTagChars: 64,
  /** Tags an alert may carry, all rules together. */
  maxTagsPerAlert: 50,
  maxCustomFields: 20,
  /** Custom fields an alert may carry (the alert schema's bound). */
  maxCustomFieldsPerAlert: 50,
  maxNotify: 20,
  ...GROUP_LIMITS,
} as const

const ID = /^[A-Za-z0-9_-]+$/
const CUSTOM_FIELD_NAME = /^[A-Za-z0-9_.-]{1,64}$/
const TEMPLATE_ROOTS = ['alert', 'webhook'] as const

export interface AlertRule {
  readonly id: string
  readonly name: string
  /** Default true. */
  readonly enabled?: boolean
  readonly when?: unknown
  readonly set?: Partial<Record<SettableField, string>>
  readonly customFields?: Readonly<Record<string, string>>
  readonly addTags?: readonly string[]
  readonly drop?: boolean
  readonly stop?: boolean
  /** Notification destination ids (checked to exist when the rules are saved). */
  readonly notify?: readonly string[]
  /** The escalation policy an incident this rule applied to follows (checked to exist when the rules are saved). */
  readonly escalate?: string
  readonly group?: GroupPolicy
  /** While an alert matching `source` is open, the alerts this rule's `when` selects with equal values are held. */
  readonly inhibit?: InhibitPolicy
}

export interface CompiledRule {
  readonly rule: AlertRule
  readonly when?: CompiledCondition
  /**
   * Whether a template of its may read the alert root (it says "alert" anywhere: set delimiters could hide a
   * placeholder from a finer test): only then is the alert's view made for it.
   */
  readonly readsAlert: boolean
  /** Its set and customFields actions as lists, made once. */
  readonly sets: readonly (readonly [SettableField, string])[]
  readonly customs: readonly (readonly [string, string])[]
  readonly inhibit?: CompiledInhibit
  readonly group?: CompiledGroup
}

/** A checked rule set, ready to apply. */
export interface CompiledRuleSet {
  readonly version: number
  readonly rules: readonly CompiledRule[]
  /** Whether a rule inhibits (then every alert's source conditions are checked). */
  readonly inhibits?: boolean
}

export type RuleProblem = ConditionProblem

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Checks rules as they are saved. Problems name the rule by position (rules.<i>.<field>). `checks`: what their
 * conditions may cost all together (shared by several calls that check one set in parts).
 */
export function checkRules(
  input: unknown,
  version: number,
  checks = new ConditionChecks(),
): { ok: true; ruleSet: CompiledRuleSet } | { ok: false; problems: RuleProblem[] } {
  if (!Array.isArray(input)) return { ok: false, problems: [{ field: 'rules', problem: 'must be a list of rules' }] }
  if (input.length > RULE_LIMITS.maxRules)
    return {
      ok: false,
      problems: [{ field: 'rules', problem: `has ${input.length} rules; at most ${RULE_LIMITS.maxRules}` }],
    }
  const problems: RuleProblem[] = []
  const ids = new Set<string>()
  const rules: CompiledRule[] = []
  input.forEach((raw, i) => {
    const at = `rules.${i}`
    const before = problems.length
    if (!isObject(raw)) {
      problems.push({ field: at, problem: 'must be a rule object' })
      return
    }
    const known = new Set([
      'id',
      'name',
      'enabled',
      'when',
      'set',
      'customFields',
      'addTags',
      'drop',
      'stop',
      'notify',
      'escalate',
      'group',
      'inhibit',
    ])
    for (const k of Object.keys(raw))
      if (!known.has(k)) problems.push({ field: `${at}.${k}`, problem: 'is not a rule field' })
    const id = raw['id']
    if (typeof id !== 'string' || !ID.test(id) || id.length > RULE_LIMITS.maxIdChars)
      problems.push({ field: `${at}.id`, problem: `must be 1 to ${RULE_LIMITS.maxIdChars} letters, digits, - or _` })
    else if (ids.has(id)) problems.push({ field: `${at}.id`, problem: `"${id}" is the id of an earlier rule` })
    else ids.add(id)
    const name = raw['name']
    if (typeof name !== 'string' || name.trim().length === 0 || name.length > RULE_LIMITS.maxNameChars)
      problems.push({ field: `${at}.name`, problem: `must be 1 to ${RULE_LIMITS.maxNameChars} characters` })
    for (const flag of ['enabled', 'drop', 'stop'] as const)
      if (raw[flag] !== undefined && typeof raw[flag] !== 'boolean')
        problems.push({ field: `${at}.${flag}`, problem: 'must be true or false' })
    let when: CompiledCondition | undefined
    if (raw['when'] !== undefined) {
      const checked = checkCondition(raw['when'], `${at}.when`, checks)
      if (checked.ok) when = checked.condition
      else problems.push(...checked.problems)
    }
    problems.push(...checkActions(raw, at))
    let inhibit: CompiledRule['inhibit']
    if (raw['inhibit'] !== undefined) {
      const checked = checkInhibit(raw['inhibit'], `${at}.inhibit`, checks)
      if ('problems' in checked) problems.push(...checked.problems)
      else inhibit = checked
    }
    if (
      raw['set'] === undefined &&
      raw['customFields'] === undefined &&
      raw['addTags'] === undefined &&
      raw['drop'] !== true &&
      raw['stop'] !== true &&
      raw['notify'] === undefined &&
      raw['escalate'] === undefined &&
      raw['group'] === undefined &&
      raw['inhibit'] === undefined
    )
      problems.push({
        field: at,
        problem: 'does nothing: give it set, customFields, addTags, notify, escalate, group, inhibit, drop or stop',
      })
    if (problems.length === before) {
      const rule = raw as unknown as AlertRule
      const templates = [...Object.values(rule.set ?? {}), ...Object.values(rule.customFields ?? {})]
      const group = rule.group ? compileGroup(rule.group) : undefined
      if (group) templates.push(group.key, group.title ?? '')
      const compiled = {
        rule,
        readsAlert: templates.some((t) => t.includes('alert')),
        sets: Object.entries(rule.set ?? {}) as [SettableField, string][],
        customs: Object.entries(rule.customFields ?? {}),
        ...(group ? { group } : {}),
        ...(inhibit ? { inhibit } : {}),
      }
      rules.push(when ? { ...compiled, when } : compiled)
    }
  })
  return problems.length > 0
    ? { ok: false, problems: problems.slice(0, 100) }
    : { ok: true, ruleSet: { version, rules, ...(rules.some((r) => r.inhibit) ? { inhibits: true } : {}) } }
}

function checkActions(raw: Record<string, unknown>, at: string): RuleProblem[] {
  const problems: RuleProblem[] = []
  const template = (field: string, value: unknown) => {
    if (typeof value !== 'string' || value.length > RULE_LIMITS.maxTemplateChars) {
      problems.push({ field, problem: `must be a template of at most ${RULE_LIMITS.maxTemplateChars} characters` })
      return
    }
    const checked = checkTemplate(value, TEMPLATE_ROOTS)
    if (typeof checked === 'string') problems.push({ field, problem: checked })
  }
  const set = raw['set']
  if (set !== undefined) {
    if (!isObject(set) || Object.keys(set).length === 0)
      problems.push({
        field: `${at}.set`,
        problem: `must be an object of fields: ${Object.keys(SETTABLE_FIELDS).join(', ')}`,
      })
    else
      for (const [k, v] of Object.entries(set)) {
        if (!Object.hasOwn(SETTABLE_FIELDS, k)) {
          problems.push({
            field: `${at}.set.${k}`,
            problem: `is not a field rules can set: one of ${Object.keys(SETTABLE_FIELDS).join(', ')}`,
          })
          continue
        }
        template(`${at}.set.${k}`, v)
        // A literal severity must be one: a template's is checked as it renders (left unchanged when it is none).
        if (k === 'severity' && typeof v === 'string' && !v.includes('{{') && !foldSeverity(v.trim()))
          problems.push({
            field: `${at}.set.severity`,
            problem: `"${v.slice(0, 32)}" is not a severity (critical, high, warning, info or a synonym)`,
          })
      }
  }
  const custom = raw['customFields']
  if (custom !== undefined) {
    if (
      !isObject(custom) ||
      Object.keys(custom).length === 0 ||
      Object.keys(custom).length > RULE_LIMITS.maxCustomFields
    )
      problems.push({
        field: `${at}.customFields`,
        problem: `must be an object of 1 to ${RULE_LIMITS.maxCustomFields} templates`,
      })
    else
      for (const [k, v] of Object.entries(custom)) {
        if (!CUSTOM_FIELD_NAME.test(k) || k === '__proto__' || k === 'constructor' || k === 'prototype')
          problems.push({
            field: `${at}.customFields.${k.slice(0, 64)}`,
            problem: 'must be a name of letters, digits, _, - or .',
          })
        else template(`${at}.customFields.${k}`, v)
      }
  }
  const tags = raw['addTags']
  if (tags !== undefined) {
    if (
      !Array.isArray(tags) ||
      tags.length === 0 ||
      tags.length > RULE_LIMITS.maxTags ||
      !tags.every(
        (t) => typeof t === 'string' && t.length > 0 && t.length <= RULE_LIMITS.maxTagChars && t.isWellFormed(),
      )
    )
      problems.push({
        field: `${at}.addTags`,
        problem: `must be a list of 1 to ${RULE_LIMITS.maxTags} tags of 1 to ${RULE_LIMITS.maxTagChars} characters`,
      })
  }
  if (raw['group'] !== undefined) problems.push(...checkGroup(raw['group'], `${at}.group`, template))
  const notify = raw['notify']
  if (
    notify !== undefined &&
    (!Array.isArray(notify) ||
      notify.length === 0 ||
      notify.length > RULE_LIMITS.maxNotify ||
      !notify.every((d) => typeof d === 'string' && ID.test(d) && d.length <= RULE_LIMITS.maxIdChars))
  )
    problems.push({
      field: `${at}.notify`,
      problem: `must be a list of 1 to ${RULE_LIMITS.maxNotify} notification destination ids`,
    })
  const escalate = raw['escalate']
  if (escalate !== undefined && (typeof escalate !== 'string' || escalate.length === 0 || escalate.length > 100))
    problems.push({ field: `${at}.escalate`, problem: 'must be an escalation policy id' })
  return problems
}

/**
 * What the rules made of one alert: the alert as changed (and its group, when a rule gave one), or dropped (by which
 * rule).
 */
export type RuleOutcome =
  | {
      readonly dropped: false
      readonly alert: NormalizedAlert
      readonly applied: readonly string[]
      readonly group?: IncidentGroup
      readonly inhibit?: InhibitPairs
    }
  | { readonly dropped: true; readonly by: string; readonly applied: readonly string[] }

/**
 * Applies the rules in order to an alert. `payload` is the payload's view (toView: made once per payload); never
 * throws for what the alert, payload or templates hold: a template over the render budget leaves its field as it was.
 */
export function applyRules(
  ruleSet: CompiledRuleSet,
  alert: NormalizedAlert,
  payload: unknown,
  budget: WorkBudget = new WorkBudget(),
): RuleOutcome {
  const applied: string[] = []
  // One copy of the alert, made at the first change and changed in place after it (a copy per rule was most of
  // the cost of 50 rules); the templates' view of it is made again only after it changed.
  let current: NormalizedAlert = alert
  let tags: Set<string> | undefined
  // The templates' view: the payload alone, or with the alert as it is now (made again only after a change).
  const payloadOnly = rootView({ webhook: payload })
  let view: object | undefined
  const subject = { alert: current as unknown as Record<string, unknown>, payload }
  const own = () => {
    if (current === alert) {
      // Object.assign, not a spread: V8 gives a spread copy of a rendered alert a shape that every property added
      // later makes again (about 1 µs each, measured); an assigned copy takes them as a plain object does.
      current = Object.assign({}, alert)
      current.customFields = Object.assign({}, alert.customFields)
      subject.alert = current as unknown as Record<string, unknown>
    }
    view = undefined
    return current
  }
  let grouping: CompiledRule | undefined
  for (const compiled of ruleSet.rules) {
    const { rule, when, readsAlert, sets, customs } = compiled
    if (rule.enabled === false) continue
    if (when && !when.matches(subject, budget)) continue
    applied.push(rule.id)
    if (rule.drop) return { dropped: true, by: rule.id, applied }
    if (compiled.group) grouping = compiled
    if (sets.length > 0 || customs.length > 0) {
      // The view of this rule: the alert as the rules before it left it (a copy: the changes below do not reach it).
      const ruleView = readsAlert ? (view ??= rootView({ alert: alertView(current), webhook: payload })) : payloadOnly
      const next = own()
      for (const [field, template] of sets) {
        const value = render(template, ruleView, budget)
        if (value === undefined) continue
        if (field === 'severity') {
          const severity = foldSeverity(value)
          if (severity) next.severity = severity
        } else if (value.length > 0) next[field] = value.slice(0, SETTABLE_FIELDS[field])
        else if (field !== 'description' && field !== 'source') delete next[field]
      }
      for (const [name, template] of customs) {
        const value = render(template, ruleView, budget)
        if (value === undefined) continue
        const fields = next.customFields
        if (value.length === 0) delete fields[name]
        else if (Object.hasOwn(fields, name) || Object.keys(fields).length < RULE_LIMITS.maxCustomFieldsPerAlert)
          fields[name] = value.slice(0, 1024)
      }
    }
    if (rule.addTags) {
      const next = own()
      tags ??= new Set(next.tags ?? [])
      for (const t of rule.addTags) if (tags.size < RULE_LIMITS.maxTagsPerAlert) tags.add(t)
      next.tags = [...tags]
    }
    if (rule.stop) break
  }
  if (applied.length > 0) {
    const next = own()
    next.rulesVersion = ruleSet.version
    next.rulesApplied = applied
  }
  const group = grouping ? groupOf(grouping, current, payload, budget) : undefined
  const inhibit = ruleSet.inhibits ? inhibitPairs(ruleSet.rules, applied, current, payload, budget) : undefined
  return { dropped: false, alert: current, applied, ...(group ? { group } : {}), ...(inhibit ? { inhibit } : {}) }
}
