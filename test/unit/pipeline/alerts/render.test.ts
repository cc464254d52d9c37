import { describe, expect, it } from 'vitest'
import { ALERT_TEMPLATES, TEMPLATE_IDS, type TemplateId } from '../../../../src/pipeline/alerts/templates.js'
import { MAPPING_LIMITS } from '../../../../src/shared/budget.js'
import { RENDER_LIMITS } from '../../../../src/pipeline/alerts/moustache.js'
import {
  checkMapping,
  renderAlerts,
  type AlertMapping,
  type NormalizedAlert,
} from '../../../../src/pipeline/alerts/render.js'

const ctx = { integrationId: 'int-1', requestId: 'req-1', receivedAtMs: Date.parse('2026-11-22T10:05:00.000Z') }
const ok = (outcomes: Awaited<ReturnType<typeof renderAlerts>>): NormalizedAlert[] =>
  outcomes.map((o) => {
    if (!o.ok) throw new Error(o.reason)
    return o.alert
  })

describe('templates', () => {
  it.each(TEMPLATE_IDS)('%s: the mapping is valid and maps its example completely', async (id) => {
    const t = ALERT_TEMPLATES[id]
    expect(checkMapping(t.mapping)).toMatchObject({ ok: true })
    const alerts = ok(await renderAlerts(t.mapping, t.example, ctx))
    expect(alerts.length).toBeGreaterThan(0)
    for (const a of alerts) {
      expect(a.description).not.toBe('')
      expect(a.source).not.toBe('')
      expect(a.service).toBeTruthy()
      expect(a.environment).toBeTruthy()
      expect(a.team).toBeTruthy()
      expect(a.correlationId).toBeTruthy()
      expect(a.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    }
  })

  it('alertmanager v4 with three alerts gives three alerts', async () => {
    const alerts = ok(
      await renderAlerts(ALERT_TEMPLATES.alertmanager.mapping, ALERT_TEMPLATES.alertmanager.example, ctx),
    )
    expect(alerts.map((a) => [a.severity, a.description, a.source, a.correlationId, a.customFields['status']])).toEqual(
      [
        ['critical', 'Error rate above 5% on checkout-1', 'checkout', 'c2f1a0d7e5b3a911', 'firing'],
        ['warning', 'p99 latency above 2s on checkout-2', 'checkout', '7a9d44e0b1c2d3e4', 'firing'],
        ['critical', 'Disk usage back under 80% on db-1', 'node', '0d1e2f3a4b5c6d7e', 'resolved'],
      ],
    )
    expect(alerts[0]).toMatchObject({
      timestamp: '2026-11-22T09:58:00.000Z',
      receivedAt: '2026-11-22T10:05:00.000Z',
      integrationId: 'int-1',
      requestId: 'req-1',
    })
  })

  it('datadog maps epoch-millisecond dates and its alert types', async () => {
    const [a] = ok(await renderAlerts(ALERT_TEMPLATES.datadog.mapping, ALERT_TEMPLATES.datadog.example, ctx))
    expect(a).toMatchObject({
      severity: 'high',
      source: 'datadog',
      timestamp: new Date(1795341600000).toISOString(),
      correlationId: '7261812309837163501',
    })
  })
})

describe('custom mappings', () => {
  const mapping: AlertMapping = {
    severity: '{{webhook.check.state}}',
    description: '{{webhook.check.output}} ({{webhook.hosts.0.name}})',
    source: '{{webhook.origin.system}}',
    service: '{{webhook.hosts.1.name}}',
    team: '{{webhook.owner.team}}',
    correlationId: 'chk-{{webhook.check.id}}',
    timestamp: '{{webhook.check.when}}',
    customFields: { region: '{{webhook.hosts.0.tags.region}}', missing: '{{webhook.nope.nothing}}' },
    defaults: { severity: 'warning', source: 'nagios', team: 'ops' },
    severityMap: { FIRING: 'critical', Resolved: 'info' },
  }
  const payload = {
    check: { state: 'firing', output: 'Load <5> & "rising" for \'db\'', id: 42, when: 1795341600 },
    hosts: [{ name: 'db-1', tags: { region: 'eu-west-1' } }, { name: 'db-2' }],
    origin: {},
  }

  it('renders nested paths, array indexes, defaults and the severity map, unescaped', async () => {
    expect(checkMapping(mapping)).toMatchObject({ ok: true })
    const [a] = ok(await renderAlerts(mapping, payload, ctx))
    expect(a).toEqual({
      severity: 'critical',
      description: 'Load <5> & "rising" for \'db\' (db-1)',
      source: 'nagios',
      service: 'db-2',
      team: 'ops',
      correlationId: 'chk-42',
      timestamp: '2026-11-22T10:00:00.000Z',
      receivedAt: '2026-11-22T10:05:00.000Z',
      integrationId: 'int-1',
      requestId: 'req-1',
      customFields: { region: 'eu-west-1' },
      // No dedupKey template: a hash of the rendered fields; no status template: firing.
      dedupKey: expect.stringMatching(/^auto:[0-9a-f]{32}$/),
      status: 'firing',
    })
    const [resolved] = ok(
      await renderAlerts(mapping, { ...payload, check: { ...payload.check, state: 'resolved' } }, ctx),
    )
    expect(resolved!.severity).toBe('info')
  })

  it('does not reach the prototype chain', async () => {
    const m = { ...mapping, description: 'x{{webhook.toString}}{{webhook.hasOwnProperty}}x' }
    const [a] = ok(await renderAlerts(m, payload, ctx))
    expect(a!.description).toBe('xx')
  })

  it('reaches no built-in method from arrays or sections, and renders objects as JSON', async () => {
    const m: AlertMapping = {
      ...mapping,
      // Array.prototype.join called on {length: 1e8} once built 100 MB from a 30-byte payload.
      description:
        'd[{{#webhook.x}}{{webhook.arr.join}}{{/webhook.x}}][{{webhook.arr.map}}][{{#webhook}}{{__defineGetter__}}{{valueOf}}{{/webhook}}]',
      customFields: {
        obj: '{{webhook.obj}}',
        arr: '{{{webhook.arr}}}',
        len: '{{webhook.arr.length}}',
        each: '{{#webhook.arr}}<{{.}}>{{/webhook.arr}}',
      },
    }
    const started = performance.now()
    const [a] = ok(
      await renderAlerts(m, { ...payload, x: { length: 100_000_000 }, arr: [1, 'two'], obj: { a: { b: null } } }, ctx),
    )
    expect(performance.now() - started).toBeLessThan(1000)
    expect(a!.description).toBe('d[][][]')
    expect(a!.customFields).toEqual({ obj: '{"a":{"b":null}}', arr: '[1,"two"]', len: '2', each: '<1><two>' })
  })

  it('renders a section over an array with null items (it used to throw a TypeError: found by the property test)', async () => {
    const m: AlertMapping = {
      ...mapping,
      customFields: {
        // The counterexample: a payload that is [null], a name looked up inside the section.
        a: '{{#webhook}}{{{webhook}}}{{/webhook}}',
        // Each item: a null one renders nothing, and a name it lacks is found around it, as mustache does.
        b: '{{#webhook.items}}[{{.}}|{{name}}|{{webhook.tag}}]{{/webhook.items}}',
      },
    }
    const [a] = ok(await renderAlerts(m, { ...payload, items: [null, { name: 'n' }, 3], tag: 't' }, ctx))
    expect(a!.customFields['b']).toBe('[||t][{"name":"n"}|n|t][3||t]')
    // A payload that is itself [null] renders its alert without a crash.
    const [whole] = ok(await renderAlerts({ ...m, customFields: { a: m.customFields!['a']! } }, [null], ctx))
    expect(whole!.customFields).toEqual({ a: '[null]' })
  })

  it('keeps rendering within its budget: section depth, work, output', async () => {
    const nested = (depth: number) => `${'{{#webhook.a}}'.repeat(depth)}x${'{{/webhook.a}}'.repeat(depth)}`
    // A mapping saved before the depth limit (not checked here) is refused when rendered.
    expect(await renderAlerts({ ...mapping, description: nested(5) }, { ...payload, a: [1, 2] }, ctx)).toEqual([
      { ok: false, reason: 'sections nest deeper than 3 levels' },
    ])
    // Within the depth limit, a long array multiplies the work: 1000^3 steps are refused early.
    const started = performance.now()
    const [bomb] = await renderAlerts(
      { ...mapping, description: nested(3) },
      { ...payload, a: Array.from({ length: 1000 }, () => 0) },
      ctx,
    )
    expect(bomb).toEqual({
      ok: false,
      reason: `rendering this payload takes more than ${MAPPING_LIMITS.maxSteps} steps`,
    })
    expect(performance.now() - started).toBeLessThan(2000)
    // Output is checked as it grows: a long array of large values stops at the output limit.
    const [big] = await renderAlerts(
      { ...mapping, description: '{{#webhook.a}}{{webhook.s}}{{/webhook.a}}' },
      { ...payload, a: Array.from({ length: 1000 }, () => 0), s: 'y'.repeat(10_000) },
      ctx,
    )
    expect(big).toEqual({
      ok: false,
      reason: `a template renders more than ${RENDER_LIMITS.maxOutputChars} characters`,
    })
  })

  it('gives the event loop back while rendering a large payload', async () => {
    const many = {
      alerts: Array.from({ length: 1000 }, (_, i) => ({
        labels: { severity: 'critical', job: `j${i}`, alertname: 'a'.repeat(200) },
        annotations: { summary: 's'.repeat(2000) },
      })),
    }
    let turns = 0
    const timer = setInterval(() => turns++, 0)
    const outcomes = await renderAlerts(ALERT_TEMPLATES.alertmanager.mapping, many, ctx)
    clearInterval(timer)
    expect(outcomes).toHaveLength(1000)
    expect(turns).toBeGreaterThan(0)
  })

  it('rejects (not drops) alerts that cannot be normalized, with a reason', async () => {
    expect(await renderAlerts(mapping, { ...payload, check: { ...payload.check, state: 'purple' } }, ctx)).toEqual([
      { ok: false, reason: expect.stringMatching(/severity "purple" is not one of critical, high, warning, info/) },
    ])
    expect(await renderAlerts(mapping, { ...payload, check: { ...payload.check, when: 'yesterday' } }, ctx)).toEqual([
      { ok: false, reason: expect.stringMatching(/timestamp "yesterday" is not a time/) },
    ])
    // Times RFC 3339 cannot write (years past 9999 or before 0000; toISOString would give "+010000-…"), and a message
    // without a receive time.
    for (const when of ['+010000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z']) {
      expect(await renderAlerts(mapping, { ...payload, check: { ...payload.check, when } }, ctx)).toEqual([
        { ok: false, reason: expect.stringMatching(/timestamp ".*" is not a time/) },
      ])
    }
    expect(
      ok(
        await renderAlerts(mapping, { ...payload, check: { ...payload.check, when: '9999-12-31T23:59:59Z' } }, ctx),
      )[0]!.timestamp,
    ).toBe('9999-12-31T23:59:59.000Z')
    expect(await renderAlerts(mapping, payload, { ...ctx, receivedAtMs: Number.NaN })).toEqual([
      { ok: false, reason: "the message's receive time (NaN) is not a time" },
    ])
    const split = { ...ALERT_TEMPLATES.alertmanager.mapping }
    expect(await renderAlerts(split, { alerts: 'none' }, ctx)).toEqual([
      { ok: false, reason: 'splitPath "alerts" is not an array in the payload' },
    ])
    expect(await renderAlerts(split, { alerts: [] }, ctx)).toEqual([])
  })

  it('bounds hostile payloads: depth, number of alerts, prototype names as severities', async () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 5000; i++) deep = [deep]
    expect(await renderAlerts(mapping, { check: deep }, ctx)).toEqual([
      { ok: false, reason: expect.stringMatching(/^payload\.check\[0\]\[0\].* nests deeper than 64 levels$/) },
    ])
    const many = { alerts: Array.from({ length: 1001 }, () => ({ labels: { severity: 'info' } })) }
    expect(await renderAlerts(ALERT_TEMPLATES.alertmanager.mapping, many, ctx)).toEqual([
      { ok: false, reason: expect.stringMatching(/1001 items; at most 1000/) },
    ])
    for (const state of ['constructor', '__proto__', 'toString']) {
      expect((await renderAlerts(mapping, { ...payload, check: { ...payload.check, state } }, ctx))[0]).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/is not one of/),
      })
    }
  })
})

