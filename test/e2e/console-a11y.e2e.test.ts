// Every view of the console, in the light and the dark theme, in Chromium: axe-core finds no serious or critical
// accessibility violation (WCAG 2 A and AA rules, contrast included), no view shows "undefined", "NaN",
// "[object Object]" or a raw ISO time, and each is photographed for the docs (written to docs/screenshots with
// SLUICE_UPDATE_SCREENSHOTS=1). Every control of every view is reached with the Tab key, and at a phone's width no
// view is wider than the screen. An alert with markup in it is open, so the views have rows to check. The bundle's size
// (held under 200 KB gzipped) and the home page's first render are reported (the time is a figure, not a test).
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { AxeBuilder } from '@axe-core/playwright'
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
let alertId: string
let hook: string

const SHOTS = process.env['SLUICE_UPDATE_SCREENSHOTS'] === '1' ? 'docs/screenshots' : '.sluice/screenshots'
/** Each view's address and the heading it shows once read. */
const VIEWS: [string, string][] = [
  ['home', 'Overview'],
  ['integrations', 'Integrations'],
  ['oncall', 'On call'],
  ['alerts', 'Alerts'],
  ['rules', 'Alert rules'],
  ['windows', 'Maintenance windows'],
  ['notifications', 'Notifications'],
  ['experiments', 'Experiments'],
  ['data', 'Data'],
]

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts', 'events'])
  const created = await fetch(`${service.url}/api/v1/integrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Prometheus <b>prod</b>', template: 'alertmanager' }),
  })
  hook = ((await created.json()) as { webhookUrl: string }).webhookUrl
  const posted = await postAlertmanager(hook, [
    {
      fingerprint: 'a11y',
      labels: { alertname: 'DiskFull', severity: 'critical', service: 'db <i>', team: 'storage' },
      annotations: { summary: 'disk <img src=x> full' },
    },
  ])
  expect(posted.status).toBe(202)
  const alerts = async () => {
    const res = await fetch(`${service.url}/api/v1/alerts?status=open`, {
      headers: { authorization: `Bearer ${demo.adminApiKey}` },
    })
    return ((await res.json()) as { alerts: { id: string }[] }).alerts
  }
  await waitFor('the alert stored', async () => ((await alerts()).length === 1 ? true : undefined))
  alertId = (await alerts())[0]!.id
  // A schedule, so that the on-call view shows who is on call and its timeline.
  const { user } = await t.state.directory.createUser(demo.accountId, { userName: 'ana@example.com', active: true })
  const schedule = await fetch(`${service.url}/api/v1/schedules`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Storage <b>primary</b>',
      timeZone: 'Europe/Berlin',
      layers: [
        { name: 'weekly', start: '2026-11-02T09:00', rotation: { unit: 'weeks', length: 1 }, responders: [user.id] },
      ],
    }),
  })
  expect(schedule.status).toBe(201)
  browser = await launchBrowser()
  // axe-core wants a page of a context it can reach.
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  await page.goto(`${service.url}/console/`)
  await page.getByLabel('Admin API key').fill(demo.adminApiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Overview' }).waitFor()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

it("reports the bundle's size and the home page's first render", async () => {
  const script = readFileSync(new URL('../../dist/console/app.js', import.meta.url))
  const gzipped = gzipSync(script).length
  expect(gzipped).toBeLessThan(200 * 1024)
  // A fresh tab, signed in: from navigation to the first paint, and to the verdict read from the API.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  try {
    const fresh = await context.newPage()
    await fresh.goto(`${service.url}/console/`)
    await fresh.evaluate(`sessionStorage.setItem('sluice.adminKey', ${JSON.stringify(demo.adminApiKey)})`)
    await fresh.reload()
    await fresh.getByTestId('verdict').getByText('Needs a look').waitFor()
    const [paint, verdict] = await fresh.evaluate<[number, number]>(
      "[performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1, performance.now()]",
    )
    expect(paint).toBeGreaterThan(0)
    console.log(
      `console: ${script.length} bytes of JavaScript, ${gzipped} gzipped; home: first paint ${Math.round(paint)} ms, verdict read by ${Math.round(verdict)} ms`,
    )
  } finally {
    await context.close()
  }
})

/** Opens a view from its address and waits until what it reads has arrived (no "Reading…" or "Loading…" left). */
async function open(view: string, heading: string, on = page): Promise<void> {
  const address = view === 'alerts' ? `#/alerts?alert=${alertId}` : `#/${view}`
  await on.goto(`${service.url}/console/${address}`)
  await on.getByRole('heading', { name: heading, exact: true }).waitFor()
  await expect
    .poll(async () => /Reading…|Loading…/.test(await on.locator('main').innerText()), { timeout: 15_000 })
    .toBe(false)
}

for (const theme of ['light', 'dark'] as const)
  it(`every view in the ${theme} theme: no serious or critical accessibility violation, no undefined or NaN`, async () => {
    await page.emulateMedia({ colorScheme: theme })
    const found: string[] = []
    for (const [view, heading] of VIEWS) {
      await open(view, heading)
      const text = await page.locator('main').innerText()
      // Read without failing: no error line.
      for (const failed of await page.locator('main [role=alert]').allTextContents()) found.push(`${view}: ${failed}`)
      for (const bad of ['undefined', 'NaN', '[object Object]'])
        if (text.includes(bad)) found.push(`${view}: shows "${bad}"`)
      // A time is read in the reader's zone and words, never as the API's ISO string.
      for (const iso of text.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}[^\s]*/g) ?? [])
        found.push(`${view}: a raw time ${iso}`)
      const { violations, passes } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
      // The rules ran (contrast among them), and found what they check.
      expect(passes.map((p) => p.id)).toContain('color-contrast')
      const minor = violations.filter((x) => x.impact !== 'serious' && x.impact !== 'critical')
      if (minor.length > 0) console.log(`${view} (${theme}): minor: ${minor.map((v) => v.id).join(', ')}`)
      for (const v of violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
        found.push(
          `${view}: ${v.id} (${v.impact}): ${v.help}; ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(', ')}`,
        )
      await page.screenshot({ path: `${SHOTS}/view-${view}-${theme}.png`, fullPage: true })
    }
    expect(await page.evaluate('window.__xss')).toBeUndefined()
    expect(found).toEqual([])
  }, 120_000)

