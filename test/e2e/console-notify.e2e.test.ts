// The console's notifications in a real browser, as an on-call engineer sets them up: create a webhook
// destination (its signing secret shown once), send it a test, route a rule to it, see an alert's delivery in
// its Why panel, and retry a dead delivery once the receiver is fixed. Hostile alert text is shown as text.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { launchBrowser } from '../support/browser.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'
import { postAlertmanager } from '../support/alerts.js'
import { startReceivers, type Receivers } from '../support/receivers.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let browser: Browser
let page: Page
let rx: Receivers
let hook: string

const MARKUP = '<img src=x onerror="window.__xss=1">'
const SHOTS = process.env['SLUICE_UPDATE_SCREENSHOTS'] === '1' ? 'docs/screenshots' : '.sluice/screenshots'
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_INTEGRATION_REFRESH_MS: '200',
    SLUICE_NOTIFY_ALLOW_HTTP: 'true',
    SLUICE_NOTIFY_ALLOWED_RANGES: '127.0.0.0/8',
  })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts', 'notify'])
  rx = await startReceivers()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const res = await api('POST', '/api/v1/integrations', { name: 'prometheus', template: 'alertmanager' })
  hook = new URL(res['webhookUrl'] as string).pathname
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await rx?.close()
  await t?.close()
})

async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${demo.adminApiKey}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return text ? (JSON.parse(text) as Record<string, unknown>) : {}
}

function fire(fingerprint: string) {
  return postAlertmanager(`${service.url}${hook}`, [
    {
      fingerprint,
      labels: { alertname: fingerprint, severity: 'critical', team: 'payments', service: 'checkout' },
      annotations: { summary: `${fingerprint} ${MARKUP}` },
    },
  ])
}

const view = async (name: string, heading: string) => {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name }).click()
  await page.getByRole('heading', { name: heading, exact: true }).waitFor()
}