describe('checkMapping', () => {
  it.each([
    [{ severity: 'x', description: 'y' }, 'mapping.source', /is required/],
    [{ severity: 'x', description: 'y', source: 'z', colour: 'red' }, 'mapping.colour', /not a mapping field/],
    [{ severity: 'x', description: '{{webhook.a', source: 'z' }, 'mapping.description', /syntax error/],
    [{ severity: 'x', description: '{{#webhook.a}}oops', source: 'z' }, 'mapping.description', /syntax error/],
    [{ severity: 'x', description: 'y', source: '{{webhook.service}}' }, 'mapping.source', /can render empty/],
    [
      { severity: 'x', description: 'y', source: '{{#alerts}}a{{/alerts}}' },
      'mapping.source',
      /unknown section "alerts"/,
    ],
    [{ severity: 'x', description: 'y', source: '{{status}}' }, 'mapping.source', /unknown placeholder "status"/],
    [{ severity: 'x', description: 'y', source: 's {{item.x}}' }, 'mapping.source', /unknown placeholder "item.x"/],
    [{ severity: 'x', description: 'y', source: 's {{webhook.constructor}}' }, 'mapping.source', /not allowed/],
    [{ severity: 'x', description: 'y', source: 's {{> partial}}' }, 'mapping.source', /partials/],
    [
      { severity: 'x', description: 'y', source: 's', severityMap: { firing: 'urgent' } },
      'mapping.severityMap.firing',
      /must be one of/,
    ],
  ])('refuses %j naming %s', (mapping, field, problem) => {
    const result = checkMapping(mapping)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.problems[0]!.field).toBe(field)
      expect(result.problems[0]!.problem).toMatch(problem)
    }
  })

  it('refuses sections nested deeper than the render limit, naming the field', () => {
    const result = checkMapping({
      severity: 'x',
      description: 'y',
      source: 's',
      customFields: { c: '{{#webhook.a}}{{#b}}{{#c}}{{^d}}x{{/d}}{{/c}}{{/b}}{{/webhook.a}}' },
    })
    expect(result).toEqual({
      ok: false,
      problems: [{ field: 'mapping.customFields.c', problem: 'sections nest deeper than 3 levels' }],
    })
    expect(
      checkMapping({
        severity: 'x',
        description: 'y',
        source: 's',
        customFields: { c: '{{#webhook.a}}{{#b}}{{#c}}x{{/c}}{{/b}}{{/webhook.a}}' },
      }).ok,
    ).toBe(true)
  })

  it('accepts a placeholder-only required field when it has a default', async () => {
    expect(
      checkMapping({ severity: 'x', description: 'y', source: '{{webhook.service}}', defaults: { source: 'unknown' } })
        .ok,
    ).toBe(true)
    expect(
      checkMapping({ severity: 'x', description: 'y', source: '{{#webhook.tags}}{{name}} {{/webhook.tags}}x' }).ok,
    ).toBe(true)
  })
})

