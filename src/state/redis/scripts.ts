// Every Lua script of the service, in one registry: its file under lua/ and its number of keys (null:
// the caller passes it first). A script file may have `-- include: <file>.lua` lines, replaced by that
// file and its own includes (the shared audit helper, the alert lifecycle and its incidents), and an
// `-- args: <script>` line, replaced by the positions of the arguments ARGS_LAYOUTS declares for it (below).
// Scripts are defined on a connection once (ioredis EVALSHA, falling back to EVAL), and called through the
// typed functions returned here, or queued on a pipeline with queueScript.
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
  lockOwned: 1,
  erasureClaim: 1,
  metricWrite: 3,
  // Its number of keys varies (the integrations' streams of a run of messages): passed first.
  alertsWrite: null,
  alertsAct: 1,
  alertsAutoResolve: 1,
  alertsRelease: 1,
  alertsInhibitContinue: 1,
  alertsPrune: 1,
  incidentsAct: 1,
  incidentsMerge: 1,
  incidentsRemove: 1,
  notifyRoute: 2,
  notifyClaim: 1,
  notifySettle: 3,
  escalationStart: 1,
  escalationClaim: 1,
  escalationFire: 2,
  escalationMigrate: 1,
} as const satisfies Record<string, number | null>

export type ScriptName = keyof typeof SCRIPTS
export type ScriptArg = string | number
export type Scripts = Readonly<Record<ScriptName, (...args: ScriptArg[]) => Promise<unknown>>>

export const SCRIPT_NAMES = Object.keys(SCRIPTS) as ScriptName[]

/**
 * The arguments of a script whose ARGV is a header, then records of one shape (a record per message):
 * declared once, here. The caller builds its arguments from named fields (argsOf), and the script's
 * `-- args:` line becomes `H` (each header field's ARGV index), `R` (each record field's offset in a
 * record), `R_FIRST` and `R_SIZE`; `H.x` or `R.x` of a name not declared stops the script with an error.
 */
export const ARGS_LAYOUTS = {
  alertsWrite: {
    header: ['offsetField', 'maxLen', 'maxAgeMs', 'before', 'messages', 'prefix', 'samples', 'samplesTtlMs'],
    record: [
      'offset',
      'stream',
      'alerts',
      'rejections',
      'replay',
      'requestId',
      'receivedAtMs',
      'entries',
      'accountId',
      'integrationId',
      'emitRepeats',
      'autoResolveAfterMs',
      'dedupFallbacks',
      'unknownStatuses',
      'sample',
      'dropped',
    ],
  },
} as const satisfies Partial<Record<ScriptName, { header: readonly string[]; record: readonly string[] }>>

type Layouts = typeof ARGS_LAYOUTS
/** A script's header or record as named fields. */
export type ArgsOf<S extends keyof Layouts, P extends 'header' | 'record'> = Record<Layouts[S][P][number], ScriptArg>

/** A header's or a record's fields in the order the script reads them. */
export function argsOf<S extends keyof Layouts, P extends 'header' | 'record'>(
  script: S,
  part: P,
  fields: ArgsOf<S, P>,
): ScriptArg[] {
  return ARGS_LAYOUTS[script][part].map((name) => (fields as Record<string, ScriptArg>)[name]!)
}

/** The Lua that an `-- args:` line becomes: the layout's positions, guarded against undeclared names. */
function layoutLua(script: keyof Layouts): string {
  const { header, record } = ARGS_LAYOUTS[script]
  const table = (names: readonly string[], first: number) =>
    `{${names.map((n, i) => `${n} = ${first + i}`).join(', ')}}`
  const guard = (t: string, what: string) =>
    `setmetatable(${t}, {__index = function(_, k) error('${script}: no ${what} argument ' .. tostring(k)) end})`
  return [
    `local H = ${table(header, 1)}`,
    `local R = ${table(record, 0)}`,
    `local R_FIRST, R_SIZE = ${header.length + 1}, ${record.length}`,
    guard('H', 'header'),
    guard('R', 'record'),
  ].join('\n')
}

const sources = new Map<ScriptName, string>()

/** The Lua source of a script, includes resolved. */
export function scriptSource(name: ScriptName): string {
  let source = sources.get(name)
  if (source === undefined) {
    const file = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
    source = withIncludes(`${file}.lua`).replace(/^-- args: (\w+)$/gm, (_, script: string) => {
      if (!Object.hasOwn(ARGS_LAYOUTS, script)) throw new Error(`${file}.lua: no argument layout ${script}`)
      return layoutLua(script as keyof Layouts)
    })
    sources.set(name, source)
  }
  return source
}

/** A Lua file with its includes (and theirs) in place. */
function withIncludes(file: string, depth = 0): string {
  if (depth > 3) throw new Error(`${file}: includes nest too deep`)
  return readLua(file).replace(/^-- include: ([a-z-]+\.lua)$/gm, (_, included: string) =>
    withIncludes(included, depth + 1),
  )
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
