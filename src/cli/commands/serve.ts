// `sluice serve [--roles ...]`: the service process (main.ts).
import { InvalidArgumentError, type Command } from 'commander'
import { ROLES, type Role } from '../../app/roles.js'
import { serve } from '../../main.js'
import { config } from '../context.js'

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP edge, the admin APIs and the consumers (all roles by default)')
    .option('--roles <roles>', `comma-separated roles: ${ROLES.join(',')}`, (v) => {
      const roles = v.split(',').map((r) => r.trim())
      for (const r of roles)
        if (!(ROLES as readonly string[]).includes(r))
          throw new InvalidArgumentError(`unknown role "${r}"; roles are ${ROLES.join(', ')}`)
      return roles as Role[]
    })
    .action(async (opts: { roles?: Role[] }) => {
      await serve(config(), opts.roles ?? [...ROLES])
    })
}
