// Moustache templates of alert mappings, rendered within a budget. mustache.js parses them; a
// template with sections renders through its writer (BudgetWriter: the budget at every token, no
// partials, objects as JSON); a template of text and placeholders only, as in every built-in
// mapping, renders from its tokens compiled once, with mustache.js's own lookup rules. The view is a
// copy of the payload without prototypes (toView), so no built-in method can be reached.
import Mustache from 'mustache'
import { isBudgetExceeded, WorkBudget } from '../../shared/budget.js'
import { AppError } from '../../shared/errors.js'

/** What one template may render: each nested section multiplies the work, so depth is bounded too. */
export const RENDER_LIMITS = {
  /** Sections ({{#x}} or {{^x}}) nested in one another, at save time and when rendering. */
  maxSectionDepth: 3,
  /** Characters one template may render to (every alert field's own limit is lower). */
  maxOutputChars: 64 * 1024,
} as const

// mustache.js caches every template it parses, without bound: a bounded cache instead (for the
// default writer, which checks mappings, and for the writer that renders them).
const TEMPLATE_CACHE_SIZE = 2000
const templateCache = new Map<string, string>()
const boundedTemplateCache = {
  get: (key: string) => templateCache.get(key),
  set: (key: string, value: string) => {
    if (templateCache.size >= TEMPLATE_CACHE_SIZE) templateCache.delete(templateCache.keys().next().value as string)
    templateCache.set(key, value)
  },
  clear: () => templateCache.clear(),
}
Mustache.templateCache = boundedTemplateCache
const RAW = { escape: (value: unknown) => toText(value) }

// A section over an array pushes each item as a context, and mustache.js reads `view[name]` of every context up the
// chain: an item that is null (a payload's `[null]`) made any name inside the section throw a TypeError. Such an item
// is pushed as an empty view instead, its `{{.}}` still null (it renders nothing), its names looked up in the
// contexts around it, as for any name an item does not have.
const NOTHING: object = Object.freeze(Object.create(null) as object)
Mustache.Context.prototype.push = function push(this: Mustache.Context, view: unknown): Mustache.Context {
  if (view !== null && view !== undefined) return new Mustache.Context(view, this)
  const context = new Mustache.Context(NOTHING, this)
  ;(context as unknown as { cache: Record<string, unknown> }).cache['.'] = view
  return context
}

const budgetError = (message: string) => new AppError('RENDER_LIMIT_EXCEEDED', message, false)

/** How a placeholder's value becomes text: scalars as text, objects and arrays as their JSON. */
function toText(value: unknown): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)
}

export type MustacheToken = [string, string, number, number, MustacheToken[]?, ...unknown[]]

/**
 * mustache.js's writer with the budget applied at every token: output is checked as it grows (a
 * section over a long array of large values cannot build a huge string first), section depth is
 * checked again (for mappings saved before the limit existed), partials are never rendered, and
 * every value goes through toText (an object never reaches String()).
 */
class BudgetWriter extends Mustache.Writer {
  budget = new WorkBudget()
  private depth = 0

  constructor() {
    super()
    ;(this as unknown as { templateCache: typeof boundedTemplateCache }).templateCache = boundedTemplateCache
  }

  override renderTokens(
    tokens: string[][],
    context: Mustache.Context,
    partials?: Mustache.PartialsOrLookupFn,
    originalTemplate?: string,
    config?: Mustache.RenderOptions,
  ): string {
    this.budget.step(tokens.length)
    let buffer = ''
    for (const token of tokens as unknown as MustacheToken[]) {
      let value: string | undefined
      switch (token[0]) {
        case '#':
        case '^':
          if (++this.depth > RENDER_LIMITS.maxSectionDepth) {
            this.depth = 0
            throw budgetError(`sections nest deeper than ${RENDER_LIMITS.maxSectionDepth} levels`)
          }
          try {
            value =
              token[0] === '#'
                ? this.renderSection(token as never, context, partials, originalTemplate, config)
                : this.renderInverted(token as never, context, partials, originalTemplate, config)
          } finally {
            this.depth = Math.max(0, this.depth - 1)
          }
          break
        case '&':
        case 'name': {
          const v: unknown = context.lookup(token[1])
          value = v === undefined || v === null ? undefined : toText(v)
          break
        }
        case 'text':
          value = token[1]
          break
      }
      if (value !== undefined) {
        buffer += value
        if (buffer.length > RENDER_LIMITS.maxOutputChars)
          throw budgetError(`a template renders more than ${RENDER_LIMITS.maxOutputChars} characters`)
      }
    }
    return buffer
  }
}

