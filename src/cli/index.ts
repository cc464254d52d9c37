// The `sluice` command: one file per command group under commands/, each a thin adapter over the
// services. Exit codes: 0 done, 2 refused input (unknown id, invalid name, bad option), 1 anything
// else, 78 bad configuration.
import { Command } from 'commander'
import { Refusal } from '../shared/errors.js'
import { accessCommands, groupCommands } from './commands/access.js'
import { accountCommands } from './commands/accounts.js'
import { alertCommands } from './commands/alerts.js'
import { incidentCommands } from './commands/incidents.js'
import { rulesAndWindowsCommands } from './commands/rules-and-windows.js'
import { notifyCommands } from './commands/notify.js'
import { onCallCommands } from './commands/oncall.js'
import { escalationCommands } from './commands/escalation.js'
import { experimentCommands } from './commands/experiments.js'
import { dataHubCommands } from './commands/datahub.js'
import { planCommands } from './commands/plans.js'
import { importEventsCommand } from './commands/import-events.js'
import { importSchedulesCommand } from './commands/import-schedules.js'
import { keyCommands } from './commands/keys.js'
import { redisUsersCommand } from './commands/redis-users.js'
import { segmentCommands } from './commands/segments.js'
import { serveCommand } from './commands/serve.js'
import { stackCommands } from './commands/stack.js'
import { CliError } from './context.js'

const program = new Command('sluice')
  .description('Sluice: event import, alert webhooks and the Split Admin API')
  .showHelpAfterError()
stackCommands(program)
serveCommand(program)
accountCommands(program)
keyCommands(program)
accessCommands(program)
groupCommands(program)
segmentCommands(program)
redisUsersCommand(program)
importEventsCommand(program)
importSchedulesCommand(program)
alertCommands(program)
incidentCommands(program)
rulesAndWindowsCommands(program)
onCallCommands(program)
escalationCommands(program)
notifyCommands(program)
experimentCommands(program)
dataHubCommands(program)
planCommands(program)

program.parseAsync().catch((err: unknown) => {
  console.error(`sluice: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(err instanceof CliError || err instanceof Refusal ? 2 : 1)
})
