// The console's on-call view in a real browser, as a team lead uses it: make a schedule (JSON, as the API takes it),
// see who is on call now and the coming two weeks as a timeline that says what the API says, add an override by
// choosing a teammate and a span and see the timeline change, remove it; make an escalation policy and make it the
// default, and see an integration's heartbeat. A display name with markup is shown as text.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { launchBrowser } from '../support/browser.js'
import { createTestEnv, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let browser: Browser
let page: Page
const MARKUP = '<img src=x onerror="window.__xss=1">'
const ids: Record<string, string> = {}
const SHOTS = process.env['SLUICE_UPDATE_SCREENSHOTS'] === '1' ? 'docs/screenshots' : '.sluice/screenshots'

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  service = await t.start(['admin'])
  for (const [name, display] of [
    ['ana', `Ana ${MARKUP}`],
    ['bo', 'Bo'],
  ]) {
    ids[name!] = (
      await t.state.directory.createUser(demo.accountId, {
        userName: `${name}@example.com`,
        displayName: display!,
        active: true,
      })
    ).user.id
  }
  browser = await launchBrowser()
  // The browser's clock in UTC: the times typed into the override form are UTC.
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, timezoneId: 'UTC' })
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

async function api(method: string, path: string): Promise<Json> {
  const res = await fetch(`${service.url}${path}`, { method, headers: { authorization: `Bearer ${demo.adminApiKey}` } })
  return (await res.json()) as Json
}

/** Today's bars as the timeline shows them: their text, in order. */
const bars = (day: string) => page.getByRole('list', { name: day }).getByRole('listitem').allInnerTexts()
const dayLabel = (ms: number) =>
  new Date(ms).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' })
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16)

it('makes a schedule, shows who is on call and the coming two weeks as the API says, with an override added and removed', async () => {
  await page.goto(`${service.url}/console/`)
  await page.getByLabel('Admin API key').fill(demo.adminApiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'On call' }).click()
  await page.getByRole('heading', { name: 'On call', exact: true }).waitFor()
  await page.getByText('No schedules yet.').waitFor()

  // Daily turns at 09:00 UTC, Ana then Bo.
  await page.getByLabel(/^Schedule \(JSON/).fill(
    JSON.stringify({
      name: `Support ${MARKUP}`,
      timeZone: 'UTC',
      layers: [
        {
          name: 'daily',
          start: '2026-11-01T09:00',
          rotation: { unit: 'days', length: 1 },
          responders: [ids['ana'], ids['bo']],
        },
      ],
    }),
  )
  await page.getByRole('button', { name: 'Add schedule' }).click()
  const now = page.getByTestId('on-call-now')
  await now.getByRole('button', { name: `Support ${MARKUP}` }).waitFor()
  const [schedule] = (await api('GET', '/api/v1/schedules'))['schedules'] as Json[]
  const onCall = await api('GET', `/api/v1/schedules/${schedule!['id']}/on-call`)
  expect(await now.locator('tbody tr').first().innerText()).toContain(onCall['responder']['displayName'])

  // Tomorrow's bars are the API's shifts of that day, names as text.
  const tomorrow = new Date().setUTCHours(0, 0, 0, 0) + 86_400_000
  const day = dayLabel(tomorrow)
  const want = async () => {
    const shifts = (
      await api('GET', `/api/v1/schedules/${schedule!['id']}/shifts?from=${new Date(tomorrow).toISOString()}&days=1`)
    )['shifts'] as Json[]
    return shifts.map((s) => {
      const a = Math.max(Date.parse(s['start']), tomorrow)
      const b = Math.min(Date.parse(s['end']), tomorrow + 86_400_000)
      return `${s['responder']['displayName']} ${hhmm(a)}–${hhmm(b)}`
    })
  }
  await expect.poll(() => bars(day)).toEqual(await want())
  expect((await bars(day)).length).toBe(2) // the turn before 09:00 and the one after
  expect(await page.getByTestId('timeline').locator('img').count()).toBe(0)

  // Bo takes tomorrow 12:00-14:00, whoever's turn it is.
  await page.getByLabel('Who').selectOption({ label: 'Bo' })
  await page.getByLabel('From').fill(`${new Date(tomorrow).toISOString().slice(0, 10)}T12:00`)
  await page.getByLabel('To').fill(`${new Date(tomorrow).toISOString().slice(0, 10)}T14:00`)
  await page.getByRole('button', { name: 'Add override' }).click()
  await page.getByRole('table', { name: 'Overrides' }).waitFor()
  const withOverride = await want()
  expect(withOverride.some((b) => b.startsWith('Bo 12:00–14:00') || /^Bo \d\d:\d\d–\d\d:\d\d$/.test(b))).toBe(true)
  await expect.poll(() => bars(day)).toEqual(withOverride)
  const saved = ((await api('GET', '/api/v1/schedules'))['schedules'] as Json[])[0]!
  expect(saved['overrides']).toEqual([
    {
      responder: ids['bo'],
      from: `${new Date(tomorrow).toISOString().slice(0, 10)}T12:00:00.000Z`,
      to: `${new Date(tomorrow).toISOString().slice(0, 10)}T14:00:00.000Z`,
    },
  ])
  await page.screenshot({ path: `${SHOTS}/console-oncall.png`, fullPage: true })

  await page.getByRole('button', { name: /^Remove the override of Bo/ }).click()
  await expect
    .poll(async () => ((await api('GET', '/api/v1/schedules'))['schedules'] as Json[])[0]!['overrides'])
    .toEqual([])
  await expect.poll(() => bars(day)).toEqual(await want())
  expect(await page.evaluate('window.__xss')).toBeUndefined()
})

