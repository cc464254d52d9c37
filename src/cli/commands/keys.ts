// `sluice keys create|list|revoke`: admin API keys and SDK keys, with the scope rules of the key service.
import type { Command } from 'commander'
import { ADMIN_ROLES } from '../../state/redis/tenancy.js'
import { ACCOUNT_OPTION, collect, print, withServices } from '../context.js'

export function keyCommands(program: Command): void {
  const keys = program.command('keys').description('admin API keys and SDK keys')
  keys
    .command('create')
    .description('create a key; it is printed once and stored only as a hash')
    .option('--kind <kind>', 'admin, server (server-side SDK) or client (client-side SDK)', 'admin')
    .option('--name <name>', 'a name shown in key lists and audit logs')
    .option(...ACCOUNT_OPTION)
    .option('--role <role>', `admin keys: ${ADMIN_ROLES.join(', ')} (default all)`)
    .option('--workspace <id>', 'admin keys: restrict to this workspace (repeatable)', collect)
    .option(
      '--environment <id>',
      'admin keys: restrict to this environment (repeatable); SDK keys: their environment',
      collect,
    )
    .option('--json', 'print JSON')
    .action(
      async (opts: {
        kind: string
        name?: string
        account?: string
        role?: string
        workspace?: string[]
        environment?: string[]
        json?: boolean
      }) => {
        const created = await withServices(async (s) =>
          s.keys.create({
            kind: opts.kind,
            accountId: await s.accounts.resolve(opts.account),
            name: opts.name,
            role: opts.role,
            workspaceIds: opts.workspace,
            environmentIds: opts.environment,
          }),
        )
        print(opts.json, created, () => [created.key, `id ${created.id}`])
      },
    )
  keys
    .command('list')
    .option('--account <id>', 'only this account')
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const list = await withServices((s) => s.keys.list(opts.account))
      print(opts.json, list, () =>
        list.map((k) =>
          [
            k.id,
            k.kind.padEnd(6),
            (k.role ?? '').padEnd(14),
            k.revokedAt ? 'revoked' : 'active ',
            k.name ?? '',
            k.workspaceIds ? `workspaces=${k.workspaceIds.join(',')}` : '',
            k.environmentIds ? `environments=${k.environmentIds.join(',')}` : '',
            k.environmentId ? `environment=${k.environmentId}` : '',
          ]
            .join('  ')
            .trimEnd(),
        ),
      )
    })
  keys
    .command('revoke <keyOrId>')
    .description('revoke a key (the key itself or its id); it is refused within SLUICE_KEY_REFRESH_MS')
    .action(async (key: string) => {
      await withServices((s) => s.keys.revoke(key))
      console.log('revoked')
    })
}
