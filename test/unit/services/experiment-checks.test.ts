// The checks role's share of a run per account, over fakes of its stores and of the results (no engine): the accounts
// take turns, so an account with many flags (made up with a public client-side SDK key) delays another's alerts by one
// flag, not by all of its flags; each account stops at its budget (flags, time, alerts) and starts its next run where
// it stopped, saved flags first; a flag without saved settings or enough exposed keys raises info alerts. And an
// environment's list of flags (ExperimentService.flags, over a fake of ClickHouse) holds every flag with saved settings
// and, in what remains of its bound, the others with the most keys, however many flags are made up and named to sort
// first.
import { describe, expect, it } from 'vitest'
import { bind, type Query } from '../../../src/analysis/sql.js'
import {
  alertsOf,
  ExperimentChecks,
  type CheckAlert,
  type CheckBudget,
} from '../../../src/services/experiment-checks.js'
import {
  ExperimentService,
  MAX_FLAGS_LISTED,
  type ExperimentResults,
  type FlagSeen,
} from '../../../src/services/experiments/service.js'
import type { IntegrationService } from '../../../src/services/integrations.js'
import type { MetricService } from '../../../src/services/metrics.js'
import { createLogger } from '../../../src/shared/logger.js'
import type { CheckCursor, ExperimentStore, OpenCheck } from '../../../src/state/redis/experiments.js'
import type { Environment, TenancyStore, Workspace } from '../../../src/state/redis/tenancy.js'

const NOW = Date.UTC(2026, 2, 1, 12)
const HOUR = 3_600_000

interface Flag {
  flag: string
  /** Exposed keys (default 100). */
  keys?: number
  /** Its sample ratio p-value (default 1e-9: a mismatch). */
  pValue?: number
  /** Failing guardrail comparisons (default none). */
  failing?: number
  saved?: boolean
  /** Milliseconds its results take (default 0). */
  slowMs?: number
  /** No impressions any more: not listed (its saved settings stay). */
  stopped?: boolean
}

/** Accounts, each with one workspace and one environment holding `flags`; the stores and services faked over them. */
function world(accounts: Record<string, Flag[]>) {
  const envOf = (account: string): Environment => ({
    id: `env-${account}`,
    name: 'Production',
    production: true,
    workspaceId: `ws-${account}`,
    accountId: account,
  })
  const flagsOf = (envId: string) => accounts[envId.slice('env-'.length)]!
  /** Environments whose list is cut: only their flags with saved settings and the first `n` others are listed. */
  const cut = new Map<string, number>()
  const checked: string[] = []
  const published: (CheckAlert & { accountId: string })[] = []
  const open = new Map<string, Map<string, OpenCheck>>()
  const cursors = new Map<string, CheckCursor>()
  const logs: Record<string, unknown>[] = []

  const tenancy = {
    listAccounts: async () => Object.keys(accounts).map((id) => ({ id, name: id })),
    listWorkspaces: async (account: string) => [{ id: `ws-${account}`, accountId: account } as Workspace],
    environments: async (ws: string) => [envOf(ws.slice('ws-'.length))],
  } as unknown as TenancyStore
  const metrics = { list: async () => [] } as unknown as MetricService
  const experiments = {
    flags: async (env: Environment) => {
      const all = flagsOf(env.id)
      const seen = all.filter((f) => !f.stopped)
      const others = cut.get(env.id)
      const listed = [...seen.filter((f) => f.saved), ...seen.filter((f) => !f.saved).slice(0, others ?? Infinity)]
      return {
        flags: listed.map((f): FlagSeen => ({
          flag: f.flag,
          treatments: ['off', 'on'],
          keys: f.keys ?? 100,
          impressions: f.keys ?? 100,
          firstImpressionAt: new Date(NOW - 2 * HOUR).toISOString(),
          lastImpressionAt: new Date(NOW - HOUR).toISOString(),
        })),
        saved: new Set(all.filter((f) => f.saved).map((f) => f.flag)),
        complete: others === undefined,
      }
    },
    results: async (_ws: Workspace, env: Environment, req: { flag: string }) => {
      const f = flagsOf(env.id).find((x) => x.flag === req.flag)!
      checked.push(`${env.accountId}/${f.flag}`)
      if (f.slowMs) await new Promise((r) => setTimeout(r, f.slowMs))
      const keys = f.keys ?? 100
      return {
        flag: f.flag,
        exposure: { keys, perTreatment: { off: keys * 0.2, on: keys * 0.8 }, excludedKeys: 0 },
        srm: { pValue: f.pValue ?? 1e-9 },
        metrics: [
          {
            metricId: 'errors',
            name: 'Errors',
            desiredDirection: 'decrease',
            comparisons: Array.from({ length: f.failing ?? 0 }, (_, i) => ({
              treatment: `t${i}`,
              baseline: 'off',
              guardrail: 'failing',
              relative: { estimate: 0.5, of: 'baseline-mean' },
            })),
          },
        ],
      } as unknown as ExperimentResults
    },
  } as unknown as ExperimentService
  const integrations = {
    // The account's own checks integration: the one known, else one made.
    own: async (account: string, known: string | undefined) =>
      known ? { id: known, made: false } : { id: `int-${account}`, made: true },
  } as unknown as IntegrationService
  const openOf = (account: string) => open.get(account) ?? open.set(account, new Map()).get(account)!
  const store = {
    lockChecks: async () => true,
    renewChecksLock: async () => true,
    unlockChecks: async () => undefined,
    claimCheckRun: async () => true,
    openChecks: async (account: string) => new Map(openOf(account)),
    markOpen: async (account: string, id: string, o: OpenCheck) => void openOf(account).set(id, o),
    markResolved: async (account: string, id: string) => void openOf(account).delete(id),
    checksIntegration: async (account: string) => `int-${account}`,
    saveChecksIntegration: async () => undefined,
    checksCursor: async (account: string) => ({ ...cursors.get(account) }),
    saveChecksCursor: async (account: string, c: CheckCursor) => void cursors.set(account, { ...c }),
  } as unknown as ExperimentStore
  const log = createLogger('info', {
    write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>),
  })

  const checks = (budget: Partial<CheckBudget> = {}, minKeys = 1000) =>
    new ExperimentChecks(tenancy, metrics, experiments, integrations, store, {
      intervalMs: HOUR,
      lookbackMs: 30 * 24 * HOUR,
      budget: { flags: 1000, ms: 600_000, alerts: 1000, ...budget },
      minKeys,
      owner: 'test',
      publish: async (accountId, _integration, alert) => void published.push({ ...alert, accountId }),
      log,
    })
  /** The alerts sent so far, firing ones, cleared. */
  const sent = () => published.splice(0)
  return { checks, checked, sent, open, logs, cut }
}

