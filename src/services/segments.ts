// Segments as a use case, whoever asks (the Split Admin API or `sluice segments`): the limits (keys
// per update and per segment), the workspace's "title and comment required" rule, the audit entry of
// every change, and what an unknown or inactive segment is refused with.
import { invalid, Refusal } from '../shared/errors.js'
import { isKeyText, MAX_KEY_LENGTH } from '../shared/text.js'
import {
  AUDIT_MAX_ENTRIES,
  type Actor,
  type AuditEntry,
  type Page,
  type Segment,
  type SegmentDefinition,
  type SegmentStore,
} from '../state/redis/segments.js'
import type { Environment, TenancyStore, TrafficType, Workspace } from '../state/redis/tenancy.js'

export const MAX_KEYS_PER_UPDATE = 10_000
export const MAX_KEYS_PER_SEGMENT = 100_000
export const SEGMENT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/
export const MAX_SEGMENT_TEXT = 1024

/** Audit texts of a change; a workspace may require them. */
export interface ChangeNote {
  readonly comment?: string | null
  readonly title?: string | null
}

type EnvRef = Pick<Environment, 'id' | 'name'>

/** A change of a segment's keys: who makes it, and its note (required by some workspaces). */
export type KeysChange = ChangeNote & { readonly actor: Actor }

export class SegmentService {
  constructor(
    private readonly store: TenancyStore,
    private readonly segments: SegmentStore,
  ) {}

  /** The segment of the workspace, or NOT_FOUND. */
  async get(ws: Workspace, name: string): Promise<Segment> {
    const segment = SEGMENT_NAME.test(name) ? await this.segments.get(ws.id, name) : undefined
    if (!segment) throw new Refusal('NOT_FOUND', `segment ${name} not found in workspace ${ws.id}`)
    return segment
  }

  /** The segment's definition in the environment, or NOT_FOUND saying it is not active there. */
  async definition(
    ws: Workspace,
    env: EnvRef,
    name: string,
  ): Promise<{ segment: Segment; definition: SegmentDefinition }> {
    const segment = await this.get(ws, name)
    const definition = await this.segments.definition(ws.id, env.id, segment.name)
    if (!definition) throw new Refusal('NOT_FOUND', `segment ${segment.name} is not active in environment ${env.name}`)
    return { segment, definition }
  }

  async create(
    ws: Workspace,
    input: { name: string; description?: string; trafficType: string },
    actor: Actor,
  ): Promise<Segment> {
    const trafficType = (await this.store.trafficTypes(ws.id)).find(
      (t: TrafficType) => t.name === input.trafficType || t.id === input.trafficType,
    )
    if (!trafficType)
      throw new Refusal('NOT_FOUND', `traffic type ${input.trafficType} not found in workspace ${ws.id}`)
    const segment: Segment = {
      name: input.name,
      description: input.description ?? '',
      trafficType: { id: trafficType.id, name: trafficType.name },
      workspaceId: ws.id,
      creationTime: Date.now(),
    }
    if (!(await this.segments.create(segment, audit(actor, 'create', null))))
      throw new Refusal('CONFLICT', `a segment named ${segment.name} already exists in workspace ${ws.id}`)
    return segment
  }

  list(ws: Workspace, offset: number, limit: number): Promise<Page<Segment>> {
    return this.segments.list(ws.id, offset, limit)
  }

  definitions(ws: Workspace, env: EnvRef, offset: number, limit: number): Promise<Page<SegmentDefinition>> {
    return this.segments.definitions(ws.id, env.id, offset, limit)
  }

  /**
   * Deletes the segment everywhere, unless it is active in an environment outside allowedEnvs (undefined: all allowed).
   */
  async delete(ws: Workspace, name: string, allowedEnvs: readonly string[] | undefined): Promise<void> {
    const segment = await this.get(ws, name)
    const outcome = await this.segments.delete(ws.id, segment.name, allowedEnvs)
    if (outcome === 'forbidden')
      throw new Refusal('FORBIDDEN', `segment ${segment.name} is active in environments this caller may not change`)
    if (outcome === 'missing') throw new Refusal('NOT_FOUND', `segment ${segment.name} not found in workspace ${ws.id}`)
  }

  async activate(
    ws: Workspace,
    env: EnvRef,
    name: string,
    actor: Actor,
  ): Promise<{ segment: Segment; definition: SegmentDefinition }> {
    const segment = await this.get(ws, name)
    const outcome = await this.segments.activate(ws.id, segment.name, env, Date.now(), audit(actor, 'activate', env))
    if (outcome === 'no-segment')
      throw new Refusal('NOT_FOUND', `segment ${segment.name} not found in workspace ${ws.id}`)
    if (outcome === 'active')
      throw new Refusal('CONFLICT', `segment ${segment.name} is already active in environment ${env.name}`)
    const definition = await this.segments.definition(ws.id, env.id, segment.name)
    if (!definition) throw new Refusal('CONFLICT', `segment ${segment.name} was deactivated while being activated`)
    return { segment, definition }
  }

