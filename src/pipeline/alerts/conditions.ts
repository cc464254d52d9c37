// The one condition language of alert rules and maintenance windows (and, later, notification
// routes): a JSON tree over the normalized alert and the raw payload. Pure functions: check a
// condition as it is saved (shape, known fields, bounded size, safe regexes, satisfiable), then match
// it against alerts.
//   {"field": "severity", "equals": "critical"}       {"field": "team", "in": ["db", "payments"]}
//   {"field": "payload.labels.env", "matches": "^prod"} {"field": "service", "exists": true}
//   {"all": [...]}  {"any": [...]}  {"not": {...}}
// Fields: severity, status, description, source, service, environment, team, correlationId,
// dedupKey, integrationId, tags (any of the alert's tags), customFields.<name>, payload.<dot path>.
// Regexes are RE2 (re2js, a port of RE2/J: linear time in the text, no backreferences or lookaround),
// so no pattern can backtrack catastrophically; their length is bounded too. Linear is not cheap: a run costs up to
// the text's length times the program's size (`\w{1000}\d` over 64 KiB: seconds), so every match runs within the
// item's budget (shared/budget.ts): a node is a step, and a regex runs only when its worst case fits what is left.
import { RE2JS } from 're2js'
import { isBudgetExceeded, WorkBudget } from '../../shared/budget.js'
import { instructionsOf, REGEX_NS_PER_STEP } from '../../shared/re2.js'
import { ALERT_STATUSES, SEVERITIES } from './render.js'

export type Condition =
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] }
  | { readonly not: Condition }
  | { readonly field: string; readonly equals: string }
  | { readonly field: string; readonly in: readonly string[] }
  | { readonly field: string; readonly matches: string }
  | { readonly field: string; readonly exists: boolean }

export const CONDITION_LIMITS = {
  /** Nesting of all/any/not. */
  maxDepth: 8,
  /** Nodes of one condition. */
  maxNodes: 200,
  /** Characters of a compared value, and of a field path. */
  maxValueChars: 1024,
  /** Values of one `in`. */
  maxIn: 500,
  /** Characters of a regex. */
  maxRegexChars: 1000,
  /** Characters of a field's text a regex or comparison reads (longer text is cut there). */
  maxSubjectChars: 64 * 1024,
} as const

/** Node visits the unsatisfiable check may spend on one condition; past it the condition is taken. */
const UNSATISFIABLE_CHECK_STEPS = 20_000

/**
 * What checking a set of conditions as it is saved or tested may cost (a rule set, a window list): regexes compile to
 * programs of at most `maxRegexInstructions` instructions all together (compiling costs 1 to 3 µs an instruction, and
 * every match runs them), and the unsatisfiable check's regex runs share `unsatisfiable` (past it, conditions are
 * taken unchecked).
 */
export class ConditionChecks {
  /** What a save or a test may compile. */
  static readonly maxRegexInstructions = 50_000
  regexInstructions = 0

  /** `maxRegexInstructions`: more for what was stored before the limit (compileRulesAndWindows). */
  constructor(readonly maxRegexInstructions = ConditionChecks.maxRegexInstructions) {}

  readonly unsatisfiable = new WorkBudget(
    { maxSteps: Number.MAX_SAFE_INTEGER, maxCpuMs: 100 },
    'checking whether the conditions can match',
  )
}

/** Fields of the normalized alert a condition can name directly. */
export const CONDITION_FIELDS = [
  'severity',
  'status',
  'description',
  'source',
  'service',
  'environment',
  'team',
  'correlationId',
  'dedupKey',
  'integrationId',
  'tags',
] as const
/** Fields every alert has: `exists: false` on them can never hold. */
const ALWAYS_PRESENT = new Set(['severity', 'status', 'description', 'source', 'dedupKey', 'integrationId'])
/** Fields with a closed set of values: a value outside it can never match. */
const ENUMERATED: Record<string, readonly string[]> = { severity: SEVERITIES, status: ALERT_STATUSES }
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor'])