it('creates a webhook destination, reads its signing secret once, and sends it a test', async () => {
  await page.goto(`${service.url}/console/`)
  await page.getByLabel('Admin API key').fill(demo.adminApiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await view('Notifications', 'Notifications')
  await page.getByLabel('Name').fill('on-call hook')
  await page.getByLabel('Kind').selectOption('webhook')
  await page.getByLabel('URL').fill(`${rx.url}/console-hook`)
  await page.getByRole('button', { name: 'Create destination' }).click()
  await expect.poll(() => page.getByTestId('signing-secret').textContent(), { timeout: 10_000 }).toMatch(/whsec_/)
  await page.getByRole('button', { name: 'Send a test to on-call hook' }).click()
  await expect.poll(() => page.getByTestId('test-result').textContent(), { timeout: 10_000 }).toContain('delivered')
  expect(JSON.parse(rx.on('/console-hook')[0]!.body)).toMatchObject({ type: 'alert.triggered', alert: { id: 'test' } })
  // A private address is refused by name.
  await page.getByLabel('Name').fill('metadata')
  await page.getByLabel('URL').fill('http://169.254.169.254/latest')
  await page.getByRole('button', { name: 'Create destination' }).click()
  await expect
    .poll(() => page.getByRole('alert').first().textContent(), { timeout: 10_000 })
    .toMatch(/settings\.url resolves to 169\.254\.169\.254, which is not a public address/)
  await shot('console-notifications')
})

it('routes a rule to the destination; the alert is delivered and its Why shows the delivery', async () => {
  await view('Rules', 'Alert rules')
  await page.getByRole('button', { name: 'Add rule' }).click()
  await page
    .getByLabel('Rule (JSON)')
    .fill(JSON.stringify({ id: 'page-payments', name: 'page payments', when: { field: 'team', equals: 'payments' } }))
  await page.getByLabel('on-call hook (webhook)').check()
  await page.getByRole('button', { name: 'Apply to draft' }).click()
  await page.getByText('notify dst_').waitFor()
  await page.getByRole('button', { name: 'Save rules' }).click()
  await page.getByText('Saved as version 1.').waitFor()
  await new Promise((r) => setTimeout(r, 500))

  expect((await fire('routed')).status).toBe(202)
  await waitFor('the routed alert delivered', async () => (rx.on('/console-hook').length >= 2 ? true : undefined))
  await view('Alerts', 'Alerts')
  const row = page.locator('tr', { hasText: `routed ${MARKUP}` })
  await row.waitFor({ timeout: 15_000 })
  await row.getByRole('button', { name: /^Why/ }).click()
  const deliveries = page.getByTestId('deliveries')
  await expect
    .poll(() => deliveries.innerText(), { timeout: 10_000 })
    .toMatch(/triggered to dst_\w+: delivered after 1 attempt/)
  expect(await page.locator('img').count()).toBe(0)
  // The destination's last deliveries, on its row.
  await view('Notifications', 'Notifications')
  await page.getByRole('button', { name: 'Deliveries of on-call hook' }).click()
  const last = page.getByTestId('destination-deliveries')
  await expect
    .poll(() => last.innerText(), { timeout: 10_000 })
    .toContain(`triggered of routed ${MARKUP}, delivered after 1 attempt`)
  expect(await page.locator('img').count()).toBe(0)
  // The volume per hour counts it (a test message is not a notification, so the two alerts' are all there is).
  await view('Alerts', 'Alerts')
  await view('Notifications', 'Notifications')
  const volume = page.getByTestId('volume')
  await expect
    .poll(() => volume.locator('figcaption').innerText(), { timeout: 10_000 })
    .toMatch(/^last 24 hours: [1-9]\d* notifications? delivered, 0 tries failed and retried, 0 given up$/)
  await expect.poll(() => volume.locator('canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0)
})

it("opens the incident from the notification's link, and its alert, signed in or not; back and reload keep the view", async () => {
  const sent = JSON.parse(rx.on('/console-hook').at(-1)!.body) as {
    link: string
    alert: { id: string; incidentId: string }
  }
  const link = new URL(sent.link)
  expect(link.pathname).toBe('/console/')
  expect(link.hash).toBe(`#/incidents?status=all&incident=${sent.alert.incidentId}`)
  await page.goto(`${service.url}${link.pathname}${link.hash}`)
  const incident = page.getByTestId('incident')
  await incident.getByRole('heading', { name: `routed ${MARKUP}` }).waitFor({ timeout: 10_000 })
  expect(await page.title()).toBe('Incidents · Sluice')
  expect(await incident.getByRole('table', { name: 'Alerts of the incident' }).innerText()).toContain(
    `routed ${MARKUP}`,
  )
  // The alert itself, at its own address.
  await page.goto(`${service.url}/console/#/alerts?alert=${sent.alert.id}`)
  const panel = page.getByTestId('why')
  await expect
    .poll(() => page.getByTestId('alert-summary').innerText(), { timeout: 10_000 })
    .toMatch(/^firing, critical/)
  expect(await panel.getByRole('heading', { level: 3 }).innerText()).toBe(`routed ${MARKUP}`)
  expect(await page.title()).toBe('Alerts · Sluice')
  await panel.getByRole('button', { name: 'Acknowledge' }).click()
  await expect.poll(() => page.getByTestId('alert-summary').innerText(), { timeout: 10_000 }).toMatch(/^acknowledged/)
  expect(await page.locator('img').count()).toBe(0)

  // Another view, then back: the alert again. A reload keeps it.
  await view('Notifications', 'Notifications')
  expect(page.url()).toBe(`${service.url}/console/#/notifications`)
  await page.goBack()
  await expect.poll(() => page.getByTestId('alert-summary').innerText(), { timeout: 10_000 }).toMatch(/^acknowledged/)
  await page.reload()
  await expect.poll(() => page.getByTestId('alert-summary').innerText(), { timeout: 10_000 }).toMatch(/^acknowledged/)
  // Closing the panel is a step back can undo; the status filter is in the address too.
  await panel.getByRole('button', { name: 'Close' }).click()
  expect(page.url()).toBe(`${service.url}/console/#/alerts`)
  await page.getByLabel('Status').selectOption('acknowledged')
  expect(page.url()).toBe(`${service.url}/console/#/alerts?status=acknowledged`)
  await page.locator('tr', { hasText: `routed ${MARKUP}` }).waitFor({ timeout: 10_000 })

  // Signed out, the link of an earlier release (#alert=<id>) asks for the key, then opens the alert.
  await page.goto(`${service.url}/console/`)
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.goto(`${service.url}/console/#alert=${sent.alert.id}`)
  await page.getByLabel('Admin API key').fill(demo.adminApiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect.poll(() => page.getByTestId('alert-summary').innerText(), { timeout: 10_000 }).toMatch(/^acknowledged/)
})

it('retries a dead delivery from the dead letter once the receiver is fixed', async () => {
  rx.answer('/console-hook', { status: 403, body: 'token expired' })
  expect((await fire('refused')).status).toBe(202)
  await view('Alerts', 'Alerts')
  await view('Notifications', 'Notifications')
  const dead = page.getByRole('table', { name: 'Dead letter' })
  await expect
    .poll(
      async () => {
        await view('Alerts', 'Alerts')
        await view('Notifications', 'Notifications')
        // The dead letter as read by this visit: its table, or its "none" once the read has answered.
        await dead.or(page.getByText('No delivery was given up.')).waitFor()
        return (await dead.count()) > 0 ? dead.innerText() : ''
      },
      // Alert, routing, one refused attempt: seconds alone; the suites beside it (kill -9 of consumers) share 2 cores.
      { timeout: 60_000 },
    )
    .toContain('answered 403: token expired')
  expect(await dead.innerText()).toContain(`refused ${MARKUP}`)
  await shot('console-dead-letter')
  rx.answer('/console-hook', { status: 200 })
  await dead
    .getByRole('button', { name: /^Retry delivery/ })
    .first()
    .click()
  await page.getByText(/is due again/).waitFor()
  await waitFor('delivered after the retry', async () => {
    const last = rx.on('/console-hook').at(-1)!
    return last.body.includes('refused') &&
      rx.on('/console-hook').filter((r) => r.body.includes('refused')).length === 2
      ? true
      : undefined
  })
  expect(await page.evaluate('window.__xss')).toBeUndefined()
}, 120_000)
