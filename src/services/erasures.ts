// Erasure and retention, the Data Hub's writes. An erasure deletes a person's (a set of keys') events, impressions and
// unique keys in one environment, as a job with a status: requested through the API or the CLI (ErasureService), run
// by the checks role (DataJobs) with ClickHouse mutations (ALTER TABLE ... DELETE, on every release Sluice supports).
// DataJobs also runs the daily retention deletes on servers without table TTLs (sinks/clickhouse/retention.ts).
//
// Never stuck "running": a process holds a job by a lease it renews while it works; a process killed mid-job lets the
// lease lapse, and the next process to look takes the job and runs it again from the start (a DELETE of keys
// already deleted deletes nothing). A run ClickHouse cannot serve is tried again, at most MAX_ATTEMPTS runs in all;
// a statement ClickHouse refuses fails the job with its reason.
import { createHash } from 'node:crypto'
import type { ClickHouseClient } from '@clickhouse/client'
import { bind, literal, Params } from '../analysis/sql.js'
import { AppError, fromClickHouse, invalid, messageOf, Refusal } from '../shared/errors.js'
import type { Logger } from '../shared/logger.js'
import type { ClickHouseCapabilities } from '../sinks/clickhouse/capabilities.js'
import { localTable, type SchemaTarget } from '../sinks/clickhouse/migrations.js'
import { retentionDeletes, type Retention } from '../sinks/clickhouse/retention.js'
import type {
  DataJob,
  DataJobStore,
  ErasureJob,
  ErasureStore,
  QueuedJob,
  ReplayJob,
  ReplayStore,
} from '../state/redis/data-jobs.js'
import type { Ingestion, ReplayRunner } from './replays.js'
import type { Environment } from '../state/redis/tenancy.js'

/**
 * The tables that hold a key, erased together, and how a row names its key: a column, or (refused records) the fields
 * of the record as received that hold it (`key` of an event; `k` of an impression or client-side unique keys, `ks` of
 * server-side unique keys).
 */
export const ERASED_TABLES = {
  events: { column: 'key' },
  impressions: { column: 'key' },
  unique_keys: { column: 'key' },
  event_rejections: { fields: ['key'] },
  impression_rejections: { fields: ['k', 'ks'] },
  event_violations: { column: 'key' },
} as const satisfies Record<string, { column: string } | { fields: readonly string[] }>
type ErasedTable = keyof typeof ERASED_TABLES
const ERASED = Object.keys(ERASED_TABLES) as ErasedTable[]
export const MAX_ERASURE_KEYS = 1000
export const MAX_KEY_LENGTH = 250
/** Jobs an environment may have waiting or running at once. */
export const MAX_UNFINISHED = 100
/** Finished jobs an environment's record keeps (the oldest are forgotten as new ones come). */
export const KEPT_FINISHED = 1000
/** Runs of a job before it fails (each cut by ClickHouse unavailable or a process killed). */
export const MAX_ATTEMPTS = 5
/** Keys per DELETE statement, at most. */
const KEYS_PER_STATEMENT = 100
/**
 * Characters of the refused records' pattern per statement, at most: with the keys' list, a statement stays far below
 * ClickHouse's 256 KiB max_query_size whatever the keys hold (a key of 250 control characters is ~2,250 characters of
 * SQL in the pattern: 29 such keys a statement).
 */
const PATTERN_CHARS_PER_STATEMENT = 64 * 1024

/** A JSON number as JSON.parse reads it and JSON.stringify writes it back (42.0 and 4.2e1 are 42). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
/** RE2 syntax: ASCII that is not a letter, digit or _ escaped; the rest (UTF-8) is literal. */
const re2Literal = (text: string) =>
  text.replace(/[\u0000-\u002f\u003a-\u0040\u005b-\u005e\u0060\u007b-\u007f]/g, '\\$&')

/**
 * How a refused record as stored (JSON.stringify of the record received: no whitespace, one way of escaping) holds
 * `key`, as RE2 alternatives: the key as a JSON string, and as the number it is read as when it reads as one.
 */
function heldAs(key: string): string[] {
  const forms = [re2Literal(JSON.stringify(key))]
  if (JSON_NUMBER.test(key) && Number.isFinite(Number(key))) forms.push(re2Literal(JSON.stringify(Number(key))))
  return forms
}