/** What a condition is matched against: the alert (tags and custom fields included) and the payload it came from. */
export interface ConditionSubject {
  readonly alert: Readonly<Record<string, unknown>> & {
    readonly customFields?: Readonly<Record<string, string>>
    readonly tags?: readonly string[]
  }
  readonly payload?: unknown
}

export interface ConditionProblem {
  readonly field: string
  readonly problem: string
}

/** A checked condition, its regexes compiled once. */
export interface CompiledCondition {
  readonly source: Condition
  /** Throws BUDGET_EXCEEDED when its work would pass the budget. */
  matches(subject: ConditionSubject, budget: WorkBudget): boolean
}

type Node =
  | { kind: 'all'; children: Node[] }
  | { kind: 'any'; children: Node[] }
  | { kind: 'not'; child: Node }
  | { kind: 'equals'; field: string; read: Reader; value: string }
  | { kind: 'in'; field: string; read: Reader; values: Set<string> }
  | {
      kind: 'matches'
      field: string
      read: Reader
      regex: RE2JS
      pattern: string
      seen: Map<string, boolean>
      /** Worst milliseconds of a run per character of text. */
      msPerChar: number
    }
  | { kind: 'exists'; field: string; read: Reader; value: boolean }

/**
 * A field's text value in a subject (its path split once, when the condition is checked): undefined when absent, a
 * list for tags. One text rather than a list of one: reading a field is most of what 50 rules cost.
 */
type Reader = (s: ConditionSubject) => string | readonly string[] | undefined

/**
 * Regex answers remembered per condition, for texts up to this long (alerts repeat: the same description is matched
 * again and again), at most this many per condition.
 */
const REMEMBERED_TEXT_CHARS = 512
const REMEMBERED_TEXTS = 64

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Checks a condition as it is saved; `at` names where it is in the request (e.g. rules.0.when). Refuses an unknown
 * field, an unsafe or unparsable regex, anything over the limits, and a condition no alert can satisfy.
 */
