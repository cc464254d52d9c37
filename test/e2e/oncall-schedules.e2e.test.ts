// On-call schedules end to end: the account's users (SCIM-provisioned, in Redis) in a weekly rotation with a weekday
// restriction and an override, through the admin API of a real service: who is on call at given times, the shifts of
// the coming weeks, and the calendar feed read by a real iCalendar parser (Python's icalendar) giving the same shifts
// as the API and as the independent computation (dateutil, zoneinfo). Hostile schedules are 400s naming the field;
// another account sees none of it; a feed token is the only way in, and a wrong one is a 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, jsonCaller, type TestEnv } from '../support/harness.js'
import { independent } from '../support/stats.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let other: { accountId: string; adminApiKey: string }
const json = jsonCaller(() => service.url)
const call = (method: string, path: string, body?: unknown, key = demo.adminApiKey) => json(key, method, path, body)
const users: Record<string, string> = {}

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  const account = await t.tenancy.createAccount('other')
  other = {
    accountId: account.id,
    adminApiKey: (await t.tenancy.createApiKey({ kind: 'admin', accountId: account.id, name: 'other admin' })).key,
  }
  service = await t.start(['admin'])
  for (const name of ['ana', 'bo', 'chen', 'zed']) {
    const made = await t.state.directory.createUser(demo.accountId, {
      userName: `${name}@example.com`,
      displayName: name === 'zed' ? 'Zed <b>Override</b>; "x", y' : name.toUpperCase(),
      active: true,
    })
    users[name] = made.user.id
  }
})
afterAll(async () => {
  await t?.close()
})

/** Weekly turns handing off on Mondays at 09:00 in New York, restricted to weekdays 09:00-17:00, and one override. */
const weekly = () => ({
  name: 'Payments primary',
  timeZone: 'America/New_York',
  layers: [
    {
      name: 'weekdays',
      start: '2026-03-02T09:00',
      rotation: { unit: 'weeks', length: 1 },
      responders: [users['ana'], users['bo'], users['chen']],
      restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }],
    },
  ],
  overrides: [
    { responder: users['zed'], from: '2026-03-10T14:00:00Z', to: '2026-03-10T18:00:00Z' },
    // Within the calendar feeds' window (the two weeks past, the six months to come).
    { responder: users['zed'], from: soon.toISOString(), to: new Date(soon.getTime() + 3_600_000).toISOString() },
  ],
})
const soon = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000)

