// Requests to admin-supplied URLs (the SCIM JWKS URL, notification destinations) without server-side
// request forgery: https only; public unicast addresses only (no loopback, private, link-local,
// metadata, CGNAT, multicast, ...), checked on the address actually connected to (a DNS answer that
// changes between the check and the request cannot slip through); no redirects; bounded time and
// size. `allowInsecure` (development, tests) also permits http and loopback, never private or
// link-local targets. `allowedRanges` names private ranges an operator allows (on-premises receivers).
import { lookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns'
import {
  request as httpRequest,
  validateHeaderName,
  validateHeaderValue,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

export interface OutboundPolicy {
  readonly allowInsecure: boolean
  readonly timeoutMs: number
  readonly maxBytes: number
  /** CIDR ranges allowed although not public (e.g. 10.20.0.0/16), parsed by parseRanges. */
  readonly allowedRanges?: readonly AllowedRange[]
}

export type AllowedRange = [ipaddr.IPv4 | ipaddr.IPv6, number]

export class OutboundError extends Error {
  override readonly name = 'OutboundError'

  /** refused: the request itself is wrong (not its receiver), so sending it again can never succeed. */
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message)
  }
}

/**
 * Why Node would refuse this header (a name that is not an HTTP token; a value holding a character outside
 * tab, space to `~` and U+0080 to U+00FF, such as CR, LF, NUL or `€`), or undefined when it takes it. The same
 * check as http.request's, which throws.
 */
export function headerProblem(name: string, value: string): string | undefined {
  try {
    validateHeaderName(name)
  } catch {
    return 'is not a valid HTTP header name'
  }
  try {
    validateHeaderValue(name, value)
  } catch {
    return 'holds a character not allowed in an HTTP header (control characters, line breaks, or beyond U+00FF)'
  }
  return undefined
}

/** CIDR ranges ("10.0.0.0/8", "fd00::/8", or a single address); throws naming the one that is not. */
export function parseRanges(list: readonly string[]): AllowedRange[] {
  return list.map((r) => {
    const text = r.includes('/') ? r : `${r}/${r.includes(':') ? 128 : 32}`
    try {
      return ipaddr.parseCIDR(text)
    } catch {
      throw new Error(`${r} is not an IP range (CIDR, such as 10.0.0.0/8)`)
    }
  })
}

/** Whether the policy lets a connection go to this address. */
export function addressAllowed(address: string, policy: OutboundPolicy): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.process(address)
  for (const [net, bits] of policy.allowedRanges ?? [])
    if (net.kind() === parsed.kind() && parsed.match(net, bits)) return true
  // IPv4-compatible IPv6 (::a.b.c.d, deprecated) counts as unicast in ipaddr.js: refuse ::/96.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return false
  const range = parsed.range()
  return range === 'unicast' || (policy.allowInsecure && range === 'loopback')
}

/** The URL if its form is allowed (scheme, no credentials); throws OutboundError naming the problem. */
export function checkUrlForm(raw: string, policy: OutboundPolicy): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new OutboundError('is not a URL', true)
  }
  if (url.protocol !== 'https:' && !(policy.allowInsecure && url.protocol === 'http:'))
    throw new OutboundError(policy.allowInsecure ? 'must be an http or https URL' : 'must be an https URL', true)
  if (url.username || url.password) throw new OutboundError('must not carry credentials', true)
  return url
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '')

/** Every address `host` resolves to now (itself when it is an address); throws OutboundError when none. */
export async function resolveHost(host: string): Promise<string[]> {
  if (isIP(host)) return [host]
  return new Promise<string[]>((resolve, reject) => {
    lookup(host, { all: true }, (err, found) =>
      err ? reject(new OutboundError(`host ${host} does not resolve`)) : resolve(found.map((a) => a.address)),
    )
  })
}

/** The host's addresses if every one is allowed; throws OutboundError naming the first that is not. */
export async function checkHost(host: string, policy: OutboundPolicy): Promise<string[]> {
  const addresses = await resolveHost(host)
  const refused = addresses.find((a) => !addressAllowed(a, policy))
  if (refused !== undefined) throw new OutboundError(`resolves to ${refused}, which is not a public address`, true)
  return addresses
}

