// Erasure jobs: a request to delete a person's (a set of keys') events and impressions from ClickHouse, its status as
// the checks role works on it, and the queue the checks role takes jobs from. A job's id is made of its environment and
// keys, so the same request again names the same job.
//
// Keys (prefix p; one slot on a cluster, so the queue and the jobs go together in a transaction):
//   p:erasures:<env>          hash job id -> job JSON
//   p:erasures:queue          sorted set <env>/<job id> -> the time it is due, or its lease's end while it runs
//   p:retention:<day>         string, set NX with an expiry: the process that runs the day's retention deletes
import { RedisState } from './redis-state.js'

export type ErasureStatus = 'pending' | 'running' | 'done' | 'failed'

export interface ErasureJob {
  readonly id: string
  readonly environmentId: string
  /** The keys, while it is unfinished: a finished job keeps only their number (and its id, a hash of them). */
  readonly keys: readonly string[]
  readonly keyCount: number
  readonly status: ErasureStatus
  /** When it was (last) requested, epoch ms: the records received until then are erased. */
  readonly requestedAt: number
  /** How many times it was requested. */
  readonly requests: number
  readonly startedAt?: number
  readonly finishedAt?: number
  /** Runs started (a run cut by a process killed, or by ClickHouse unavailable, counts). */
  readonly attempts: number
  /** The last run's error (for a failed job, why it failed). */
  readonly error?: string
  /** The records deleted per table, once done. */
  readonly deleted?: Readonly<Record<string, number>>
}

/** A queued job, as the queue names it. */
export interface QueuedJob {
  readonly environmentId: string
  readonly id: string
}

export class ErasureStore extends RedisState {
  private jobs(env: string): string {
    return this.k('erasures', env)
  }

  private queue(): string {
    return this.k('erasures', 'queue')
  }

  async get(env: string, id: string): Promise<ErasureJob | undefined> {
    const json = await this.redis.hget(this.jobs(env), id)
    return json === null ? undefined : (JSON.parse(json) as ErasureJob)
  }

  /** The environment's jobs, most recently requested first. */
  async list(env: string): Promise<ErasureJob[]> {
    const all = Object.values(await this.redis.hgetall(this.jobs(env))).map((j) => JSON.parse(j) as ErasureJob)
    return all.sort((a, b) => b.requestedAt - a.requestedAt)
  }

  /** When the job is due or its lease ends (epoch ms); undefined once it left the queue. */
  async dueAt(env: string, id: string): Promise<number | undefined> {
    const score = await this.redis.zscore(this.queue(), `${env}/${id}`)
    return score === null ? undefined : Number(score)
  }

  /** Saves the job and puts it in the queue, due now (a job already queued keeps its place and lease). */
  async enqueue(job: ErasureJob): Promise<void> {
    await this.redis
      .multi()
      .hset(this.jobs(job.environmentId), job.id, JSON.stringify(job))
      .zadd(this.queue(), 'NX', job.requestedAt, `${job.environmentId}/${job.id}`)
      .exec()
  }

  /** Takes the first job due, held until `leaseUntil` (epoch ms); undefined if none is due. */
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
  async save(job: ErasureJob): Promise<void> {
    const tx = this.redis.multi().hset(this.jobs(job.environmentId), job.id, JSON.stringify(job))
    if (job.status === 'done' || job.status === 'failed') tx.zrem(this.queue(), `${job.environmentId}/${job.id}`)
    await tx.exec()
  }

  /** Whether this process runs the retention deletes of `day` (the first to ask does; the claim lasts `ttlMs`). */
  async claimRetentionDay(day: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.k('retention', day), owner, 'PX', ttlMs, 'NX')) === 'OK'
  }
}
