// The console in a real browser, as a person uses it: sign in with an admin key (kept in the tab's
// sessionStorage only), create an integration from a template and read its address once, post a
// payload full of markup to it, see the alert in the Alerts view as text, acknowledge and resolve it
// with the buttons, sign out. The pages are served with a strict CSP, no framing and nosniff.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { launchBrowser } from '../support/browser.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let browser: Browser
let page: Page
let webhookUrl: string
let markupRequestId: string

const XSS = '<img src=x onerror="window.__xss=1">'
// The README's screenshots are these tests' own: written to docs/screenshots with SLUICE_UPDATE_SCREENSHOTS=1.
const SHOTS = process.env['SLUICE_UPDATE_SCREENSHOTS'] === '1' ? 'docs/screenshots' : '.sluice/screenshots'
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts', 'events'])
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

const editorPayload = (alertname: string) => ({
  version: '4',
  status: 'firing',
  commonLabels: { alertname, team: 'payments-common' },
  alerts: [
    {
      status: 'firing',
      fingerprint: alertname,
      labels: { alertname, severity: 'warning', team: 'payments', job: 'api' },
      annotations: { summary: `${alertname} is slow`, description: 'see the wiki' },
      startsAt: new Date().toISOString(),
    },
  ],
})

const alertsOf = async (status: string) => {
  const res = await fetch(`${service.url}/api/v1/alerts?status=${status}`, {
    headers: { authorization: `Bearer ${demo.adminApiKey}` },
  })
  return ((await res.json()) as { alerts: { id: string; status: string; description: string }[] }).alerts
}