export function checkCondition(
  input: unknown,
  at: string,
  checks = new ConditionChecks(),
): { ok: true; condition: CompiledCondition } | { ok: false; problems: ConditionProblem[] } {
  const problems: ConditionProblem[] = []
  let nodes = 0
  const build = (raw: unknown, path: string, depth: number): Node | undefined => {
    if (++nodes > CONDITION_LIMITS.maxNodes) {
      if (nodes === CONDITION_LIMITS.maxNodes + 1)
        problems.push({ field: at, problem: `has more than ${CONDITION_LIMITS.maxNodes} conditions` })
      return undefined
    }
    if (!isObject(raw)) {
      problems.push({ field: path, problem: 'must be a condition object' })
      return undefined
    }
    const keys = Object.keys(raw)
    if (keys.length === 1 && (keys[0] === 'all' || keys[0] === 'any')) {
      const list = raw[keys[0]]
      if (!Array.isArray(list) || list.length === 0) {
        problems.push({ field: `${path}.${keys[0]}`, problem: 'must be a non-empty list of conditions' })
        return undefined
      }
      if (depth >= CONDITION_LIMITS.maxDepth) {
        problems.push({ field: path, problem: `nests deeper than ${CONDITION_LIMITS.maxDepth} levels` })
        return undefined
      }
      const children = list.map((c, i) => build(c, `${path}.${keys[0]}.${i}`, depth + 1))
      if (!children.every((c) => c)) return undefined
      return keys[0] === 'all'
        ? { kind: 'all', children: children as Node[] }
        : { kind: 'any', children: children as Node[] }
    }
    if (keys.length === 1 && keys[0] === 'not') {
      if (depth >= CONDITION_LIMITS.maxDepth) {
        problems.push({ field: path, problem: `nests deeper than ${CONDITION_LIMITS.maxDepth} levels` })
        return undefined
      }
      const child = build(raw['not'], `${path}.not`, depth + 1)
      return child && { kind: 'not', child }
    }
    const op = keys.find((k) => k !== 'field')
    if (keys.length !== 2 || !keys.includes('field') || !op || !['equals', 'in', 'matches', 'exists'].includes(op)) {
      problems.push({
        field: path,
        problem:
          'must be {"all": [...]}, {"any": [...]}, {"not": {...}}, or a field with one of equals, in, matches, exists',
      })
      return undefined
    }
    const field = raw['field']
    const fieldProblem = checkField(field)
    if (fieldProblem) {
      problems.push({ field: `${path}.field`, problem: fieldProblem })
      return undefined
    }
    const f = field as string
    const read = readerOf(f)
    const value = raw[op]
    const text = (v: unknown) => typeof v === 'string' && v.length <= CONDITION_LIMITS.maxValueChars
    switch (op) {
      case 'equals':
        if (!text(value)) break
        return { kind: 'equals', field: f, read, value: value as string }
      case 'in':
        if (!Array.isArray(value) || value.length === 0 || value.length > CONDITION_LIMITS.maxIn || !value.every(text))
          break
        return { kind: 'in', field: f, read, values: new Set(value as string[]) }
      case 'exists':
        if (typeof value !== 'boolean') break
        return { kind: 'exists', field: f, read, value }
      case 'matches': {
        if (typeof value !== 'string' || value.length === 0 || value.length > CONDITION_LIMITS.maxRegexChars) {
          problems.push({
            field: `${path}.matches`,
            problem: `must be a regex (RE2 syntax) of 1 to ${CONDITION_LIMITS.maxRegexChars} characters`,
          })
          return undefined
        }
        if (checks.regexInstructions > checks.maxRegexInstructions) {
          problems.push({
            field: `${path}.matches`,
            problem: `is one regex too many: the regexes compile to more than ${checks.maxRegexInstructions} instructions in all`,
          })
          return undefined
        }
        try {
          const regex = RE2JS.compile(value)
          const size = instructionsOf(regex)
          checks.regexInstructions += size
          if (checks.regexInstructions > checks.maxRegexInstructions) {
            problems.push({
              field: `${path}.matches`,
              problem: `compiles to ${size} instructions, past the ${checks.maxRegexInstructions} all the regexes together may take (a repeat such as \\w{1000} is a thousand)`,
            })
            return undefined
          }
          return {
            kind: 'matches',
            field: f,
            read,
            regex,
            pattern: value,
            seen: new Map(),
            msPerChar: msPerInstruction(size),
          }
        } catch (err) {
          problems.push({
            field: `${path}.matches`,
            problem:
              `is not a regex RE2 takes (no backreferences or lookaround): ${err instanceof Error ? err.message : String(err)}`.slice(
                0,
                300,
              ),
          })
          return undefined
        }
      }
    }
    const shape = {
      equals: `a string of at most ${CONDITION_LIMITS.maxValueChars} characters`,
      in: `a list of 1 to ${CONDITION_LIMITS.maxIn} strings of at most ${CONDITION_LIMITS.maxValueChars} characters`,
      exists: 'true or false',
    }[op as 'equals' | 'in' | 'exists']
    problems.push({ field: `${path}.${op}`, problem: `must be ${shape}` })
    return undefined
  }
  const root = build(input, at, 0)
  if (!root || problems.length > 0) return { ok: false, problems }
  const never = neverMatches(root, nodes, checks.unsatisfiable)
  if (never) return { ok: false, problems: [{ field: at, problem: `can never match: ${never}` }] }
  return { ok: true, condition: { source: input as Condition, matches: (s, budget) => evaluate(root, s, budget) } }
}

function checkField(field: unknown): string | undefined {
  if (typeof field !== 'string' || field.length === 0 || field.length > CONDITION_LIMITS.maxValueChars)
    return 'must be a field name'
  const segments = field.split('.')
  if (segments.some((s) => FORBIDDEN_SEGMENTS.has(s) || s === ''))
    return `"${field.slice(0, 64)}" is not allowed (empty segments and ${[...FORBIDDEN_SEGMENTS].join(', ')} are reserved)`
  if ((CONDITION_FIELDS as readonly string[]).includes(field)) return undefined
  if ((segments[0] === 'customFields' && segments.length === 2) || (segments[0] === 'payload' && segments.length >= 2))
    return undefined
  return `unknown field "${field.slice(0, 64)}": one of ${CONDITION_FIELDS.join(', ')}, customFields.<name>, payload.<path>`
}

