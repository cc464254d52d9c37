// `sluice alerts list|show|ack|resolve`: an account's alerts as incidents (the same store and
// lifecycle as GET /api/v1/alerts and its acknowledge and resolve calls).
import type { Command } from 'commander'
import { Refusal } from '../../shared/errors.js'
import {
  ALERT_FILTERS,
  ALERT_LIST_STATUSES,
  isAlertCursor,
  type AlertListStatus,
  type AlertRecord,
} from '../../state/redis/alerts.js'
import { ACCOUNT_OPTION, config, positiveInt, print, withServices } from '../context.js'

const line = (a: AlertRecord) =>
  [
    a.id,
    a.status.padEnd(12),
    a.severity.padEnd(8),
    `x${a.count}`.padEnd(6),
    new Date(a.lastSeenAt).toISOString(),
    a.integrationId,
    a.dedupKey.slice(0, 40),
    a.description.slice(0, 80),
  ].join('  ')

export function alertCommands(program: Command): void {
  const alerts = program.command('alerts').description('alerts as incidents: one per integration and dedup key')
  const list = alerts
    .command('list')
    .description('newest last notification first')
    .option(...ACCOUNT_OPTION)
    .option('--status <status>', `${ALERT_LIST_STATUSES.join(', ')}`, 'open')
    .option('--limit <n>', 'at most this many', positiveInt, 50)
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .option('--json', 'print JSON')
  for (const f of ALERT_FILTERS)
    list.option(`--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} <value>`, `only alerts with this ${f}`)
  list.action(
    async (
      opts: { account?: string; status: string; limit: number; cursor?: string; json?: boolean } & Record<
        string,
        string | undefined
      >,
    ) => {
      if (!(ALERT_LIST_STATUSES as readonly string[]).includes(opts.status))
        throw new Refusal('INVALID', `--status must be one of ${ALERT_LIST_STATUSES.join(', ')}`)
      if (opts.cursor !== undefined && !isAlertCursor(opts.cursor))
        throw new Refusal('INVALID', '--cursor is not one sluice alerts list printed')
      const filters = Object.fromEntries(ALERT_FILTERS.filter((f) => opts[f] !== undefined).map((f) => [f, opts[f]!]))
      const page = await withServices(async (s) =>
        s.state.alerts.list(await s.accounts.resolve(opts.account), {
          status: opts.status as AlertListStatus,
          filters,
          limit: opts.limit,
          ...(opts.cursor ? { cursor: opts.cursor } : {}),
        }),
      )
      print(opts.json, page, () => [
        ...page.alerts.map(line),
        ...(page.nextCursor ? [`more: --cursor ${page.nextCursor}`] : []),
      ])
    },
  )
  alerts
    .command('show <id>')
    .description('an alert and its history')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { account?: string; json?: boolean }) => {
      const alert = await withServices(async (s) => s.state.alerts.get(await s.accounts.resolve(opts.account), id))
      if (!alert) throw new Refusal('NOT_FOUND', `no alert ${id}`)
      print(opts.json, alert, () => [
        line(alert),
        ...alert.history.map((h) =>
          `  ${new Date(h.at).toISOString()}  ${h.event.padEnd(12)}  ${h.by ?? ''}  ${h.requestId ?? ''}`.trimEnd(),
        ),
      ])
    })
  for (const [name, action] of [
    ['ack', 'acknowledge'],
    ['resolve', 'resolve'],
  ] as const) {
    alerts
      .command(`${name} <id>`)
      .description(`${action} an alert (recorded as by cli:<user>, with an entry in the streams)`)
      .option(...ACCOUNT_OPTION)
      .option('--json', 'print JSON')
      .action(async (id: string, opts: { account?: string; json?: boolean }) => {
        const by = `cli:${process.env['USER'] ?? 'unknown'}`.slice(0, 64)
        const outcome = await withServices(async (s) =>
          s.state.alerts.act(await s.accounts.resolve(opts.account), id, action, by, config().webhooks.streamMaxLen),
        )
        if (outcome.kind === 'not_found') throw new Refusal('NOT_FOUND', `no alert ${id}`)
        if (outcome.kind === 'unchanged' && outcome.status === 'resolved' && action === 'acknowledge')
          throw new Refusal('CONFLICT', `alert ${id} is resolved; it cannot be acknowledged`)
        print(opts.json, outcome.alert, () => [line(outcome.alert)])
      })
  }
}