/** A JSON string token, matched from its opening quote (whatever it holds: escaped quotes, brackets). */
const STRING_TOKEN = String.raw`"(?:[^"\\]|\\.)*"`

/**
 * The RE2 pattern of the refused records of `keys`: a record is a key's when one of `fields`, at any level of the
 * record, holds the key as text (`"key":"42"`), as a number written the same way (`"key":42` for "42"), or as a value
 * of the object or array given there (`"key":{"matchingKey":"42","bucketingKey":"b"}`, `"key":["42"]`; that object's
 * or array's own values, not deeper, and not a name: `{"42":1}` is not 42's). A field is found by its name after `{`
 * or `,` (never inside a string of the stored JSON, where a quote is escaped); a value at a token boundary, the strings
 * before it consumed whole.
 */
export function refusedKeyPattern(fields: readonly string[], keys: readonly string[]): string {
  const values = keys.flatMap(heldAs)
  return (
    `[{,]"(?:${fields.map(re2Literal).join('|')})":` +
    String.raw`(?:[\[{](?:(?:${STRING_TOKEN}|[^\[\]{}"])*[:,])?)?` +
    `(?:${values.join('|')})` +
    String.raw`(?:[,\]}]|$)`
  )
}

/** The keys of a job in statements of at most KEYS_PER_STATEMENT keys and PATTERN_CHARS_PER_STATEMENT. */
export function batches(keys: readonly string[]): string[][] {
  const out: string[][] = []
  let chars = 0
  for (const key of keys) {
    const cost = literal(heldAs(key).join('|'), 'String').length + 1
    const last = out.at(-1)
    if (last && last.length < KEYS_PER_STATEMENT && chars + cost <= PATTERN_CHARS_PER_STATEMENT) {
      last.push(key)
      chars += cost
    } else {
      out.push([key])
      chars = cost
    }
  }
  return out
}

/** The rows of `keys` in the environment, as the deletes and the counts that check them both select them. */
export function ofKeys(p: Params, environmentId: string, table: ErasedTable, keys: readonly string[]): string {
  const named: { column: string } | { fields: readonly string[] } = ERASED_TABLES[table]
  const which =
    'column' in named
      ? `${named.column} IN ${p.strings(keys)}`
      : `match(raw, ${p.string(refusedKeyPattern(named.fields, keys))})`
  return `environment_id = ${p.string(environmentId)} AND ${which}`
}

/** A job as the API shows it. */
export interface ErasureView extends Omit<ErasureJob, 'requestedAt' | 'startedAt' | 'finishedAt'> {
  readonly requestedAt: string
  readonly startedAt?: string
  readonly finishedAt?: string
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString())

/** The id of the erasure of `keys` in `env`: the same keys (in any order, repeated or not) name the same job. */
export function erasureId(env: string, keys: readonly string[]): string {
  const hash = createHash('sha256').update(env)
  for (const key of [...new Set(keys)].sort()) hash.update('\n').update(key)
  return `er_${hash.digest('base64url').slice(0, 22)}`
}

/** The keys of a request, checked: 1 to 1,000 strings of 1 to 250 characters, well formed; repeats dropped. */
export function erasureKeys(body: unknown): string[] {
  const keys = (body as { keys?: unknown } | null)?.keys
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_ERASURE_KEYS)
    throw invalid([{ field: 'keys', problem: `must be an array of 1 to ${MAX_ERASURE_KEYS} keys` }])
  keys.forEach((k: unknown, i) => {
    if (typeof k !== 'string' || k.length === 0 || k.length > MAX_KEY_LENGTH || !k.isWellFormed())
      throw invalid([
        { field: `keys[${i}]`, problem: `must be a string of 1 to ${MAX_KEY_LENGTH} characters (well-formed Unicode)` },
      ])
  })
  return [...new Set(keys as string[])]
}

export class ErasureService {
  constructor(private readonly store: ErasureStore) {}

