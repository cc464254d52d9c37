// Escalation end to end: an incident from a real alert (edge, Kafka, the alerts consumer, Redis) that nobody
// acknowledges is paged by its policy step after step, each step's pages delivered by the notify role to receivers on
// 127.0.0.1 (a responder's own webhook, a team destination, a Slack destination mentioning whoever is on call in a
// schedule), each step once on the incident's timeline; acknowledging or resolving between steps stops the rest. One
// real run of a policy with a one-minute wait, and one driven by a fake clock (the job ticked at times ahead). Hostile
// policies and contact methods are refused with 400s naming the field.
import { createHmac, randomUUID } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'
import { startReceivers, type Receivers } from '../support/receivers.js'

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let rx: Receivers
let other: { accountId: string; adminApiKey: string }
const users: Record<string, string> = {}
const dest: Record<string, string> = {}
let scheduleId: string
let integrationUrl: string

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: string, path: string, body?: unknown, key = demo.adminApiKey) {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json }
}

async function made(method: string, path: string, body: unknown): Promise<Json> {
  const res = await call(method, path, body)
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
  return res.body
}

beforeAll(async () => {
  t = await createTestEnv({
    SLUICE_INTEGRATION_REFRESH_MS: '200',
    SLUICE_NOTIFY_ALLOW_HTTP: 'true',
    SLUICE_NOTIFY_ALLOWED_RANGES: '127.0.0.0/8',
    SLUICE_NOTIFY_TIMEOUT_MS: '2000',
    SLUICE_NOTIFY_LEASE_SECONDS: '5',
    SLUICE_ESCALATION_TICK_MS: '100',
    SLUICE_ESCALATION_LEASE_SECONDS: '2',
  })
  demo = await t.bootstrap()
  const account = await t.tenancy.createAccount('other')
  other = {
    accountId: account.id,
    adminApiKey: (await t.tenancy.createApiKey({ kind: 'admin', accountId: account.id, name: 'other admin' })).key,
  }
  service = await t.start(['edge', 'admin', 'alerts', 'notify'])
  rx = await startReceivers()
  for (const name of ['ana', 'bo']) {
    const created = await t.state.directory.createUser(demo.accountId, {
      userName: `${name}@example.com`,
      displayName: name.toUpperCase(),
      active: true,
    })
    users[name] = created.user.id
  }
  for (const [name, kind, path] of [
    ['ana-hook', 'webhook', '/ana'],
    ['team', 'webhook', '/team'],
    ['chat', 'slack', '/slack/T000/B000/XXXX'],
  ] as const) {
    const created = await made('POST', '/api/v1/notification-destinations', {
      name,
      kind,
      settings: { url: `${rx.url}${path}` },
    })
    dest[name] = created['destination']['id']
  }
  // Nothing on the default route: what the receivers get are pages.
  await made('PUT', '/api/v1/notification-route', { destinations: [] })
  const schedule = await made('POST', '/api/v1/schedules', {
    name: 'Primary',
    timeZone: 'UTC',
    layers: [
      {
        name: 'all week',
        start: '2026-01-05T00:00',
        rotation: { unit: 'weeks', length: 1 },
        responders: [users['bo']],
      },
    ],
  })
  scheduleId = schedule['id']
  await made('PUT', `/api/v1/oncall/responders/${users['ana']}`, {
    contactMethods: [{ id: 'hook', kind: 'webhook', destinationId: dest['ana-hook'] }],
    rules: [],
  })
  await made('PUT', `/api/v1/oncall/responders/${users['bo']}`, {
    contactMethods: [{ id: 'chat', kind: 'slack', memberId: 'U0BO42' }],
    rules: [{ urgency: 'high', contactMethod: 'chat', afterMinutes: 0 }],
  })
  const source = await made('POST', '/api/v1/integrations', { name: 'escalation', template: 'alertmanager' })
  integrationUrl = source['webhookUrl']
})
afterAll(async () => {
  await rx?.close()
  await t?.close()
})

async function fire(
  fp: string,
  status: 'firing' | 'resolved' = 'firing',
  { severity = 'critical', service = 'checkout' } = {},
): Promise<void> {
  const res = await fetch(integrationUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      version: '4',
      status,
      alerts: [
        {
          status,
          labels: { alertname: `Escalating ${fp}`, severity, service },
          annotations: { summary: `summary of ${fp}` },
          fingerprint: fp,
        },
      ],
    }),
  })
  expect(res.status).toBe(202)
}

