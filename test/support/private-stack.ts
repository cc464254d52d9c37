// Private instances of Kafka, ClickHouse or Redis for fault tests: a test that pauses (SIGSTOP) or
// kills a service must not disturb the shared stack. They are started by `sluice stack` itself, on
// their own ports and data folder; the services not named keep pointing at the shared stack, which
// `stack up` finds answering and leaves alone.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from 'vitest'
import type { Role, RunningService } from '../../src/app/service.js'
import { loadConfig } from '../../src/config/index.js'
import { stackDown, stackUp } from '../../tools/stack/index.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createTestEnv, type TestEnv } from './harness.js'

export type ServiceName = 'kafka' | 'clickhouse' | 'redis'

export interface PrivateStack {
  /** Environment overrides that point a test env or a service at the private instances. */
  readonly env: Record<string, string>
  pid(name: ServiceName): number
  pause(name: ServiceName): void
  resume(name: ServiceName): void
  stop(): Promise<void>
}

/**
 * The first of the 100 ports this test worker may use for private instances and listeners of its own: a block per
 * worker (VITEST_POOL_ID 1, 2, 3, ... among the workers running at a time), so that a file's private instances never
 * answer on the ports of another file running at the same time, whatever the pools run side by side.
 */
export function privatePorts(): number {
  return 21000 + 100 * Number(process.env['VITEST_POOL_ID'] ?? 1)
}

/** Starts the named services privately, on ports base + (0 kafka, 10 clickhouse, 20 redis). */
export async function startPrivateStack(names: readonly ServiceName[], base = privatePorts()): Promise<PrivateStack> {
  const shared = inject('services')
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-private-'))
  const env: Record<string, string> = {
    KAFKA_BROKERS: names.includes('kafka') ? `127.0.0.1:${base}` : shared.kafkaBrokers,
    CLICKHOUSE_URL: names.includes('clickhouse') ? `http://127.0.0.1:${base + 10}` : shared.clickhouseUrl,
    REDIS_URL: names.includes('redis') ? `redis://127.0.0.1:${base + 20}` : shared.redisUrl,
  }
  const config = loadConfig({ ...env, SLUICE_DATA_DIR: dataDir })
  await stackUp(config, () => undefined)
  const pid = (name: ServiceName) => {
    if (!names.includes(name)) throw new Error(`${name} is not private here`)
    return Number(readFileSync(join(dataDir, name, 'pid'), 'utf8').trim())
  }
  return {
    env,
    pid,
    pause: (name) => process.kill(pid(name), 'SIGSTOP'),
    resume: (name) => process.kill(pid(name), 'SIGCONT'),
    stop: async () => {
      for (const name of names) {
        try {
          process.kill(pid(name), 'SIGCONT')
        } catch {
          // already gone
        }
      }
      await stackDown(config, () => undefined)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export interface FaultEnv {
  readonly stack: PrivateStack
  readonly t: TestEnv
  readonly demo: DemoAccount
  readonly service: RunningService
  close(): Promise<void>
}

/** A test env on private instances of the named services, with the demo account and a running service. */
export async function startFaultEnv(
  names: readonly ServiceName[],
  env: Record<string, string>,
  roles: readonly Role[],
): Promise<FaultEnv> {
  const stack = await startPrivateStack(names)
  const t = await createTestEnv({ ...stack.env, ...env })
  const demo = await t.bootstrap()
  const service = await t.start(roles)
  return {
    stack,
    t,
    demo,
    service,
    close: async () => {
      await t.close()
      await stack.stop()
    },
  }
}
