// The two ClickHouse engines every statement of Sluice is proven on: the 18.16 server the suite
// runs (Debian's package, the oldest release Sluice supports), and a current ClickHouse (26.x), run
// in this test process by chDB (npm `chdb`: ClickHouse's engine as a library, from the registry;
// no 26.x server package can be installed on these machines). chDB plugs into @clickhouse/client
// (`createClient({ connection })`), so tests hand the same builders (migrate, the table sink, the
// analysis runner) a client of either engine. Tests that need both take the engine as a parameter:
// `describe.each(ENGINES)('... on %s', (engine) => ...)`.
//
// chDB keeps the settings of a query (sent as SET) on its connection: `client()` makes a new
// connection each time, one per settings profile (the sink's inserts, the analysis runner's
// read-only queries), as separate HTTP requests are on a server. One data directory per process.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client'
import { createChdbConnection } from 'chdb/connection'
import { expect, inject } from 'vitest'

export interface Engine {
  /** For test titles: "ClickHouse 18.16 server", "ClickHouse 26.x (chDB)". */
  readonly name: string
  /** Whether this is the current engine (chDB). */
  readonly current: boolean
  /** A new client of the engine (closed by `close()`). */
  client(options?: { quiet?: boolean }): ClickHouseClient
  /** Closes every client made, and removes the engine's data when it is the test's own. */
  close(): Promise<void>
}

function engine(name: string, current: boolean, connect: (quiet: boolean) => ClickHouseClient): Engine {
  const made: ClickHouseClient[] = []
  return {
    name,
    current,
    client: ({ quiet = false } = {}) => {
      const c = connect(quiet)
      made.push(c)
      return c
    },
    close: async () => {
      for (const c of made.splice(0)) await c.close()
    },
  }
}

const log = (quiet: boolean) => (quiet ? { log: { level: ClickHouseLogLevel.OFF } } : {})

/** The suite's ClickHouse server (18.16 on these machines; whatever CLICKHOUSE_URL names otherwise). */
export function serverEngine(): Engine {
  return engine('ClickHouse server', false, (quiet) =>
    createClient({ url: inject('services').clickhouseUrl, ...log(quiet) }),
  )
}

/** chDB binds one data directory per process: this test file's, removed when the process exits. */
let dataDir: string | undefined

/** ClickHouse 26.x in this process (chDB). */
export function currentEngine(): Engine {
  if (!dataDir) {
    const dir = (dataDir = mkdtempSync(join(tmpdir(), 'sluice-chdb-')))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  }
  const dir = dataDir
  return engine('ClickHouse 26.x (chDB)', true, (quiet) =>
    // chDB implements the Connection of its own copy of @clickhouse/client-common: the same contract, another type.
    createClient({ connection: oneAtATime(createChdbConnection({ path: dir })) as never, ...log(quiet) }),
  )
}

/** The end of the last statement given to the in-process engine, whichever connection it came from. */
let engineTurn: Promise<unknown> = Promise.resolve()

/**
 * A chDB connection whose statements wait for every earlier one of the process to end. Same-path chDB sessions run
 * in parallel in one embedded engine, and concurrent DDL through them (the migration tests' "processes at once")
 * hung past two minutes in about one full-suite run in three, never alone (chdb-node#51 stabilizes the same async
 * stress). In turns, the statements of several clients still interleave as those of processes do (what the races of
 * migrate() depend on); each runs alone in the engine, as a server's would under its own locks.
 */
function oneAtATime<C extends object>(connection: C): C {
  return new Proxy(connection, {
    // Its methods and getters read private fields: they run on the connection itself, never on the proxy.
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target)
      if (typeof value !== 'function') return value
      if (!['query', 'exec', 'command', 'insert'].includes(String(name)))
        return (value as (...a: unknown[]) => unknown).bind(target)
      return (...args: unknown[]) => {
        const run = engineTurn.then(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args))
        engineTurn = run.catch(() => undefined)
        return run
      }
    },
  })
}

/** Both engines, for `describe.each`; each is made when its block runs. */
export const ENGINES: readonly { readonly name: string; readonly make: () => Engine }[] = [
  { name: 'ClickHouse 18.16 server', make: serverEngine },
  { name: 'ClickHouse 26.x (chDB)', make: currentEngine },
]

/**
 * What one engine answered against what the other did: every integer, text and structure equal;
 * every other number equal to 1e-12 relative. The engines add values in different orders, and a
 * sum of doubles depends on the order in its last bits (measured on experiment results: at most
 * 5e-14 relative, with the compensated sums of analysis/queries.ts).
 */
export function expectSame(actual: unknown, expected: unknown, path = 'results'): void {
  if (typeof expected === 'number' && typeof actual === 'number' && !Number.isInteger(expected)) {
    if (Number.isNaN(expected) || !Number.isFinite(expected)) expect(actual, path).toBe(expected)
    else
      expect(Math.abs(actual - expected), `${path}: ${actual} against ${expected}`).toBeLessThanOrEqual(
        1e-12 * Math.max(Math.abs(expected), 1e-300),
      )
  } else if (expected !== null && typeof expected === 'object') {
    expect(actual !== null && typeof actual === 'object', path).toBe(true)
    expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort())
    for (const [k, v] of Object.entries(expected)) expectSame((actual as Record<string, unknown>)[k], v, `${path}.${k}`)
  } else expect(actual, path).toEqual(expected)
}
