import { describe, expect, it } from 'vitest'
import {
  listParams,
  MAX_PAGE,
  parseUser,
  ScimError,
  USER_SCHEMA,
  userView,
} from '../../../../../src/admin/harness/scim/user.js'
import type { User } from '../../../../../src/state/redis/directory.js'
import { scimError } from './support.js'

const invalid = (body: unknown) => scimError(() => parseUser(body))

describe('ScimError', () => {
  it('carries the HTTP status, the scimType and the detail', () => {
    const err = new ScimError(409, 'uniqueness', 'userName is already taken')
    expect(err).toBeInstanceOf(Error)
    expect(err).toMatchObject({
      name: 'ScimError',
      status: 409,
      scimType: 'uniqueness',
      message: 'userName is already taken',
    })
  })
})

describe('parseUser', () => {
  it('keeps the input attributes, with active true by default and nothing undefined', () => {
    const out = parseUser({ userName: 'alice@example.com' })
    expect(out).toStrictEqual({ userName: 'alice@example.com', active: true })
    expect(Object.keys(out)).toEqual(['userName', 'active'])
  })

  it('reads a full User with any attribute case and ignores read-only and unknown attributes', () => {
    const out = parseUser({
      schemas: [USER_SCHEMA],
      id: 'attacker-chosen',
      meta: { version: 'W/"99"' },
      UserName: 'Alice@Example.com',
      EXTERNALID: 'ext-1',
      Name: { GivenName: 'Alice', familyname: 'Smith', formatted: 'Alice Smith', middleName: 'dropped' },
      displayName: 'Alice',
      Emails: [{ Value: 'alice@work.example', Type: 'work', Primary: true }],
      active: false,
      nickName: 'dropped',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'dropped' },
    })
    expect(out).toStrictEqual({
      userName: 'Alice@Example.com',
      externalId: 'ext-1',
      name: { givenName: 'Alice', familyName: 'Smith', formatted: 'Alice Smith' },
      displayName: 'Alice',
      emails: [{ value: 'alice@work.example', type: 'work', primary: true }],
      active: false,
    })
  })

  it('treats null as absent', () => {
    expect(
      parseUser({ userName: 'a', externalId: null, name: null, displayName: null, emails: null, active: null }),
    ).toStrictEqual({ userName: 'a', active: true })
  })

  it('reads the booleans Entra sends as strings, and refuses other values', () => {
    expect(parseUser({ userName: 'a', active: 'False' }).active).toBe(false)
    expect(parseUser({ userName: 'a', active: 'TRUE' }).active).toBe(true)
    expect(parseUser({ userName: 'a', emails: [{ value: 'a@b', primary: 'True' }] }).emails).toEqual([
      { value: 'a@b', primary: true },
    ])
    for (const active of ['yes', '1', 1, 0, '', ' true', {}, [true]]) {
      expect(invalid({ userName: 'a', active }), JSON.stringify(active)).toMatchObject({
        status: 400,
        scimType: 'invalidValue',
        message: 'active must be a boolean',
      })
    }
    expect(invalid({ userName: 'a', emails: [{ value: 'a@b', primary: 'no' }] })).toMatchObject({
      scimType: 'invalidValue',
    })
  })

  it('requires userName as non-blank text', () => {
    for (const body of [
      {},
      { userName: null },
      { userName: '' },
      { userName: '   ' },
      { userName: 42 },
      { userName: ['a'] },
      { userName: { value: 'a' } },
      { displayName: 'no user name' },
    ]) {
      expect(invalid(body), JSON.stringify(body)).toMatchObject({
        status: 400,
        scimType: 'invalidValue',
        message: expect.stringMatching(/^userName /),
      })
    }
  })

  it('bounds text to 256 characters of well-formed UTF-16', () => {
    expect(parseUser({ userName: 'u'.repeat(256) }).userName).toHaveLength(256)
    expect(invalid({ userName: 'u'.repeat(257) })).toMatchObject({ scimType: 'invalidValue' })
    expect(invalid({ userName: 'a', displayName: 'd'.repeat(257) })).toMatchObject({
      message: expect.stringMatching(/^displayName /),
    })
    expect(invalid({ userName: 'a', externalId: 'e'.repeat(100_000) })).toMatchObject({
      message: expect.stringMatching(/^externalId /),
    })
    expect(invalid({ userName: 'a', name: { familyName: 'f'.repeat(257) } })).toMatchObject({
      message: expect.stringMatching(/^name\.familyName /),
    })
    // Lone surrogates cannot be read back by Redis scripts (cjson); a pair is fine.
    expect(invalid({ userName: 'a\uD800' })).toMatchObject({ scimType: 'invalidValue' })
    expect(invalid({ userName: 'a', displayName: '\uDC00b' })).toMatchObject({ scimType: 'invalidValue' })
    expect(parseUser({ userName: 'smile\uD83D\uDE00' }).userName).toBe('smile\uD83D\uDE00')
  })

  it('refuses a body that is not an object', () => {
    for (const body of [null, undefined, 'alice', 42, true, [], [{ userName: 'a' }]]) {
      expect(invalid(body), JSON.stringify(body) ?? 'undefined').toMatchObject({
        status: 400,
        scimType: 'invalidSyntax',
      })
    }
  })

  it('refuses a name that is not an object, or with parts that are not text', () => {
    for (const name of ['Alice Smith', 5, ['Alice'], true]) {
      expect(invalid({ userName: 'a', name }), JSON.stringify(name)).toMatchObject({
        scimType: 'invalidValue',
        message: 'name must be an object',
      })
    }
    expect(invalid({ userName: 'a', name: { givenName: 7 } })).toMatchObject({
      message: expect.stringMatching(/^name\.givenName /),
    })
  })

  it('checks emails: an array of at most 10 objects with an address as value', () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({ value: `u${i}@example.com` }))
    expect(parseUser({ userName: 'a', emails: ten }).emails).toHaveLength(10)
    expect(parseUser({ userName: 'a', emails: [] }).emails).toEqual([])
    expect(invalid({ userName: 'a', emails: [...ten, { value: 'eleven@example.com' }] })).toMatchObject({
      scimType: 'invalidValue',
      message: expect.stringMatching(/at most 10/),
    })
    for (const emails of ['a@b', { value: 'a@b' }, 3]) {
      expect(invalid({ userName: 'a', emails }), JSON.stringify(emails)).toMatchObject({ scimType: 'invalidValue' })
    }
    for (const e of [null, 'a@b', 5, {}, { value: '' }, { value: 5 }, { type: 'work' }]) {
      expect(invalid({ userName: 'a', emails: [{ value: 'ok@x' }, e] }), JSON.stringify(e)).toMatchObject({
        scimType: 'invalidValue',
        message: expect.stringMatching(/^emails\[1\]/),
      })
    }
    for (const value of ['no-at-sign', '@example.com', 'a@', 'a b@example.com', 'a@b@c', 'a@b\n', ' a@b']) {
      expect(invalid({ userName: 'a', emails: [{ value }] }), value).toMatchObject({
        message: 'emails[0].value must be an email address',
      })
    }
    expect(invalid({ userName: 'a', emails: [{ value: 'a@b', type: 't'.repeat(257) }] })).toMatchObject({
      message: expect.stringMatching(/^emails\[0\]\.type /),
    })
  })

  it('takes prototype keys as plain data and pollutes nothing', () => {
    const body = JSON.parse(
      '{"userName":"a","__proto__":{"active":false,"userName":"b","polluted":1},"name":{"__proto__":{"givenName":"x"}},"emails":[{"value":"a@b","__proto__":{"type":"work"}}]}',
    ) as unknown
    const out = parseUser(body)
    expect(out).toStrictEqual({ userName: 'a', name: {}, emails: [{ value: 'a@b' }], active: true })
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(parseUser({ userName: '__proto__', displayName: 'constructor' })).toStrictEqual({
      userName: '__proto__',
      displayName: 'constructor',
      active: true,
    })
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
  })
})