  /** Deactivates in one environment; only once the segment has no keys there. */
  async deactivate(ws: Workspace, env: EnvRef, name: string, actor: Actor): Promise<void> {
    const segment = await this.get(ws, name)
    const outcome = await this.segments.deactivate(ws.id, env.id, segment.name, audit(actor, 'deactivate', env))
    if (!outcome.ok && outcome.reason === 'not-active')
      throw new Refusal('NOT_FOUND', `segment ${segment.name} is not active in environment ${env.name}`)
    if (!outcome.ok)
      throw new Refusal(
        'CONFLICT',
        `segment ${segment.name} still has ${outcome.keys} keys in environment ${env.name}; remove them before deactivating`,
      )
  }

  /**
   * Adds keys (or replaces all keys with them) in one atomic update of at most MAX_KEYS_PER_UPDATE
   * keys, unless the segment would then hold more than MAX_KEYS_PER_SEGMENT: then nothing changes.
   */
  async upload(
    ws: Workspace,
    env: EnvRef,
    name: string,
    keys: readonly string[],
    options: KeysChange & { replace: boolean },
  ): Promise<{ segment: Segment; definition: SegmentDefinition; added: number; total: number }> {
    const segment = await this.get(ws, name)
    checkKeys(keys, MAX_KEYS_PER_UPDATE)
    requireNote(ws, { comment: options.comment ?? null, title: options.title ?? null })
    const outcome = await this.segments.upload(ws.id, env.id, segment.name, [...new Set(keys)], {
      replace: options.replace,
      maxKeys: MAX_KEYS_PER_SEGMENT,
      audit: audit(options.actor, options.replace ? 'replace' : 'upload', env, options),
    })
    if (!outcome.ok && outcome.reason === 'not-active')
      throw new Refusal(
        'NOT_FOUND',
        `segment ${segment.name} is not active in environment ${env.name}; activate it first`,
      )
    if (!outcome.ok) throw overLimit(outcome.total)
    const definition = await this.segments.definition(ws.id, env.id, segment.name)
    if (!definition) throw new Refusal('NOT_FOUND', `segment ${segment.name} is not active in environment ${env.name}`)
    return { segment, definition, added: outcome.added, total: outcome.total }
  }

  /**
   * Uploads any number of keys (a key file). Adding: in atomic updates of MAX_KEYS_PER_UPDATE, the
   * total checked before anything is written (a concurrent writer can still make a later update
   * fail, and the updates before it stay). Replacing: the keys are staged and swapped in at once, so
   * a crash leaves the old keys.
   */
  async uploadAll(
    ws: Workspace,
    env: EnvRef,
    name: string,
    keys: readonly string[],
    options: KeysChange & { replace: boolean; onProgress?: (sent: number) => void },
  ): Promise<{ added: number; total: number }> {
    const { actor, onProgress = () => undefined } = options
    const { segment } = await this.definition(ws, env, name)
    checkKeys(keys, Infinity)
    requireNote(ws, { comment: options.comment ?? null, title: options.title ?? null })
    const distinct = [...new Set(keys)]
    const after = options.replace
      ? distinct.length
      : (await this.segments.keyCount(ws.id, env.id, segment.name)) +
        (distinct.length && (await this.segments.countMissing(ws.id, env.id, segment.name, distinct)))
    if (after > MAX_KEYS_PER_SEGMENT) throw overLimit(after)
    if (options.replace) {
      const outcome = await this.segments.replaceAll(ws.id, env.id, segment.name, distinct, {
        maxKeys: MAX_KEYS_PER_SEGMENT,
        audit: audit(actor, 'replace', env, options),
        onProgress,
      })
      if (!outcome.ok)
        throw outcome.reason === 'limit'
          ? overLimit(outcome.total)
          : new Refusal('CONFLICT', `segment ${segment.name} was deactivated during the upload`)
      return { added: outcome.added, total: outcome.total }
    }
    let added = 0
    let total = await this.segments.keyCount(ws.id, env.id, segment.name)
    for (let i = 0; i < distinct.length; i += MAX_KEYS_PER_UPDATE) {
      const chunk = distinct.slice(i, i + MAX_KEYS_PER_UPDATE)
      const outcome = await this.segments.upload(ws.id, env.id, segment.name, chunk, {
        maxKeys: MAX_KEYS_PER_SEGMENT,
        audit: audit(actor, 'upload', env, options),
      })
      if (!outcome.ok)
        throw outcome.reason === 'limit'
          ? overLimit(outcome.total, `stopped after ${i} keys`)
          : new Refusal('CONFLICT', `segment ${segment.name} was deactivated during the upload`)
      added += outcome.added
      total = outcome.total
      onProgress(i + chunk.length)
    }
    return { added, total }
  }

