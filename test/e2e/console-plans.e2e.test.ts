// The console's tracking plan in a real browser, as an importer uses it: a plan proposed from what arrived, edited in
// the text area (a property's type tightened, block mode), a mistake refused naming its place, saved; then events that
// break it (one with markup in a property) show as violations by rule, with the refused record shown as text; another
// person's save in between is refused, not overwritten. Once the plan is fixed, the refused events are replayed from
// the refused records: a dry run, then the replay, followed to its outcome. Screenshots for the importers' doc.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { launchBrowser } from '../support/browser.js'
import { createTestEnv, postEvents, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let browser: Browser
let page: Page

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const MARKUP = '<img src=x onerror="window.__xss=1">'
const SHOTS = process.env['SLUICE_UPDATE_SCREENSHOTS'] === '1' ? 'docs/screenshots' : '.sluice/screenshots'
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
const checkout = (key: string, plan: unknown) => ({
  eventTypeId: 'checkout',
  trafficTypeName: 'user',
  key,
  timestamp: Date.now(),
  value: 10,
  properties: { plan },
})

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'events', 'checks'], { SLUICE_INTEGRATION_REFRESH_MS: '100' })
  const sdkKey = demo.environments[0]!.serverSideSdkKey
  expect((await postEvents(service.url, sdkKey, [checkout('u1', 'pro'), checkout('u2', 'free')])).status).toBe(202)
  await waitFor('rows stored', async () => ((await t.count('events')) === 2 ? true : undefined))
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  await page.goto(`${service.url}/console/`)
  await page.getByLabel('Admin API key').fill(demo.adminApiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Overview' }).waitFor()
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Data' }).click()
  await page.getByRole('navigation', { name: 'Data views' }).getByRole('button', { name: 'Tracking plan' }).click()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

it('proposes a plan from what arrived, refuses a mistake naming its place, saves the edited plan, shows violations as text', async () => {
  await page.getByText('This environment has no tracking plan').waitFor()
  await page.getByRole('button', { name: 'Propose from what arrived' }).click()
  await page.getByRole('status').filter({ hasText: 'Proposed from what arrived: 1 event types' }).waitFor()
  const area = page.getByLabel('The plan (JSON)')
  const proposed = JSON.parse(await area.inputValue()) as Json
  expect(proposed['events']['checkout']['properties']['plan']).toEqual({ type: 'string', required: true })

  // A mistake first: an enum that is not a list.
  proposed['mode'] = 'block'
  proposed['events']['checkout']['properties']['plan'] = { type: 'string', enum: 'pro', required: true }
  await area.fill(JSON.stringify(proposed, null, 2))
  await page.getByRole('button', { name: 'Save as a new version' }).click()
  await page.locator('#plan-problems').getByText('plan.events.checkout.properties.plan.enum').waitFor()
  expect(await area.getAttribute('aria-invalid')).toBe('true')

  proposed['events']['checkout']['properties']['plan'] = { type: 'string', enum: ['free', 'pro'], required: true }
  await area.fill(JSON.stringify(proposed, null, 2))
  await page.getByRole('button', { name: 'Save as a new version' }).click()
  await page.getByRole('status').filter({ hasText: 'Saved as version 1' }).waitFor()
  // The versions are read again after the save: polled, as a person's eyes would wait for the row.
  await expect
    .poll(() => page.getByTestId('plan-versions').locator('tbody tr td').allTextContents())
    .toEqual(['1', expect.any(String), expect.stringMatching(/^key:/), 'block', '1'])

  // Events that break it: refused, and reported with the record shown as text.
  await new Promise((r) => setTimeout(r, 500))
  const sdkKey = demo.environments[0]!.serverSideSdkKey
  const sent = await postEvents(service.url, sdkKey, [checkout('u3', 'gold'), checkout('u4', MARKUP)], {
    SplitSDKVersion: 'nodejs-10.28.0',
  })
  expect(sent.status).toBe(202)
  await waitFor('violations stored', async () => ((await t.count('event_violations')) === 2 ? true : undefined))
  await page.reload()
  const group = page.getByTestId('violations').locator('details[data-rule="not_in_enum"]')
  await group.waitFor({ timeout: 20_000 })
  expect(await group.locator('summary').textContent()).toMatch(
    /^2 × checkout: not in the enum \(nodejs-10\.28\.0\), last .*, 2 refused$/,
  )
  await group.locator('summary').click()
  await expect
    .poll(() => group.locator('pre').allTextContents())
    .toContainEqual(expect.stringContaining(JSON.stringify(MARKUP)))
  expect(await page.evaluate('window.__xss')).toBeUndefined()
  await shot('console-data-plan')

  // Another person saves meanwhile: this page's save is refused, and says why.
  const now = (await (
    await fetch(`${service.url}/api/v1/environments/${demo.environments[0]!.id}/tracking-plan`, {
      headers: { authorization: `Bearer ${demo.adminApiKey}` },
    })
  ).json()) as { plan: unknown }
  const other = await fetch(`${service.url}/api/v1/environments/${demo.environments[0]!.id}/tracking-plan`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: now.plan, baseVersion: 1 }),
  })
  expect(other.status).toBe(200)
  await page.getByRole('button', { name: 'Save as a new version' }).click()
  await page.getByRole('alert').filter({ hasText: 'is at version 2, not 1' }).waitFor()
}, 120_000)