const madeUp = (n: number): Flag[] =>
  Array.from({ length: n }, (_, i) => ({ flag: `made-up-${String(i).padStart(3, '0')}` }))

describe('experiment checks: accounts in turns', () => {
  it("an account's 1,000 made-up flags delay another account's alert by one flag, not a thousand", async () => {
    const w = world({ hostile: madeUp(1000), good: [{ flag: 'pricing', saved: true }] })
    const run = await w.checks({ flags: 50 }).runOnce(NOW)
    // The well-behaved account's flag is the second flag checked; its alert is critical.
    expect(w.checked.indexOf('good/pricing')).toBe(1)
    const alerts = w.sent()
    const good = alerts.filter((a) => a.accountId === 'good')
    expect(good).toEqual([expect.objectContaining({ service: 'pricing', severity: 'critical', status: 'firing' })])
    expect(alerts.indexOf(good[0]!)).toBe(1)
    // The made-up flags: the budget of them, each info.
    const hostile = alerts.filter((a) => a.accountId === 'hostile')
    expect(hostile).toHaveLength(50)
    expect(hostile.every((a) => a.severity === 'info')).toBe(true)
    expect(run).toMatchObject({ accounts: 2, experiments: 51, firing: 51, deferred: 950, cut: 0 })
  })

  it('an account past its time stops, and the others go on', async () => {
    const w = world({
      slow: madeUp(30).map((f) => ({ ...f, slowMs: 30 })),
      good: [{ flag: 'a' }, { flag: 'b' }, { flag: 'c' }],
    })
    await w.checks({ ms: 100 }).runOnce(NOW)
    const slow = w.checked.filter((c) => c.startsWith('slow/'))
    // Each of its checks takes 30 ms or more: at most 4 fit in 100 ms.
    expect(slow.length).toBeGreaterThan(0)
    expect(slow.length).toBeLessThanOrEqual(4)
    expect(w.checked.filter((c) => c.startsWith('good/'))).toEqual(['good/a', 'good/b', 'good/c'])
  })

  it('the flags not reached are the first ones next run, saved ones first, and their alerts stay open', async () => {
    const flags: Flag[] = [...madeUp(10), { flag: 'pricing', saved: true }]
    const w = world({ a: flags })
    const checks = w.checks({ flags: 4 })
    await checks.runOnce(NOW)
    expect(w.checked.splice(0)).toEqual(['a/pricing', 'a/made-up-000', 'a/made-up-001', 'a/made-up-002'])
    await checks.runOnce(NOW + HOUR)
    expect(w.checked.splice(0)).toEqual(['a/pricing', 'a/made-up-003', 'a/made-up-004', 'a/made-up-005'])
    // The alerts of the first run's flags, not checked in the second, were not resolved.
    expect(w.sent().filter((a) => a.status === 'resolved')).toEqual([])
    expect(w.open.get('a')!.size).toBe(7)
    await checks.runOnce(NOW + 2 * HOUR)
    await checks.runOnce(NOW + 3 * HOUR)
    expect(w.checked.splice(0)).toEqual(
      [
        ...['pricing', 'made-up-006', 'made-up-007', 'made-up-008'],
        ...['pricing', 'made-up-009', 'made-up-000', 'made-up-001'],
      ].map((f) => `a/${f}`),
    )
    // A flag that stops running (no longer listed) has its alert resolved, with the severity it was raised with.
    flags.splice(
      flags.findIndex((f) => f.flag === 'made-up-005'),
      1,
    )
    w.sent()
    await checks.runOnce(NOW + 4 * HOUR)
    expect(w.sent().filter((a) => a.status === 'resolved')).toEqual([
      expect.objectContaining({ service: 'made-up-005', severity: 'info' }),
    ])
  })

  it('an account past its alerts has the rest cut, counted and logged, and its next flags wait for the next run', async () => {
    // The first flag fails 6 guardrails beside its sample ratio: 7 alerts.
    const w = world({ a: [{ flag: 'f1', failing: 6 }, { flag: 'f2' }, { flag: 'f3' }] })
    const checks = w.checks({ alerts: 5 })
    const run = await checks.runOnce(NOW)
    expect(w.sent()).toHaveLength(5)
    expect(run).toMatchObject({ firing: 5, cut: 2, deferred: 2 })
    expect(w.logs).toContainEqual(expect.objectContaining({ accountId: 'a', cut: 2, deferred: 2 }))
    // The next run starts after the flag whose alerts were cut (it does not hold the others back for ever).
    expect(await checks.runOnce(NOW + HOUR)).toMatchObject({ firing: 5, cut: 4, deferred: 0 })
    expect(w.checked).toEqual(['a/f1', 'a/f2', 'a/f3', 'a/f1'])
    expect(w.sent().map((a) => a.service)).toEqual(['f2', 'f3', 'f1', 'f1', 'f1'])
  })
})

