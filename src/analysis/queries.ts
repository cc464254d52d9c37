// The SQL of experiment results, over the tables the events role writes. Every caller value is a
// parameter (sql.ts); table names come from the configuration. What runs where:
//   exposures  one row per key that saw the flag in the environment within [from, to] (the rule's
//              impressions only, when a rule is given): its first impression's time, its treatment, and
//              how many treatments its impressions in the window showed (all rules);
//   per key    its events of the metrics' traffic types and event types from 15 minutes before its
//              first impression to 15 minutes after `to`, aggregated per metric (counts, sums);
//   per treatment  keys, Σx and Σx² of each metric's per-key value (keys with events; the others
//              are 0 in count, sum and percent metrics and absent from the rest);
//   CUPED      with `cuped`, also each key's value of the same metric over its pre-exposure window (the
//              `preExposureDays` before its attribution starts, 0 without events there), and per
//              treatment Σpre, Σpre² and Σ(x·pre);
//   caps       a metric's `capPercentile` is the quantileExact of its per-key values over the keys
//              exposed to one treatment (capsQuery), run first and applied as a fixed cap after.
// Sums of values are compensated (sumKahan, 18.16 on): Σx² of millions of keys keeps its precision,
// and depends far less on the order the engine adds in (18.16 and 26.x add in different orders: with
// plain sums most statistics of a test experiment differed from the 13th digit on, with compensated
// ones a few differ, by at most 5e-14 relative).
// The statistics are computed from those sums by the models and tests beside this file (models.ts,
// frequentist.ts, bayesian.ts).
import { Z_975 } from './models.js'
import { Params, type Query } from './sql.js'

export const ATTRIBUTION_MS = 15 * 60 * 1000

export const METRIC_TYPES = [
  'count_per_key',
  'sum_per_key',
  'average_per_key',
  'ratio_per_key',
  'percent_of_keys',
  'quantile_of_events',
  'quantile_per_key',
] as const
export type MetricType = (typeof METRIC_TYPES)[number]
export const QUANTILE_TYPES: readonly MetricType[] = ['quantile_of_events', 'quantile_per_key']
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
  /** Cap each key's value at this quantile of the exposed keys' values (instead of a fixed cap). */
  readonly capPercentile?: number | null
  /** Days before a key's attribution start whose value of the metric is its CUPED covariate (default 14). */
  readonly preExposureDays?: number | null
  /** The quantile a quantile metric compares (0.99: the 99th percentile). */
  readonly quantile?: number | null
}

export const DEFAULT_PRE_EXPOSURE_DAYS = 14
const DAY_MS = 86_400_000

export interface Window {
  readonly environmentId: string
  readonly flag: string
  /** Epoch ms, inclusive. */
  readonly from: number
  readonly to: number
  readonly rule?: string | undefined
}

/**
 * What keys are broken down by: the label of their first impression, a property of their first event of a type, or an
 * attribute of their identity (Split's identities, kept in Redis).
 */
export type Dimension =
  | { readonly kind: 'rule' }
  | { readonly kind: 'event'; readonly eventTypeId: string; readonly property: string }
  | { readonly kind: 'identity'; readonly trafficType: string; readonly attribute: string }

/** A dimension as the queries read it: an identity attribute becomes each key's value, read from Redis beforehand. */
export type SliceSource =
  | Exclude<Dimension, { kind: 'identity' }>
  | { readonly kind: 'values'; readonly keys: readonly string[]; readonly values: readonly string[] }

export interface Tables {
  readonly events: string
  readonly impressions: string
}

/**
 * One row per treatment of the exposed keys ('' for the keys excluded for showing more than one):
 * keys, and per metric i n{i} (keys counted), s{i} (Σx) and q{i} (Σx²), and with `cuped` ps{i} (Σpre),
 * pq{i} (Σpre²) and pp{i} (Σx·pre). One statement, so the key counts and the sums come from the same
 * impressions. Keys without attributed events are 0 in count, sum and percent metrics (counted in n{i})
 * and absent from average and ratio ones. Each event's part in each metric is worked out before the
 * join, so only numbers travel through it.
 */