it('replays the refused events from the refused records once the plan is fixed: a dry run, then the replay', async () => {
  const env = demo.environments[0]!.id
  const headers = { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' }
  const now = (await (await fetch(`${service.url}/api/v1/environments/${env}/tracking-plan`, { headers })).json()) as {
    plan: Json
    version: number
  }
  const fixed = await fetch(`${service.url}/api/v1/environments/${env}/tracking-plan`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ plan: { ...now.plan, mode: 'observe' }, baseVersion: now.version }),
  })
  expect(fixed.status).toBe(200)
  await new Promise((r) => setTimeout(r, 500))

  await page
    .getByRole('navigation', { name: 'Data views' })
    .getByRole('button', { name: 'Refused', exact: true })
    .click()
  const reason = page.getByTestId('refused').locator('details').filter({ hasText: 'tracking plan v1' })
  await reason.locator('summary').click()
  await reason.getByRole('button', { name: 'Replay…' }).click()
  // The filter is filled after the click (an effect of the chosen reason): polled, as the eye waits for it.
  await expect.poll(() => page.getByLabel('Reason starts with').inputValue()).toMatch(/^tracking plan v1: /)
  await page.getByRole('button', { name: 'Dry run' }).click()
  const dry = page.getByTestId('replay-dry-run')
  await dry.waitFor()
  expect(await dry.locator('p').first().textContent()).toMatch(
    /^2 refused in the last 30 days, 0 already replayed\. Of 2 checked again now \(tracking plan v\d+\): 2 would be stored, 0 refused again, 0 cannot be replayed\.$/,
  )
  await dry.getByRole('button', { name: 'Replay 2 records' }).click()
  const row = page.getByTestId('replays').locator('tbody tr').first()
  await expect.poll(() => row.locator('td').nth(3).textContent(), { timeout: 60_000 }).toBe('done')
  expect(await row.locator('td').allTextContents()).toEqual([
    expect.any(String),
    expect.stringMatching(/^key:/),
    expect.stringMatching(/^events, reason “tracking plan v1: .*…”$/),
    'done',
    '2',
    '2',
    '0',
  ])
  await shot('console-data-replay')
  // The record with markup is stored (it was shown only as text).
  expect(await t.count('events', `key IN ('u3', 'u4')`)).toBe(2)
  expect(await page.evaluate('window.__xss')).toBeUndefined()
}, 120_000)
