// Tracking plans: what an environment's events should be. Pure: a plan is checked as it is saved, compiled once per
// version (with ajv, each event type's schema on first use), and asked about each event: its violations, and which
// of its properties the plan does not know (what `strip` drops).
//
// A plan declares, per event type, its value and its properties (types, required, enums, ranges, lengths, string
// formats, patterns), an owner and a description; and its policy for event types and properties it does not list.
// Patterns are RE2 (re2js: linear time, no backreferences or lookaround) and run within a budget of program steps
// per event (see PLAN_LIMITS.patternStepsPerEvent): a text longer than its pattern is run on fails it. Nothing in a
// plan is fetched ($ref is not a keyword a plan can hold) and every part of it is bounded (PLAN_LIMITS).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { RE2JS } from 're2js'
import type { FieldProblem } from '../shared/errors.js'
import { instructionsOf } from '../shared/re2.js'
import { EVENT_TYPE_ID } from './events.js'
import type { RowOrigin } from './rows.js'

export const PLAN_MODES = ['observe', 'block', 'strip'] as const
export type PlanMode = (typeof PLAN_MODES)[number]
export const PROPERTY_TYPES = ['string', 'number', 'integer', 'boolean', 'null'] as const
export type PlanPropertyType = (typeof PROPERTY_TYPES)[number]
export const PLAN_FORMATS = ['date-time', 'date', 'time', 'email', 'uri', 'uuid', 'ipv4', 'ipv6', 'hostname'] as const
export type PlanFormat = (typeof PLAN_FORMATS)[number]
export const UNPLANNED_POLICIES = ['allow', 'violation'] as const
export type UnplannedPolicy = (typeof UNPLANNED_POLICIES)[number]

export interface PropertyRule {
  readonly type?: PlanPropertyType | readonly PlanPropertyType[]
  readonly required?: boolean
  readonly enum?: readonly (string | number | boolean | null)[]
  readonly minimum?: number
  readonly maximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly format?: PlanFormat
  readonly description?: string
}

export interface ValueRule {
  readonly required?: boolean
  readonly minimum?: number
  readonly maximum?: number
  readonly description?: string
}

export interface EventPlan {
  readonly description?: string
  readonly owner?: string
  readonly value?: ValueRule
  readonly properties?: Readonly<Record<string, PropertyRule>>
  /** This event type's policy for properties it does not list (the plan's when absent). */
  readonly unplannedProperties?: UnplannedPolicy
}

export interface TrackingPlan {
  readonly mode: PlanMode
  /** Whether an event of a type the plan does not list is a violation. */
  readonly unplannedEvents: UnplannedPolicy
  /** Whether a property an event type does not list is a violation (`strip` drops those). */
  readonly unplannedProperties: UnplannedPolicy
  readonly events: Readonly<Record<string, EventPlan>>
}

export const PLAN_LIMITS = {
  /** The plan as JSON. */
  bytes: 1024 * 1024,
  eventTypes: 500,
  propertiesPerEvent: 300,
  /** Properties of every event type together (each is a schema ajv compiles). */
  properties: 5000,
  enumValues: 1000,
  /** Enum values of one event type's properties together (each event is compared with them). */
  enumValuesPerEvent: 2000,
  /** Characters of a pattern, of a description, of an owner. */
  patternChars: 1000,
  textChars: 2000,
  /** A string enum value's characters (an event's property holds up to 32768). */
  enumValueChars: 1000,
  /**
   * The program steps the patterns of one event type may take on one event, in all (about 3 ms at the worst 30 ns a
   * step): each pattern is run on texts of at most patternStepsPerEvent / (the instructions of the type's patterns)
   * characters, a longer text fails it.
   */
  patternStepsPerEvent: 100_000,
  /** Instructions of one event type's patterns together (a repeat such as \w{1000} is a thousand). */
  patternInstructionsPerEvent: 10_000,
} as const

/** What a violation breaks. */
export const VIOLATION_RULES = [
  'required',
  'wrong_type',
  'unplanned_property',
  'unplanned_event',
  'out_of_range',
  'not_in_enum',
  'pattern',
  'format',
] as const
export type ViolationRule = (typeof VIOLATION_RULES)[number]

