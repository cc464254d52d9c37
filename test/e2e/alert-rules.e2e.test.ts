// Alert rules and maintenance windows end to end: saved over the admin API, applied by the alerts consumer to
// Alertmanager payloads that went through the real edge, Kafka and Redis. Rules shape alerts (set, tags, custom
// fields), drop them (counted, their request kept a day) and stop; the stored alert names the rules and the version
// that changed it. A window stores matching firing alerts as suppressed, lets resolves and acknowledgements pass, and
// releases what it suppressed as triggered when it ends or is deleted. Hostile input and other accounts are refused.
import { Kafka, logLevel, type Admin } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import { isCluster } from '../../src/state/redis/client.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { alertsCaughtUp } from '../support/alerts.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let kafka: Admin

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_INTEGRATION_REFRESH_MS: '200',
    SLUICE_ALERT_AUTO_RESOLVE_INTERVAL_MS: '300',
    SLUICE_WEBHOOK_BURST: '1000',
    SLUICE_WEBHOOK_RATE_PER_SECOND: '1000',
  })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts'])
  kafka = new Kafka({ brokers: [...t.config.kafka.brokers], logLevel: logLevel.NOTHING }).admin()
  await kafka.connect()
})
afterAll(async () => {
  await kafka?.disconnect()
  await t?.close()
})

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: string, path: string, body?: unknown, key = demo.adminApiKey) {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json }
}

async function integration(): Promise<{ id: string; path: string }> {
  const res = await call('POST', '/api/v1/integrations', { name: `rules-${Math.random()}`, template: 'alertmanager' })
  expect(res.status).toBe(201)
  return { id: res.body['id'], path: new URL(res.body['webhookUrl']).pathname }
}

/** Saves rules and waits past the consumers' refresh interval, so the next payload meets them. */
async function saveRules(rules: unknown[]): Promise<Json> {
  const res = await call('PUT', '/api/v1/alert-rules', { rules })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  await new Promise((r) => setTimeout(r, 500))
  return res.body
}

type Item = { fp: string; status?: 'firing' | 'resolved'; team?: string; summary?: string; env?: string }
const payloadOf = (items: Item[], commonEnv = 'prod') => ({
  version: '4',
  status: items.some((i) => (i.status ?? 'firing') === 'firing') ? 'firing' : 'resolved',
  commonLabels: { env: commonEnv },
  alerts: items.map((i) => ({
    status: i.status ?? 'firing',
    labels: { alertname: `A ${i.fp}`, severity: 'warning', team: i.team ?? 'payments', env: i.env ?? commonEnv },
    annotations: { summary: i.summary ?? `summary of ${i.fp}` },
    fingerprint: i.fp,
  })),
})

/** Posts a payload and waits until the alerts consumer has recorded every message of the topic. */
async function send(path: string, items: Item[], commonEnv?: string): Promise<string> {
  const res = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payloadOf(items, commonEnv)),
  })
  expect(res.status).toBe(202)
  const { requestId } = (await res.json()) as { requestId: string }
  await alertsCaughtUp(t, service.container.topics.alerts, kafka)
  return requestId
}

async function alertOf(integrationId: string, fp: string): Promise<Json> {
  const res = await call('GET', `/api/v1/alerts?status=all&integrationId=${integrationId}&limit=500`)
  const found = (res.body['alerts'] as Json[]).find((a) => a['dedupKey'] === fp)
  expect(found, `alert ${fp}`).toBeDefined()
  return (await call('GET', `/api/v1/alerts/${found!['id']}`)).body
}

/** The integration's stream entries, oldest first, as field maps. */
async function streamOf(integrationId: string): Promise<Record<string, string>[]> {
  const keys = alertStreamKeys(t.config.redis.keyPrefix, isCluster(t.config.redis), demo.accountId)
  return (await t.redis.xrange(keys.integration(integrationId), '-', '+')).map(([, f]) => {
    const m: Record<string, string> = {}
    for (let i = 0; i + 1 < f.length; i += 2) m[f[i]!] = f[i + 1]!
    return m
  })
}

