// Conditions and rules: what is refused when saved, what a rule does to an alert, and property tests
// of rule order, stop and drop against a small reference interpreter written here.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkCondition, type Condition } from '../../../../src/pipeline/alerts/conditions.js'
import { toView } from '../../../../src/pipeline/alerts/moustache.js'
import type { NormalizedAlert } from '../../../../src/pipeline/alerts/render.js'
import {
  applyRulesAndWindows,
  compileRulesAndWindows,
  rulesBudget,
} from '../../../../src/pipeline/alerts/rules-and-windows.js'
import { applyRules, checkRules, type CompiledRuleSet } from '../../../../src/pipeline/alerts/rules.js'
import { WorkBudget } from '../../../../src/shared/budget.js'

const alert = (over: Partial<NormalizedAlert> = {}): NormalizedAlert => ({
  severity: 'warning',
  description: 'Disk almost full on db-1',
  source: 'prometheus',
  service: 'db',
  environment: 'prod',
  dedupKey: 'disk-db-1',
  status: 'firing',
  timestamp: '2026-11-26T10:00:00.000Z',
  receivedAt: '2026-11-26T10:00:00.000Z',
  integrationId: 'int-1',
  requestId: 'req-1',
  customFields: { region: 'eu' },
  ...over,
})
const payload = { labels: { env: 'prod', team: 'storage', cluster: 'c1' }, value: 97 }

function rules(input: unknown[], version = 1): CompiledRuleSet {
  const checked = checkRules(input, version)
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems))
  return checked.ruleSet
}
const problemsOf = (input: unknown) => {
  const checked = checkRules(input, 1)
  return checked.ok ? [] : checked.problems
}
const matches = (c: unknown, a = alert(), p: unknown = payload) => {
  const checked = checkCondition(c, 'when')
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems))
  return checked.condition.matches({ alert: a as unknown as Record<string, unknown>, payload: p }, new WorkBudget())
}