export interface Violation {
  readonly rule: ViolationRule
  /** '' (the event itself), `value` or `properties.<name>`. */
  readonly field: string
  readonly message: string
}

/** What the plan says of one event: its violations (the first MAX_DETAILS), how many, and its unplanned properties. */
export interface Verdict {
  readonly violations: readonly Violation[]
  readonly count: number
  /** Every rule it breaks (of all its violations), in VIOLATION_RULES order. */
  readonly rules: readonly ViolationRule[]
  /** The names of its properties the plan does not list, when that is a violation. */
  readonly unplanned: readonly string[]
}

/** The rejection reason of an event a plan in block mode refuses: its version and first violation. */
export function planRefusal(version: number, verdict: Verdict): string {
  const more = verdict.count > 1 ? ` (and ${verdict.count - 1} more)` : ''
  return `tracking plan v${version}: ${verdict.violations[0]!.message}${more}`
}

/** Violations of one event kept in detail (an event of 300 wrong properties is counted whole, described in part). */
export const MAX_DETAILS = 8

/** The one name a plan cannot hold (a schema's `properties` with it would set a prototype); any other is a property. */
const FORBIDDEN_NAME = '__proto__'

/**
 * The problems of a plan (its shape checked before, by the API's schema): names, ranges, enums, patterns, sizes; each
 * naming its place (`events.checkout.properties.sku.pattern`). None: the plan compiles.
 */
export function checkPlan(plan: TrackingPlan): FieldProblem[] {
  const problems: FieldProblem[] = []
  const bytes = Buffer.byteLength(JSON.stringify(plan))
  if (bytes > PLAN_LIMITS.bytes)
    problems.push({ field: 'plan', problem: `is ${bytes} bytes as JSON, past the ${PLAN_LIMITS.bytes} a plan may be` })
  const types = Object.keys(plan.events)
  if (types.length > PLAN_LIMITS.eventTypes)
    problems.push({ field: 'events', problem: `lists ${types.length} event types, past the ${PLAN_LIMITS.eventTypes}` })
  let total = 0
  for (const type of types) {
    const at = `events.${type}`
    if (!EVENT_TYPE_ID.test(type))
      problems.push({
        field: at,
        problem: 'must be an event type id: 1 to 80 letters, digits or - _ . : starting with a letter or digit',
      })
    const event = plan.events[type]!
    for (const text of ['description', 'owner'] as const) tooLong(event[text], `${at}.${text}`, problems)
    if (event.value) {
      range(event.value.minimum, event.value.maximum, `${at}.value`, 'minimum', 'maximum', problems)
      tooLong(event.value.description, `${at}.value.description`, problems)
    }
    const names = Object.keys(event.properties ?? {})
    total += names.length
    if (names.length > PLAN_LIMITS.propertiesPerEvent)
      problems.push({
        field: `${at}.properties`,
        problem: `lists ${names.length} properties, past the ${PLAN_LIMITS.propertiesPerEvent} an event may have`,
      })
    let instructions = 0
    let enumValues = 0
    for (const name of names) {
      const place = `${at}.properties.${name}`
      if (name === FORBIDDEN_NAME || name.length === 0 || name.length > 255 || !name.isWellFormed()) {
        problems.push({
          field: place,
          problem: 'must be a property name of 1 to 255 characters, not __proto__',
        })
        continue
      }
      instructions += checkProperty(event.properties![name]!, place, problems)
      enumValues += event.properties![name]!.enum?.length ?? 0
    }
    if (enumValues > PLAN_LIMITS.enumValuesPerEvent)
      problems.push({
        field: `${at}.properties`,
        problem: `has enums of ${enumValues} values together, past the ${PLAN_LIMITS.enumValuesPerEvent} an event type's may have`,
      })
    if (instructions > PLAN_LIMITS.patternInstructionsPerEvent)
      problems.push({
        field: `${at}.properties`,
        problem: `has patterns of ${instructions} RE2 instructions together, past the ${PLAN_LIMITS.patternInstructionsPerEvent} an event type's may take`,
      })
  }
  if (total > PLAN_LIMITS.properties)
    problems.push({ field: 'events', problem: `lists ${total} properties in all, past the ${PLAN_LIMITS.properties}` })
  return problems
}

