// The `sluice` command. Every subcommand reads the configuration once, through loadConfig.
import { Command, InvalidArgumentError } from 'commander'
import { Redis } from 'ioredis'
import { ROLES, type Role } from '../app/service.js'
import { ConfigError, loadConfig, type Config } from '../config/index.js'
import { serve } from '../main.js'
import { stackDown, stackStatus, stackUp } from '../stack/index.js'
import { Store, type DemoAccount } from '../state/store.js'
import { Transactions } from '../state/transactions.js'
import { importEvents } from './import-events.js'

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

/** Runs fn with a Store on its own Redis connection, closed afterwards. */
async function withStore<T>(cfg: Config, fn: (store: Store) => Promise<T>): Promise<T> {
  const redis = new Redis(cfg.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 })
  const transactions = new Transactions(redis)
  try {
    await redis.connect()
    return await fn(new Store(redis, cfg.redis.keyPrefix, transactions))
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
    const demo: DemoAccount = await withStore(config(), (store) => store.bootstrapDemo())
    if (opts.json) {
      console.log(JSON.stringify(demo))
      return
    }
    console.log(`account    ${demo.accountId}\nworkspace  ${demo.workspaceId}\nadmin key  ${demo.adminApiKey}`)
    for (const e of demo.environments) console.log(`${e.name.padEnd(10)} ${e.id}\n  server-side SDK key  ${e.serverSideSdkKey}\n  client-side SDK key  ${e.clientSideSdkKey}`)
  })

const keys = program.command('keys').description('API and SDK keys')
keys
  .command('revoke <key>')
  .description('revoke a key; the edge refuses it within SLUICE_KEY_REFRESH_MS')
  .action(async (key: string) => {
    const found = await withStore(config(), (store) => store.revokeApiKey(key))
    if (!found) {
      console.error('sluice: no such key')
      process.exitCode = 1
      return
    }
    console.log('revoked')
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
  process.exit(1)
})
