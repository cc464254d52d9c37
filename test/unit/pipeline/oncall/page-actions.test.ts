// Slack request signatures against Slack's own published example ("Verifying requests from Slack"), and email links'
// MACs: altered, foreign and expired ones.
import { describe, expect, it } from 'vitest'
import { linkClaims, linkToken, slackRefusal, slackSignature } from '../../../../src/pipeline/oncall/page-actions.js'
import { SecretBox } from '../../../../src/shared/secret-box.js'

// docs.slack.dev/authentication/verifying-requests-from-slack: the documented secret, timestamp, body and signature.
const SECRET = '8f742231b10e8888abcd99yyyzzz85a5'
const TS = '1531420618'
const BODY =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c'
const SIGNATURE = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503'

describe('Slack signatures', () => {
  it("reproduce Slack's documented example", () => {
    expect(slackSignature(SECRET, TS, BODY)).toBe(SIGNATURE)
    expect(slackRefusal(SECRET, TS, SIGNATURE, BODY, Number(TS) + 60)).toBeUndefined()
  })

  it('refuse a changed body, another secret, a missing or malformed header, and a timestamp 5 minutes away', () => {
    expect(slackRefusal(SECRET, TS, SIGNATURE, `${BODY}&x=1`, Number(TS))).toMatch(/not the signing secret/)
    expect(slackRefusal(`${SECRET}x`, TS, SIGNATURE, BODY, Number(TS))).toMatch(/not the signing secret/)
    expect(slackRefusal(SECRET, TS, SIGNATURE.slice(0, -1), BODY, Number(TS))).toMatch(/not the signing secret/)
    expect(slackRefusal(SECRET, TS, undefined, BODY, Number(TS))).toMatch(/missing/)
    expect(slackRefusal(SECRET, undefined, SIGNATURE, BODY, Number(TS))).toMatch(/Timestamp/)
    expect(slackRefusal(SECRET, '1e9', SIGNATURE, BODY, Number(TS))).toMatch(/not a Unix time/)
    expect(slackRefusal(SECRET, TS, SIGNATURE, BODY, Number(TS) + 301)).toMatch(/5 minutes/)
    expect(slackRefusal(SECRET, TS, SIGNATURE, BODY, Number(TS) - 301)).toMatch(/5 minutes/)
  })
})

describe('email links', () => {
  const box = new SecretBox([Buffer.alloc(32, 7).toString('base64')])
  const other = new SecretBox([Buffer.alloc(32, 8).toString('base64')])
  const claims = {
    accountId: 'acct',
    incidentId: 'inc_1',
    userId: 'u1',
    action: 'acknowledge' as const,
    expiresAt: 1_800_000_000_000,
    nonce: 'n1',
  }
  const token = linkToken(claims, (d) => box.mac('link', d))
  const verify = (b: SecretBox) => (d: string, m: string) => b.verifyMac('link', d, m)

  it('give back their claims', () => {
    expect(linkClaims(token, verify(box))).toEqual(claims)
  })

  it('refuse a token altered anywhere, made under another key, or for another purpose', () => {
    const [body, mac] = token.split('.') as [string, string]
    const altered = Buffer.from(Buffer.from(body, 'base64url').toString().replace('acknowledge', 'resolve')).toString(
      'base64url',
    )
    expect(linkClaims(`${altered}.${mac}`, verify(box))).toMatch(/altered/)
    expect(linkClaims(`${body}.${mac.slice(0, -2)}xx`, verify(box))).toMatch(/altered/)
    expect(linkClaims(token, verify(other))).toMatch(/altered/)
    expect(linkClaims(token, (d, m) => box.verifyMac('other purpose', d, m))).toMatch(/altered/)
    expect(linkClaims('nodot', verify(box))).toMatch(/not a link/)
  })
})
