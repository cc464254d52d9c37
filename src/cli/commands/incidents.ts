// `sluice incidents list|show|ack|resolve`: an account's incidents, groups of alerts (the same store as
// GET /api/v1/incidents and its acknowledge and resolve calls).
import type { Command } from 'commander'
import { Refusal } from '../../shared/errors.js'
import { isAlertCursor } from '../../state/redis/alerts.js'
import { INCIDENT_LIST_STATUSES, type IncidentListStatus, type IncidentRecord } from '../../state/redis/incidents.js'
import { mergeRefusal } from '../../services/incidents.js'
import { noiseWindows } from '../../services/noise.js'
import { ACCOUNT_OPTION, config, positiveInt, print, withServices } from '../context.js'

const line = (i: IncidentRecord) =>
  [
    i.id,
    i.status.padEnd(12),
    i.severity.padEnd(8),
    `${i.open}/${i.alerts} open`.padEnd(12),
    new Date(i.lastSeenAt).toISOString(),
    i.title.slice(0, 80),
  ].join('  ')

export function incidentCommands(program: Command): void {
  const incidents = program.command('incidents').description('incidents: groups of alerts, told as one')
  incidents
    .command('list')
    .description('latest change first')
    .option(...ACCOUNT_OPTION)
    .option('--status <status>', `${INCIDENT_LIST_STATUSES.join(', ')}`, 'open')
    .option('--limit <n>', 'at most this many', positiveInt, 50)
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; status: string; limit: number; cursor?: string; json?: boolean }) => {
      if (!(INCIDENT_LIST_STATUSES as readonly string[]).includes(opts.status))
        throw new Refusal('INVALID', `--status must be one of ${INCIDENT_LIST_STATUSES.join(', ')}`)
      if (opts.cursor !== undefined && !isAlertCursor(opts.cursor))
        throw new Refusal('INVALID', '--cursor is not one sluice incidents list printed')
      const page = await withServices(async (s) =>
        s.state.incidents.list(await s.accounts.resolve(opts.account), {
          status: opts.status as IncidentListStatus,
          limit: opts.limit,
          ...(opts.cursor ? { cursor: opts.cursor } : {}),
        }),
      )
      print(opts.json, page, () => [
        ...page.incidents.map(line),
        ...(page.nextCursor ? [`more: --cursor ${page.nextCursor}`] : []),
      ])
    })
  incidents
    .command('show <id>')
    .description('an incident, its timeline and its alerts')
    .option(...ACCOUNT_OPTION)
    .option('--members <n>', 'alerts shown', positiveInt, 100)
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { account?: string; members: number; json?: boolean }) => {
      const found = await withServices(async (s) => {
        const account = await s.accounts.resolve(opts.account)
        const incident = await s.state.incidents.get(account, id)
        return incident && { incident, members: await s.state.incidents.members(account, id, opts.members) }
      })
      if (!found) throw new Refusal('NOT_FOUND', `no incident ${id}`)
      const { incident, members } = found
      print(opts.json, { ...incident, members: members.alerts }, () => [
        line(incident),
        ...incident.timeline.map((e) =>
          `  ${new Date(e.at).toISOString()}  ${e.event.padEnd(12)}  ${e.by ?? ''}  ${e.alertId ?? ''}`.trimEnd(),
        ),
        `  alerts (${members.total}):`,
        ...members.alerts.map(
          (a) => `    ${a.id}  ${a.status.padEnd(12)}  ${a.severity.padEnd(8)}  ${a.dedupKey.slice(0, 60)}`,
        ),
      ])
    })
  incidents
    .command('noise')
    .description(
      'noise figures of the last 24 hours and 7 days: alerts, incidents, notifications, the noisiest sources',
    )
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const windows = await withServices(async (s) =>
        noiseWindows(s.state.incidents, s.state.notify, await s.accounts.resolve(opts.account), Date.now()),
      )
      print(opts.json, { windows }, () =>
        windows.flatMap((w) => [
          `last ${w.hours} h: ${w.received} notifications received, ${w.alerts} alerts, ${w.incidents} incidents, ${w.notifications} notifications sent (${w.alertsPerNotification ?? '-'} alerts each), ${w.transient} transient, ${w.inhibited} inhibited`,
          ...w.noisiest.map(
            (n) => `  ${n.integrationId}  ${n.alerts} alerts  ${n.incidents} incidents  ${n.received} received`,
          ),
        ]),
      )
    })
  incidents
    .command('merge <into> <from>')
    .description('merge incident <from> into <into>: its alerts join <into>, and it is closed')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (into: string, from: string, opts: { account?: string; json?: boolean }) => {
      const by = `cli:${process.env['USER'] ?? 'unknown'}`.slice(0, 64)
      const outcome = await withServices(async (s) =>
        s.state.incidents.merge(await s.accounts.resolve(opts.account), into, from, by, config().webhooks.streamMaxLen),
      )
      if (outcome.kind !== 'ok') throw mergeRefusal(outcome.kind)
      print(opts.json, outcome.incident, () => [line(outcome.incident)])
    })
  incidents
    .command('remove <id> <alertId>')
    .description('take an open alert out of an incident into an incident of its own')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (id: string, alertId: string, opts: { account?: string; json?: boolean }) => {
      const by = `cli:${process.env['USER'] ?? 'unknown'}`.slice(0, 64)
      const outcome = await withServices(async (s) =>
        s.state.incidents.remove(
          await s.accounts.resolve(opts.account),
          id,
          alertId,
          by,
          config().webhooks.streamMaxLen,
        ),
      )
      if (outcome.kind === 'not_found' || outcome.kind === 'not_member')
        throw new Refusal('NOT_FOUND', `no alert ${alertId} in incident ${id}`)
      if (outcome.kind !== 'ok')
        throw new Refusal(
          'CONFLICT',
          outcome.kind === 'not_open'
            ? `alert ${alertId} is resolved`
            : `alert ${alertId} is the last open one of ${id}: resolve the incident instead`,
        )
      print(opts.json, outcome.alert, () => [`${outcome.alert.id} is now in ${outcome.alert.incidentId ?? '?'}`])
    })
  for (const [name, action] of [
    ['ack', 'acknowledge'],
    ['resolve', 'resolve'],
  ] as const) {
    incidents
      .command(`${name} <id>`)
      .description(`${action} an incident: each of its open alerts (recorded as by cli:<user>)`)
      .option(...ACCOUNT_OPTION)
      .option('--json', 'print JSON')
      .action(async (id: string, opts: { account?: string; json?: boolean }) => {
        const by = `cli:${process.env['USER'] ?? 'unknown'}`.slice(0, 64)
        const outcome = await withServices(async (s) =>
          s.state.incidents.act(await s.accounts.resolve(opts.account), id, action, by, config().webhooks.streamMaxLen),
        )
        if (outcome.kind === 'not_found') throw new Refusal('NOT_FOUND', `no incident ${id}`)
        if (outcome.kind === 'unchanged' && outcome.status === 'resolved' && action === 'acknowledge')
          throw new Refusal('CONFLICT', `incident ${id} is resolved; it cannot be acknowledged`)
        print(opts.json, outcome.incident, () => [line(outcome.incident)])
      })
  }
}
