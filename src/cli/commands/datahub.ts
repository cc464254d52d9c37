// The Data Hub for importers on the command line, the same service and documents as the API under
// /api/v1/environments/<env>: `sluice event-types` (the catalogue of event types, or one type's properties),
// `sluice flags-seen`, `sluice rejections` (refused events or impressions by reason), and `sluice erase` /
// `sluice erasures` (a person's records deleted, as a job the checks role runs), `sluice replay` / `sluice replays`
// (refused records published again, as a job the checks role runs), and `sluice tail` (the live tail).
import type { Command } from 'commander'
import { analysisSettings } from '../../app/container.js'
import {
  createDataHubService,
  type DataHubService,
  type EventTypeDetail,
  type EventTypes,
  type FlagsSeen,
  type Rejections,
  type RejectionKind,
} from '../../services/datahub.js'
import { ErasureService, type ErasureView } from '../../services/erasures.js'
import {
  createReplayService,
  replayFilter,
  type DryRun,
  type ReplayService,
  type ReplayView,
} from '../../services/replays.js'
import { TailHub } from '../../services/tail.js'
import { duplicateClient } from '../../state/redis/index.js'
import { TailChannel, type TailMessage, type TailRecord } from '../../state/redis/tail.js'
import { Refusal } from '../../shared/errors.js'
import type { Environment } from '../../state/redis/tenancy.js'
import { invalid } from '../../shared/errors.js'
import { createLogger } from '../../shared/logger.js'
import { userInfo } from 'node:os'
import { ACCOUNT_OPTION, collect, config, positiveInt, print, withAnalysis, withServices } from '../context.js'

/** The refused records as lines: the total, then each reason with its count and its first example. */
export function rejectionLines(r: Rejections): string[] {
  const lines = [`${r.total} ${r.kind} refused in ${r.environmentId}, ${r.from} to ${r.to}`]
  for (const x of r.reasons) {
    lines.push(`${String(x.records).padStart(8)}  ${x.reason}  (last ${x.lastAt})`)
    const e = x.examples[0]
    if (e)
      lines.push(
        `          e.g. request ${e.requestId}: ${JSON.stringify(e.raw.slice(0, 160))}${e.truncated ? ' …' : ''}`,
      )
  }
  return lines
}

const share = (x: number | null) => (x === null ? '-' : `${Math.round(x * 100)}%`)
const counts = (x: { last24h: number; last7d: number; last30d: number }) =>
  `${String(x.last24h).padStart(9)} ${String(x.last7d).padStart(9)} ${String(x.last30d).padStart(9)}`

/** The event types as a table: counts over 24 hours, 7 and 30 days, the share with a value, the last record. */
export function eventTypeLines(r: EventTypes): string[] {
  return [
    `${r.eventTypes.length}${r.truncated ? '+' : ''} event types received by ${r.environmentId} since ${r.since}`,
    `${'event type'.padEnd(32)} ${'24 h'.padStart(9)} ${'7 d'.padStart(9)} ${'30 d'.padStart(9)}  value  last received`,
    ...r.eventTypes.map(
      (t) => `${t.eventType.padEnd(32)} ${counts(t)}  ${share(t.valueShare).padStart(5)}  ${t.lastAt}`,
    ),
  ]
}

/** One event type: its counts, then each property of the sample with its types and fill rate. */
export function eventTypeDetailLines(t: EventTypeDetail): string[] {
  return [
    `${t.eventType}: ${t.last24h} in 24 h, ${t.last7d} in 7 d, ${t.last30d} in 30 d; ${share(t.valueShare)} with a value; first ${t.firstAt}, last ${t.lastAt}`,
    `properties of the last ${t.sample} records${t.propertiesTruncated ? ' (the first 500 names)' : ''}:`,
    ...t.properties.map(
      (p) =>
        `  ${JSON.stringify(p.name).padEnd(32)} ${share(p.fillRate).padStart(5)}  ${Object.entries(p.types)
          .map(([type, n]) => `${type} ${n}`)
          .join(', ')}`,
    ),
  ]
}

