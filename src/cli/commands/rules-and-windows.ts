// `sluice rules get|set|version|test|dropped`, `sluice windows list|add|replace|remove|calendar` and
// `sluice integrations auth show|set|add-secret|remove-secret|off`: an account's alert rules, maintenance
// windows and integrations' sender authentication, through the same services as the admin API
// (/api/v1/alert-rules, /api/v1/maintenance-windows, /api/v1/integrations/<id>/authentication).
import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { RulesAndWindowsService } from '../../services/rules-and-windows.js'
import { SenderAuthService, type SenderAuthInput } from '../../services/sender-auth.js'
import { Refusal } from '../../shared/errors.js'
import { SecretBox } from '../../shared/secret-box.js'
import type { StoredWindow } from '../../state/redis/rules-and-windows.js'
import { ACCOUNT_OPTION, config, positiveInt, print, withServices, type CliServices } from '../context.js'

/** A JSON file's content ('-' for standard input). */
function readJson(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(path === '-' ? 0 : path, 'utf8'))
  } catch (err) {
    throw new Refusal('INVALID', `${what}: ${err instanceof Error ? err.message : String(err)}`)
  }
}

const by = () => `cli:${process.env['USER'] ?? 'unknown'}`.slice(0, 64)

function service(s: CliServices): RulesAndWindowsService {
  return new RulesAndWindowsService(s.state.rulesAndWindows, s.state.alerts, s.state.integrations)
}

/** Runs fn with the account (--account, or the only one) and the rules and windows service. */
async function withRulesAndWindows<T>(
  account: string | undefined,
  fn: (p: RulesAndWindowsService, acct: string) => Promise<T>,
) {
  return withServices(async (s) => fn(service(s), await s.accounts.resolve(account)))
}

const windowLine = (w: StoredWindow) => {
  const s = w.schedule
  const when = s.kind === 'once' ? `${s.from} to ${s.to}` : `${s.days.join(',')} ${s.start}-${s.end} ${s.timeZone}`
  return `${w.id}  ${w.name.slice(0, 40).padEnd(40)}  ${when}${w.when ? '  (with a condition)' : ''}`
}