export function metricsQuery(
  tables: Tables,
  w: Window,
  metrics: readonly MetricSpec[],
  options: { cuped?: boolean; slices?: { dimension: SliceSource; values: readonly string[] } } = {},
): Query {
  const p = new Params()
  const cuped = options.cuped === true
  // Broken down by slice: top 1 and the value for the values given, top 0 and '' for the others.
  const sliced = options.slices
  const exposures = sliced ? slicedExposuresSql(p, tables, w, sliced.dimension) : exposuresSql(p, tables, w)
  const slice = !sliced
    ? ''
    : sliced.values.length === 0
      ? `toUInt8(0) AS top, '' AS slice, `
      : `toUInt8(raw_slice IN ${p.strings(sliced.values)}) AS top, if(top = 1, raw_slice, '') AS slice, `
  const by = sliced ? 'top, slice, treatment' : 'treatment'
  if (metrics.length === 0)
    return p.query(
      'the experiment exposures query',
      `SELECT if(treatments = 1, exposed, '') AS treatment, count() AS keys
       FROM (${exposuresSql(p, tables, w)}) AS exposed_keys
       GROUP BY treatment
       ORDER BY treatment`,
    )
  const { keyed, always } = perKeySql(p, tables, w, metrics, cuped)
  const outer = metrics.flatMap((_m, i) => {
    const when = `k${i} = 1`
    return [
      `countIf(${always[i] ? '1' : when}) AS n${i}`,
      `sumKahanIf(x${i}, ${when}) AS s${i}`,
      `sumKahanIf(x${i} * x${i}, ${when}) AS q${i}`,
      ...(cuped
        ? [
            `sumKahanIf(y${i}, ${when}) AS ps${i}`,
            `sumKahanIf(y${i} * y${i}, ${when}) AS pq${i}`,
            `sumKahanIf(x${i} * y${i}, ${when}) AS pp${i}`,
          ]
        : []),
    ]
  })
  return p.query(
    sliced ? 'the experiment results by slice query' : 'the experiment results query',
    `SELECT ${slice}if(treatments = 1, exposed, '') AS treatment, count() AS keys, ${outer.join(', ')}
     FROM (${exposures}) AS exposed_keys
     ANY LEFT JOIN (${keyed}) AS keyed USING key
     GROUP BY ${by}
     ORDER BY ${by}`,
  )
}

/**
 * One row: per metric i, c{i} the quantileExact at its `capPercentile` of the per-key values (before any cap) over the
 * keys exposed to one treatment in the window (0 for the keys without events in count and sum metrics, as in the
 * results). quantileExact is the value of rank ⌊q·n⌋ + 1 of the n values in ascending order.
 */
export function capsQuery(
  tables: Tables,
  w: Window,
  metrics: readonly (MetricSpec & { capPercentile: number })[],
): Query {
  const p = new Params()
  const uncapped = metrics.map((m) => ({ ...m, cap: null }))
  const { keyed, always } = perKeySql(p, tables, w, uncapped, false)
  // An aggregate's parameter must be a literal: a number checked here, written as JavaScript writes it.
  const level = (q: number) => {
    if (!(typeof q === 'number' && q >= 0.5 && q < 1)) throw new Error(`capPercentile ${q} is not in [0.5, 1)`)
    return String(q)
  }
  const caps = metrics.map(
    (m, i) => `quantileExactIf(${level(m.capPercentile)})(x${i}, ${always[i] ? '1' : `k${i} = 1`}) AS c${i}`,
  )
  return p.query(
    'the percentile caps query',
    `SELECT ${caps.join(', ')}
     FROM (${exposuresSql(p, tables, w, true)}) AS exposed_keys
     ANY LEFT JOIN (${keyed}) AS keyed USING key`,
  )
}

/**
 * The sample sizes n* of the grid whose quantile bounds the quantiles query computes, as GrowthBook's
 * (back-end experimentQueries/constants.ts N_STAR_VALUES): the bounds used are those of the largest n* below the
 * values' count.
 */
export const N_STAR_VALUES = Array.from({ length: 20 }, (_, i) => 100 * 2 ** i)

/**
 * The levels of a quantile ν's figures: ν, then for each n* of the grid the lower and upper levels
 * ν ∓ z·√(ν(1 − ν)/n*), kept within (0, 1) (GrowthBook's getQuantileBoundValues).
 */
