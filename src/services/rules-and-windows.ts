// An account's alert rules and maintenance windows as use cases: read and replace the rule set (checked,
// versioned, refused when another change came first), read an old version back, test what an alert or a
// payload would become, and create, change, delete and list windows with their calendar. The alerts
// consumer applies what is saved here (pipeline/alerts/rules-and-windows.ts) within SLUICE_INTEGRATION_REFRESH_MS.
import { randomBytes } from 'node:crypto'
import { toView } from '../pipeline/alerts/moustache.js'
import {
  applyRulesAndWindows,
  compileRulesAndWindows,
  DEFAULT_RULES_BUDGET_MS,
  rulesBudget,
  type RulesOutcome,
} from '../pipeline/alerts/rules-and-windows.js'
import type { NormalizedAlert } from '../pipeline/alerts/render.js'
import { ConditionChecks } from '../pipeline/alerts/conditions.js'
import { checkRules, type AlertRule } from '../pipeline/alerts/rules.js'
import {
  activeAt,
  checkWindow,
  occurrences,
  WINDOW_LIMITS,
  type MaintenanceWindow,
  type Occurrence,
} from '../pipeline/alerts/windows.js'
import { invalid, Refusal } from '../shared/errors.js'
import type { RulesAndWindowsStore, StoredRuleSet, StoredWindow } from '../state/redis/rules-and-windows.js'
import type { AlertStore, DroppedAlert } from '../state/redis/alerts.js'
import type { IntegrationStore } from '../state/redis/integrations.js'
import { renderTest } from './integrations.js'

/** The longest calendar asked for at once, and how far from now it may begin. */
export const MAX_CALENDAR_DAYS = 62
const CALENDAR_REACH_MS = 2 * 366 * 86_400_000

export interface RuleTestInput {
  /** An integration whose mapping renders `payload` (or its example when no payload is given). */
  readonly integrationId?: string
  readonly payload?: unknown
  /** A normalized alert, instead of a payload. */
  readonly alert?: Record<string, unknown>
  /** Rules not saved yet; the saved ones when absent. */
  readonly rules?: unknown
  /** When the alert is taken to arrive (ISO 8601); now when absent. */
  readonly at?: string
}

export interface RuleTestResult {
  readonly rulesVersion: number | null
  readonly at: string
  readonly alerts: {
    readonly before: NormalizedAlert
    readonly after: NormalizedAlert | null
    readonly dropped: boolean
    readonly droppedBy?: string
    readonly applied: readonly string[]
    readonly suppressedBy?: string
    readonly suppressedUntil?: string
    readonly overBudget?: string
  }[]
  readonly rejected: readonly { index: number; reason: string }[]
}

export interface CalendarEntry {
  readonly id: string
  readonly name: string
  readonly activeNow: boolean
  readonly occurrences: readonly { start: string; end: string }[]
}

const iso = (ms: number) => new Date(ms).toISOString()

export class RulesAndWindowsService {
  constructor(
    private readonly store: RulesAndWindowsStore,
    private readonly alerts: AlertStore,
    private readonly integrations: IntegrationStore,
    /** The account's notification destination ids (rules may notify only those). */
    private readonly destinationIds: (accountId: string) => Promise<ReadonlySet<string>> = async () => new Set(),
    /** The account's escalation policy ids (rules may escalate only by those). */
    private readonly policyIds: (accountId: string) => Promise<ReadonlySet<string>> = async () => new Set(),
    /** SLUICE_ALERT_RULES_BUDGET_MS: what a test may spend on the rules and windows, as the consumer would. */
    private readonly rulesBudgetMs = DEFAULT_RULES_BUDGET_MS,
  ) {}

  rules(accountId: string): Promise<StoredRuleSet> {
    return this.store.rules(accountId)
  }

  async rulesAt(accountId: string, version: number): Promise<StoredRuleSet> {
    const found = await this.store.rulesAt(accountId, version)
    if (!found) throw new Refusal('NOT_FOUND', `rule set version ${version} not found (the last 50 are kept)`)
    return found
  }

