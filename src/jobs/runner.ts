// The one home of background work: a job is a name, an interval and a tick; the runner starts it, ticks it (one tick
// at a time), holds its lease when it is exclusive (one process of the role runs it: the lease is renewed before each
// tick, and a process killed holding it lets it lapse, so another takes the job within one lease), and stops it: stop()
// waits for the tick running, releases the lease, and nothing runs from a timer after it. A tick's error is logged and
// left to the next tick; it never throws past the runner.
import type { Logger } from '../shared/logger.js'
import type { JobLeases } from '../state/redis/escalations.js'

export interface Job {
  readonly name: string
  /** Every how many ms it ticks. */
  readonly everyMs: number
  /** Run by one process at a time (a lease), or by every process (each of its calls atomic). */
  readonly exclusive: boolean
  /** Ticks once when the runner starts too (else first after `everyMs`). */
  readonly atStart?: boolean
  /** Does what is due at `now`; `stopping()` turns true when the runner stops (a long tick returns early). */
  tick(now: number, stopping: () => boolean): Promise<void>
}

export interface JobRunnerOptions {
  /** Who holds a lease: this process. */
  readonly owner: string
  /** How long an exclusive job's lease lasts unless renewed (a killed holder's job resumes within it). */
  readonly leaseMs: number
  readonly log: Logger
}

export class JobRunner {
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private readonly running = new Map<string, Promise<void>>()
  private readonly held = new Set<string>()
  private stopped = false

  constructor(
    private readonly leases: JobLeases,
    private readonly jobs: readonly Job[],
    private readonly options: JobRunnerOptions,
  ) {}

  start(): void {
    for (const job of this.jobs) {
      if (this.timers.has(job.name)) continue
      this.timers.set(job.name, setInterval(() => void this.join(job), job.everyMs).unref())
      if (job.atStart) this.join(job)
    }
  }

  /**
   * Ticks a job at `now` once the tick running (if any) is over: the tests' fake clock and the bench's way to drive it.
   */
  async tick(name: string, now = Date.now()): Promise<void> {
    const job = this.jobs.find((j) => j.name === name)
    if (!job) return
    for (let running = this.running.get(name); running; running = this.running.get(name)) await running
    if (this.stopped) return
    const run = this.run(job, now).finally(() => this.running.delete(name))
    this.running.set(name, run)
    await run
  }

  /** The timer's tick: joins the one running rather than queueing behind it. */
  private join(job: Job): void {
    if (this.stopped || this.running.has(job.name)) return
    const run = this.run(job, Date.now()).finally(() => this.running.delete(job.name))
    this.running.set(job.name, run)
  }

  /** Whether this process holds an exclusive job's lease (after its last tick). */
  holds(name: string): boolean {
    return this.held.has(name)
  }

  async stop(): Promise<void> {
    this.stopped = true
    for (const timer of this.timers.values()) clearInterval(timer)
    this.timers.clear()
    await Promise.all(this.running.values())
    await Promise.all(
      [...this.held].map((name) => this.leases.release(name, this.options.owner).catch(() => undefined)),
    )
    this.held.clear()
  }

  private async run(job: Job, now: number): Promise<void> {
    const { log, owner, leaseMs } = this.options
    try {
      if (job.exclusive) {
        const holds = await this.leases.hold(job.name, owner, leaseMs)
        if (holds && !this.held.has(job.name)) log.info({ job: job.name }, 'this process runs the job now')
        if (holds) this.held.add(job.name)
        else this.held.delete(job.name)
        if (!holds) return
      }
      await job.tick(now, () => this.stopped)
    } catch (err) {
      log.warn({ err, job: job.name }, 'a background job failed; it runs again at its next tick')
    }
  }
}