export function quantileLevels(nu: number): number[] {
  return [
    nu,
    ...N_STAR_VALUES.flatMap((n) => {
      const se = Math.sqrt((nu * (1 - nu)) / n)
      return [Math.max(nu - Z_975 * se, 1e-8), Math.min(nu + Z_975 * se, 0.99999999)]
    }),
  ]
}

/**
 * One row per treatment of the eligible keys: per quantile metric i, qn{i} the values counted and qq{i} their
 * quantilesExact at quantileLevels (the metric's quantile, then the bounds of each n*). The values are each key's
 * average (quantile_per_key, the keys with a value) or every attributed event's value (quantile_of_events): one
 * statement for each kind the metrics have (their rows are merged by treatment).
 */
export function quantilesQueries(tables: Tables, w: Window, metrics: readonly MetricSpec[]): Query[] {
  const p = new Params()
  const { keyed, joined } = perKeySql(p, tables, w, metrics, false)
  const levels = (m: MetricSpec) => {
    if (!(typeof m.quantile === 'number' && m.quantile > 0 && m.quantile < 1))
      throw new Error(`quantile ${m.quantile} is not in (0, 1)`)
    return quantileLevels(m.quantile).map(String).join(', ')
  }
  const perKey = metrics.flatMap((m, i) =>
    m.type === 'quantile_per_key'
      ? [`countIf(k${i} = 1) AS qn${i}`, `quantilesExactIf(${levels(m)})(x${i}, k${i} = 1) AS qq${i}`]
      : [],
  )
  const perEvent = metrics.flatMap((m, i) =>
    m.type === 'quantile_of_events'
      ? [`countIf(a${i}) AS qn${i}`, `quantilesExactIf(${levels(m)})(v${i}, a${i}) AS qq${i}`]
      : [],
  )
  const queries: Query[] = []
  if (perKey.length > 0)
    queries.push(
      p.query(
        'the quantiles of keys query',
        `SELECT exposed AS treatment, ${perKey.join(', ')}
         FROM (${exposuresSql(p, tables, w, true)}) AS exposed_keys
         ANY LEFT JOIN (${keyed}) AS keyed USING key
         GROUP BY treatment
         ORDER BY treatment`,
      ),
    )
  if (perEvent.length > 0)
    queries.push(
      p.query(
        'the quantiles of events query',
        `SELECT exposed AS treatment, ${perEvent.join(', ')} ${joined} GROUP BY treatment ORDER BY treatment`,
      ),
    )
  return queries
}

/**
 * One row per treatment: per event-level quantile metric i, GrowthBook's sums for the variance of the share of events
 * at or below the treatment's quantile when events are clustered in keys (QuantileClusteredStatistic): cu{i} the keys
 * with a value, cs{i}/css{i} Σ and Σ² of each key's events at or below it, cd{i}/cdd{i} Σ and Σ² of its events, cp{i}
 * Σ of their products. `quantiles[i]` gives the treatments' quantiles of metric i.
 */
export function quantileClustersQuery(
  tables: Tables,
  w: Window,
  metrics: readonly MetricSpec[],
  quantiles: readonly (ReadonlyMap<string, number> | undefined)[],
): Query {
  const p = new Params()
  const { joined } = perKeySql(p, tables, w, metrics, false)
  const inner: string[] = []
  const outer: string[] = []
  metrics.forEach((m, i) => {
    const q = quantiles[i]
    if (m.type !== 'quantile_of_events' || q === undefined || q.size === 0) return
    const names = [...q.keys()]
    const at = `transform(exposed, [${names.map((t) => p.string(t)).join(', ')}], [${names.map((t) => p.float(q.get(t)!)).join(', ')}], nan)`
    inner.push(`countIf(a${i} AND v${i} <= ${at}) AS s${i}`, `countIf(a${i}) AS d${i}`)
    outer.push(
      `countIf(d${i} > 0) AS cu${i}`,
      `sum(s${i}) AS cs${i}`,
      `sum(s${i} * s${i}) AS css${i}`,
      `sum(d${i}) AS cd${i}`,
      `sum(d${i} * d${i}) AS cdd${i}`,
      `sum(s${i} * d${i}) AS cp${i}`,
    )
  })
  return p.query(
    'the quantile clusters query',
    `SELECT treatment, ${outer.join(', ')}
     FROM (SELECT key, any(exposed) AS treatment, ${inner.join(', ')} ${joined} GROUP BY key) AS per_key
     GROUP BY treatment
     ORDER BY treatment`,
  )
}