  /**
   * Requests the erasure of `keys` in the environment: the job, and whether this request made it due (false: the same
   * erasure was already waiting or running, and is that job). A finished job of the same keys runs again, for what
   * was received since.
   */
  async request(env: Environment, body: unknown, now = Date.now()): Promise<{ job: ErasureView; queued: boolean }> {
    const keys = erasureKeys(body)
    const id = erasureId(env.id, keys)
    const existing = await this.store.get(env.id, id)
    if (existing && (existing.status === 'pending' || existing.status === 'running')) {
      // The same erasure, waiting or running: it now covers what was received until this request too (a run in
      // progress sees that when it ends, and runs again); one that lost its place in the queue gets it back.
      const again: ErasureJob = { ...existing, requestedAt: now, requests: existing.requests + 1 }
      const queued = (await this.store.dueAt(env.id, id)) !== undefined
      if (queued) await this.store.save(again)
      else await this.store.enqueue({ ...again, status: 'pending' })
      return { job: await this.view(queued ? again : { ...again, status: 'pending' }), queued: false }
    }
    const jobs = await this.store.list(env.id)
    const finished = jobs.filter((j) => j.status === 'done' || j.status === 'failed')
    if (jobs.length - finished.length >= MAX_UNFINISHED)
      throw new Refusal('CONFLICT', `the environment has ${MAX_UNFINISHED} erasures waiting: wait for them to finish`)
    // The environment's record keeps the KEPT_FINISHED most recent finished jobs.
    await this.store.forget(
      env.id,
      finished
        .slice(KEPT_FINISHED - 1)
        .map((j) => j.id)
        .filter((old) => old !== id),
    )
    const job: ErasureJob = {
      id,
      environmentId: env.id,
      keys: keys.toSorted(),
      keyCount: keys.length,
      status: 'pending',
      requestedAt: now,
      requests: (existing?.requests ?? 0) + 1,
      attempts: 0,
    }
    await this.store.enqueue(job)
    return { job: await this.view(job), queued: true }
  }

  async get(env: Environment, id: string): Promise<ErasureView> {
    const job = await this.store.get(env.id, id)
    if (!job) throw new Refusal('NOT_FOUND', `no erasure ${id} in this environment`)
    return this.view(job)
  }

  /** The environment's jobs, most recent first (keys left out: a job's own answer has them). */
  async list(env: Environment): Promise<Omit<ErasureView, 'keys'>[]> {
    const jobs = await this.store.list(env.id)
    return Promise.all(jobs.slice(0, 100).map(async (j) => ({ ...(await this.view(j)), keys: undefined })))
  }

  /** A running job whose lease lapsed (its process was killed) shows as pending: the next process takes it. */
  private async view(job: ErasureJob): Promise<ErasureView> {
    return {
      ...job,
      status: await this.store.shownStatus(job),
      requestedAt: iso(job.requestedAt)!,
      startedAt: iso(job.startedAt),
      finishedAt: iso(job.finishedAt),
    }
  }
}

export interface DataJobsOptions {
  readonly target: SchemaTarget
  readonly capabilities: () => ClickHouseCapabilities
  readonly retention: Retention
  /** How long a job is held without its lease renewed. */
  readonly leaseMs: number
  /** How often the queue is looked at. */
  readonly pollMs: number
  readonly owner: string
  readonly log: Logger
  /**
   * Where the intake stands: `mark` takes the topics' ends now, `reached` says whether the consumers have stored up to
   * a mark. A run waits for the mark taken at its start before it checks, so records accepted before the request but
   * still in Kafka are stored, and erased, before the job is done.
   */
  readonly ingestion: Ingestion
  /** Replays of refused records (services/replays.ts): their jobs and how one runs. */
  readonly replays?: { readonly store: ReplayStore; readonly runner: ReplayRunner }
}

/** What a finished job's log line says of it. */
function outcomeOf(job: DataJob): Record<string, unknown> {
  const { deleted, published, stored, refusedAgain } = job as Partial<ErasureJob & ReplayJob>
  return { deleted, published, stored, refusedAgain }
}

const DAY_MS = 86_400_000
/** How long a run waits for its mutations, or for the consumers to reach its mark, before it is put off. */
const WAIT_MS = 10 * 60_000

/**
 * The checks role's data jobs: erasures and replays from the queue, and the daily retention deletes where TTLs are
 * missing.
 */
export class DataJobs {
  /** A job of the checks role (jobs/runner.ts): every process ticks it; each queued job is claimed by one. */
  readonly name = 'data-jobs'
  readonly exclusive = false
  readonly atStart = true
  private stopping: () => boolean = () => false

  constructor(
    private readonly store: ErasureStore,
    private readonly clickhouse: ClickHouseClient,
    private readonly options: DataJobsOptions,
  ) {}

  get everyMs(): number {
    return this.options.pollMs
  }

