// Replays of refused records, the Data Hub's repair: rejections chosen by environment, topic, reason, event type and
// receive time are checked again as the intake would check them now (a dry run), then published again through Kafka
// by a job the checks role runs (DataJobs, services/erasures.ts), with who asked, when, the filter and the counts kept.
//
// At most once per rejection, exactly once into the tables: each record is published under an identity made of the
// job and the rejection's position (pipeline/replay.ts), which the consumers store at most once, however often the
// job publishes it again (a process killed mid-page, Kafka failing a publish). The job keeps a cursor (the last record
// published) after every page, waits for the consumers to store what it published, and counts the outcome. One
// replay runs at a time per environment, so the next one sees what the last one did: a rejection already replayed is
// not selected again, and a record refused again is a rejection of its own (which a later replay may take).
import { randomBytes } from 'node:crypto'
import type { ClickHouseClient } from '@clickhouse/client'
import { clickhouseRunner, type AnalysisLimits, type QueryRunner } from '../analysis/clickhouse.js'
import { replayCountQuery, replayOutcomeQuery, replayPageQuery, type ReplayTables } from '../analysis/replays.js'
import { EVENT_TYPE_ID } from '../pipeline/events.js'
import { compilePlan, type CompiledPlan } from '../pipeline/plans.js'
import {
  refusalNow,
  REPLAY_PREFIX,
  replayableOf,
  replayRequestId,
  type Replayable,
  type StoredRejection,
} from '../pipeline/replay.js'
import type { EnvelopeMeta } from '../pipeline/rows.js'
import { WorkBudget } from '../shared/budget.js'
import { AppError, invalid, Refusal } from '../shared/errors.js'
import type { ReplayCursor, ReplayFilter, ReplayJob, ReplayStore } from '../state/redis/data-jobs.js'
import type { PlanStore } from '../state/redis/plans.js'
import type { Environment } from '../state/redis/tenancy.js'
import { rejectionsWindow } from './datahub.js'

export type ReplayKind = ReplayFilter['kind']
/** The most records one replay publishes: a larger selection is narrowed first (by time, reason or event type). */
export const MAX_REPLAY_RECORDS = 1_000_000
/** The most records a dry run checks again (it counts every one selected, and checks these). */
export const DRY_RUN_RECORDS = 20_000
/**
 * The time a dry run may take, its reads and its checks together (a page of a hostile account's big records takes a
 * second to read, a costly tracking plan milliseconds per record): it stops then and says how many it checked, as at
 * DRY_RUN_RECORDS.
 */
export const DRY_RUN_MS = 10_000
/** Refused records read at a time: their raw copies (up to 256 KiB each) bound a page's memory. */
const PAGE = 250
/** Reasons of those still refused a dry run lists, with examples of each. */
const DRY_RUN_REASONS = 10
const EXAMPLES = 3
const EXAMPLE_CHARS = 2000
/** How long a page's publication waits out Kafka before the run is put off. */
const PUBLISH_WAIT_MS = 120_000
/** Finished replays an environment's record keeps. */
const KEPT_FINISHED = 100
const REASON_CHARS = 2000

/** A replayable record and the origin it is published with (its first receive time and SDK, a replay's identity). */
export interface ReplayedRecord {
  readonly replayable: Exclude<Replayable, { problem: string }>
  readonly meta: EnvelopeMeta
}

/**
 * Publishes replayed records, each a Kafka message of its own marked as published again, resolving once Kafka has them
 * all, with how many were left out as larger than a message (wired in container.ts with the edge's encoders and the
 * broker).
 */
export type ReplayIntake = (records: readonly ReplayedRecord[]) => Promise<number>

/** Where the intake stands: a mark of the topics' ends now, and whether the consumers have stored up to it. */
export interface Ingestion {
  mark(): Promise<unknown>
  reached(mark: unknown): Promise<boolean>
}

