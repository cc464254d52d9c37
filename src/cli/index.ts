// The `sluice` command. Every subcommand reads the configuration once, through loadConfig.
import { Command, InvalidArgumentError } from 'commander'
import { Redis } from 'ioredis'
import { ROLES, type Role } from '../app/service.js'
import { ConfigError, loadConfig, type Config } from '../config/index.js'
import { serve } from '../main.js'
import { stackDown, stackStatus, stackUp } from '../stack/index.js'
import { AccessStore, PERMISSIONS, SCIM_PERMISSIONS, SETTINGS_PERMISSIONS, type Permission } from '../state/access.js'
import { bootstrapDemoAccount } from '../state/demo.js'
import { ALERTS_READER_USER, applyAclUsers, generatePasswords, SERVICE_USER, setUserCommands } from '../state/redis-acl.js'
import { SegmentStore } from '../state/segments.js'
import { ADMIN_ROLES, StateError, Store, type AdminRole, type ApiKeyKind, type DemoAccount } from '../state/store.js'
import { Transactions } from '../state/transactions.js'
import { importEvents } from './import-events.js'
import { CliError, exportSegmentKeys, segmentAudit, uploadSegmentKeys } from './segments.js'

function config(): Config {
  try {
    return loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`sluice: ${err.message}`)
      process.exit(78)
    }
    throw err
  }
}

/** Runs fn with the stores on their own Redis connection, closed afterwards. */
async function withStore<T>(cfg: Config, fn: (store: Store, segments: SegmentStore, access: AccessStore) => Promise<T>): Promise<T> {
  const redis = new Redis(cfg.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 })
  const transactions = new Transactions(redis)
  try {
    await redis.connect()
    return await fn(new Store(redis, cfg.redis.keyPrefix, transactions), new SegmentStore(redis, cfg.redis.keyPrefix, transactions), new AccessStore(redis, cfg.redis.keyPrefix, transactions))
  } finally {
    await transactions.close()
    redis.disconnect()
  }
}

const positiveInt = (v: string) => {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer')
  return n
}

const program = new Command('sluice').description('Sluice: event import, alert webhooks and the Split Admin API').showHelpAfterError()

const stack = program.command('stack').description('local Kafka, ClickHouse and Redis on 127.0.0.1')
stack.command('up').description('install what is missing, start what is not running, wait until all answer').action(async () => {
  await stackUp(config(), (line) => console.log(line))
})
stack.command('down').description('stop the services that `stack up` started').action(async () => {
  await stackDown(config(), (line) => console.log(line))
})
stack.command('status').description('show which services answer').action(async () => {
  const statuses = await stackStatus(config())
  for (const s of statuses) console.log(`${s.name.padEnd(10)} ${s.address.padEnd(16)} ${s.up ? 'up' : 'down'}${s.pid ? ` (pid ${s.pid}, started by sluice)` : ''}`)
  if (!statuses.every((s) => s.up)) process.exitCode = 1
})

program
  .command('serve')
  .description('run the HTTP edge and the consumers (all roles by default)')
  .option('--roles <roles>', `comma-separated roles: ${ROLES.join(',')}`, (v) => {
    const roles = v.split(',').map((r) => r.trim())
    for (const r of roles) if (!(ROLES as readonly string[]).includes(r)) throw new InvalidArgumentError(`unknown role "${r}"; roles are ${ROLES.join(', ')}`)
    return roles as Role[]
  })
  .action(async (opts: { roles?: Role[] }) => {
    await serve(config(), opts.roles ?? [...ROLES])
  })

program
  .command('bootstrap')
  .description('create (or show) the demo account, its environments and keys')
  .option('--json', 'print one JSON object')
  .action(async (opts: { json?: boolean }) => {
    const demo: DemoAccount = await withStore(config(), (store, _segments, access) => bootstrapDemoAccount(store, access))
    if (opts.json) {
      console.log(JSON.stringify(demo))
      return
    }
    console.log(`account    ${demo.accountId}\nworkspace  ${demo.workspaceId}\nadmin key  ${demo.adminApiKey}`)
    for (const e of demo.environments) console.log(`${e.name.padEnd(10)} ${e.id}\n  server-side SDK key  ${e.serverSideSdkKey}\n  client-side SDK key  ${e.clientSideSdkKey}`)
    console.log(`settings token (PAT)  ${demo.personalAccessToken ?? ''}\nSCIM service account  ${demo.serviceAccountId ?? ''}`)
  })

