// Requests to admin-supplied URLs (the SCIM JWKS URL) without server-side request forgery: https
// only; public unicast addresses only (no loopback, private, link-local, metadata, CGNAT, ...),
// checked on the address actually connected to (a DNS answer that changes between the check and the
// request cannot slip through); no redirects; bounded time and size. `allowInsecure` (development,
// tests) also permits http and loopback, never private or link-local targets.
import { lookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

export interface OutboundPolicy {
  readonly allowInsecure: boolean
  readonly timeoutMs: number
  readonly maxBytes: number
}

export class OutboundError extends Error {
  override readonly name = 'OutboundError'
}

function addressAllowed(address: string, policy: OutboundPolicy): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.process(address)
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
    throw new OutboundError('is not a URL')
  }
  if (url.protocol !== 'https:' && !(policy.allowInsecure && url.protocol === 'http:'))
    throw new OutboundError(policy.allowInsecure ? 'must be an http or https URL' : 'must be an https URL')
  if (url.username || url.password) throw new OutboundError('must not carry credentials')
  return url
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '')

/** Checks the URL's form and every address its host resolves to now (at save time). */
export async function checkUrl(raw: string, policy: OutboundPolicy): Promise<URL> {
  const url = checkUrlForm(raw, policy)
  const host = bareHost(url)
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve, reject) => {
        lookup(host, { all: true }, (err, found) =>
          err ? reject(new OutboundError(`host ${host} does not resolve`)) : resolve(found.map((a) => a.address)),
        )
      })
  const refused = addresses.find((a) => !addressAllowed(a, policy))
  if (refused !== undefined) throw new OutboundError(`resolves to ${refused}, which is not a public address`)
  return url
}

/**
 * GET with the policy applied at connect time; answers a fetch Response (for jose's customFetch)
 * for a 200 only. The whole exchange ends within policy.timeoutMs, or earlier when signal aborts.
 */
export function guardedGet(
  raw: string,
  policy: OutboundPolicy,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    let settled = false
    const deadline = setTimeout(
      () => fail(new OutboundError(`no answer within ${policy.timeoutMs} ms`)),
      policy.timeoutMs,
    )
    const onAbort = () => fail(new OutboundError('the fetch was aborted (time limit)'))
    signal?.addEventListener('abort', onAbort, { once: true })
    function fail(err: Error) {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      signal?.removeEventListener('abort', onAbort)
      reject(err)
      req?.destroy()
    }
    let url: URL
    try {
      url = checkUrlForm(raw, policy)
    } catch (err) {
      fail(err as Error)
      return
    }
    const host = bareHost(url)
    if (isIP(host) && !addressAllowed(host, policy)) {
      fail(new OutboundError(`${host} is not a public address`))
      return
    }
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
            new OutboundError(`${hostname} resolves to ${refused.address}, which is not a public address`),
            '',
          )
        if (options.all) return callback(null, addresses)
        callback(null, addresses[0]!.address, addresses[0]!.family)
      })
    }
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: 'GET', headers, lookup: guardedLookup },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0
        if (status >= 300 && status < 400)
          return fail(new OutboundError(`answered a redirect (${status}); redirects are not followed`))
        if (status !== 200) return fail(new OutboundError(`answered ${status}, not 200`))
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > policy.maxBytes) fail(new OutboundError(`answer is larger than ${policy.maxBytes} bytes`))
          else chunks.push(chunk)
        })
        res.on('end', () => {
          if (settled) return
          settled = true
          clearTimeout(deadline)
          signal?.removeEventListener('abort', onAbort)
          resolve(
            new Response(Buffer.concat(chunks), {
              status: 200,
              headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
            }),
          )
        })
        res.on('error', fail)
      },
    )
    req.on('error', fail)
    req.end()
  })
}