/** A property rule's problems; returns the instructions of its pattern (0 without one). */
function checkProperty(rule: PropertyRule, place: string, problems: FieldProblem[]): number {
  const types = typesOf(rule)
  range(rule.minimum, rule.maximum, place, 'minimum', 'maximum', problems)
  range(rule.minLength, rule.maxLength, place, 'minLength', 'maxLength', problems)
  tooLong(rule.description, `${place}.description`, problems)
  if (rule.enum) {
    if (rule.enum.length === 0 || rule.enum.length > PLAN_LIMITS.enumValues)
      problems.push({ field: `${place}.enum`, problem: `must list 1 to ${PLAN_LIMITS.enumValues} values` })
    const i = rule.enum.findIndex(
      (v) => typeof v === 'string' && (v.length > PLAN_LIMITS.enumValueChars || !v.isWellFormed()),
    )
    if (i >= 0)
      problems.push({
        field: `${place}.enum.${i}`,
        problem: `must be at most ${PLAN_LIMITS.enumValueChars} characters of well-formed text`,
      })
    if (types) {
      const j = rule.enum.findIndex((v) => !types.some((t) => ofType(v, t)))
      if (j >= 0)
        problems.push({ field: `${place}.enum.${j}`, problem: `is not of the property's type (${types.join(', ')})` })
    }
  }
  if (rule.pattern === undefined) return 0
  if (rule.pattern.length === 0 || rule.pattern.length > PLAN_LIMITS.patternChars) {
    problems.push({
      field: `${place}.pattern`,
      problem: `must be a regex (RE2 syntax) of 1 to ${PLAN_LIMITS.patternChars} characters`,
    })
    return 0
  }
  try {
    return instructionsOf(RE2JS.compile(rule.pattern))
  } catch (err) {
    problems.push({
      field: `${place}.pattern`,
      problem: `is not a regex RE2 accepts (no backreferences or lookaround): ${err instanceof Error ? err.message : String(err)}`,
    })
    return 0
  }
}

function tooLong(text: string | undefined, field: string, problems: FieldProblem[]): void {
  if (text !== undefined && (text.length > PLAN_LIMITS.textChars || !text.isWellFormed()))
    problems.push({ field, problem: `must be at most ${PLAN_LIMITS.textChars} characters of well-formed text` })
}

function range(
  low: number | undefined,
  high: number | undefined,
  at: string,
  a: string,
  b: string,
  problems: FieldProblem[],
) {
  if (low !== undefined && high !== undefined && low > high)
    problems.push({ field: `${at}.${a}`, problem: `must be at most ${b} (${high})` })
}

const typesOf = (rule: PropertyRule): readonly PlanPropertyType[] | undefined =>
  rule.type === undefined ? undefined : typeof rule.type === 'string' ? [rule.type] : rule.type

function ofType(v: unknown, t: PlanPropertyType): boolean {
  if (t === 'null') return v === null
  if (t === 'integer') return Number.isInteger(v)
  return typeof v === t
}

/** A plan version compiled: each event type's validation made on first use and kept. */
export interface CompiledPlan {
  readonly version: number
  readonly mode: PlanMode
  /** The plan's violations of one event (undefined: none). Never throws. */
  check(eventType: string, value: number | null, properties: Readonly<Record<string, unknown>>): Verdict | undefined
}

export function compilePlan(plan: TrackingPlan, version: number): CompiledPlan & { compile(eventType: string): void } {
  // One ajv per version: what it caches goes with the version.
  const caps = new Map<string, number>()
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    // A property may take any scalar: a format or a pattern without a type applies to its text only.
    strictTypes: false,
    ownProperties: true,
    code: { regExp: re2Engine(caps) },
  })
  addFormats.default(ajv, { mode: 'fast', formats: [...PLAN_FORMATS] })
  // null: the type would not compile (remembered, so that its events do not compile it again each).
  const compiled = new Map<string, ValidateFunction | null>()
  const validatorOf = (type: string): ValidateFunction | null | undefined => {
    if (compiled.has(type) || !Object.hasOwn(plan.events, type)) return compiled.get(type)
    compiled.set(type, null)
    const validate = ajv.compile(eventSchema(plan, plan.events[type]!, caps))
    compiled.set(type, validate)
    return validate
  }
  return {
    version,
    mode: plan.mode,
    /** Compiles an event type's validation now (throwing what ajv throws): a plan is compiled whole before saving. */
    compile(eventType) {
      compiled.delete(eventType)
      validatorOf(eventType)
    },
    check(eventType, value, properties) {
      let validate: ValidateFunction | null | undefined
      try {
        validate = validatorOf(eventType)
      } catch {
        validate = null
      }
      // Not for a plan that was saved (each was compiled whole first): an event type that would not compile is left
      // unchecked rather than stopping its environment's events.
      if (validate === null) return undefined
      if (!validate) {
        if (plan.unplannedEvents === 'allow') return undefined
        const message = `event type ${eventType} is not in the plan`
        return {
          violations: [{ rule: 'unplanned_event', field: '', message }],
          count: 1,
          rules: ['unplanned_event'],
          unplanned: [],
        }
      }
      const subject = value === null ? { properties } : { value, properties }
      if (validate(subject)) return undefined
      return verdictOf(validate.errors ?? [], properties, caps)
    },
  }
}