/** The filter of a request, checked: the window as the rejections' (default the last 30 days, at most 92). */
export function replayFilter(body: {
  kind: ReplayKind
  from?: string
  to?: string
  reason?: string
  eventType?: string
}): ReplayFilter {
  const { from, to } = rejectionsWindow(body.from, body.to)
  if (body.eventType !== undefined && body.kind !== 'events')
    throw invalid([{ field: 'eventType', problem: 'applies to events only' }])
  if (body.eventType !== undefined && !EVENT_TYPE_ID.test(body.eventType))
    throw invalid([{ field: 'eventType', problem: 'must be an event type id (letters, digits, _ - . :)' }])
  if (body.reason !== undefined && (body.reason.length === 0 || !body.reason.isWellFormed()))
    throw invalid([{ field: 'reason', problem: 'must be a non-empty, well-formed text' }])
  return {
    kind: body.kind,
    from,
    to,
    ...(body.reason !== undefined && { reason: body.reason }),
    ...(body.eventType !== undefined && { eventType: body.eventType }),
  }
}

/** A filter as the API shows it. */
export const filterView = (f: ReplayFilter) => ({
  ...f,
  from: new Date(f.from).toISOString(),
  to: new Date(f.to).toISOString(),
})

/** What a dry run says of a filter. */
export interface DryRun {
  readonly environmentId: string
  readonly filter: ReturnType<typeof filterView>
  /** Rejections the filter selects. */
  readonly selected: number
  /** Of them, already published again by a replay. */
  readonly alreadyReplayed: number
  /** Of the others, checked again here (in the order a replay takes them, until DRY_RUN_RECORDS or DRY_RUN_MS). */
  readonly examined: number
  /** Whether every one of the others was examined. */
  readonly complete: boolean
  /** Of those examined: would be stored now, would be refused again, cannot be published again. */
  readonly accepted: number
  readonly stillRefused: number
  readonly notReplayable: number
  /** The tracking plan version they were checked against (events of an environment with a plan). */
  readonly planVersion: number | null
  /** Why those still refused would be, most first, with examples. */
  readonly refusals: readonly { reason: string; records: number; examples: string[] }[]
}

/** A replay as the API shows it. */
export interface ReplayView extends Omit<ReplayJob, 'requestedAt' | 'startedAt' | 'finishedAt' | 'filter' | 'cursor'> {
  readonly filter: ReturnType<typeof filterView>
  readonly requestedAt: string
  readonly startedAt?: string
  readonly finishedAt?: string
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString())

/** What a replay and its dry run read: refused records, plans, and how a page is checked again. */
class ReplayReader {
  constructor(
    private readonly run: QueryRunner,
    private readonly database: string,
    private readonly plans: PlanStore,
  ) {}

  tables(kind: ReplayKind): ReplayTables {
    const t = (name: string) => `${this.database}.${name}`
    return kind === 'events'
      ? { rejections: t('event_rejections'), stored: [t('events')], prefix: REPLAY_PREFIX }
      : {
          rejections: t('impression_rejections'),
          stored: [t('impressions'), t('impression_counts'), t('unique_keys')],
          prefix: REPLAY_PREFIX,
        }
  }

  async counts(envId: string, filter: ReplayFilter): Promise<{ selected: number; fresh: number }> {
    const [row] = await this.run(replayCountQuery(this.tables(filter.kind), envId, filter))
    return { selected: Number(row?.['selected'] ?? 0), fresh: Number(row?.['fresh'] ?? 0) }
  }

  async page(
    envId: string,
    filter: ReplayFilter,
    cursor: ReplayCursor | undefined,
    jobId?: string,
  ): Promise<(StoredRejection & { receivedAtMs: number; accountId: string; sdkVersion: string })[]> {
    const rows = await this.run(
      replayPageQuery(this.tables(filter.kind), envId, filter, {
        limit: PAGE,
        ...(cursor && { cursor }),
        ...(jobId !== undefined && { jobId }),
      }),
    )
    return rows.map((r) => ({
      topic: String(r['topic']),
      partition: Number(r['partition']),
      offset: String(r['offset']),
      index: Number(r['index']),
      kind: String(r['kind']),
      raw: String(r['raw']),
      receivedAtMs: Number(r['receivedAtMs']),
      accountId: String(r['accountId']),
      sdkVersion: String(r['sdkVersion']),
    }))
  }

  outcome(job: ReplayJob): Promise<Record<string, unknown>[]> {
    return this.run(replayOutcomeQuery(this.tables(job.filter.kind), job.environmentId, job.filter, job.id))
  }

  /** The environment's tracking plan now, compiled (events only: impressions have none). */
  async plan(env: Environment, kind: ReplayKind): Promise<CompiledPlan | undefined> {
    if (kind !== 'events') return undefined
    const stored = await this.plans.get(env.accountId, env.id)
    return stored ? compilePlan(stored.plan, stored.version) : undefined
  }
}

