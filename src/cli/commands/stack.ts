// `sluice stack up|down|status [--cluster]`: development tooling (apt, Maven, local processes) in
// tools/stack, outside the service, built into dist/tools/stack (scripts/build-tools.mjs). Loaded only
// when this command runs; an installation without it (the service image) says so.
import type { Command } from 'commander'
import type { Config } from '../../config/index.js'
import { CliError, config } from '../context.js'

/** What tools/stack answers for each of its services (test/unit/cli/stack.test.ts checks the tooling against it). */
export interface StackStatus {
  readonly name: string
  readonly address: string
  readonly up: boolean
  readonly pid?: number | undefined
}
type Say = (line: string) => void
/** The tooling as this command uses it. */
export interface StackTool {
  stackUp(config: Config, say: Say): Promise<readonly string[]>
  stackDown(config: Config, say: Say): Promise<void>
  stackStatus(config: Config): Promise<StackStatus[]>
}
export interface ClusterTool {
  clusterUp(config: Config, say: Say): Promise<readonly string[]>
  clusterDown(config: Config, say: Say): Promise<void>
  clusterStatus(config: Config): Promise<StackStatus[]>
}

interface StackOptions {
  readonly cluster?: boolean
}

const CLUSTER_OPTION = [
  '--cluster',
  'the cluster stack instead: ZooKeeper, ClickHouse 2 shards x 2 replicas, Redis Cluster of 6, 3 Kafka brokers (other ports)',
] as const

export function stackCommands(program: Command): void {
  const stack = program.command('stack').description('local Kafka, ClickHouse and Redis on 127.0.0.1 (development)')
  const load = <T>(module: () => Promise<T>): Promise<T> =>
    module().catch((err: unknown) => {
      // The service image leaves the development tooling out.
      if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
        throw new CliError('`sluice stack` is development tooling and is not part of this installation')
      throw err
    })
  // Relative to this file's build (dist/cli/commands): the tooling's build, dist/tools/stack.
  const tool = (file: string) => import(new URL(`../../tools/stack/${file}`, import.meta.url).href)
  const single = () => load(() => tool('index.js') as Promise<StackTool>)
  const cluster = () => load(() => tool('cluster.js') as Promise<ClusterTool>)
  const say = (line: string) => console.log(line)
  stack
    .command('up')
    .description('install what is missing, start what is not running, wait until all answer')
    .option(...CLUSTER_OPTION)
    .action(async (options: StackOptions) => {
      if (options.cluster) await (await cluster()).clusterUp(config(), say)
      else await (await single()).stackUp(config(), say)
    })
  stack
    .command('down')
    .description('stop the services that `stack up` started')
    .option(...CLUSTER_OPTION)
    .action(async (options: StackOptions) => {
      if (options.cluster) await (await cluster()).clusterDown(config(), say)
      else await (await single()).stackDown(config(), say)
    })
  stack
    .command('status')
    .description('show which services answer')
    .option(...CLUSTER_OPTION)
    .action(async (options: StackOptions) => {
      const statuses = options.cluster
        ? await (await cluster()).clusterStatus(config())
        : await (await single()).stackStatus(config())
      const width = Math.max(10, ...statuses.map((s) => s.name.length + 1))
      for (const s of statuses)
        console.log(
          `${s.name.padEnd(width)} ${s.address.padEnd(16)} ${s.up ? 'up' : 'down'}${s.pid ? ` (pid ${s.pid}, started by sluice)` : ''}`,
        )
      if (!statuses.every((s) => s.up)) process.exitCode = 1
    })
}