async function incidentOf(fp: string): Promise<string> {
  return waitFor(`the incident of ${fp}`, async () => {
    const res = await call('GET', '/api/v1/incidents?status=all&limit=100')
    return (res.body['incidents'] as Json[]).find((i) => String(i['title']).includes(fp))?.['id'] as string | undefined
  })
}

const escalated = async (incidentId: string): Promise<Json[]> =>
  ((await call('GET', `/api/v1/incidents/${incidentId}`)).body['timeline'] as Json[]).filter(
    (e) => e['event'] === 'escalated',
  )

/** The pages a receiver path got for an incident, in order. */
const pages = (path: string, incidentId: string) =>
  rx
    .on(path)
    .map((r) => ({ at: r.at, body: JSON.parse(r.body) as Json }))
    .filter((r) => JSON.stringify(r.body).includes(incidentId))

const ticked = (at: number) => service.container.notifyJobs.tick('escalation', at)

describe('escalation', () => {
  it('a real run: step 1 pages a responder and a team at once, step 2 the on-call of a schedule a minute later; an acknowledge stops the rest', async () => {
    const policy = await made('POST', '/api/v1/escalation-policies', {
      name: 'Checkout',
      steps: [
        {
          targets: [
            { kind: 'user', id: users['ana'] },
            { kind: 'destination', id: dest['team'] },
          ],
          waitMinutes: 1,
        },
        { targets: [{ kind: 'schedule', id: scheduleId }], waitMinutes: 1 },
      ],
      repeat: 1,
    })
    await made('PUT', '/api/v1/oncall/default-policy', { policyId: policy['id'] })
    const started = Date.now()
    await fire('real-run')
    const incidentId = await incidentOf('real-run')
    const first = await waitFor('step 1 pages', async () =>
      pages('/ana', incidentId).length > 0 && pages('/team', incidentId).length > 0
        ? pages('/ana', incidentId)
        : undefined,
    )
    expect(first[0]!.body['page']).toEqual({ step: 1, round: 1 })
    expect(first[0]!.body['event']).toBe('triggered')
    expect(first[0]!.at - started).toBeLessThan(10_000)
    const steps = await escalated(incidentId)
    expect(steps).toHaveLength(1)
    expect(steps[0]).toMatchObject({ policyId: policy['id'], round: 0, step: 0 })
    expect(steps[0]!['paged']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'destination', id: dest['team'], name: 'team' }),
        expect.objectContaining({
          kind: 'user',
          id: users['ana'],
          name: 'ANA',
          method: 'webhook:hook',
          via: dest['ana-hook'],
        }),
      ]),
    )
    const running = await call('GET', `/api/v1/incidents/${incidentId}/escalation`)
    expect(running.body).toMatchObject({ running: true, policyId: policy['id'], round: 0, step: 1 })
    // Step 2, a minute after step 1 was due (late by no more than the lease): Bo, on call, mentioned in Slack.
    const slack = await waitFor(
      'step 2 pages',
      async () =>
        rx.on('/slack/T000/B000/XXXX').find((r) => r.body.includes('U0BO42'))
          ? rx.on('/slack/T000/B000/XXXX')
          : undefined,
      90_000,
    )
    const mention = slack.find((r) => r.body.includes('U0BO42'))!
    expect(JSON.parse(mention.body)['blocks'][0]['text']['text']).toMatch(/^<@U0BO42> /)
    const wait = mention.at - first[0]!.at
    expect(wait).toBeGreaterThanOrEqual(59_000)
    expect(wait).toBeLessThan(60_000 + 2000 + 3000)
    const two = await escalated(incidentId)
    expect(two).toHaveLength(2)
    expect(two[1]!['paged']).toEqual([
      expect.objectContaining({
        kind: 'user',
        id: users['bo'],
        schedule: scheduleId,
        method: 'slack:chat',
        via: dest['chat'],
      }),
    ])
    // Acknowledged before the next run of the policy: nothing more is paged, and the escalation has ended.
    expect((await call('POST', `/api/v1/incidents/${incidentId}/acknowledge`)).status).toBe(200)
    await ticked(Date.now() + 5 * 60_000)
    expect((await call('GET', `/api/v1/incidents/${incidentId}/escalation`)).body).toEqual({ running: false })
    await new Promise((r) => setTimeout(r, 1000))
    expect(pages('/ana', incidentId)).toHaveLength(1)
    expect(pages('/team', incidentId)).toHaveLength(1)
    expect(await escalated(incidentId)).toHaveLength(2)
    await made('PUT', '/api/v1/oncall/default-policy', { policyId: null })
  }, 150_000)

  it('a fake clock: steps fire at their waits, the policy runs again, and a resolve stops it; an alert rule chooses the policy', async () => {
    const policy = await made('POST', '/api/v1/escalation-policies', {
      name: 'Fast',
      steps: [
        { targets: [{ kind: 'destination', id: dest['team'] }], waitMinutes: 10 },
        { targets: [{ kind: 'user', id: users['ana'] }], waitMinutes: 5 },
      ],
      repeat: 1,
    })
    await made('PUT', '/api/v1/alert-rules', {
      rules: [{ id: 'page-checkout', name: 'page checkout', escalate: policy['id'] }],
    })
    await fire('fake-clock')
    const incidentId = await incidentOf('fake-clock')
    await waitFor('step 1', async () => (pages('/team', incidentId).length === 1 ? true : undefined))
    const t0 = Date.parse((await escalated(incidentId))[0]!['at'])
    // Before the wait: nothing more.
    await ticked(t0 + 9 * 60_000)
    expect(await escalated(incidentId)).toHaveLength(1)
    await ticked(t0 + 10 * 60_000)
    await waitFor('step 2', async () => (pages('/ana', incidentId).length === 1 ? true : undefined))
    expect(pages('/ana', incidentId)[0]!.body['page']).toEqual({ step: 2, round: 1 })
    // The policy's second run: its first step again, 5 minutes after the last.
    await ticked(t0 + 15 * 60_000)
    await waitFor('run 2, step 1', async () => (pages('/team', incidentId).length === 2 ? true : undefined))
    expect(pages('/team', incidentId)[1]!.body['page']).toEqual({ step: 1, round: 2 })
    const steps = await escalated(incidentId)
    expect(steps.map((s) => [s['round'], s['step']])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
    ])
    // Resolved by its source: the step due at +25 min does not fire.
    await fire('fake-clock', 'resolved')
    await waitFor('resolved', async () =>
      (await call('GET', `/api/v1/incidents/${incidentId}`)).body['status'] === 'resolved' ? true : undefined,
    )
    await ticked(t0 + 25 * 60_000)
    expect((await call('GET', `/api/v1/incidents/${incidentId}/escalation`)).body).toEqual({ running: false })
    expect(await escalated(incidentId)).toHaveLength(3)
    expect(pages('/ana', incidentId)).toHaveLength(1)
    // A policy a rule names cannot be removed.
    expect((await call('DELETE', `/api/v1/escalation-policies/${policy['id']}`)).status).toBe(409)
    await made('PUT', '/api/v1/alert-rules', { rules: [] })
    expect((await call('DELETE', `/api/v1/escalation-policies/${policy['id']}`)).status).toBe(204)
  })

  it('urgency is the incident’s now: a critical alert joining a warning’s incident pages by the high-urgency rules from the next step', async () => {
    const policy = await made('POST', '/api/v1/escalation-policies', {
      name: 'Bo twice',
      steps: [0, 1].map(() => ({ targets: [{ kind: 'user', id: users['bo'] }], waitMinutes: 10 })),
    })
    await made('PUT', '/api/v1/alert-rules', {
      rules: [
        { id: 'by-service', name: 'by service', group: { by: ['service'], window: '5m' }, escalate: policy['id'] },
      ],
    })
    await fire('warned', 'firing', { severity: 'warning', service: 'ledger' })
    const incidentId = await incidentOf('warned')
    const first = await waitFor('step 1', async () => {
      const steps = await escalated(incidentId)
      return steps.length === 1 ? steps[0] : undefined
    })
    // Bo pages only for high urgency: a warning's incident is low.
    expect(first['paged']).toEqual([
      expect.objectContaining({ kind: 'user', id: users['bo'], problem: 'has no contact method for low urgency' }),
    ])
    await fire('worse', 'firing', { severity: 'critical', service: 'ledger' })
    await waitFor('the critical alert joined', async () =>
      (await call('GET', `/api/v1/incidents/${incidentId}`)).body['severity'] === 'critical' ? true : undefined,
    )
    await ticked(Date.parse(first['at']) + 10 * 60_000)
    const second = await waitFor('step 2', async () => (await escalated(incidentId))[1])
    expect(second['paged']).toEqual([
      expect.objectContaining({ kind: 'user', id: users['bo'], method: 'slack:chat', via: dest['chat'] }),
    ])
    await made('PUT', '/api/v1/alert-rules', { rules: [] })
    expect((await call('POST', `/api/v1/incidents/${incidentId}/resolve`)).status).toBe(200)
  })

  it('hostile policies and contact methods: 400s naming the field, nothing saved', async () => {
    const before = (await call('GET', '/api/v1/escalation-policies')).body['policies'].length
    const refused = async (body: unknown, field: RegExp, path = '/api/v1/escalation-policies', method = 'POST') => {
      const res = await call(method, path, body)
      expect(res.status, JSON.stringify(res.body)).toBe(400)
      expect(JSON.stringify(res.body)).toMatch(field)
    }
    const user = { kind: 'user', id: users['ana'] }
    await refused(
      { name: 'huge', steps: [{ targets: Array.from({ length: 10_000 }, () => user), waitMinutes: 1 }] },
      /steps\/0\/targets|steps\[0\]\.targets/,
    )
    await refused(
      { name: 'many', steps: Array.from({ length: 1000 }, () => ({ targets: [user], waitMinutes: 1 })) },
      /steps/,
    )
    await refused({ name: 'wait', steps: [{ targets: [user], waitMinutes: -1 }] }, /waitMinutes/)
    await refused({ name: 'wait', steps: [{ targets: [user], waitMinutes: 1e12 }] }, /waitMinutes/)
    await refused({ name: 'repeat', steps: [{ targets: [user], waitMinutes: 1 }], repeat: 1000 }, /repeat/)
    // JSON.parse makes "__proto__" an own key, as a hostile body's text does.
    await refused(
      JSON.parse(
        `{"name":"proto","steps":[{"targets":[${JSON.stringify(user)}],"waitMinutes":1,"__proto__":{"x":1}}]}`,
      ),
      /proto|steps/,
    )
    await refused(
      { name: 'nobody', steps: [{ targets: [{ kind: 'user', id: 'nobody' }], waitMinutes: 1 }] },
      /steps\[0\]\.targets\[0\]\.id/,
    )
    const foreign = await t.state.directory.createUser(other.accountId, { userName: 'x@other.example', active: true })
    await refused(
      { name: 'foreign', steps: [{ targets: [{ kind: 'user', id: foreign.user.id }], waitMinutes: 1 }] },
      /not a user of this account/,
    )
    await refused(
      { name: 'storm', steps: [{ targets: [user], waitMinutes: 0 }], repeat: 3 },
      /"repeat".*without a pause/,
    )
    // A loop of policies handing over to each other: the second would close it.
    const a = await made('POST', '/api/v1/escalation-policies', {
      name: 'A',
      steps: [{ targets: [user], waitMinutes: 1 }],
    })
    const b = await made('POST', '/api/v1/escalation-policies', {
      name: 'B',
      steps: [{ targets: [{ kind: 'policy', id: a['id'] }], waitMinutes: 0 }],
    })
    await refused(
      {
        name: 'A',
        steps: [
          { targets: [user], waitMinutes: 1 },
          { targets: [{ kind: 'policy', id: b['id'] }], waitMinutes: 0 },
        ],
      },
      /steps\[1\]\.targets\[0\]\.id.*loop/,
      `/api/v1/escalation-policies/${a['id']}`,
      'PUT',
    )
    await refused(
      {
        name: 'self',
        steps: [
          {
            targets: [
              { kind: 'policy', id: a['id'] },
              { kind: 'policy', id: b['id'] },
            ],
            waitMinutes: 0,
          },
        ],
      },
      /more than one policy/,
    )
    // A policy another hands over to cannot be removed; another account sees none of them.
    expect((await call('DELETE', `/api/v1/escalation-policies/${a['id']}`)).status).toBe(409)
    expect((await call('GET', `/api/v1/escalation-policies/${a['id']}`, undefined, other.adminApiKey)).status).toBe(404)
    expect((await call('PUT', '/api/v1/oncall/default-policy', { policyId: a['id'] }, other.adminApiKey)).status).toBe(
      404,
    )
    expect((await call('GET', '/api/v1/escalation-policies')).body['policies'].length).toBe(before + 2)
    // Contact methods: a member id that is markup, two addresses in one, a method through another kind's destination.
    const profile = `/api/v1/oncall/responders/${users['ana']}`
    await refused(
      { contactMethods: [{ id: 'x', kind: 'slack', memberId: '<!channel>' }], rules: [] },
      /memberId/,
      profile,
      'PUT',
    )
    await refused(
      { contactMethods: [{ id: 'x', kind: 'email', address: 'a@b.c, d@e.f' }], rules: [] },
      /address/,
      profile,
      'PUT',
    )
    await refused(
      { contactMethods: [{ id: 'x', kind: 'webhook', destinationId: dest['chat'] }], rules: [] },
      /contactMethods\[0\]\.destinationId.*slack destination/,
      profile,
      'PUT',
    )
    await refused(
      { contactMethods: [{ id: 'x', kind: 'slack', memberId: 'U0BO42' }], rules: [] },
      /contactMethods\[0\]\.memberId.*another responder/,
      profile,
      'PUT',
    )
    await refused(
      { contactMethods: [], rules: [{ urgency: 'high', contactMethod: 'nope', afterMinutes: 0 }] },
      /rules\[0\]\.contactMethod/,
      profile,
      'PUT',
    )
    expect((await call('GET', profile, undefined, other.adminApiKey)).status).toBe(404)
    // A rule escalating by a policy that does not exist.
    await refused(
      { rules: [{ id: 'r', name: 'r', escalate: 'missing' }] },
      /rules\.0\.escalate/,
      '/api/v1/alert-rules',
      'PUT',
    )
  })
})

