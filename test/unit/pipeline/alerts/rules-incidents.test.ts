// The rules' incident actions as pure functions: a group's key (by fields, or a template) and title, the window and
// minAlerts, a long key kept as its hash, inhibition pairs as a source and as a target, and the checks that refuse a
// bad group or inhibit naming the field.
import { describe, expect, it } from 'vitest'
import { toView } from '../../../../src/pipeline/alerts/moustache.js'
import type { NormalizedAlert } from '../../../../src/pipeline/alerts/render.js'
import { parseDuration } from '../../../../src/pipeline/incidents/grouping.js'
import { applyRules, checkRules, type CompiledRuleSet } from '../../../../src/pipeline/alerts/rules.js'

const alert = (over: Partial<NormalizedAlert> = {}): NormalizedAlert => ({
  severity: 'warning',
  description: 'Connection refused',
  source: 'prometheus',
  service: 'checkout',
  environment: 'prod',
  dedupKey: 'a-1',
  status: 'firing',
  timestamp: '2026-11-26T10:00:00.000Z',
  receivedAt: '2026-11-26T10:00:00.000Z',
  integrationId: 'int-1',
  requestId: 'req-1',
  customFields: { alertname: 'ConnectionRefused', cluster: 'eu-1' },
  ...over,
})

function rules(input: unknown[]): CompiledRuleSet {
  const checked = checkRules(input, 3)
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems))
  return checked.ruleSet
}
const outcome = (set: CompiledRuleSet, a = alert(), payload: unknown = {}) => {
  const o = applyRules(set, a, toView(payload))
  if (o.dropped) throw new Error('dropped')
  return o
}

describe('durations', () => {
  it('reads s, m, h and d, and nothing else', () => {
    expect([parseDuration('10s'), parseDuration('5m'), parseDuration('2h'), parseDuration('7d')]).toEqual([
      10_000, 300_000, 7_200_000, 604_800_000,
    ])
    for (const bad of ['', '5', 'm', '0m', '-1m', '1.5m', '5 m', '5M', '1y', '99999999m'])
      expect(parseDuration(bad), bad).toBeUndefined()
  })
})

describe('group', () => {
  it('keys by the named fields (alert fields, custom fields, payload paths), with the rule, its window and title', () => {
    const set = rules([
      {
        id: 'g',
        name: 'g',
        group: {
          by: ['service', 'customFields.cluster', 'webhook.dc'],
          window: '5m',
          minAlerts: 3,
          title: '{{alert.service}} down',
        },
      },
    ])
    expect(outcome(set, alert(), { dc: 'fra' }).group).toEqual({
      rule: 'g',
      key: 'g\nservice=checkout\ncustomFields.cluster=eu-1\nwebhook.dc=fra',
      windowMs: 300_000,
      minAlerts: 3,
      title: 'checkout down',
    })
    // Alerts differing in a grouped field have other keys; in another field, the same key.
    const key = (a: NormalizedAlert) => outcome(set, a, { dc: 'fra' }).group!.key
    expect(key(alert({ service: 'search' }))).not.toBe(key(alert()))
    expect(key(alert({ dedupKey: 'a-2', severity: 'critical' }))).toBe(key(alert()))
  })

  it('takes the last rule that applied with a group, until resolved, and keeps a long key as its hash', () => {
    const set = rules([
      { id: 'first', name: 'first', group: { by: ['service'], until: 'resolved' } },
      {
        id: 'second',
        name: 'second',
        when: { field: 'service', equals: 'checkout' },
        group: { key: '{{webhook.k}}', until: 'resolved' },
      },
    ])
    const long = outcome(set, alert(), { k: 'x'.repeat(1000) }).group!
    expect(long).toMatchObject({ rule: 'second', windowMs: 0, minAlerts: 1 })
    expect(long.key).toMatch(/^sha256:[A-Za-z0-9_-]{43}$/)
    expect(outcome(set, alert(), { k: 'x'.repeat(1000) }).group!.key).toBe(long.key)
    expect(outcome(set, alert(), { k: `${'x'.repeat(999)}y` }).group!.key).not.toBe(long.key)
    expect(outcome(set, alert({ service: 'search' })).group).toMatchObject({
      rule: 'first',
      key: 'first\nservice=search',
    })
  })

  it('refuses a bad group naming the field', () => {
    const problems = (group: unknown) => {
      const checked = checkRules([{ id: 'g', name: 'g', group }], 1)
      return checked.ok ? [] : checked.problems.map((p) => p.field)
    }
    expect(problems({ by: ['service'] })).toEqual(['rules.0.group'])
    expect(problems({ by: ['service'], key: '{{alert.service}}', window: '5m' })).toEqual(['rules.0.group'])
    expect(problems({ by: ['colour', 'customFields.'], until: 'resolved' })).toEqual([
      'rules.0.group.by.0',
      'rules.0.group.by.1',
    ])
    expect(problems({ by: ['service'], window: '5s' })).toEqual(['rules.0.group.window'])
    expect(problems({ by: ['service'], window: '5m', until: 'resolved' })).toEqual(['rules.0.group'])
    expect(problems({ by: ['service'], until: 'later' })).toEqual(['rules.0.group.until'])
    expect(problems({ by: ['service'], until: 'resolved', minAlerts: 1001 })).toEqual(['rules.0.group.minAlerts'])
    expect(problems({ by: ['service'], until: 'resolved', __proto__: 1, colour: 1 })).toEqual(['rules.0.group.colour'])
    expect(problems({ key: '{{#alert}}', until: 'resolved' })).toEqual(['rules.0.group.key'])
  })
})