/** The flags seen: counts, treatments and SDK versions. */
export function flagsSeenLines(r: FlagsSeen): string[] {
  return [
    `${r.flags.length}${r.truncated ? '+' : ''} flags in the impressions of ${r.environmentId} since ${r.since}`,
    `${'flag'.padEnd(32)} ${'24 h'.padStart(9)} ${'7 d'.padStart(9)} ${'30 d'.padStart(9)}  treatments; SDKs`,
    ...r.flags.map(
      (f) => `${f.flag.padEnd(32)} ${counts(f)}  ${f.treatments.join(', ')}; ${f.sdkVersions.join(', ') || '-'}`,
    ),
  ]
}

/** An erasure as a line: its id, status, keys and what it deleted or why it failed. */
export function erasureLine(j: Omit<ErasureView, 'keys'> & { keys?: readonly string[] }): string {
  const what = j.deleted
    ? `deleted ${Object.entries(j.deleted)
        .map(([t, n]) => `${n} ${t}`)
        .join(', ')}`
    : (j.error ?? '')
  return `${j.id}  ${j.status.padEnd(7)}  requested ${j.requestedAt}  ${j.keyCount} keys  ${what}`.trimEnd()
}

/** A dry run as lines: what the filter selects, what would become of it, why the rest would be refused. */
export function dryRunLines(d: DryRun): string[] {
  const plan = d.planVersion === null ? '' : ` (tracking plan v${d.planVersion})`
  return [
    `${d.selected} ${d.filter.kind} refused in ${d.environmentId}, ${d.filter.from} to ${d.filter.to}; ${d.alreadyReplayed} already replayed`,
    `of ${d.examined} checked again now${d.complete ? '' : ' (the first ones: not all were checked)'}${plan}: ${d.accepted} would be stored, ${d.stillRefused} refused again, ${d.notReplayable} cannot be replayed`,
    ...d.refusals.flatMap((r) => [
      `${String(r.records).padStart(8)}  ${r.reason}`,
      ...r.examples.slice(0, 1).map((e) => `          e.g. ${JSON.stringify(e.slice(0, 160))}`),
    ]),
  ]
}

/** A replay as a line: its id, status, who asked, the filter, and its counts. */
export function replayLine(j: ReplayView): string {
  const f = j.filter
  const which = [f.kind, f.reason && `reason ${JSON.stringify(f.reason)}`, f.eventType && `type ${f.eventType}`]
  const outcome = j.stored === undefined ? '' : `, ${j.stored} stored, ${j.refusedAgain} refused again`
  return `${j.id}  ${j.status.padEnd(7)}  by ${j.requestedBy} at ${j.requestedAt}  ${which.filter(Boolean).join(', ')}, ${f.from} to ${f.to}: ${j.published} published, ${j.notReplayable} not replayable${outcome}${j.error ? `  (${j.error})` : ''}`
}

/** A tail record as a line: time, kind, what the filters look at, and the record. */
export function tailLine(r: TailRecord, rate: number): string {
  const what = [r.eventType, r.flag, r.key].filter((x) => x !== undefined).map((x) => JSON.stringify(x))
  return `${new Date(r.receivedAt).toISOString()}  ${r.kind.padEnd(18)} ${what.join(' ')}  ${JSON.stringify(r.data)}${rate > 1 ? `  (1 in ${rate} shown)` : ''}`
}

/** The erasure jobs of an environment (Redis only). */
function withErasures<T>(environment: string, use: (erasures: ErasureService, env: Environment) => Promise<T>) {
  return withServices(async (s) => {
    const env = await s.state.tenancy.environment(environment)
    if (!env) throw new Refusal('NOT_FOUND', `environment ${environment} not found`)
    return use(new ErasureService(s.state.erasures), env)
  })
}

/** Replays over the configured ClickHouse and Redis, for one environment. */
function withReplays<T>(environment: string, use: (replays: ReplayService, env: Environment) => Promise<T>) {
  return withAnalysis(environment, (s, clickhouse, env) =>
    use(createReplayService(clickhouse, analysisSettings(config()), s.state.replays, s.state.plans), env),
  )
}

/** The Data Hub service over the configured ClickHouse, for one environment. */
function withDataHub<T>(environment: string, use: (hub: DataHubService, env: Environment) => Promise<T>): Promise<T> {
  return withAnalysis(environment, (_s, clickhouse, env) =>
    use(createDataHubService(clickhouse, analysisSettings(config())), env),
  )
}

