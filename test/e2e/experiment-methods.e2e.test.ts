// Sequential testing, CUPED, percentile caps, guardrails and the corrections, end to end and checked against
// independent implementations. A generated experiment whose keys differ in how active they are (so their purchases
// before exposure predict their purchases after it), with whales, purchases 15 days before exposure (outside the
// pre-exposure window) and a guardrail the treatment degrades, goes through the real intake (edge, Kafka, events
// consumer, ClickHouse). The test computes each key's values itself, after and before exposure, from what it sent;
// GrowthBook's gbstats (SequentialTwoSidedTTest, RegressionAdjustedStatistic with compute_theta, the one-sided
// t-tests) and statsmodels (multipletests: holm, fdr_bh) compute the statistics from them; Sluice's answer must agree
// to 1e-6 relative. The percentile cap is checked against the order statistic numpy picks from the values sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { close, closeEstimate, independent as statsOf, seeded } from '../support/stats.js'
import { createTestEnv, postEvents, sendExperiment, waitFor, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const KEYS = 3001 // 0.99·3001 is not a whole number: see the cap's test
const FLAG = 'pricing_page'
const T0 = 1_765_000_000_000
const FROM = T0
const TO = T0 + 2 * 3600_000
const MIN = 60_000
const DAY = 86_400_000
const ATTRIBUTION = 15 * MIN
const TREATMENTS = ['off', 'on'] as const
const CAP_PERCENTILE = 0.99

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let env: string

const rand = seeded(2026)
const int = (n: number) => Math.floor(rand() * n)

interface Ev {
  eventTypeId: string
  trafficTypeName: string
  key: string
  timestamp: number
  value?: number | null
}
const impressions: { k: string; t: string; m: number; r: string }[] = []
const events: Ev[] = []
const firstOf = new Map<string, { treatment: string; first: number }>()

function generate(): void {
  for (let i = 0; i < KEYS; i++) {
    const key = `shopper-${i}`
    const treatment = rand() < 0.5 ? 'off' : 'on'
    const first = FROM + int(TO - FROM - 10 * MIN) + 5 * MIN
    firstOf.set(key, { treatment, first })
    impressions.push({ k: key, t: treatment, m: first, r: 'default rule' })
    // How active the key is: the same before and after exposure, which is what CUPED uses.
    const activity = 0.3 + 3 * rand() ** 2
    const purchase = (timestamp: number, value: number) =>
      events.push({ eventTypeId: 'purchase', trafficTypeName: 'user', key, timestamp, value })
    const amount = () => Math.round((10 + 40 * activity + 30 * rand()) * 100) / 100
    for (let p = Math.floor(activity * (0.5 + rand())); p > 0; p--)
      purchase(first - ATTRIBUTION - 1 - int(13 * DAY), amount())
    if (i % 9 === 0) purchase(first - 15 * DAY, 999) // before the 14-day window: no covariate
    if (i % 9 === 1) purchase(first - 10 * MIN, amount()) // within the attribution margin: counted after exposure
    if (i % 9 === 2) purchase(first - 10 * DAY, amount()) // within 14 days, not 7: the average's window is 7
    for (let p = Math.floor(activity * (0.6 + 0.8 * rand()) + (treatment === 'on' ? 0.35 : 0)); p > 0; p--)
      purchase(first + int(60 * MIN), amount())
    if (i % 150 === 0) purchase(first + 30 * MIN, 20_000) // whales
    // The guardrail the treatment degrades: refunds.
    if (rand() < (treatment === 'on' ? 0.3 : 0.1))
      events.push({ eventTypeId: 'refund', trafficTypeName: 'user', key, timestamp: first + int(60 * MIN) })
  }
}

const METRICS = [
  { name: 'Purchases', eventTypeId: 'purchase', type: 'count_per_key', desiredDirection: 'increase' },
  {
    name: 'Revenue',
    eventTypeId: 'purchase',
    type: 'sum_per_key',
    capPercentile: CAP_PERCENTILE,
    desiredDirection: 'increase',
  },
  { name: 'Buyers', eventTypeId: 'purchase', type: 'percent_of_keys', desiredDirection: 'increase' },
  { name: 'Refunds', eventTypeId: 'refund', type: 'count_per_key', desiredDirection: 'decrease', guardrail: true },
  {
    name: 'Average order',
    eventTypeId: 'purchase',
    type: 'average_per_key',
    preExposureDays: 7,
    desiredDirection: 'increase',
  },
] as const
const metricIds: string[] = []
/** The Bayesian engine's priors tried: flat, and a proper one on the relative lift given in the request. */
const PRIORS = [
  { query: 'engine=bayesian', prior: { mean: 0, variance: 1, proper: false } },
  { query: 'engine=bayesian&priorMean=0.02&priorVariance=0.01', prior: { mean: 0.02, variance: 0.01, proper: true } },
] as const

/** Each key's value of each metric after exposure (x) and over its pre-exposure window (pre), from what was sent. */
function expected(cap: number) {
  const eventsOf = new Map<string, Ev[]>()
  for (const e of events) eventsOf.set(e.key, [...(eventsOf.get(e.key) ?? []), e])
  const arms = (): Record<string, number[]> => ({ off: [], on: [] })
  const out = METRICS.map(() => ({ x: arms(), pre: arms() }))
  const uncappedRevenue: number[] = []
  for (const [key, { treatment, first }] of firstOf) {
    const all = eventsOf.get(key) ?? []
    const post = all.filter((e) => e.timestamp >= first - ATTRIBUTION && e.timestamp <= TO + ATTRIBUTION)
    const preOf = (days: number) =>
      all.filter((e) => e.timestamp < first - ATTRIBUTION && e.timestamp >= first - ATTRIBUTION - days * DAY)
    const values = (of: Ev[], type: string) => of.filter((e) => e.eventTypeId === type).map((e) => e.value ?? 0)
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
    const mean = (xs: number[]) => (xs.length === 0 ? 0 : sum(xs) / xs.length)
    const pre14 = preOf(14)
    uncappedRevenue.push(sum(values(post, 'purchase')))
    const perMetric: [number | undefined, number][] = [
      [values(post, 'purchase').length, values(pre14, 'purchase').length],
      [Math.min(sum(values(post, 'purchase')), cap), Math.min(sum(values(pre14, 'purchase')), cap)],
      [values(post, 'purchase').length > 0 ? 1 : 0, values(pre14, 'purchase').length > 0 ? 1 : 0],
      [values(post, 'refund').length, values(pre14, 'refund').length],
      [
        values(post, 'purchase').length > 0 ? mean(values(post, 'purchase')) : undefined,
        mean(values(preOf(7), 'purchase')),
      ],
    ]
    perMetric.forEach(([x, pre], m) => {
      if (x === undefined) return
      out[m]!.x[treatment]!.push(x)
      out[m]!.pre[treatment]!.push(pre)
    })
  }
  return { values: out, uncappedRevenue }
}

const independent = (input: unknown) => statsOf<Json>('test/compat/experiment_methods.py', input)

async function results(query: string): Promise<Json> {
  const res = await fetch(
    `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results?metrics=${metricIds.join(',')}&from=${FROM}&to=${TO}&baseline=off&${query}`,
    { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
  )
  const body = (await res.json()) as Json
  expect(res.status, JSON.stringify(body)).toBe(200)
  return body
}

let reference: Json
let want: ReturnType<typeof expected>
let cap: number

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_ADMIN_RATE_PER_SECOND: '1000', SLUICE_ADMIN_BURST: '1000' })
  demo = await t.bootstrap()
  env = demo.environments[0]!.id
  service = await t.start(['edge', 'admin', 'events'])
  generate()
  await sendExperiment(t, service.url, demo.environments[0]!.serverSideSdkKey, FLAG, impressions, events)
  for (const m of METRICS) {
    const res = await fetch(`${service.url}/api/v1/workspaces/${demo.workspaceId}/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ trafficType: 'user', ...m }),
    })
    const body = (await res.json()) as Json
    expect(res.status, JSON.stringify(body)).toBe(201)
    metricIds.push(body['id'] as string)
  }
  // The cap: the value of rank ⌊q·n⌋ + 1 among the exposed keys' revenues (ClickHouse's quantileExact).
  const sorted = expected(Infinity).uncappedRevenue.sort((a, b) => a - b)
  cap = sorted[Math.min(sorted.length - 1, Math.floor(CAP_PERCENTILE * sorted.length))]!
  want = expected(cap)
  reference = independent({
    alpha: 0.05,
    baseline: 'off',
    tunings: [1000, 5000, 20000],
    metrics: METRICS.map((m, i) => ({
      id: String(i),
      proportion: m.type === 'percent_of_keys',
      worseIf: 'guardrail' in m ? 'increase' : null,
      inverse: m.desiredDirection === 'decrease',
      values: want.values[i]!.x,
      pre: want.values[i]!.pre,
    })),
    quantile: { values: sorted, q: CAP_PERCENTILE },
    priors: PRIORS.map((p) => p.prior),
  })
}, 180_000)
afterAll(async () => t?.close())

describe('results methods against gbstats and statsmodels', () => {
  it('caps at the percentile of the exposed keys, as numpy picks it from the values sent', async () => {
    const r = await results('')
    const revenue = (r['metrics'] as Json[])[1]!
    close(revenue['cap']['value'], reference['quantile']['rank'], 'cap')
    expect(revenue['cap']['percentile']).toBe(CAP_PERCENTILE)
    // ⌊q·n⌋ + 1 is numpy's inverted_cdf wherever q·n is not a whole number (it is not here).
    expect(Number.isInteger(CAP_PERCENTILE * want.uncappedRevenue.length)).toBe(false)
    close(revenue['cap']['value'], reference['quantile']['invertedCdf'], 'cap (inverted_cdf)')
    expect(revenue['cap']['value']).toBeLessThan(20_000) // the whales are capped
    for (const tr of TREATMENTS) {
      const xs = want.values[1]!.x[tr]!
      close(
        revenue['perTreatment'][tr]['sum'],
        xs.reduce((a, b) => a + b, 0),
        `capped revenue sum ${tr}`,
      )
    }
    closeEstimate(revenue['comparisons'][0]['absolute'], reference['metrics']['1']['on']['fixed']['absolute'], 'capped')
  })

  it.each([1000, 5000, 20000])('sequential with tuning %i: always-valid intervals and p-values', async (tuning) => {
    const r = await results(`sequential=true${tuning === 5000 ? '' : `&sequentialTuning=${tuning}`}`)
    expect(r['mode']).toEqual({
      engine: 'frequentist',
      prior: null,
      test: 'sequential',
      sequentialTuning: tuning,
      cuped: false,
      correction: 'bh',
      note: null,
    })
    ;(r['metrics'] as Json[]).forEach((m, i) => {
      const c = m['comparisons'][0]
      expect(c['degreesOfFreedom']).toBeNull()
      if (m['guardrail']) return // one-sided: gbstats has no one-sided sequential test
      for (const kind of ['absolute', 'relative'])
        closeEstimate(
          c[kind],
          reference['metrics'][String(i)]['on']['sequential'][String(tuning)][kind],
          `${m['name']} ${kind}`,
        )
      // Wider than the fixed-horizon interval at these sample sizes.
      const fixed = reference['metrics'][String(i)]['on']['fixed']['absolute']['ci']
      expect(c['absolute']['ci'][1] - c['absolute']['ci'][0]).toBeGreaterThan(fixed[1] - fixed[0])
    })
  })

  it('CUPED: θ pooled over the arms, the adjusted estimates, intervals and p-values, and the variance removed', async () => {
    const r = await results('cuped=true')
    expect(r['mode']).toMatchObject({ test: 'fixed-horizon', cuped: true })
    ;(r['metrics'] as Json[]).forEach((m, i) => {
      const c = m['comparisons'][0]
      const ref = reference['metrics'][String(i)]['on']['cuped']
      close(c['cuped']['theta'], ref['theta'], `${m['name']} theta`)
      expect(m['cuped']['preExposureDays']).toBe(i === 4 ? 7 : 14)
      if (m['guardrail']) return
      for (const kind of ['absolute', 'relative']) closeEstimate(c[kind], ref['fixed'][kind], `${m['name']} ${kind}`)
    })
    // Activity carries over: the purchases' variance falls by a good share, and the interval narrows accordingly.
    const purchases = (r['metrics'] as Json[])[0]!
    expect(purchases['cuped']['varianceReduction']).toBeGreaterThan(0.2)
    expect(purchases['comparisons'][0]['cuped']['varianceReduction']).toBeGreaterThan(0.2)
    const fixed = reference['metrics']['0']['on']['fixed']['absolute']['ci']
    const adjusted = purchases['comparisons'][0]['absolute']['ci']
    expect(adjusted[1] - adjusted[0]).toBeLessThan(0.9 * (fixed[1] - fixed[0]))
  })

  it('CUPED with sequential testing', async () => {
    const r = await results('cuped=true&sequential=true')
    ;(r['metrics'] as Json[]).forEach((m, i) => {
      if (m['guardrail']) return
      for (const kind of ['absolute', 'relative'])
        closeEstimate(
          m['comparisons'][0][kind],
          reference['metrics'][String(i)]['on']['cuped']['sequential']['5000'][kind],
          `${m['name']} ${kind}`,
        )
    })
  })

  it('a guardrail is one-sided, left out of the correction, and failing when the treatment makes it worse', async () => {
    for (const correction of ['bh', 'holm', 'none'] as const) {
      const r = await results(`correction=${correction}`)
      expect(r['mode']['correction']).toBe(correction)
      const metrics = r['metrics'] as Json[]
      const refunds = metrics[3]!
      expect(refunds['guardrail']).toBe(true)
      const c = refunds['comparisons'][0]
      for (const kind of ['absolute', 'relative'])
        closeEstimate(c[kind], reference['metrics']['3']['on']['oneSided'][kind], `refunds ${kind}`)
      expect(c).toMatchObject({ guardrail: 'failing', significant: true, impact: 'undesired' })
      expect(c['adjustedPValue']).toBe(c['absolute']['pValue'])
      // The others: ok or at risk are not given; their p-values adjusted as statsmodels does, over them alone.
      const family = metrics.filter((m) => !m['guardrail']).map((m) => m['comparisons'][0])
      expect(family.every((x) => x['guardrail'] === null)).toBe(true)
      const p = family.map((x) => x['absolute']['pValue'] as number)
      const ref = independent({ alpha: 0.05, baseline: 'off', tunings: [], metrics: [], pValues: p })
      family.forEach((x, i) =>
        close(x['adjustedPValue'], correction === 'none' ? p[i]! : ref[correction][i], `${correction} ${i}`),
      )
    }
  })

  it('every metric as a guardrail: failing, at risk or ok as the one-sided test and the estimate say', async () => {
    const r = await results(`guardrails=${metricIds.join(',')}`)
    const ref = independent({
      alpha: 0.05,
      baseline: 'off',
      tunings: [],
      metrics: METRICS.map((m, i) => ({
        id: String(i),
        proportion: m.type === 'percent_of_keys',
        worseIf: m.desiredDirection === 'increase' ? 'decrease' : 'increase',
        values: want.values[i]!.x,
      })),
    })
    const states = (r['metrics'] as Json[]).map((m, i) => {
      const c = m['comparisons'][0]
      const one = ref['metrics'][String(i)]['on']['oneSided']['absolute']
      closeEstimate(c['absolute'], one, `${m['name']} as a guardrail`)
      const worse = METRICS[i]!.desiredDirection === 'increase' ? one['estimate'] < 0 : one['estimate'] > 0
      expect(c['guardrail'], m['name']).toBe(one['pValue'] < 0.05 ? 'failing' : worse ? 'at risk' : 'ok')
      return c['guardrail'] as string
    })
    // The experiment has all three: more purchases (ok), more refunds (failing), and a metric that fell a little.
    expect(new Set(states)).toEqual(new Set(['ok', 'at risk', 'failing']))
  })

  it('a guardrail named in the request is ok when it does not get worse; bad methods are refused naming the field', async () => {
    const purchases = metricIds[0]!
    const r = await results(`guardrails=${purchases}`)
    const c = (r['metrics'] as Json[])[0]!['comparisons'][0]
    // More purchases in on: not worse for a metric that should increase.
    expect(c).toMatchObject({ guardrail: 'ok', significant: false })
    closeEstimate(
      c['absolute'],
      independent({
        alpha: 0.05,
        baseline: 'off',
        tunings: [],
        metrics: [{ id: '0', proportion: false, worseIf: 'decrease', values: want.values[0]!.x }],
      })['metrics']['0']['on']['oneSided']['absolute'],
      'purchases as a guardrail',
    )
    const bad = await fetch(
      `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results?metrics=${purchases}&from=${FROM}&to=${TO}&guardrails=nope&sequentialTuning=10`,
      { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
    )
    expect(bad.status).toBe(400)
    const fields = ((await bad.json()) as Json)['details'].map((d: Json) => d['field'])
    expect(fields).toEqual(expect.arrayContaining(['guardrails', 'sequentialTuning']))
  })
})

describe('the Bayesian engine against gbstats EffectBayesianABTest', () => {
  it.each([
    [0, false],
    [1, false],
    [0, true],
    [1, true],
  ] as const)(
    'prior %i, CUPED %s: posterior, credible intervals, chance to win and risk, absolute and relative',
    async (p, cuped) => {
      const r = await results(`${PRIORS[p].query}${cuped ? '&cuped=true' : ''}`)
      expect(r['mode']).toMatchObject({
        engine: 'bayesian',
        prior: p === 0 ? { proper: false } : { ...PRIORS[p].prior, scale: 'relative' },
        correction: 'none',
        cuped,
      })
      ;(r['metrics'] as Json[]).forEach((m, i) => {
        const c = m['comparisons'][0]
        const ref = reference['metrics'][String(i)]['on']['bayesian'][p][cuped ? 'cuped' : 'plain']
        for (const kind of ['absolute', 'relative']) {
          const got = c['bayesian'][kind]
          const want = ref[kind]
          const what = `${m['name']} ${kind}`
          expect(want['error'], what).toBeNull()
          expect(got['reason'], what).toBeNull()
          close(got['expected'], want['expected'], `${what} expected`)
          close(got['sd'], want['sd'], `${what} sd`)
          close(got['ci'][0], want['ci'][0], `${what} ci 0`)
          close(got['ci'][1], want['ci'][1], `${what} ci 1`)
          close(got['chanceToWin'], want['chanceToWin'], `${what} chance to win`)
          close(got['risk']['baseline'], want['risk'][0], `${what} risk of the baseline`)
          close(got['risk']['treatment'], want['risk'][1], `${what} risk of the treatment`)
        }
        // Called on the relative lift: its credible interval leaves out 0, or (a guardrail) it is likely worse.
        const chance = c['bayesian']['relative']['chanceToWin'] as number
        expect(c['adjustedPValue']).toBeNull()
        if (m['guardrail']) expect(c['guardrail']).toBe(chance <= 0.05 ? 'failing' : chance < 0.5 ? 'at risk' : 'ok')
        else expect(c['significant']).toBe(chance >= 0.975 || chance <= 0.025)
        expect(c['impact']).toBe(c['significant'] ? (chance > 0.5 ? 'desired' : 'undesired') : 'inconclusive')
      })
      // The experiment's known effects: more purchases (desired), and refunds made worse (the guardrail fails).
      const [purchases, , , refunds] = r['metrics'] as Json[]
      expect(purchases!['comparisons'][0]).toMatchObject({ significant: true, impact: 'desired' })
      expect(refunds!['comparisons'][0]).toMatchObject({ guardrail: 'failing', impact: 'undesired' })
      // The frequentist engine has no posterior.
      if (p === 0 && !cuped) expect((await results(''))['metrics'][0]['comparisons'][0]['bayesian']).toBeNull()
    },
  )

  it('refuses what the engine has no use for, and a prior that is no distribution, naming the field', async () => {
    const refused = async (query: string) => {
      const res = await fetch(
        `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results?metrics=${metricIds[0]}&from=${FROM}&to=${TO}&${query}`,
        { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
      )
      expect(res.status, query).toBe(400)
      return JSON.stringify(await res.json())
    }
    expect(await refused('engine=bayesian&correction=holm')).toMatch(/correction.*applies only with engine=frequentist/)
    expect(await refused('engine=bayesian&sequential=true')).toMatch(/sequential.*applies only with engine=frequentist/)
    expect(await refused('priorVariance=0.1')).toMatch(/priorVariance.*applies only with engine=bayesian/)
    expect(await refused('engine=bayesian&prior=flat&priorMean=0.1')).toMatch(
      /priorMean.*applies only with prior=proper/,
    )
    expect(await refused('engine=bayesian&priorVariance=-1')).toMatch(/priorVariance/)
    expect(await refused('engine=bayesian&priorVariance=0')).toMatch(/priorVariance/)
    expect(await refused('engine=bayesian&priorMean=NaN')).toMatch(/priorMean/)
    expect(await refused('engine=bayes')).toMatch(/engine/)
  })

  it('is a workspace default, and sluice experiments results prints what the API answers', async () => {
    const put = (body: Json) =>
      fetch(`${service.url}/api/v1/workspaces/${demo.workspaceId}/experiment-defaults`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const bad = await put({ priorVariance: -0.5 })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toMatch(/priorVariance/)
    const saved = await put({ engine: 'bayesian', prior: 'proper', priorMean: 0.02, priorVariance: 0.01 })
    expect(await saved.json()).toMatchObject({
      engine: 'bayesian',
      prior: 'proper',
      priorMean: 0.02,
      priorVariance: 0.01,
    })
    try {
      // The saved correction (bh) is the frequentist engine's: not applied, and not refused.
      const byDefault = await results('')
      expect(byDefault).toEqual(await results(PRIORS[1].query))
      const frequentist = await results('engine=frequentist')
      expect(frequentist['mode']).toMatchObject({ engine: 'frequentist', prior: null, correction: 'bh' })
      const args = ['experiments', 'results', FLAG, '--environment', env, '--from', String(FROM), '--to', String(TO)]
      for (const id of metricIds) args.push('--metric', id)
      const json = await runSluice([...args, '--json'], t.env)
      expect(json.code, json.stderr).toBe(0)
      expect(JSON.parse(json.stdout)).toEqual(byDefault)
      const table = await runSluice([...args, '--prior', 'flat', '--cuped'], t.env)
      expect(table.code, table.stderr).toBe(0)
      expect(table.stdout).toContain('Bayesian, flat prior, CUPED')
      expect(table.stdout).toMatch(/^treatment +keys +mean +lift +95% interval +chance +risk/m)
      expect(table.stdout).toMatch(/^on .* \d+\.\d\d% .* significant, desired/m)
    } finally {
      await put({ engine: 'frequentist', prior: 'flat', priorMean: 0, priorVariance: 0.09 })
    }
  })
})

describe('results over time', () => {
  it('gives the cumulative results at the end of each interval, their intervals shrinking as keys come in', async () => {
    const query = `metrics=${metricIds.join(',')}&from=${FROM}&to=${TO}&baseline=off&sequential=true`
    const res = await fetch(
      `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results/timeseries?${query}&interval=hour`,
      { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
    )
    const body = (await res.json()) as Json
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body['interval']).toBe('hour')
    const points = body['points'] as Json[]
    expect(points.map((p) => p['to'])).toEqual([new Date(FROM + 3600_000).toISOString(), new Date(TO).toISOString()])
    // Each point is the results of its own window.
    const [first, last] = points.map((p) => p['results'] as Json)
    expect(last).toEqual(await results('sequential=true'))
    const atHour = await fetch(
      `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results?${query.replace(`to=${TO}`, `to=${FROM + 3600_000}`)}`,
      { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
    )
    expect(first).toEqual(await atHour.json())
    expect(first!['exposure']['keys']).toBeLessThan(last!['exposure']['keys'])
    const width = (r: Json) => {
      const ci = (r['metrics'] as Json[])[0]!['comparisons'][0]['absolute']['ci'] as number[]
      return ci[1]! - ci[0]!
    }
    expect(width(last!)).toBeLessThan(width(first!))
    // Too many points for the window: refused naming the interval.
    const long = await fetch(
      `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results/timeseries?metrics=${metricIds[0]}&from=${FROM}&to=${FROM + 200 * 3600_000}&interval=hour`,
      { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
    )
    expect(long.status).toBe(400)
    expect(((await long.json()) as Json)['details']).toEqual([expect.objectContaining({ field: 'interval' })])
  })
})

describe('sluice experiments results', () => {
  it('takes the methods as options and prints what the API answers; the workspace defaults apply to both', async () => {
    const args = ['experiments', 'results', FLAG, '--environment', env, '--from', String(FROM), '--to', String(TO)]
    for (const id of metricIds) args.push('--metric', id)
    const json = await runSluice([...args, '--sequential', '--cuped', '--correction', 'holm', '--json'], t.env)
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual(await results('sequential=true&cuped=true&correction=holm'))
    const table = await runSluice([...args, '--sequential', '--cuped'], t.env)
    expect(table.stdout).toContain('sequential tests (tuning 5000), CUPED; correction bh')
    expect(table.stdout).toMatch(/^Refunds \(count_per_key, decrease is good, guardrail, CUPED over 14 days: variance/m)
    expect(table.stdout).toMatch(/^Revenue \(sum_per_key, increase is good, capped at [\d.]+ \(p99\)/m)
    expect(table.stdout).toMatch(/^on .* failing, significant, undesired/m)

    // The workspace's defaults: sequential and CUPED unless a request says otherwise.
    const put = await fetch(`${service.url}/api/v1/workspaces/${demo.workspaceId}/experiment-defaults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sequential: true, cuped: true, sequentialTuning: 1000 }),
    })
    expect(await put.json()).toEqual({
      engine: 'frequentist',
      sequential: true,
      sequentialTuning: 1000,
      cuped: true,
      correction: 'bh',
      prior: 'flat',
      priorMean: 0,
      priorVariance: 0.09,
      correctionScope: 'all',
      checksDimension: 'rule',
    })
    try {
      const byDefault = await results('')
      expect(byDefault['mode']).toEqual({
        engine: 'frequentist',
        prior: null,
        test: 'sequential',
        sequentialTuning: 1000,
        cuped: true,
        correction: 'bh',
        note: null,
      })
      expect(byDefault).toEqual(await results('sequential=true&sequentialTuning=1000&cuped=true'))
      expect((await results('sequential=false&cuped=false'))['mode']).toMatchObject({
        test: 'fixed-horizon',
        cuped: false,
      })
      const cli = await runSluice([...args, '--no-sequential', '--json'], t.env)
      expect(JSON.parse(cli.stdout)['mode']).toEqual({
        engine: 'frequentist',
        prior: null,
        test: 'fixed-horizon',
        sequentialTuning: null,
        cuped: true,
        correction: 'bh',
        note: null,
      })
    } finally {
      await fetch(`${service.url}/api/v1/workspaces/${demo.workspaceId}/experiment-defaults`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sequential: false, cuped: false, sequentialTuning: 5000 }),
      })
    }
  })
})