it('is served with a strict Content-Security-Policy, no framing and nosniff', async () => {
  const res = await page.goto(`${service.url}/console/`)
  expect(res?.status()).toBe(200)
  const headers = res!.headers()
  expect(headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'/)
  expect(headers['content-security-policy']).toMatch(/frame-ancestors 'none'/)
  expect(headers['x-frame-options']).toBe('DENY')
  expect(headers['x-content-type-options']).toBe('nosniff')
})

it('is where the root address leads, as typed in a browser', async () => {
  const res = await page.goto(`${service.url}/`)
  expect(res?.status()).toBe(200)
  expect(new URL(page.url()).pathname).toBe('/console/')
  await page.getByLabel('Admin API key').waitFor()
})

it('refuses a wrong key, then signs in with the admin key, kept in sessionStorage only', async () => {
  await page.goto(`${service.url}/console/`)
  await page.getByLabel('Admin API key').fill('not-a-key')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect
    .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
    .toMatch(/missing or unknown admin API key/)
  await page.getByLabel('Admin API key').fill(demo.adminApiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Overview' }).waitFor()
  expect(await page.evaluate("sessionStorage.getItem('sluice.adminKey')")).toBe(demo.adminApiKey)
  expect(await page.evaluate('document.cookie')).toBe('')
  expect(page.url()).not.toContain(demo.adminApiKey)
})

it('creates an integration from a template, shows its address once, and shows an alert full of markup as text; acknowledge and resolve work', async () => {
  await page.getByRole('link', { name: 'Integrations' }).click()
  await page.getByLabel('Name').fill('Prometheus prod')
  await page.getByLabel('Template').selectOption('alertmanager')
  await page.getByRole('button', { name: 'Create' }).click()
  const url = (await page.getByTestId('webhook-url').textContent())!
  expect(url).toMatch(/\/api\/v1\/webhook\//)
  webhookUrl = url
  await page.getByRole('button', { name: 'Done' }).click()
  await expect
    .poll(() => page.getByRole('cell', { name: 'Prometheus prod', exact: true }).count(), { timeout: 15_000 })
    .toBe(1)

  const payload = {
    version: '4',
    status: 'firing',
    commonLabels: { alertname: XSS, team: XSS },
    alerts: [
      {
        status: 'firing',
        labels: { alertname: XSS, severity: 'critical', team: XSS, service: XSS },
        annotations: { summary: XSS, description: XSS },
        startsAt: new Date().toISOString(),
      },
    ],
  }
  const posted = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  })
  expect(posted.status).toBe(202)
  markupRequestId = ((await posted.clone().json()) as { requestId: string }).requestId
  await waitFor('the alert stored', async () => ((await alertsOf('open')).length === 1 ? true : undefined))

  await page.getByRole('link', { name: 'Alerts' }).click()
  const row = page.locator('tbody tr').first()
  await row.waitFor()
  expect(await row.textContent()).toContain(XSS)
  expect(await page.locator('tbody img').count()).toBe(0)
  expect(await page.evaluate('window.__xss')).toBeUndefined()
  expect(await page.getByTestId('alert-counts').textContent()).toBe(
    '1 shown: 1 firing, 0 suppressed, 0 acknowledged, 0 resolved',
  )
  await shot('console-alerts')
  // Status and severity are words in coloured pills; the theme follows the system's, dark included.
  expect(await row.locator('.badge').allTextContents()).toEqual(['firing', 'critical'])
  const background = () => page.evaluate('getComputedStyle(document.documentElement).backgroundColor')
  expect(await background()).toBe('rgb(250, 251, 252)')
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await background()).toBe('rgb(13, 17, 23)')
  expect(await page.evaluate("getComputedStyle(document.querySelector('tbody .badge.danger')).color")).toBe(
    'rgb(255, 123, 114)',
  )
  await shot('console-alerts-dark')
  await page.emulateMedia({ colorScheme: 'light' })

  // Home: the open alert needs a look, by severity; its card leads to the alerts. Each environment has a card.
  await page.getByRole('link', { name: 'Home' }).click()
  await expect
    .poll(() => page.getByTestId('verdict').textContent(), { timeout: 15_000 })
    .toMatch(/^Needs a look: 1 open alert[;.]/)
  expect(await page.getByTestId('card-alerts').innerText()).toContain('1 critical')
  expect(await page.getByTestId('card-ingestion').count()).toBe(Math.min(6, demo.environments.length))
  expect(await page.getByTestId('card-ingestion').first().innerText()).toMatch(/consumers .*behind|not known/)
  expect(await page.evaluate('window.__xss')).toBeUndefined()
  await shot('console-home')
  await page.getByTestId('card-alerts').click()
  await page.getByRole('heading', { name: 'Alerts', exact: true }).waitFor()
  expect(page.url()).toBe(`${service.url}/console/#/alerts`)

  await row.getByRole('button', { name: /^Acknowledge/ }).click()
  await expect.poll(async () => (await alertsOf('all'))[0]?.status, { timeout: 15_000 }).toBe('acknowledged')
  await expect
    .poll(() => page.getByTestId('alert-counts').textContent(), { timeout: 15_000 })
    .toBe('1 shown: 0 firing, 0 suppressed, 1 acknowledged, 0 resolved')
  await page
    .locator('tbody tr')
    .first()
    .getByRole('button', { name: /^Resolve/ })
    .click()
  await expect.poll(async () => (await alertsOf('all'))[0]?.status, { timeout: 15_000 }).toBe('resolved')
  await expect
    .poll(() => page.getByTestId('alert-counts').textContent(), { timeout: 15_000 })
    .toBe('0 shown: 0 firing, 0 suppressed, 0 acknowledged, 0 resolved')
})