/** Prints a result: JSON with --json, else one line per entry of `lines`. */
function print(json: boolean | undefined, value: unknown, lines: () => string[]): void {
  console.log(json ? JSON.stringify(value) : lines().join('\n'))
}

/** The account to act on: --account, or the demo account (created on first use). */
async function accountOf(store: Store, account: string | undefined): Promise<string> {
  if (account === undefined) return (await store.bootstrapDemo()).accountId
  if (!(await store.accountExists(account))) throw new CliError(`no account ${account}`)
  return account
}

const collect = (v: string, all: string[] = []) => [...all, v]

const accounts = program.command('accounts').description('accounts (tenants)')
accounts
  .command('create <name>')
  .option('--json', 'print JSON')
  .action(async (name: string, opts: { json?: boolean }) => {
    const account = await withStore(config(), (store) => store.createAccount(name))
    print(opts.json, account, () => [account.id])
  })
accounts
  .command('list')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const list = await withStore(config(), (store) => store.listAccounts())
    print(opts.json, list, () => list.map((a) => `${a.id}  ${a.name}`))
  })

const workspaces = program.command('workspaces').description('workspaces of an account (default: the demo account)')
workspaces
  .command('create <name>')
  .option('--account <id>', 'account (default: the demo account)')
  .option('--requires-title-and-comments', 'segment changes must carry a title and a comment')
  .option('--json', 'print JSON')
  .action(async (name: string, opts: { account?: string; requiresTitleAndComments?: boolean; json?: boolean }) => {
    const ws = await withStore(config(), async (store) => store.createWorkspace(await accountOf(store, opts.account), name, opts.requiresTitleAndComments === true))
    print(opts.json, ws, () => [ws.id])
  })
workspaces
  .command('list')
  .option('--account <id>', 'account (default: the demo account)')
  .option('--json', 'print JSON')
  .action(async (opts: { account?: string; json?: boolean }) => {
    const list = await withStore(config(), async (store) => store.listWorkspaces(await accountOf(store, opts.account)))
    print(opts.json, list, () => list.map((w) => `${w.id}  ${w.name}`))
  })

/** The workspace to act on: --workspace, or the demo workspace. */
const workspaceOf = async (store: Store, ws: string | undefined) => ws ?? (await store.bootstrapDemo()).workspaceId

for (const [command, what] of [['environments', 'environments'], ['traffic-types', 'traffic types']] as const) {
  const group = program.command(command).description(`${what} of a workspace (default: the demo workspace)`)
  const create = group
    .command('create <name>')
    .option('--workspace <id>', 'workspace (default: the demo workspace)')
    .option('--json', 'print JSON')
  if (command === 'environments') create.option('--production', 'mark it a production environment')
  create.action(async (name: string, opts: { workspace?: string; production?: boolean; json?: boolean }) => {
    const created = await withStore(config(), async (store) => {
      const ws = await workspaceOf(store, opts.workspace)
      return command === 'environments' ? store.createEnvironment(ws, name, opts.production === true) : store.createTrafficType(ws, name)
    })
    print(opts.json, created, () => [created.id])
  })
  group
    .command('list')
    .option('--workspace <id>', 'workspace (default: the demo workspace)')
    .option('--json', 'print JSON')
    .action(async (opts: { workspace?: string; json?: boolean }) => {
      const list: { id: string; name: string }[] = await withStore(config(), async (store) => {
        const ws = await workspaceOf(store, opts.workspace)
        return command === 'environments' ? store.environments(ws) : store.trafficTypes(ws)
      })
      print(opts.json, list, () => list.map((e) => `${e.id}  ${e.name}`))
    })
}

