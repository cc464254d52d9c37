// Slack: an incoming webhook's URL (sealed: the URL is the credential), sent Block Kit sections; alert text is
// mrkdwn-escaped, so it cannot make links or mentions.
import { Type } from 'typebox'
import { countBy, cut, MESSAGE_LIMITS, title, type NotifyItem } from '../../../pipeline/notify/messages.js'
import { slackButtons } from '../../../pipeline/oncall/page-actions.js'
import { openFields, post, type NotifyKind } from './kind.js'

/** Slack's mrkdwn control characters as entities (so alert text cannot make links or mentions). */
export const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

const SEVERITY_MARK: Record<string, string> = {
  critical: ':red_circle:',
  high: ':large_orange_circle:',
  warning: ':large_yellow_circle:',
  info: ':large_blue_circle:',
}

/** Events of an incident still open: its messages carry the buttons. */
const OPEN_EVENTS = new Set(['triggered', 'reopened', 'repeated'])

function slackLine(i: NotifyItem): string {
  const a = i.alert
  const where = [a.service, a.environment].filter((x) => x).map((x) => slackEscape(x!))
  return `${SEVERITY_MARK[a.severity] ?? ''} *${i.event}* ${slackEscape(a.severity)}: <${i.link}|${slackEscape(cut(a.description, MESSAGE_LIMITS.titleChars))}>${where.length ? ` (${where.join(', ')})` : ''}`
}

/** An update's alerts added, one line each (the rest counted), within one section. */
function addedLines(i: NotifyItem): string {
  const u = i.update!
  const lines = u.alerts.map(
    (a) => `• ${slackEscape(a.severity)}: ${slackEscape(cut(a.description, MESSAGE_LIMITS.titleChars))} (${a.id})`,
  )
  const more = u.added - u.alerts.length
  return cut(
    `*${u.added} added:*\n${lines.join('\n')}${more > 0 ? `\nand ${more} more` : ''}`,
    MESSAGE_LIMITS.slackSectionChars,
  )
}

/** Slack incoming webhook body: text (the fallback) and Block Kit sections. */
export function slackBody(items: readonly NotifyItem[]): string {
  if (items.length === 1) {
    const i = items[0]!
    const a = i.alert
    const fields = [
      ['Severity', a.severity],
      ['Status', a.status],
      ...(a.service ? [['Service', a.service]] : []),
      ...(a.environment ? [['Environment', a.environment]] : []),
      ...(a.team ? [['Team', a.team]] : []),
      ...(a.source ? [['Source', a.source]] : []),
    ].map(([k, v]) => ({ type: 'mrkdwn', text: `*${k}*\n${slackEscape(cut(v!, 200))}` }))
    return JSON.stringify({
      text: slackEscape(title(i)),
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            // A page mentions its responder (a member id of a checked pattern: no markup of its own).
            text: i.page?.mention ? `<@${i.page.mention}> ${slackLine(i)}` : slackLine(i),
          },
        },
        { type: 'section', fields: fields.slice(0, 10) },
        ...(i.update ? [{ type: 'section', text: { type: 'mrkdwn', text: addedLines(i) } }] : []),
        { type: 'context', elements: [{ type: 'mrkdwn', text: `<${i.link}|Open in Sluice> · alert ${i.alert.id}` }] },
        // An open incident's page or opening: Acknowledge and Resolve (the account's Slack app sends the clicks to
        // Sluice, signed).
        ...(i.alert.incidentId && OPEN_EVENTS.has(i.event) && !i.update ? [slackButtons(i.alert.incidentId)] : []),
      ],
    })
  }
  const listed = items.slice(0, MESSAGE_LIMITS.slackListed).map(slackLine)
  const sections: string[] = []
  for (const line of listed) {
    const last = sections.length - 1
    if (last >= 0 && sections[last]!.length + line.length + 1 <= MESSAGE_LIMITS.slackSectionChars)
      sections[last] += `\n${line}`
    else sections.push(cut(line, MESSAGE_LIMITS.slackSectionChars))
  }
  const more = items.length - listed.length
  const counts = countBy(items.map((i) => i.event))
  return JSON.stringify({
    text: `${items.length} alert events: ${counts}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: `${items.length} alert events (${counts})` } },
      ...sections.map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } })),
      ...(more > 0 ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: `and ${more} more` }] }] : []),
    ],
  })
}

// ------------------------------------------------------------

function urlHint(raw: string): string {
  const u = new URL(raw)
  return `${u.protocol}//${u.host}/…${u.pathname.slice(-4)}`
}

export const slack: NotifyKind<'slack'> = {
  kind: 'slack',
  schema: Type.Object(
    {
      url: Type.Optional(
        Type.String({
          description: 'the incoming webhook URL (required when created), sealed; on a change, left out keeps it',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  limits: { ratePerSecond: 1, burst: 3, concurrency: 1, maxDigest: 500 },
  digests: true,

  async settings(s, check, old) {
    // On a change, a url left out keeps the stored one (it is the secret).
    const given = check.text(s, 'url', old === undefined)
    await check.url('url', given)
    if (given) return check.problems.length ? undefined : { url: check.seal(given), urlHint: urlHint(given) }
    return old
  },

  view: (s) => ({ urlHint: s.urlHint }),
  open: (s, box) => openFields(s, ['url'], box),
  send: (s, items, policy, signal) =>
    post(s.url, { 'content-type': 'application/json' }, slackBody(items), policy, signal),
}