/**
 * Each eligible key's value of each metric (x{i}), whether it counts (k{i}) and with `cuped` its pre-exposure value
 * (y{i}); `always[i]` when every exposed key counts (count, sum and percent metrics).
 */
function perKeySql(
  p: Params,
  tables: Tables,
  w: Window,
  metrics: readonly MetricSpec[],
  cuped: boolean,
): { keyed: string; always: boolean[]; joined: string } {
  const eventColumns: string[] = []
  const perKey: string[] = []
  const always: boolean[] = []
  const attributed = `timestamp_ms >= first_ms - ${ATTRIBUTION_MS}`
  const preDays = metrics.map((m) => m.preExposureDays ?? DEFAULT_PRE_EXPOSURE_DAYS)
  const before = cuped ? Math.max(...preDays) * DAY_MS : 0
  metrics.forEach((m, i) => {
    const { columns, value, counted } = metricSql(p, m, i)
    eventColumns.push(...columns)
    const post = cuped ? attributed : undefined
    perKey.push(`${value(post)} AS x${i}`, `${counted(post)} AS k${i}`)
    always.push(counted(post) === '1')
    if (cuped)
      perKey.push(
        `${value(`timestamp_ms < first_ms - ${ATTRIBUTION_MS} AND timestamp_ms >= first_ms - ${ATTRIBUTION_MS + preDays[i]! * DAY_MS}`)} AS y${i}`,
      )
  })
  const trafficTypes = [...new Set(metrics.map((m) => m.trafficType))]
  const eventTypes = [
    ...new Set(
      metrics.flatMap((m) => [m.eventTypeId, ...(m.denominatorEventTypeId ? [m.denominatorEventTypeId] : [])]),
    ),
  ]
  const lo = w.from - ATTRIBUTION_MS - before
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
  // The events of the eligible keys from their attribution start (their pre-exposure window's, under CUPED).
  const joined = `FROM (${events}) AS e
       ALL INNER JOIN (${exposuresSql(p, tables, w, true)}) AS eligible USING key
       WHERE timestamp_ms >= first_ms - ${ATTRIBUTION_MS + before}`
  const keyed = `SELECT key, ${perKey.join(', ')}
       ${joined}
       GROUP BY key`
  return { keyed, always, joined }
}

/**
 * How many impressions of the flag (in the environment, of the rule if given) the `spanMs` before `from` holds, at
 * most 1.
 */
export function impressionsBeforeQuery(tables: Tables, w: Window, spanMs: number): Query {
  const p = new Params()
  const rule = w.rule === undefined ? '' : ` AND label = ${p.string(w.rule)}`
  return p.query(
    'the query of impressions before the window',
    `SELECT count() AS impressions FROM (
       SELECT 1 FROM ${tables.impressions}
       WHERE ${windowWhere(p, w.environmentId, Math.max(0, w.from - spanMs), w.from - 1)} AND flag = ${p.string(w.flag)}${rule}
       LIMIT 1)`,
  )
}

/**
 * The keys first exposed each UTC day of the window (of one treatment: those the results count), oldest day first:
 * how fast an experiment gathers keys, for its power and duration.
 */
export function exposuresByDayQuery(tables: Tables, w: Window): Query {
  const p = new Params()
  return p.query(
    'the query of keys first exposed per day',
    `SELECT toUInt32(intDiv(first_ms, 86400000)) AS day, count() AS keys
     FROM (${exposuresSql(p, tables, w, true)})
     GROUP BY day
     ORDER BY day`,
  )
}

/**
 * The flags with impressions in the environment within [from, to], their treatments and about how many keys: the
 * `limit` flags with the most keys (then by name), or, given `only`, those of its flags that had impressions. Most keys
 * first, so that flags made up with a public SDK key, named to sort first, cannot push a flag with more keys out of
 * the list. `limit` is an integer of the service (LIMIT takes no expression on 18.16), at least `only`'s length.
 */
