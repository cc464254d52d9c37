// `sluice import schedules --from opsgenie|grafana-oncall <file> [--dry-run]`: schedules and escalation policies moved
// from another on-call tool's API export, through the same services as the admin API (services/oncall-import.ts).
import { readFileSync, statSync } from 'node:fs'
import { Option, type Command } from 'commander'
import { escalationService } from '../../services/escalation.js'
import { OnCallService } from '../../services/oncall.js'
import {
  IMPORT_SOURCES,
  OnCallImportService,
  type ImportedItem,
  type ImportSource,
} from '../../services/oncall-import.js'
import { Refusal } from '../../shared/errors.js'
import { ACCOUNT_OPTION, print, withServices } from '../context.js'

/** The largest export read (an export of hundreds of schedules is a few megabytes). */
const MAX_FILE_BYTES = 20 * 1024 * 1024

function readExport(path: string): unknown {
  try {
    if (path !== '-' && statSync(path).size > MAX_FILE_BYTES)
      throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB: split the export`)
    const body = readFileSync(path === '-' ? 0 : path, 'utf8')
    if (body.length > MAX_FILE_BYTES)
      throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB: split the export`)
    return JSON.parse(body) as unknown
  } catch (err) {
    throw new Refusal('INVALID', `${path}: ${err instanceof Error ? err.message : String(err)}`)
  }
}

const itemLine = (i: ImportedItem) =>
  `  ${i.outcome.padEnd(16)}  ${JSON.stringify(i.name)}${i.id ? `  ${i.id}` : ''}  (${i.from})${(i.problems ?? []).map((p) => `\n      ${p}`).join('')}`

export function importSchedulesCommand(program: Command): void {
  program
    .command('import')
    .description('bring in what another tool kept')
    .command('schedules <file>')
    .description(
      "make on-call schedules and escalation policies from Opsgenie's or Grafana OnCall's API export (docs/on-call.md); what exists by name is left as it is",
    )
    .addOption(
      new Option('--from <tool>', 'the tool the export comes from').choices([...IMPORT_SOURCES]).makeOptionMandatory(),
    )
    .option('--dry-run', 'check and report, make nothing')
    .option(...ACCOUNT_OPTION)
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { from: ImportSource; dryRun?: boolean; account?: string; json?: boolean }) => {
      const exported = readExport(file)
      const outcome = await withServices(async (s) =>
        new OnCallImportService(
          new OnCallService(s.state.oncall, s.state.directory),
          escalationService(s.state),
          s.state.directory,
        ).run(await s.accounts.resolve(opts.account), opts.from, exported, {
          dryRun: opts.dryRun === true,
          now: Date.now(),
          by: `cli:import:${opts.from}`,
        }),
      )
      print(opts.json, outcome, () => [
        outcome.dryRun ? 'Dry run: nothing was made.' : `Imported from ${outcome.source}.`,
        `Schedules (${outcome.schedules.length}):`,
        ...outcome.schedules.map(itemLine),
        `Escalation policies (${outcome.policies.length}):`,
        ...outcome.policies.map(itemLine),
        `Carried over differently or left out (${outcome.report.length}):`,
        ...outcome.report.map((r) => `  ${r.at}: ${r.problem}`),
      ])
      // Something not imported: a script sees it.
      if ([...outcome.schedules, ...outcome.policies].some((i) => i.outcome === 'not imported')) process.exitCode = 1
    })
}