const keys = program.command('keys').description('admin API keys and SDK keys')
keys
  .command('create')
  .description('create a key; it is printed once and stored only as a hash')
  .option('--kind <kind>', 'admin, server (server-side SDK) or client (client-side SDK)', 'admin')
  .option('--name <name>', 'a name shown in key lists and audit logs')
  .option('--account <id>', 'account (default: the demo account)')
  .option('--role <role>', `admin keys: ${ADMIN_ROLES.join(', ')}`, 'all')
  .option('--workspace <id>', 'admin keys: restrict to this workspace (repeatable)', collect)
  .option('--environment <id>', 'admin keys: restrict to this environment (repeatable); SDK keys: their environment', collect)
  .option('--json', 'print JSON')
  .action(async (opts: { kind: string; name?: string; account?: string; role: string; workspace?: string[]; environment?: string[]; json?: boolean }) => {
    if (!['admin', 'server', 'client'].includes(opts.kind)) throw new CliError('--kind must be admin, server or client')
    if (!(ADMIN_ROLES as readonly string[]).includes(opts.role)) throw new CliError(`--role must be one of ${ADMIN_ROLES.join(', ')}`)
    const created = await withStore(config(), async (store) => {
      const accountId = await accountOf(store, opts.account)
      const envs = await Promise.all((opts.environment ?? []).map(async (id) => {
        const env = await store.environment(id)
        if (!env || env.accountId !== accountId) throw new CliError(`no environment ${id} in account ${accountId}`)
        return env
      }))
      for (const id of opts.workspace ?? []) {
        if ((await store.workspace(id))?.accountId !== accountId) throw new CliError(`no workspace ${id} in account ${accountId}`)
      }
      const name = opts.name
      if (opts.kind !== 'admin') {
        const env = envs[0]
        if (envs.length !== 1 || !env) throw new CliError('an SDK key needs exactly one --environment')
        return store.createApiKey({ kind: opts.kind as ApiKeyKind, accountId, name, workspaceId: env.workspaceId, environmentId: env.id })
      }
      return store.createApiKey({ kind: 'admin', accountId, name, role: opts.role as AdminRole, workspaceIds: opts.workspace, environmentIds: opts.environment })
    })
    print(opts.json, created, () => [created.key, `id ${created.id}`])
  })
keys
  .command('list')
  .option('--account <id>', 'only this account')
  .option('--json', 'print JSON')
  .action(async (opts: { account?: string; json?: boolean }) => {
    const list = await withStore(config(), (store) => store.listApiKeys(opts.account))
    print(opts.json, list, () =>
      list.map((k) => [k.id, k.kind.padEnd(6), (k.role ?? '').padEnd(14), k.revokedAt ? 'revoked' : 'active ', k.name ?? '', k.workspaceIds ? `workspaces=${k.workspaceIds.join(',')}` : '', k.environmentIds ? `environments=${k.environmentIds.join(',')}` : '', k.environmentId ? `environment=${k.environmentId}` : ''].join('  ').trimEnd()),
    )
  })
keys
  .command('revoke <keyOrId>')
  .description('revoke a key (the key itself or its id); it is refused within SLUICE_KEY_REFRESH_MS')
  .action(async (key: string) => {
    const found = await withStore(config(), (store) => store.revokeApiKey(key))
    if (!found) throw new CliError('no such key')
    console.log('revoked')
  })

const permissionList = (v: string, all: Permission[] = []) => {
  if (!(PERMISSIONS as readonly string[]).includes(v)) throw new InvalidArgumentError(`unknown permission; permissions are ${PERMISSIONS.join(', ')}`)
  return [...all, v as Permission]
}

const users = program.command('users').description('users of an account (also the SCIM Users resource)')
users
  .command('create <userName>')
  .option('--email <address>', 'work email (default: the userName when it is an address)')
  .option('--display-name <name>')
  .option('--account <id>', 'account (default: the demo account)')
  .option('--json', 'print JSON')
  .action(async (userName: string, opts: { email?: string; displayName?: string; account?: string; json?: boolean }) => {
    const user = await withStore(config(), async (store, _s, access) => {
      const email = opts.email ?? (userName.includes('@') ? userName : undefined)
      const { outcome, user } = await access.createUser(await accountOf(store, opts.account), {
        userName,
        active: true,
        ...(opts.displayName ? { displayName: opts.displayName } : {}),
        ...(email ? { emails: [{ value: email, type: 'work', primary: true }] } : {}),
      })
      if (outcome !== 'ok') throw new CliError(`userName ${userName} is already taken`)
      return user
    })
    print(opts.json, user, () => [user.id])
  })
users
  .command('list')
  .option('--account <id>', 'account (default: the demo account)')
  .option('--json', 'print JSON')
  .action(async (opts: { account?: string; json?: boolean }) => {
    const list = await withStore(config(), async (store, _s, access) => access.users(await accountOf(store, opts.account)))
    print(opts.json, list, () => list.map((u) => `${u.id}  ${u.userName}${u.active ? '' : '  (inactive)'}`))
  })