describe('schedules', () => {
  let id: string

  it('is made, and says who is on call at a time across the DST change, and until when', async () => {
    const made = await call('POST', '/api/v1/schedules', weekly())
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(made.body).toMatchObject({ name: 'Payments primary', version: 1, overrides: weekly().overrides })
    id = made.body['id']
    const at = async (time: string) => (await call('GET', `/api/v1/schedules/${id}/on-call?at=${time}`)).body
    // Monday 2 March 09:30 EST (14:30Z): ana, until 17:00 EST (22:00Z).
    expect(await at('2026-03-02T14:30:00Z')).toEqual({
      at: '2026-03-02T14:30:00.000Z',
      responder: { id: users['ana'], userName: 'ana@example.com', displayName: 'ANA' },
      until: '2026-03-02T22:00:00.000Z',
    })
    // Monday 2 March 20:00 EST: no one until Tuesday 09:00 EST.
    expect(await at('2026-03-03T01:00:00Z')).toMatchObject({ responder: null, until: '2026-03-03T14:00:00.000Z' })
    // Monday 9 March, after the change to EDT (8 March): bo from 09:00 EDT (13:00Z).
    expect((await at('2026-03-09T12:59:00Z'))['responder']).toBeNull()
    expect((await at('2026-03-09T13:00:00Z'))['responder']['id']).toBe(users['bo'])
    // The override, Tuesday 10 March 14:00-18:00Z: zed, then bo again until 17:00 EDT (21:00Z).
    expect(await at('2026-03-10T15:00:00Z')).toMatchObject({
      responder: { id: users['zed'] },
      until: '2026-03-10T18:00:00.000Z',
    })
    expect(await at('2026-03-10T18:00:00Z')).toMatchObject({
      responder: { id: users['bo'] },
      until: '2026-03-10T21:00:00.000Z',
    })
  })

  it('lists the shifts of the coming weeks as the independent computation does', async () => {
    const from = '2026-03-01T00:00:00.000Z'
    const res = await call('GET', `/api/v1/schedules/${id}/shifts?from=${from}&days=28`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const theirs = independent<{ start: number; end: number; responder: string }[]>('test/compat/oncall_shifts.py', {
      schedule: weekly(),
      from: Date.parse(from),
      to: Date.parse(from) + 28 * 86_400_000,
    })
    expect(theirs.length).toBe(22) // 20 weekdays, one of them split by the override into three
    expect((res.body['shifts'] as Json[]).map((s) => [s['start'], s['end'], s['responder']['id']])).toEqual(
      theirs.map((s) => [new Date(s.start).toISOString(), new Date(s.end).toISOString(), s.responder]),
    )
  })

  it('gives a secret calendar feed that a real iCalendar parser reads as the independent shifts, names as text', async () => {
    const feed = await call('POST', '/api/v1/oncall/feeds', { scheduleId: id })
    expect(feed.status, JSON.stringify(feed.body)).toBe(201)
    const url = feed.body['url'] as string
    expect(url).toMatch(/\/api\/v1\/oncall\/feeds\/ocf_[\w-]+\.ics$/)
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/)
    const ical = await res.text()
    const events = independent<{ start: number; end: number; responder: string; summary: string }[]>(
      'test/compat/oncall_shifts.py',
      { ical },
    )
    const now = Date.now()
    const theirs = independent<{ start: number; end: number; responder: string }[]>('test/compat/oncall_shifts.py', {
      schedule: weekly(),
      from: now - 14 * 86_400_000,
      to: now + 183 * 86_400_000,
    })
    expect(events.length).toBeGreaterThan(50)
    // The feed's window starts at its own now: compare the shifts both hold whole.
    const inner = (s: { start: number }) => s.start >= now - 13 * 86_400_000 && s.start <= now + 180 * 86_400_000
    expect(events.filter(inner).map((e) => [e.start, e.end, e.responder])).toEqual(
      theirs.filter(inner).map((s) => [s.start, s.end, s.responder]),
    )
    expect(events[0]!.summary).toMatch(/^On call: Payments primary \(/)
    // A user's own feed: only that user's shifts, the hostile display name as text in the summary.
    const own = await call('POST', '/api/v1/oncall/feeds', { userId: users['zed'] })
    expect(own.status).toBe(201)
    const zed = independent<{ responder: string; summary: string }[]>('test/compat/oncall_shifts.py', {
      ical: await (await fetch(own.body['url'])).text(),
    })
    expect(zed).toEqual([
      expect.objectContaining({
        responder: users['zed'],
        start: soon.getTime(),
        end: soon.getTime() + 3_600_000,
        summary: 'On call: Payments primary (Zed <b>Override</b>; "x", y)',
      }),
    ])
    // The same events on the next fetch: their UIDs and starts do not move with the time of the fetch.
    const again = await (await fetch(url)).text()
    const uids = (text: string) => [...text.matchAll(/^UID:(.*)$/gm)].map((m) => m[1])
    expect(uids(again)).toEqual(uids(ical))
    // A wrong token, or another's made up: 404, and nothing about the account.
    const wrong = await fetch(url.replace(/ocf_[\w-]+/, 'ocf_' + 'A'.repeat(32)))
    expect(wrong.status).toBe(404)
    expect(await wrong.text()).not.toContain(demo.accountId)
    // Revoked: 404 from then on; another account cannot revoke it.
    const token = /ocf_[\w-]+/.exec(url)![0]
    expect((await call('DELETE', `/api/v1/oncall/feeds/${token}.ics`, undefined, other.adminApiKey)).status).toBe(404)
    expect((await fetch(url)).status).toBe(200)
    expect((await call('DELETE', `/api/v1/oncall/feeds/${token}.ics`)).status).toBe(204)
    expect((await fetch(url)).status).toBe(404)
  })

  it('is made and read from the command line, with the same answers and the same refusals', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'schedules-'))
    const file = join(dir, 'schedule.json')
    writeFileSync(file, JSON.stringify({ ...weekly(), name: 'From the CLI' }))
    const account = ['--account', demo.accountId]
    const added = await runSluice(['schedules', 'add', file, ...account, '--json'], t.env)
    expect(added.code, added.stderr).toBe(0)
    const cliId = (JSON.parse(added.stdout) as Json)['id'] as string
    const now = await runSluice(['schedules', 'oncall', cliId, '--at', '2026-03-10T15:00:00Z', ...account], t.env)
    expect(now.stdout.trim()).toBe(`zed@example.com (${users['zed']}) until 2026-03-10T18:00:00.000Z`)
    const listed = await runSluice(
      ['schedules', 'shifts', cliId, '--from', '2026-03-01T00:00:00Z', '--days', '28', ...account, '--json'],
      t.env,
    )
    const api = (await call('GET', `/api/v1/schedules/${id}/shifts?from=2026-03-01T00:00:00Z&days=28`)).body
    expect((JSON.parse(listed.stdout) as Json[]).map((s) => [s['start'], s['responder']['id']])).toEqual(
      (api['shifts'] as Json[]).map((s) => [Date.parse(s['start']), s['responder']['id']]),
    )
    writeFileSync(file, JSON.stringify({ ...weekly(), timeZone: 'Nowhere/Town' }))
    const refused = await runSluice(['schedules', 'add', file, ...account], t.env)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('timeZone "Nowhere/Town" is not an IANA time zone')
    writeFileSync(file, JSON.stringify({ ...weekly(), layers: 'none' }))
    expect((await runSluice(['schedules', 'add', file, ...account], t.env)).stderr).toContain('layers must be array')
    expect((await runSluice(['schedules', 'remove', cliId, ...account], t.env)).code).toBe(0)
  })

  it('is replaced with its version, a stale version is a 409, and another account sees nothing', async () => {
    const replaced = await call('PUT', `/api/v1/schedules/${id}`, { ...weekly(), name: 'Payments', version: 1 })
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)
    expect(replaced.body['version']).toBe(2)
    const stale = await call('PUT', `/api/v1/schedules/${id}`, { ...weekly(), version: 1 })
    expect(stale.status).toBe(409)
    expect((await call('GET', `/api/v1/schedules/${id}`, undefined, other.adminApiKey)).status).toBe(404)
    expect((await call('GET', '/api/v1/schedules', undefined, other.adminApiKey)).body['schedules']).toEqual([])
    expect((await call('POST', '/api/v1/oncall/feeds', { scheduleId: id }, other.adminApiKey)).status).toBe(404)
    // Another account's user is not a responder here.
    const foreign = await t.state.directory.createUser(other.accountId, { userName: 'x@example.com', active: true })
    const refused = await call('POST', '/api/v1/schedules', {
      ...weekly(),
      overrides: [
        weekly().overrides[1],
        { responder: foreign.user.id, from: '2026-03-10T14:00:00Z', to: '2026-03-10T18:00:00Z' },
      ],
    })
    expect(refused.status).toBe(400)
    expect(refused.body['details']).toEqual([
      { field: 'overrides[1].responder', problem: `"${foreign.user.id}" is not a user of this account` },
    ])
    expect((await call('DELETE', `/api/v1/schedules/${id}`)).status).toBe(204)
    expect((await call('GET', `/api/v1/schedules/${id}`)).status).toBe(404)
  })

  it('refuses hostile schedules with 400s naming the field, fast', async () => {
    const layer = weekly().layers[0]!
    const cases: [unknown, string][] = [
      [
        { ...weekly(), layers: [{ ...layer, responders: Array.from({ length: 10_000 }, () => users['ana']) }] },
        'layers[0].responders',
      ],
      [{ ...weekly(), layers: Array.from({ length: 1000 }, () => layer) }, 'layers'],
      [{ ...weekly(), layers: [{ ...layer, rotation: { unit: 'days', length: 0 } }] }, 'layers[0].rotation.length'],
      [{ ...weekly(), layers: [{ ...layer, rotation: { unit: 'days', length: 5000 } }] }, 'layers[0].rotation.length'],
      [{ ...weekly(), timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
      [{ ...weekly(), layers: [{ ...layer, start: '2026-02-30T09:00' }] }, 'layers[0].start'],
      [
        { ...weekly(), layers: [{ ...layer, restrictions: [{ days: ['mon'], from: '25:00', to: '17:00' }] }] },
        'layers[0].restrictions[0].from',
      ],
      [
        {
          ...weekly(),
          overrides: [{ responder: users['zed'], from: '2026-01-01T00:00:00Z', to: '2036-01-01T00:00:00Z' }],
        },
        'overrides[0].to',
      ],
      [{ ...weekly(), __proto__: { polluted: 1 } }, ''],
      [{ ...weekly(), overrides: [{ responder: users['zed'], from: '1', to: '2' }] }, 'overrides[0].from'],
      [
        { ...weekly(), overrides: [{ responder: users['zed'], from: '2026-03-08T09:00', to: '2026-03-08T10:00Z' }] },
        'overrides[0].from',
      ],
      [{ ...weekly(), layers: [{ ...layer, start: '2026-03-02T24:00' }] }, 'layers[0].start'],
      [{ ...weekly(), layers: [{ ...layer, responders: ['no-such-user'] }] }, 'layers[0].responders[0]'],
    ]
    for (const [body, field] of cases) {
      const started = Date.now()
      const res = await fetch(`${service.url}/api/v1/schedules`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
        body: field === '' ? JSON.stringify(body).replace('{', '{"__proto__":{"polluted":1},') : JSON.stringify(body),
      })
      const answer = (await res.json()) as Json
      expect(res.status, JSON.stringify(answer).slice(0, 500)).toBe(400)
      if (field !== '')
        expect(
          (answer['details'] as Json[]).map((d) => d['field']),
          JSON.stringify(answer).slice(0, 500),
        ).toContain(field)
      expect(Date.now() - started).toBeLessThan(5000)
    }
    expect((await call('GET', '/api/v1/schedules')).body['schedules']).toEqual([])
    // Query times past the years a schedule may use: 400s naming them, not a 500.
    const made = await call('POST', '/api/v1/schedules', { ...weekly(), timeZone: 'america/new_york' })
    expect(made.body['timeZone']).toBe('America/New_York')
    for (const [query, field] of [
      ['on-call?at=%2B275760-09-13T00:00:00Z', 'at'],
      ['shifts?from=2026-03-01T00:00:00', 'from'],
      ['shifts?from=9999-01-01T00:00:00Z', 'from'],
    ]) {
      const res = await call('GET', `/api/v1/schedules/${made.body['id']}/${query}`)
      expect(res.status, JSON.stringify(res.body)).toBe(400)
      expect(res.body['details'][0]['field']).toBe(field)
    }
    // A feed of a removed schedule is gone with it.
    const feed = (await call('POST', '/api/v1/oncall/feeds', { scheduleId: made.body['id'] })).body['url'] as string
    expect((await fetch(feed)).status).toBe(200)
    expect((await call('DELETE', `/api/v1/schedules/${made.body['id']}`)).status).toBe(204)
    expect((await fetch(feed)).status).toBe(404)
  })
})