describe('acknowledging where the page arrives', () => {
  const SECRET = 'slack-signing-secret-0123456789'
  const slackUrl = () => `/api/v1/oncall/slack/${demo.accountId}/interactions`

  /** Posts a Slack interaction as Slack does: form-encoded, signed with the app's secret (or as told). */
  async function click(
    incidentId: string,
    action: 'acknowledge' | 'resolve',
    {
      member = 'U0BO42',
      secret = SECRET,
      at = Math.floor(Date.now() / 1000),
      body,
    }: Partial<{
      member: string
      secret: string
      at: number
      body: string
    }> = {},
  ) {
    const text =
      body ??
      `payload=${encodeURIComponent(
        JSON.stringify({
          type: 'block_actions',
          // Unique per click, as Slack's are: two clicks in one second are two requests.
          trigger_id: randomUUID(),
          user: { id: member },
          actions: [{ action_id: `sluice_${action}`, value: incidentId, type: 'button' }],
          response_url: `${rx.url}/slack-response`,
        }),
      )}`
    const signature = `v0=${createHmac('sha256', secret).update(`v0:${at}:${text}`).digest('hex')}`
    const res = await fetch(`${service.url}${slackUrl()}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(at),
        'x-slack-signature': signature,
      },
      body: text,
    })
    return { status: res.status, body: (await res.json()) as Json, text, signature, at }
  }

  const status = async (id: string, key = demo.adminApiKey) =>
    (await call('GET', `/api/v1/incidents/${id}`, undefined, key)).body['status']

  it('Slack: the page’s buttons acknowledge and resolve as the responder; forged, old, replayed and foreign clicks change nothing', async () => {
    const policy = await made('POST', '/api/v1/escalation-policies', {
      name: 'Slack',
      steps: [{ targets: [{ kind: 'schedule', id: scheduleId }], waitMinutes: 30 }],
    })
    await made('PUT', '/api/v1/oncall/default-policy', { policyId: policy['id'] })
    expect((await made('PUT', '/api/v1/oncall/slack-app', { signingSecret: SECRET }))['set']).toBe(true)
    await fire('slack-buttons')
    const incidentId = await incidentOf('slack-buttons')
    const page = await waitFor('the Slack page', async () =>
      rx
        .on('/slack/T000/B000/XXXX')
        .map((r) => JSON.parse(r.body) as Json)
        .find((b) => JSON.stringify(b).includes(incidentId)),
    )
    const buttons = (page['blocks'] as Json[]).find((b) => b['type'] === 'actions')!
    expect(buttons['elements'].map((e: Json) => [e['action_id'], e['value']])).toEqual([
      ['sluice_acknowledge', incidentId],
      ['sluice_resolve', incidentId],
    ])

    // Forged (another secret), old (5 minutes and a second), from a member who is no responder: nothing changes.
    expect((await click(incidentId, 'acknowledge', { secret: 'not-the-secret' })).status).toBe(401)
    const old = await click(incidentId, 'acknowledge', { at: Math.floor(Date.now() / 1000) - 301 })
    expect(old.status).toBe(401)
    expect(old.body['message']).toMatch(/5 minutes/)
    const stranger = await click(incidentId, 'acknowledge', { member: 'U0STRANGER' })
    expect(stranger.body['text']).toMatch(/not a responder/)
    expect(await status(incidentId)).toBe('triggered')

    const acked = await click(incidentId, 'acknowledge')
    expect(acked.status).toBe(200)
    expect(acked.body).toMatchObject({ replace_original: true, text: expect.stringMatching(/^Acknowledged by BO: /) })
    const incident = (await call('GET', `/api/v1/incidents/${incidentId}`)).body
    expect(incident).toMatchObject({ status: 'acknowledged', acknowledgedBy: `user:${users['bo']}` })
    await waitFor('the updated message at response_url', async () =>
      rx.on('/slack-response').some((r) => r.body.includes('Acknowledged by BO')) ? true : undefined,
    )
    // The same signed request again: a replay.
    const replay = await fetch(`${service.url}${slackUrl()}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(acked.at),
        'x-slack-signature': acked.signature,
      },
      body: acked.text,
    })
    expect(replay.status).toBe(409)

    // Another account's incident, named by a click of this account's app: not found, and it stays as it was.
    const theirs = await call(
      'POST',
      '/api/v1/integrations',
      { name: 'theirs', template: 'alertmanager' },
      other.adminApiKey,
    )
    await new Promise((r) => setTimeout(r, 500))
    // An incident of theirs whose id this account has not (on Redis Cluster each account numbers its own incidents).
    let theirId = ''
    for (let n = 0; !theirId || (await call('GET', `/api/v1/incidents/${theirId}`)).status !== 404; n++) {
      const fingerprint = `theirs-${n}`
      await fetch(theirs.body['webhookUrl'], {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          version: '4',
          status: 'firing',
          alerts: [
            {
              status: 'firing',
              labels: { alertname: fingerprint },
              annotations: { summary: fingerprint },
              fingerprint,
            },
          ],
        }),
      })
      theirId = await waitFor(`their incident ${n}`, async () => {
        const list = (await call('GET', '/api/v1/incidents?status=all', undefined, other.adminApiKey)).body
        return (list['incidents'] as Json[]).find((i) => String(i['title']).includes(fingerprint))?.['id'] as
          string | undefined
      })
    }
    const foreign = await click(theirId, 'resolve')
    expect(foreign.body['text']).toMatch(/no incident .* in this account/)
    expect(await status(theirId, other.adminApiKey)).toBe('triggered')

    // Resolve from the button; a click on the resolved incident says so.
    const resolved = await click(incidentId, 'resolve')
    expect(resolved.body['text']).toMatch(/^Resolved by BO: /)
    expect(await status(incidentId)).toBe('resolved')
    expect((await click(incidentId, 'acknowledge')).body['text']).toMatch(/resolved already/)
    expect(await status(incidentId)).toBe('resolved')
    await made('PUT', '/api/v1/oncall/default-policy', { policyId: null })
  })

  it('email links: a GET changes nothing, a POST acts once; tampered, expired and reused links are refused', async () => {
    await fire('email-links')
    const incidentId = await incidentOf('email-links')
    const actions = service.container.pageActions
    const links = actions.emailLinks(demo.accountId, incidentId, users['ana']!, Date.now())
    const path = (url: string) => new URL(url).pathname
    const get = await fetch(`${service.url}${path(links.acknowledge)}`)
    expect(get.status).toBe(200)
    expect(get.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(await get.text()).toMatch(/<form method="post"><button type="submit">Acknowledge<\/button>/)
    expect(await status(incidentId)).toBe('triggered')
    // Tampered: the body of the token changed (its MAC no longer matches).
    const token = path(links.acknowledge).split('/').pop()!
    const [body, mac] = token.split('.') as [string, string]
    const forged = `${Buffer.from(Buffer.from(body, 'base64url').toString().replace('acknowledge', 'resolve')).toString('base64url')}.${mac}`
    expect((await fetch(`${service.url}/api/v1/oncall/act/${forged}`, { method: 'POST' })).status).toBe(403)
    const expired = actions.emailLinks(demo.accountId, incidentId, users['ana']!, Date.now() - 25 * 3_600_000)
    const late = await fetch(`${service.url}${path(expired.resolve)}`, { method: 'POST' })
    expect(late.status).toBe(403)
    expect(((await late.json()) as Json)['message']).toMatch(/expired/)
    expect(await (await fetch(`${service.url}${path(expired.resolve)}`)).text()).toMatch(/cannot be used.*expired/s)
    expect(await status(incidentId)).toBe('triggered')
    const used = await fetch(`${service.url}${path(links.acknowledge)}`, { method: 'POST' })
    expect(used.status).toBe(200)
    expect(await used.text()).toContain('acknowledged by ANA')
    expect((await call('GET', `/api/v1/incidents/${incidentId}`)).body['acknowledgedBy']).toBe(`user:${users['ana']}`)
    expect((await fetch(`${service.url}${path(links.acknowledge)}`, { method: 'POST' })).status).toBe(409)
    const resolve = await fetch(`${service.url}${path(links.resolve)}`, { method: 'POST' })
    expect(resolve.status).toBe(200)
    expect(await status(incidentId)).toBe('resolved')
  })
})