export function experimentsQuery(
  tables: Tables,
  environmentId: string,
  from: number,
  to: number,
  limit: number,
  only?: readonly string[],
): Query {
  const p = new Params()
  const named = only === undefined ? '' : ` AND flag IN ${p.strings(only)}`
  return p.query(
    only === undefined ? 'the query of flags with impressions' : 'the query of named flags with impressions',
    `SELECT flag, arraySlice(groupUniqArray(treatment), 1, 50) AS treatments, uniq(key) AS keys, count() AS impressions,
            min(time_ms) AS firstImpressionMs, max(time_ms) AS lastImpressionMs
     FROM ${tables.impressions}
     WHERE ${windowWhere(p, environmentId, from, to)}${named}
     GROUP BY flag
     ORDER BY keys DESC, flag
     LIMIT ${Math.trunc(limit)}`,
  )
}

function windowWhere(p: Params, environmentId: string, from: number, to: number): string {
  return `environment_id = ${p.string(environmentId)}
       AND time BETWEEN toDateTime(${p.int(Math.floor(from / 1000))}) AND toDateTime(${p.int(Math.ceil(to / 1000))})
       AND time_ms BETWEEN ${p.int(from)} AND ${p.int(to)}`
}

/**
 * Each exposed key's value of a dimension (raw_slice) beside its exposure: the label of its first impression in the
 * window, the property of its first event of a type in the window ('' without one; a string property as its text,
 * another as its JSON), or the value given for the key ('' without one).
 */
function slicedExposuresSql(p: Params, tables: Tables, w: Window, d: SliceSource, eligibleOnly = false): string {
  if (d.kind === 'rule') return exposuresSql(p, tables, w, eligibleOnly, ', argMin(label, time_ms) AS raw_slice')
  if (d.kind === 'values')
    return exposuresSql(
      p,
      tables,
      w,
      eligibleOnly,
      d.keys.length === 0
        ? `, '' AS raw_slice`
        : `, transform(key, ${p.stringArray(d.keys)}, ${p.stringArray(d.values)}, '') AS raw_slice`,
    )
  const name = p.string(d.property)
  const value = `if(visitParamExtractString(properties, ${name}) != '', visitParamExtractString(properties, ${name}), visitParamExtractRaw(properties, ${name}))`
  // The first events of the exposed keys only: anyone can post events of any key, and the join's right side (a row
  // per key) is then bounded by the exposed keys, as the plain results are, not by the keys that posted events.
  return `SELECT key, exposed, first_ms, treatments, raw_slice
      FROM (${exposuresSql(p, tables, w, eligibleOnly)}) AS exposed_keys
      ANY LEFT JOIN (
        SELECT key, argMin(${value}, timestamp_ms) AS raw_slice
        FROM ${tables.events}
        WHERE environment_id = ${p.string(w.environmentId)} AND event_type = ${p.string(d.eventTypeId)}
          AND timestamp BETWEEN toDateTime(${p.int(Math.floor(w.from / 1000))}) AND toDateTime(${p.int(Math.ceil(w.to / 1000))})
          AND timestamp_ms BETWEEN ${p.int(w.from)} AND ${p.int(w.to)}
          AND key IN (
            SELECT key FROM ${tables.impressions}
            WHERE ${windowWhere(p, w.environmentId, w.from, w.to)} AND flag = ${p.string(w.flag)})
        GROUP BY key) AS first_events USING key`
}

/**
 * The `k` most frequent values of a dimension over the keys exposed to one treatment (ClickHouse's topK: the
 * Space-Saving sketch, its memory bounded by k whatever the number of distinct values), most frequent first.
 */
export function topSlicesQuery(tables: Tables, w: Window, d: SliceSource, k: number): Query {
  const p = new Params()
  if (!(Number.isInteger(k) && k >= 1 && k <= 100)) throw new Error(`top ${k} is not 1 to 100`)
  return p.query(
    'the top slices query',
    `SELECT topK(${k})(raw_slice) AS top FROM (${slicedExposuresSql(p, tables, w, d, true)}) AS sliced`,
  )
}

