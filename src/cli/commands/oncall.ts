// `sluice schedules list|show|add|replace|remove|oncall|shifts|feed`: an account's on-call schedules, through the same
// service as the admin API (/api/v1/schedules, /api/v1/oncall/feeds).
import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { INSTANT_PROBLEM, instantText, OnCallService, type ScheduleDefinition } from '../../services/oncall.js'
import { Refusal } from '../../shared/errors.js'
import type { StoredSchedule } from '../../state/redis/oncall.js'
import { ACCOUNT_OPTION, config, positiveInt, print, withServices } from '../context.js'

const DAY_MS = 86_400_000
const by = () => `cli:${process.env['USER'] ?? 'unknown'}`.slice(0, 64)

/** A schedule file's JSON ('-' for standard input). */
function readSchedule(path: string): ScheduleDefinition & { version?: number } {
  try {
    return JSON.parse(readFileSync(path === '-' ? 0 : path, 'utf8')) as ScheduleDefinition & { version?: number }
  } catch (err) {
    throw new Refusal('INVALID', `${path}: ${err instanceof Error ? err.message : String(err)}`)
  }
}

function time(text: string | undefined, option: string): number {
  if (text === undefined) return Date.now()
  const ms = instantText(text)
  if (ms === undefined) throw new Refusal('INVALID', `${option} ${INSTANT_PROBLEM}`)
  return ms
}

async function withOnCall<T>(account: string | undefined, fn: (o: OnCallService, acct: string) => Promise<T>) {
  return withServices(async (s) =>
    fn(new OnCallService(s.state.oncall, s.state.directory), await s.accounts.resolve(account)),
  )
}

const line = (s: StoredSchedule) =>
  `${s.id}  ${s.name.slice(0, 40).padEnd(40)}  ${s.timeZone}  ${s.layers.length} layer(s), ${(s.overrides ?? []).length} override(s)  v${s.version}`

export function onCallCommands(program: Command): void {
  const schedules = program.command('schedules').description("an account's on-call schedules: who is on call, when")
  schedules
    .command('list')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const list = await withOnCall(opts.account, (o, acct) => o.list(acct))
      print(opts.json, list, () => list.map(line))
    })
  schedules
    .command('show <id>')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, opts: { account?: string }) => {
      const schedule = await withOnCall(opts.account, (o, acct) => o.get(acct, id))
      print(true, schedule, () => [])
    })
  schedules
    .command('add <file>')
    .description('make a schedule from a JSON file (as the API takes it; - for stdin)')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { account?: string; json?: boolean }) => {
      const saved = await withOnCall(opts.account, (o, acct) => o.save(acct, readSchedule(file), by()))
      print(opts.json, saved, () => [line(saved)])
    })
  schedules
    .command('replace <id> <file>')
    .description('replace a schedule (with "version" in the file: only if no one changed it since)')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (id: string, file: string, opts: { account?: string; json?: boolean }) => {
      const saved = await withOnCall(opts.account, (o, acct) => o.save(acct, readSchedule(file), by(), id))
      print(opts.json, saved, () => [line(saved)])
    })
  schedules
    .command('remove <id>')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, opts: { account?: string }) => {
      await withOnCall(opts.account, (o, acct) => o.remove(acct, id))
      console.log(`removed ${id}`)
    })
  schedules
    .command('oncall <id>')
    .description('who is on call now (or --at a time), and until when')
    .option('--at <time>', 'ISO 8601 time (default: now)')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { at?: string; account?: string; json?: boolean }) => {
      const at = time(opts.at, '--at')
      const now = await withOnCall(opts.account, async (o, acct) => o.onCall(acct, await o.get(acct, id), at))
      const until = now.until === null ? 'for the next 92 days at least' : `until ${new Date(now.until).toISOString()}`
      print(opts.json, now, () => [
        now.responder ? `${now.responder.userName} (${now.responder.id}) ${until}` : `no one ${until}`,
      ])
    })
  schedules
    .command('shifts <id>')
    .description('the shifts of the coming days')
    .option('--from <time>', 'ISO 8601 time (default: now)')
    .option('--days <n>', 'days from --from (1 to 92)', positiveInt, 14)
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { from?: string; days: number; account?: string; json?: boolean }) => {
      const from = time(opts.from, '--from')
      const list = await withOnCall(opts.account, async (o, acct) =>
        o.shifts(acct, await o.get(acct, id), from, from + Math.min(opts.days, 92) * DAY_MS),
      )
      print(opts.json, list, () =>
        list.map(
          (s) => `${new Date(s.start).toISOString()}  ${new Date(s.end).toISOString()}  ${s.responder.userName}`,
        ),
      )
    })
  schedules
    .command('feed')
    .description("a secret iCalendar feed address of a schedule (--schedule) or of a responder's shifts (--user)")
    .option('--schedule <id>')
    .option('--user <id>')
    .option(...ACCOUNT_OPTION)
    .action(async (opts: { schedule?: string; user?: string; account?: string }) => {
      if ((opts.schedule === undefined) === (opts.user === undefined))
        throw new Refusal('INVALID', 'give one of --schedule <id> or --user <id>')
      const token = await withOnCall(opts.account, (o, acct) =>
        o.createFeed(acct, opts.schedule !== undefined ? { scheduleId: opts.schedule } : { userId: opts.user! }),
      )
      const { publicBaseUrl, http } = config()
      const base = publicBaseUrl ?? `http://${http.host}:${http.port}`
      console.log(`${base}/api/v1/oncall/feeds/${token}.ics`)
    })
}
