// Tracking plans as code: `sluice plans pull|diff|push <file>` keeps an environment's plan in a YAML or JSON file of
// the user's repository (`version:` the version it was pulled at, `plan:` the plan), and `sluice plans propose <file>`
// writes a plan from what the catalogue saw. Push shows the differences, then saves the file's plan as the version
// after the file's (PlanService: checked and compiled as the API does); a plan changed since is refused (exit 2).
import { readFileSync, writeFileSync } from 'node:fs'
import type { Command } from 'commander'
import { parse, stringify } from 'yaml'
import { analysisSettings } from '../../app/container.js'
import { createDataHubService } from '../../services/datahub.js'
import { PlanService, type TrackingPlan } from '../../services/plans.js'
import { Refusal } from '../../shared/errors.js'
import type { Environment } from '../../state/redis/tenancy.js'
import { CliError, config, print, withAnalysis } from '../context.js'

/** What a plan file holds. */
export interface PlanFile {
  /** The version it was pulled at (0: the environment had none): a push saves the version after it. */
  readonly version: number
  readonly plan: TrackingPlan
}

const isJson = (path: string) => path.endsWith('.json')

export function readPlanFile(path: string): PlanFile {
  let doc: unknown
  try {
    const text = readFileSync(path, 'utf8')
    // YAML's merge keys and aliases are not a plan's: the file is read as plain data, at most 1,000 aliases deep.
    doc = isJson(path) ? JSON.parse(text) : parse(text, { merge: false, maxAliasCount: 1000 })
  } catch (err) {
    throw new CliError(`${path} could not be read: ${err instanceof Error ? err.message : String(err)}`)
  }
  const file = doc as Partial<PlanFile> | null
  if (!file || typeof file !== 'object' || !Number.isSafeInteger(file.version) || typeof file.plan !== 'object')
    throw new CliError(`${path} must hold "version" (the version it was pulled at) and "plan" (the tracking plan)`)
  return file as PlanFile
}

function writePlanFile(path: string, env: Environment, file: PlanFile): void {
  const text = isJson(path)
    ? `${JSON.stringify(file, null, 2)}\n`
    : `# The tracking plan of environment ${env.name} (${env.id}). \`sluice plans push\` saves it as the version after\n# \`version\`; \`sluice plans pull\` reads the plan now.\n${stringify(file)}`
  writeFileSync(path, text)
}

/** The leaves of a document by dotted path (an array is a leaf), for a diff a person reads. */
function leaves(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value)
    if (entries.length === 0 && path !== '') out.set(path, '{}')
    for (const [k, v] of entries) leaves(v, path === '' ? k : `${path}.${k}`, out)
  } else out.set(path, JSON.stringify(value))
  return out
}

/** What changes from `from` to `to`: `+ path: value`, `- path: value`, `~ path: old → new`, in path order. */
export function planDiff(from: TrackingPlan | undefined, to: TrackingPlan): string[] {
  const [a, b] = [leaves(from ?? {}), leaves(to)]
  const lines: string[] = []
  for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const [x, y] = [a.get(path), b.get(path)]
    if (x === y) continue
    if (x === undefined) lines.push(`+ ${path}: ${y}`)
    else if (y === undefined) lines.push(`- ${path}: ${x}`)
    else lines.push(`~ ${path}: ${x} → ${y}`)
  }
  return lines
}

function withPlans<T>(environment: string, use: (plans: PlanService, env: Environment) => Promise<T>): Promise<T> {
  return withAnalysis(environment, (s, clickhouse, env) =>
    use(new PlanService(s.state.plans, createDataHubService(clickhouse, analysisSettings(config()))), env),
  )
}

/** The plan now, or undefined when the environment has none. */
async function current(plans: PlanService, env: Environment) {
  try {
    return await plans.get(env)
  } catch (err) {
    if (err instanceof Refusal && err.code === 'NOT_FOUND') return undefined
    throw err
  }
}

export function planCommands(program: Command): void {
  const plans = program.command('plans').description("an environment's tracking plan, kept in a YAML or JSON file")
  const env = ['--environment <id>', 'environment id'] as const

  plans
    .command('pull <file>')
    .description('writes the plan now to the file (.json: JSON, else YAML), with its version')
    .requiredOption(...env)
    .action(async (path: string, opts: { environment: string }) => {
      await withPlans(opts.environment, async (service, e) => {
        const stored = await service.get(e)
        writePlanFile(path, e, { version: stored.version, plan: stored.plan })
        console.log(`pulled version ${stored.version} of the tracking plan of ${e.id} into ${path}`)
      })
    })

  plans
    .command('propose <file>')
    .description("writes a plan that what the environment's catalogue saw passes, to edit and push (nothing is saved)")
    .requiredOption(...env)
    .action(async (path: string, opts: { environment: string }) => {
      await withPlans(opts.environment, async (service, e) => {
        const proposal = await service.propose(e)
        const version = (await current(service, e))?.version ?? 0
        writePlanFile(path, e, { version, plan: proposal.plan })
        const types = Object.keys(proposal.plan.events).length
        console.log(
          `proposed a plan of ${types} event types${proposal.truncated ? ' (the 100 most received)' : ''} into ${path}`,
        )
      })
    })

  plans
    .command('diff <file>')
    .description("what pushing the file would change in the plan now, and whether the file's version is behind")
    .requiredOption(...env)
    .option('--json', 'print the changes as JSON')
    .action(async (path: string, opts: { environment: string; json?: boolean }) => {
      const file = readPlanFile(path)
      await withPlans(opts.environment, async (service, e) => {
        const now = await current(service, e)
        const changes = planDiff(now?.plan, file.plan)
        const behind = (now?.version ?? 0) !== file.version
        print(opts.json, { version: now?.version ?? 0, fileVersion: file.version, behind, changes }, () => [
          ...(behind ? [`the plan is at version ${now?.version ?? 0}, the file at ${file.version}: pull first`] : []),
          changes.length === 0 ? 'no changes' : `${changes.length} changes:`,
          ...changes,
        ])
      })
    })

  plans
    .command('push <file>')
    .description("shows the changes, then saves the file's plan as the version after the file's (refused if behind)")
    .requiredOption(...env)
    .action(async (path: string, opts: { environment: string }) => {
      const file = readPlanFile(path)
      await withPlans(opts.environment, async (service, e) => {
        const now = await current(service, e)
        const changes = planDiff(now?.plan, file.plan)
        console.log(changes.length === 0 ? 'no changes' : [`${changes.length} changes:`, ...changes].join('\n'))
        const saved = await service.save(e, file.plan, file.version, `cli:${process.env['USER'] ?? 'unknown'}`)
        // The file now names the version it holds, so the next push from it is not behind: a YAML file's version line
        // is changed (its comments and layout stay as the person wrote them), a JSON file is written again.
        const text = readFileSync(path, 'utf8')
        const line = /^version:[ \t]*\d+[ \t]*$/m
        if (!isJson(path) && line.test(text)) writeFileSync(path, text.replace(line, `version: ${saved.version}`))
        else writePlanFile(path, e, { version: saved.version, plan: file.plan })
        console.log(`saved version ${saved.version} of the tracking plan of ${e.id}`)
      })
    })
}
