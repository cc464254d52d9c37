// `sluice policies list|show|add|replace|remove|default` and `sluice responders show|set`: an account's escalation
// policies and its responders' contact methods, through the same service as the admin API.
import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import {
  escalationService,
  type EscalationService,
  type PolicyDefinition,
  type ResponderProfile,
} from '../../services/escalation.js'
import { Refusal } from '../../shared/errors.js'
import type { StoredPolicy } from '../../state/redis/oncall.js'
import { ACCOUNT_OPTION, print, withServices } from '../context.js'

const by = () => `cli:${process.env['USER'] ?? 'unknown'}`.slice(0, 64)

/** A JSON file ('-' for standard input). */
function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path === '-' ? 0 : path, 'utf8')) as T
  } catch (err) {
    throw new Refusal('INVALID', `${path}: ${err instanceof Error ? err.message : String(err)}`)
  }
}

async function withEscalation<T>(account: string | undefined, fn: (e: EscalationService, acct: string) => Promise<T>) {
  return withServices(async (s) => fn(escalationService(s.state), await s.accounts.resolve(account)))
}

const line = (p: StoredPolicy) =>
  `${p.id}  ${p.name.slice(0, 40).padEnd(40)}  ${p.steps.length} step(s), repeated ${p.repeat ?? 0}  v${p.version}`

export function escalationCommands(program: Command): void {
  const policies = program
    .command('policies')
    .description("an account's escalation policies: who is paged, in which order, until someone answers")
  policies
    .command('list')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const [list, byDefault] = await withEscalation(opts.account, async (e, acct) =>
        Promise.all([e.list(acct), e.defaultPolicy(acct)]),
      )
      print(opts.json, list, () => list.map((p) => `${line(p)}${p.id === byDefault ? '  (default)' : ''}`))
    })
  policies
    .command('show <id>')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, opts: { account?: string }) => {
      print(true, await withEscalation(opts.account, (e, acct) => e.get(acct, id)), () => [])
    })
  policies
    .command('add <file>')
    .description('make a policy from a JSON file (as the API takes it; - for stdin)')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { account?: string; json?: boolean }) => {
      const saved = await withEscalation(opts.account, (e, acct) =>
        e.save(acct, readJson<PolicyDefinition & { version?: number }>(file), by()),
      )
      print(opts.json, saved, () => [line(saved)])
    })
  policies
    .command('replace <id> <file>')
    .description('replace a policy (with "version" in the file: only if no one changed it since)')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (id: string, file: string, opts: { account?: string; json?: boolean }) => {
      const saved = await withEscalation(opts.account, (e, acct) =>
        e.save(acct, readJson<PolicyDefinition & { version?: number }>(file), by(), id),
      )
      print(opts.json, saved, () => [line(saved)])
    })
  policies
    .command('remove <id>')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, opts: { account?: string }) => {
      await withEscalation(opts.account, (e, acct) => e.remove(acct, id))
      console.log(`removed ${id}`)
    })
  policies
    .command('default [id]')
    .description('the policy incidents follow when no alert rule names one: shown, set, or (--none) cleared')
    .option(...ACCOUNT_OPTION)
    .option('--none', 'no default policy')
    .action(async (id: string | undefined, opts: { account?: string; none?: boolean }) => {
      const now = await withEscalation(opts.account, async (e, acct) => {
        if (id !== undefined || opts.none) await e.setDefaultPolicy(acct, opts.none ? null : id!)
        return e.defaultPolicy(acct)
      })
      console.log(now ?? 'none')
    })

  const responders = program.command('responders').description("how the account's people are paged")
  responders
    .command('show <userId>')
    .option(...ACCOUNT_OPTION)
    .action(async (userId: string, opts: { account?: string }) => {
      print(true, await withEscalation(opts.account, (e, acct) => e.profile(acct, userId)), () => [])
    })
  responders
    .command('set <userId> <file>')
    .description('replace their contact methods and notification rules from a JSON file (as the API takes it)')
    .option(...ACCOUNT_OPTION)
    .action(async (userId: string, file: string, opts: { account?: string }) => {
      const saved = await withEscalation(opts.account, (e, acct) =>
        e.saveProfile(acct, userId, readJson<ResponderProfile>(file)),
      )
      print(true, saved, () => [])
    })
}
