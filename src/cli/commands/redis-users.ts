// `sluice redis-users`: the least-privilege Redis users of the service and of alert readers.
import type { Command } from 'commander'
import {
  ALERTS_READER_USER,
  applyAclUsers,
  generatePasswords,
  SERVICE_USER,
  setUserCommands,
} from '../../state/redis/acl.js'
import { config } from '../context.js'

export function redisUsersCommand(program: Command): void {
  program
    .command('redis-users')
    .description(
      `the Redis users ${SERVICE_USER} (the service: its own keys, no admin commands) and ${ALERTS_READER_USER} (read and acknowledge alert streams only)`,
    )
    .option(
      '--apply',
      'create or reset both users on REDIS_URL (which must allow ACL SETUSER), or on every node of REDIS_CLUSTER_NODES (ACLs are per node), instead of printing the commands',
    )
    .option('--service-password <password>', 'default: generated')
    .option('--reader-password <password>', 'default: generated')
    .action(async (opts: { apply?: boolean; servicePassword?: string; readerPassword?: string }) => {
      const cfg = config()
      const generated = generatePasswords()
      const passwords = {
        [SERVICE_USER]: opts.servicePassword ?? generated[SERVICE_USER],
        [ALERTS_READER_USER]: opts.readerPassword ?? generated[ALERTS_READER_USER],
      }
      const nodes = cfg.redis.clusterNodes
      const cluster = nodes.length > 0
      if (opts.apply) {
        // On a cluster, each listed node (list them all: a node not listed keeps its users).
        for (const target of cluster
          ? nodes.map((node) => Object.assign(new URL(cfg.redis.url), { host: node }).toString())
          : [cfg.redis.url]) {
          await applyAclUsers(target, cfg.redis.keyPrefix, passwords, cluster)
        }
      } else
        for (const args of setUserCommands(cfg.redis.keyPrefix, passwords, cluster))
          console.log(`ACL SETUSER ${args.join(' ')}`)
      const url = new URL(cfg.redis.url)
      for (const [user, password] of Object.entries(passwords)) {
        url.username = user
        url.password = password
        console.error(`${user}: ${url.toString()}`)
      }
    })
}
