// Each notification kind is a module of its own (settings, view, open, send): its secrets are sealed when saved,
// never shown, opened back to what was given; a field its schema does not name is refused naming it; a change that
// leaves a secret out keeps the stored one.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { NOTIFY_KINDS, kindOf } from '../../../../src/sinks/notify/kinds/index.js'
import { SettingsCheck } from '../../../../src/sinks/notify/kinds/kind.js'
import { DESTINATION_KINDS } from '../../../../src/pipeline/notify/destinations.js'
import { SecretBox } from '../../../../src/shared/secret-box.js'
import type { NotifyItem } from '../../../../src/pipeline/notify/messages.js'
import { emailParts } from '../../../../src/sinks/notify/kinds/email.js'
import { pagerDutyBody } from '../../../../src/sinks/notify/kinds/pagerduty.js'
import { slackBody } from '../../../../src/sinks/notify/kinds/slack.js'
import { webhookBody } from '../../../../src/sinks/notify/kinds/webhook.js'

const box = new SecretBox([randomBytes(32).toString('base64')])
const policy = { allowInsecure: true, timeoutMs: 1000, maxBytes: 1024 }

/** Per kind: settings as given, and the secret among them. */
const given = {
  webhook: { settings: { url: 'http://127.0.0.1:9/hook', headers: { 'X-Token': 'tok-123456' } }, secret: 'tok-123456' },
  slack: { settings: { url: 'http://127.0.0.1:9/services/T1/B1/secret-path' }, secret: 'secret-path' },
  pagerduty: {
    settings: { routingKey: 'ROUTINGKEY0000000000000000000042', url: 'http://127.0.0.1:9/pd' },
    secret: 'ROUTINGKEY',
  },
  email: {
    settings: {
      host: '127.0.0.1',
      port: 2525,
      security: 'none',
      password: 'pw-secret-1',
      from: 'a@example.com',
      to: ['b@example.com'],
    },
    secret: 'pw-secret-1',
  },
} as const

describe.each(DESTINATION_KINDS)('the %s kind', (name) => {
  const kind = kindOf(name)
  const { settings, secret } = given[name]

  it('seals its secret when saved, shows none, and opens it back', async () => {
    const check = new SettingsCheck(box, policy, kind.newSecret?.())
    const stored = await kind.settings(settings, check, undefined)
    expect(check.problems).toEqual([])
    expect(stored).toBeDefined()
    expect(JSON.stringify(stored)).not.toContain(secret)
    expect(JSON.stringify(kind.view(stored!))).not.toContain(secret)
    const opened = kind.open(stored!, new SecretBox([]))
    expect(opened, 'another process without the key cannot open it').toMatch(/cannot be opened/)
    expect(JSON.stringify(kind.open(stored!, box))).toContain(secret)
  })

  it('refuses a field its schema does not name, naming it; keeps a secret left out on a change', async () => {
    const check = new SettingsCheck(box, policy)
    expect(check.shape({ ...settings, colour: 'red' }, kind)).toBe(false)
    expect(check.problems).toEqual([{ field: 'settings.colour', problem: `is not a setting of a ${name} destination` }])
    // A field of the wrong type, named with what it must be.
    const [field, wrong, must] = name === 'email' ? ['port', 'x', 'must be integer'] : ['url', 42, 'must be string']
    const typed = new SettingsCheck(box, policy)
    expect(typed.shape({ ...settings, [field]: wrong }, kind)).toBe(false)
    expect(typed.problems).toEqual([{ field: `settings.${field}`, problem: must }])
    expect(new SettingsCheck(box, policy).shape(settings, kind)).toBe(true)
    const first = new SettingsCheck(box, policy, kind.newSecret?.())
    const stored = (await kind.settings(settings, first, undefined))!
    const change = new SettingsCheck(box, policy)
    const withoutSecret = Object.fromEntries(
      Object.entries(settings).filter(([, v]) => !JSON.stringify(v).includes(secret) || name === 'webhook'),
    )
    const changed = await kind.settings(
      name === 'webhook' ? { ...settings, headers: { 'X-Token': null } } : withoutSecret,
      change,
      stored,
    )
    expect(change.problems).toEqual([])
    expect(JSON.stringify(kind.open(changed!, box))).toContain(secret)
  })
})

it('every kind has a module, and only PagerDuty takes one event per message', () => {
  expect(Object.keys(NOTIFY_KINDS).sort()).toEqual([...DESTINATION_KINDS].sort())
  expect(DESTINATION_KINDS.filter((k) => !kindOf(k).digests)).toEqual(['pagerduty'])
})

describe('an update of an incident', () => {
  const hostile = '<!channel> <script>alert(1)</script>'
  const added = Array.from({ length: 20 }, (_, n) => ({
    id: `al_${n}`,
    status: 'firing',
    severity: 'warning',
    description: `${hostile} on host-${n}`,
    incidentId: 'inc_7',
  }))
  const item: NotifyItem = {
    deliveryId: 'd1',
    event: 'updated',
    alert: added[0]!,
    link: 'https://sluice.example/console/#/incidents?status=all&incident=inc_7',
    update: {
      incident: {
        id: 'inc_7',
        title: `checkout ${hostile}`,
        status: 'triggered',
        severity: 'critical',
        alerts: 50,
        open: 48,
      },
      added: 49,
      alerts: added,
    },
  }

  it('names the incident and the alerts added in every kind, alert text kept as text', () => {
    const web = JSON.parse(webhookBody([item])) as Record<string, unknown>
    expect(web).toMatchObject({ type: 'incident.updated', added: 49, incident: { id: 'inc_7', open: 48 } })
    expect(web['addedAlerts']).toHaveLength(20)
    const slack = slackBody([item])
    expect(slack).toContain('49 added:')
    expect(slack).toContain('and 29 more')
    expect(slack).not.toContain('<!channel>')
    expect(JSON.parse(slack)['text']).toBe(
      '[UPDATED] critical: checkout &lt;!channel&gt; &lt;script&gt;alert(1)&lt;/script&gt; (49 alerts added, 48 open)',
    )
    const mail = emailParts([item])
    expect(mail.subject).toMatch(/^\[UPDATED\] critical: checkout/)
    expect(mail.text).toContain('Added: 49: al_0 warning')
    expect(mail.html).not.toContain('<script>')
    const pd = JSON.parse(pagerDutyBody(item, 'KEY')) as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(pd).toMatchObject({ event_action: 'trigger', dedup_key: 'inc_7' })
    expect(pd['payload']['custom_details']).toMatchObject({ alertsAdded: 49, incidentAlerts: 50 })
  })
})