const writer = new BudgetWriter()

/** A template without sections: its tokens, each placeholder's name split at its dots once. */
interface FlatTemplate {
  readonly tokens: number
  readonly parts: readonly (string | { readonly name: string; readonly path: readonly string[] | undefined })[]
}
/** By template (bounded like the template cache); null for a template with sections. */
const flatTemplates = new Map<string, FlatTemplate | null>()

function flatTemplate(template: string): FlatTemplate | null {
  let flat = flatTemplates.get(template)
  if (flat === undefined) {
    const tokens = writer.parse(template) as MustacheToken[]
    flat = tokens.some(([type]) => type === '#' || type === '^')
      ? null
      : {
          tokens: tokens.length,
          parts: tokens.flatMap(([type, value]): FlatTemplate['parts'][number][] =>
            type === 'text'
              ? [value]
              : type === 'name' || type === '&'
                ? [{ name: value, path: value.indexOf('.') > 0 ? value.split('.') : undefined }]
                : [],
          ),
        }
    if (flatTemplates.size >= TEMPLATE_CACHE_SIZE) flatTemplates.delete(flatTemplates.keys().next().value as string)
    flatTemplates.set(template, flat)
  }
  return flat
}

/**
 * A template without sections (most mappings: text and placeholders) rendered the way BudgetWriter
 * renders it, with mustache's own lookup rules, but without its context objects and lookup caches,
 * which were most of the rendering work.
 */
function renderFlat(flat: FlatTemplate, view: object, budget: WorkBudget): string {
  budget.step(flat.tokens)
  let buffer = ''
  for (const part of flat.parts) {
    if (typeof part === 'string') buffer += part
    else {
      const value = lookupAtRoot(view, part.name, part.path)
      if (value === undefined || value === null) continue
      buffer += toText(value)
    }
    if (buffer.length > RENDER_LIMITS.maxOutputChars)
      throw budgetError(`a template renders more than ${RENDER_LIMITS.maxOutputChars} characters`)
  }
  return buffer
}

/** mustache.js's Context.lookup for a context without parents (outside every section). */
function lookupAtRoot(view: object, name: string, path: readonly string[] | undefined): unknown {
  let value: unknown
  if (name === '.') value = view
  else if (path) {
    let current: unknown = view
    let hit = false
    for (let i = 0; current !== null && current !== undefined && i < path.length; i++) {
      if (i === path.length - 1) hit = hasProperty(current, path[i]!) || primitiveHasOwnProperty(current, path[i]!)
      current = (current as Record<string, unknown>)[path[i]!]
    }
    if (hit) value = current
  } else if (hasProperty(view, name)) value = (view as Record<string, unknown>)[name]
  return typeof value === 'function' ? (value as () => unknown).call(view) : value
}

const hasProperty = (value: unknown, name: string) => value !== null && typeof value === 'object' && name in value
const primitiveHasOwnProperty = (value: unknown, name: string) =>
  value !== null &&
  value !== undefined &&
  typeof value !== 'object' &&
  Object.prototype.hasOwnProperty.call(value, name)

/** Whether an error is a template's own limit (output, section depth) or its item's budget run out. */
export const isRenderLimit = (err: unknown): err is AppError =>
  isBudgetExceeded(err) || (err instanceof AppError && err.code === 'RENDER_LIMIT_EXCEEDED')

/** One template against a view (toView's copy of the payload under its roots), within the budget. */
export function renderTemplate(template: string, view: object, budget = new WorkBudget()): string {
  const flat = flatTemplate(template)
  return flat ? renderFlat(flat, view, budget) : renderWithWriter(template, view, budget)
}

/** Any template, through BudgetWriter (sections need it; exported to check the flat path against it). */
export function renderWithWriter(template: string, view: object, budget = new WorkBudget()): string {
  writer.budget = budget
  return writer.render(template, view, {}, RAW)
}

/**
 * A deep copy of parsed JSON without prototypes: objects are null-prototype, arrays stay arrays
 * (Array.isArray, length) but lose Array.prototype, so templates see only the payload's own data.
 * Recursive: callers check the depth first.
 */
export function toView(value: unknown): unknown {
  if (Array.isArray(value)) return Object.setPrototypeOf(value.map(toView), null) as unknown[]
  if (value !== null && typeof value === 'object') {
    const out = Object.create(null) as Record<string, unknown>
    for (const [k, v] of Object.entries(value)) out[k] = toView(v)
    return out
  }
  return value
}

export function rootView(fields: Record<string, unknown>): object {
  return Object.assign(Object.create(null) as object, fields)
}
