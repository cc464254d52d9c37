// Metric definitions of a workspace and their audit log. Each change is one Lua script (the definition,
// the name index and the audit entry together).
//
// Keys (prefix p):
//   p:metrics:<ws>        hash id -> definition JSON
//   p:metric-names:<ws>   hash name -> id (names are unique in a workspace)
//   p:metric-audit:<ws>   list of JSON audit entries, newest first, capped like the segments' log
import type { MetricSpec } from '../../analysis/queries.js'
import { RedisState } from './redis-state.js'
import type { Actor } from './segments.js'

export interface MetricInput extends MetricSpec {
  readonly name: string
  readonly description: string
  readonly desiredDirection: 'increase' | 'decrease'
  /** Must not get worse: evaluated one-sided and left out of the correction (absent in definitions before it). */
  readonly guardrail?: boolean
}

export interface Metric extends MetricInput {
  readonly id: string
  readonly workspaceId: string
  readonly createdAt: number
  readonly updatedAt: number
}

export interface MetricAuditEntry {
  readonly at: number
  readonly who: Actor
  readonly action: 'create' | 'update' | 'delete'
  readonly metricId: string
  readonly name: string
  /** The definition after the change (absent for a delete). */
  readonly definition?: Metric
}

export type MetricWriteOutcome = 'ok' | 'exists' | 'missing' | 'name-taken' | 'limit'

export class MetricStore extends RedisState {
  async list(ws: string): Promise<Metric[]> {
    const all = await this.redis.hvals(this.kw(ws, 'metrics', ws))
    return all
      .map((json) => JSON.parse(json) as Metric)
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
  }

  async get(ws: string, id: string): Promise<Metric | undefined> {
    const json = await this.redis.hget(this.kw(ws, 'metrics', ws), id)
    return json === null ? undefined : (JSON.parse(json) as Metric)
  }

  /** The definitions of these ids, in order; undefined for an unknown one. */
  async many(ws: string, ids: readonly string[]): Promise<(Metric | undefined)[]> {
    if (ids.length === 0) return []
    const all = await this.redis.hmget(this.kw(ws, 'metrics', ws), ...ids)
    return all.map((json) => (json === null ? undefined : (JSON.parse(json) as Metric)))
  }

  /**
   * Creates (op create), replaces (update) or deletes the metric, with its audit entry; `max` bounds a workspace's
   * metrics.
   */
  async write(
    op: 'create' | 'update' | 'delete',
    metric: Metric,
    who: Actor,
    max: number,
  ): Promise<MetricWriteOutcome> {
    const entry: MetricAuditEntry = {
      at: Date.now(),
      who,
      action: op,
      metricId: metric.id,
      name: metric.name,
      ...(op === 'delete' ? {} : { definition: metric }),
    }
    const ws = metric.workspaceId
    return (await this.scripts.metricWrite(
      this.kw(ws, 'metrics', ws),
      this.kw(ws, 'metric-names', ws),
      this.kw(ws, 'metric-audit', ws),
      op,
      metric.id,
      metric.name,
      JSON.stringify(metric),
      JSON.stringify(entry),
      max,
    )) as MetricWriteOutcome
  }

  /** The workspace's audit log, newest first. */
  async audit(ws: string): Promise<MetricAuditEntry[]> {
    return (await this.redis.lrange(this.kw(ws, 'metric-audit', ws), 0, -1)).map(
      (json) => JSON.parse(json) as MetricAuditEntry,
    )
  }
}