describe('listParams', () => {
  it('defaults to startIndex 1 and count 100', () => {
    expect(listParams({})).toEqual({ startIndex: 1, count: 100 })
    expect(listParams({ startIndex: '', count: '' })).toEqual({ startIndex: 1, count: 100 })
  })

  it('clamps startIndex below 1 to 1, and count to 0..MAX_PAGE', () => {
    expect(MAX_PAGE).toBe(200)
    expect(listParams({ startIndex: '0', count: '-5' })).toEqual({ startIndex: 1, count: 0 })
    expect(listParams({ startIndex: '-100', count: '0' })).toEqual({ startIndex: 1, count: 0 })
    expect(listParams({ startIndex: '51', count: '200' })).toEqual({ startIndex: 51, count: 200 })
    expect(listParams({ startIndex: '007', count: '201' })).toEqual({ startIndex: 7, count: 200 })
    expect(listParams({ startIndex: '999999999999999', count: '999999999999999' })).toEqual({
      startIndex: 999_999_999_999_999,
      count: 200,
    })
  })

  it.each([
    ['startIndex', '1.5'],
    ['startIndex', 'abc'],
    ['startIndex', '1e3'],
    ['startIndex', ' 1'],
    ['startIndex', '0x10'],
    ['startIndex', '1'.repeat(16)],
    ['count', '+5'],
    ['count', '10 '],
    ['count', 'Infinity'],
    ['count', '--1'],
  ])('refuses %s=%j with 400 invalidValue', (name, raw) => {
    expect(scimError(() => listParams({ [name]: raw }))).toMatchObject({
      status: 400,
      scimType: 'invalidValue',
      message: `${name} must be an integer`,
    })
  })

  it('refuses a repeated parameter or a non-string value', () => {
    for (const raw of [['1', '2'], 5, true, {}, null]) {
      expect(
        scimError(() => listParams({ count: raw })),
        JSON.stringify(raw),
      ).toMatchObject({ status: 400, scimType: 'invalidValue' })
    }
  })
})