describe('lifecycle fields: dedup key and status', () => {
  const render = async (id: TemplateId, payload: unknown) => {
    const outcomes = await renderAlerts(ALERT_TEMPLATES[id].mapping, payload, ctx)
    return outcomes.map((o) => {
      if (!o.ok) throw new Error(o.reason)
      return {
        dedupKey: o.alert.dedupKey,
        status: o.alert.status,
        dedupFallback: o.dedupFallback,
        statusUnknown: o.statusUnknown,
        severity: o.alert.severity,
      }
    })
  }

  it('Alertmanager and Grafana: one key per alert fingerprint, firing or resolved per alert of the group', async () => {
    expect(
      (await render('alertmanager', ALERT_TEMPLATES.alertmanager.example)).map((a) => [a.dedupKey, a.status]),
    ).toEqual([
      ['c2f1a0d7e5b3a911', 'firing'],
      ['7a9d44e0b1c2d3e4', 'firing'],
      ['0d1e2f3a4b5c6d7e', 'resolved'],
    ])
    const grafana = ALERT_TEMPLATES.grafana.example as { alerts: object[] }
    const resolved = { ...grafana, status: 'resolved', alerts: [{ ...grafana.alerts[0], status: 'resolved' }] }
    expect(await render('grafana', grafana)).toMatchObject([{ dedupKey: '57c6d9296de2ad39', status: 'firing' }])
    expect(await render('grafana', resolved)).toMatchObject([{ dedupKey: '57c6d9296de2ad39', status: 'resolved' }])
  })

  it('Datadog: $AGGREG_KEY, else $ALERT_ID; $ALERT_TRANSITION onto firing and resolved', async () => {
    const example = ALERT_TEMPLATES.datadog.example as Record<string, unknown>
    expect(await render('datadog', example)).toMatchObject([
      { dedupKey: '9a2c6e1f0b7d4e3a8c5b1d2e3f4a5b6c', status: 'firing', statusUnknown: false },
    ])
    expect(await render('datadog', { ...example, transition: 'Recovered' })).toMatchObject([{ status: 'resolved' }])
    expect(await render('datadog', { ...example, transition: 'Re-Triggered' })).toMatchObject([
      { status: 'firing', statusUnknown: false },
    ])
    expect(await render('datadog', { ...example, aggregate: '' })).toMatchObject([{ dedupKey: '140723991' }])
  })

  it('PagerDuty Events v2: trigger, acknowledge and resolve of one dedup_key (the latter two without a payload)', async () => {
    const key = 'checkout-5xx-eu-west-1'
    expect(await render('pagerduty', ALERT_TEMPLATES.pagerduty.example)).toMatchObject([
      { dedupKey: key, status: 'firing', severity: 'critical' },
    ])
    for (const [action, status] of [
      ['acknowledge', 'acknowledged'],
      ['resolve', 'resolved'],
    ]) {
      expect(
        await render('pagerduty', {
          routing_key: 'R0UT1NGK3Y0000000000000000000000',
          event_action: action,
          dedup_key: key,
        }),
      ).toMatchObject([{ dedupKey: key, status, dedupFallback: false }])
    }
  })

  it('Opsgenie: an alias is one alert; create (no action) fires, close resolves, acknowledge acknowledges', async () => {
    expect(await render('opsgenie', ALERT_TEMPLATES.opsgenie.example)).toMatchObject([
      { dedupKey: 'db-2-replication-lag', status: 'firing', statusUnknown: false, severity: 'high' },
    ])
    expect(await render('opsgenie', { alias: 'db-2-replication-lag', action: 'close', note: 'fixed' })).toMatchObject([
      { dedupKey: 'db-2-replication-lag', status: 'resolved' },
    ])
    expect(await render('opsgenie', { alias: 'db-2-replication-lag', action: 'acknowledge' })).toMatchObject([
      { status: 'acknowledged' },
    ])
  })

  it('a key that renders empty is a hash of the rendered fields: equal alerts share it, different ones do not', async () => {
    const mapping: AlertMapping = {
      severity: 'warning',
      description: '{{webhook.text}}',
      source: 'x',
      dedupKey: '{{webhook.key}}',
    }
    const one = async (payload: object) => {
      const [o] = await renderAlerts(mapping, payload, ctx)
      if (!o?.ok) throw new Error('rejected')
      return o
    }
    const a = await one({ text: 'disk full' })
    const b = await one({ text: 'disk full', key: '' })
    const c = await one({ text: 'disk almost full' })
    expect(a).toMatchObject({ dedupFallback: true, alert: { dedupKey: expect.stringMatching(/^auto:/) } })
    expect(b.alert.dedupKey).toBe(a.alert.dedupKey)
    expect(c.alert.dedupKey).not.toBe(a.alert.dedupKey)
    expect(await one({ text: 'disk full', key: 'k1' })).toMatchObject({
      dedupFallback: false,
      alert: { dedupKey: 'k1' },
    })
  })

  it('a huge key becomes its SHA-256 (two long keys with the same start do not collide); a status nobody knows is firing, flagged', async () => {
    const mapping: AlertMapping = {
      severity: 'warning',
      description: 'd',
      source: 's',
      dedupKey: '{{webhook.key}}',
      status: '{{webhook.state}}',
      statusMap: { Fixed: 'resolved' },
    }
    const run = async (payload: object) => {
      const [o] = await renderAlerts(mapping, payload, ctx)
      if (!o?.ok) throw new Error('rejected')
      return o
    }
    const long = 'k'.repeat(60_000)
    const [x, y] = [await run({ key: `${long}1` }), await run({ key: `${long}2` })]
    expect(x.alert.dedupKey).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(x.alert.dedupKey).not.toBe(y.alert.dedupKey)
    expect((await run({ key: 'k'.repeat(256) })).alert.dedupKey).toBe('k'.repeat(256))
    for (const state of ['__proto__', 'constructor', 'exploded', '{"a":1}'])
      expect(await run({ key: 'k', state })).toMatchObject({ statusUnknown: true, alert: { status: 'firing' } })
    expect(await run({ key: 'k', state: 'fixed' })).toMatchObject({
      statusUnknown: false,
      alert: { status: 'resolved' },
    })
    expect(await run({ key: 'k', state: 'OK' })).toMatchObject({ alert: { status: 'resolved' } })
    expect(await run({ key: 'k', state: { nested: true } })).toMatchObject({
      statusUnknown: true,
      alert: { status: 'firing' },
    })
  })

  it('refuses a statusMap onto anything but the three statuses, naming them', () => {
    expect(checkMapping({ severity: 's', description: 'd', source: 'x', statusMap: { done: 'closed' } })).toEqual({
      ok: false,
      problems: [{ field: 'mapping.statusMap.done', problem: 'must be one of firing, acknowledged, resolved' }],
    })
  })
})
