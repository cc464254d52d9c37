// `sluice destinations list|add|remove|test|route` and `sluice deliveries list|dead|retry`: an account's
// notification destinations, default route and deliveries, through the same service as the admin API
// (/api/v1/notification-destinations, /api/v1/notification-route, /api/v1/alerts/<id>/deliveries, ...).
import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { notifyService } from '../../app/container.js'
import type { DestinationInput, NotifyService } from '../../services/notify.js'
import { Refusal } from '../../shared/errors.js'
import { SecretBox } from '../../shared/secret-box.js'
import { ACCOUNT_OPTION, config, positiveInt, print, withServices } from '../context.js'

async function withNotify<T>(account: string | undefined, fn: (n: NotifyService, acct: string) => Promise<T>) {
  const cfg = config()
  return withServices(async (s) =>
    fn(notifyService(cfg, s.state.notify, new SecretBox(cfg.secrets.keys)), await s.accounts.resolve(account)),
  )
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path === '-' ? 0 : path, 'utf8'))
  } catch (err) {
    throw new Refusal('INVALID', `the destination file: ${err instanceof Error ? err.message : String(err)}`)
  }
}

const deliveryLine = (d: {
  id: string
  event: string
  status: string
  attempts: number
  destinationId: string
  lastError: string | null
}) =>
  `${d.id}  ${d.event.padEnd(12)}  ${d.status.padEnd(9)}  ${String(d.attempts).padStart(2)} attempts  ${d.destinationId}${d.lastError ? `  ${d.lastError.slice(0, 80)}` : ''}`

export function notifyCommands(program: Command): void {
  const destinations = program
    .command('destinations')
    .description("an account's notification destinations (webhook, slack, pagerduty, email) and default route")
  destinations
    .command('list')
    .description('the destinations (no secrets) and the default route')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const all = await withNotify(opts.account, (n, acct) => n.list(acct))
      print(opts.json, all, () => [
        ...all.destinations.map(
          (d) =>
            `${d.id}  ${d.kind.padEnd(9)}  ${d.name}${d.enabled ? '' : '  (disabled)'}  events: ${d.events.join(',')}`,
        ),
        `default route: ${all.route.length ? all.route.join(', ') : '(none)'}`,
      ])
    })
  destinations
    .command('add <file>')
    .description(
      "a new destination from a JSON file ({name, kind, settings, events?, limits?}; - for stdin); a webhook's signing secret is printed once",
    )
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { account?: string; json?: boolean }) => {
      const input = readJson(file) as DestinationInput
      const made = await withNotify(opts.account, (n, acct) => n.create(acct, input))
      print(opts.json, made, () => [
        `${made.destination.id}  ${made.destination.kind}  ${made.destination.name}`,
        ...(made.signingSecret ? [`signing secret (shown once): ${made.signingSecret}`] : []),
      ])
    })
  destinations
    .command('remove <id>')
    .description('delete a destination')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, opts: { account?: string }) => {
      await withNotify(opts.account, (n, acct) => n.delete(acct, id))
      console.log(`deleted ${id}`)
    })
  destinations
    .command('test <id>')
    .description('send a test message now and print what the receiver answered')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { account?: string; json?: boolean }) => {
      const outcome = await withNotify(opts.account, (n, acct) => n.test(acct, id))
      print(opts.json, outcome, () => [
        `${outcome.result}${outcome.status !== undefined ? ` (${outcome.status})` : ''}${outcome.error ? `: ${outcome.error}` : ''}`,
      ])
      if (outcome.result !== 'delivered') process.exitCode = 1
    })
  destinations
    .command('route [ids...]')
    .description('set the default route to these destinations (none: clear it); without ids and with --show, print it')
    .option(...ACCOUNT_OPTION)
    .option('--show', 'print the route, change nothing')
    .action(async (ids: string[], opts: { account?: string; show?: boolean }) => {
      const route = await withNotify(opts.account, (n, acct) => (opts.show ? n.route(acct) : n.saveRoute(acct, ids)))
      console.log(`default route: ${route.length ? route.join(', ') : '(none)'}`)
    })

  const deliveries = program.command('deliveries').description('notification deliveries: per alert, the dead letter')
  deliveries
    .command('list')
    .description("an alert's delivery log (in the order they were due), or a destination's last deliveries")
    .option('--alert <id>', 'the alert')
    .option('--destination <id>', 'the destination')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { alert?: string; destination?: string; account?: string; json?: boolean }) => {
      if (!opts.alert === !opts.destination) throw new Refusal('INVALID', 'give --alert or --destination')
      const list = await withNotify(opts.account, (n, acct) =>
        opts.alert ? n.alertDeliveries(acct, opts.alert) : n.destinationDeliveries(acct, opts.destination!, 100),
      )
      print(opts.json, list, () => list.map(deliveryLine))
    })
  deliveries
    .command('dead')
    .description('the dead letter, newest first')
    .option(...ACCOUNT_OPTION)
    .option('--limit <n>', 'at most this many', positiveInt, 100)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; limit: number; json?: boolean }) => {
      const list = await withNotify(opts.account, (n, acct) => n.deadLetter(acct, Math.min(opts.limit, 200)))
      print(opts.json, list, () => list.map(deliveryLine))
    })
  deliveries
    .command('retry <id>')
    .description('send a dead delivery again')
    .option(...ACCOUNT_OPTION)
    .action(async (id: string, opts: { account?: string }) => {
      const d = await withNotify(opts.account, (n, acct) => n.retry(acct, id))
      console.log(deliveryLine(d))
    })
}
