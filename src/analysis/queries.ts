// The SQL of experiment results, over the tables the events role writes. Every caller value is a
// parameter (sql.ts); table names come from the configuration. What runs where:
//   exposures  one row per key that saw the flag in the environment within [from, to] (the rule's
//              impressions only, when a rule is given): its first impression's time, its treatment, and
//              how many treatments its impressions in the window showed (all rules);
//   per key    its events of the metrics' traffic types and event types from 15 minutes before its
//              first impression to 15 minutes after `to`, aggregated per metric (counts, sums);
//   per treatment  keys, Σx and Σx² of each metric's per-key value (keys with events; the others
//              are 0 in count, sum and percent metrics and absent from the rest).
// Sums of values are compensated (sumKahan, 18.16 on): Σx² of millions of keys keeps its precision,
// and depends far less on the order the engine adds in (18.16 and 26.x add in different orders: with
// plain sums most statistics of a test experiment differed from the 13th digit on, with compensated
// ones a few differ, by at most 5e-14 relative).
// The t-tests, intervals and adjustments are computed from those sums in statistics.ts.
import { Params, type Query } from './sql.js'

export const ATTRIBUTION_MS = 15 * 60 * 1000

export const METRIC_TYPES = [
  'count_per_key',
  'sum_per_key',
  'average_per_key',
  'ratio_per_key',
  'percent_of_keys',
] as const
export type MetricType = (typeof METRIC_TYPES)[number]
export const FILTER_OPERATORS = ['equals', 'not_equals', 'greater_than', 'less_than'] as const
export type FilterOperator = (typeof FILTER_OPERATORS)[number]

export interface PropertyFilter {
  readonly property: string
  readonly operator: FilterOperator
  readonly value: string | number | boolean
}

/** What a query needs of a metric definition. */
export interface MetricSpec {
  readonly type: MetricType
  readonly trafficType: string
  readonly eventTypeId: string
  readonly denominatorEventTypeId?: string | null
  readonly valueProperty?: string | null
  readonly propertyFilter?: PropertyFilter | null
  readonly cap?: number | null
}

export interface Window {
  readonly environmentId: string
  readonly flag: string
  /** Epoch ms, inclusive. */
  readonly from: number
  readonly to: number
  readonly rule?: string | undefined
}

export interface Tables {
  readonly events: string
  readonly impressions: string
}

/**
 * One row per treatment of the exposed keys ('' for the keys excluded for showing more than one):
 * keys, and per metric i n{i} (keys counted), s{i} (Σx) and q{i} (Σx²). One statement, so the key
 * counts and the sums come from the same impressions. Keys without attributed events are 0 in count,
 * sum and percent metrics (counted in n{i}) and absent from average and ratio ones. Each event's part
 * in each metric is worked out before the join, so only numbers travel through it.
 */
export function metricsQuery(tables: Tables, w: Window, metrics: readonly MetricSpec[]): Query {
  const p = new Params()
  const eventColumns: string[] = []
  const perKey: string[] = []
  const outer: string[] = []
  metrics.forEach((m, i) => {
    const { columns, x, counted } = metricSql(p, m, i)
    eventColumns.push(...columns)
    perKey.push(`${x} AS x${i}`, `${counted} AS k${i}`)
    outer.push(
      `countIf(${counted === '1' ? '1' : `k${i} = 1`}) AS n${i}`,
      `sumKahanIf(x${i}, k${i} = 1) AS s${i}`,
      `sumKahanIf(x${i} * x${i}, k${i} = 1) AS q${i}`,
    )
  })
  const trafficTypes = [...new Set(metrics.map((m) => m.trafficType))]
  const eventTypes = [
    ...new Set(
      metrics.flatMap((m) => [m.eventTypeId, ...(m.denominatorEventTypeId ? [m.denominatorEventTypeId] : [])]),
    ),
  ]
  const lo = w.from - ATTRIBUTION_MS
  const hi = w.to + ATTRIBUTION_MS
  const events = `SELECT key, timestamp_ms, ${eventColumns.join(', ')}
    FROM ${tables.events}
    WHERE environment_id = ${p.string(w.environmentId)}
      AND event_type IN ${p.strings(eventTypes)}
      AND traffic_type IN ${p.strings(trafficTypes)}
      AND timestamp BETWEEN toDateTime(${p.int(Math.floor(lo / 1000))}) AND toDateTime(${p.int(Math.ceil(hi / 1000))})
      AND timestamp_ms BETWEEN ${p.int(lo)} AND ${p.int(hi)}`
  // Every joined subquery has an alias: current releases refuse one without (joined_subquery_requires_alias, from
  // 20.3).
  const keyed = `SELECT key, ${perKey.join(', ')}
       FROM (${events}) AS e
       ALL INNER JOIN (${exposuresSql(p, tables, w, true)}) AS eligible USING key
       WHERE timestamp_ms >= first_ms - ${ATTRIBUTION_MS}
       GROUP BY key`
  return p.query(
    'the experiment results query',
    `SELECT if(treatments = 1, exposed, '') AS treatment, count() AS keys, ${outer.join(', ')}
     FROM (${exposuresSql(p, tables, w)}) AS exposed_keys
     ANY LEFT JOIN (${keyed}) AS keyed USING key
     GROUP BY treatment
     ORDER BY treatment`,
  )
}

/**
 * The flags with impressions in the environment within [from, to], their treatments and about how many keys (at most
 * `limit`, a constant of the service: LIMIT takes no expression on 18.16).
 */
