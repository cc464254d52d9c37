// Every Lua script of the service, in one registry: its file under lua/ and its number of keys (null:
// the caller passes it first). A script file may start with `-- include: <file>.lua` lines, replaced
// by that file (the shared audit helper). Scripts are defined on a connection once (ioredis EVALSHA,
// falling back to EVAL), and called through the typed functions returned here, or queued on a
// pipeline with queueScript.
import { readFileSync } from 'node:fs'
import type { ChainableCommander } from 'ioredis'
import type { RedisClient } from './client.js'

const SCRIPTS = {
  segmentCreate: 3,
  segmentActivate: 5,
  segmentUpload: 4,
  segmentRemoveKeys: 4,
  segmentDeactivate: 5,
  segmentDelete: 4,
  segmentSwap: 5,
  userWrite: 5,
  userDelete: 7,
  groupWrite: 6,
  groupDelete: 5,
  identityPatch: 1,
  swapIfEqual: 1,
  metricWrite: 3,
  // Its number of keys varies (the integrations' streams of a run of messages): passed first.
  alertsWrite: null,
  alertsAct: 1,
  alertsAutoResolve: 1,
  alertsPrune: 1,
} as const satisfies Record<string, number | null>

export type ScriptName = keyof typeof SCRIPTS
export type ScriptArg = string | number
export type Scripts = Readonly<Record<ScriptName, (...args: ScriptArg[]) => Promise<unknown>>>

export const SCRIPT_NAMES = Object.keys(SCRIPTS) as ScriptName[]

const sources = new Map<ScriptName, string>()

/** The Lua source of a script, includes resolved. */
export function scriptSource(name: ScriptName): string {
  let source = sources.get(name)
  if (source === undefined) {
    const file = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
    source = readLua(`${file}.lua`).replace(/^-- include: ([a-z-]+\.lua)$/gm, (_, included: string) =>
      readLua(included),
    )
    sources.set(name, source)
  }
  return source
}

function readLua(file: string): string {
  return readFileSync(new URL(`./lua/${file}`, import.meta.url), 'utf8')
}

const commandName = (name: ScriptName) => `sluice_${name}`

/** Defines every script on the connection (once per connection) and returns callers bound to it. */
export function defineScripts(redis: RedisClient): Scripts {
  const commands = redis as unknown as Record<string, (...args: ScriptArg[]) => Promise<unknown>>
  for (const name of SCRIPT_NAMES) {
    if (!(commandName(name) in redis))
      redis.defineCommand(commandName(name), { numberOfKeys: SCRIPTS[name] ?? undefined, lua: scriptSource(name) })
  }
  return Object.fromEntries(
    SCRIPT_NAMES.map((name) => [name, (...args: ScriptArg[]) => commands[commandName(name)]!(...args)]),
  ) as unknown as Scripts
}

/** Queues a script on a pipeline or MULTI of a connection the scripts were defined on. */
export function queueScript(pipeline: ChainableCommander, name: ScriptName, ...args: ScriptArg[]): void {
  ;(pipeline as unknown as Record<string, (...a: ScriptArg[]) => unknown>)[commandName(name)]!(...args)
}