describe('the command line', () => {
  it('makes a policy, sets it as the default and shows a responder, as the API does; a loop is refused naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'policies-'))
    const account = ['--account', demo.accountId]
    const file = join(dir, 'policy.json')
    writeFileSync(
      file,
      JSON.stringify({
        name: 'From the CLI',
        steps: [{ targets: [{ kind: 'user', id: users['ana'] }], waitMinutes: 5 }],
      }),
    )
    const added = await runSluice(['policies', 'add', file, ...account, '--json'], t.env)
    expect(added.code, added.stderr).toBe(0)
    const id = (JSON.parse(added.stdout) as Json)['id'] as string
    expect((await call('GET', `/api/v1/escalation-policies/${id}`)).body['name']).toBe('From the CLI')
    expect((await runSluice(['policies', 'default', id, ...account], t.env)).stdout.trim()).toBe(id)
    expect((await call('GET', '/api/v1/oncall/default-policy')).body).toEqual({ policyId: id })
    const listed = await runSluice(['policies', 'list', ...account], t.env)
    expect(listed.stdout).toMatch(new RegExp(`${id}  From the CLI .*\\(default\\)`))
    expect((await runSluice(['policies', 'default', '--none', ...account], t.env)).stdout.trim()).toBe('none')
    writeFileSync(
      file,
      JSON.stringify({ name: 'Loop', steps: [{ targets: [{ kind: 'policy', id }], waitMinutes: 0 }] }),
    )
    const loop = await runSluice(['policies', 'replace', id, file, ...account], t.env)
    expect(loop.code).not.toBe(0)
    expect(loop.stderr).toMatch(/steps\[0\]\.targets\[0\]\.id/)
    const shown = await runSluice(['responders', 'show', users['bo']!, ...account], t.env)
    expect(JSON.parse(shown.stdout)['contactMethods']).toEqual([{ id: 'chat', kind: 'slack', memberId: 'U0BO42' }])
    expect((await runSluice(['policies', 'remove', id, ...account], t.env)).code).toBe(0)
  })
})