export function experimentsQuery(
  tables: Tables,
  environmentId: string,
  from: number,
  to: number,
  limit: number,
): Query {
  const p = new Params()
  return p.query(
    'the query of flags with impressions',
    `SELECT flag, arraySlice(groupUniqArray(treatment), 1, 50) AS treatments, uniq(key) AS keys, count() AS impressions,
            min(time_ms) AS firstImpressionMs, max(time_ms) AS lastImpressionMs
     FROM ${tables.impressions}
     WHERE ${windowWhere(p, environmentId, from, to)}
     GROUP BY flag
     ORDER BY flag
     LIMIT ${Math.trunc(limit)}`,
  )
}

function windowWhere(p: Params, environmentId: string, from: number, to: number): string {
  return `environment_id = ${p.string(environmentId)}
       AND time BETWEEN toDateTime(${p.int(Math.floor(from / 1000))}) AND toDateTime(${p.int(Math.ceil(to / 1000))})
       AND time_ms BETWEEN ${p.int(from)} AND ${p.int(to)}`
}

/**
 * Each key that saw the flag: first impression (of the rule, when given), treatment, and the number
 * of treatments its impressions in the window showed. With `eligibleOnly`, keys of one treatment.
 */
function exposuresSql(p: Params, tables: Tables, w: Window, eligibleOnly = false): string {
  const where = `${windowWhere(p, w.environmentId, w.from, w.to)} AND flag = ${p.string(w.flag)}`
  const rule = w.rule === undefined ? undefined : p.string(w.rule)
  const first = rule === undefined ? 'min(time_ms)' : `minIf(time_ms, label = ${rule})`
  const having = [
    ...(rule === undefined ? [] : [`countIf(label = ${rule}) > 0`]),
    ...(eligibleOnly ? ['treatments = 1'] : []),
  ]
  return `SELECT key, any(treatment) AS exposed, ${first} AS first_ms, uniqExact(treatment) AS treatments
      FROM ${tables.impressions}
      WHERE ${where}
      GROUP BY key
      ${having.length > 0 ? `HAVING ${having.join(' AND ')}` : ''}`
}

/**
 * Metric i in SQL: the columns each event gets (c{i}: it counts; v{i}: its value, 0 without one;
 * a{i}: it has a value; d{i}: it counts in the denominator), then a key's value x from their sums and
 * whether the key counts for the metric.
 */
function metricSql(p: Params, m: MetricSpec, i: number): { columns: string[]; x: string; counted: string } {
  const filter = m.propertyFilter ? ` AND ${filterSql(p, m.propertyFilter)}` : ''
  const of = (eventType: string) =>
    `traffic_type = ${p.string(m.trafficType)} AND event_type = ${p.string(eventType)}${filter}`
  const counts = `(${of(m.eventTypeId)}) AS c${i}`
  const capped = (x: string) =>
    m.cap === undefined || m.cap === null ? `toFloat64(${x})` : `least(toFloat64(${x}), ${p.float(m.cap)})`
  const valued = () => {
    const value = m.valueProperty
      ? `visitParamExtractFloat(properties, ${p.string(m.valueProperty)})`
      : 'assumeNotNull(value)'
    const hasValue = m.valueProperty ? isNumberSql(p, m.valueProperty) : 'isNotNull(value)'
    return [`(${of(m.eventTypeId)} AND ${hasValue}) AS a${i}`, `if(a${i}, toFloat64(${value}), 0) AS v${i}`]
  }
  switch (m.type) {
    case 'count_per_key':
      return { columns: [counts], x: capped(`sum(c${i})`), counted: '1' }
    case 'percent_of_keys':
      return { columns: [counts], x: `toFloat64(sum(c${i}) > 0)`, counted: '1' }
    case 'sum_per_key':
      return { columns: valued(), x: capped(`sumKahan(v${i})`), counted: '1' }
    case 'average_per_key':
      return {
        columns: valued(),
        x: capped(`if(sum(a${i}) = 0, 0, sumKahan(v${i}) / sum(a${i}))`),
        counted: `toUInt8(sum(a${i}) > 0)`,
      }
    case 'ratio_per_key':
      return {
        columns: [counts, `(${of(m.denominatorEventTypeId ?? '')}) AS d${i}`],
        x: capped(`if(sum(d${i}) = 0, 0, sum(c${i}) / sum(d${i}))`),
        counted: `toUInt8(sum(d${i}) > 0)`,
      }
  }
}

/** Whether the event's property `name` holds a JSON number (properties are stored as compact JSON). */
function isNumberSql(p: Params, name: string): string {
  return `match(visitParamExtractRaw(properties, ${p.string(name)}), '^-?[0-9]')`
}

/**
 * An event passes a filter when it has the property with a value of the filter value's type (a JSON
 * string, number or boolean) and the comparison holds; an event without it, or with another type,
 * passes none (not_equals included).
 */
function filterSql(p: Params, f: PropertyFilter): string {
  const name = p.string(f.property)
  const raw = `visitParamExtractRaw(properties, ${name})`
  if (typeof f.value === 'boolean')
    return `(${raw} IN ('true', 'false') AND ${raw} ${f.operator === 'equals' ? '=' : '!='} ${p.string(String(f.value))})`
  const op = { equals: '=', not_equals: '!=', greater_than: '>', less_than: '<' }[f.operator]
  if (typeof f.value === 'number')
    return `(${isNumberSql(p, f.property)} AND visitParamExtractFloat(properties, ${name}) ${op} ${p.float(f.value)})`
  return `(substring(${raw}, 1, 1) = '"' AND visitParamExtractString(properties, ${name}) ${op} ${p.string(f.value)})`
}