  /**
   * Replaces the rule set. With `version`, only if it is still the current one (409 otherwise: another change came
   * first). Every rule is checked; a problem is a 400 naming the rule and field.
   */
  async saveRules(
    accountId: string,
    input: { rules: unknown; version?: number },
    updatedBy: string,
  ): Promise<StoredRuleSet> {
    const checked = checkRules(input.rules, 0)
    if (!checked.ok) throw invalid(checked.problems, 'the rules were not saved')
    if (checked.ruleSet.rules.some((r) => r.rule.notify?.length)) {
      const known = await this.destinationIds(accountId)
      const problems = checked.ruleSet.rules.flatMap(({ rule }, i) =>
        (rule.notify ?? []).flatMap((id, j) =>
          known.has(id)
            ? []
            : [{ field: `rules.${i}.notify.${j}`, problem: `"${id}" is not a notification destination` }],
        ),
      )
      if (problems.length > 0) throw invalid(problems, 'the rules were not saved')
    }
    if (checked.ruleSet.rules.some((r) => r.rule.escalate !== undefined)) {
      const known = await this.policyIds(accountId)
      const problems = checked.ruleSet.rules.flatMap(({ rule }, i) =>
        rule.escalate === undefined || known.has(rule.escalate)
          ? []
          : [{ field: `rules.${i}.escalate`, problem: `"${rule.escalate}" is not an escalation policy` }],
      )
      if (problems.length > 0) throw invalid(problems, 'the rules were not saved')
    }
    const saved = await this.store.saveRules(
      accountId,
      checked.ruleSet.rules.map((r) => r.rule),
      input.version,
      updatedBy,
    )
    if (saved === 'conflict')
      throw new Refusal(
        'CONFLICT',
        `the rules changed since version ${input.version}: read them again and apply your change to the current version`,
      )
    return saved
  }

  /** What the rules (saved, or given) and the windows make of an alert, or of the alerts a payload renders to. */
  async test(accountId: string, input: RuleTestInput): Promise<RuleTestResult> {
    const atMs = input.at === undefined ? Date.now() : Date.parse(input.at)
    if (!Number.isFinite(atMs)) throw invalid([{ field: 'at', problem: 'must be an ISO 8601 time' }])
    if (Math.abs(atMs - Date.now()) > CALENDAR_REACH_MS)
      throw invalid([{ field: 'at', problem: 'must be within two years of now' }])
    const { rules: saved, windows } = await this.store.rulesAndWindows(accountId)
    let rules: { version: number; rules: readonly AlertRule[] } = saved
    if (input.rules !== undefined) {
      const checked = checkRules(input.rules, 0)
      if (!checked.ok) throw invalid(checked.problems, 'these rules would not be saved')
      rules = { version: 0, rules: checked.ruleSet.rules.map((r) => r.rule) }
    }
    const { compiled } = compileRulesAndWindows(rules, windows.windows)
    let alerts: NormalizedAlert[]
    let rejected: { index: number; reason: string }[] = []
    let payload: unknown = {}
    if (input.alert !== undefined) {
      if (input.integrationId !== undefined || input.payload !== undefined)
        throw invalid([{ field: 'alert', problem: 'give an alert, or an integrationId with a payload, not both' }])
      alerts = [testAlert(input.alert)]
    } else {
      if (input.integrationId === undefined)
        throw invalid([{ field: 'integrationId', problem: 'is required when no alert is given' }])
      const record = await this.integrations.get(accountId, input.integrationId)
      if (!record) throw new Refusal('NOT_FOUND', 'no such integration')
      const rendered = await renderTest(record, input.payload, 'test')
      ;({ alerts, rejected, payload } = rendered)
    }
    const view = toView(payload)
    const budget = rulesBudget(this.rulesBudgetMs)
    return {
      rulesVersion: input.rules === undefined ? saved.version : null,
      at: iso(atMs),
      alerts: alerts.map((before) => resultOf(before, applyRulesAndWindows(compiled, before, view, atMs, budget))),
      rejected,
    }
  }

  async dropped(accountId: string, limit: number): Promise<DroppedAlert[]> {
    return this.alerts.dropped(accountId, limit)
  }

  async windows(accountId: string): Promise<readonly StoredWindow[]> {
    return (await this.store.windows(accountId)).windows
  }

  async window(accountId: string, id: string): Promise<StoredWindow> {
    const found = (await this.windows(accountId)).find((w) => w.id === id)
    if (!found) throw new Refusal('NOT_FOUND', `maintenance window ${id} not found`)
    return found
  }

  async createWindow(accountId: string, input: unknown): Promise<StoredWindow> {
    const window = checked(input, `mw_${randomBytes(9).toString('base64url')}`)
    return this.store.changeWindows(accountId, (all) => {
      if (all.length >= WINDOW_LIMITS.maxWindows)
        throw new Refusal('CONFLICT', `an account has at most ${WINDOW_LIMITS.maxWindows} maintenance windows`)
      const now = Date.now()
      const stored: StoredWindow = { ...window, createdAt: now, updatedAt: now }
      return { windows: checkedList([...all, stored], stored.id), result: stored }
    })
  }