/**
 * Each key that saw the flag: first impression (of the rule, when given), treatment, and the number
 * of treatments its impressions in the window showed. With `eligibleOnly`, keys of one treatment.
 */
function exposuresSql(p: Params, tables: Tables, w: Window, eligibleOnly = false, extra = ''): string {
  const where = `${windowWhere(p, w.environmentId, w.from, w.to)} AND flag = ${p.string(w.flag)}`
  const rule = w.rule === undefined ? undefined : p.string(w.rule)
  const first = rule === undefined ? 'min(time_ms)' : `minIf(time_ms, label = ${rule})`
  const having = [
    ...(rule === undefined ? [] : [`countIf(label = ${rule}) > 0`]),
    ...(eligibleOnly ? ['treatments = 1'] : []),
  ]
  return `SELECT key, any(treatment) AS exposed, ${first} AS first_ms, uniqExact(treatment) AS treatments${extra}
      FROM ${tables.impressions}
      WHERE ${where}
      GROUP BY key
      ${having.length > 0 ? `HAVING ${having.join(' AND ')}` : ''}`
}

/**
 * Metric i in SQL: the columns each event gets (c{i}: it counts; v{i}: its value, 0 without one;
 * a{i}: it has a value; d{i}: it counts in the denominator), then a key's value from their sums over its events that
 * meet a condition (all of them without one), and whether the key counts for the metric ('1': every key).
 */
function metricSql(
  p: Params,
  m: MetricSpec,
  i: number,
): { columns: string[]; value: (when?: string) => string; counted: (when?: string) => string } {
  const filter = m.propertyFilter ? ` AND ${filterSql(p, m.propertyFilter)}` : ''
  const of = (eventType: string) =>
    `traffic_type = ${p.string(m.trafficType)} AND event_type = ${p.string(eventType)}${filter}`
  const counts = `(${of(m.eventTypeId)}) AS c${i}`
  const cap = m.cap === undefined || m.cap === null ? undefined : p.float(m.cap)
  const capped = (x: string) => (cap === undefined ? `toFloat64(${x})` : `least(toFloat64(${x}), ${cap})`)
  const valued = () => {
    const value = m.valueProperty
      ? `visitParamExtractFloat(properties, ${p.string(m.valueProperty)})`
      : 'assumeNotNull(value)'
    const hasValue = m.valueProperty ? isNumberSql(p, m.valueProperty) : 'isNotNull(value)'
    return [`(${of(m.eventTypeId)} AND ${hasValue}) AS a${i}`, `if(a${i}, toFloat64(${value}), 0) AS v${i}`]
  }
  const agg = (fn: string, column: string, when?: string) =>
    when === undefined ? `${fn}(${column})` : `${fn}If(${column}, ${when})`
  const always = () => '1'
  switch (m.type) {
    case 'count_per_key':
      return { columns: [counts], value: (w) => capped(agg('sum', `c${i}`, w)), counted: always }
    case 'percent_of_keys':
      return { columns: [counts], value: (w) => `toFloat64(${agg('sum', `c${i}`, w)} > 0)`, counted: always }
    case 'sum_per_key':
      return { columns: valued(), value: (w) => capped(agg('sumKahan', `v${i}`, w)), counted: always }
    // A quantile metric's per-key value (its sums in the results query) is the key's average value; the quantiles
    // themselves are the quantiles query's.
    case 'quantile_of_events':
    case 'quantile_per_key':
    case 'average_per_key':
      return {
        columns: valued(),
        value: (w) =>
          capped(`if(${agg('sum', `a${i}`, w)} = 0, 0, ${agg('sumKahan', `v${i}`, w)} / ${agg('sum', `a${i}`, w)})`),
        counted: (w) => `toUInt8(${agg('sum', `a${i}`, w)} > 0)`,
      }
    case 'ratio_per_key':
      return {
        columns: [counts, `(${of(m.denominatorEventTypeId ?? '')}) AS d${i}`],
        value: (w) =>
          capped(`if(${agg('sum', `d${i}`, w)} = 0, 0, ${agg('sum', `c${i}`, w)} / ${agg('sum', `d${i}`, w)})`),
        counted: (w) => `toUInt8(${agg('sum', `d${i}`, w)} > 0)`,
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