describe('userView', () => {
  const stored: User = {
    id: '5f0c1c1e-0000-4000-8000-000000000001',
    userName: 'Alice@Example.com',
    externalId: 'ext-1',
    name: { givenName: 'Alice' },
    displayName: 'Alice',
    emails: [{ value: 'alice@work.example', type: 'work', primary: true }],
    active: false,
    created: Date.UTC(2024, 0, 2, 3, 4, 5, 678),
    lastModified: Date.UTC(2024, 5, 1),
    version: 7,
  }

  it('renders the SCIM resource with meta (ISO dates, location, weak version)', () => {
    expect(userView(stored, 'https://sluice.example/scim/v2/acc')).toStrictEqual({
      schemas: [USER_SCHEMA],
      id: stored.id,
      externalId: 'ext-1',
      userName: 'Alice@Example.com',
      name: { givenName: 'Alice' },
      displayName: 'Alice',
      emails: [{ value: 'alice@work.example', type: 'work', primary: true }],
      active: false,
      meta: {
        resourceType: 'User',
        created: '2024-01-02T03:04:05.678Z',
        lastModified: '2024-06-01T00:00:00.000Z',
        location: `https://sluice.example/scim/v2/acc/Users/${stored.id}`,
        version: 'W/"7"',
      },
    })
  })

  it('omits absent optional attributes and never shows stored-only fields at the top level', () => {
    const bare: User = { id: 'u2', userName: 'bob', active: true, created: 0, lastModified: 1, version: 1 }
    const view = userView(bare, '/scim/v2')
    expect(Object.keys(view).sort()).toEqual(['active', 'id', 'meta', 'schemas', 'userName'])
    expect(view.meta).toEqual({
      resourceType: 'User',
      created: '1970-01-01T00:00:00.000Z',
      lastModified: '1970-01-01T00:00:00.001Z',
      location: '/scim/v2/Users/u2',
      version: 'W/"1"',
    })
    // The same view round-trips through JSON unchanged (no undefined members, no Dates).
    expect(JSON.parse(JSON.stringify(view))).toStrictEqual(view)
  })
})
