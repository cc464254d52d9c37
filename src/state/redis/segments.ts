// Segments (workspace level), their definitions per environment, their keys and their audit log.
// Every change is one Lua script: Redis runs it alone and writes it to the AOF as one MULTI, so a
// crash never leaves half an upload, removal or delete. Each script checks everything before its
// first write (a script that fails part-way is not rolled back).
//
// Keys (prefix p; segment names never contain ':'; on a Redis Cluster p is followed by the
// workspace's hash tag {w:<ws>}, keys.ts, so a script's segment and environment keys share a slot):
//   p:segment:<ws>:<name>        hash {name, description, trafficTypeId, trafficTypeName, workspaceId,
//                                creationTime}
//   p:segments:<ws>              zset name by creation time (paging order)
//   p:segment-envs:<ws>:<name>   set of environment ids where the segment is active
//   p:segment-def:<env>:<name>   hash {name, workspaceId, environmentId, environmentName, status,
//                                creationTime, lastUpdateTime}
//   p:segment-defs:<env>         zset name by activation time
//   p:segment-keys:<env>:<name>  zset of keys, all scored 0: a stable lexicographic order for paging
//   p:segment-audit:<ws>:<name>  list of JSON audit entries, newest first, capped
//   p:segment-staging:<env>:<name>:<uuid>  keys of a large replace on their way in (expire in an hour)
import { randomUUID } from 'node:crypto'
import { RedisState } from './redis-state.js'

/** Entries kept in a segment's audit log (the LTRIM in lua/audit.lua). */
export const AUDIT_MAX_ENTRIES = 10_000

export interface Segment {
  readonly name: string
  readonly description: string
  readonly trafficType: { readonly id: string; readonly name: string }
  readonly workspaceId: string
  readonly creationTime: number
}

export interface SegmentDefinition {
  readonly name: string
  readonly workspaceId: string
  readonly environment: { readonly id: string; readonly name: string }
  readonly status: string
  readonly creationTime: number
  readonly lastUpdateTime: number
}

/** Who made a change: an API key (its public id and name), or an operator on the command line. */
export interface Actor {
  readonly id: string
  readonly name: string
}

export interface AuditEntry {
  readonly at: number
  readonly who: Actor
  readonly action: 'create' | 'activate' | 'upload' | 'replace' | 'removeKeys' | 'deactivate' | 'delete'
  readonly environment: { readonly id: string; readonly name: string } | null
  readonly comment: string | null
  readonly title: string | null
  /** Keys added (upload), in the segment after it (replace) or removed (removeKeys). */
  readonly count?: number
}

export type UploadOutcome =
  | { readonly ok: true; readonly total: number; readonly added: number }
  | { readonly ok: false; readonly reason: 'not-active' }
  | { readonly ok: false; readonly reason: 'limit'; readonly total: number }

export interface Page<T> {
  readonly objects: T[]
  readonly totalCount: number
}

/** How a change of a segment's keys is bounded and recorded. */
export interface KeyChange {
  /** The most keys the segment may hold after it (nothing changes otherwise). */
  readonly maxKeys: number
  readonly audit: AuditEntry
}

export class SegmentStore extends RedisState {
  /** Creates the segment; false when the workspace already has one of that name. */
  async create(segment: Segment, audit: AuditEntry): Promise<boolean> {
    const { name, workspaceId: ws } = segment
    const created = await this.scripts.segmentCreate(
      this.kw(ws, 'segment', ws, name),
      this.kw(ws, 'segments', ws),
      this.kw(ws, 'segment-audit', ws, name),
      name,
      segment.description,
      segment.trafficType.id,
      segment.trafficType.name,
      ws,
      segment.creationTime,
      JSON.stringify(audit),
    )
    return created === 1
  }

  async get(ws: string, name: string): Promise<Segment | undefined> {
    const h = await this.redis.hgetall(this.kw(ws, 'segment', ws, name))
    return h['name'] ? toSegment(h) : undefined
  }

  /** Segments of a workspace in creation order. */
  async list(ws: string, offset: number, limit: number): Promise<Page<Segment>> {
    const { names, total } = await this.range(this.kw(ws, 'segments', ws), offset, limit)
    const hashes = await this.hashes(
      names.map((name) => this.kw(ws, 'segment', ws, name)),
      'name',
    )
    return { objects: hashes.map(toSegment), totalCount: total }
  }

  /** Environments where the segment is active. */
  environmentsOf(ws: string, name: string): Promise<string[]> {
    return this.redis.smembers(this.kw(ws, 'segment-envs', ws, name))
  }