describe('conditions', () => {
  it('match fields, custom fields, payload paths and tags, with all, any and not', () => {
    expect(matches({ field: 'severity', equals: 'warning' })).toBe(true)
    expect(matches({ field: 'service', in: ['api', 'db'] })).toBe(true)
    expect(matches({ field: 'customFields.region', equals: 'eu' })).toBe(true)
    expect(matches({ field: 'payload.labels.team', matches: '^stor' })).toBe(true)
    expect(matches({ field: 'payload.value', equals: '97' })).toBe(true)
    expect(matches({ field: 'payload.labels.missing', exists: false })).toBe(true)
    expect(matches({ field: 'team', exists: true })).toBe(false)
    expect(matches({ field: 'tags', equals: 'pci' }, alert({ tags: ['x', 'pci'] }))).toBe(true)
    expect(
      matches({
        all: [
          { field: 'environment', equals: 'prod' },
          { not: { field: 'severity', in: ['info'] } },
          {
            any: [
              { field: 'team', exists: true },
              { field: 'description', matches: 'db-\\d' },
            ],
          },
        ],
      }),
    ).toBe(true)
    // A payload path through an inherited name finds nothing.
    expect(matches({ field: 'payload.labels.toString', exists: true })).toBe(false)
  })

  it('refuse unknown fields, bad shapes and what no alert can satisfy, naming where', () => {
    const refused = (c: unknown) => {
      const checked = checkCondition(c, 'rules.0.when')
      return checked.ok ? [] : checked.problems
    }
    expect(refused({ field: 'colour', equals: 'red' })[0]).toMatchObject({ field: 'rules.0.when.field' })
    expect(refused({ field: 'payload.__proto__.x', exists: true })[0]!.problem).toMatch(/not allowed/)
    expect(refused({ field: 'severity', equals: 'urgent' })[0]!.problem).toMatch(
      /never match: severity is never "urgent"/,
    )
    expect(
      refused({
        all: [
          { field: 'severity', equals: 'critical' },
          { field: 'severity', equals: 'info' },
        ],
      })[0]!.problem,
    ).toMatch(/never match/)
    expect(
      refused({ all: [{ field: 'team', equals: 'a' }, { not: { field: 'team', exists: true } }] })[0]!.problem,
    ).toMatch(/never match/)
    expect(refused({ not: { field: 'dedupKey', exists: true } })[0]!.problem).toMatch(/never match/)
    expect(refused({ field: 'team', in: [] })[0]).toMatchObject({ field: 'rules.0.when.in' })
    expect(refused({ field: 'team', equals: 'a', in: ['b'] })[0]!.field).toBe('rules.0.when')
    // What can hold is taken: tags are a set, a regex on another value may match.
    expect(
      refused({
        all: [
          { field: 'tags', equals: 'a' },
          { field: 'tags', equals: 'b' },
        ],
      }),
    ).toEqual([])
    expect(refused({ all: [{ not: { field: 'team', in: ['a'] } }, { field: 'team', matches: 'a' }] })).toEqual([])
    expect(
      refused({
        all: [
          { field: 'team', equals: 'a' },
          { field: 'team', matches: 'b' },
        ],
      })[0]!.problem,
    ).toMatch(/never match/)
    expect(refused({ all: [{ field: 'team', matches: 'x' }, { not: { field: 'team', equals: 'x' } }] })).toEqual([])
  })

  it('refuse regexes RE2 does not take, and bound the time of one built to backtrack', () => {
    const refused = (pattern: string) => {
      const checked = checkCondition({ field: 'description', matches: pattern }, 'w')
      return checked.ok ? undefined : checked.problems[0]!.problem
    }
    expect(refused('(a)\\1')).toMatch(/RE2/)
    expect(refused('(?=a)b')).toMatch(/RE2/)
    expect(refused('a'.repeat(1_000_001))).toMatch(/1 to 1000 characters/)
    // (a+)+$ against a long run of a's and a b: exponential for a backtracking engine, linear in RE2.
    const evil = checkCondition({ field: 'description', matches: '(a+)+$' }, 'w')
    if (!evil.ok) throw new Error('refused')
    const started = performance.now()
    const hit = evil.condition.matches({ alert: { description: `${'a'.repeat(60_000)}b` } }, new WorkBudget())
    const ms = performance.now() - started
    expect(hit).toBe(false)
    expect(ms).toBeLessThan(2000)
  })

  it('run a regex only when its worst case fits the budget left: `\\w{1000}\\d` over 64 KiB is refused before it starts', () => {
    const costly = checkCondition({ field: 'description', matches: '\\w{1000}\\d' }, 'w')
    if (!costly.ok) throw new Error('refused')
    const subject = { alert: { description: 'a'.repeat(64 * 1024) } }
    const started = performance.now()
    // Unbudgeted, this one run takes about 1.4 s (22 ns per character and instruction, on the bench machine).
    expect(() =>
      costly.condition.matches(subject, new WorkBudget({ maxSteps: 1000, maxCpuMs: 100 }, 'the rules')),
    ).toThrow(/the rules would pass 100 ms: the regex of description over 65536 characters could take \d+ ms/)
    expect(performance.now() - started).toBeLessThan(50)
    // The same regex over a short text fits, and runs.
    expect(costly.condition.matches({ alert: { description: `${'a'.repeat(1000)}1` } }, new WorkBudget())).toBe(true)
    // A cheap regex over the long text runs however long the text: its program is small.
    const cheap = checkCondition({ field: 'description', matches: '^prod' }, 'w')
    if (!cheap.ok) throw new Error('refused')
    expect(cheap.condition.matches(subject, new WorkBudget({ maxSteps: 1000, maxCpuMs: 100 }))).toBe(false)
  })

  it('run a typical regex over a long text within the budget: its worst case is far from what it costs', () => {
    // 40 service names, case-insensitive (259 instructions), over a 16.5 KiB stack trace: 129 ms at worst, 6 in fact.
    const names = Array.from({ length: 40 }, (_, i) => `service-${i}`).join('|')
    const typical = checkCondition({ field: 'description', matches: `(?i)(${names})` }, 'w')
    if (!typical.ok) throw new Error('refused')
    const trace = Array.from({ length: 320 }, (_, i) => `    at handler${i} (/srv/app/lib/module${i}.js:${i}:17)`).join(
      '\n',
    )
    expect(trace.length).toBeGreaterThan(16_000)
    // The budget counts wall time in slices: on a loaded machine one run can be preempted past it, so the least of
    // five runs is what the regex costs.
    const spent = Array.from({ length: 5 }, () => {
      const budget = new WorkBudget({ maxSteps: 1000, maxCpuMs: 100 }, 'the rules')
      expect(typical.condition.matches({ alert: { description: `${trace}\nin SERVICE-39` } }, budget)).toBe(true)
      return budget.spentMs
    })
    expect(Math.min(...spent)).toBeLessThan(100)
  })

  it('refuse a rule set whose regexes compile to more than 50,000 instructions all together, naming the one past it', () => {
    const rule = (i: number) => ({
      id: `r${i}`,
      name: 'r',
      when: { field: 'description', matches: `\\w{1000}${i}` },
      addTags: ['t'],
    })
    expect(problemsOf(Array.from({ length: 49 }, (_, i) => rule(i)))).toEqual([])
    const problems = problemsOf(Array.from({ length: 500 }, (_, i) => rule(i)))
    expect(problems[0]).toEqual({
      field: 'rules.49.when.matches',
      problem: expect.stringMatching(/past the 50000 all the regexes together may take/),
    })
    // Past the total, the rest are not compiled at all (each would cost milliseconds).
    expect(problems.slice(1).every((p) => /one regex too many/.test(p.problem))).toBe(true)
  })

  it('bound size and depth', () => {
    let deep: unknown = { field: 'team', exists: true }
    for (let i = 0; i < 9; i++) deep = { not: deep }
    expect(checkCondition(deep, 'w').ok).toBe(false)
    const wide = { any: Array.from({ length: 300 }, (_, i) => ({ field: 'team', equals: `t${i}` })) }
    expect(checkCondition(wide, 'w')).toMatchObject({
      ok: false,
      problems: [{ problem: expect.stringMatching(/more than 200/) }],
    })
  })
})

