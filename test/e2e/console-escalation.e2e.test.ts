// An escalated incident in a real browser, as the on-call engineer meets it: a policy (made through the API) pages
// whoever is on call in a schedule by Slack; the Slack page's Acknowledge button is clicked (Slack's interaction
// request, signed as Slack signs it, posted to Sluice); the console's incident shows the step on its timeline (who was
// paged, by which method) and the incident acknowledged by that responder. A responder's name with markup is text.
import { createHmac, randomUUID } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { launchBrowser } from '../support/browser.js'
import { createTestEnv, jsonCaller, waitFor, type TestEnv } from '../support/harness.js'
import { startReceivers, type Receivers } from '../support/receivers.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let browser: Browser
let page: Page
let rx: Receivers
const MARKUP = '<img src=x onerror="window.__xss=1">'
const SECRET = 'console-slack-signing-secret'
const json = jsonCaller(() => service.url)
const call = (method: string, path: string, body?: unknown) => json(demo.adminApiKey, method, path, body)

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_INTEGRATION_REFRESH_MS: '200',
    SLUICE_NOTIFY_ALLOW_HTTP: 'true',
    SLUICE_NOTIFY_ALLOWED_RANGES: '127.0.0.0/8',
    SLUICE_ESCALATION_TICK_MS: '100',
  })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'alerts', 'notify'])
  rx = await startReceivers()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await rx?.close()
  await t?.close()
})

it('shows an incident escalated to the on-call by Slack, acknowledged from the Slack button by that responder', async () => {
  const bo = (
    await t.state.directory.createUser(demo.accountId, {
      userName: 'bo@example.com',
      displayName: `Bo ${MARKUP}`,
      active: true,
    })
  ).user.id
  const slack = await call('POST', '/api/v1/notification-destinations', {
    name: 'team chat',
    kind: 'slack',
    settings: { url: `${rx.url}/slack/T1/B1/X` },
  })
  expect(slack.status).toBe(201)
  const schedule = await call('POST', '/api/v1/schedules', {
    name: 'Primary',
    timeZone: 'UTC',
    layers: [{ name: 'all', start: '2026-01-05T00:00', rotation: { unit: 'weeks', length: 1 }, responders: [bo] }],
  })
  await call('PUT', `/api/v1/oncall/responders/${bo}`, {
    contactMethods: [{ id: 'chat', kind: 'slack', memberId: 'U0BO' }],
    rules: [],
  })
  const policy = await call('POST', '/api/v1/escalation-policies', {
    name: 'Checkout',
    steps: [{ targets: [{ kind: 'schedule', id: schedule.body['id'] }], waitMinutes: 15 }],
  })
  await call('PUT', '/api/v1/oncall/default-policy', { policyId: policy.body['id'] })
  await call('PUT', '/api/v1/oncall/slack-app', { signingSecret: SECRET })
  const integration = await call('POST', '/api/v1/integrations', { name: 'am', template: 'alertmanager' })
  await new Promise((r) => setTimeout(r, 500))
  const fired = await fetch(integration.body['webhookUrl'], {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      version: '4',
      status: 'firing',
      alerts: [
        {
          status: 'firing',
          labels: { alertname: 'CheckoutDown', severity: 'critical' },
          annotations: { summary: 'checkout is down' },
          fingerprint: 'checkout-down',
        },
      ],
    }),
  })
  expect(fired.status).toBe(202)
  // The Slack page, its Acknowledge button naming the incident.
  const message = await waitFor(
    'the Slack page',
    async () => rx.on('/slack/T1/B1/X').map((r) => JSON.parse(r.body) as Json)[0],
  )
  expect(message['blocks'][0]['text']['text']).toMatch(/^<@U0BO> /)
  const button = (message['blocks'] as Json[]).find((b) => b['type'] === 'actions')!['elements'][0] as Json
  expect(button['action_id']).toBe('sluice_acknowledge')
  const incidentId = button['value'] as string

  // Bo clicks Acknowledge: Slack posts the interaction, signed.
  const body = `payload=${encodeURIComponent(
    JSON.stringify({
      type: 'block_actions',
      trigger_id: randomUUID(),
      user: { id: 'U0BO' },
      actions: [{ action_id: 'sluice_acknowledge', value: incidentId, type: 'button' }],
    }),
  )}`
  const at = String(Math.floor(Date.now() / 1000))
  const clicked = await fetch(`${service.url}/api/v1/oncall/slack/${demo.accountId}/interactions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': at,
      'x-slack-signature': `v0=${createHmac('sha256', SECRET).update(`v0:${at}:${body}`).digest('hex')}`,
    },
    body,
  })
  expect(clicked.status).toBe(200)

  await page.goto(`${service.url}/console/`)
  await page.getByLabel('Admin API key').fill(demo.adminApiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.goto(`${service.url}/console/#/incidents?status=all&incident=${encodeURIComponent(incidentId)}`)
  const panel = page.getByTestId('incident')
  await panel.getByRole('heading', { name: /checkout is down/ }).waitFor()
  const timeline = panel.getByTestId('incident-timeline')
  await expect.poll(() => timeline.textContent(), { timeout: 15_000 }).toMatch(/escalated step 1/)
  const paged = await panel.getByRole('list', { name: 'Paged at step 1' }).innerText()
  expect(paged).toBe(`Bo ${MARKUP} (on call) by slack:chat`)
  const text = (await timeline.textContent()) ?? ''
  expect(text, text).toMatch(new RegExp(`acknowledged \\(al_\\d+\\) by user:${bo}`))
  expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined()
  await call('PUT', '/api/v1/oncall/default-policy', { policyId: null })
})