export function dataHubCommands(program: Command): void {
  program
    .command('event-types [type]')
    .description(
      "the event types an environment received in the last 90 days, with counts; or one type's property names, types and fill rate",
    )
    .requiredOption('--environment <id>', 'environment id')
    .option('--json', 'print the document')
    .action(async (type: string | undefined, opts: { environment: string; json?: boolean }) => {
      if (type === undefined) {
        const r = await withDataHub(opts.environment, (hub, env) => hub.eventTypes(env))
        print(opts.json, r, () => eventTypeLines(r))
      } else {
        const r = await withDataHub(opts.environment, (hub, env) => hub.eventType(env, type))
        print(opts.json, r, () => eventTypeDetailLines(r))
      }
    })

  program
    .command('flags-seen')
    .description("the flags an environment's impressions named in the last 90 days, with treatments and SDK versions")
    .requiredOption('--environment <id>', 'environment id')
    .option('--json', 'print the document')
    .action(async (opts: { environment: string; json?: boolean }) => {
      const r = await withDataHub(opts.environment, (hub, env) => hub.flagsSeen(env))
      print(opts.json, r, () => flagsSeenLines(r))
    })

  program
    .command('erase')
    .description(
      "erase keys' events, impressions and unique keys in an environment: queues a job that the checks role runs (see sluice erasures)",
    )
    .requiredOption('--environment <id>', 'environment id')
    .requiredOption('--key <key>', 'a key to erase (repeat for more, at most 1,000)', collect)
    .option('--json', 'print the document')
    .action(async (opts: { environment: string; key: string[]; json?: boolean }) => {
      const { job } = await withErasures(opts.environment, (erasures, env) => erasures.request(env, { keys: opts.key }))
      print(opts.json, job, () => [erasureLine(job)])
    })

  program
    .command('erasures [id]')
    .description("an environment's erasure jobs, or one of them, with their status")
    .requiredOption('--environment <id>', 'environment id')
    .option('--json', 'print the document')
    .action(async (id: string | undefined, opts: { environment: string; json?: boolean }) => {
      if (id === undefined) {
        const jobs = await withErasures(opts.environment, (erasures, env) => erasures.list(env))
        print(opts.json, { erasures: jobs }, () => jobs.map(erasureLine))
      } else {
        const job = await withErasures(opts.environment, (erasures, env) => erasures.get(env, id))
        print(opts.json, job, () => [erasureLine(job)])
      }
    })

  program
    .command('replay')
    .description(
      "publish an environment's refused records again (each at most once), as a job the checks role runs; with --dry-run, only say how many would be stored now and why the others would be refused (see sluice replays)",
    )
    .requiredOption('--environment <id>', 'environment id')
    .option('--kind <kind>', 'events (default) or impressions', 'events')
    .option('--reason <text>', 'only records whose rejection reason starts with this text')
    .option('--event-type <type>', 'only events of this type')
    .option('--from <time>', 'received from: epoch ms or ISO 8601 (default: 30 days before --to)')
    .option('--to <time>', 'received until: epoch ms or ISO 8601 (default: now)')
    .option('--dry-run', 'publish nothing: say what a replay would do')
    .option('--json', 'print the document')
    .action(
      async (opts: {
        environment: string
        kind: string
        reason?: string
        eventType?: string
        from?: string
        to?: string
        dryRun?: boolean
        json?: boolean
      }) => {
        if (opts.kind !== 'events' && opts.kind !== 'impressions')
          throw invalid([{ field: '--kind', problem: 'must be events or impressions' }])
        const filter = replayFilter({ ...opts, kind: opts.kind })
        if (opts.dryRun) {
          const d = await withReplays(opts.environment, (replays, env) => replays.dryRun(env, filter))
          print(opts.json, d, () => dryRunLines(d))
        } else {
          const by = `cli:${userInfo().username}`
          const job = await withReplays(opts.environment, (replays, env) => replays.request(env, filter, by))
          print(opts.json, job, () => [replayLine(job)])
        }
      },
    )

  program
    .command('replays [id]')
    .description(
      "an environment's replays of refused records, or one of them: who asked, the filter, progress, outcome",
    )
    .requiredOption('--environment <id>', 'environment id')
    .option('--json', 'print the document')
    .action(async (id: string | undefined, opts: { environment: string; json?: boolean }) => {
      if (id === undefined) {
        const jobs = await withReplays(opts.environment, (replays, env) => replays.list(env))
        print(opts.json, { replays: jobs }, () => jobs.map(replayLine))
      } else {
        const job = await withReplays(opts.environment, (replays, env) => replays.get(env, id))
        print(opts.json, job, () => [replayLine(job)])
      }
    })

  program
    .command('tail')
    .description(
      "the live tail: an environment's events, impressions and refused records (or an integration's webhook payloads) as the consumers read them",
    )
    .option('--environment <id>', 'environment id')
    .option('--integration <id>', 'integration id (its webhook payloads), instead of --environment')
    .option(...ACCOUNT_OPTION)
    .option('--event-type <type>', 'only events of this type')
    .option('--key <key>', 'only records of this key')
    .option('--flag <flag>', 'only impressions of this flag')
    .option('--seconds <n>', 'stop after this long (default: until Ctrl-C)', positiveInt)
    .option('--json', 'print each message as JSON {rate, records}')
    .action(
      async (opts: {
        environment?: string
        integration?: string
        account?: string
        eventType?: string
        key?: string
        flag?: string
        seconds?: number
        json?: boolean
      }) => {
        if ((opts.environment === undefined) === (opts.integration === undefined))
          throw invalid([{ field: '--environment', problem: 'or --integration is needed (one of them)' }])
        await withServices(async (s) => {
          let scope: string
          if (opts.environment !== undefined) {
            const env = await s.state.tenancy.environment(opts.environment)
            if (!env) throw new Refusal('NOT_FOUND', `environment ${opts.environment} not found`)
            scope = `env:${env.id}`
          } else {
            if (!(await s.state.integrations.get(await s.accounts.resolve(opts.account), opts.integration!)))
              throw new Refusal('NOT_FOUND', `integration ${opts.integration} not found`)
            scope = `integration:${opts.integration}`
          }
          const subscriber = duplicateClient(s.state.redis)
          const hub = new TailHub(new TailChannel(s.state.redis, config().redis.keyPrefix), subscriber, {
            maxViewers: 1,
            log: createLogger('silent'),
          })
          let stop: () => void = () => undefined
          const done = new Promise<void>((resolve) => (stop = resolve))
          const print = (m: TailMessage) => {
            const text = opts.json ? JSON.stringify(m) : m.records.map((r) => tailLine(r, m.rate)).join('\n')
            return process.stdout.write(`${text}\n`)
          }
          await hub.add({
            scope,
            filter: { eventType: opts.eventType, key: opts.key, flag: opts.flag },
            send: (m) => (print(m), true),
            cut: () => stop(),
          })
          process.stderr.write(`tailing ${scope} (Ctrl-C to stop)\n`)
          const timer = opts.seconds ? setTimeout(stop, opts.seconds * 1000) : undefined
          process.once('SIGINT', stop)
          await done
          clearTimeout(timer)
          await hub.close()
          await subscriber.quit().catch(() => subscriber.disconnect())
        })
      },
    )

  program
    .command('rejections')
    .description("an environment's refused events or impressions by reason, with examples and their request ids")
    .requiredOption('--environment <id>', 'environment id')
    .option('--kind <kind>', 'events (default) or impressions', 'events')
    .option('--from <time>', 'epoch ms or ISO 8601 (default: 30 days before --to)')
    .option('--to <time>', 'epoch ms or ISO 8601 (default: now)')
    .option('--json', 'print the document')
    .action(async (opts: { environment: string; kind: string; from?: string; to?: string; json?: boolean }) => {
      if (opts.kind !== 'events' && opts.kind !== 'impressions')
        throw invalid([{ field: '--kind', problem: 'must be events or impressions' }])
      const r = await withDataHub(opts.environment, (hub, env) =>
        hub.rejections(env, opts.kind as RejectionKind, opts.from, opts.to),
      )
      print(opts.json, r, () => rejectionLines(r))
    })
}