describe('rules', () => {
  it('set fields from templates over the alert and the payload, add custom fields and tags, and record the rules', () => {
    const set = rules(
      [
        {
          id: 'team-from-label',
          name: 'team from the label',
          when: { field: 'payload.labels.team', exists: true },
          set: { team: '{{webhook.labels.team}}', description: '[{{alert.environment}}] {{alert.description}}' },
          customFields: { cluster: '{{webhook.labels.cluster}}' },
        },
        {
          id: 'prod-critical',
          name: 'prod is critical',
          when: { field: 'environment', equals: 'prod' },
          set: { severity: 'critical' },
          addTags: ['prod'],
        },
        { id: 'never', name: 'not for prod', when: { field: 'environment', equals: 'staging' }, addTags: ['staging'] },
      ],
      7,
    )
    const out = applyRules(set, alert(), toView(payload))
    expect(out).toMatchObject({
      dropped: false,
      applied: ['team-from-label', 'prod-critical'],
      alert: {
        team: 'storage',
        severity: 'critical',
        description: '[prod] Disk almost full on db-1',
        customFields: { region: 'eu', cluster: 'c1' },
        tags: ['prod'],
        rulesVersion: 7,
        rulesApplied: ['team-from-label', 'prod-critical'],
      },
    })
    // The input alert is left as it was.
    expect(alert().team).toBeUndefined()
  })

  it('leave a templated severity that is none unchanged, and drop or stop', () => {
    const set = rules([
      { id: 'sev', name: 's', set: { severity: '{{webhook.labels.env}}' } },
      { id: 'noise', name: 'drop the noisy check', when: { field: 'description', matches: '^Disk' }, drop: true },
      { id: 'after', name: 'never reached', addTags: ['x'] },
    ])
    expect(applyRules(set, alert(), toView(payload))).toEqual({ dropped: true, by: 'noise', applied: ['sev', 'noise'] })
    const kept = applyRules(set, alert({ description: 'CPU' }), toView(payload))
    expect(kept).toMatchObject({ dropped: false, alert: { severity: 'warning', tags: ['x'] } })
  })

  it('refuse a rule set naming each problem: ids, fields, templates, literal severities, 10,000 rules, __proto__', () => {
    expect(problemsOf([{ id: 'a', name: 'a', set: { dedupKey: 'x' } }])[0]).toMatchObject({
      field: 'rules.0.set.dedupKey',
    })
    expect(problemsOf([{ id: 'a', name: 'a', set: { severity: 'urgent' } }])[0]).toMatchObject({
      field: 'rules.0.set.severity',
    })
    expect(problemsOf([{ id: 'a', name: 'a', set: { team: '{{payload.x}}' } }])[0]!.problem).toMatch(
      /names start with alert or webhook/,
    )
    expect(problemsOf([{ id: 'a', name: 'a', set: { team: '{{#a}}' } }])[0]!.problem).toMatch(/syntax/)
    expect(problemsOf([{ id: 'a', name: 'a' }])[0]!.problem).toMatch(/does nothing/)
    expect(
      problemsOf([
        { id: 'a', name: 'a', stop: true },
        { id: 'a', name: 'b', stop: true },
      ])[0],
    ).toMatchObject({ field: 'rules.1.id' })
    expect(
      problemsOf(Array.from({ length: 10_000 }, (_, i) => ({ id: `r${i}`, name: 'r', stop: true })))[0]!.problem,
    ).toMatch(/10000 rules; at most 500/)
    expect(problemsOf([JSON.parse('{"id":"a","name":"a","customFields":{"__proto__":"x"}}')])[0]!.problem).toMatch(
      /name/,
    )
    expect(problemsOf([{ id: 'a', name: 'a', stop: true, colour: 1 }])[0]).toMatchObject({ field: 'rules.0.colour' })
  })
})