  /**
   * Deletes the segment with its definitions, keys and audit log in every environment, unless it is
   * active in an environment outside `allowedEnvs` (undefined: all allowed).
   */
  async delete(
    ws: string,
    name: string,
    allowedEnvs: readonly string[] | undefined,
  ): Promise<'ok' | 'missing' | 'forbidden'> {
    // An empty allow-list still restricts: pass an id no environment has.
    const allowed = allowedEnvs === undefined ? [] : ['-', ...allowedEnvs]
    return (await this.scripts.segmentDelete(
      this.kw(ws, 'segment', ws, name),
      this.kw(ws, 'segments', ws),
      this.kw(ws, 'segment-envs', ws, name),
      this.kw(ws, 'segment-audit', ws, name),
      this.kw(ws, ''),
      name,
      ...allowed,
    )) as 'ok' | 'missing' | 'forbidden'
  }

  /**
   * Replaces all keys with `keys` in one step, however many updates it takes to send them: they are
   * staged in a temporary set (expiring after an hour if the sender dies), then swapped in.
   */
  async replaceAll(
    ws: string,
    envId: string,
    name: string,
    keys: readonly string[],
    { maxKeys, audit, onProgress = () => undefined }: KeyChange & { onProgress?: (sent: number) => void },
  ): Promise<UploadOutcome> {
    const staging = this.kw(ws, 'segment-staging', envId, name, randomUUID())
    try {
      for (let i = 0; i < keys.length; i += 10_000) {
        const slice = keys.slice(i, i + 10_000)
        await this.redis
          .multi()
          .zadd(staging, ...slice.flatMap((k) => [0, k]))
          .expire(staging, 3600)
          .exec()
        onProgress(i + slice.length)
      }
      return uploadOutcome(
        await this.scripts.segmentSwap(
          this.kw(ws, 'segment', ws, name),
          this.kw(ws, 'segment-def', envId, name),
          this.kw(ws, 'segment-keys', envId, name),
          staging,
          this.kw(ws, 'segment-audit', ws, name),
          maxKeys,
          audit.at,
          JSON.stringify(audit),
        ),
      )
    } finally {
      await this.redis.del(staging)
    }
  }

  /** Activates the segment in an environment of its workspace. */
  async activate(
    ws: string,
    name: string,
    env: { id: string; name: string },
    now: number,
    audit: AuditEntry,
  ): Promise<'ok' | 'no-segment' | 'active'> {
    return (await this.scripts.segmentActivate(
      this.kw(ws, 'segment', ws, name),
      this.kw(ws, 'segment-def', env.id, name),
      this.kw(ws, 'segment-defs', env.id),
      this.kw(ws, 'segment-envs', ws, name),
      this.kw(ws, 'segment-audit', ws, name),
      name,
      ws,
      env.id,
      env.name,
      now,
      JSON.stringify(audit),
    )) as 'ok' | 'no-segment' | 'active'
  }

  async definition(ws: string, envId: string, name: string): Promise<SegmentDefinition | undefined> {
    const h = await this.redis.hgetall(this.kw(ws, 'segment-def', envId, name))
    return h['name'] ? toDefinition(h) : undefined
  }

  /** Segments active in an environment, in activation order. */
  async definitions(ws: string, envId: string, offset: number, limit: number): Promise<Page<SegmentDefinition>> {
    const { names, total } = await this.range(this.kw(ws, 'segment-defs', envId), offset, limit)
    const hashes = await this.hashes(
      names.map((name) => this.kw(ws, 'segment-def', envId, name)),
      'name',
    )
    return { objects: hashes.map(toDefinition), totalCount: total }
  }

  /**
   * Adds distinct keys (or replaces all keys with them) unless the segment would then hold more than
   * maxKeys; then nothing changes.
   */
  async upload(
    ws: string,
    envId: string,
    name: string,
    keys: readonly string[],
    { replace = false, maxKeys, audit }: KeyChange & { replace?: boolean },
  ): Promise<UploadOutcome> {
    return uploadOutcome(
      await this.scripts.segmentUpload(
        this.kw(ws, 'segment', ws, name),
        this.kw(ws, 'segment-def', envId, name),
        this.kw(ws, 'segment-keys', envId, name),
        this.kw(ws, 'segment-audit', ws, name),
        replace ? '1' : '0',
        maxKeys,
        audit.at,
        JSON.stringify(audit),
        ...keys,
      ),
    )
  }