  /**
   * Replaces a window. Alerts it suppresses now stay so until the changed window's current occurrence ends, or are
   * released at once when it is no longer running.
   */
  async replaceWindow(accountId: string, id: string, input: unknown, maxLen: number): Promise<StoredWindow> {
    const window = checked(input, id)
    const stored = await this.store.changeWindows(accountId, (all) => {
      const old = all.find((w) => w.id === id)
      if (!old) throw new Refusal('NOT_FOUND', `maintenance window ${id} not found`)
      const next: StoredWindow = { ...window, createdAt: old.createdAt, updatedAt: Date.now() }
      return {
        windows: checkedList(
          all.map((w) => (w === old ? next : w)),
          id,
        ),
        result: next,
      }
    })
    const now = Date.now()
    await this.alerts.rescheduleSuppressed(accountId, id, activeAt(stored.schedule, now)?.end ?? now, maxLen)
    return stored
  }

  /** Deletes a window; the alerts it suppresses are released at once (a new triggered event each). */
  async deleteWindow(accountId: string, id: string, maxLen: number): Promise<void> {
    await this.store.changeWindows(accountId, (all) => {
      if (!all.some((w) => w.id === id)) throw new Refusal('NOT_FOUND', `maintenance window ${id} not found`)
      return { windows: all.filter((w) => w.id !== id), result: undefined }
    })
    await this.alerts.rescheduleSuppressed(accountId, id, Date.now(), maxLen)
  }

  /** Each window's occurrences between from and to, and whether it runs now. */
  async calendar(accountId: string, from: string | undefined, to: string | undefined): Promise<CalendarEntry[]> {
    const now = Date.now()
    const fromMs = from === undefined ? now : Date.parse(from)
    const toMs = to === undefined ? fromMs + 7 * 86_400_000 : Date.parse(to)
    const problems = []
    if (!Number.isFinite(fromMs)) problems.push({ field: 'from', problem: 'must be an ISO 8601 time' })
    // Each zone's offsets are read once per block of time and kept for every account: the times asked for are near.
    else if (Math.abs(fromMs - now) > CALENDAR_REACH_MS)
      problems.push({ field: 'from', problem: 'must be within two years of now' })
    if (!Number.isFinite(toMs)) problems.push({ field: 'to', problem: 'must be an ISO 8601 time' })
    else if (toMs <= fromMs) problems.push({ field: 'to', problem: 'must be after from' })
    else if (toMs - fromMs > MAX_CALENDAR_DAYS * 86_400_000)
      problems.push({ field: 'to', problem: `must be within ${MAX_CALENDAR_DAYS} days of from` })
    if (problems.length > 0) throw invalid(problems)
    return (await this.windows(accountId)).map((w) => ({
      id: w.id,
      name: w.name,
      activeNow: activeAt(w.schedule, now) !== undefined,
      occurrences: occurrences(w.schedule, fromMs, toMs).map((o: Occurrence) => ({
        start: iso(o.start),
        end: iso(o.end),
      })),
    }))
  }
}

/** A window as given, checked, with its id. */
function checked(input: unknown, id: string): MaintenanceWindow {
  if (typeof input === 'object' && input !== null && 'id' in input)
    throw invalid([
      { field: 'id', problem: 'is given by Sluice (it is in the path, or made when a window is created)' },
    ])
  const result = checkWindow(input, 'window')
  if (!result.ok) throw invalid(result.problems, 'the window was not saved')
  const { name, when, schedule } = result.window.window
  return when === undefined ? { id, name, schedule } : { id, name, when, schedule }
}

/**
 * An account's windows, if the one changed fits beside the others within what checking their conditions together may
 * cost (the alerts consumer compiles them together). A window stored before a check it no longer passes is not the
 * changed one's problem.
 */
function checkedList<T extends MaintenanceWindow>(windows: T[], changed: string): T[] {
  const checks = new ConditionChecks()
  for (const w of windows) {
    const one = checkWindow({ name: w.name, when: w.when, schedule: w.schedule }, 'window', checks)
    if (!one.ok && w.id === changed)
      throw invalid(one.problems, "the window was not saved: beside the account's other windows")
  }
  return windows
}

/** A normalized alert given to the test route: the fields a mapping would make, with defaults for the rest. */
function testAlert(raw: Record<string, unknown>): NormalizedAlert {
  const now = new Date().toISOString()
  const alert: NormalizedAlert = {
    severity: 'warning',
    description: '',
    source: '',
    dedupKey: 'test',
    status: 'firing',
    timestamp: now,
    receivedAt: now,
    integrationId: '',
    requestId: 'test',
    customFields: {},
  }
  return Object.assign(alert, raw)
}

function resultOf(before: NormalizedAlert, outcome: RulesOutcome): RuleTestResult['alerts'][number] {
  if (outcome.dropped) return { before, after: null, dropped: true, droppedBy: outcome.by, applied: outcome.applied }
  const { alert } = outcome
  return {
    before,
    after: alert,
    dropped: false,
    applied: outcome.applied,
    ...(alert.suppressedBy ? { suppressedBy: alert.suppressedBy, suppressedUntil: alert.suppressedUntil } : {}),
    ...(outcome.overBudget ? { overBudget: outcome.overBudget } : {}),
  }
}