// A reference interpreter of the same semantics for a subset (literal sets of team, tags, drop,
// stop; conditions on severity, team and tags), written independently of the code under test.
type RefCondition = Condition
interface RefRule {
  id: string
  name: string
  enabled?: boolean
  when?: RefCondition
  set?: { team?: string }
  addTags?: string[]
  drop?: boolean
  stop?: boolean
}
function refHolds(c: RefCondition, a: { severity: string; team?: string; tags: string[] }): boolean {
  if ('all' in c) return c.all.every((x) => refHolds(x, a))
  if ('any' in c) return c.any.some((x) => refHolds(x, a))
  if ('not' in c) return !refHolds(c.not, a)
  const values = c.field === 'tags' ? a.tags : c.field === 'team' ? (a.team ? [a.team] : []) : [a.severity]
  if ('exists' in c) return values.length > 0 === c.exists
  if ('equals' in c) return values.includes(c.equals)
  if ('in' in c) return values.some((v) => c.in.includes(v))
  return false
}
function refApply(rs: RefRule[], start: { severity: string; team?: string; tags: string[] }) {
  const a = { ...start, tags: [...start.tags] }
  const applied: string[] = []
  for (const r of rs) {
    if (r.enabled === false || (r.when && !refHolds(r.when, a))) continue
    applied.push(r.id)
    if (r.drop) return { dropped: true, by: r.id, applied }
    if (r.set?.team !== undefined) a.team = r.set.team
    for (const t of r.addTags ?? []) if (!a.tags.includes(t)) a.tags.push(t)
    if (r.stop) break
  }
  return { dropped: false, applied, team: a.team, tags: a.tags }
}