export function rulesAndWindowsCommands(program: Command): void {
  const rules = program
    .command('rules')
    .description("an account's alert rules: ordered, versioned, applied after the mapping")
  rules
    .command('get')
    .description('the rules and their version')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const set = await withRulesAndWindows(opts.account, (p, acct) => p.rules(acct))
      print(opts.json, set, () => [
        `version ${set.version}`,
        ...set.rules.map((r, i) => `${i + 1}. ${r.id}  ${r.name}${r.enabled === false ? '  (disabled)' : ''}`),
      ])
    })
  rules
    .command('set <file>')
    .description('replace the rules with those of a JSON file ({"rules": [...]} or a list; - for stdin)')
    .option(...ACCOUNT_OPTION)
    .option('--version <n>', 'refuse if the current version is not this one', (v) => Number(v))
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { account?: string; version?: number; json?: boolean }) => {
      const input = readJson(file, file)
      const list = Array.isArray(input) ? input : (input as { rules?: unknown }).rules
      const saved = await withRulesAndWindows(opts.account, (p, acct) =>
        p.saveRules(acct, { rules: list, ...(opts.version !== undefined ? { version: opts.version } : {}) }, by()),
      )
      print(opts.json, saved, () => [`saved version ${saved.version}: ${saved.rules.length} rules`])
    })
  rules
    .command('version <n>')
    .description('a rule set as it was saved (the last 50 are kept)')
    .option(...ACCOUNT_OPTION)
    .action(async (n: string, opts: { account?: string }) => {
      const set = await withRulesAndWindows(opts.account, (p, acct) => p.rulesAt(acct, Number(n)))
      print(true, set, () => [])
    })
  rules
    .command('test')
    .description('what the rules and windows make of an alert or a payload; nothing is stored')
    .option(...ACCOUNT_OPTION)
    .option('--integration-id <id>', "render the payload with this integration's mapping")
    .option('--payload <file>', 'the payload (JSON; its example when absent)')
    .option('--alert <file>', 'a normalized alert (JSON), instead of an integration and payload')
    .option('--rules <file>', 'rules to try instead of the saved ones')
    .option('--at <time>', 'when the alert arrives (ISO 8601; default now)')
    .action(
      async (opts: {
        account?: string
        integrationId?: string
        payload?: string
        alert?: string
        rules?: string
        at?: string
      }) => {
        const result = await withRulesAndWindows(opts.account, (p, acct) =>
          p.test(acct, {
            ...(opts.integrationId ? { integrationId: opts.integrationId } : {}),
            ...(opts.payload ? { payload: readJson(opts.payload, '--payload') } : {}),
            ...(opts.alert ? { alert: readJson(opts.alert, '--alert') as Record<string, unknown> } : {}),
            ...(opts.rules ? { rules: readJson(opts.rules, '--rules') } : {}),
            ...(opts.at ? { at: opts.at } : {}),
          }),
        )
        print(true, result, () => [])
      },
    )
  rules
    .command('dropped')
    .description('the alerts rules dropped in the last day, newest first')
    .option(...ACCOUNT_OPTION)
    .option('--limit <n>', 'at most this many', positiveInt, 100)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; limit: number; json?: boolean }) => {
      const dropped = await withRulesAndWindows(opts.account, (p, acct) => p.dropped(acct, opts.limit))
      print(opts.json, dropped, () =>
        dropped.map((d) => `${d.receivedAt}  ${d.rule.padEnd(20)}  ${d.integrationId}  ${d.requestId}  ${d.dedupKey}`),
      )
    })

  const windows = program
    .command('windows')
    .description('maintenance windows: matching alerts are stored as suppressed')
  windows
    .command('list')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const all = await withRulesAndWindows(opts.account, (p, acct) => p.windows(acct))
      print(opts.json, all, () => all.map(windowLine))
    })
  windows
    .command('add <file>')
    .description('create a window from a JSON file: {"name", "when"?, "schedule"} (- for stdin)')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { account?: string; json?: boolean }) => {
      const w = await withRulesAndWindows(opts.account, (p, acct) => p.createWindow(acct, readJson(file, file)))
      print(opts.json, w, () => [windowLine(w)])
    })
  windows
    .command('replace <id> <file>')
    .description('replace a window; what it suppresses is released now when it no longer runs')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (id: string, file: string, opts: { account?: string; json?: boolean }) => {
      const w = await withRulesAndWindows(opts.account, (p, acct) =>
        p.replaceWindow(acct, id, readJson(file, file), config().webhooks.streamMaxLen),
      )
      print(opts.json, w, () => [windowLine(w)])
    })
  windows
    .command('remove <id>')
    .description('delete a window; the alerts it suppresses are released now (triggered)')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, opts: { account?: string }) => {
      await withRulesAndWindows(opts.account, (p, acct) => p.deleteWindow(acct, id, config().webhooks.streamMaxLen))
      console.log(`removed ${id}`)
    })
  windows
    .command('calendar')
    .description('occurrences of each window (default: the next 7 days)')
    .option(...ACCOUNT_OPTION)
    .option('--from <time>', 'ISO 8601')
    .option('--to <time>', 'ISO 8601, at most 62 days after --from')
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; from?: string; to?: string; json?: boolean }) => {
      const cal = await withRulesAndWindows(opts.account, (p, acct) => p.calendar(acct, opts.from, opts.to))
      print(opts.json, cal, () =>
        cal.flatMap((w) => [
          `${w.id}  ${w.name}${w.activeNow ? '  (running now)' : ''}`,
          ...w.occurrences.map((o) => `  ${o.start}  to  ${o.end}`),
        ]),
      )
    })

  const integrations = program.command('integrations').description('alert integrations')
  const auth = integrations
    .command('auth')
    .description("an integration's sender authentication (a secret is printed once, when it is made)")
  const withAuth = <T>(account: string | undefined, fn: (a: SenderAuthService, acct: string) => Promise<T>) =>
    withServices(async (s) =>
      fn(
        new SenderAuthService(s.state.integrations, new SecretBox(config().secrets.keys)),
        await s.accounts.resolve(account),
      ),
    )
  auth
    .command('show <integration>')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, opts: { account?: string }) => {
      print(true, await withAuth(opts.account, (a, acct) => a.view(acct, id)), () => [])
    })
  auth
    .command('set <integration>')
    .description('set up (or replace) sender authentication with one secret')
    .option(...ACCOUNT_OPTION)
    .requiredOption('--scheme <scheme>', 'bearer, basic or hmac')
    .option('--username <name>', 'basic: the user name')
    .option('--preset <preset>', 'hmac: grafana, github or standard-webhooks')
    .option('--tolerance-seconds <n>', 'hmac: how far a signed timestamp may be from now', positiveInt)
    .option('--secret-file <file>', 'a secret the sender made (else Sluice makes one)')
    .action(
      async (
        id: string,
        opts: {
          account?: string
          scheme: string
          username?: string
          preset?: string
          toleranceSeconds?: number
          secretFile?: string
        },
      ) => {
        const input = {
          scheme: opts.scheme,
          ...(opts.username ? { username: opts.username } : {}),
          ...(opts.preset ? { preset: opts.preset } : {}),
          ...(opts.toleranceSeconds ? { toleranceSeconds: opts.toleranceSeconds } : {}),
          ...(opts.secretFile ? { secret: readFileSync(opts.secretFile, 'utf8').trim() } : {}),
        } as SenderAuthInput
        print(true, await withAuth(opts.account, (a, acct) => a.set(acct, id, input)), () => [])
      },
    )
  auth
    .command('add-secret <integration>')
    .description('add a second secret (both work) to rotate without a gap')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, opts: { account?: string }) => {
      print(true, await withAuth(opts.account, (a, acct) => a.addSecret(acct, id, undefined)), () => [])
    })
  auth
    .command('remove-secret <integration> <secretId>')
    .description('retire a secret')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, secretId: string, opts: { account?: string }) => {
      print(true, await withAuth(opts.account, (a, acct) => a.removeSecret(acct, id, secretId)), () => [])
    })
  auth
    .command('off <integration>')
    .description('turn sender authentication off')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, opts: { account?: string }) => {
      await withAuth(opts.account, (a, acct) => a.clear(acct, id))
      console.log(`sender authentication of ${id} is off`)
    })
}
