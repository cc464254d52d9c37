// What every `sluice` command shares: the configuration (read once), the services over one Redis
// connection (closed afterwards), output in text or JSON, and option parsers.
import { createClient, type ClickHouseClient } from '@clickhouse/client'
import { InvalidArgumentError } from 'commander'
import { ConfigError, loadConfig, type Config } from '../config/index.js'
import { Refusal } from '../shared/errors.js'
import type { Environment, Workspace } from '../state/redis/tenancy.js'
import { PlatformService } from '../services/platform.js'
import { AccountService } from '../services/accounts.js'
import { DirectoryService } from '../services/directory.js'
import { KeyService } from '../services/keys.js'
import { SegmentService } from '../services/segments.js'
import { createRedisState, type RedisStores } from '../state/redis/index.js'

/** A command's own refusal of its input (exit code 2, like a refused request). */
export class CliError extends Error {}

let loaded: Config | undefined

/** The configuration; a bad setting ends the process with exit code 78, naming it. */
export function config(): Config {
  if (loaded) return loaded
  try {
    loaded = loadConfig()
    return loaded
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`sluice: ${err.message}`)
      process.exit(78)
    }
    throw err
  }
}

export interface CliServices {
  readonly state: RedisStores
  readonly accounts: AccountService
  readonly keys: KeyService
  readonly access: PlatformService
  readonly segments: SegmentService
  readonly directory: DirectoryService
}

/** Runs fn with the services on a Redis connection of its own, closed afterwards. */
export async function withServices<T>(fn: (s: CliServices) => Promise<T>): Promise<T> {
  const cfg = config()
  // No command deadline: an operator's long upload may take its time, and Ctrl-C ends it.
  const state = createRedisState({
    url: cfg.redis.url,
    clusterNodes: cfg.redis.clusterNodes,
    keyPrefix: cfg.redis.keyPrefix,
  })
  try {
    return await fn({
      state,
      accounts: new AccountService(state),
      keys: new KeyService(state.tenancy),
      access: new PlatformService(state.platform, state.directory),
      segments: new SegmentService(state.tenancy, state.segments),
      directory: new DirectoryService(state.directory),
    })
  } finally {
    await state.close()
  }
}

/** Prints a result: JSON with --json, else one line per entry of `lines`. */
export function print(json: boolean | undefined, value: unknown, lines: () => string[]): void {
  console.log(json ? JSON.stringify(value) : lines().join('\n'))
}

export const positiveInt = (v: string): number => {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer')
  return n
}

export const collect = (v: string, all: string[] = []): string[] => [...all, v]

export const ACCOUNT_OPTION = [
  '--account <id>',
  'account (default: the demo account, if `sluice bootstrap` created it)',
] as const
export const WORKSPACE_OPTION = ['--workspace <id>', 'workspace (default: the demo workspace)'] as const

/** The command's services, a ClickHouse client for analysis queries, and the environment (NOT_FOUND if unknown). */
export async function withAnalysis<T>(
  envId: string,
  fn: (s: CliServices, clickhouse: ClickHouseClient, env: Environment, ws: Workspace) => Promise<T>,
): Promise<T> {
  const cfg = config()
  const clickhouse = createClient({
    url: cfg.clickhouse.url,
    username: cfg.clickhouse.user,
    password: cfg.clickhouse.password,
    request_timeout: cfg.experiments.queryTimeoutMs + 5000,
  })
  try {
    return await withServices(async (s: CliServices) => {
      const env = await s.state.tenancy.environment(envId)
      const ws = env && (await s.state.tenancy.workspace(env.workspaceId))
      if (!env || !ws) throw new Refusal('NOT_FOUND', `environment ${envId} not found`)
      return fn(s, clickhouse, env, ws)
    })
  } finally {
    await clickhouse.close()
  }
}
