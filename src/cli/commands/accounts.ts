// `sluice bootstrap`, `accounts`, `workspaces`, `environments`, `traffic-types`.
import type { Command } from 'commander'
import type { DemoAccount } from '../../state/redis/tenancy.js'
import { ACCOUNT_OPTION, print, withServices, WORKSPACE_OPTION } from '../context.js'

export function accountCommands(program: Command): void {
  program
    .command('bootstrap')
    .description('create (or show) the demo account, its environments and keys')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const demo: DemoAccount = await withServices((s) => s.accounts.bootstrapDemo())
      if (opts.json) {
        console.log(JSON.stringify(demo))
        return
      }
      console.log(`account    ${demo.accountId}\nworkspace  ${demo.workspaceId}\nadmin key  ${demo.adminApiKey}`)
      for (const e of demo.environments)
        console.log(
          `${e.name.padEnd(10)} ${e.id}\n  server-side SDK key  ${e.serverSideSdkKey}\n  client-side SDK key  ${e.clientSideSdkKey}`,
        )
      console.log(
        `settings token (PAT)  ${demo.personalAccessToken ?? ''}\nSCIM service account  ${demo.serviceAccountId ?? ''}`,
      )
    })

  const accounts = program.command('accounts').description('accounts (tenants)')
  accounts
    .command('create <name>')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { json?: boolean }) => {
      const account = await withServices((s) => s.accounts.createAccount(name))
      print(opts.json, account, () => [account.id])
    })
  accounts
    .command('list')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await withServices((s) => s.accounts.listAccounts())
      print(opts.json, list, () => list.map((a) => `${a.id}  ${a.name}`))
    })

  const workspaces = program.command('workspaces').description('workspaces of an account')
  workspaces
    .command('create <name>')
    .option(...ACCOUNT_OPTION)
    .option('--requires-title-and-comments', 'segment changes must carry a title and a comment')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { account?: string; requiresTitleAndComments?: boolean; json?: boolean }) => {
      const ws = await withServices((s) =>
        s.accounts.createWorkspace(opts.account, name, opts.requiresTitleAndComments === true),
      )
      print(opts.json, ws, () => [ws.id])
    })
  workspaces
    .command('list')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const list = await withServices((s) => s.accounts.listWorkspaces(opts.account))
      print(opts.json, list, () => list.map((w) => `${w.id}  ${w.name}`))
    })

  for (const [command, what] of [
    ['environments', 'environments'],
    ['traffic-types', 'traffic types'],
  ] as const) {
    const group = program.command(command).description(`${what} of a workspace`)
    const create = group
      .command('create <name>')
      .option(...WORKSPACE_OPTION)
      .option('--json', 'print JSON')
    if (command === 'environments') create.option('--production', 'mark it a production environment')
    create.action(async (name: string, opts: { workspace?: string; production?: boolean; json?: boolean }) => {
      const created = await withServices((s) =>
        command === 'environments'
          ? s.accounts.createEnvironment(opts.workspace, name, opts.production === true)
          : s.accounts.createTrafficType(opts.workspace, name),
      )
      print(opts.json, created, () => [created.id])
    })
    group
      .command('list')
      .option(...WORKSPACE_OPTION)
      .option('--json', 'print JSON')
      .action(async (opts: { workspace?: string; json?: boolean }) => {
        const list: { id: string; name: string }[] = await withServices((s) =>
          command === 'environments'
            ? s.accounts.listEnvironments(opts.workspace)
            : s.accounts.listTrafficTypes(opts.workspace),
        )
        print(opts.json, list, () => list.map((e) => `${e.id}  ${e.name}`))
      })
  }
}
