// `sluice segments upload|export|audit`: large key sets straight to and from Redis, through the same
// service (limits, the workspace's title and comment rule, atomic updates) as the Split Admin API.
import { createWriteStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { once } from 'node:events'
import { userInfo } from 'node:os'
import { Presets, SingleBar } from 'cli-progress'
import type { Command } from 'commander'
import { MAX_KEYS_PER_UPDATE, parseKeyFile } from '../../services/segments.js'
import type { Actor } from '../../state/redis/segments.js'
import type { Environment, Workspace } from '../../state/redis/tenancy.js'
import { CliError, positiveInt, print, withServices, type CliServices } from '../context.js'

const actor = (): Actor => ({ id: 'cli', name: `sluice CLI (${userInfo().username})` })

async function target(s: CliServices, envId: string): Promise<{ env: Environment; ws: Workspace }> {
  const env = await s.state.tenancy.environment(envId)
  const ws = env && (await s.state.tenancy.workspace(env.workspaceId))
  if (!env || !ws) throw new CliError(`no environment ${envId}`)
  return { env, ws }
}

/** Reads a key file: a JSON array of strings, or one key per line (CSV with an optional `key` header). */
async function readKeyFile(file: string): Promise<unknown[]> {
  const text = await readFile(file, 'utf8')
  const keys: unknown = text.trimStart().startsWith('[') ? JSON.parse(text) : parseKeyFile(text)
  if (!Array.isArray(keys)) throw new CliError(`${file}: expected a JSON array of keys`)
  return keys as unknown[]
}

export function segmentCommands(program: Command): void {
  const segments = program.command('segments').description('segment keys in bulk, and the audit log')
  segments
    .command('upload <environment> <segment> <file>')
    .description('add the keys of a file (one per line, or a JSON array) in atomic updates of 10,000')
    .option('--replace', 'replace the keys: staged, then swapped in at once')
    .option('--comment <text>', 'comment for the audit log')
    .option('--title <text>', 'title for the audit log')
    .option('--json', 'print the summary as JSON')
    .action(
      async (
        envId: string,
        name: string,
        file: string,
        opts: { replace?: boolean; comment?: string; title?: string; json?: boolean },
      ) => {
        const keys = await readKeyFile(file)
        const summary = await withServices(async (s) => {
          const { env, ws } = await target(s, envId)
          const bar =
            !opts.json && process.stderr.isTTY
              ? new SingleBar(
                  { format: ' {bar} {percentage}% | {value}/{total} keys', etaBuffer: 10 },
                  Presets.shades_classic,
                )
              : undefined
          bar?.start(keys.length, 0)
          try {
            const result = await s.segments.uploadAll(ws, env, name, keys as string[], {
              replace: opts.replace === true,
              comment: opts.comment,
              title: opts.title,
              actor: actor(),
              onProgress: (sent) => bar?.update(sent),
            })
            return { sent: keys.length, ...result }
          } finally {
            bar?.stop()
          }
        })
        print(opts.json, summary, () => [
          `keys in file: ${summary.sent}`,
          `keys added:   ${summary.added}`,
          `keys now:     ${summary.total}`,
        ])
      },
    )
  segments
    .command('export <environment> <segment>')
    .description('write every key of the segment, one per line')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (envId: string, name: string, opts: { out?: string }) => {
      const n = await withServices(async (s) => {
        const { env, ws } = await target(s, envId)
        const out = opts.out ? createWriteStream(opts.out) : process.stdout
        const first = await s.segments.keys(ws, env, name, 0, MAX_KEYS_PER_UPDATE)
        const bar =
          opts.out !== undefined && process.stderr.isTTY
            ? new SingleBar({ format: ' {bar} {percentage}% | {value}/{total} keys' }, Presets.shades_classic)
            : undefined
        bar?.start(first.totalCount, 0)
        let written = 0
        let page = first.objects
        while (page.length > 0) {
          if (!out.write(page.join('\n') + '\n')) await once(out, 'drain')
          written += page.length
          bar?.update(written)
          if (page.length < MAX_KEYS_PER_UPDATE) break
          page = (await s.segments.keys(ws, env, name, written, MAX_KEYS_PER_UPDATE)).objects
        }
        bar?.stop()
        if (out !== process.stdout) {
          out.end()
          await once(out, 'finish')
        }
        return written
      })
      if (opts.out) console.error(`${n} keys written to ${opts.out}`)
    })
  segments
    .command('audit <environmentOrWorkspace> <segment>')
    .description('who changed the segment, when, what and why (newest first)')
    .option('--limit <n>', 'entries to show', positiveInt, 50)
    .option('--json', 'print JSON')
    .action(async (scope: string, name: string, opts: { limit: number; json?: boolean }) => {
      const entries = await withServices(async (s) => {
        const wsId = (await s.state.tenancy.environment(scope))?.workspaceId ?? scope
        const ws = await s.state.tenancy.workspace(wsId)
        if (!ws) throw new CliError(`no environment or workspace ${scope}`)
        return (await s.segments.audit(ws, name, 0, opts.limit)).objects
      })
      print(opts.json, entries, () =>
        entries.map((e) =>
          [
            new Date(e.at).toISOString(),
            e.action.padEnd(10),
            e.environment?.name ?? '-',
            e.count === undefined ? '' : `${e.count} keys`,
            `by ${e.who.name} (${e.who.id})`,
            e.title ? `"${e.title}"` : '',
            e.comment ? `- ${e.comment}` : '',
          ]
            .filter(Boolean)
            .join('  '),
        ),
      )
    })
}