  async tick(_now: number, stopping: () => boolean): Promise<void> {
    this.stopping = stopping
    await this.work().catch((err: unknown) =>
      this.options.log.warn({ err: messageOf(err) }, 'data jobs: will try again'),
    )
  }

  private async work(): Promise<void> {
    if (!this.options.capabilities().ttl) await this.retentionOfToday()
    while (!this.stopping()) {
      const now = Date.now()
      const queued = await this.store.claim(now, now + this.options.leaseMs)
      if (!queued) return
      await this.run(queued)
    }
  }

  /** Once a day, by the first process to claim the day: records past retention deleted (servers without TTLs). */
  private async retentionOfToday(): Promise<void> {
    const { target, retention, owner, log } = this.options
    const day = new Date().toISOString().slice(0, 10)
    if (!(await this.store.claimRetentionDay(day, owner, 2 * DAY_MS))) return
    for (const query of retentionDeletes(target, retention, Date.now())) {
      try {
        await this.clickhouse.command({ query })
      } catch (err) {
        log.error({ err: messageOf(err), day }, 'retention delete failed; tried again tomorrow')
      }
    }
    log.info({ day, retentionDays: retention.dataDays }, 'retention deletes sent')
  }

  /**
   * One run of a claimed job (an erasure or a replay, told by its id): done; or put off (ClickHouse or Kafka
   * unavailable, the process stopping), or failed (a statement refused, attempts used up).
   */
  private async run(queued: QueuedJob): Promise<void> {
    if (queued.id.startsWith('rp_')) {
      const replays = this.options.replays
      // A process without replays (an older release's checks role beside a newer one) leaves them to others.
      if (!replays) return this.store.reschedule(queued, Date.now() + this.options.pollMs)
      return this.runJob<ReplayJob>(queued, 'replay', replays.store, (job) =>
        replays.runner.run(
          job,
          () => this.stopping(),
          (what, done) => this.until(what, done),
        ),
      )
    }
    return this.runJob<ErasureJob>(queued, 'erasure', this.store, async (started) => {
      const deleted = await this.erase(started)
      // Requested again while it ran: it runs again, for what was received until then.
      const current = await this.store.get(started.environmentId, started.id)
      if (current && current.requestedAt > started.requestedAt) {
        await this.store.save({ ...current, status: 'pending', attempts: 0 })
        await this.store.reschedule(queued, Date.now())
        return undefined
      }
      return { ...started, keys: [], status: 'done', finishedAt: Date.now(), deleted, error: undefined }
    })
  }

  /**
   * Runs a claimed job with `work` (the finished job, or undefined when it was queued again) under a lease renewed
   * while it works. What it keeps once finished: an erasure forgets its keys.
   */
  private async runJob<J extends DataJob>(
    queued: QueuedJob,
    what: string,
    store: DataJobStore<J>,
    work: (job: J) => Promise<J | undefined>,
  ): Promise<void> {
    const { log, leaseMs } = this.options
    const job = await store.get(queued.environmentId, queued.id)
    if (!job || job.status === 'done' || job.status === 'failed') return store.dequeue(queued)
    const forgotten = (j: J): J => ('keys' in j ? { ...j, keys: [] } : j)
    if (job.attempts >= MAX_ATTEMPTS) {
      await store.save({ ...forgotten(job), status: 'failed', finishedAt: Date.now() })
      log.error({ job: job.id, attempts: job.attempts, err: job.error }, `${what} failed: attempts used up`)
      return
    }
    const started: J = { ...job, status: 'running', startedAt: Date.now(), attempts: job.attempts + 1 }
    await store.save(started)
    const renew = setInterval(
      () =>
        void store
          .reschedule(queued, Date.now() + leaseMs)
          .catch((err: unknown) => log.warn({ err: messageOf(err) }, `${what} lease not renewed (Redis)`)),
      leaseMs / 3,
    )
    try {
      const finished = await work(started)
      if (!finished) return
      await store.save(finished)
      log.info({ job: job.id, environment: job.environmentId, ...outcomeOf(finished) }, `${what} done`)
    } catch (err) {
      const failure = fromClickHouse(err, `a ${what}`)
      // The job as saved meanwhile (a replay's cursor), not as it started.
      const current = (await store.get(job.environmentId, job.id)) ?? started
      if (!failure.retriable) {
        const failed = { ...forgotten(current), status: 'failed', finishedAt: Date.now(), error: failure.message }
        await store.save(failed)
        log.error({ job: job.id, err: failure.message }, `${what} failed`)
      } else {
        // Put off: tried again after a pause that grows with the runs, by whichever process claims it then.
        await store.save({ ...current, status: 'pending', error: failure.message })
        await store.reschedule(queued, Date.now() + Math.min(leaseMs, 1000 * 2 ** started.attempts))
        log.warn({ job: job.id, attempt: started.attempts, err: failure.message }, `${what} put off`)
      }
    } finally {
      clearInterval(renew)
    }
  }

