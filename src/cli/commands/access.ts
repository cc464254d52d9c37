// `sluice users`, `groups`, `service-accounts`, `pats`, `flags`: the platform side of an account.
import type { Command } from 'commander'
import { acceptAll } from '../../services/directory.js'
import { PERMISSIONS, SCIM_PERMISSIONS, SETTINGS_PERMISSIONS } from '../../state/redis/platform.js'
import { ACCOUNT_OPTION, collect, positiveInt, print, withServices } from '../context.js'

export function accessCommands(program: Command): void {
  const users = program.command('users').description('users of an account (also the SCIM Users resource)')
  users
    .command('create <userName>')
    .option('--email <address>', 'work email (default: the userName when it is an address)')
    .option('--display-name <name>')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(
      async (userName: string, opts: { email?: string; displayName?: string; account?: string; json?: boolean }) => {
        const user = await withServices(async (s) =>
          s.access.createUser(await s.accounts.resolve(opts.account), {
            userName,
            email: opts.email,
            displayName: opts.displayName,
          }),
        )
        print(opts.json, user, () => [user.id])
      },
    )
  users
    .command('list')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const list = await withServices(async (s) => s.access.users(await s.accounts.resolve(opts.account)))
      print(opts.json, list, () => list.map((u) => `${u.id}  ${u.userName}${u.active ? '' : '  (inactive)'}`))
    })

  const serviceAccounts = program
    .command('service-accounts')
    .description('service accounts of an account, with permissions')
  serviceAccounts
    .command('create <id>')
    .description('create or update a service account (id: letters, digits, _)')
    .option('--name <name>')
    .option('--permission <permission>', `grant one (repeatable): ${PERMISSIONS.join(', ')}`, collect)
    .option('--scim', `grant what SCIM calls need: ${SCIM_PERMISSIONS.join(', ')}`)
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(
      async (
        id: string,
        opts: { name?: string; permission?: string[]; scim?: boolean; account?: string; json?: boolean },
      ) => {
        const sa = await withServices(async (s) =>
          s.access.saveServiceAccount(await s.accounts.resolve(opts.account), {
            id,
            name: opts.name,
            permissions: opts.permission ?? [],
            scim: opts.scim === true,
          }),
        )
        print(opts.json, sa, () => [`${sa.id}  ${sa.permissions.join(',')}`])
      },
    )
  serviceAccounts
    .command('list')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const list = await withServices(async (s) => s.access.serviceAccounts(await s.accounts.resolve(opts.account)))
      print(opts.json, list, () => list.map((sa) => `${sa.id}  ${sa.permissions.join(',')}`))
    })

  program
    .command('pats')
    .description('personal access tokens')
    .command('create')
    .description('create a token for a user; printed once, stored as a SHA-256')
    .requiredOption('--user <id>', 'the user the token belongs to')
    .option('--name <name>', 'a name for the token', 'token')
    .option('--expires-in-days <n>', 'lifetime in days', positiveInt, 30)
    .option('--permission <permission>', `grant one (repeatable; default ${SETTINGS_PERMISSIONS.join(', ')})`, collect)
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(
      async (opts: {
        user: string
        name: string
        expiresInDays: number
        permission?: string[]
        account?: string
        json?: boolean
      }) => {
        const created = await withServices(async (s) =>
          s.access.createPat(await s.accounts.resolve(opts.account), {
            userId: opts.user,
            name: opts.name,
            expiresInDays: opts.expiresInDays,
            permissions: opts.permission,
          }),
        )
        print(
          opts.json,
          { token: created.token, id: created.record.id, expiresAt: new Date(created.record.expiresAt).toISOString() },
          () => [created.token],
        )
      },
    )

  const flags = program.command('flags').description('feature flags of an account')
  for (const [command, on] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    flags
      .command(`${command} <flag>`)
      .option(...ACCOUNT_OPTION)
      .action(async (flag: string, opts: { account?: string }) => {
        await withServices(async (s) => s.access.setFlag(await s.accounts.resolve(opts.account), flag, on))
        console.log(`${flag} ${on ? 'enabled' : 'disabled'}`)
      })
  }
  flags
    .command('list')
    .option(...ACCOUNT_OPTION)
    .action(async (opts: { account?: string }) => {
      console.log((await withServices(async (s) => s.access.flags(await s.accounts.resolve(opts.account)))).join('\n'))
    })
}

/** `sluice groups`: the account's groups (the SCIM Groups resource) and their members. */
export function groupCommands(program: Command): void {
  const groups = program
    .command('groups')
    .description('groups of an account and their members (also the SCIM Groups resource)')
  groups
    .command('create <displayName>')
    .option('--member <userId>', 'a member (repeatable)', collect)
    .option('--external-id <id>')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(
      async (
        displayName: string,
        opts: { member?: string[]; externalId?: string; account?: string; json?: boolean },
      ) => {
        const group = await withServices(async (s) =>
          s.directory.createGroup(
            await s.accounts.resolve(opts.account),
            { displayName, ...(opts.externalId ? { externalId: opts.externalId } : {}) },
            opts.member ?? [],
          ),
        )
        print(opts.json, group, () => [group.id])
      },
    )
  groups
    .command('list')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const list = await withServices(async (s) => {
        const accountId = await s.accounts.resolve(opts.account)
        const page = await s.directory.listGroups(
          accountId,
          { test: acceptAll, plan: undefined, startIndex: 1, count: MAX_LISTED },
          false,
        )
        return Promise.all(
          page.resources.map(async (g) => ({ ...g, members: await s.directory.members(accountId, g.id) })),
        )
      })
      print(opts.json, list, () => list.map((g) => `${g.id}  ${g.displayName}  (${g.members.length} members)`))
    })
  for (const [command, add] of [
    ['add-members', true],
    ['remove-members', false],
  ] as const) {
    groups
      .command(`${command} <groupId> <userIds...>`)
      .option(...ACCOUNT_OPTION)
      .action(async (groupId: string, userIds: string[], opts: { account?: string }) => {
        const members = await withServices(async (s) => {
          const accountId = await s.accounts.resolve(opts.account)
          await s.directory.changeGroup(accountId, groupId, ({ displayName, externalId }, current) => ({
            input: { displayName, ...(externalId !== undefined ? { externalId } : {}) },
            members: add ? [...new Set([...current, ...userIds])] : current.filter((id) => !userIds.includes(id)),
          }))
          return s.directory.members(accountId, groupId)
        })
        console.log(`${groupId}: ${members.length} members`)
      })
  }
  groups
    .command('delete <groupId>')
    .option(...ACCOUNT_OPTION)
    .action(async (groupId: string, opts: { account?: string }) => {
      await withServices(async (s) => s.directory.deleteGroup(await s.accounts.resolve(opts.account), groupId))
      console.log('deleted')
    })
}

const MAX_LISTED = 10_000
