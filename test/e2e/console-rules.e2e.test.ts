// The console's alert rules, maintenance windows and sender authentication in a real browser, as an on-call engineer
// uses them: add rules as JSON, reorder them, try the draft on a recent payload, save it (and see a bad rule refused
// by name); add a window and see what is quiet now; see why a held alert looks as it does; require a bearer token
// from an integration's sender, read the secret once, see a refused sender counted, rotate. Hostile text in a rule
// and in a payload is shown as text.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { launchBrowser } from '../support/browser.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'
import { postAlertmanager } from '../support/alerts.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let browser: Browser
let page: Page
let integration: { id: string; path: string; name: string }

const MARKUP = '<img src=x onerror="window.__xss=1">'
// Written to docs/screenshots with SLUICE_UPDATE_SCREENSHOTS=1 (as console.e2e.test.ts does).
const SHOTS = process.env['SLUICE_UPDATE_SCREENSHOTS'] === '1' ? 'docs/screenshots' : '.sluice/screenshots'
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_INTEGRATION_REFRESH_MS: '200' })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts'])
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const res = await api('POST', '/api/v1/integrations', { name: 'prometheus', template: 'alertmanager' })
  integration = {
    id: res['id'] as string,
    path: new URL(res['webhookUrl'] as string).pathname,
    name: 'prometheus',
  }
  expect((await send('first', 'payments')).status).toBe(202)
  await waitFor('the first payload kept', async () => {
    const p = await api('GET', `/api/v1/integrations/${integration.id}/payloads`)
    return (p['payloads'] as unknown[]).length > 0 ? true : undefined
  })
}, 120_000)
afterAll(async () => {
  await browser?.close()
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

function send(fingerprint: string, team: string, headers: Record<string, string> = {}) {
  return fetch(`${service.url}${integration.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      version: '4',
      status: 'firing',
      commonLabels: { env: 'production' },
      alerts: [
        {
          status: 'firing',
          fingerprint,
          labels: { alertname: `Check ${fingerprint}`, severity: 'warning', team, service: 'checkout' },
          annotations: { summary: `${fingerprint} ${MARKUP}` },
        },
      ],
    }),
  })
}

const view = async (name: string, heading: string) => {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name }).click()
  await page.getByRole('heading', { name: heading, exact: true }).waitFor()
}

it('signs in', async () => {
  await page.goto(`${service.url}/console/`)
  await page.getByLabel('Admin API key').fill(demo.adminApiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Overview' }).waitFor()
})

it('adds rules as JSON, reorders them, tries the draft on a recent payload, and saves it; a bad rule is refused by name', async () => {
  await view('Rules', 'Alert rules')
  await page.getByText('No rules.').waitFor()
  const add = async (rule: object) => {
    await page.getByRole('button', { name: 'Add rule' }).click()
    await page.getByLabel('Rule (JSON)').fill(JSON.stringify(rule))
    await page.getByRole('button', { name: 'Apply to draft' }).click()
  }
  await add({ id: 'tag', name: `tag everything ${MARKUP}`, addTags: ['seen'] })
  await add({
    id: 'rota',
    name: 'payments to the rota',
    when: { field: 'team', equals: 'payments' },
    set: { team: 'payments-rota', severity: 'critical' },
  })
  const order = () => page.locator('ol.rules > li').evaluateAll((li) => li.map((e) => e.getAttribute('data-rule-id')))
  expect(await order()).toEqual(['tag', 'rota'])
  await page.getByRole('button', { name: 'Move payments to the rota up' }).click()
  expect(await order()).toEqual(['rota', 'tag'])
  // The rule's name is shown as the text it is.
  await page.getByText(`tag everything ${MARKUP}`).waitFor()
  expect(await page.locator('ol.rules img').count()).toBe(0)

  await page.getByRole('button', { name: 'Test the draft' }).click()
  const result = page.getByTestId('rule-test')
  await result.waitFor()
  const row = await result.locator('tbody tr').first().innerText()
  expect(row).toContain('warning → critical')
  expect(row).toContain('payments → payments-rota')
  expect(row).toContain('rota, tag')
  expect(row).toContain(`first ${MARKUP}`)
  await shot('console-rules')

  await page.getByRole('button', { name: 'Save rules' }).click()
  await page.getByText('Saved as version 1.').waitFor()
  const saved = await api('GET', '/api/v1/alert-rules')
  expect((saved['rules'] as { id: string }[]).map((r) => r.id)).toEqual(['rota', 'tag'])

  await add({ id: 'bad', name: 'bad', when: { field: 'colour', equals: 'red' }, drop: true })
  await page.getByRole('button', { name: 'Save rules' }).click()
  await expect
    .poll(() => page.getByRole('alert').first().textContent(), { timeout: 10_000 })
    .toMatch(/rules\.2\.when\.field unknown field "colour"/)
  await page.getByRole('button', { name: 'Remove bad' }).click()
  expect(await page.evaluate('window.__xss')).toBeUndefined()
})

it('adds a window and shows it quiet now and in the calendar; a held alert says why it looks as it does', async () => {
  await view('Maintenance', 'Maintenance windows')
  await page.getByText('Nothing is quiet now.').waitFor()
  const local = (ms: number) => {
    const d = new Date(ms)
    const p = (n: number) => String(n).padStart(2, '0')
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`
  }
  await page.getByLabel('Name').fill('checkout deploy')
  await page.getByLabel('From').fill(local(Date.now() - 120_000))
  await page.getByLabel('To').fill(local(Date.now() + 3_600_000))
  await page.getByLabel('Only alerts matching').fill('{"field": "service", "equals": "checkout"}')
  await page.getByRole('button', { name: 'Add window' }).click()
  await expect
    .poll(() => page.getByTestId('quiet-now').textContent(), { timeout: 10_000 })
    .toMatch(/^Quiet now: checkout deploy/)
  await expect
    .poll(() => page.getByTestId('calendar').locator('tbody tr').first().innerText(), { timeout: 10_000 })
    .toContain('checkout deploy')
  await shot('console-windows')
  const [window] = (await api('GET', '/api/v1/maintenance-windows'))['windows'] as { id: string }[]

  await new Promise((r) => setTimeout(r, 500))
  expect((await send('held', 'payments')).status).toBe(202)
  await view('Alerts', 'Alerts')
  await page.getByLabel('Status').selectOption('suppressed')
  const held = page.locator('tr', { hasText: `held ${MARKUP}` })
  await held.waitFor({ timeout: 15_000 })
  await held.getByRole('button', { name: /^Why/ }).click()
  const why = page.getByTestId('why')
  await expect.poll(() => why.innerText(), { timeout: 10_000 }).toContain(`Held by maintenance window ${window!.id}`)
  expect(await why.innerText()).toContain('Changed by rules rota, tag (rule set version 1)')
  expect(await why.innerText()).toContain('suppressed by source')
})

it('an alert the rules and windows could not be applied to within their budget says so in Why', async () => {
  // A rule whose regex costs seconds over a long description: past the 100 ms budget, the alert is as its mapping made
  // it.
  const { version } = await api('GET', '/api/v1/alert-rules')
  const costly = [
    { id: 'costly', name: 'costly', when: { field: 'description', matches: '\\w{999}7' }, addTags: ['x'] },
  ]
  expect((await api('PUT', '/api/v1/alert-rules', { version, rules: costly }))['version']).toBe((version as number) + 1)
  await new Promise((r) => setTimeout(r, 500))
  const long = await postAlertmanager(`${service.url}${integration.path}`, [
    {
      fingerprint: 'costly',
      labels: { alertname: 'Costly', severity: 'warning', team: 'payments', service: 'checkout' },
      annotations: { summary: `costly ${'a'.repeat(16_000)}` },
    },
  ])
  expect(long.status).toBe(202)
  await view('Alerts', 'Alerts')
  await page.getByLabel('Status').selectOption('all')
  const row = page.locator('tr', { hasText: 'costly aaaa' })
  await row.first().waitFor({ timeout: 15_000 })
  await row.first().getByRole('button', { name: /^Why/ }).click()
  const why = page.getByTestId('why')
  await expect
    .poll(() => why.innerText(), { timeout: 10_000 })
    .toMatch(/Neither the rules nor the maintenance windows were applied to its last notification: .*would pass 100 ms/)
})

it("requires a bearer token from an integration's sender, shows the secret once, counts a refused sender, and rotates", async () => {
  await view('Integrations', 'Integrations')
  await page.getByRole('button', { name: `Sender authentication of ${integration.name}` }).click()
  await page.getByText('None: anyone with the webhook address is believed.').waitFor()
  await page.getByLabel('Scheme').selectOption('bearer')
  await page.getByRole('button', { name: 'Require it' }).click()
  const first = (await page.getByTestId('sender-secret').textContent())!
  expect(first.length).toBeGreaterThan(20)
  await page.getByRole('button', { name: 'I have saved it' }).click()
  expect(await page.getByTestId('sender-secret').count()).toBe(0)

  expect((await send('forged', 'x', { authorization: 'Bearer not-the-token' })).status).toBe(401)
  expect((await send('real', 'x', { authorization: `Bearer ${first}` })).status).toBe(202)
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click()
        return page.getByTestId('auth-failures').textContent()
      },
      { timeout: 15_000 },
    )
    .toMatch(/^1 requests refused; the last .*: wrong credentials$/)
  expect(await page.locator('body').innerText()).not.toContain(first)

  await page.getByRole('button', { name: 'Add a second secret' }).click()
  const second = (await page.getByTestId('sender-secret').textContent())!
  expect(second).not.toBe(first)
  const firstId = (
    (await api('GET', `/api/v1/integrations/${integration.id}/authentication`))['authentication'] as {
      secrets: { id: string }[]
    }
  ).secrets[0]!.id
  await page.getByRole('button', { name: `Retire ${firstId}` }).click()
  await expect
    .poll(() => page.locator('caption', { hasText: 'Secrets' }).locator('..').locator('tbody tr').count(), {
      timeout: 10_000,
    })
    .toBe(1)
  expect((await send('after', 'x', { authorization: `Bearer ${first}` })).status).toBe(401)
  expect((await send('after', 'x', { authorization: `Bearer ${second}` })).status).toBe(202)
})