describe('sums beyond a double', () => {
  it('answer null for the figures that overflow, as the schema says, with a note instead of a test', async () => {
    const huge = [0, 2, 4, 6, 1, 3, 5, 7].map((i) => ({
      eventTypeId: 'huge',
      trafficTypeName: 'user',
      key: `shopper-${i}`,
      timestamp: firstOf.get(`shopper-${i}`)!.first + MIN,
      value: 1.5e308,
    }))
    const before = await t.count('events')
    expect((await postEvents(service.url, demo.environments[0]!.serverSideSdkKey, huge)).status).toBe(202)
    await waitFor('stored', async () => ((await t.count('events')) === before + huge.length ? true : undefined))
    const created = await fetch(`${service.url}/api/v1/workspaces/${demo.workspaceId}/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Huge',
        trafficType: 'user',
        eventTypeId: 'huge',
        type: 'sum_per_key',
        desiredDirection: 'increase',
      }),
    })
    const id = ((await created.json()) as Json)['id'] as string
    // A percentile of a metric most keys have none of is 0: reported, not applied (it would zero every value).
    const sparse = await fetch(`${service.url}/api/v1/workspaces/${demo.workspaceId}/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Huge p99',
        trafficType: 'user',
        eventTypeId: 'huge',
        type: 'sum_per_key',
        capPercentile: 0.99,
        desiredDirection: 'increase',
      }),
    })
    const sparseId = ((await sparse.json()) as Json)['id'] as string
    // Answers are checked against the route's schema in the tests (SLUICE_CHECK_ANSWERS): a mismatch would be a 500.
    const res = await fetch(
      `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results?metrics=${id}&from=${FROM}&to=${TO}`,
      { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
    )
    const body = (await res.json()) as Json
    expect(res.status, JSON.stringify(body)).toBe(200)
    const m = (body['metrics'] as Json[])[0]!
    expect(Object.values(m['perTreatment']).some((s) => (s as Json)['sum'] === null)).toBe(true)
    expect(m['comparisons'][0]).toMatchObject({ absolute: { ci: null, pValue: null }, significant: false })
    expect(m['comparisons'][0]['note']).toMatch(/overflow a double/)
    const p99 = await fetch(
      `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results?metrics=${sparseId}&from=${FROM}&to=${TO}`,
      { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
    )
    expect(((await p99.json()) as Json)['metrics'][0]['cap']).toEqual({ value: 0, percentile: 0.99, applied: false })
  })
})