const serviceAccounts = program.command('service-accounts').description('service accounts of an account, with permissions')
serviceAccounts
  .command('create <id>')
  .description('create or update a service account (id: letters, digits, _)')
  .option('--name <name>')
  .option('--permission <permission>', `grant one (repeatable): ${PERMISSIONS.join(', ')}`, permissionList)
  .option('--scim', `grant what SCIM calls need: ${SCIM_PERMISSIONS.join(', ')}`)
  .option('--account <id>', 'account (default: the demo account)')
  .option('--json', 'print JSON')
  .action(async (id: string, opts: { name?: string; permission?: Permission[]; scim?: boolean; account?: string; json?: boolean }) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(id)) throw new CliError('a service account id is a letter or _, then letters, digits or _, at most 64')
    const sa = await withStore(config(), async (store, _s, access) => {
      const sa = { id, name: opts.name ?? id, accountId: await accountOf(store, opts.account), permissions: [...new Set([...(opts.permission ?? []), ...(opts.scim ? SCIM_PERMISSIONS : [])])] }
      await access.saveServiceAccount(sa)
      return sa
    })
    print(opts.json, sa, () => [`${sa.id}  ${sa.permissions.join(',')}`])
  })
serviceAccounts
  .command('list')
  .option('--account <id>', 'account (default: the demo account)')
  .option('--json', 'print JSON')
  .action(async (opts: { account?: string; json?: boolean }) => {
    const list = await withStore(config(), async (store, _s, access) => access.serviceAccounts(await accountOf(store, opts.account)))
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
  .option('--permission <permission>', `grant one (repeatable; default ${SETTINGS_PERMISSIONS.join(', ')})`, permissionList)
  .option('--account <id>', 'account (default: the demo account)')
  .option('--json', 'print JSON')
  .action(async (opts: { user: string; name: string; expiresInDays: number; permission?: Permission[]; account?: string; json?: boolean }) => {
    const created = await withStore(config(), async (store, _s, access) => {
      const accountId = await accountOf(store, opts.account)
      if (!(await access.user(accountId, opts.user))) throw new CliError(`no user ${opts.user} in account ${accountId}`)
      return access.createPat({ accountId, userId: opts.user, name: opts.name, permissions: opts.permission ?? [...SETTINGS_PERMISSIONS], expiresAt: Date.now() + opts.expiresInDays * 86_400_000 })
    })
    print(opts.json, { token: created.token, id: created.record.id, expiresAt: new Date(created.record.expiresAt).toISOString() }, () => [created.token])
  })

const flags = program.command('flags').description('feature flags of an account')
for (const [command, on] of [['enable', true], ['disable', false]] as const) {
  flags
    .command(`${command} <flag>`)
    .option('--account <id>', 'account (default: the demo account)')
    .action(async (flag: string, opts: { account?: string }) => {
      if (!/^[A-Z][A-Z0-9_]{0,99}$/.test(flag)) throw new CliError('a flag name is upper-case letters, digits and _')
      await withStore(config(), async (store, _s, access) => access.setFlag(await accountOf(store, opts.account), flag, on))
      console.log(`${flag} ${on ? 'enabled' : 'disabled'}`)
    })
}
flags
  .command('list')
  .option('--account <id>', 'account (default: the demo account)')
  .action(async (opts: { account?: string }) => {
    const list = await withStore(config(), async (store, _s, access) => access.flags(await accountOf(store, opts.account)))
    console.log(list.join('\n'))
  })

const segments = program.command('segments').description('segment keys in bulk, and the audit log')
segments
  .command('upload <environment> <segment> <file>')
  .description('add the keys of a file (one per line, or a JSON array) in atomic updates of 10,000')
  .option('--replace', 'replace the keys instead of adding (the first update replaces, the others add)')
  .option('--comment <text>', 'comment for the audit log')
  .option('--title <text>', 'title for the audit log')
  .option('--json', 'print the summary as JSON')
  .action(async (envId: string, name: string, file: string, opts: { replace?: boolean; comment?: string; title?: string; json?: boolean }) => {
    const summary = await withStore(config(), (store, segs) =>
      uploadSegmentKeys(store, segs, { envId, name, file, replace: opts.replace === true, comment: opts.comment, title: opts.title, progress: !opts.json && process.stderr.isTTY }),
    )
    print(opts.json, summary, () => [`keys in file: ${summary.sent}`, `keys added:   ${summary.added}`, `keys now:     ${summary.total}`])
  })
segments
  .command('export <environment> <segment>')
  .description('write every key of the segment, one per line')
  .option('--out <file>', 'write to a file instead of stdout')
  .action(async (envId: string, name: string, opts: { out?: string }) => {
    const n = await withStore(config(), (store, segs) => exportSegmentKeys(store, segs, { envId, name, out: opts.out, progress: opts.out !== undefined && process.stderr.isTTY }))
    if (opts.out) console.error(`${n} keys written to ${opts.out}`)
  })
segments
  .command('audit <environmentOrWorkspace> <segment>')
  .description('who changed the segment, when, what and why (newest first)')
  .option('--limit <n>', 'entries to show', positiveInt, 50)
  .option('--json', 'print JSON')
  .action(async (scope: string, name: string, opts: { limit: number; json?: boolean }) => {
    const entries = await withStore(config(), (store, segs) => segmentAudit(store, segs, { scope, name, limit: opts.limit }))
    print(opts.json, entries, () =>
      entries.map((e) => [new Date(e.at).toISOString(), e.action.padEnd(10), e.environment?.name ?? '-', e.count === undefined ? '' : `${e.count} keys`, `by ${e.who.name} (${e.who.id})`, e.title ? `"${e.title}"` : '', e.comment ? `- ${e.comment}` : ''].filter(Boolean).join('  ')),
    )
  })

program
  .command('redis-users')
  .description(`the Redis users ${SERVICE_USER} (the service: its own keys, no admin commands) and ${ALERTS_READER_USER} (read and acknowledge alert streams only)`)
  .option('--apply', 'create or reset both users on REDIS_URL (which must allow ACL SETUSER) instead of printing the commands')
  .option('--service-password <password>', 'default: generated')
  .option('--reader-password <password>', 'default: generated')
  .action(async (opts: { apply?: boolean; servicePassword?: string; readerPassword?: string }) => {
    const cfg = config()
    const generated = generatePasswords()
    const passwords = { [SERVICE_USER]: opts.servicePassword ?? generated[SERVICE_USER], [ALERTS_READER_USER]: opts.readerPassword ?? generated[ALERTS_READER_USER] }
    if (opts.apply) {
      await applyAclUsers(cfg.redis.url, cfg.redis.keyPrefix, passwords)
    } else {
      for (const args of setUserCommands(cfg.redis.keyPrefix, passwords)) console.log(`ACL SETUSER ${args.join(' ')}`)
    }
    const url = new URL(cfg.redis.url)
    for (const [user, password] of Object.entries(passwords)) {
      url.username = user
      url.password = password
      console.error(`${user}: ${url.toString()}`)
    }
  })

program
  .command('import-events <file>')
  .description('send an NDJSON or JSON-array file of events through POST /api/events/bulk')
  .option('--url <url>', 'base URL of a running sluice edge (default: http://SLUICE_HOST:SLUICE_PORT)')
  .option('--key <sdkKey>', 'SDK key of the target environment (default: the demo Production server-side key)')
  .option('--batch-size <n>', 'events per request', positiveInt, 5000)
  .option('--batch-bytes <n>', 'largest request body in bytes', positiveInt, 4 * 1024 * 1024)
  .option('--concurrency <n>', 'requests in flight', positiveInt, 4)
  .option('--json', 'print the summary as JSON')
  .action(async (file: string, opts: { url?: string; key?: string; batchSize: number; batchBytes: number; concurrency: number; json?: boolean }) => {
    const cfg = config()
    const key = opts.key ?? (await withStore(cfg, (store) => store.bootstrapDemo())).environments[0]!.serverSideSdkKey
    const summary = await importEvents(file, {
      url: opts.url ?? `http://${cfg.http.host}:${cfg.http.port}`,
      key,
      batchSize: opts.batchSize,
      batchBytes: opts.batchBytes,
      concurrency: opts.concurrency,
      progress: !opts.json && process.stderr.isTTY,
    })
    if (opts.json) console.log(JSON.stringify(summary))
    else {
      console.log(`events sent:        ${summary.eventsSent}`)
      console.log(`requests accepted:  ${summary.requestsAccepted}`)
      console.log(`requests failed:    ${summary.requestsFailed} (${summary.eventsFailed} events)`)
      for (const [why, n] of Object.entries(summary.failures)) console.log(`  ${n} x ${why}`)
      if (summary.linesSkipped) console.log(`lines skipped (not a JSON object): ${summary.linesSkipped}`)
      console.log(`elapsed:            ${summary.seconds.toFixed(1)} s (${Math.round(summary.eventsSent / Math.max(summary.seconds, 0.001))} events/s)`)
    }
    if (summary.requestsFailed > 0) process.exitCode = 1
  })

program.parseAsync().catch((err: unknown) => {
  console.error(`sluice: ${err instanceof Error ? err.message : String(err)}`)
  // A refused input (unknown id, bad option, invalid name) is a usage error; anything else failed.
  process.exit(err instanceof CliError || err instanceof StateError ? 2 : 1)
})