  async removeKeys(
    ws: Workspace,
    env: EnvRef,
    name: string,
    keys: readonly string[],
    note: KeysChange,
  ): Promise<{ removed: number; remaining: number }> {
    const segment = await this.get(ws, name)
    checkKeys(keys, MAX_KEYS_PER_UPDATE)
    requireNote(ws, { comment: note.comment ?? null })
    const result = await this.segments.removeKeys(
      ws.id,
      env.id,
      segment.name,
      [...new Set(keys)],
      audit(note.actor, 'removeKeys', env, note),
    )
    if (!result) throw new Refusal('NOT_FOUND', `segment ${segment.name} is not active in environment ${env.name}`)
    return result
  }

  /** A page of the segment's keys in the environment, in lexicographic order. */
  async keys(ws: Workspace, env: EnvRef, name: string, offset: number, limit: number): Promise<Page<string>> {
    const { segment } = await this.definition(ws, env, name)
    return this.segments.keys(ws.id, env.id, segment.name, offset, limit)
  }

  /**
   * The audit log, newest first. With `visibleEnvs`, only workspace-level entries and those of
   * these environments (a caller restricted to some environments).
   */
  async audit(
    ws: Workspace,
    name: string,
    offset: number,
    limit: number,
    visibleEnvs?: readonly string[],
  ): Promise<Page<AuditEntry>> {
    const segment = await this.get(ws, name)
    if (visibleEnvs === undefined) return this.segments.audit(ws.id, segment.name, offset, limit)
    const all = await this.segments.audit(ws.id, segment.name, 0, AUDIT_MAX_ENTRIES)
    const visible = all.objects.filter((e) => e.environment === null || visibleEnvs.includes(e.environment.id))
    return { objects: visible.slice(offset, offset + limit), totalCount: visible.length }
  }
}

/** A key file: one key per line, an optional `key` header, optional double quotes around a key. */
export function parseKeyFile(text: string): string[] {
  const keys: string[] = []
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    let key = line.trim()
    if (key === '' || (i === 0 && key.toLowerCase().replace(/^\ufeff/, '') === 'key')) continue
    if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) key = key.slice(1, -1).replaceAll('""', '"')
    keys.push(key)
  }
  return keys
}

function audit(who: Actor, action: AuditEntry['action'], env: EnvRef | null, note: ChangeNote = {}): AuditEntry {
  return {
    at: Date.now(),
    who,
    action,
    environment: env ? { id: env.id, name: env.name } : null,
    comment: note.comment ?? null,
    title: note.title ?? null,
  }
}

/** Keys must be well-formed text without control characters; at most `max` per call. */
function checkKeys(keys: readonly unknown[], max: number): void {
  if (keys.length > max) {
    throw new Refusal('INVALID', `at most ${max} keys per call; got ${keys.length}, nothing was applied`, [
      { field: 'keys', problem: `holds ${keys.length} keys; the limit per call is ${max}` },
    ])
  }
  const problems = keys.flatMap((k, i) =>
    isKeyText(k)
      ? []
      : [
          {
            field: `keys[${i}]`,
            problem: `must be a string of 1 to ${MAX_KEY_LENGTH} characters without control characters`,
          },
        ],
  )
  if (problems.length) throw invalid(problems, `${problems.length} invalid key(s), nothing was applied`)
}

function overLimit(total: number, lead = 'nothing was applied'): Refusal {
  return new Refusal(
    'INVALID',
    `a segment holds at most ${MAX_KEYS_PER_SEGMENT} keys per environment; this upload would make ${total}, ${lead}`,
    [{ field: 'keys', problem: `segment would hold ${total} keys; the limit is ${MAX_KEYS_PER_SEGMENT}` }],
  )
}

/** In a workspace that requires them, the given texts (comment, and title where the call has one) must be filled. */
function requireNote(ws: Workspace, texts: { comment: string | null; title?: string | null }): void {
  if (!ws.requiresTitleAndComments) return
  const missing = Object.entries(texts)
    .filter(([, v]) => !v?.trim())
    .map(([field]) => field)
  if (missing.length)
    throw new Refusal(
      'INVALID',
      `workspace ${ws.name} requires a title and a comment on every change`,
      missing.map((field) => ({ field, problem: 'is required in this workspace' })),
    )
}