/** A refused record's origin as published again: its first receive time and SDK, under `requestId`. */
const originOf = (
  environmentId: string,
  r: { accountId: string; receivedAtMs: number; sdkVersion: string },
  requestId: string,
): EnvelopeMeta => ({
  environmentId,
  accountId: r.accountId,
  receivedAtMs: r.receivedAtMs,
  sdkVersion: r.sdkVersion,
  requestId,
})

const cursorOf = (r: { receivedAtMs: number; partition: number; offset: string; index: number }): ReplayCursor => ({
  receivedAtMs: r.receivedAtMs,
  partition: r.partition,
  offset: r.offset,
  index: r.index,
})

export function createReplayService(
  client: ClickHouseClient,
  settings: { database: string } & AnalysisLimits,
  store: ReplayStore,
  plans: PlanStore,
): ReplayService {
  return new ReplayService(store, clickhouseRunner(client, settings), settings.database, plans)
}

export class ReplayService {
  private readonly reader: ReplayReader

  constructor(
    private readonly store: ReplayStore,
    run: QueryRunner,
    database: string,
    plans: PlanStore,
    private readonly dryRunMs = DRY_RUN_MS,
  ) {
    this.reader = new ReplayReader(run, database, plans)
  }

  /** How many of the filter's rejections a replay would now store, and why the others would be refused. */
  async dryRun(env: Environment, filter: ReplayFilter): Promise<DryRun> {
    const deadline = performance.now() + this.dryRunMs
    const over = () => performance.now() > deadline
    const [{ selected, fresh }, plan] = await Promise.all([
      this.reader.counts(env.id, filter),
      this.reader.plan(env, filter.kind),
    ])
    let examined = 0
    let accepted = 0
    let notReplayable = 0
    const refusals = new Map<string, { records: number; examples: string[] }>()
    const slices = new WorkBudget()
    const most = Math.min(fresh, DRY_RUN_RECORDS)
    let cursor: ReplayCursor | undefined
    pages: while (examined < most && !over()) {
      const page = await this.reader.page(env.id, filter, cursor)
      if (page.length === 0) break
      for (const r of page.slice(0, most - examined)) {
        // Other requests run between a costly plan's records.
        if (slices.sliceSpent()) await slices.yield()
        if (over()) break pages
        examined++
        const replayable = replayableOf(filter.kind, r)
        if ('problem' in replayable) {
          notReplayable++
          continue
        }
        const reason = refusalNow(replayable, originOf(env.id, r, ''), plan)
        if (reason === undefined) accepted++
        else {
          const entry = refusals.get(reason) ?? { records: 0, examples: [] }
          entry.records++
          if (entry.examples.length < EXAMPLES) entry.examples.push(r.raw.slice(0, EXAMPLE_CHARS).toWellFormed())
          refusals.set(reason, entry)
        }
      }
      cursor = cursorOf(page.at(-1)!)
    }
    return {
      environmentId: env.id,
      filter: filterView(filter),
      selected,
      alreadyReplayed: selected - fresh,
      examined,
      complete: examined === fresh,
      accepted,
      stillRefused: examined - accepted - notReplayable,
      notReplayable,
      planVersion: plan?.version ?? null,
      refusals: [...refusals]
        .sort(([, a], [, b]) => b.records - a.records)
        .slice(0, DRY_RUN_REASONS)
        .map(([reason, e]) => ({ reason: reason.slice(0, REASON_CHARS), ...e })),
    }
  }

  /** Queues a replay of the filter's rejections not replayed yet (409 while another replay of the environment runs). */
  async request(env: Environment, filter: ReplayFilter, requestedBy: string, now = Date.now()): Promise<ReplayView> {
    const jobs = await this.store.list(env.id)
    const unfinished = jobs.find((j) => j.status === 'pending' || j.status === 'running')
    if (unfinished)
      throw new Refusal('CONFLICT', `replay ${unfinished.id} of this environment is not finished: wait for it`)
    const { fresh } = await this.reader.counts(env.id, filter)
    if (fresh > MAX_REPLAY_RECORDS)
      throw invalid([
        {
          field: 'from',
          problem: `the filter selects ${fresh} refused records, above the ${MAX_REPLAY_RECORDS} a replay takes: narrow it`,
        },
      ])
    await this.store.forget(
      env.id,
      jobs.slice(KEPT_FINISHED - 1).map((j) => j.id),
    )
    const job: ReplayJob = {
      id: replayId(),
      environmentId: env.id,
      status: 'pending',
      requestedAt: now,
      requestedBy,
      filter,
      attempts: 0,
      published: 0,
      notReplayable: 0,
    }
    await this.store.enqueue(job)
    return view(this.store, job)
  }

