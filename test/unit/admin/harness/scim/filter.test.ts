import { describe, expect, it } from 'vitest'
import { userFilter } from '../../../../../src/admin/harness/scim/filter.js'
import { ScimError } from '../../../../../src/admin/harness/scim/user.js'
import type { User } from '../../../../../src/state/redis/directory.js'
import { scimError } from './support.js'

const user = (over: Partial<User> = {}): User => ({
  id: 'u1',
  userName: 'Alice@Example.com',
  name: { givenName: 'Alice', familyName: 'Smith' },
  emails: [
    { value: 'Alice@Work.example', type: 'Work', primary: true },
    { value: 'alice@home.example', type: 'home' },
  ],
  active: true,
  created: 1_700_000_000_000,
  lastModified: 1_700_000_000_000,
  version: 1,
  ...over,
})

const matches = (expression: string, u: User = user()) => userFilter(expression)(u)

describe('userFilter', () => {
  it('matches everything when there is no filter or only blanks', () => {
    expect(userFilter(undefined)(user())).toBe(true)
    expect(userFilter('')(user({ active: false }))).toBe(true)
    expect(userFilter('   ')(user())).toBe(true)
  })

  it('compares userName case-insensitively (caseExact false), in eq, sw, ew and co', () => {
    expect(matches('userName eq "alice@example.com"')).toBe(true)
    expect(matches('userName eq "ALICE@EXAMPLE.COM"')).toBe(true)
    expect(matches('USERNAME eq "alice@example.com"')).toBe(true)
    expect(matches('userName eq "bob@example.com"')).toBe(false)
    expect(matches('userName sw "ALICE"')).toBe(true)
    expect(matches('userName ew "@EXAMPLE.COM"')).toBe(true)
    expect(matches('userName co "@exam"')).toBe(true)
    expect(matches('userName co "bob"')).toBe(false)
  })

  it('normalizes userName to NFC on both sides, as the uniqueness key does', () => {
    const composed = user({ userName: 'Jos\u00e9' })
    expect(matches('userName eq "jose\u0301"', composed)).toBe(true)
    expect(matches('userName eq "jose"', composed)).toBe(false)
  })

  it('compares email values and types case-insensitively', () => {
    expect(matches('emails.value eq "ALICE@HOME.EXAMPLE"')).toBe(true)
    expect(matches('emails.type eq "WORK"')).toBe(true)
    expect(matches('emails[type eq "work"]')).toBe(true)
    expect(matches('emails[value ew "@WORK.example"]')).toBe(true)
    expect(matches('emails.value eq "nobody@home.example"')).toBe(false)
  })

  it('applies a value filter to one email, not to two different ones', () => {
    // The work address is Alice@Work.example; alice@home.example is the home one.
    expect(matches('emails[type eq "work" and value eq "alice@work.example"]')).toBe(true)
    expect(matches('emails[type eq "work" and value eq "alice@home.example"]')).toBe(false)
    expect(matches('emails[type eq "home" and value eq "alice@work.example"]')).toBe(false)
  })

  it('reads emails[type eq "work"].value eq "x" as a condition on one email', () => {
    expect(matches('emails[type eq "work"].value eq "ALICE@work.example"')).toBe(true)
    expect(matches('emails[type eq "work"].value eq "alice@home.example"')).toBe(false)
    expect(matches('emails[type eq "home"].value sw "alice@home"')).toBe(true)
    expect(matches('emails[type eq "work"].value eq "alice@work.example" and userName eq "alice@example.com"')).toBe(
      true,
    )
    expect(matches('emails[type eq "work"].value eq "alice@work.example" and userName eq "bob@example.com"')).toBe(
      false,
    )
    expect(matches('emails[type eq "other"].value pr')).toBe(false)
    expect(matches('emails[type eq "home"].value pr')).toBe(true)
  })

  it('accepts attributes with the core User schema URN, in any case', () => {
    expect(matches('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "alice@example.com"')).toBe(true)
    expect(matches('URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER:userName eq "bob@example.com"')).toBe(false)
    expect(
      matches('urn:ietf:params:scim:schemas:core:2.0:User:emails[type eq "work"].value eq "alice@work.example"'),
    ).toBe(true)
  })

  it('combines with and, or, not and parentheses', () => {
    expect(matches('userName eq "bob" or userName eq "alice@example.com"')).toBe(true)
    expect(matches('userName eq "alice@example.com" and active eq false')).toBe(false)
    expect(matches('not (userName eq "alice@example.com")')).toBe(false)
    expect(matches('not (userName eq "bob")')).toBe(true)
    expect(matches('(userName eq "bob" or active eq true) and name.familyName eq "Smith"')).toBe(true)
    expect(matches('active eq true', user({ active: false }))).toBe(false)
    expect(matches('active eq false', user({ active: false }))).toBe(true)
  })

  it('supports pr, gt and ne, with absent attributes not present', () => {
    expect(matches('externalId pr')).toBe(false)
    expect(matches('externalId pr', user({ externalId: 'ext-1' }))).toBe(true)
    expect(matches('externalId eq "ext-1"', user({ externalId: 'ext-1' }))).toBe(true)
    expect(matches('externalId eq "EXT-1"', user({ externalId: 'ext-1' }))).toBe(false)
    expect(matches('userName gt "alice"')).toBe(true)
    expect(matches('userName gt "bob"')).toBe(false)
    expect(matches('userName ne "bob"')).toBe(true)
    expect(matches('id eq "u1"')).toBe(true)
  })

  it('keeps userName matching literal for values that look like object keys', () => {
    expect(matches('userName eq "__proto__"', user({ userName: '__proto__' }))).toBe(true)
    expect(matches('userName eq "__proto__"')).toBe(false)
    expect(matches('userName eq "constructor"')).toBe(false)
    // Attribute names that are inherited object members are not attributes of a user.
    expect(matches('__proto__ pr')).toBe(false)
    expect(matches('constructor pr')).toBe(false)
    expect(matches('toString pr')).toBe(false)
    expect(matches('emails[__proto__ pr]')).toBe(false)
  })

  it('refuses filters longer than 1000 characters, and accepts 1000', () => {
    const prefix = 'userName eq "'
    const at = (n: number) => `${prefix}${'a'.repeat(n - prefix.length - 1)}"`
    expect(at(1000)).toHaveLength(1000)
    expect(matches(at(1000))).toBe(false)
    const err = scimError(() => userFilter(at(1001)))
    expect(err).toMatchObject({ status: 400, scimType: 'invalidFilter' })
    expect(scimError(() => userFilter('x'.repeat(100_000)))).toMatchObject({ status: 400, scimType: 'invalidFilter' })
  })

  it.each([
    ['a newline', 'userName eq "a\nb"'],
    ['a tab', 'userName\teq "alice@example.com"'],
    ['NUL', 'userName eq "alice\u0000"'],
    ['DEL', 'userName eq "alice\u007f"'],
    ['a carriage return', 'userName eq "alice@example.com"\r'],
  ])('refuses a filter with %s (control characters)', (_label, expression) => {
    expect(scimError(() => userFilter(expression))).toMatchObject({
      status: 400,
      scimType: 'invalidFilter',
      message: expect.stringMatching(/control characters/),
    })
  })

  it.each([
    'userName eq',
    'userName',
    'userName zz "x"',
    'userName eq "unterminated',
    '(userName eq "x"',
    'emails[type eq "work"',
    'and or not',
    '"just a string"',
    '('.repeat(1000),
    `userName eq "${'\\a'.repeat(493)}`,
  ])('refuses %j as invalidFilter when it cannot be parsed', (expression) => {
    const err = scimError(() => userFilter(expression))
    expect(err).toMatchObject({ status: 400, scimType: 'invalidFilter' })
  })

  it('answers quickly on hostile filters of the maximum length', () => {
    const hostile = [
      `userName eq "${'\\a'.repeat(493)}`,
      `${'a'.repeat(500)}${'['.repeat(500)}`,
      'a['.repeat(500),
      `userName eq ${'1'.repeat(980)}a`,
      `emails[${'type eq "w" and '.repeat(60)}type eq "w"].value eq "x"`,
    ]
    const start = performance.now()
    for (const h of hostile) {
      expect(h.length).toBeLessThanOrEqual(1000)
      try {
        userFilter(h)(user())
      } catch (err) {
        expect(err).toBeInstanceOf(ScimError)
      }
    }
    expect(performance.now() - start).toBeLessThan(2_000)
  })

  it('evaluates users without emails or with unusual shapes without throwing', () => {
    const bare: User = { id: 'u2', userName: 'bob', active: true, created: 0, lastModified: 0, version: 1 }
    expect(matches('emails[type eq "work"]', bare)).toBe(false)
    expect(matches('emails.value eq "bob@example.com"', bare)).toBe(false)
    expect(matches('emails[type eq "work"].value eq "bob@example.com"', bare)).toBe(false)
    expect(matches('emails[type eq "work"]', user({ emails: [{ value: 'untyped@example.com' }] }))).toBe(false)
    expect(matches('emails.value eq "untyped@example.com"', user({ emails: [{ value: 'untyped@example.com' }] }))).toBe(
      true,
    )
  })

  // RFC 7644 3.4.2.2: pr needs a non-empty value.
  it('emails pr is false for a user without emails (and not (emails pr) is true)', () => {
    for (const u of [user({ emails: undefined }), user({ emails: [] })]) {
      expect(matches('emails pr', u)).toBe(false)
      expect(matches('not (emails pr)', u)).toBe(true)
    }
    expect(matches('emails pr', user({ emails: [{ value: 'a@example.com' }] }))).toBe(true)
  })

  // The URN prefix and the `x[...].y op v` rewrite apply to the syntax, never inside a quoted value.
  it('userName eq "urn:ietf:params:scim:schemas:core:2.0:User:bob" compares the whole literal', () => {
    const literal = 'urn:ietf:params:scim:schemas:core:2.0:User:bob'
    expect(matches(`userName eq "${literal}"`, user({ userName: literal }))).toBe(true)
    expect(matches(`userName eq "${literal}"`, user({ userName: 'bob' }))).toBe(false)
  })
  it('userName eq "a[b].c eq d" is a valid filter comparing a literal', () => {
    expect(matches('userName eq "a[b].c eq d"', user({ userName: 'a[b].c eq d' }))).toBe(true)
    expect(matches('userName eq "a[b].c eq d"', user({ userName: 'a' }))).toBe(false)
  })
})