describe('experiment checks: severity', () => {
  const env = { id: 'e', name: 'Production' } as Environment
  const results = (keys: number, failing = false) =>
    ({
      flag: 'checkout',
      exposure: { keys, perTreatment: { off: keys / 4, on: (3 * keys) / 4 }, excludedKeys: 0 },
      srm: { pValue: 1e-12 },
      metrics: [
        {
          metricId: 'm',
          name: 'Errors',
          desiredDirection: 'decrease',
          comparisons: failing
            ? [
                {
                  treatment: 'on',
                  baseline: 'off',
                  guardrail: 'failing',
                  relative: { estimate: 0.2, of: 'baseline-mean' },
                },
              ]
            : [],
        },
      ],
    }) as unknown as ExperimentResults
  const severities = (r: ExperimentResults, saved: boolean) =>
    alertsOf(r, env, NOW, { saved, minKeys: 1000 }).map((a) => a.severity)

  it('is full for a flag with saved settings or enough exposed keys, info otherwise, and says why', () => {
    expect(severities(results(100, true), true)).toEqual(['critical', 'warning'])
    expect(severities(results(1000, true), false)).toEqual(['critical', 'warning'])
    expect(severities(results(999, true), false)).toEqual(['info', 'info'])
    const [srm, guardrail] = alertsOf(results(999, true), env, NOW, { saved: false, minKeys: 1000 })
    expect(srm!.message).toMatch(
      /^Sample ratio mismatch in checkout .*\. Informational: checkout has no saved experiment settings and 999 exposed keys \(fewer than 1000\).* to have this raised as critical$/,
    )
    expect(guardrail!.message).toMatch(/^Guardrail Errors is failing .* to have this raised as warning$/)
  })
})