  async get(env: Environment, id: string): Promise<ReplayView> {
    const job = await this.store.get(env.id, id)
    if (!job) throw new Refusal('NOT_FOUND', `no replay ${id} in this environment`)
    return view(this.store, job)
  }

  /** The environment's replays, most recent first: the audit of who replayed what, when, and how many. */
  async list(env: Environment): Promise<ReplayView[]> {
    return Promise.all((await this.store.list(env.id)).map((job) => view(this.store, job)))
  }

  /** The job runner the checks role's DataJobs runs replays with. */
  runner(intake: ReplayIntake, ingestion: Ingestion): ReplayRunner {
    return new ReplayRunner(this.store, this.reader, intake, ingestion)
  }
}

/** A replay's id (rp_ tells the queue it is a replay; no colon: it is part of its records' request ids). */
export const replayId = () => `rp_${randomBytes(9).toString('hex')}`

async function view(store: ReplayStore, { cursor: _, ...job }: ReplayJob): Promise<ReplayView> {
  return {
    ...job,
    status: await store.shownStatus(job),
    filter: filterView(job.filter),
    requestedAt: iso(job.requestedAt)!,
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
  }
}

/** Runs a claimed replay: pages published from its cursor, then the consumers waited for, then its outcome counted. */
export class ReplayRunner {
  constructor(
    private readonly store: ReplayStore,
    private readonly reader: ReplayReader,
    private readonly intake: ReplayIntake,
    private readonly ingestion: Ingestion,
  ) {}

  /**
   * Publishes a page, waiting out a Kafka outage (a pause, a leader election) for up to PUBLISH_WAIT_MS with growing
   * pauses, the job's lease renewed meanwhile: an outage is not counted as one of the job's runs unless it lasts.
   */
  private async publish(records: readonly ReplayedRecord[], stopped: () => boolean): Promise<number> {
    const deadline = Date.now() + PUBLISH_WAIT_MS
    for (let pause = 500; ; pause = Math.min(pause * 2, 8000)) {
      try {
        return await this.intake(records)
      } catch (err) {
        if (!(err instanceof AppError) || !err.retriable || stopped() || Date.now() + pause > deadline) throw err
        await new Promise((resolve) => setTimeout(resolve, pause))
      }
    }
  }

  /** The job, finished (done); throws an AppError for a run to be put off (retriable) or failed. */
  async run(
    started: ReplayJob,
    stopped: () => boolean,
    until: (what: string, done: () => Promise<boolean>) => Promise<void>,
  ): Promise<ReplayJob> {
    let job = started
    for (;;) {
      if (stopped()) throw new AppError('SINK_UNAVAILABLE', 'the process is stopping: the replay goes on later', true)
      const page = await this.reader.page(job.environmentId, job.filter, job.cursor, job.id)
      if (page.length === 0) break
      const records: ReplayedRecord[] = []
      let notReplayable = 0
      for (const r of page) {
        const replayable = replayableOf(job.filter.kind, r)
        if ('problem' in replayable) notReplayable++
        else
          records.push({
            replayable,
            meta: originOf(job.environmentId, r, replayRequestId(job.id, r)),
          })
      }
      const tooLarge = await this.publish(records, stopped)
      // Published: the cursor moves past the page (a run killed before this publishes the page again, to no effect).
      job = {
        ...job,
        cursor: cursorOf(page.at(-1)!),
        published: job.published + records.length - tooLarge,
        notReplayable: job.notReplayable + notReplayable + tooLarge,
      }
      await this.store.save(job)
    }
    const mark = await this.ingestion.mark()
    await until('the consumers to store the records published', () => this.ingestion.reached(mark))
    const [outcome] = await this.reader.outcome(job)
    return {
      ...job,
      status: 'done',
      finishedAt: Date.now(),
      stored: Number(outcome?.['stored'] ?? 0),
      refusedAgain: Number(outcome?.['refused'] ?? 0),
    }
  }
}
