// Email over SMTP (nodemailer): a message of one event or a digest, in plain text and HTML (every alert text
// escaped), to at most 20 recipients. Sluice opens the connection to an address it checked, and holds the whole
// exchange to the outbound policy's time and to SMTP_ANSWER_BYTES of answer. The password is sealed.
import { connect, type Socket } from 'node:net'
import { Duplex } from 'node:stream'
import nodemailer from 'nodemailer'
import { Type } from 'typebox'
import type { EmailSecurity } from '../../../pipeline/notify/destinations.js'
import { countBy, cut, messageId, title, type NotifyItem } from '../../../pipeline/notify/messages.js'
import { checkHost, OutboundError, type OutboundPolicy } from '../../../shared/outbound.js'
import { cutError, openFields, type NotifyKind, type SendOutcome, type SettingsOf } from './kind.js'

type Settings = SettingsOf<'email'>

const MAX_RECIPIENTS = 20
const EMAIL = /^[^\s@<>()",;:\\[\]]{1,64}@[A-Za-z0-9.-]{1,253}$/

/** Text as HTML (alert text is data). */
export const htmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** An email's subject, plain-text part and HTML part (every alert text escaped). */
export function emailParts(items: readonly NotifyItem[]): { subject: string; text: string; html: string } {
  const subject = cut(
    (items.length === 1
      ? title(items[0]!)
      : `[Sluice] ${items.length} alert events: ${countBy(items.map((i) => i.event))}`
    ).replace(/[\r\n]+/g, ' '),
    250,
  )
  const rows = (i: NotifyItem) =>
    [
      ['Event', i.event],
      ['Severity', i.alert.severity],
      ['Status', i.alert.status],
      ['Description', i.alert.description],
      ['Service', i.alert.service],
      ['Environment', i.alert.environment],
      ['Team', i.alert.team],
      ['Source', i.alert.source],
      ['Alert', i.alert.id],
      ...(i.update
        ? [
            [
              'Added',
              `${i.update.added}: ${i.update.alerts.map((a) => `${a.id} ${a.severity} ${cut(a.description, 120)}`).join('; ')}`,
            ],
          ]
        : []),
    ].filter(([, v]) => v !== undefined && v !== '') as [string, string][]
  const text = items
    .map(
      (i) =>
        `${rows(i)
          .map(([k, v]) => `${k}: ${v}`)
          .join(
            '\n',
          )}\nLink: ${i.link}${i.actions ? `\nAcknowledge: ${i.actions.acknowledge}\nResolve: ${i.actions.resolve}` : ''}`,
    )
    .join('\n\n')
  const html =
    `<!doctype html><html><body>` +
    items
      .map(
        (i) =>
          `<table>${rows(i)
            .map(([k, v]) => `<tr><th align="left">${htmlEscape(k)}</th><td>${htmlEscape(v)}</td></tr>`)
            .join('')}</table><p><a href="${htmlEscape(i.link)}">Open in Sluice</a>${
            i.actions
              ? ` · <a href="${htmlEscape(i.actions.acknowledge)}">Acknowledge</a> · <a href="${htmlEscape(i.actions.resolve)}">Resolve</a>`
              : ''
          }</p>`,
      )
      .join('<hr>') +
    `</body></html>`
  return { subject, text, html }
}

export const email: NotifyKind<'email'> = {
  kind: 'email',
  schema: Type.Object(
    {
      host: Type.String({ description: 'the SMTP server' }),
      port: Type.Optional(Type.Integer({ description: 'default 587' })),
      security: Type.Optional(
        Type.Enum(['tls', 'starttls', 'none'], {
          description: 'tls: TLS from the first byte (465); starttls (default): required; none: a local relay',
        }),
      ),
      username: Type.Optional(Type.String()),
      password: Type.Optional(
        Type.Union([Type.String(), Type.Null()], { description: 'sealed when stored; on a change, left out keeps it' }),
      ),
      from: Type.String({ description: 'an email address' }),
      to: Type.Array(Type.String(), { description: `1 to ${MAX_RECIPIENTS} email addresses` }),
    },
    { additionalProperties: false },
  ),
  limits: { ratePerSecond: 1, burst: 5, concurrency: 2, maxDigest: 500 },
  digests: true,

  async settings(s, check, old) {
    const host = check.text(s, 'host')
    const port = s['port'] ?? 587
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
      check.problem('settings.port', 'must be a port number')
    const security = (s['security'] ?? 'starttls') as EmailSecurity
    if (!['tls', 'starttls', 'none'].includes(security))
      check.problem('settings.security', 'must be tls, starttls or none')
    await check.host('host', host)
    const username = check.text(s, 'username', false)
    const password = s['password']
    if (password !== undefined && password !== null && (typeof password !== 'string' || password.length > 1024))
      check.problem('settings.password', 'must be text of at most 1024 characters')
    const from = check.text(s, 'from')
    if (from && !EMAIL.test(from)) check.problem('settings.from', 'must be an email address')
    const to = s['to']
    if (!Array.isArray(to) || to.length === 0 || to.length > MAX_RECIPIENTS)
      check.problem('settings.to', `must be a list of 1 to ${MAX_RECIPIENTS} addresses`)
    else
      to.forEach((a, i) => {
        if (typeof a !== 'string' || !EMAIL.test(a)) check.problem(`settings.to[${i}]`, 'must be an email address')
      })
    const sealedPassword =
      typeof password === 'string' ? check.seal(password) : password === undefined ? old?.password : undefined
    if (!host || !from || !Array.isArray(to)) return undefined
    return {
      host,
      port: port as number,
      security,
      ...(username ? { username } : {}),
      ...(sealedPassword ? { password: sealedPassword } : {}),
      from,
      to: to as string[],
    }
  },

  view: ({ password, ...rest }) => ({ ...rest, hasPassword: password !== undefined }),
  open: (s, box) => openFields(s, ['password'], box),
  send: (s, items, policy) => sendMail(s, items, policy),
}

async function sendMail(s: Settings, items: readonly NotifyItem[], policy: OutboundPolicy): Promise<SendOutcome> {
  let address: string
  try {
    // The server is reached at an address checked here, so a name cannot resolve elsewhere after the check.
    address = (await checkHost(s.host, policy))[0]!
  } catch (err) {
    const refused = err instanceof OutboundError && err.refused
    return { result: refused ? 'give-up' : 'retry', error: cutError(`${s.host} ${(err as Error).message}`) }
  }
  // Sluice opens the connection (smtpConnection) and holds the whole exchange to the policy's time and to
  // SMTP_ANSWER_BYTES of answer: nodemailer's own timeouts are idle timeouts, reset by every byte, and it re-reads the
  // unfinished line it holds at each byte that comes, so a server answering without end froze the process.
  let connection: Duplex | undefined
  const deadline = setTimeout(
    () => connection?.destroy(new OutboundError(`${s.host} did not finish within ${policy.timeoutMs} ms`)),
    policy.timeoutMs,
  )
  const transport = nodemailer.createTransport({
    getSocket: (_options: unknown, callback: (err: Error | null, socketOptions?: { connection: Socket }) => void) => {
      if (connection) return callback(new Error('one connection per message'))
      connection = smtpConnection(address, s.port, `${s.host} answered more than ${SMTP_ANSWER_BYTES} bytes`)
      const opened = connection
      const done = (err?: Error) => {
        opened.off('connected', done).off('error', done)
        if (err) callback(err)
        else callback(null, { connection: opened as unknown as Socket })
      }
      opened.once('connected', done).once('error', done)
    },
    host: address,
    port: s.port,
    secure: s.security === 'tls',
    requireTLS: s.security === 'starttls',
    ignoreTLS: s.security === 'none',
    tls: { servername: s.host, rejectUnauthorized: true },
    ...(s.username !== undefined ? { auth: { user: s.username, pass: s.password ?? '' } } : {}),
    connectionTimeout: policy.timeoutMs,
    greetingTimeout: policy.timeoutMs,
    socketTimeout: policy.timeoutMs,
    name: 'sluice',
  })
  const parts = emailParts(items)
  try {
    const info = await transport.sendMail({
      from: s.from,
      to: [...s.to],
      subject: parts.subject,
      text: parts.text,
      html: parts.html,
      messageId: `<${messageId(items)}@sluice>`,
      headers: { 'X-Sluice-Events': String(items.length) },
    })
    return { result: 'delivered', status: Number(/^\d{3}/.exec(info.response)?.[0] ?? 250) }
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode
    const message = cutError(err instanceof Error ? err.message : String(err))
    if (code !== undefined && code >= 500) return { result: 'give-up', status: code, error: message }
    return { result: 'retry', ...(code !== undefined ? { status: code } : {}), error: message }
  } finally {
    clearTimeout(deadline)
    transport.close()
    connection?.destroy()
  }
}

/** What an SMTP server may send in one message's exchange (its greeting, answers, TLS handshake). */
const SMTP_ANSWER_BYTES = 64 * 1024

/**
 * A connection to an SMTP server that nodemailer speaks over (and upgrades to TLS over), counting what the server
 * sends: past `maxBytes` it is destroyed with `tooMuch`. Emits 'connected' once open. The socket methods nodemailer
 * calls are passed on.
 */
function smtpConnection(host: string, port: number, tooMuch: string): Duplex {
  const raw = connect({ host, port })
  let received = 0
  const duplex = new Duplex({
    read: () => void raw.resume(),
    write: (chunk: Buffer, _encoding, done) => void raw.write(chunk, done),
    final: (done) => void raw.end(done),
    destroy: (err, done) => {
      raw.destroy()
      done(err)
    },
  })
  raw.on('connect', () => duplex.emit('connected'))
  raw.on('data', (chunk: Buffer) => {
    received += chunk.length
    if (received > SMTP_ANSWER_BYTES) duplex.destroy(new OutboundError(tooMuch))
    else if (!duplex.push(chunk)) raw.pause()
  })
  raw.on('end', () => duplex.push(null))
  raw.on('error', (err) => duplex.destroy(err))
  raw.on('close', () => duplex.destroy())
  raw.on('timeout', () => duplex.emit('timeout'))
  // nodemailer listens while it sends; an error after it let go (a late destroy) ends here, not in the process.
  duplex.on('error', () => undefined)
  return Object.defineProperties(duplex, {
    setKeepAlive: { value: (...args: Parameters<Socket['setKeepAlive']>) => void raw.setKeepAlive(...args) },
    setTimeout: { value: (ms: number) => void raw.setTimeout(ms) },
    remoteAddress: { get: () => raw.remoteAddress },
    remotePort: { get: () => raw.remotePort },
    localAddress: { get: () => raw.localAddress },
    localPort: { get: () => raw.localPort },
  })
}
