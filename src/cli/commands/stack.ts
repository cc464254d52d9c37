// `sluice stack up|down|status`: development tooling (apt, Maven, local processes). Loaded only when
// this command runs, and left out of the service image.
import type { Command } from 'commander'
import { CliError, config } from '../context.js'

export function stackCommands(program: Command): void {
  const stack = program.command('stack').description('local Kafka, ClickHouse and Redis on 127.0.0.1 (development)')
  const load = () =>
    import('../../stack/index.js').catch((err: unknown) => {
      // The service image leaves the development tooling out.
      if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') throw new CliError('`sluice stack` is development tooling and is not part of this installation')
      throw err
    })
  stack
    .command('up')
    .description('install what is missing, start what is not running, wait until all answer')
    .action(async () => {
      await (await load()).stackUp(config(), (line) => console.log(line))
    })
  stack
    .command('down')
    .description('stop the services that `stack up` started')
    .action(async () => {
      await (await load()).stackDown(config(), (line) => console.log(line))
    })
  stack
    .command('status')
    .description('show which services answer')
    .action(async () => {
      const statuses = await (await load()).stackStatus(config())
      for (const s of statuses) console.log(`${s.name.padEnd(10)} ${s.address.padEnd(16)} ${s.up ? 'up' : 'down'}${s.pid ? ` (pid ${s.pid}, started by sluice)` : ''}`)
      if (!statuses.every((s) => s.up)) process.exitCode = 1
    })
}