it('makes an escalation policy from JSON, shows its steps by name (as text) and makes it the default; shows heartbeats with their state', async () => {
  const [schedule] = (await api('GET', '/api/v1/schedules'))['schedules'] as Json[]
  const policies = page.getByRole('table', { name: /Who is paged, step after step/ })
  await page.getByText('No escalation policies yet.').waitFor()
  // A policy as the API takes it; a wrong one first: the API's 400 is shown, naming the field.
  await page.getByLabel(/^Policy \(JSON/).fill(JSON.stringify({ name: 'Broken', steps: [] }))
  await page.getByRole('button', { name: 'Add policy' }).click()
  await page.getByRole('alert').filter({ hasText: 'steps' }).waitFor()
  await page.getByLabel(/^Policy \(JSON/).fill(
    JSON.stringify({
      name: `Support ${MARKUP}`,
      steps: [
        { targets: [{ kind: 'schedule', id: schedule!['id'] }], waitMinutes: 10 },
        { targets: [{ kind: 'user', id: ids['bo'] }], waitMinutes: 0 },
      ],
      repeat: 2,
    }),
  )
  await page.getByRole('button', { name: 'Add policy' }).click()
  const row = policies.locator('tbody tr').first()
  await row.waitFor()
  expect(await row.getByRole('listitem').allInnerTexts()).toEqual([
    `whoever is on call in Support ${MARKUP}; then 10 minutes`,
    'Bo',
  ])
  expect(await row.innerText()).toContain('2 times')
  await page.getByRole('button', { name: `Make Support ${MARKUP} the default policy` }).click()
  await row.getByText('default', { exact: true }).waitFor()
  const [policy] = (await api('GET', '/api/v1/escalation-policies'))['policies'] as Json[]
  expect(await api('GET', '/api/v1/oncall/default-policy')).toEqual({ policyId: policy!['id'] })

  // A heartbeat on an integration: listed with its interval, up, and no payload yet.
  const made = await fetch(`${service.url}/api/v1/integrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Prod ${MARKUP}`, template: 'alertmanager' }),
  })
  const integration = (await made.json()) as Json
  const put = await fetch(`${service.url}/api/v1/integrations/${integration['id']}/heartbeat`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ intervalSeconds: 300, graceSeconds: 30 }),
  })
  expect(put.status).toBe(200)
  await page.reload()
  const beats = page.getByRole('table', { name: /Integrations expected to send/ })
  await beats.waitFor()
  expect(await beats.locator('tbody tr').first().innerText()).toMatch(
    new RegExp(`Prod <img[^\\n]*\\t300 seconds \\(\\+30 s grace\\)\\tup\\tnone in the last week`),
  )
  expect(await page.evaluate('window.__xss')).toBeUndefined()
  await page.screenshot({ path: `${SHOTS}/console-oncall-policies.png`, fullPage: true })
})