describe('inhibit', () => {
  const set = rules([
    { id: 'stop-all', name: 'stop', when: { field: 'service', equals: 'postgres' }, stop: true, addTags: ['db'] },
    {
      id: 'db-down',
      name: 'db down',
      when: { field: 'customFields.alertname', equals: 'ConnectionRefused' },
      inhibit: { source: { field: 'customFields.alertname', equals: 'DatabaseDown' }, equal: ['customFields.cluster'] },
    },
    {
      id: 'off',
      name: 'off',
      enabled: false,
      inhibit: { source: { field: 'severity', equals: 'critical' }, equal: ['service'] },
    },
  ])

  it('makes a target pair of the rules that applied, and a source pair of every enabled rule whose source matches', () => {
    expect(outcome(set).inhibit).toEqual({ sources: [], targets: [['db-down', 'db-down\ncustomFields.cluster=eu-1']] })
    // A source is one even when an earlier rule stopped the rules before the inhibiting one.
    const db = alert({
      service: 'postgres',
      severity: 'critical',
      customFields: { alertname: 'DatabaseDown', cluster: 'eu-1' },
    })
    expect(outcome(set, db).inhibit).toEqual({
      sources: [['db-down', 'db-down\ncustomFields.cluster=eu-1']],
      targets: [],
    })
    expect(outcome(set, alert({ customFields: { alertname: 'Other' } })).inhibit).toBeUndefined()
  })

  it('refuses a bad inhibit naming the field', () => {
    const problems = (inhibit: unknown) => {
      const checked = checkRules([{ id: 'i', name: 'i', inhibit }], 1)
      return checked.ok ? [] : checked.problems.map((p) => p.field)
    }
    expect(problems({ equal: ['service'] })).toEqual(['rules.0.inhibit.source'])
    expect(problems({ source: { field: 'colour', equals: 'x' }, equal: ['service'] })).toEqual([
      'rules.0.inhibit.source.field',
    ])
    expect(problems({ source: { field: 'service', equals: 'x' }, equal: [] })).toEqual(['rules.0.inhibit.equal'])
    expect(problems({ source: { field: 'service', equals: 'x' }, equal: ['service'], then: 1 })).toEqual([
      'rules.0.inhibit.then',
    ])
    expect(problems('yes')).toEqual(['rules.0.inhibit'])
  })
})