it('every control of every view is reached with the Tab key, in order, and shows where the focus is', async () => {
  await page.emulateMedia({ colorScheme: 'light' })
  const missed: string[] = []
  for (const [view, heading] of VIEWS) {
    await open(view, heading)
    // The controls a person can use: each marked with its place, then the Tab key walks the page once around.
    const controls = await page.evaluate(`(() => {
      const all = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
      const usable = all.filter((el) => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0
        && getComputedStyle(el).visibility !== 'hidden')
      usable.forEach((el, i) => el.setAttribute('data-kb', String(i)))
      return usable.map((el) => (el.getAttribute('aria-label') || el.textContent || el.name || el.tagName).trim().slice(0, 40))
    })()`)
    const names = controls as string[]
    const reached = new Set<number>()
    let outlined = 0
    // From the first control on, the Tab key once around the page (and a few presses more for what is outside it).
    await page.locator('[data-kb="0"]').focus()
    // (A date or time input takes a press for each of its parts.)
    for (let i = 0; i < 3 * names.length + 20 && reached.size < names.length; i++) {
      if (i > 0) await page.keyboard.press('Tab')
      const [at, ring] = await page.evaluate<[number, boolean]>(`(() => {
        const el = document.activeElement
        const s = el ? getComputedStyle(el) : null
        return [Number(el?.getAttribute('data-kb') ?? -1), !!s && (s.outlineStyle !== 'none' || s.boxShadow !== 'none')]
      })()`)
      if (at >= 0 && !reached.has(at)) {
        reached.add(at)
        // (The first was focused by the test, not by a key: no ring is due there.)
        if (ring || i === 0) outlined++
      }
    }
    for (const [i, name] of names.entries()) if (!reached.has(i)) missed.push(`${view}: ${name}`)
    // The focus is seen: the focused control is outlined (the design's :focus-visible ring).
    if (outlined < reached.size) missed.push(`${view}: ${reached.size - outlined} focused controls without a ring`)
    expect(names.length, view).toBeGreaterThan(3)
  }
  expect(missed).toEqual([])
}, 120_000)

it("fits a phone's screen: no view is wider than 390 px, the navigation included", async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const phone = await context.newPage()
  try {
    await phone.goto(`${service.url}/console/`)
    await phone.evaluate(`sessionStorage.setItem('sluice.adminKey', ${JSON.stringify(demo.adminApiKey)})`)
    await phone.reload()
    const wide: string[] = []
    for (const [view, heading] of VIEWS) {
      await open(view, heading, phone)
      // The view settled: a view still loading may be wider for a moment (seen once on a busy machine, never again).
      let width = await phone.evaluate<number>('document.documentElement.scrollWidth')
      for (let i = 0; i < 20 && width > 390; i++) {
        await new Promise((r) => setTimeout(r, 100))
        width = await phone.evaluate<number>('document.documentElement.scrollWidth')
      }
      // Too wide: named by the deepest elements that reach past the screen's edge.
      if (width > 390)
        wide.push(
          `${view}: ${width} px (${await phone.evaluate<string>(`(() => {
            // Past the edge and not inside a box that scrolls (a wide table scrolls within itself).
            const past = (el) => el.getBoundingClientRect().right > 391
            const scrolled = (el) => { for (let p = el.parentElement; p; p = p.parentElement)
              if (getComputedStyle(p).overflowX !== 'visible') return true; return false }
            return [...document.querySelectorAll('body *')]
              .filter((el) => past(el) && !scrolled(el) && ![...el.children].some(past))
              .slice(0, 3).map((el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
                + (el.className ? '.' + el.className : '') + ' "' + el.textContent.slice(0, 30) + '"').join(', ')
          })()`)})`,
        )
      if (view === 'home' || view === 'alerts')
        await phone.screenshot({ path: `${SHOTS}/view-${view}-phone.png`, fullPage: true })
    }
    expect(wide).toEqual([])
  } finally {
    await context.close()
  }
}, 120_000)

it('sorts the alert list by a column, both ways, from the keyboard too, and says which way', async () => {
  const fire = (fingerprint: string, severity: string) =>
    postAlertmanager(hook, [{ fingerprint, labels: { alertname: `Sort ${severity}`, severity } }])
  expect((await fire('sort-info', 'info')).status).toBe(202)
  expect((await fire('sort-warning', 'warning')).status).toBe(202)
  await page.goto(`${service.url}/console/#/alerts`)
  const table = page.getByRole('table', { name: 'Alerts' })
  const severities = () => table.locator('tbody tr td:nth-child(2)').allInnerTexts()
  await expect.poll(async () => (await severities()).length, { timeout: 15_000 }).toBe(3)
  const header = table.getByRole('columnheader', { name: /Severity/ })
  await header.getByRole('button').click()
  expect(await header.getAttribute('aria-sort')).toBe('ascending')
  expect(await severities()).toEqual(['critical', 'warning', 'info'])
  await header.getByRole('button').focus()
  await page.keyboard.press('Enter')
  expect(await header.getAttribute('aria-sort')).toBe('descending')
  expect(await severities()).toEqual(['info', 'warning', 'critical'])
})