/** Checks the URL's form and every address its host resolves to now (at save time). */
export async function checkUrl(raw: string, policy: OutboundPolicy): Promise<URL> {
  const url = checkUrlForm(raw, policy)
  await checkHost(bareHost(url), policy)
  return url
}

/** An answer of guardedRequest: any status (redirects are answers, never followed), the body bounded. */
export interface OutboundAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

export interface OutboundRequest {
  readonly method?: string
  readonly headers?: Record<string, string>
  readonly body?: string | Buffer
  readonly signal?: AbortSignal
}

/**
 * One request with the policy applied at connect time. The whole exchange ends within
 * policy.timeoutMs, or earlier when signal aborts; an answer larger than policy.maxBytes is an error.
 */
export function guardedRequest(
  raw: string,
  policy: OutboundPolicy,
  req: OutboundRequest = {},
): Promise<OutboundAnswer> {
  const { signal } = req
  return new Promise((resolve, reject) => {
    // NOTE: whatever this starts (the deadline, the abort listener, the request) is stopped when it settles, and
    // fail and succeed do nothing once it has: a late timer, abort or event must not throw out of the process.
    let settled = false
    let request: ClientRequest | undefined
    // (let, not const below: settle may run before the timer is set, and must not touch a variable in its TDZ.)
    let deadline: NodeJS.Timeout | undefined = undefined
    const onAbort = () => fail(new OutboundError('the request was aborted'))
    function settle(): boolean {
      if (settled) return false
      settled = true
      clearTimeout(deadline)
      signal?.removeEventListener('abort', onAbort)
      return true
    }
    function fail(err: Error) {
      if (!settle()) return
      reject(err)
      request?.destroy()
    }
    let url: URL
    try {
      url = checkUrlForm(raw, policy)
    } catch (err) {
      return fail(err as Error)
    }
    const host = bareHost(url)
    if (isIP(host) && !addressAllowed(host, policy))
      return fail(new OutboundError(`${host} is not a public address`, true))
    const headers: Record<string, string> = { ...req.headers }
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body))
    for (const [name, value] of Object.entries(headers)) {
      const problem = headerProblem(name, value)
      if (problem) return fail(new OutboundError(`header ${JSON.stringify(name).slice(1, -1)} ${problem}`, true))
    }
    if (signal?.aborted) return fail(new OutboundError('the request was aborted'))
    deadline = setTimeout(() => fail(new OutboundError(`no answer within ${policy.timeoutMs} ms`)), policy.timeoutMs)
    signal?.addEventListener('abort', onAbort, { once: true })
    const guardedLookup = (
      hostname: string,
      options: LookupOptions,
      callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      lookup(hostname, { ...options, all: true } as LookupAllOptions, (err, addresses) => {
        if (err) return callback(err, '')
        const refused = addresses.find((a) => !addressAllowed(a.address, policy))
        if (refused)
          return callback(
            new OutboundError(`${hostname} resolves to ${refused.address}, which is not a public address`, true),
            '',
          )
        if (options.all) return callback(null, addresses)
        callback(null, addresses[0]!.address, addresses[0]!.family)
      })
    }
    try {
      request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        { method: req.method ?? 'GET', headers, lookup: guardedLookup, agent: false },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = []
          let size = 0
          res.on('data', (chunk: Buffer) => {
            size += chunk.length
            if (size > policy.maxBytes) fail(new OutboundError(`answer is larger than ${policy.maxBytes} bytes`))
            else chunks.push(chunk)
          })
          res.on('end', () => {
            if (settle()) resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })
          })
          res.on('error', fail)
        },
      )
      request.on('error', fail)
      request.end(req.body)
    } catch (err) {
      // http.request checks its options synchronously (a method, a header): the same request would fail every time.
      fail(new OutboundError(`the request could not be made: ${(err as Error).message}`, true))
    }
  })
}

/**
 * GET for jose's customFetch: a fetch Response for a 200 only (a redirect or another status is an
 * OutboundError).
 */
export async function guardedGet(
  raw: string,
  policy: OutboundPolicy,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  const answer = await guardedRequest(raw, policy, { headers, signal })
  if (answer.status >= 300 && answer.status < 400)
    throw new OutboundError(`answered a redirect (${answer.status}); redirects are not followed`)
  if (answer.status !== 200) throw new OutboundError(`answered ${answer.status}, not 200`)
  return new Response(answer.body, {
    status: 200,
    headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
  })
}