it('builds a mapping by dragging payload fields onto alert fields, previews it live, saves it, and the next alert has the mapped fields', async () => {
  // What the sender really posts: the editor starts from it.
  expect(
    (
      await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(editorPayload('first')),
      })
    ).status,
  ).toBe(202)
  await waitFor('the payload kept', async () => ((await alertsOf('open')).length === 1 ? true : undefined))
  await page.getByRole('link', { name: 'Integrations' }).click()
  await page.getByRole('button', { name: 'Edit the mapping of Prometheus prod' }).click()
  // Its fields as a tree, and a preview of what the saved mapping makes of it.
  await page.getByRole('heading', { name: 'Mapping of Prometheus prod' }).waitFor()
  const team = page.locator('[data-path="commonLabels.team"]')
  await team.waitFor()
  await expect.poll(() => page.getByTestId('preview').textContent(), { timeout: 15_000 }).toMatch(/1 alert, 0 rejected/)

  // Drag commonLabels.team onto Team (emptied first): its placeholder lands in the box.
  await page.getByLabel('Team', { exact: true }).fill('')
  await team.dragTo(page.getByLabel('Team', { exact: true }))
  expect(await page.getByLabel('Team', { exact: true }).inputValue()).toBe('{{webhook.commonLabels.team}}')
  // Dropped at the start of a box that has text: inserted there, the text kept after it.
  await page
    .locator('[data-path="commonLabels.alertname"]')
    .dragTo(page.getByLabel('Description', { exact: true }), { targetPosition: { x: 6, y: 10 } })
  expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe(
    '{{webhook.commonLabels.alertname}}{{item.annotations.summary}}',
  )
  // Drag a field of the split array onto a new custom field: relative to the item.
  await page.getByRole('button', { name: 'Add a custom field' }).click()
  const names = page.locator('.custom input[id^="custom-name-"]')
  const last = (await names.count()) - 1
  await names.nth(last).fill('runbook')
  await page.getByRole('button', { name: 'Expand alerts.0', exact: true }).click()
  await page.getByRole('button', { name: 'Expand alerts.0.annotations', exact: true }).click()
  await page.getByLabel('Custom field runbook').scrollIntoViewIfNeeded()
  await page.locator('[data-path="alerts.0.annotations.description"]').dragTo(page.getByLabel('Custom field runbook'))
  expect(await page.getByLabel('Custom field runbook').inputValue()).toBe('{{item.annotations.description}}')
  // From the keyboard: pick a field with Enter, then Enter in a box inserts it at the caret.
  await page.locator('[data-path="commonLabels.alertname"]').focus()
  await page.keyboard.press('Enter')
  await page.getByLabel('Environment').fill('env: ')
  await page.getByLabel('Environment').press('End')
  await page.getByLabel('Environment').press('Enter')
  expect(await page.getByLabel('Environment').inputValue()).toBe('env: {{webhook.commonLabels.alertname}}')
  // The preview follows: the team and the runbook now come from those fields.
  await expect
    .poll(() => page.getByTestId('preview').locator('tbody tr').first().textContent(), { timeout: 15_000 })
    .toContain('payments-common')
  await expect
    .poll(() => page.getByTestId('preview').textContent(), { timeout: 15_000 })
    .toContain('"runbook":"see the wiki"')

  await shot('console-editor')
  // The payload full of markup as a sample: its fields and values are text, nothing runs; a value the
  // mapping cannot use is a rejection shown beside the field it concerns.
  await page.getByLabel('Sample', { exact: true }).selectOption(markupRequestId)
  await expect.poll(() => page.locator('.tree').textContent(), { timeout: 15_000 }).toContain('<img src=x onerror=')
  expect(await page.locator('.tree img, [data-testid="preview"] img').count()).toBe(0)
  expect(await page.evaluate('window.__xss')).toBeUndefined()
  await page.getByLabel('Severity', { exact: true }).fill('{{webhook.commonLabels.team}}')
  await expect
    .poll(() => page.locator('#map-severity-problems').textContent(), { timeout: 15_000 })
    .toMatch(/item 0: severity "<img src=x .* is not one of critical/)
  await page.getByLabel('Severity', { exact: true }).fill('{{item.labels.severity}}')
  await page.getByLabel('Sample', { exact: true }).selectOption({ index: 0 }) // back to the newest payload
  // A problem is shown beside the field it concerns, and goes when fixed.
  await page.getByLabel('Severity', { exact: true }).fill('')
  await expect
    .poll(() => page.locator('#map-severity-problems').textContent(), { timeout: 15_000 })
    .toMatch(/is required/)
  await page.getByLabel('Severity', { exact: true }).fill('{{item.labels.severity}}')
  await expect.poll(() => page.locator('#map-severity-problems').count(), { timeout: 15_000 }).toBe(0)

  await page.getByRole('button', { name: 'Save' }).click()
  await expect.poll(() => page.getByRole('status').last().textContent(), { timeout: 15_000 }).toBe('Saved.')
  await page.getByRole('button', { name: 'Check recent payloads' }).click()
  await expect.poll(() => page.getByTestId('checked').textContent(), { timeout: 15_000 }).toMatch(/rendered/)

  // The next alert through the real pipeline has the mapped team and custom field.
  const posted = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(editorPayload('second')),
  })
  expect(posted.status).toBe(202)
  const stored = await waitFor('the new alert', async () => {
    const res = await fetch(`${service.url}/api/v1/alerts?status=open`, {
      headers: { authorization: `Bearer ${demo.adminApiKey}` },
    })
    const { alerts } = (await res.json()) as {
      alerts: { team: string; environment: string; customFields: Record<string, string> }[]
    }
    return alerts.find((a) => a.customFields['runbook'] !== undefined)
  })
  expect(stored).toMatchObject({
    team: 'payments-common',
    environment: 'env: second',
    customFields: { runbook: 'see the wiki' },
  })
  // A pasted 1 MiB sample: the tree shows 200 children of a node at a time, and the preview follows.
  const big = {
    ...editorPayload('big'),
    data: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 'v'.repeat(90)])),
  }
  const text = JSON.stringify(big)
  expect(text.length).toBeGreaterThan(1_000_000)
  await page.getByLabel('Sample', { exact: true }).selectOption('paste')
  const began = Date.now()
  await page.getByLabel('Sample JSON').fill(text)
  await page.locator('[data-path="data.k199"]').waitFor()
  const treeMs = Date.now() - began
  await expect
    .poll(() => page.getByTestId('preview').locator('tbody tr').first().textContent(), { timeout: 15_000 })
    .toContain('big is slow')
  const previewMs = Date.now() - began
  expect(await page.locator('[data-path^="data.k"]').count()).toBe(200)
  await page.getByRole('button', { name: 'Show 200 more of 9800' }).click()
  expect(await page.locator('[data-path^="data.k"]').count()).toBe(400)
  console.log(
    `console editor, 1 MiB pasted sample (${text.length} bytes): tree in ${treeMs} ms, preview in ${previewMs} ms`,
  )
  await page.getByRole('button', { name: 'Back to integrations' }).click()
})