/** How a field's text values are read from a subject: none when absent; a tag list gives each tag. */
function readerOf(field: string): Reader {
  if (field === 'tags')
    return (s) => (Array.isArray(s.alert.tags) ? s.alert.tags.filter((t) => typeof t === 'string') : [])
  if (field.startsWith('customFields.')) {
    const name = field.slice(13)
    return (s) => {
      const fields = s.alert.customFields
      return textOf(fields && Object.hasOwn(fields, name) ? fields[name] : undefined)
    }
  }
  if (field.startsWith('payload.')) {
    const segments = field.slice(8).split('.')
    return (s) => {
      let v = s.payload
      for (const segment of segments) {
        if (v === null || typeof v !== 'object') return undefined
        v = Object.hasOwn(v, segment) ? (v as Record<string, unknown>)[segment] : undefined
      }
      return textOf(v)
    }
  }
  return (s) => textOf(Object.hasOwn(s.alert, field) ? s.alert[field] : undefined)
}

/**
 * The JSON of objects and arrays of a payload's view, made once per object: a rule set naming one object in many
 * conditions would otherwise serialize it again at each (views are per message, so this lives as long as one).
 */
const jsonOf = new WeakMap<object, string>()

function textOf(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined
  let text: string
  if (typeof v === 'string') text = v
  else if (typeof v === 'object') {
    let json = jsonOf.get(v)
    if (json === undefined) jsonOf.set(v, (json = JSON.stringify(v)))
    text = json
  } else text = `${v as number | boolean}`
  return text.length > CONDITION_LIMITS.maxSubjectChars ? text.slice(0, CONDITION_LIMITS.maxSubjectChars) : text
}

/** Whether a field's value (or any of its list) passes a test. */
function some(v: string | readonly string[] | undefined, test: (text: string) => boolean): boolean {
  if (v === undefined) return false
  return typeof v === 'string' ? test(v) : v.some(test)
}

/** Worst milliseconds per character of text of a program's runs. */
const msPerInstruction = (instructions: number) => (instructions * REGEX_NS_PER_STEP) / 1e6

/** A regex run on a text, refused before it starts when its worst time does not fit the budget left. */
function run(node: Extract<Node, { kind: 'matches' }>, text: string, budget: WorkBudget): boolean {
  budget.afford(text.length * node.msPerChar, `the regex of ${node.field} over ${text.length} characters`)
  return node.regex.matcher(text).find()
}

function regexMatches(node: Extract<Node, { kind: 'matches' }>, text: string, budget: WorkBudget): boolean {
  if (text.length > REMEMBERED_TEXT_CHARS) return run(node, text, budget)
  let found = node.seen.get(text)
  if (found === undefined) {
    found = run(node, text, budget)
    if (node.seen.size >= REMEMBERED_TEXTS) node.seen.delete(node.seen.keys().next().value as string)
    node.seen.set(text, found)
  }
  return found
}

function evaluate(node: Node, s: ConditionSubject, budget: WorkBudget): boolean {
  budget.step(1)
  switch (node.kind) {
    case 'all':
      return node.children.every((c) => evaluate(c, s, budget))
    case 'any':
      return node.children.some((c) => evaluate(c, s, budget))
    case 'not':
      return !evaluate(node.child, s, budget)
    case 'exists': {
      const v = node.read(s)
      return (v !== undefined && (typeof v === 'string' || v.length > 0)) === node.value
    }
    case 'equals': {
      const v = node.read(s)
      return typeof v === 'string' ? v === node.value : some(v, (t) => t === node.value)
    }
    case 'in':
      return some(node.read(s), (t) => node.values.has(t))
    case 'matches':
      return some(node.read(s), (t) => regexMatches(node, t, budget))
  }
}

