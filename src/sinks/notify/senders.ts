// The senders of notifications, one per destination kind behind one function: make the request from
// the messages (pipeline/notify/messages.ts), send it through the outbound guard (public addresses
// only, checked on the address connected to; no redirects; bounded time and answer), and classify
// the outcome: delivered, retry (with the receiver's Retry-After when it gives one) or give up.
import { createHmac } from 'node:crypto'
import { connect, type Socket } from 'node:net'
import { Duplex } from 'node:stream'
import nodemailer from 'nodemailer'
import { sealedFields, type StoredDestination } from '../../pipeline/notify/destinations.js'
import { isRenderLimit } from '../../pipeline/alerts/moustache.js'
import {
  emailParts,
  messageId,
  pagerDutyBody,
  slackBody,
  webhookBody,
  type NotifyItem,
} from '../../pipeline/notify/messages.js'
import { checkHost, guardedRequest, headerProblem, OutboundError, type OutboundPolicy } from '../../shared/outbound.js'
import type { SecretBox } from '../../shared/secret-box.js'

export type SendResult = 'delivered' | 'retry' | 'give-up'

export interface SendOutcome {
  readonly result: SendResult
  /** The receiver's status (HTTP status, SMTP reply code), when it answered. */
  readonly status?: number
  /** Why it was not delivered (bounded). */
  readonly error?: string
  /** How long the receiver asked to wait (Retry-After), in ms. */
  readonly retryAfterMs?: number
}

/** A destination whose sealed settings are opened (kept in memory only while sending). */
export type OpenedDestination = StoredDestination

/** The destination with its secrets opened, or why they cannot be (a key of this process does not open them). */
export function openDestination(d: StoredDestination, box: SecretBox): OpenedDestination | string {
  const settings = { ...d.settings } as Record<string, unknown>
  for (const field of sealedFields(d)) {
    const plain = box.open(String(settings[field]))
    if (plain === undefined) return `its ${field} cannot be opened with this process's SLUICE_SECRETS_KEY`
    settings[field] = plain
  }
  if (d.kind === 'webhook' && d.settings.headers) {
    const headers: Record<string, string> = {}
    for (const [name, sealed] of Object.entries(d.settings.headers)) {
      const plain = box.open(sealed)
      if (plain === undefined) return `its header ${name} cannot be opened with this process's SLUICE_SECRETS_KEY`
      headers[name] = plain
    }
    settings['headers'] = headers
  }
  return { ...d, settings } as unknown as OpenedDestination
}

/** Whether a kind sends many alert events in one message. PagerDuty takes one event per alert. */
export const digests = (d: StoredDestination) => d.kind !== 'pagerduty' && d.limits.maxDigest > 1

const USER_AGENT = 'Sluice-Notify/1'
const ERROR_CHARS = 300

const cut = (text: string) => (text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS)}…` : text)

/** Standard Webhooks' signature (v1: HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's bytes). */
export function signWebhook(secret: string, id: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSec}.${body}`).digest('base64')}`
}

/** Retry-After as ms: seconds or an HTTP date; undefined when absent or unreadable. Bounded to a day. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (!value) return undefined
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) * 1000 : Date.parse(value) - now
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 86_400_000) : undefined
}

/** Sends one message (one event, or a digest of several) to the destination. Never throws. */
export async function send(
  d: OpenedDestination,
  items: readonly NotifyItem[],
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<SendOutcome> {
  try {
    switch (d.kind) {
      case 'webhook': {
        const s = d.settings
        // A destination stored before its headers were checked when saved: given up naming the field, never sent.
        const refused = webhookSettingsProblem(s)
        if (refused) return { result: 'give-up', error: cut(`not sent: ${refused}; change the destination`) }
        let body: string
        try {
          body = webhookBody(items, s.bodyTemplate, s.contentType.includes('json'))
        } catch (err) {
          // The same template over the same alerts costs the same again: no retry helps.
          if (isRenderLimit(err))
            return { result: 'give-up', error: cut(`not sent: ${err.message}; change the destination`) }
          throw err
        }
        const id = messageId(items)
        const ts = Math.floor(Date.now() / 1000)
        return await http(
          s.url,
          {
            ...s.headers,
            'content-type': s.contentType,
            'idempotency-key': id,
            'webhook-id': id,
            'webhook-timestamp': String(ts),
            'webhook-signature': signWebhook(s.signingSecret, id, ts, body),
          },
          body,
          policy,
          signal,
        )
      }
      case 'slack':
        return await http(d.settings.url, { 'content-type': 'application/json' }, slackBody(items), policy, signal)
      case 'pagerduty': {
        if (items.length !== 1) throw new Error('PagerDuty takes one event per message')
        const body = pagerDutyBody(items[0]!, d.settings.routingKey)
        return await http(d.settings.url, { 'content-type': 'application/json' }, body, policy, signal)
      }
      case 'email':
        return await email(d.settings, items, policy)
    }
  } catch (err) {
    return { result: 'retry', error: cut(err instanceof Error ? err.message : String(err)) }
  }
}

/**
 * The field of a webhook's settings (opened) that no HTTP request can carry, and why: checked when it is saved,
 * and again before every send, for destinations saved before that check.
 */
export function webhookSettingsProblem(
  s: Extract<OpenedDestination, { kind: 'webhook' }>['settings'],
): string | undefined {
  for (const [name, value] of Object.entries(s.headers ?? {})) {
    const problem = headerProblem(name, value)
    if (problem) return `settings.headers.${JSON.stringify(name).slice(1, -1)} ${problem}`
  }
  const problem = headerProblem('content-type', s.contentType)
  return problem ? `settings.contentType ${problem}` : undefined
}

async function http(
  url: string,
  headers: Record<string, string>,
  body: string,
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<SendOutcome> {
  let answer
  try {
    answer = await guardedRequest(url, policy, {
      method: 'POST',
      headers: { ...headers, 'user-agent': USER_AGENT },
      body,
      signal,
    })
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    // What the guard refuses (an address not public, a header no request can carry) stays refused: no retry helps.
    const refused = err instanceof OutboundError && err.refused
    return { result: refused ? 'give-up' : 'retry', error: cut(message) }
  }
  const status = answer.status
  if (status >= 200 && status < 300) return { result: 'delivered', status }
  const text = cut(answer.body.toString('utf8').replace(/\s+/g, ' ').trim())
  const after = retryAfterMs(answer.headers['retry-after'])
  if (status === 429 || status === 408 || status >= 500)
    return { result: 'retry', status, error: `answered ${status}${text ? `: ${text}` : ''}`, retryAfterMs: after }
  if (status >= 300 && status < 400)
    return { result: 'give-up', status, error: `answered a redirect (${status}); redirects are not followed` }
  return { result: 'give-up', status, error: `answered ${status}${text ? `: ${text}` : ''}` }
}

async function email(
  s: Extract<StoredDestination, { kind: 'email' }>['settings'],
  items: readonly NotifyItem[],
  policy: OutboundPolicy,
): Promise<SendOutcome> {
  let address: string
  try {
    // The server is reached at an address checked here, so a name cannot resolve elsewhere after the check.
    address = (await checkHost(s.host, policy))[0]!
  } catch (err) {
    const refused = err instanceof OutboundError && err.refused
    return { result: refused ? 'give-up' : 'retry', error: cut(`${s.host} ${(err as Error).message}`) }
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
    const message = cut(err instanceof Error ? err.message : String(err))
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
