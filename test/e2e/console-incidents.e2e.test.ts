// The console's incidents in a real browser, as an on-call engineer meets them: an outage on 12 hosts of one service
// is one incident in the list; opening it shows its alerts, why they are one incident (the rule and the values it
// grouped by), the alert a database outage inhibits and by whom, and its timeline; Acknowledge acknowledges it and
// each of its alerts. Hostile alert text (the title is made from it) is shown as text.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { launchBrowser } from '../support/browser.js'
import { postAlertmanager, type FiringAlert } from '../support/alerts.js'
import { createTestEnv, jsonCaller, waitFor, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let browser: Browser
let page: Page

const MARKUP = '<img src=x onerror="window.__xss=1">'
const SHOTS = process.env['SLUICE_UPDATE_SCREENSHOTS'] === '1' ? 'docs/screenshots' : '.sluice/screenshots'
const json = jsonCaller(() => service.url)
const call = (method: string, path: string, body?: unknown) => json(demo.adminApiKey, method, path, body)

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_INTEGRATION_REFRESH_MS: '200' })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts'])
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

it('lists an outage as one incident; opening it shows its alerts, why, what is inhibited, and Acknowledge acknowledges them', async () => {
  const rules = await call('PUT', '/api/v1/alert-rules', {
    rules: [
      {
        id: 'per-service',
        name: 'one incident per service',
        group: { by: ['service'], until: 'resolved', title: '{{alert.service}}: {{alert.description}}' },
      },
      {
        id: 'db-down',
        name: 'a database down quiets connection errors',
        when: { field: 'customFields.alertname', equals: 'ConnectionRefused' },
        inhibit: { source: { field: 'customFields.alertname', equals: 'DatabaseDown' }, equal: ['team'] },
      },
    ],
  })
  expect(rules.status, JSON.stringify(rules.body)).toBe(200)
  const made = await call('POST', '/api/v1/integrations', { name: 'prometheus', template: 'alertmanager' })
  const url = String(made.body['webhookUrl'])
  await new Promise((r) => setTimeout(r, 600))
  const hosts: FiringAlert[] = Array.from({ length: 12 }, (_, n) => ({
    fingerprint: `checkout-${n}`,
    labels: {
      alertname: 'HighErrorRate',
      severity: n === 3 ? 'critical' : 'warning',
      service: 'checkout',
      team: 'shop',
    },
    annotations: { summary: `errors ${MARKUP}` },
  }))
  expect((await postAlertmanager(url, hosts)).status).toBe(202)
  expect(
    (
      await postAlertmanager(url, [
        {
          fingerprint: 'db',
          labels: { alertname: 'DatabaseDown', severity: 'critical', service: 'postgres', team: 'shop' },
        },
      ])
    ).status,
  ).toBe(202)
  expect(
    (
      await postAlertmanager(url, [
        { fingerprint: 'refused', labels: { alertname: 'ConnectionRefused', service: 'checkout', team: 'shop' } },
      ])
    ).status,
  ).toBe(202)
  const alerts = await waitFor('14 alerts', async () => {
    const list = (await call('GET', '/api/v1/alerts?status=all&limit=100')).body['alerts'] as Json[]
    return list.length === 14 ? list : undefined
  })
  const refused = alerts.find((a) => a['dedupKey'] === 'refused')!
  const source = alerts.find((a) => a['dedupKey'] === 'db')!
  expect(refused['status']).toBe('inhibited')

  await page.goto(`${service.url}/console/`)
  await page.getByLabel('Admin API key').fill(demo.adminApiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Incidents' }).click()
  await page.getByRole('heading', { name: 'Incidents', exact: true }).waitFor()
  // Two incidents: checkout's (its 12 hosts and the inhibited connection error) and postgres's.
  const rows = page.getByRole('table', { name: 'Incidents' }).locator('tbody tr')
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2)
  const title = `checkout: errors ${MARKUP}`
  const row = rows.filter({ hasText: title })
  await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('13 of 13')
  expect(await row.textContent()).toContain('critical')

  await row.getByRole('button', { name: `Open ${title}` }).click()
  const panel = page.getByTestId('incident')
  await panel.getByRole('heading', { name: title }).waitFor()
  const members = panel.getByRole('table', { name: 'Alerts of the incident' }).locator('tbody tr')
  await expect.poll(() => members.count(), { timeout: 15_000 }).toBe(13)
  const why = await panel.getByTestId('incident-why').textContent()
  expect(why).toContain('rule per-service, grouped by service=checkout')
  expect(why).toContain(
    `${String(refused['id'])} (ConnectionRefused is firing) is inhibited by ${String(source['id'])}`,
  )
  expect(await panel.getByTestId('incident-timeline').textContent()).toMatch(/triggered[\s\S]*joined/)
  // The address names the incident: a reload opens it again.
  expect(page.url()).toContain(`incident=${String(refused['incidentId'])}`)
  await page.reload()
  await panel.getByRole('heading', { name: title }).waitFor()
  await page.screenshot({ path: `${SHOTS}/incident.png`, fullPage: true })

  await panel.getByRole('button', { name: 'Acknowledge' }).click()
  await expect
    .poll(() => panel.getByTestId('incident-summary').textContent(), { timeout: 15_000 })
    .toContain('acknowledged')
  const after = (await call('GET', `/api/v1/incidents/${String(refused['incidentId'])}`)).body
  expect(after['status']).toBe('acknowledged')
  expect((after['members'] as Json[]).every((m) => m['status'] === 'acknowledged')).toBe(true)
  // The markup is text: nothing ran.
  expect(await page.evaluate('window.__xss')).toBeUndefined()
  expect(await page.locator('img[src=x]').count()).toBe(0)

  // From an alert's Why, its incident is a link.
  await page.goto(`${service.url}/console/#/alerts?status=all&alert=${String(refused['id'])}`)
  const link = page.getByTestId('why').getByRole('link', { name: String(refused['incidentId']) })
  await link.click()
  await panel.getByRole('heading', { name: title }).waitFor()
}, 120_000)