describe('alert rules', () => {
  it('set fields from the payload, add tags and custom fields, drop, and stop, in order; the alert says which rules', async () => {
    const saved = await saveRules([
      {
        id: 'prod',
        name: 'production is critical',
        when: { field: 'payload.commonLabels.env', equals: 'prod' },
        set: { severity: 'critical', environment: 'production' },
        addTags: ['prod'],
      },
      { id: 'noise', name: 'drop the noisy check', when: { field: 'description', matches: '(?i)^noisy' }, drop: true },
      {
        id: 'payments',
        name: 'payments to its rota',
        when: { field: 'team', equals: 'payments' },
        set: { team: 'payments-oncall', description: '[{{alert.severity}}] {{alert.description}}' },
        customFields: { runbook: 'https://runbooks.example/{{alert.team}}' },
        stop: true,
      },
      { id: 'rest', name: 'everything else', addTags: ['unowned'] },
    ])
    const version = saved['version'] as number
    const { id, path } = await integration()
    const requestId = await send(path, [
      { fp: 'pay-1', team: 'payments' },
      { fp: 'noisy-1', summary: 'Noisy disk check' },
      { fp: 'infra-1', team: 'infra' },
    ])

    const pay = await alertOf(id, 'pay-1')
    expect(pay).toMatchObject({
      severity: 'critical',
      environment: 'production',
      team: 'payments-oncall',
      description: '[critical] summary of pay-1',
      tags: ['prod'],
      rulesVersion: version,
      rulesApplied: ['prod', 'payments'],
    })
    expect(pay['customFields']['runbook']).toBe('https://runbooks.example/payments')
    const infra = await alertOf(id, 'infra-1')
    expect(infra).toMatchObject({ team: 'infra', tags: ['prod', 'unowned'], rulesApplied: ['prod', 'rest'] })

    // The dropped alert: not stored, counted, and its request kept.
    const all = (await call('GET', `/api/v1/alerts?status=all&integrationId=${id}`)).body['alerts'] as Json[]
    expect(all.map((a) => a['dedupKey']).sort()).toEqual(['infra-1', 'pay-1'])
    const dropped = (await call('GET', '/api/v1/alert-rules/dropped')).body['dropped'] as Json[]
    expect(dropped.filter((d) => d['integrationId'] === id)).toEqual([
      expect.objectContaining({ requestId, dedupKey: 'noisy-1', rule: 'noise' }),
    ])
    expect((await call('GET', `/api/v1/integrations/${id}`)).body['lifecycleCounts']).toMatchObject({ dropped: 1 })

    // The stream entries carry what the rules did, for readers downstream.
    const entries = await streamOf(id)
    const payEntry = entries.find((e) => e['dedupKey'] === 'pay-1')!
    expect(JSON.parse(payEntry['tags']!)).toEqual(['prod'])
    expect(JSON.parse(payEntry['rulesApplied']!)).toEqual(['prod', 'payments'])
    expect(payEntry['rulesVersion']).toBe(String(version))
    // The version the alert names can be read back.
    const then = await call('GET', `/api/v1/alert-rules/versions/${version}`)
    expect((then.body['rules'] as Json[]).map((r) => r['id'])).toEqual(['prod', 'noise', 'payments', 'rest'])
  })

  it('are versioned: a change made on a stale version is refused with 409, and nothing is lost', async () => {
    const current = (await call('GET', '/api/v1/alert-rules')).body
    const v = current['version'] as number
    const first = await call('PUT', '/api/v1/alert-rules', {
      version: v,
      rules: [{ id: 'a', name: 'a', addTags: ['a'] }],
    })
    expect(first.status).toBe(200)
    expect(first.body['version']).toBe(v + 1)
    expect(first.body['updatedBy']).toMatch(/^key:/)
    const stale = await call('PUT', '/api/v1/alert-rules', { version: v, rules: [{ id: 'b', name: 'b', drop: true }] })
    expect(stale.status).toBe(409)
    expect(stale.body['message']).toMatch(new RegExp(`since version ${v}`))
    expect((await call('GET', '/api/v1/alert-rules')).body['rules']).toEqual([{ id: 'a', name: 'a', addTags: ['a'] }])
    expect((await call('GET', '/api/v1/alert-rules/versions/999999')).status).toBe(404)
    await saveRules([])
  })

  it('can be tried on a payload, an alert, or rules not saved yet, and nothing is stored', async () => {
    await saveRules([
      { id: 'sev', name: 'sev', when: { field: 'team', equals: 'payments' }, set: { severity: 'high' } },
    ])
    const { id } = await integration()
    const tried = await call('POST', '/api/v1/alert-rules/test', {
      integrationId: id,
      payload: payloadOf([
        { fp: 't1', team: 'payments' },
        { fp: 't2', team: 'infra' },
      ]),
    })
    expect(tried.status, JSON.stringify(tried.body)).toBe(200)
    expect(tried.body['alerts'].map((a: Json) => [a.before.severity, a.after.severity, a.applied])).toEqual([
      ['warning', 'high', ['sev']],
      ['warning', 'warning', []],
    ])
    const unsaved = await call('POST', '/api/v1/alert-rules/test', {
      alert: { description: 'Noisy thing', team: 'x' },
      rules: [{ id: 'n', name: 'n', when: { field: 'description', matches: '^Noisy' }, drop: true }],
    })
    expect(unsaved.body).toMatchObject({ rulesVersion: null, alerts: [{ dropped: true, droppedBy: 'n', after: null }] })
    // Rules that would not be saved are refused here too, naming the field.
    const bad = await call('POST', '/api/v1/alert-rules/test', {
      alert: {},
      rules: [{ id: 'n', name: 'n', when: { field: 'colour', equals: 'red' }, drop: true }],
    })
    expect(bad.status).toBe(400)
    expect(bad.body['message']).toMatch(/rules\.0\.when\.field/)
    expect((await call('GET', `/api/v1/alerts?status=all&integrationId=${id}`)).body['alerts']).toEqual([])
    await saveRules([])
  })

  it('refuse hostile and impossible rules with 400 naming the rule and field', async () => {
    const put = (body: unknown) => call('PUT', '/api/v1/alert-rules', body)
    const problem = async (body: unknown) => {
      const res = await put(body)
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400)
      return String(res.body['message'])
    }
    let deep: unknown = { field: 'team', equals: 'x' }
    for (let i = 0; i < 9; i++) deep = { not: deep }
    expect(await problem({ rules: [{ id: 'd', name: 'd', when: deep, drop: true }] })).toMatch(/nests deeper than 8/)
    const many = Array.from({ length: 10_000 }, (_, i) => ({ id: `r${i}`, name: 'r', addTags: ['t'] }))
    expect(await problem({ rules: many })).toMatch(/has 10000 rules; at most 500/)
    const huge = 'a'.repeat(1024 * 1024)
    expect(
      await problem({ rules: [{ id: 'h', name: 'h', when: { field: 'team', matches: huge }, drop: true }] }),
    ).toMatch(/rules\.0\.when\.matches must be a regex/)
    expect(
      await problem({ rules: [{ id: 'b', name: 'b', when: { field: 'team', matches: '(a)\\1' }, drop: true }] }),
    ).toMatch(/rules\.0\.when\.matches is not a regex RE2 takes/)
    expect(
      await problem({
        rules: [
          {
            id: 'never',
            name: 'never',
            when: {
              all: [
                { field: 'severity', equals: 'critical' },
                { field: 'severity', equals: 'info' },
              ],
            },
            drop: true,
          },
        ],
      }),
    ).toMatch(/rules\.0\.when can never match/)
    expect(
      await problem({ rules: [{ id: 'x', name: 'x', when: { field: 'payload.__proto__.x', equals: 'y' } }] }),
    ).toMatch(/payload\.__proto__\.x/)
    expect(await problem({ rules: [{ id: 'x', name: 'x', colour: 'red', drop: true }] })).toMatch(
      /rules\.0\.colour is not a rule field/,
    )
    // A __proto__ key in the JSON itself is refused by the parser, before any rule is read.
    expect((await put('{"rules":[{"id":"p","name":"p","drop":true,"__proto__":{"stop":true}}]}')).status).toBe(400)
    expect((await call('GET', '/api/v1/alert-rules')).body['rules']).toEqual([])
  })
})