/**
 * Why no alert can satisfy the condition, or undefined when some may. Three-valued: every field the condition names
 * takes each of the values it is compared with, one value equal to none of them, and (for fields an alert may lack)
 * absence; a regex is decided on the named values and unknown elsewhere. Refused only when every assignment gives a
 * definite false (the assignments are bounded; past the bound, the condition is taken).
 */
function neverMatches(root: Node, nodes: number, budget: WorkBudget): string | undefined {
  const candidates = new Map<string, Set<string>>()
  const collect = (n: Node) => {
    if (n.kind === 'all' || n.kind === 'any') n.children.forEach(collect)
    else if (n.kind === 'not') collect(n.child)
    else {
      const set = candidates.get(n.field) ?? new Set<string>()
      if (n.kind === 'equals') set.add(n.value)
      if (n.kind === 'in') n.values.forEach((v) => set.add(v))
      candidates.set(n.field, set)
    }
  }
  collect(root)
  const OTHER = Symbol('another value')
  const ABSENT = Symbol('absent')
  type Value = string | typeof OTHER | typeof ABSENT
  // Tags are a set (an alert may have several of the named ones): only their presence is enumerated.
  const domains: [string, Value[]][] = [...candidates].map(([field, named]) => {
    const closed = ENUMERATED[field]
    const values: Value[] = field === 'tags' ? [OTHER] : closed ? [...closed] : [...named, OTHER]
    if (!ALWAYS_PRESENT.has(field)) values.push(ABSENT)
    return [field, values]
  })
  // Each assignment evaluates the tree once: at most UNSATISFIABLE_CHECK_STEPS node visits a condition (500 rules
  // checked on a save or a test cost a fraction of a second at worst).
  let combinations = 1
  for (const [, values] of domains) {
    combinations *= values.length
    if (combinations * nodes > UNSATISFIABLE_CHECK_STEPS) return undefined
  }
  // true, false, or undefined for unknown
  const evalAt = (n: Node, at: Map<string, Value>): boolean | undefined => {
    switch (n.kind) {
      case 'all': {
        let unknown = false
        for (const c of n.children) {
          const r = evalAt(c, at)
          if (r === false) return false
          if (r === undefined) unknown = true
        }
        return unknown ? undefined : true
      }
      case 'any': {
        let unknown = false
        for (const c of n.children) {
          const r = evalAt(c, at)
          if (r === true) return true
          if (r === undefined) unknown = true
        }
        return unknown ? undefined : false
      }
      case 'not': {
        const r = evalAt(n.child, at)
        return r === undefined ? undefined : !r
      }
      default: {
        const v = at.get(n.field)!
        if (v === ABSENT) return n.kind === 'exists' ? !n.value : false
        if (n.kind === 'exists') return n.value
        if (n.field === 'tags') return undefined
        if (v === OTHER) return n.kind === 'matches' ? undefined : false
        if (n.kind === 'equals') return v === n.value
        if (n.kind === 'in') return n.values.has(v)
        return run(n, v, budget)
      }
    }
  }
  const at = new Map<string, Value>()
  const search = (i: number): boolean => {
    if (i === domains.length) return evalAt(root, at) !== false
    const [field, values] = domains[i]!
    for (const v of values) {
      at.set(field, v)
      if (search(i + 1)) return true
    }
    return false
  }
  try {
    if (search(0)) return undefined
  } catch (err) {
    // Its regexes cost too much to decide: the condition is taken (it is matched within each alert's budget).
    if (isBudgetExceeded(err)) return undefined
    throw err
  }
  const closedNamed = [...candidates].flatMap(([field, named]) =>
    ENUMERATED[field]
      ? [...named]
          .filter((v) => !ENUMERATED[field]!.includes(v))
          .map((v) => `${field} is never "${v}" (one of ${ENUMERATED[field]!.join(', ')})`)
      : [],
  )
  return closedNamed[0] ?? 'its parts contradict each other for every alert'
}