/** The JSON Schema of an event type's { value, properties }; `caps` gets the longest text each pattern is run on. */
function eventSchema(plan: TrackingPlan, event: EventPlan, caps: Map<string, number>): object {
  const rules = Object.entries(event.properties ?? {})
  let instructions = 0
  for (const [, rule] of rules)
    if (rule.pattern !== undefined) instructions += instructionsOf(RE2JS.compile(rule.pattern))
  const cap = Math.floor(PLAN_LIMITS.patternStepsPerEvent / Math.max(1, instructions))
  const properties: Record<string, object> = {}
  for (const [name, rule] of rules) {
    // What ajv checks of a value: the rule without what is the plan's (required is the object's; a description).
    const keywords: Record<string, unknown> = { ...rule }
    delete keywords['required']
    delete keywords['description']
    properties[name] = keywords
    if (rule.pattern !== undefined) caps.set(rule.pattern, Math.min(cap, caps.get(rule.pattern) ?? cap))
  }
  const value = event.value ?? {}
  return {
    type: 'object',
    properties: {
      value: {
        type: 'number',
        ...(value.minimum !== undefined && { minimum: value.minimum }),
        ...(value.maximum !== undefined && { maximum: value.maximum }),
      },
      properties: {
        type: 'object',
        properties,
        required: rules.filter(([, r]) => r.required === true).map(([n]) => n),
        additionalProperties: (event.unplannedProperties ?? plan.unplannedProperties) === 'allow',
      },
    },
    required: value.required === true ? ['value'] : [],
  }
}

/** ajv's regex engine: RE2, each pattern run on texts up to its cap (a longer one fails it). */
function re2Engine(caps: ReadonlyMap<string, number>) {
  const engine = (pattern: string) => {
    const regex = RE2JS.compile(pattern)
    const cap = caps.get(pattern) ?? 0
    // ajv keeps one regex per its toString: the pattern and its cap name it (each its own, never the first one's).
    return { test: (text: string) => text.length <= cap && regex.test(text), toString: () => `${cap}\u0000${pattern}` }
  }
  return Object.assign(engine, { code: 'sluice-re2' })
}

const RANGE_KEYWORDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength'])

function verdictOf(
  errors: readonly ErrorObject[],
  properties: Readonly<Record<string, unknown>>,
  caps: ReadonlyMap<string, number>,
): Verdict {
  const violations: Violation[] = []
  const unplanned: string[] = []
  const rules = new Set<ViolationRule>()
  for (const error of errors) {
    const v = violationOf(error, properties, caps)
    // The first MAX_DETAILS, and the first of every other rule (each rule's report has an example of it).
    if (violations.length < MAX_DETAILS || !rules.has(v.rule)) violations.push(v)
    rules.add(v.rule)
    if (v.rule === 'unplanned_property') unplanned.push(v.field.slice('properties.'.length))
  }
  return { violations, count: errors.length, rules: VIOLATION_RULES.filter((r) => rules.has(r)), unplanned }
}

