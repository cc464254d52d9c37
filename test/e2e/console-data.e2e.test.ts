// The console's Data view in a real browser, as an engineer wiring an import job uses it: the event types that arrived
// with their counts, one type's properties; the live tail, which shows a tracked event within 2 s of its 202 and
// filters by event type; the refused records by reason with hostile records (markup, a lone surrogate, a 300 KB
// string) shown as text, bounded; and an erasure requested and seen done. Screenshots for the docs.
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
let sdkKey: string

const MARKUP = '<img src=x onerror="window.__xss=1">'
// Written to docs/screenshots with SLUICE_UPDATE_SCREENSHOTS=1 (as console.e2e.test.ts does).
const SHOTS = process.env['SLUICE_UPDATE_SCREENSHOTS'] === '1' ? 'docs/screenshots' : '.sluice/screenshots'
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
const event = (key: string, eventTypeId: string | undefined, extra: Record<string, unknown> = {}) => ({
  eventTypeId,
  trafficTypeName: 'user',
  key,
  timestamp: Date.now(),
  ...extra,
})

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  sdkKey = demo.environments[0]!.serverSideSdkKey
  service = await t.start(['edge', 'admin', 'events', 'alerts', 'checks'])
  const sent = await postEvents(
    service.url,
    sdkKey,
    [
      event('u1', 'checkout', { value: 30, properties: { plan: 'pro', [MARKUP]: 1 } }),
      event('u2', 'checkout', { properties: { plan: 'free' } }),
      event('u3', 'page_view'),
      // Refused: markup as the key of a record without a type, a lone surrogate, a 300 KB string.
      event(MARKUP, undefined),
      event('lone-\ud800', 'checkout'),
      event('big', undefined, { properties: { blob: 'y'.repeat(300_000) } }),
    ],
    { SplitSDKVersion: 'nodejs-10.28.0' },
  )
  expect(sent.status).toBe(202)
  await waitFor('rows stored', async () =>
    (await t.count('events')) === 3 && (await t.count('event_rejections')) === 3 ? true : undefined,
  )
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  await page.goto(`${service.url}/console/`)
  await page.getByLabel('Admin API key').fill(demo.adminApiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Overview' }).waitFor()
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Data' }).click()
  await page.getByRole('heading', { name: 'Data' }).waitFor()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

const tab = (name: string) =>
  page.getByRole('navigation', { name: 'Data views' }).getByRole('button', { name, exact: true })

it('opens on the ingestion health: what arrived and was refused in the last hour, the reasons, the SDKs', async () => {
  const health = page.getByTestId('health')
  await health.waitFor()
  const perMinute = page.getByTestId('per-minute')
  expect(await perMinute.locator('figcaption').textContent()).toBe(
    'last hour: 3 events and 0 impressions received, 3 refused',
  )
  // Drawn, and its figures readable: an hour of minutes, the received and the refused adding up to the summary.
  await expect.poll(() => perMinute.locator('canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0)
  await perMinute.getByText('Figures').click()
  const rows = await perMinute
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))
  expect(rows.length).toBeGreaterThanOrEqual(60)
  expect(rows.reduce((n, r) => n + Number(r[1]), 0)).toBe(3)
  expect(rows.reduce((n, r) => n + Number(r[2]), 0)).toBe(3)
  expect(await page.getByTestId('top-reasons').locator('li').allTextContents()).toEqual([
    expect.stringMatching(/^2 events: eventTypeId/),
    expect.stringMatching(/^1 event: key contains a lone UTF-16 surrogate/),
  ])
  const sdk = page.getByTestId('sdks').locator('tr[data-sdk="nodejs-10.28.0"]')
  expect(await sdk.locator('td').first().textContent()).toBe('events')
  await health.getByText(/Last event received: \d+ seconds? ago/).waitFor()
  await shot('console-data-health')
})

it('lists the event types that arrived, and one type’s properties with markup shown as text', async () => {
  await tab('Event types').click()
  const table = page.getByTestId('event-types')
  await table.waitFor()
  const checkout = table.locator('tr[data-type="checkout"]')
  expect(await checkout.locator('td').allTextContents()).toEqual([
    '2',
    '2',
    '2',
    '50%',
    expect.any(String),
    'nodejs-10.28.0',
  ])
  await checkout.getByRole('button', { name: 'checkout' }).click()
  const props = page.getByTestId('properties')
  await props.waitFor()
  await expect.poll(() => props.locator('tbody th').allTextContents(), { timeout: 10_000 }).toEqual(['plan', MARKUP])
  expect(await props.locator('tbody tr').first().locator('td').allTextContents()).toEqual(['100%', 'string 2'])
  expect(await page.evaluate('window.__xss')).toBeUndefined()
  await shot('console-data-types')
})

it('shows a tracked event in the live tail within 2 s of its 202, and the filter keeps only its type', async () => {
  await tab('Live tail').click()
  await page.getByLabel('Event type').fill('signup')
  await page.getByRole('button', { name: 'Start' }).click()
  await page.getByRole('status').filter({ hasText: 'Waiting for records' }).waitFor()
  // The consumers see a new watch within a second (they read the watched set once a second).
  await new Promise((r) => setTimeout(r, 1200))
  const rows = page.getByTestId('tail').locator('tbody tr')
  expect((await postEvents(service.url, sdkKey, [event('dora', 'signup'), event('erin', 'checkout')])).status).toBe(202)
  const started = Date.now()
  await rows.first().waitFor({ timeout: 10_000 })
  const shownAfter = Date.now() - started
  expect(shownAfter).toBeLessThan(2000)
  expect(await rows.first().locator('td').nth(3).textContent()).toBe('dora')
  await new Promise((r) => setTimeout(r, 1000))
  expect(await rows.count()).toBe(1)
  await shot('console-data-tail')
  await page.getByRole('button', { name: 'Stop' }).click()
})

it('groups refused records by reason, hostile ones shown as text and cut to a bound', async () => {
  await tab('Refused').click()
  const refused = page.getByTestId('refused')
  await refused.getByText('3 events refused in the last 30 days').waitFor()
  for (const summary of await refused.locator('summary').all()) await summary.click()
  const texts = await refused.locator('pre').allTextContents()
  expect(texts).toHaveLength(3)
  // The record as received (JSON), its markup as text.
  expect(texts.some((x) => x.includes(JSON.stringify(MARKUP)))).toBe(true)
  for (const x of texts) expect(x.length).toBeLessThanOrEqual(2048)
  await refused.getByText(/first 2,048 characters of 262144 bytes/).waitFor()
  expect(await page.evaluate('window.__xss')).toBeUndefined()
  await shot('console-data-refused')

  // A late answer does not overwrite a newer one: the impressions' answer is held until after the events' has come.
  let release: () => void = () => undefined
  const held = new Promise<void>((r) => (release = r))
  await page.route('**/rejections?kind=impressions', async (route) => {
    await held
    await route.continue()
  })
  await page.getByLabel('Records').selectOption('impressions')
  await page.getByLabel('Records').selectOption('events')
  await refused.getByText('3 events refused in the last 30 days').waitFor()
  release()
  await new Promise((r) => setTimeout(r, 1000))
  expect(await refused.locator('p').first().textContent()).toBe('3 events refused in the last 30 days, by reason:')
  await page.unroute('**/rejections?kind=impressions')
})

it("shows an integration's refused payloads by reason, markup as text", async () => {
  const headers = { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' }
  const created = await fetch(`${service.url}/api/v1/integrations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Monitoring', template: 'generic' }),
  })
  const integration = (await created.json()) as { id: string; webhookUrl: string }
  const sent = await fetch(`${service.url}${new URL(integration.webhookUrl).pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: MARKUP, severity: 'purple' }),
  })
  expect(sent.status).toBe(202)
  await waitFor('the payload refused', async () => {
    const r = await fetch(`${service.url}/api/v1/integrations/${integration.id}/rejections`, { headers })
    return ((await r.json()) as { reasons: unknown[] }).reasons.length > 0 ? true : undefined
  })
  await tab('Refused payloads').click()
  const refused = page.getByTestId('refused-payloads')
  await refused.locator('summary').first().click()
  expect(await refused.locator('summary').first().textContent()).toMatch(/^1 × severity "purple" is not one of/)
  expect(await refused.locator('pre').first().textContent()).toContain(JSON.stringify(MARKUP).slice(1, -1))
  expect(await page.evaluate('window.__xss')).toBeUndefined()
})

it('erases a key: the job is shown done with what it deleted', async () => {
  await tab('Erasures').click()
  await page.getByLabel(/Keys to erase/).fill('u1\nu2')
  await page.getByRole('button', { name: 'Erase' }).click()
  const row = page.getByTestId('erasures').locator('tbody tr').first()
  await expect.poll(() => row.locator('td').nth(1).textContent(), { timeout: 30_000 }).toBe('done')
  expect(await row.locator('td').nth(3).textContent()).toBe(
    '2 events, 0 impressions, 0 unique_keys, 0 event_rejections, 0 impression_rejections, 0 event_violations',
  )
  expect(await t.count('events', "key IN ('u1', 'u2')")).toBe(0)
})
