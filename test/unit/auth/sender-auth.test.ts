// Sender authentication against signatures made here independently (node:crypto, each preset's
// scheme as its sender documents it), and Standard Webhooks' published test vector.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hmacKeyOf, verifySender, type ResolvedSecret } from '../../../src/auth/sender-auth.js'
import { SecretBox } from '../../../src/shared/secret-box.js'
import type { HmacPreset, SenderAuth } from '../../../src/state/redis/sender-auth.js'

const sha256 = (s: string) => createHash('sha256').update(s).digest()
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0)
const nowSeconds = String(Math.floor(NOW / 1000))
const body = Buffer.from('{"status":"firing","alerts":[{"labels":{"alertname":"Disk","env":"prod"}}],"note":"ü"}')

function hmacAuth(preset: HmacPreset, extra: Partial<SenderAuth> = {}): SenderAuth {
  return { scheme: 'hmac', preset, toleranceSeconds: 300, secrets: [], ...extra }
}
const hmacSecret = (id: string, preset: HmacPreset, secret: string): ResolvedSecret => ({
  id,
  key: hmacKeyOf(preset, secret),
})

describe('bearer and basic', () => {
  const bearer: SenderAuth = { scheme: 'bearer', secrets: [] }
  const tokens = [
    { id: 'old', hash: sha256('token-old-0123456789') },
    { id: 'new', hash: sha256('token-new-0123456789') },
  ]

  it('accepts either of two tokens and names which one', () => {
    for (const [token, id] of [
      ['token-old-0123456789', 'old'],
      ['token-new-0123456789', 'new'],
    ] as const) {
      expect(verifySender(bearer, tokens, { headers: { authorization: `Bearer ${token}` }, body }, NOW)).toEqual({
        ok: true,
        secretId: id,
      })
    }
  })

  it('refuses a wrong, missing or differently-schemed credential', () => {
    const check = (authorization?: string) =>
      verifySender(bearer, tokens, { headers: authorization ? { authorization } : {}, body }, NOW)
    expect(check('Bearer token-old-012345678')).toEqual({ ok: false, reason: 'wrong credentials' })
    expect(check()).toEqual({ ok: false, reason: 'missing credentials' })
    expect(check('Basic dG9rZW4tb2xkLTAxMjM0NTY3ODk=')).toEqual({ ok: false, reason: 'missing credentials' })
  })

  it('checks the user and the password of basic auth', () => {
    const basic: SenderAuth = { scheme: 'basic', username: 'alertmanager', secrets: [] }
    const secrets = [{ id: 'p1', hash: sha256('pass:with:colons-123') }]
    const as = (user: string, pass: string) =>
      verifySender(
        basic,
        secrets,
        { headers: { authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` }, body },
        NOW,
      )
    expect(as('alertmanager', 'pass:with:colons-123')).toEqual({ ok: true, secretId: 'p1' })
    expect(as('alertmanagers', 'pass:with:colons-123')).toEqual({ ok: false, reason: 'wrong credentials' })
    expect(as('alertmanager', 'pass:with:colons-12')).toEqual({ ok: false, reason: 'wrong credentials' })
  })
})

describe('grafana preset', () => {
  const secret = 'grafana-shared-secret-xyz'
  // Grafana's webhook notifier: hex HMAC-SHA256 of "<unix seconds>:<body>" with the timestamp in its own header.
  const sign = (ts: string, b: Buffer, s = secret) => createHmac('sha256', s).update(`${ts}:`).update(b).digest('hex')
  const auth = hmacAuth('grafana', {
    signatureHeader: 'x-grafana-alerting-signature',
    timestampHeader: 'x-grafana-alerting-timestamp',
  })
  const secrets = [hmacSecret('s1', 'grafana', secret)]
  const request = (ts: string, signature: string, b = body) => ({
    headers: { 'x-grafana-alerting-signature': signature, 'x-grafana-alerting-timestamp': ts },
    body: b,
  })

  it('accepts a signature within the tolerance, either side of now', () => {
    for (const skew of [0, -299, 299]) {
      const ts = String(Number(nowSeconds) + skew)
      expect(verifySender(auth, secrets, request(ts, sign(ts, body)), NOW)).toEqual({ ok: true, secretId: 's1' })
    }
  })

  it('refuses a replay outside the tolerance, a body changed by one byte, and a signature of another secret', () => {
    const old = String(Number(nowSeconds) - 301)
    expect(verifySender(auth, secrets, request(old, sign(old, body)), NOW)).toEqual({
      ok: false,
      reason: 'timestamp outside tolerance',
    })
    const changed = Buffer.from(body)
    changed[10] = changed[10]! ^ 1
    expect(verifySender(auth, secrets, request(nowSeconds, sign(nowSeconds, body), changed), NOW)).toEqual({
      ok: false,
      reason: 'signature mismatch',
    })
    expect(verifySender(auth, secrets, request(nowSeconds, sign(nowSeconds, body, 'another-secret')), NOW)).toEqual({
      ok: false,
      reason: 'signature mismatch',
    })
    // The timestamp is signed: moving it forward breaks the signature.
    const later = String(Number(nowSeconds) + 5)
    expect(verifySender(auth, secrets, request(later, sign(nowSeconds, body)), NOW)).toEqual({
      ok: false,
      reason: 'signature mismatch',
    })
  })

  it('says what is missing', () => {
    expect(verifySender(auth, secrets, { headers: {}, body }, NOW)).toEqual({ ok: false, reason: 'missing signature' })
    expect(
      verifySender(auth, secrets, { headers: { 'x-grafana-alerting-signature': sign(nowSeconds, body) }, body }, NOW),
    ).toEqual({ ok: false, reason: 'missing timestamp' })
    expect(verifySender(auth, secrets, request(nowSeconds, 'zz'), NOW)).toEqual({
      ok: false,
      reason: 'malformed signature',
    })
  })

  it('reads the headers the integration names', () => {
    const custom = { ...auth, signatureHeader: 'x-sig', timestampHeader: 'x-ts' }
    const req = { headers: { 'x-sig': sign(nowSeconds, body), 'x-ts': nowSeconds }, body }
    expect(verifySender(custom, secrets, req, NOW).ok).toBe(true)
  })

  it('rotates: signatures of the old and the new secret both pass while both are active', () => {
    const both = [hmacSecret('old', 'grafana', secret), hmacSecret('new', 'grafana', 'the-new-secret-000')]
    expect(verifySender(auth, both, request(nowSeconds, sign(nowSeconds, body)), NOW)).toEqual({
      ok: true,
      secretId: 'old',
    })
    expect(verifySender(auth, both, request(nowSeconds, sign(nowSeconds, body, 'the-new-secret-000')), NOW)).toEqual({
      ok: true,
      secretId: 'new',
    })
  })

  it('refuses every request when its secret cannot be unsealed, and says so', () => {
    expect(verifySender(auth, [{ id: 's1' }], request(nowSeconds, sign(nowSeconds, body)), NOW)).toEqual({
      ok: false,
      reason: 'secret unavailable',
    })
  })
})

describe('github preset', () => {
  const secret = "It's a Secret to Everybody"
  const auth = hmacAuth('github')
  const secrets = [hmacSecret('g', 'github', secret)]

  it("matches GitHub's documented example", () => {
    // docs.github.com, "Validating webhook deliveries": this secret and payload give this signature.
    const req = {
      headers: { 'x-hub-signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17' },
      body: Buffer.from('Hello, World!'),
    }
    expect(verifySender(auth, secrets, req, NOW)).toEqual({ ok: true, secretId: 'g' })
  })

  it('checks sha256=<hex> of the body, with no timestamp', () => {
    const sig = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
    expect(verifySender(auth, secrets, { headers: { 'x-hub-signature-256': sig }, body }, NOW).ok).toBe(true)
    expect(
      verifySender(
        auth,
        secrets,
        { headers: { 'x-hub-signature-256': sig }, body: Buffer.concat([body, Buffer.from(' ')]) },
        NOW,
      ),
    ).toEqual({ ok: false, reason: 'signature mismatch' })
    expect(
      verifySender(auth, secrets, { headers: { 'x-hub-signature-256': sig.replace('sha256=', 'sha1=') }, body }, NOW),
    ).toEqual({ ok: false, reason: 'malformed signature' })
  })
})

describe('standard-webhooks preset', () => {
  it("passes the specification's published vector", () => {
    // github.com/standard-webhooks/standard-webhooks, the libraries' shared test case.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const ts = '1614265330'
    const req = {
      headers: {
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': ts,
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      },
      body: Buffer.from('{"test": 2432232314}'),
    }
    const auth = hmacAuth('standard-webhooks')
    const secrets = [hmacSecret('w', 'standard-webhooks', secret)]
    expect(verifySender(auth, secrets, req, Number(ts) * 1000 + 1000)).toEqual({
      ok: true,
      secretId: 'w',
      messageId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    })
    expect(verifySender(auth, secrets, req, (Number(ts) + 301) * 1000)).toEqual({
      ok: false,
      reason: 'timestamp outside tolerance',
    })
  })

  it('finds the v1 signature among several, and signs id, timestamp and body', () => {
    const key = randomBytes(32)
    const secret = `whsec_${key.toString('base64')}`
    const sig = createHmac('sha256', key).update(`msg_1.${nowSeconds}.`).update(body).digest('base64')
    const auth = hmacAuth('standard-webhooks')
    const secrets = [hmacSecret('w', 'standard-webhooks', secret)]
    const req = (id: string, signature: string) => ({
      headers: { 'webhook-id': id, 'webhook-timestamp': nowSeconds, 'webhook-signature': signature },
      body,
    })
    expect(verifySender(auth, secrets, req('msg_1', `v1a,xyz v1,AAAA v1,${sig}`), NOW).ok).toBe(true)
    expect(verifySender(auth, secrets, req('msg_2', `v1,${sig}`), NOW)).toEqual({
      ok: false,
      reason: 'signature mismatch',
    })
    expect(verifySender(auth, secrets, req('msg_1', `v2,${sig}`), NOW)).toEqual({
      ok: false,
      reason: 'malformed signature',
    })
  })

  it('names the verified webhook-id (the key of replays), and refuses one over 256 characters or with spaces as malformed', () => {
    const key = randomBytes(32)
    const auth = hmacAuth('standard-webhooks')
    const secrets = [hmacSecret('w', 'standard-webhooks', `whsec_${key.toString('base64')}`)]
    const signed = (id: string) => ({
      headers: {
        'webhook-id': id,
        'webhook-timestamp': nowSeconds,
        'webhook-signature': `v1,${createHmac('sha256', key).update(`${id}.${nowSeconds}.`).update(body).digest('base64')}`,
      },
      body,
    })
    const longest = `msg_${'x'.repeat(252)}`
    expect(verifySender(auth, secrets, signed(longest), NOW)).toEqual({ ok: true, secretId: 'w', messageId: longest })
    const problem = { field: 'webhook-id', problem: 'must be 1 to 256 printable ASCII characters without spaces' }
    for (const id of [`${longest}x`, 'msg 1', 'msg_\u00e9'])
      expect(verifySender(auth, secrets, signed(id), NOW)).toEqual({
        ok: false,
        reason: 'malformed signature',
        problem,
      })
    // Other presets carry no message id.
    const grafana = hmacAuth('grafana')
    const sig = createHmac('sha256', 'grafana-secret-0123').update(`${nowSeconds}:`).update(body).digest('hex')
    expect(
      verifySender(
        grafana,
        [hmacSecret('g', 'grafana', 'grafana-secret-0123')],
        { headers: { 'x-grafana-alerting-signature': sig, 'x-grafana-alerting-timestamp': nowSeconds }, body },
        NOW,
      ),
    ).toEqual({ ok: true, secretId: 'g' })
  })
})

describe('SecretBox', () => {
  it('opens what it sealed, with the key that sealed it among others, and nothing altered or foreign', () => {
    const k1 = randomBytes(32).toString('base64')
    const k2 = randomBytes(32).toString('hex')
    const sealed = new SecretBox([k1]).seal('hmac-secret-ü')
    expect(sealed).not.toContain('hmac-secret')
    expect(new SecretBox([k2, k1]).open(sealed)).toBe('hmac-secret-ü')
    expect(new SecretBox([k2]).open(sealed)).toBeUndefined()
    const raw = Buffer.from(sealed.split('.')[2]!, 'base64')
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 1
    const [v, id] = sealed.split('.')
    expect(new SecretBox([k1]).open(`${v}.${id}.${raw.toString('base64')}`)).toBeUndefined()
    expect(() => new SecretBox([]).seal('x')).toThrow(/SLUICE_SECRETS_KEY/)
  })
})