function violationOf(
  error: ErrorObject,
  properties: Readonly<Record<string, unknown>>,
  caps: ReadonlyMap<string, number>,
): Violation {
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'required') {
    const field = error.instancePath === '' ? 'value' : `properties.${String(params['missingProperty'])}`
    return { rule: 'required', field, message: `${field} is required` }
  }
  if (error.keyword === 'additionalProperties') {
    const field = `properties.${String(params['additionalProperty'])}`
    return { rule: 'unplanned_property', field, message: `${field} is not in the plan` }
  }
  const [, top, name] = error.instancePath.split('/')
  const property = name?.replaceAll('~1', '/').replaceAll('~0', '~')
  const field = top === 'value' ? 'value' : `properties.${property ?? ''}`
  if (error.keyword === 'type')
    return { rule: 'wrong_type', field, message: `${field} must be ${String(params['type'])}` }
  if (error.keyword === 'enum')
    return { rule: 'not_in_enum', field, message: `${field} must be one of the plan's values` }
  if (RANGE_KEYWORDS.has(error.keyword))
    return { rule: 'out_of_range', field, message: `${field} ${error.message ?? 'is out of range'}` }
  if (error.keyword === 'format')
    return { rule: 'format', field, message: `${field} must be a ${String(params['format'])}` }
  if (error.keyword === 'pattern') {
    const text = property === undefined ? undefined : properties[property]
    const pattern = String(params['pattern'])
    const long = typeof text === 'string' && text.length > (caps.get(pattern) ?? 0)
    return {
      rule: 'pattern',
      field,
      message: `${field} must match ${pattern}${long ? ` (it is longer than the ${caps.get(pattern) ?? 0} characters the pattern is run on)` : ''}`,
    }
  }
  return { rule: 'wrong_type', field, message: `${field} ${error.message ?? 'is invalid'}` }
}

/** A tracking plan's report on an event that broke it, stored in event_violations beside the event (or its refusal). */
export interface ViolationRow extends RowOrigin {
  event_type: string
  key: string
  plan_version: number
  mode: PlanMode
  /** What became of the event: stored as sent, stored without its unplanned properties, refused. */
  outcome: 'stored' | 'stripped' | 'refused'
  /** The rules it broke, comma-separated (Verdict.rules). */
  rules: string
  /** How many violations it had. */
  violations: number
  /** JSON of the first MAX_DETAILS violations. */
  details: string
  /** The event as received, JSON cut to SAMPLE_CHARS characters. */
  sample: string
}

export const SAMPLE_CHARS = 2000

/** What the catalogue saw of an event type, as a proposal is made from it. */
export interface SeenEventType {
  readonly eventType: string
  /** The share of records with a value (null: none in the window). */
  readonly valueShare: number | null
  readonly properties: readonly {
    readonly name: string
    readonly types: Partial<Record<string, number>>
    readonly fillRate: number
  }[]
  /** Whether more property names were seen than listed (the type then allows unplanned properties). */
  readonly propertiesTruncated: boolean
  /** Records whose property names were read only in part (the type then allows unplanned properties too). */
  readonly cutRecords: number
}

/**
 * A plan that what was seen passes: each property with the types seen, required when every record of the sample had
 * it; the value required when every record had one. In `observe` mode, for a person to tighten and save.
 */
export function proposePlan(seen: readonly SeenEventType[]): TrackingPlan {
  const events: Record<string, EventPlan> = {}
  let total = 0
  for (const e of seen.slice(0, PLAN_LIMITS.eventTypes)) {
    const properties: Record<string, PropertyRule> = {}
    // Names the plan cannot list (past its limits, __proto__), or names not all read: the type allows what it omits.
    let partial = e.propertiesTruncated || e.cutRecords > 0
    for (const p of e.properties) {
      if (p.name === FORBIDDEN_NAME || Object.keys(properties).length === PLAN_LIMITS.propertiesPerEvent) {
        partial = true
        continue
      }
      if (total === PLAN_LIMITS.properties) {
        partial = true
        break
      }
      const types = PROPERTY_TYPES.filter((t) => t !== 'integer' && (p.types[t] ?? 0) > 0)
      properties[p.name] = {
        ...(types.length > 0 && { type: types.length === 1 ? types[0]! : types }),
        ...(p.fillRate >= 1 && { required: true }),
      }
      total++
    }
    events[e.eventType] = {
      ...(e.valueShare === 1 && { value: { required: true } }),
      properties,
      ...(partial && { unplannedProperties: 'allow' as const }),
    }
  }
  return { mode: 'observe', unplannedEvents: 'violation', unplannedProperties: 'violation', events }
}