describe('rules, property tests against the reference', () => {
  const value = fc.constantFrom('a', 'b', 'c')
  const leaf: fc.Arbitrary<RefCondition> = fc.oneof(
    fc.record({ field: fc.constant('severity'), equals: fc.constantFrom('critical', 'warning', 'info') }),
    fc.record({ field: fc.constantFrom('team', 'tags'), equals: value }),
    fc.record({ field: fc.constantFrom('team', 'tags'), in: fc.uniqueArray(value, { minLength: 1, maxLength: 2 }) }),
    fc.record({ field: fc.constantFrom('team', 'tags'), exists: fc.boolean() }),
  )
  const condition = fc.letrec<{ c: RefCondition }>((tie) => ({
    c: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ not: tie('c') }),
      fc.record({ all: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ any: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
    ),
  })).c
  const rule = (id: number): fc.Arbitrary<RefRule> =>
    fc
      .record(
        {
          enabled: fc.boolean(),
          when: condition,
          set: fc.record({ team: value }),
          addTags: fc.uniqueArray(value, { minLength: 1, maxLength: 2 }),
          drop: fc.boolean(),
          stop: fc.boolean(),
        },
        { requiredKeys: [] },
      )
      .map((r) => ({ id: `r${id}`, name: `rule ${id}`, ...r }))
  const ruleSets = fc
    .integer({ min: 0, max: 8 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => rule(i))))
  const start = fc.record({
    severity: fc.constantFrom('critical', 'warning', 'info'),
    team: fc.option(value, { nil: undefined }),
    tags: fc.uniqueArray(value, { maxLength: 2 }),
  })

  it('apply in order, honour stop and drop, and record exactly the rules that applied', () => {
    fc.assert(
      fc.property(ruleSets, start, (rs, a) => {
        // Rules no alert can satisfy, or that do nothing, are refused when saved: only valid sets are compared.
        const checked = checkRules(rs, 3)
        fc.pre(checked.ok)
        if (!checked.ok) return
        const input = alert({ severity: a.severity as NormalizedAlert['severity'], team: a.team, tags: a.tags })
        if (a.team === undefined) delete input.team
        if (a.tags.length === 0) delete input.tags
        const got = applyRules(checked.ruleSet, input, toView({}))
        const want = refApply(rs, a)
        expect(got.dropped).toBe(want.dropped)
        expect(got.applied).toEqual(want.applied)
        if (!got.dropped && !want.dropped) {
          expect(got.alert.team).toBe(want.team)
          expect(got.alert.tags ?? []).toEqual(want.tags)
          expect(got.alert.rulesApplied).toEqual(want.applied.length ? want.applied : undefined)
        } else expect(got.dropped && got.by).toBe(want.dropped && want.by)
      }),
      { numRuns: 2000 },
    )
  })

  it('a rule set split in two and applied in turn gives what the whole gives, when no rule drops or stops', () => {
    fc.assert(
      fc.property(ruleSets, start, fc.nat(), (rs, a, cut) => {
        const plain = rs.map((r) => ({ ...r, drop: false, stop: false }))
        const whole = checkRules(plain, 1)
        const k = plain.length === 0 ? 0 : cut % (plain.length + 1)
        const head = checkRules(plain.slice(0, k), 1)
        const tail = checkRules(plain.slice(k), 1)
        fc.pre(whole.ok && head.ok && tail.ok)
        if (!whole.ok || !head.ok || !tail.ok) return
        const input = alert({ team: a.team, tags: a.tags })
        const once = applyRules(whole.ruleSet, input, toView({}))
        const first = applyRules(head.ruleSet, input, toView({}))
        if (first.dropped) throw new Error('no rule drops')
        const twice = applyRules(tail.ruleSet, first.alert, toView({}))
        if (once.dropped || twice.dropped) throw new Error('no rule drops')
        expect(twice.alert.team).toBe(once.alert.team)
        expect(twice.alert.tags).toEqual(once.alert.tags)
      }),
      { numRuns: 1000 },
    )
  })
})

describe('rules and windows over the budget of a payload', () => {
  it('leave the alert as its mapping made it, saying why; the next payload has a budget of its own', () => {
    const many = Array.from({ length: 50 }, (_, i) => ({
      id: `r${i}`,
      name: 'r',
      when: { field: 'description', matches: `\\w{900}${i % 10}` },
      set: { team: 'changed' },
    }))
    const { compiled } = compileRulesAndWindows({ version: 7, rules: many }, [
      {
        id: 'mw',
        name: 'all',
        schedule: { kind: 'once', from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' },
      },
    ])
    const long = alert({ description: `${'a'.repeat(20_000)}` })
    const atMs = Date.parse('2026-11-26T10:00:00Z')
    const over = applyRulesAndWindows(compiled, long, toView(payload), atMs, rulesBudget(5))
    expect(over).toMatchObject({
      dropped: false,
      applied: [],
      // Refused before the first regex runs (its worst case does not fit), or, when the machine stalled the test
      // past the 5 ms already, as spent: either way the reason names the budget.
      overBudget: expect.stringMatching(
        /^the account's alert rules and maintenance windows (would pass 5 ms: the regex|takes more than 5 ms)/,
      ),
    })
    // Stored unchanged (not suppressed by the window either), with the reason on the alert for Why.
    expect(!over.dropped && over.alert).toEqual({ ...long, overBudget: (over as { overBudget: string }).overBudget })
    // A short alert fits: every rule and the window apply.
    const fits = applyRulesAndWindows(compiled, alert(), toView(payload), atMs, rulesBudget(100))
    expect(fits).toMatchObject({ dropped: false, suppressed: { id: 'mw' } })
    expect(!fits.dropped && fits.alert.overBudget).toBeUndefined()
  })
})