  /**
   * Deletes the keys' records from each table, waits for the mutations and for the consumers to store what Kafka held
   * at the run's start, then checks that none received until the request is left (a record that landed during the
   * run fails it as retriable: it runs again). Returns the records found per table before the deletes.
   */
  private async erase(job: ErasureJob): Promise<Record<string, number>> {
    const { target, capabilities, ingestion } = this.options
    const { database: db, cluster } = target
    const startedAt = Date.now()
    const mark = await ingestion.mark()
    const before = await this.counts(job)
    for (const table of ERASED) {
      if (before[table] === 0) continue
      const name = cluster ? `${localTable(table)} ON CLUSTER ${cluster}` : table
      for (const keys of batches(job.keys)) {
        const p = new Params()
        await this.clickhouse.command({
          query: bind(
            p.query(
              'an erasure',
              `ALTER TABLE ${db}.${name} DELETE WHERE ${ofKeys(p, job.environmentId, table, keys)}`,
            ),
          ),
          clickhouse_settings: capabilities().mutationsSync ? { mutations_sync: '2' } : {},
        })
      }
      if (!capabilities().mutationsSync) await this.mutationsDone(cluster ? localTable(table) : table, startedAt)
    }
    await this.until('the consumers to store what was accepted before the request', () => ingestion.reached(mark))
    const left = await this.counts(job, job.requestedAt)
    const remaining = Object.entries(left).filter(([, n]) => n > 0)
    if (remaining.length > 0)
      throw new AppError(
        'SINK_UNAVAILABLE',
        `records of the keys are left (${remaining.map(([t, n]) => `${t}: ${n}`).join(', ')}): they arrived during the run`,
        true,
      )
    return before
  }

  /** The records of the job's keys per table (received until `until`, epoch ms, if given). */
  private async counts(job: ErasureJob, until?: number): Promise<Record<string, number>> {
    const counts: Record<string, number> = {}
    for (const table of ERASED) {
      counts[table] = 0
      for (const keys of batches(job.keys)) {
        const p = new Params()
        const received = until === undefined ? '' : ` AND received_at_ms <= ${p.int(until)}`
        const query = p.query(
          'an erasure count',
          `SELECT count() AS n FROM ${this.options.target.database}.${table}
           WHERE ${ofKeys(p, job.environmentId, table, keys)}${received}`,
        )
        const result = await this.clickhouse.query({ query: bind(query), format: 'JSONEachRow' })
        counts[table] += Number((await result.json<{ n: string | number }>())[0]?.n ?? 0)
      }
    }
    return counts
  }

  /** Polls `done` until it says so; after WAIT_MS (or once stopped) the run is put off. */
  private async until(what: string, done: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + WAIT_MS
    while (!(await done())) {
      if (this.stopping() || Date.now() > deadline)
        throw new AppError('SINK_UNAVAILABLE', `an erasure waited for ${what} in vain; tried again`, true)
      await new Promise((r) => setTimeout(r, 250))
    }
  }

  /**
   * Waits for the table's mutations made since the run started (servers without mutations_sync: 18.16), not for others'
   * (a mutation that never ends, the day's retention deletes).
   */
  private async mutationsDone(table: string, since: number): Promise<void> {
    const { database } = this.options.target
    const query = `SELECT count() AS n FROM system.mutations
      WHERE database = '${database}' AND table = '${table}' AND is_done = 0
        AND create_time >= toDateTime(${Math.floor(since / 1000) - 1})`
    await this.until(`the mutations of ${table}`, async () => {
      const result = await this.clickhouse.query({ query, format: 'JSONEachRow' })
      return Number((await result.json<{ n: string | number }>())[0]?.n ?? 0) === 0
    })
  }
}