  async removeKeys(
    ws: string,
    envId: string,
    name: string,
    keys: readonly string[],
    audit: AuditEntry,
  ): Promise<{ removed: number; remaining: number } | undefined> {
    const res = (await this.scripts.segmentRemoveKeys(
      this.kw(ws, 'segment', ws, name),
      this.kw(ws, 'segment-def', envId, name),
      this.kw(ws, 'segment-keys', envId, name),
      this.kw(ws, 'segment-audit', ws, name),
      audit.at,
      JSON.stringify(audit),
      ...keys,
    )) as [string, number?, number?]
    return res[0] === 'ok' ? { removed: res[1]!, remaining: res[2]! } : undefined
  }

  async deactivate(
    ws: string,
    envId: string,
    name: string,
    audit: AuditEntry,
  ): Promise<{ ok: true } | { ok: false; reason: 'not-active' } | { ok: false; reason: 'has-keys'; keys: number }> {
    const res = (await this.scripts.segmentDeactivate(
      this.kw(ws, 'segment-def', envId, name),
      this.kw(ws, 'segment-keys', envId, name),
      this.kw(ws, 'segment-defs', envId),
      this.kw(ws, 'segment-envs', ws, name),
      this.kw(ws, 'segment-audit', ws, name),
      name,
      envId,
      JSON.stringify(audit),
    )) as [string, number?]
    if (res[0] === 'ok') return { ok: true }
    if (res[0] === 'has-keys') return { ok: false, reason: 'has-keys', keys: res[1]! }
    return { ok: false, reason: 'not-active' }
  }

  /** How many of the keys the segment does not hold yet (read in slices of 10,000). */
  async countMissing(ws: string, envId: string, name: string, keys: readonly string[]): Promise<number> {
    let missing = 0
    for (let i = 0; i < keys.length; i += 10_000) {
      const scores = await this.redis.zmscore(this.kw(ws, 'segment-keys', envId, name), ...keys.slice(i, i + 10_000))
      missing += scores.filter((s) => s === null).length
    }
    return missing
  }

  keyCount(ws: string, envId: string, name: string): Promise<number> {
    return this.redis.zcard(this.kw(ws, 'segment-keys', envId, name))
  }

  /** A page of keys in lexicographic order, with the total, read together. */
  async keys(ws: string, envId: string, name: string, offset: number, limit: number): Promise<Page<string>> {
    const { names, total } = await this.range(this.kw(ws, 'segment-keys', envId, name), offset, limit)
    return { objects: names, totalCount: total }
  }

  async audit(ws: string, name: string, offset: number, limit: number): Promise<Page<AuditEntry>> {
    const key = this.kw(ws, 'segment-audit', ws, name)
    const res = await this.redis
      .multi()
      .llen(key)
      .lrange(key, offset, offset + limit - 1)
      .exec()
    const total = Number(res?.[0]?.[1] ?? 0)
    const entries = (res?.[1]?.[1] as string[] | undefined) ?? []
    return { objects: entries.map((e) => JSON.parse(e) as AuditEntry), totalCount: total }
  }

  private async range(key: string, offset: number, limit: number): Promise<{ names: string[]; total: number }> {
    const res = await this.redis
      .multi()
      .zcard(key)
      .zrange(key, offset, offset + limit - 1)
      .exec()
    return { total: Number(res?.[0]?.[1] ?? 0), names: (res?.[1]?.[1] as string[] | undefined) ?? [] }
  }
}

/** The answer of segmentUpload and segmentSwap: {'ok', total, added}, {'limit', total} or {'not-active'}. */
function uploadOutcome(raw: unknown): UploadOutcome {
  const res = raw as [string, number?, number?]
  if (res[0] === 'ok') return { ok: true, total: res[1]!, added: res[2]! }
  if (res[0] === 'limit') return { ok: false, reason: 'limit', total: res[1]! }
  return { ok: false, reason: 'not-active' }
}

function toSegment(h: Record<string, string>): Segment {
  return {
    name: h['name']!,
    description: h['description'] ?? '',
    trafficType: { id: h['trafficTypeId']!, name: h['trafficTypeName']! },
    workspaceId: h['workspaceId']!,
    creationTime: Number(h['creationTime']),
  }
}

function toDefinition(h: Record<string, string>): SegmentDefinition {
  return {
    name: h['name']!,
    workspaceId: h['workspaceId']!,
    environment: { id: h['environmentId']!, name: h['environmentName']! },
    status: h['status'] ?? 'ACTIVE',
    creationTime: Number(h['creationTime']),
    lastUpdateTime: Number(h['lastUpdateTime']),
  }
}
