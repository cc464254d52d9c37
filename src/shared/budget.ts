// The work one item may cost where Sluice runs logic a tenant wrote: an integration's mapping templates, alert rules'
// conditions and regexes, maintenance windows, notification templates. One budget per item (a payload, a message, a
// test request), counted by the mechanism that runs the logic, never by each feature: steps of work, and the CPU time
// spent between the item's yields to the event loop. An indivisible piece of work whose cost can be told before it
// runs (a regex over a text) is refused before it starts when it could pass what is left. Past the budget the
// mechanism throws BUDGET_EXCEEDED, and its caller has one answer: the item is stored as it was before that logic, and
// the overrun is counted and explained.
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { AppError } from './errors.js'

export interface WorkLimits {
  /** Steps (template tokens, condition nodes) one item may take. */
  readonly maxSteps: number
  /** CPU time one item may take, summed over the slices between its yields. */
  readonly maxCpuMs: number
}

/** A payload's mapping: what one webhook payload's rendering may cost, over all its alerts and fields. */
export const MAPPING_LIMITS: WorkLimits = { maxSteps: 500_000, maxCpuMs: 1000 }

/**
 * One indivisible piece of work may start while the budget is not spent, if its worst case is at most this many times
 * the whole budget: worst cases are far from typical (a regex of 40 names over a 16 KiB stack trace: 129 ms at worst, 6
 * ms in fact), so an item costs at most (1 + RUN_WORST_SHARE) × its budget.
 */
export const RUN_WORST_SHARE = 2.5

/** Work yields to the event loop after this much CPU time (where the work can wait: rendering a payload's alerts). */
export const SLICE_MS = 10

export class WorkBudget {
  private steps = 0
  private cpuMs = 0
  private sliceStart = performance.now()

  /** `work` names the work in what an overrun says (e.g. "rendering this payload"). */
  constructor(
    readonly limits: WorkLimits = MAPPING_LIMITS,
    private readonly work = 'rendering this payload',
  ) {}

  /** Takes n steps; throws BUDGET_EXCEEDED past the steps or the time (the clock is read once every 256 steps). */
  step(n: number): void {
    const before = this.steps
    this.steps += n
    if (this.steps > this.limits.maxSteps) throw this.exceeded(`takes more than ${this.limits.maxSteps} steps`)
    if (before >>> 8 !== this.steps >>> 8 && this.spentMs > this.limits.maxCpuMs)
      throw this.exceeded(`takes more than ${this.limits.maxCpuMs} ms`)
  }

  /**
   * Before a piece of work that may take up to `ms`: throws BUDGET_EXCEEDED when the budget is spent, or when that
   * worst case is past RUN_WORST_SHARE × the budget.
   */
  afford(ms: number, what: string): void {
    if (this.spentMs > this.limits.maxCpuMs) throw this.exceeded(`takes more than ${this.limits.maxCpuMs} ms`)
    if (ms > this.limits.maxCpuMs * RUN_WORST_SHARE)
      throw this.exceeded(`would pass ${this.limits.maxCpuMs} ms: ${what} could take ${Math.round(ms)} ms`)
  }

  /** CPU time spent so far. */
  get spentMs(): number {
    return this.cpuMs + performance.now() - this.sliceStart
  }

  sliceSpent(): boolean {
    return performance.now() - this.sliceStart > SLICE_MS
  }

  async yield(): Promise<void> {
    this.cpuMs += performance.now() - this.sliceStart
    await yieldToLoop()
    this.sliceStart = performance.now()
  }

  /** The error of this budget run out, saying of what work and which limit. */
  private exceeded(why: string): AppError {
    return new AppError('BUDGET_EXCEEDED', `${this.work} ${why}`, false)
  }
}

export const isBudgetExceeded = (err: unknown): err is AppError =>
  err instanceof AppError && err.code === 'BUDGET_EXCEEDED'
