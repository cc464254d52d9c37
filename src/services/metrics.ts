// Metric definitions as a use case, whoever asks (the metrics API or a test): the rules a definition
// must keep across its fields (which types take a value property, a cap, a denominator), the
// workspace's traffic types, unique names, a bound on metrics per workspace, and the audit entry.
import { randomUUID } from 'node:crypto'
import {
  FILTER_OPERATORS,
  METRIC_TYPES,
  QUANTILE_TYPES,
  type MetricType,
  type PropertyFilter,
} from '../analysis/queries.js'
import { EVENT_TYPE_ID } from '../pipeline/events.js'
import { invalid, Refusal, type FieldProblem } from '../shared/errors.js'
import type { Metric, MetricAuditEntry, MetricInput, MetricStore } from '../state/redis/metrics.js'
import type { Actor } from '../state/redis/segments.js'
import type { TenancyStore, Workspace } from '../state/redis/tenancy.js'

export const MAX_METRICS_PER_WORKSPACE = 1000
/**
 * Property names a metric may read. Properties are stored as compact JSON and read with ClickHouse's
 * visitParam functions, which match the name as written: names that JSON would escape are left out.
 */
export const PROPERTY_NAME = /^[A-Za-z0-9_$][A-Za-z0-9_$.:@/ -]{0,127}$/
export const MAX_METRIC_TEXT = 1024
const VALUE_TYPES: readonly MetricType[] = ['sum_per_key', 'average_per_key', ...QUANTILE_TYPES]

/** What a caller sends for a metric (create or replace). */
export interface MetricBody {
  readonly name: string
  readonly description?: string
  readonly trafficType: string
  readonly eventTypeId: string
  readonly type: string
  readonly valueProperty?: string | null
  readonly propertyFilter?: { property: string; operator: string; value: string | number | boolean } | null
  readonly cap?: number | null
  readonly capPercentile?: number | null
  readonly preExposureDays?: number | null
  readonly quantile?: number | null
  readonly guardrail?: boolean
  readonly desiredDirection: string
  readonly denominatorEventTypeId?: string | null
}

export class MetricService {
  constructor(
    private readonly store: TenancyStore,
    private readonly metrics: MetricStore,
  ) {}

  list(ws: Workspace): Promise<Metric[]> {
    return this.metrics.list(ws.id)
  }

  async get(ws: Workspace, id: string): Promise<Metric> {
    const metric = id.length <= 64 ? await this.metrics.get(ws.id, id) : undefined
    if (!metric) throw new Refusal('NOT_FOUND', `metric ${id.slice(0, 64)} not found in workspace ${ws.id}`)
    return metric
  }

  /** The metrics of these ids, in order; NOT_FOUND naming the first unknown one. */
  async many(ws: Workspace, ids: readonly string[]): Promise<Metric[]> {
    const found = await this.metrics.many(ws.id, ids)
    return found.map((m, i) => {
      if (!m)
        throw new Refusal('NOT_FOUND', `metric ${ids[i]!.slice(0, 64)} not found in workspace ${ws.id}`, [
          { field: 'metrics', problem: `names an unknown metric ${ids[i]!.slice(0, 64)}` },
        ])
      return m
    })
  }

  audit(ws: Workspace): Promise<MetricAuditEntry[]> {
    return this.metrics.audit(ws.id)
  }

  async create(ws: Workspace, body: MetricBody, actor: Actor): Promise<Metric> {
    const now = Date.now()
    const metric: Metric = {
      ...(await this.check(ws, body)),
      id: randomUUID(),
      workspaceId: ws.id,
      createdAt: now,
      updatedAt: now,
    }
    await this.write('create', metric, actor)
    return metric
  }

  async replace(ws: Workspace, id: string, body: MetricBody, actor: Actor): Promise<Metric> {
    const current = await this.get(ws, id)
    const metric: Metric = {
      ...(await this.check(ws, body)),
      id,
      workspaceId: ws.id,
      createdAt: current.createdAt,
      updatedAt: Date.now(),
    }
    await this.write('update', metric, actor)
    return metric
  }

  async delete(ws: Workspace, id: string, actor: Actor): Promise<void> {
    await this.write('delete', await this.get(ws, id), actor)
  }

  private async write(op: 'create' | 'update' | 'delete', metric: Metric, actor: Actor): Promise<void> {
    const outcome = await this.metrics.write(op, metric, actor, MAX_METRICS_PER_WORKSPACE)
    if (outcome === 'name-taken')
      throw new Refusal('CONFLICT', `workspace ${metric.workspaceId} already has a metric named ${metric.name}`, [
        { field: 'name', problem: 'is taken by another metric' },
      ])
    if (outcome === 'limit')
      throw new Refusal(
        'CONFLICT',
        `workspace ${metric.workspaceId} has ${MAX_METRICS_PER_WORKSPACE} metrics, the most it may have`,
      )
    if (outcome === 'missing')
      throw new Refusal('NOT_FOUND', `metric ${metric.id} not found in workspace ${metric.workspaceId}`)
    if (outcome === 'exists') throw new Refusal('CONFLICT', `metric ${metric.id} exists`)
  }