it("shows a flag's experiment results: keys, mean, lift with its interval, verdict and the sample ratio check", async () => {
  const sdkKey = demo.environments[0]!.serverSideSdkKey
  const now = Date.now()
  const impressions = Array.from({ length: 800 }, (_, i) => ({
    k: `user-${i}`,
    t: i % 2 ? 'on' : 'off',
    // Over the last 6 hours: the chart of the results over time has a point per hour.
    m: now - 6 * 3_600_000 + i * 27_000,
    r: 'default rule',
  }))
  const events = impressions.flatMap((imp, i) =>
    Array.from({ length: imp.t === 'on' ? 2 + (i % 3) : i % 3 }, () => ({
      eventTypeId: 'purchase',
      trafficTypeName: 'user',
      key: imp.k,
      timestamp: imp.m + 60_000,
      // A device named with markup: a slice shown as text.
      properties: { device: i % 3 === 0 ? '<img src=x onerror="window.pwned=1">' : 'phone' },
    })),
  )
  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sdkKey}` },
      body: JSON.stringify(body),
    })
  expect((await post('/api/testImpressions/bulk', [{ f: 'checkout_v2', i: impressions }])).status).toBe(202)
  expect((await post('/api/events/bulk', events)).status).toBe(202)
  await waitFor('impressions and events stored', async () =>
    (await t.count('impressions')) === 800 && (await t.count('events')) === events.length ? true : undefined,
  )
  const metric = await fetch(`${service.url}/api/v1/workspaces/${demo.workspaceId}/metrics`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Purchases per user',
      trafficType: 'user',
      eventTypeId: 'purchase',
      type: 'count_per_key',
      desiredDirection: 'increase',
    }),
  })
  expect(metric.status).toBe(201)
  const metricId = ((await metric.json()) as { id: string }).id

  await page.getByRole('link', { name: 'Experiments' }).click()
  await expect.poll(() => page.getByLabel('Flag').textContent(), { timeout: 15_000 }).toContain('checkout_v2 (off, on)')
  await page.getByLabel('Metrics').selectOption({ label: 'Purchases per user (count_per_key)' })
  await page.getByRole('button', { name: 'Show results' }).click()
  const results = page.getByTestId('results')
  await results.waitFor()
  expect(await results.textContent()).toContain(
    'Exposed keys: 800 (off 400, on 400); excluded for seeing more than one treatment: 0. Baseline: off.',
  )
  expect(await page.getByTestId('srm').textContent()).toMatch(/Sample ratio check: p = 1\. No mismatch\./)
  const on = results.locator('tr[data-treatment="on"]')
  // The same figures as the API, as text: on makes more purchases, called significant and desired.
  const api = (await (
    await fetch(
      `${service.url}/api/v1/environments/${demo.environments[0]!.id}/experiments/checkout_v2/results?metrics=${metricId}&from=${now - 86_400_000}&to=${now + 86_400_000}`,
      {
        headers: { authorization: `Bearer ${demo.adminApiKey}` },
      },
    )
  ).json()) as {
    metrics: {
      perTreatment: Record<string, { keys: number; mean: number }>
      comparisons: { relative: { estimate: number } }[]
    }[]
  }
  const cells = await on.locator('td').allTextContents()
  expect(cells[0]).toBe('400')
  expect(Number(cells[1])).toBeCloseTo(api.metrics[0]!.perTreatment['on']!.mean, 3)
  expect(cells[2]).toBe(`${(api.metrics[0]!.comparisons[0]!.relative.estimate * 100).toFixed(1)}%`)
  expect(cells[6]).toBe('significant, desired')
  expect(await on.locator('svg.ci rect.up').count()).toBe(1)
  expect(await results.locator('tr[data-treatment="off"] td').nth(2).textContent()).toBe('baseline')
  expect(await page.getByTestId('methods').textContent()).toBe(
    'Methods: fixed-horizon tests, correction Benjamini–Hochberg.',
  )
  // Over time: the lift of on with its interval as a band, the last point's figures as its summary, every point's
  // in the table behind Figures, and a point's in the tooltip where the pointer is.
  const lifted = `${(api.metrics[0]!.comparisons[0]!.relative.estimate * 100).toFixed(1)}%`
  const chart = results.getByTestId('over-time')
  await chart.waitFor()
  await expect.poll(() => chart.locator('canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0)
  expect(await chart.getByRole('img').getAttribute('aria-label')).toContain(`on ${lifted} from `)
  await chart.getByText('Figures').click()
  const figures = chart.getByRole('table')
  expect(await figures.locator('th').allTextContents()).toEqual(['Time', 'on'])
  expect(await figures.locator('tbody tr').last().locator('td').nth(1).textContent()).toMatch(
    new RegExp(`^${lifted.replace('.', '\\.')} \\(-?\\d+\\.\\d% to -?\\d+\\.\\d%\\)$`),
  )
  // At the last point (the first may be an hour before any exposure, with no lift yet: which one depends on the time
  // of day). Pointed at again on each try: a chart drawn anew meanwhile has no pointer over it.
  await expect
    .poll(
      async () => {
        const over = chart.locator('.u-over')
        const box = await over.boundingBox()
        await over.hover({ position: { x: Math.max(1, (box?.width ?? 10) - 3), y: 20 } })
        return chart.locator('.chart-tip').innerText()
      },
      { timeout: 15_000 },
    )
    .toMatch(/on: -?\d+\.\d% \(/)
  // Sequential tests, asked for with a click: wider, always-valid intervals, said in the methods line.
  await page.getByLabel('Sequential (safe to look often)').check()
  await page.getByLabel('Correction').selectOption('holm')
  await page.getByRole('button', { name: 'Show results' }).click()
  await expect
    .poll(() => page.getByTestId('methods').textContent(), { timeout: 15_000 })
    .toBe('Methods: sequential tests (tuning 5000), correction Holm.')
  await chart.waitFor()
  await shot('console-experiments')

  // The results are an address: a reload shows them again, Back the ones before it.
  const address = new URL(page.url()).hash
  expect(address).toMatch(/^#\/experiments\?/)
  expect(Object.fromEntries(new URLSearchParams(address.slice(address.indexOf('?') + 1)))).toMatchObject({
    flag: 'checkout_v2',
    sequential: 'true',
    correction: 'holm',
  })
  await page.reload()
  await expect
    .poll(() => page.getByTestId('methods').textContent(), { timeout: 15_000 })
    .toBe('Methods: sequential tests (tuning 5000), correction Holm.')
  expect(await page.getByLabel('Sequential (safe to look often)').isChecked()).toBe(true)
  expect(await results.locator('caption').first().textContent()).toContain('Purchases per user')
  await page.goBack()
  await expect
    .poll(() => page.getByTestId('methods').textContent(), { timeout: 15_000 })
    .toBe('Methods: fixed-horizon tests, correction Benjamini–Hochberg.')
  expect(await page.getByLabel('Sequential (safe to look often)').isChecked()).toBe(false)
  expect(await on.locator('td').nth(6).textContent()).toBe('significant, desired')

  // The Bayesian reading, chosen with a click: the posterior's lift and credible interval, the chance to win and the
  // risk beside it, as the API computes them; sequential tests and the correction are the frequentist engine's.
  await page.getByLabel('Engine').selectOption('bayesian')
  expect(await page.getByLabel('Sequential (safe to look often)').isDisabled()).toBe(true)
  expect(await page.getByLabel('Correction').isDisabled()).toBe(true)
  await page.getByLabel('Prior').selectOption('proper')
  await page.getByRole('button', { name: 'Show results' }).click()
  await expect
    .poll(() => page.getByTestId('methods').textContent(), { timeout: 15_000 })
    .toBe('Methods: Bayesian, proper prior N(0, 0.09) on the lift.')
  const bayes = (await (
    await fetch(
      `${service.url}/api/v1/environments/${demo.environments[0]!.id}/experiments/checkout_v2/results?metrics=${metricId}&from=${now - 86_400_000}&to=${now + 86_400_000}&engine=bayesian&prior=proper`,
      { headers: { authorization: `Bearer ${demo.adminApiKey}` } },
    )
  ).json()) as {
    metrics: {
      comparisons: {
        bayesian: {
          relative: { expected: number; chanceToWin: number; risk: { baseline: number; treatment: number } }
        }
      }[]
    }[]
  }
  const posterior = bayes.metrics[0]!.comparisons[0]!.bayesian.relative
  expect(await results.locator('table[data-metric] > thead th').allTextContents()).toEqual([
    'Treatment',
    'Keys',
    'Mean',
    'Lift',
    '95% credible interval',
    'Chance to win',
    'Risk (expected loss)',
    'Verdict',
  ])
  const bayesCells = await on.locator('td').allTextContents()
  expect(bayesCells[2]).toBe(`${(posterior.expected * 100).toFixed(1)}%`)
  expect(bayesCells[4]).toBe(`${(posterior.chanceToWin * 100).toFixed(1)}%`)
  expect(bayesCells[5]).toBe(
    `${(posterior.risk.treatment * 100).toFixed(1)}% if chosen, ${(posterior.risk.baseline * 100).toFixed(1)}% if not`,
  )
  expect(bayesCells[6]).toBe('significant, desired')
  expect(new URL(page.url()).hash).toContain('engine=bayesian')

  // How long it must run: the keys and days for a 5 % lift, as the API says; an effect of 0 is refused naming it.
  await page.getByLabel('Smallest lift to detect (%)').fill('5')
  await page.getByRole('button', { name: 'How long?' }).click()
  const from = new URL(page.url()).hash.match(/from=([\d-]+)/)![1]!
  const powerAnswer = page.getByTestId('power-answer')
  await powerAnswer.waitFor()
  const asked = (await (
    await fetch(`${service.url}/api/v1/environments/${demo.environments[0]!.id}/experiments/checkout_v2/power`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metric: metricId, mde: 0.05, from: `${from}T00:00:00Z` }),
    })
  ).json()) as { message: string; keysNeeded: number }
  // The days left move with the seconds between the two asks (the window ends now): their number is left out.
  const days = (text: string) => text.replace(/\d+ more days/i, 'N more days')
  expect(days((await powerAnswer.textContent())!)).toBe(
    days(`${asked.message[0]!.toUpperCase()}${asked.message.slice(1)}.`),
  )
  expect(asked.keysNeeded).toBeGreaterThan(0)
  await shot('console-experiments-bayesian')
  await page.getByLabel('Smallest lift to detect (%)').fill('0')
  await page.getByRole('button', { name: 'How long?' }).click()
  await expect.poll(() => page.getByTestId('power').textContent(), { timeout: 15_000 }).toMatch(/mde/)

  // Broken down by a property of the first purchase: a table per metric with a row per slice, its name (markup) as
  // text, its adjusted p-value with the size of its family, and whether it differs from the rest.
  await page.getByLabel('Engine').selectOption('frequentist')
  await page.getByLabel('Break down by').fill('event:purchase:device')
  await page.getByRole('button', { name: 'Show results' }).click()
  const sliceTable = page.getByTestId('slices').locator('table').first()
  await sliceTable.waitFor({ timeout: 15_000 })
  expect(await sliceTable.locator('caption').textContent()).toBe('Purchases per user by slice')
  const rows = sliceTable.locator('tbody tr')
  expect(await rows.locator('th').allTextContents()).toEqual(
    expect.arrayContaining(['phone', '<img src=x onerror="window.pwned=1">']),
  )
  expect(await page.evaluate('window.pwned')).toBeUndefined()
  expect(await rows.first().locator('td').nth(4).textContent()).toMatch(/^(\d|\.|e|-)+ \(\d+\)$/)
  expect(await rows.first().getByTestId('differs').textContent()).toMatch(/^(no difference|differs \(p = .+\))$/)
  expect(new URL(page.url()).hash).toContain('dimension=event%3Apurchase%3Adevice')
  await shot('console-experiments-slices')
})

it("shows another account's key nothing of this account", async () => {
  const other = await t.tenancy.createAccount('other')
  const { key } = await t.tenancy.createApiKey({ kind: 'admin', accountId: other.id, name: 'other admin' })
  const context = await browser.newContext()
  const second = await context.newPage()
  await second.goto(`${service.url}/console/`)
  await second.getByLabel('Admin API key').fill(key)
  await second.getByRole('button', { name: 'Sign in' }).click()
  // Its home: nothing of the first account's open alert; it has no environment yet.
  await expect
    .poll(() => second.getByTestId('verdict').textContent(), { timeout: 15_000 })
    .toBe('Everything looks all right: no open alert, no notification given up, nothing refused in the last hour.')
  expect(await second.getByTestId('card-alerts').innerText()).toContain('None open.')
  await second.getByRole('link', { name: 'Integrations' }).click()
  await expect.poll(() => second.getByText('No integrations yet.').count(), { timeout: 15_000 }).toBe(1)
  await second.getByRole('link', { name: 'Alerts' }).click()
  await expect
    .poll(() => second.getByTestId('alert-counts').textContent(), { timeout: 15_000 })
    .toBe('0 shown: 0 firing, 0 suppressed, 0 acknowledged, 0 resolved')
  await context.close()
})

it('rotates an address (the new one shown once) and deletes an integration after confirming', async () => {
  await page.getByRole('link', { name: 'Integrations' }).click()
  const row = page.locator('tbody tr', { hasText: 'Prometheus prod' })
  await row.getByRole('button', { name: 'Rotate address' }).click()
  const rotated = (await page.getByTestId('webhook-url').textContent())!
  expect(rotated).toMatch(/\/api\/v1\/webhook\//)
  expect(rotated).not.toBe(webhookUrl)
  await page.getByRole('button', { name: 'Done' }).click()
  // Asked first, in a dialog: Escape says no, and the integration stays; then Delete in the dialog deletes it.
  await row.getByRole('button', { name: 'Delete' }).click()
  const asked = page.getByRole('dialog', { name: 'Delete Prometheus prod' })
  expect(await asked.innerText()).toContain('Its address stops working at once.')
  await page.keyboard.press('Escape')
  await asked.waitFor({ state: 'detached' })
  expect(await row.count()).toBe(1)
  await row.getByRole('button', { name: 'Delete' }).click()
  await asked.getByRole('button', { name: 'Delete Prometheus prod' }).click()
  await expect.poll(() => page.getByText('No integrations yet.').count(), { timeout: 15_000 }).toBe(1)
  const res = await fetch(`${service.url}/api/v1/integrations`, {
    headers: { authorization: `Bearer ${demo.adminApiKey}` },
  })
  expect(((await res.json()) as { integrations: unknown[] }).integrations).toEqual([])
})

it('signs out: the key is gone from the tab', async () => {
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.getByLabel('Admin API key').waitFor()
  expect(await page.evaluate("sessionStorage.getItem('sluice.adminKey')")).toBeNull()
})
