// An account's alert rules and maintenance windows applied to one alert: its rules (rules.ts), then, for a firing
// alert the rules kept, its maintenance windows (windows.ts) at the time the payload was received. The alerts
// consumer and the rules' test route both call this, so a test shows what the consumer will do.
// Both run within one budget per payload (rulesBudget): past it, an alert is kept as its mapping made it, and says
// why (overBudget).
import { isBudgetExceeded, WorkBudget } from '../../shared/budget.js'
import { ConditionChecks } from './conditions.js'
import type { IncidentGroup, InhibitPairs } from '../incidents/grouping.js'
import { applyRules, checkRules, type AlertRule, type CompiledRuleSet } from './rules.js'
import { checkWindow, suppressingWindow, type CompiledWindow, type MaintenanceWindow } from './windows.js'
import type { NormalizedAlert } from './render.js'

export interface CompiledRulesAndWindows {
  readonly rules: CompiledRuleSet
  readonly windows: readonly CompiledWindow[]
}

export const NO_RULES_OR_WINDOWS: CompiledRulesAndWindows = { rules: { version: 0, rules: [] }, windows: [] }

export type RulesOutcome =
  | { readonly dropped: true; readonly by: string; readonly applied: readonly string[] }
  | {
      readonly dropped: false
      readonly alert: NormalizedAlert
      readonly applied: readonly string[]
      /** The window the alert arrived in, and when its occurrence ends (ms). */
      readonly suppressed?: { readonly id: string; readonly until: number }
      /** Why the rules and windows were not applied: they went over the payload's budget (also on the alert). */
      readonly overBudget?: string
      /** The incident group a rule gave it (none: an incident of its own). */
      readonly group?: IncidentGroup
      /** What it inhibits, and what may inhibit it. */
      readonly inhibit?: InhibitPairs
    }

export const DEFAULT_RULES_BUDGET_MS = 100

/**
 * The budget of the rules and windows of one payload, all its alerts together (SLUICE_ALERT_RULES_BUDGET_MS; the
 * steps bound the work between the clock's readings).
 */
export const rulesBudget = (maxCpuMs = DEFAULT_RULES_BUDGET_MS) =>
  new WorkBudget({ maxSteps: 1_000_000, maxCpuMs }, "the account's alert rules and maintenance windows")

/**
 * Compiles stored rules and windows (checked when saved). A stored one that no longer passes the check (a later
 * release made a check stricter) is left out rather than stopping the account's alerts; `skipped` names it.
 */
export function compileRulesAndWindows(
  rules: { readonly version: number; readonly rules: readonly AlertRule[] },
  windows: readonly MaintenanceWindow[],
): { compiled: CompiledRulesAndWindows; skipped: string[] } {
  const skipped: string[] = []
  let ruleSet: CompiledRuleSet = { version: rules.version, rules: [] }
  // What was stored before the limit on regexes may pass it: stored rules and windows may compile to ten times what a
  // save may (seconds at worst, once per version), so that a set stored then loses no rule.
  const stored = () => new ConditionChecks(ConditionChecks.maxRegexInstructions * 10)
  const checked = checkRules(rules.rules, rules.version, stored())
  // Rule by rule, the cost of their conditions counted all together still.
  const checks = stored()
  if (checked.ok) ruleSet = checked.ruleSet
  else {
    const kept = rules.rules.flatMap((r) => {
      const one = checkRules([r], rules.version, checks)
      if (one.ok) return one.ruleSet.rules
      skipped.push(`rule ${r.id}`)
      return []
    })
    ruleSet = { version: rules.version, rules: kept, ...(kept.some((r) => r.inhibit) ? { inhibits: true } : {}) }
  }
  const windowSet: CompiledWindow[] = []
  const windowChecks = stored()
  for (const w of windows) {
    const one = checkWindow({ id: w.id, name: w.name, when: w.when, schedule: w.schedule }, 'window', windowChecks)
    if (one.ok) windowSet.push(one.window)
    else skipped.push(`window ${w.id}`)
  }
  return { compiled: { rules: ruleSet, windows: windowSet }, skipped }
}

/** The rules, then the windows, applied to one alert; `payload` is the payload's view (toView), `atMs` its receipt. */
export function applyRulesAndWindows(
  compiled: CompiledRulesAndWindows,
  alert: NormalizedAlert,
  payload: unknown,
  atMs: number,
  budget: WorkBudget,
): RulesOutcome {
  try {
    return shape(compiled, alert, payload, atMs, budget)
  } catch (err) {
    if (!isBudgetExceeded(err)) throw err
    // Object.assign rather than a spread: see applyRules.
    return {
      dropped: false,
      alert: Object.assign({}, alert, { overBudget: err.message }),
      applied: [],
      overBudget: err.message,
    }
  }
}

function shape(
  compiled: CompiledRulesAndWindows,
  alert: NormalizedAlert,
  payload: unknown,
  atMs: number,
  budget: WorkBudget,
): RulesOutcome {
  const ruled = compiled.rules.rules.length > 0 ? applyRules(compiled.rules, alert, payload, budget) : undefined
  if (ruled?.dropped) return ruled
  const shaped = ruled?.alert ?? alert
  const applied = ruled?.applied ?? []
  const kept: RulesOutcome = {
    dropped: false,
    alert: shaped,
    applied,
    ...(ruled?.group ? { group: ruled.group } : {}),
    ...(ruled?.inhibit ? { inhibit: ruled.inhibit } : {}),
  }
  // Resolves and acknowledgements are never suppressed.
  if (shaped.status !== 'firing' || compiled.windows.length === 0) return kept
  const window = suppressingWindow(
    compiled.windows,
    { alert: shaped as unknown as Record<string, unknown>, payload },
    atMs,
    budget,
  )
  if (!window) return kept
  return {
    ...kept,
    // Object.assign rather than a spread: see applyRules.
    alert: Object.assign({}, shaped, {
      suppressedBy: window.id,
      suppressedUntil: new Date(window.until).toISOString(),
    }),
    suppressed: window,
  }
}
