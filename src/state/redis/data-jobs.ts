// Data jobs: work on an environment's ClickHouse data that the checks role runs in the background, each with a status
// (erasures: a person's records deleted; replays: refused records published again). Every kind keeps its jobs in a
// hash of its own; all share one queue the checks role takes jobs from, a job's kind told by its id's prefix.
//
// Keys (prefix p; one slot on a cluster, so the queue and the jobs go together in a transaction):
//   p:erasures:<env>          hash job id -> erasure JSON
//   p:replays:<env>           hash job id -> replay JSON
//   p:erasures:queue          sorted set <env>/<job id> -> the time it is due, or its lease's end while it runs
//   p:retention:<day>         string, set NX with an expiry: the process that runs the day's retention deletes
import type { ReplayCursor, ReplaySelection } from '../../analysis/replays.js'
import { RedisState, type RedisContext } from './redis-state.js'

export type JobStatus = 'pending' | 'running' | 'done' | 'failed'

/** What every data job has: the queue and the checks role's runs need nothing else. */
export interface DataJob {
  readonly id: string
  readonly environmentId: string
  readonly status: JobStatus
  /** When it was (last) requested, epoch ms. */
  readonly requestedAt: number
  readonly startedAt?: number
  readonly finishedAt?: number
  /** Runs started (a run cut by a process killed, or by ClickHouse unavailable, counts). */
  readonly attempts: number
  /** The last run's error (for a failed job, why it failed). */
  readonly error?: string
}

export interface ErasureJob extends DataJob {
  /** The keys, while it is unfinished: a finished job keeps only their number (and its id, a hash of them). */
  readonly keys: readonly string[]
  readonly keyCount: number
  /** How many times it was requested. */
  readonly requests: number
  /** The records deleted per table, once done. */
  readonly deleted?: Readonly<Record<string, number>>
}

/** Which refused records a replay publishes again (services/replays.ts): whose, and which of them. */
export interface ReplayFilter extends ReplaySelection {
  readonly kind: 'events' | 'impressions'
}

export type { ReplayCursor }

export interface ReplayJob extends DataJob {
  readonly filter: ReplayFilter
  /** Who asked for it: key:<public id> (the API), cli:<user> (the command line). */
  readonly requestedBy: string
  readonly cursor?: ReplayCursor
  /**
   * Refused records published again so far (pages recorded as published: a page a killed process published without
   * recording it is then found already replayed, and not counted again).
   */
  readonly published: number
  /** Refused records whose raw copy cannot be published again (cut, not kept, telemetry). */
  readonly notReplayable: number
  /** Once done: what the consumers made of the records published (read back from ClickHouse). */
  readonly stored?: number
  readonly refusedAgain?: number
}

/** A queued job, as the queue names it. */
export interface QueuedJob {
  readonly environmentId: string
  readonly id: string
}

/** The jobs of one kind (`kind` names their hashes); the queue is every kind's. */
export class DataJobStore<J extends DataJob> extends RedisState {
  constructor(
    context: RedisContext,
    private readonly kind: 'erasures' | 'replays',
  ) {
    super(context)
  }

  private jobs(env: string): string {
    return this.k(this.kind, env)
  }

  private queue(): string {
    return this.k('erasures', 'queue')
  }

  async get(env: string, id: string): Promise<J | undefined> {
    const json = await this.redis.hget(this.jobs(env), id)
    return json === null ? undefined : (JSON.parse(json) as J)
  }

  /** The environment's jobs, most recently requested first. */
  async list(env: string): Promise<J[]> {
    const all = Object.values(await this.redis.hgetall(this.jobs(env))).map((j) => JSON.parse(j) as J)
    return all.sort((a, b) => b.requestedAt - a.requestedAt)
  }

  /** When the job is due or its lease ends (epoch ms); undefined once it left the queue. */
  async dueAt(env: string, id: string): Promise<number | undefined> {
    const score = await this.redis.zscore(this.queue(), `${env}/${id}`)
    return score === null ? undefined : Number(score)
  }

  /** The job's status as shown: a running job whose lease lapsed (its process was killed) waits for the next one. */
  async shownStatus(job: J, now = Date.now()): Promise<JobStatus> {
    if (job.status !== 'running') return job.status
    const due = await this.dueAt(job.environmentId, job.id)
    return due !== undefined && due < now ? 'pending' : 'running'
  }

  /** Saves the job and puts it in the queue, due now (a job already queued keeps its place and lease). */
  async enqueue(job: J): Promise<void> {
    await this.redis
      .multi()
      .hset(this.jobs(job.environmentId), job.id, JSON.stringify(job))
      .zadd(this.queue(), 'NX', job.requestedAt, `${job.environmentId}/${job.id}`)
      .exec()
  }

  /** Takes the first job due (of any kind), held until `leaseUntil` (epoch ms); undefined if none is due. */
  async claim(now: number, leaseUntil: number): Promise<QueuedJob | undefined> {
    const member = (await this.scripts.erasureClaim(this.queue(), now, leaseUntil)) as string | null
    if (!member) return undefined
    const slash = member.indexOf('/')
    return { environmentId: member.slice(0, slash), id: member.slice(slash + 1) }
  }

  /** Moves a queued job's due time (a lease renewed, or a run put off); nothing if it left the queue. */
  async reschedule(job: QueuedJob, at: number): Promise<void> {
    await this.redis.zadd(this.queue(), 'XX', at, `${job.environmentId}/${job.id}`)
  }

  /** Forgets finished jobs. */
  async forget(env: string, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.redis.hdel(this.jobs(env), ...ids)
  }

  /** Takes a job out of the queue (one that is gone or finished). */
  async dequeue(job: QueuedJob): Promise<void> {
    await this.redis.zrem(this.queue(), `${job.environmentId}/${job.id}`)
  }

  /** Saves the job's state; a finished job (done or failed) leaves the queue in the same transaction. */
  async save(job: J): Promise<void> {
    const tx = this.redis.multi().hset(this.jobs(job.environmentId), job.id, JSON.stringify(job))
    if (job.status === 'done' || job.status === 'failed') tx.zrem(this.queue(), `${job.environmentId}/${job.id}`)
    await tx.exec()
  }

  /** Whether this process runs the retention deletes of `day` (the first to ask does; the claim lasts `ttlMs`). */
  async claimRetentionDay(day: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.k('retention', day), owner, 'PX', ttlMs, 'NX')) === 'OK'
  }
}

export type ErasureStore = DataJobStore<ErasureJob>
export type ReplayStore = DataJobStore<ReplayJob>