describe("experiment checks: an environment's list cut at its bound", () => {
  it("keeps the open alerts of the flags without saved settings it left out, and resolves a saved flag's that stopped", async () => {
    const flags: Flag[] = [{ flag: 'pricing', saved: true }, ...madeUp(5)]
    const w = world({ a: flags })
    const checks = w.checks()
    await checks.runOnce(NOW)
    expect(w.open.get('a')!.size).toBe(6)
    w.sent()
    // The list is cut after 2 flags without saved settings, and pricing stops running.
    w.cut.set('env-a', 2)
    flags[0]!.stopped = true
    await checks.runOnce(NOW + HOUR)
    expect(w.sent().filter((a) => a.status === 'resolved')).toEqual([
      expect.objectContaining({ service: 'pricing', severity: 'critical' }),
    ])
    expect([...w.open.get('a')!.values()].map((o) => o.flag).sort()).toEqual(madeUp(5).map((f) => f.flag))
  })
})

describe("an environment's list of flags", () => {
  interface Seen {
    flag: string
    keys: number
  }
  /** The service over a fake of ClickHouse holding `seen` (the list query's WHERE, ORDER BY and LIMIT) and `saved`. */
  function service(seen: Seen[], saved: string[]) {
    const queries: Query[] = []
    const run = async (q: Query) => {
      queries.push(q)
      // The String parameters besides the environment's id: the names asked about.
      const names = q.text.includes('flag IN')
        ? new Set(Object.values(q.params).filter((v) => typeof v === 'string' && v !== 'env'))
        : undefined
      const limit = Number(/LIMIT (\d+)/.exec(q.text)![1])
      return seen
        .filter((f) => names === undefined || names.has(f.flag))
        .sort((a, b) => b.keys - a.keys || (a.flag < b.flag ? -1 : 1))
        .slice(0, limit)
        .map((f) => ({
          flag: f.flag,
          treatments: ['on', 'off'],
          keys: f.keys,
          impressions: f.keys,
          firstImpressionMs: NOW - 2 * HOUR,
          lastImpressionMs: NOW - HOUR,
        }))
    }
    const store = { savedFlagNames: async () => [...saved].sort() } as unknown as ExperimentStore
    const env = { id: 'env', workspaceId: 'ws' } as Environment
    const x = new ExperimentService(
      run,
      { events: 'db.events', impressions: 'db.impressions' },
      {} as MetricService,
      store,
    )
    return { list: () => x.flags(env, String(NOW - 24 * HOUR), String(NOW)), queries }
  }
  // 1,000 made-up flags, one key each, named to sort before any real flag.
  const crowd: Seen[] = Array.from({ length: 1000 }, (_, i) => ({ flag: String(i).padStart(4, '0'), keys: 1 }))

  it('holds every flag with saved settings and the others with the most keys, whatever the made-up flags are named', async () => {
    const { list } = service([...crowd, { flag: 'pricing', keys: 1000 }, { flag: 'search', keys: 600 }], ['pricing'])
    const { flags, saved, complete } = await list()
    expect(flags).toHaveLength(MAX_FLAGS_LISTED)
    expect(flags.map((f) => f.flag)).toEqual(expect.arrayContaining(['pricing', 'search']))
    expect(saved).toEqual(new Set(['pricing']))
    // Made-up flags were left out: the alerts of unlisted flags without saved settings stay.
    expect(complete).toBe(false)
    // By name, as the API lists them.
    expect(flags.map((f) => f.flag)).toEqual(flags.map((f) => f.flag).sort())
  })

  it('holds a saved flag with fewer keys than every made-up one, and more saved flags than the bound', async () => {
    const many = Array.from({ length: 1200 }, (_, i) => `saved-${i}`)
    const crowded = crowd.map((f) => ({ ...f, keys: 50 }))
    const { list } = service([...crowded, ...many.map((flag) => ({ flag, keys: 2 }))], many)
    const { flags, complete } = await list()
    expect(flags.map((f) => f.flag)).toEqual([...many].sort())
    expect(complete).toBe(false)
  })

  it('is complete when nothing was left out', async () => {
    const { list } = service([...crowd.slice(0, 10), { flag: 'pricing', keys: 3 }], ['pricing', 'stopped'])
    const { flags, complete } = await list()
    expect(flags).toHaveLength(11)
    expect(complete).toBe(true)
  })

  it('asks about saved flags in queries that stay far below max_query_size, whatever their names hold', async () => {
    // 2,000 saved names of 250 control characters: each a literal of 1,000 characters or more once escaped.
    const names = Array.from({ length: 2000 }, (_, i) => `${i}`.padStart(250, '\u0001'))
    const { list, queries } = service([], names)
    await list()
    const named = queries.filter((q) => q.text.includes('flag IN'))
    expect(named.length).toBeGreaterThan(1)
    expect(named.reduce((n, q) => n + Object.keys(q.params).length - 5, 0)).toBe(2000)
    for (const q of queries) expect(bind(q).length).toBeLessThan(128 * 1024)
  })
})
