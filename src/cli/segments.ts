// `sluice segments upload|export|audit`: large key sets straight to and from Redis, through the same
// SegmentStore (and so the same atomic scripts and limits) as the HTTP API.
import { createWriteStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { userInfo } from 'node:os'
import { once } from 'node:events'
import { Presets, SingleBar } from 'cli-progress'
import { MAX_KEYS_PER_SEGMENT, MAX_KEYS_PER_UPDATE, parseKeyFile } from '../admin/segments.route.js'
import { isKeyText, MAX_KEY_LENGTH } from '../edge/text.js'
import type { Actor, AuditEntry, SegmentStore } from '../state/segments.js'
import type { Environment, Store } from '../state/store.js'

export class CliError extends Error {}

const actor = (): Actor => ({ id: 'cli', name: `sluice CLI (${userInfo().username})` })

async function definitionOf(store: Store, segments: SegmentStore, envId: string, name: string): Promise<Environment> {
  const env = await store.environment(envId)
  if (!env) throw new CliError(`no environment ${envId}`)
  if (!(await segments.get(env.workspaceId, name))) throw new CliError(`no segment ${name} in workspace ${env.workspaceId}`)
  if (!(await segments.definition(env.id, name))) throw new CliError(`segment ${name} is not active in environment ${env.name} (${env.id})`)
  return env
}

/** Reads a key file: a JSON array of strings, or one key per line (CSV with an optional `key` header). */
export async function readKeyFile(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8')
  const keys: unknown = text.trimStart().startsWith('[') ? JSON.parse(text) : parseKeyFile(text)
  if (!Array.isArray(keys)) throw new CliError(`${file}: expected a JSON array of keys`)
  keys.forEach((k: unknown, i) => {
    if (!isKeyText(k)) throw new CliError(`${file}: key ${i + 1} must be a string of 1 to ${MAX_KEY_LENGTH} characters without control characters`)
  })
  return [...new Set(keys as string[])]
}

/**
 * Uploads a key file. Adding: in updates of at most 10,000 keys, each one atomic (the total is
 * checked before anything is written; a concurrent writer can still make a later update fail, and
 * the updates before it stay). Replacing: the keys are staged and swapped in at once, so a crash
 * leaves the old keys.
 */
export async function uploadSegmentKeys(
  store: Store,
  segments: SegmentStore,
  args: { envId: string; name: string; file: string; replace: boolean; comment?: string; title?: string; progress: boolean },
): Promise<{ sent: number; added: number; total: number }> {
  const env = await definitionOf(store, segments, args.envId, args.name)
  const keys = await readKeyFile(args.file)
  const after = args.replace ? keys.length : (await segments.keyCount(env.id, args.name)) + (keys.length && (await segments.countMissing(env.id, args.name, keys)))
  if (after > MAX_KEYS_PER_SEGMENT) throw new CliError(`the segment would hold ${after} keys after this upload; the limit is ${MAX_KEYS_PER_SEGMENT}. Nothing was written`)
  const bar = args.progress ? new SingleBar({ format: ' {bar} {percentage}% | {value}/{total} keys', etaBuffer: 10 }, Presets.shades_classic) : undefined
  bar?.start(keys.length, 0)
  let added = 0
  let total = 0
  const audit = (action: AuditEntry['action']): AuditEntry => ({ at: Date.now(), who: actor(), action, environment: { id: env.id, name: env.name }, comment: args.comment ?? null, title: args.title ?? null })
  try {
    if (args.replace) {
      const outcome = await segments.replaceAll(env.workspaceId, env.id, args.name, keys, MAX_KEYS_PER_SEGMENT, audit('replace'), (sent) => bar?.update(sent))
      if (!outcome.ok) throw new CliError(outcome.reason === 'limit' ? `the segment would hold ${outcome.total} keys; the limit is ${MAX_KEYS_PER_SEGMENT}` : `segment ${args.name} was deactivated during the upload`)
      return { sent: keys.length, added: outcome.added, total: outcome.total }
    }
    for (let i = 0; i < keys.length; i += MAX_KEYS_PER_UPDATE) {
      const chunk = keys.slice(i, i + MAX_KEYS_PER_UPDATE)
      const outcome = await segments.upload(env.workspaceId, env.id, args.name, chunk, false, MAX_KEYS_PER_SEGMENT, audit('upload'))
      if (!outcome.ok) {
        throw new CliError(outcome.reason === 'limit' ? `stopped after ${i} keys: the segment would hold ${outcome.total} keys; the limit is ${MAX_KEYS_PER_SEGMENT}` : `segment ${args.name} was deactivated during the upload`)
      }
      added += outcome.added
      total = outcome.total
      bar?.increment(chunk.length)
    }
  } finally {
    bar?.stop()
  }
  return { sent: keys.length, added, total }
}

/** Writes every key, one per line, to a file or stdout, reading 10,000 at a time. */
export async function exportSegmentKeys(store: Store, segments: SegmentStore, args: { envId: string; name: string; out?: string; progress: boolean }): Promise<number> {
  const env = await definitionOf(store, segments, args.envId, args.name)
  const out = args.out ? createWriteStream(args.out) : process.stdout
  const first = await segments.keys(env.id, args.name, 0, MAX_KEYS_PER_UPDATE)
  const bar = args.progress ? new SingleBar({ format: ' {bar} {percentage}% | {value}/{total} keys' }, Presets.shades_classic) : undefined
  bar?.start(first.totalCount, 0)
  let written = 0
  let page = first.objects
  while (page.length > 0) {
    if (!out.write(page.join('\n') + '\n')) await once(out, 'drain')
    written += page.length
    bar?.update(written)
    if (page.length < MAX_KEYS_PER_UPDATE) break
    page = (await segments.keys(env.id, args.name, written, MAX_KEYS_PER_UPDATE)).objects
  }
  bar?.stop()
  if (out !== process.stdout) {
    out.end()
    await once(out, 'finish')
  }
  return written
}

/** The audit log of a segment, given an environment or a workspace it belongs to. */
export async function segmentAudit(store: Store, segments: SegmentStore, args: { scope: string; name: string; limit: number }): Promise<AuditEntry[]> {
  const ws = (await store.environment(args.scope))?.workspaceId ?? (await store.workspace(args.scope))?.id
  if (!ws) throw new CliError(`no environment or workspace ${args.scope}`)
  if (!(await segments.get(ws, args.name))) throw new CliError(`no segment ${args.name} in workspace ${ws}`)
  return (await segments.audit(ws, args.name, 0, args.limit)).objects
}