describe('access', () => {
  it("hides other accounts' rules and windows, and lets read-only keys read and test but not change", async () => {
    await saveRules([{ id: 'mine', name: 'mine', addTags: ['mine'] }])
    const window = await call('POST', '/api/v1/maintenance-windows', {
      name: 'mine',
      schedule: { kind: 'once', from: '2030-01-01T00:00:00Z', to: '2030-01-01T01:00:00Z' },
    })
    expect(window.status).toBe(201)
    const other = await t.tenancy.createAccount('rules other')
    const { key: stranger } = await t.tenancy.createApiKey({ kind: 'admin', accountId: other.id, name: 'stranger' })
    const { key: viewer } = await t.tenancy.createApiKey({
      kind: 'admin',
      accountId: demo.accountId,
      name: 'viewer',
      role: 'segment-viewer',
    })
    await waitFor('the new keys', async () =>
      (await call('GET', '/api/v1/alert-rules', undefined, viewer)).status === 200 &&
      (await call('GET', '/api/v1/alert-rules', undefined, stranger)).status === 200
        ? true
        : undefined,
    )
    expect((await call('GET', '/api/v1/alert-rules', undefined, stranger)).body).toMatchObject({
      version: 0,
      rules: [],
    })
    expect((await call('GET', '/api/v1/maintenance-windows', undefined, stranger)).body['windows']).toEqual([])
    const wid = window.body['id'] as string
    expect((await call('GET', `/api/v1/maintenance-windows/${wid}`, undefined, stranger)).status).toBe(404)
    expect((await call('DELETE', `/api/v1/maintenance-windows/${wid}`, undefined, stranger)).status).toBe(404)
    expect(
      (
        await call(
          'PUT',
          `/api/v1/maintenance-windows/${wid}`,
          { name: 'x', schedule: window.body['schedule'] },
          stranger,
        )
      ).status,
    ).toBe(404)

    expect((await call('GET', '/api/v1/alert-rules', undefined, viewer)).body['rules']).toHaveLength(1)
    expect((await call('PUT', '/api/v1/alert-rules', { rules: [] }, viewer)).status).toBe(403)
    expect((await call('DELETE', `/api/v1/maintenance-windows/${wid}`, undefined, viewer)).status).toBe(403)
    expect(
      (await call('POST', '/api/v1/maintenance-windows', { name: 'x', schedule: window.body['schedule'] }, viewer))
        .status,
    ).toBe(403)
    expect((await call('POST', '/api/v1/alert-rules/test', { alert: {} }, viewer)).status).toBe(200)
    expect((await call('GET', '/api/v1/alert-rules', undefined, 'sdk_srv_nope')).status).toBe(401)
    expect((await call('DELETE', `/api/v1/maintenance-windows/${wid}`)).status).toBe(204)
    await saveRules([])
  })
})