  /** The definition the body describes, or INVALID naming every field that breaks a rule. */
  private async check(ws: Workspace, body: MetricBody): Promise<MetricInput> {
    const problems: FieldProblem[] = []
    const bad = (field: string, problem: string) => problems.push({ field, problem })
    const name = body.name.trim()
    if (name === '' || name.length > 100 || /\p{Cc}/u.test(name))
      bad('name', 'must be 1 to 100 characters without control characters')
    if ((body.description ?? '').length > MAX_METRIC_TEXT)
      bad('description', `must be at most ${MAX_METRIC_TEXT} characters`)
    const type = body.type as MetricType
    if (!METRIC_TYPES.includes(type)) bad('type', `must be one of ${METRIC_TYPES.join(', ')}`)
    if (!EVENT_TYPE_ID.test(body.eventTypeId))
      bad('eventTypeId', 'must be an event type id as events carry it (1 to 80 letters, digits or - _ . :)')
    if (body.desiredDirection !== 'increase' && body.desiredDirection !== 'decrease')
      bad('desiredDirection', 'must be increase or decrease')
    const denominator = body.denominatorEventTypeId ?? null
    if (type === 'ratio_per_key') {
      if (denominator === null || !EVENT_TYPE_ID.test(denominator))
        bad('denominatorEventTypeId', 'is required for ratio_per_key: an event type id')
    } else if (denominator !== null) bad('denominatorEventTypeId', 'is only for ratio_per_key')
    const valueProperty = body.valueProperty ?? null
    if (valueProperty !== null) {
      if (!VALUE_TYPES.includes(type))
        bad('valueProperty', `is only for ${VALUE_TYPES.join(' and ')} (the others count events)`)
      else if (!PROPERTY_NAME.test(valueProperty)) bad('valueProperty', `must match ${PROPERTY_NAME.source}`)
    }
    const quantileMetric = QUANTILE_TYPES.includes(type)
    const quantile = body.quantile ?? null
    if (quantileMetric) {
      if (quantile === null)
        bad('quantile', `is required for ${type}: the quantile compared (0.99: the 99th percentile)`)
      else if (!(quantile > 0 && quantile < 1))
        bad('quantile', 'must be above 0 and below 1 (0.99: the 99th percentile)')
    } else if (quantile !== null) bad('quantile', `is only for ${QUANTILE_TYPES.join(' and ')}`)
    const cap = body.cap ?? null
    if (cap !== null) {
      if (type === 'percent_of_keys') bad('cap', 'does not apply to percent_of_keys')
      else if (quantileMetric) bad('cap', `does not apply to ${type} (a quantile needs no cap)`)
      else if (!Number.isFinite(cap) || cap <= 0) bad('cap', 'must be a positive number')
    }
    const capPercentile = body.capPercentile ?? null
    if (capPercentile !== null) {
      if (type === 'percent_of_keys' || quantileMetric) bad('capPercentile', `does not apply to ${type}`)
      else if (cap !== null) bad('capPercentile', 'and cap exclude each other: give one')
      else if (!(capPercentile >= 0.5 && capPercentile < 1))
        bad('capPercentile', 'must be a quantile from 0.5 to below 1 (0.99: the 99th percentile)')
    }
    const preExposureDays = body.preExposureDays ?? null
    if (
      preExposureDays !== null &&
      !(Number.isInteger(preExposureDays) && preExposureDays >= 1 && preExposureDays <= 90)
    )
      bad('preExposureDays', 'must be a whole number of days from 1 to 90')
    const filter = body.propertyFilter ?? null
    if (filter !== null) {
      if (!PROPERTY_NAME.test(filter.property)) bad('propertyFilter.property', `must match ${PROPERTY_NAME.source}`)
      if (!(FILTER_OPERATORS as readonly string[]).includes(filter.operator))
        bad('propertyFilter.operator', `must be one of ${FILTER_OPERATORS.join(', ')}`)
      if (typeof filter.value === 'boolean' && filter.operator !== 'equals' && filter.operator !== 'not_equals')
        bad('propertyFilter.value', 'a boolean can only be compared with equals or not_equals')
      if (typeof filter.value === 'number' && !Number.isFinite(filter.value))
        bad('propertyFilter.value', 'must be a finite number')
      if (typeof filter.value === 'string' && (filter.value.length > MAX_METRIC_TEXT || !filter.value.isWellFormed()))
        bad('propertyFilter.value', `must be well-formed text of at most ${MAX_METRIC_TEXT} characters`)
    }
    const trafficType = (await this.store.trafficTypes(ws.id)).find(
      (t) => t.name === body.trafficType || t.id === body.trafficType,
    )
    if (!trafficType) bad('trafficType', `names no traffic type of workspace ${ws.id}`)
    if (problems.length > 0) throw invalid(problems, 'invalid metric')
    return {
      name,
      description: body.description ?? '',
      trafficType: trafficType!.name,
      eventTypeId: body.eventTypeId,
      type,
      valueProperty,
      propertyFilter: filter as PropertyFilter | null,
      cap,
      capPercentile,
      preExposureDays,
      quantile,
      guardrail: body.guardrail === true,
      desiredDirection: body.desiredDirection as 'increase' | 'decrease',
      denominatorEventTypeId: denominator,
    }
  }
}