describe('what could mislead', () => {
  it('saved weights naming a treatment that never showed make the sample ratio check fail, not vanish', async () => {
    const settings = `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/settings`
    const put = (body: unknown) =>
      fetch(settings, {
        method: 'PUT',
        headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await put({ weights: { off: 1, on: 1, v3: 1 }, baseline: 'off' })).status).toBe(200)
    try {
      const r = await fetch(
        `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results?metrics=${metricIds[0]}&from=${FROM}&to=${TO}`,
        { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
      ).then(async (res) => (await res.json()) as Json)
      expect(r['srm']).toMatchObject({ mismatch: true, expected: { off: 1 / 3, on: 1 / 3, v3: 1 / 3 } })
      expect(r['metrics'][0]['comparisons'].map((c: Json) => c['treatment'])).toEqual(['on'])
    } finally {
      await put({ weights: null, baseline: null })
    }
  })

  it('CUPED over a window that starts after the experiment did says so', async () => {
    const late = await fetch(
      `${service.url}/api/v1/environments/${env}/experiments/${FLAG}/results?metrics=${metricIds[0]}&from=${FROM + 30 * MIN}&to=${TO}&baseline=off&cuped=true`,
      { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
    ).then(async (res) => (await res.json()) as Json)
    expect(late['mode']['note']).toMatch(/^the flag has impressions in the 14 days before from/)
    expect((await results('cuped=true'))['mode']['note']).toBeNull()
  })
})

describe('metric definitions', () => {
  it('refuses a percentile cap beside a cap, out of range or on a proportion, and a pre-exposure window out of range', async () => {
    const post = async (body: Record<string, unknown>) => {
      const res = await fetch(`${service.url}/api/v1/workspaces/${demo.workspaceId}/metrics`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `m-${Math.random()}`,
          trafficType: 'user',
          eventTypeId: 'purchase',
          type: 'sum_per_key',
          desiredDirection: 'increase',
          ...body,
        }),
      })
      return {
        status: res.status,
        fields: (((await res.json()) as Json)['details'] ?? []).map((d: Json) => d['field']),
      }
    }
    expect(await post({ cap: 10, capPercentile: 0.99 })).toEqual({ status: 400, fields: ['capPercentile'] })
    expect(await post({ type: 'percent_of_keys', capPercentile: 0.9 })).toEqual({
      status: 400,
      fields: ['capPercentile'],
    })
    expect((await post({ capPercentile: 1 })).status).toBe(400)
    expect((await post({ capPercentile: 0.2 })).status).toBe(400)
    expect((await post({ preExposureDays: 0 })).status).toBe(400)
    expect((await post({ preExposureDays: 91 })).status).toBe(400)
    expect((await post({ preExposureDays: 7.5 })).status).toBe(400)
    expect((await post({ guardrail: 'yes' })).status).toBe(400)
    expect((await post({ capPercentile: 0.95, preExposureDays: 30, guardrail: true })).status).toBe(201)
  })
})