describe('maintenance windows', () => {
  it('store matching firing alerts as suppressed, let others and resolves through, and release the rest when they end', async () => {
    const { id, path } = await integration()
    // Fired before the window: told, and its resolve during the window is told too.
    await send(path, [{ fp: 'before' }])
    const from = new Date(Date.now() - 1000).toISOString()
    const to = new Date(Date.now() + 6000).toISOString()
    const created = await call('POST', '/api/v1/maintenance-windows', {
      name: 'deploy of payments',
      when: { field: 'team', equals: 'payments' },
      schedule: { kind: 'once', from, to },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toMatchObject({ activeNow: true, next: { start: new Date(from).toISOString() } })
    await new Promise((r) => setTimeout(r, 500))
    await send(path, [{ fp: 'quiet' }, { fp: 'other-team', team: 'infra' }, { fp: 'quiet-then-resolved' }])
    await send(path, [
      { fp: 'quiet' },
      { fp: 'before', status: 'resolved' },
      { fp: 'quiet-then-resolved', status: 'resolved' },
    ])

    const quiet = await alertOf(id, 'quiet')
    expect(quiet).toMatchObject({ status: 'suppressed', suppressedBy: created.body['id'], count: 2 })
    expect(Date.parse(quiet['suppressedUntil'])).toBe(Date.parse(to))
    expect((await alertOf(id, 'other-team'))['status']).toBe('firing')
    expect((await alertOf(id, 'before'))['status']).toBe('resolved')
    expect((await alertOf(id, 'quiet-then-resolved'))['status']).toBe('resolved')
    const listed = (await call('GET', `/api/v1/alerts?status=suppressed&integrationId=${id}`)).body['alerts'] as Json[]
    expect(listed.map((a) => a['dedupKey'])).toEqual(['quiet'])
    expect((await call('GET', `/api/v1/integrations/${id}`)).body['lifecycleCounts']).toMatchObject({ suppressed: 2 })

    // Readers of the streams see suppressed entries they can skip, and every resolve.
    const events = (await streamOf(id)).map((e) => `${e['dedupKey']}:${e['event']}`)
    expect(events).toEqual([
      'before:triggered',
      'quiet:suppressed',
      'other-team:triggered',
      'quiet-then-resolved:suppressed',
      'before:resolved',
      'quiet-then-resolved:resolved',
    ])

    // The window ends: the alert still firing is released as a new triggered event; the resolved one stays resolved.
    const released = await waitFor(
      'the release',
      async () => {
        const a = await alertOf(id, 'quiet')
        return a['status'] === 'firing' ? a : undefined
      },
      20_000,
    )
    expect(released['history'].map((h: Json) => `${h.event}:${h.by ?? ''}`)).toEqual([
      'suppressed:source',
      'triggered:maintenance-end',
    ])
    expect(released['suppressedUntil']).toBeUndefined()
    const after = (await streamOf(id)).map((e) => `${e['dedupKey']}:${e['event']}`)
    expect(after.slice(6)).toEqual(['quiet:triggered'])
    // A repeat after the window is a repeat of a told alert.
    await send(path, [{ fp: 'quiet' }])
    expect(await alertOf(id, 'quiet')).toMatchObject({ status: 'firing', count: 3 })
    expect((await streamOf(id)).length).toBe(7)
  })

  it('release what they suppress when deleted, and acknowledgements pass through', async () => {
    const { id, path } = await integration()
    const created = await call('POST', '/api/v1/maintenance-windows', {
      name: 'all day',
      schedule: {
        kind: 'weekly',
        timeZone: 'Pacific/Auckland',
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        start: '00:00',
        end: '00:00',
      },
    })
    expect(created.status).toBe(201)
    expect(created.body['activeNow']).toBe(true)
    await new Promise((r) => setTimeout(r, 500))
    await send(path, [{ fp: 'held' }, { fp: 'acked' }])
    expect((await alertOf(id, 'held'))['status']).toBe('suppressed')
    const acked = await alertOf(id, 'acked')
    expect((await call('POST', `/api/v1/alerts/${acked['id']}/acknowledge`)).body['status']).toBe('acknowledged')

    expect((await call('DELETE', `/api/v1/maintenance-windows/${created.body['id']}`)).status).toBe(204)
    const held = await alertOf(id, 'held')
    expect(held['status']).toBe('firing')
    expect(held['history'].at(-1)).toMatchObject({ event: 'triggered', by: 'maintenance-end' })
    // The acknowledged one is not released: it was told (acknowledged) already.
    expect((await alertOf(id, 'acked'))['status']).toBe('acknowledged')
    const events = (await streamOf(id)).map((e) => `${e['dedupKey']}:${e['event']}`)
    expect(events).toEqual(['held:suppressed', 'acked:suppressed', 'acked:acknowledged', 'held:triggered'])
  })

  it('hold nothing for a window that is gone, keep repeats of a held alert out of the streams, and say what a held reopening reopened', async () => {
    const res = await call('POST', '/api/v1/integrations', {
      name: `repeats-${Math.random()}`,
      template: 'alertmanager',
      emitRepeats: true,
    })
    const id = res.body['id'] as string
    const path = new URL(res.body['webhookUrl'] as string).pathname
    await send(path, [{ fp: 'again' }])
    await send(path, [{ fp: 'again', status: 'resolved' }])
    const created = await call('POST', '/api/v1/maintenance-windows', {
      name: 'long deploy',
      schedule: {
        kind: 'once',
        from: new Date(Date.now() - 1000).toISOString(),
        to: new Date(Date.now() + 86_400_000).toISOString(),
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const wid = created.body['id'] as string
    await new Promise((r) => setTimeout(r, 500))
    await send(path, [{ fp: 'again' }])
    await send(path, [{ fp: 'again' }])
    const held = await alertOf(id, 'again')
    expect(held).toMatchObject({ status: 'suppressed', count: 2, previousAlertId: expect.stringMatching(/^al_/) })
    const entries = (await streamOf(id)).map((e) => [e['event'], e['previousAlertId']])
    expect(entries).toEqual([
      ['triggered', undefined],
      ['resolved', undefined],
      ['suppressed', held['previousAlertId']],
    ])

    // A consumer may shape an alert with windows read before one was deleted: the script holds nothing for a window
    // that no longer exists (its id taken out of the account's set here, as a delete does, while the consumers
    // still have it).
    const keys = alertStreamKeys(t.config.redis.keyPrefix, isCluster(t.config.redis), demo.accountId)
    await t.redis.srem(`${keys.prefix}alerts:acct:${demo.accountId}:windows`, wid)
    await send(path, [{ fp: 'told' }])
    const told = await alertOf(id, 'told')
    expect(told['status']).toBe('firing')
    expect(told['suppressedBy']).toBeUndefined()
    const last = (await streamOf(id)).at(-1)!
    expect([last['event'], last['suppressedBy']]).toEqual(['triggered', undefined])
    // And a hold whose window is gone is released at its next check (due now here, rather than within the hour).
    await t.redis.zadd(`${keys.prefix}alerts:suppressed`, 0, `${demo.accountId}|${held['id']}`)
    const released = await waitFor('the release', async () => {
      const a = await alertOf(id, 'again')
      return a['status'] === 'firing' ? a : undefined
    })
    expect(released['history'].at(-1)).toMatchObject({ event: 'triggered', by: 'maintenance-end' })
    expect((await call('DELETE', `/api/v1/maintenance-windows/${wid}`)).status).toBe(204)
  })

  it('list weekly occurrences in their zone across a DST change, and refuse bad schedules naming the field', async () => {
    const weekly = await call('POST', '/api/v1/maintenance-windows', {
      name: 'nightly batch',
      schedule: { kind: 'weekly', timeZone: 'Europe/Berlin', days: ['fri', 'mon'], start: '22:00', end: '02:00' },
    })
    expect(weekly.status).toBe(201)
    const calendar = await call(
      'GET',
      '/api/v1/maintenance-windows/calendar?from=2026-10-23T00:00:00Z&to=2026-10-27T00:00:00Z',
    )
    expect(calendar.status, JSON.stringify(calendar.body)).toBe(200)
    const mine = (calendar.body['windows'] as Json[]).find((w) => w['id'] === weekly.body['id'])!
    // Friday 22:00 in summer time (UTC+2) to Saturday 02:00; Monday 22:00 in winter time (UTC+1).
    expect(mine['occurrences']).toEqual([
      { start: '2026-10-23T20:00:00.000Z', end: '2026-10-24T00:00:00.000Z' },
      { start: '2026-10-26T21:00:00.000Z', end: '2026-10-27T01:00:00.000Z' },
    ])
    const bad = await call('POST', '/api/v1/maintenance-windows', {
      name: 'x',
      schedule: { kind: 'weekly', timeZone: 'Mars/Olympus', days: ['fri'], start: '25:00', end: '02:00' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body['message']).toMatch(/window\.schedule\.timeZone/)
    expect(bad.body['message']).toMatch(/window\.schedule\.start/)
    const once = await call('POST', '/api/v1/maintenance-windows', {
      name: 'x',
      schedule: { kind: 'once', from: '2026-12-01T10:00:00', to: '2026-12-01T09:00:00Z' },
    })
    expect(once.body['message']).toMatch(/window\.schedule\.from must be an ISO 8601 time with its offset/)
    expect(
      (await call('GET', '/api/v1/maintenance-windows/calendar?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z'))
        .status,
    ).toBe(400)
    expect((await call('DELETE', `/api/v1/maintenance-windows/${weekly.body['id']}`)).status).toBe(204)
    expect((await call('GET', `/api/v1/maintenance-windows/${weekly.body['id']}`)).status).toBe(404)
  })
})

describe('hostile windows', () => {
  it('refuses deep, poisoned and unbounded windows, and more than 200 of them', async () => {
    const schedule = { kind: 'once', from: '2030-01-01T00:00:00Z', to: '2030-01-01T01:00:00Z' }
    let deep: unknown = { field: 'team', equals: 'x' }
    for (let i = 0; i < 9; i++) deep = { any: [deep] }
    const tooDeep = await call('POST', '/api/v1/maintenance-windows', { name: 'deep', when: deep, schedule })
    expect(tooDeep.status).toBe(400)
    expect(tooDeep.body['message']).toMatch(/window\.when.* nests deeper than 8/)
    const poisoned =
      '{"name":"p","schedule":{"kind":"once","from":"2030-01-01T00:00:00Z","to":"2030-01-01T01:00:00Z"},"__proto__":{"x":1}}'
    expect((await call('POST', '/api/v1/maintenance-windows', poisoned)).status).toBe(400)
    const long = await call('POST', '/api/v1/maintenance-windows', {
      name: 'long',
      schedule: { kind: 'once', from: '2030-01-01T00:00:00Z', to: '2031-06-01T00:00:00Z' },
    })
    expect(long.body['message']).toMatch(/window\.schedule\.to must be within 366 days of from/)
    expect((await call('POST', '/api/v1/maintenance-windows', { name: 'x'.repeat(201), schedule })).status).toBe(400)
    expect((await call('POST', '/api/v1/maintenance-windows', { id: 'mw_mine', name: 'x', schedule })).status).toBe(400)
    const ids: string[] = []
    const existing = ((await call('GET', '/api/v1/maintenance-windows')).body['windows'] as unknown[]).length
    for (let i = existing; i < 200; i++) {
      const res = await call('POST', '/api/v1/maintenance-windows', { name: `w${i}`, schedule })
      expect(res.status).toBe(201)
      ids.push(res.body['id'] as string)
    }
    const extra = await call('POST', '/api/v1/maintenance-windows', { name: 'one too many', schedule })
    expect(extra.status).toBe(409)
    expect(extra.body['message']).toMatch(/at most 200 maintenance windows/)
    for (const id of ids) expect((await call('DELETE', `/api/v1/maintenance-windows/${id}`)).status).toBe(204)
  })
})

describe('sluice rules and sluice windows', () => {
  it('set, read, test and list rules, add and remove windows, and set up sender authentication from the command line', async () => {
    const account = ['--account', demo.accountId]
    const { id, path } = await integration()
    const rulesFile = `${process.env['TMPDIR'] ?? '/tmp'}/sluice-rules-${process.pid}.json`
    const { writeFileSync, rmSync } = await import('node:fs')
    writeFileSync(rulesFile, JSON.stringify({ rules: [{ id: 'cli', name: 'from the CLI', addTags: ['cli'] }] }))
    const set = await runSluice(['rules', 'set', rulesFile, ...account, '--json'], t.env)
    expect(set.code, set.stderr).toBe(0)
    const version = (JSON.parse(set.stdout) as { version: number }).version
    expect((await call('GET', '/api/v1/alert-rules')).body['rules']).toEqual([
      { id: 'cli', name: 'from the CLI', addTags: ['cli'] },
    ])
    expect((await runSluice(['rules', 'get', ...account], t.env)).stdout).toMatch(
      /^version \d+\n1\. cli {2}from the CLI$/m,
    )
    const stale = await runSluice(['rules', 'set', rulesFile, '--version', String(version - 1), ...account], t.env)
    expect([stale.code, stale.stderr]).toEqual([2, expect.stringMatching(/changed since version/)])
    const tested = await runSluice(['rules', 'test', '--integration-id', id, ...account], t.env)
    expect(JSON.parse(tested.stdout).alerts[0].applied).toEqual(['cli'])

    writeFileSync(
      rulesFile,
      JSON.stringify({
        name: 'from the CLI',
        schedule: { kind: 'weekly', timeZone: 'UTC', days: ['sun'], start: '01:00', end: '02:00' },
      }),
    )
    const added = await runSluice(['windows', 'add', rulesFile, ...account, '--json'], t.env)
    expect(added.code, added.stderr).toBe(0)
    const windowId = (JSON.parse(added.stdout) as { id: string }).id
    expect((await runSluice(['windows', 'list', ...account], t.env)).stdout).toContain(`${windowId}  from the CLI`)
    const calendar = await runSluice(
      ['windows', 'calendar', '--from', '2026-11-29T00:00:00Z', '--to', '2026-11-30T00:00:00Z', ...account],
      t.env,
    )
    expect(calendar.stdout).toContain('2026-11-29T01:00:00.000Z  to  2026-11-29T02:00:00.000Z')
    expect((await runSluice(['windows', 'remove', windowId, ...account], t.env)).code).toBe(0)
    expect((await runSluice(['windows', 'remove', windowId, ...account], t.env)).code).toBe(2)

    const bogus = await runSluice(
      ['integrations', 'auth', 'set', id, '--scheme', 'hmac', '--preset', 'bogus', ...account],
      t.env,
    )
    expect([bogus.code, bogus.stderr]).toEqual([2, expect.stringMatching(/preset must be one of grafana/)])
    const auth = await runSluice(['integrations', 'auth', 'set', id, '--scheme', 'bearer', ...account], t.env)
    expect(auth.code, auth.stderr).toBe(0)
    const token = (JSON.parse(auth.stdout) as { secret: { value: string } }).secret.value
    const post = (headers: Record<string, string>) =>
      fetch(`${service.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(payloadOf([{ fp: 'cli' }])),
      })
    // Made outside the edge's process: the edges see it within their refresh interval (SLUICE_KEY_REFRESH_MS).
    await waitFor('the edge to require the token', async () => ((await post({})).status === 401 ? true : undefined))
    expect((await post({ authorization: `Bearer ${token}` })).status).toBe(202)
    const shown = await runSluice(['integrations', 'auth', 'show', id, ...account], t.env)
    expect(shown.stdout).not.toContain(token)
    expect(JSON.parse(shown.stdout)).toMatchObject({
      scheme: 'bearer',
      secrets: [{ id: expect.stringMatching(/^sec_/) }],
    })
    expect((await runSluice(['integrations', 'auth', 'off', id, ...account], t.env)).code).toBe(0)
    rmSync(rulesFile)
    await saveRules([])
    // About 30–50 s: a dozen CLI processes, each a Node start; on a loaded machine past the default 60 s.
  }, 180_000)
})
