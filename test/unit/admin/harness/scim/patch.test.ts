import { describe, expect, it } from 'vitest'
import { applyPatch } from '../../../../../src/admin/harness/scim/patch.js'
import { PATCH_SCHEMA } from '../../../../../src/admin/harness/scim/user.js'
import type { User } from '../../../../../src/state/redis/directory.js'
import { scimError } from './support.js'

const alice: User = {
  id: 'u1',
  userName: 'alice@example.com',
  externalId: 'ext-1',
  name: { givenName: 'Alice', familyName: 'Smith' },
  displayName: 'Alice Smith',
  emails: [
    { value: 'alice@work.example', type: 'work', primary: true },
    { value: 'alice@home.example', type: 'home' },
  ],
  active: true,
  created: 1_700_000_000_000,
  lastModified: 1_700_000_000_500,
  version: 3,
}

const bare: User = { id: 'u2', userName: 'bob', active: true, created: 0, lastModified: 0, version: 1 }

const patch = (...Operations: unknown[]) => ({ schemas: [PATCH_SCHEMA], Operations })

describe('applyPatch', () => {
  it('replaces simple attributes by path and returns only input attributes', () => {
    const out = applyPatch(
      alice,
      patch({ op: 'replace', path: 'displayName', value: 'Al' }, { op: 'replace', path: 'externalId', value: 'ext-2' }),
    )
    expect(out).toStrictEqual({
      userName: 'alice@example.com',
      externalId: 'ext-2',
      name: { givenName: 'Alice', familyName: 'Smith' },
      displayName: 'Al',
      emails: alice.emails,
      active: true,
    })
    expect(out).not.toHaveProperty('id')
    expect(out).not.toHaveProperty('version')
  })

  it('applies what Microsoft Entra sends: capitalised ops, "False", name.* paths, typed email, enterprise extension', () => {
    const out = applyPatch(
      alice,
      patch(
        { op: 'Replace', path: 'name.givenName', value: 'Alicia' },
        { op: 'Replace', path: 'name.familyName', value: 'Jones' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'alicia@work.example' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber', value: '42' },
        { op: 'Replace', path: 'active', value: 'False' },
      ),
    )
    expect(out.name).toEqual({ givenName: 'Alicia', familyName: 'Jones' })
    expect(out.emails).toEqual([
      { value: 'alicia@work.example', type: 'work', primary: true },
      { value: 'alice@home.example', type: 'home' },
    ])
    expect(out.active).toBe(false)
    expect(JSON.stringify(out)).not.toMatch(/employeeNumber|42/)
    expect(
      applyPatch({ ...alice, active: false }, patch({ op: 'Replace', path: 'active', value: 'True' })).active,
    ).toBe(true)
  })

  it('applies what Okta sends to deactivate: replace without a path, with id in the value', () => {
    const out = applyPatch(alice, patch({ op: 'replace', value: { id: 'u1', active: false } }))
    expect(out.active).toBe(false)
    expect(out.userName).toBe('alice@example.com')
    expect(out).not.toHaveProperty('id')
  })

  it('merges name without a path and with path "name", leaving other sub-attributes', () => {
    expect(
      applyPatch(alice, patch({ op: 'replace', value: { Name: { givenName: 'Al' }, displayName: 'Al S' } })),
    ).toMatchObject({
      name: { givenName: 'Al', familyName: 'Smith' },
      displayName: 'Al S',
    })
    expect(applyPatch(alice, patch({ op: 'add', path: 'name', value: { formatted: 'Ms Alice Smith' } })).name).toEqual({
      givenName: 'Alice',
      familyName: 'Smith',
      formatted: 'Ms Alice Smith',
    })
    expect(applyPatch(bare, patch({ op: 'add', path: 'name.givenName', value: 'Bob' })).name).toEqual({
      givenName: 'Bob',
    })
  })

  it('accepts paths with the core schema URN, in any case', () => {
    const out = applyPatch(
      alice,
      patch(
        { op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:displayName', value: 'X' },
        { op: 'replace', path: 'URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER:name.familyName', value: 'Y' },
        { op: 'replace', value: { 'urn:ietf:params:scim:schemas:core:2.0:User:externalId': 'ext-9' } },
      ),
    )
    expect(out).toMatchObject({ displayName: 'X', name: { familyName: 'Y' }, externalId: 'ext-9' })
  })

  it('ignores attributes of other schemas with and without a path, also on remove', () => {
    const out = applyPatch(
      alice,
      patch(
        {
          op: 'add',
          value: {
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'R&D' },
            displayName: 'Kept',
          },
        },
        { op: 'remove', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager' },
      ),
    )
    expect(out).toStrictEqual(applyPatch(alice, patch({ op: 'replace', path: 'displayName', value: 'Kept' })))
    expect(JSON.stringify(out)).not.toMatch(/department|R&D|manager/)
  })

  it('adds emails: an array appends; a typed path adds an email of that type or replaces its value', () => {
    expect(
      applyPatch(alice, patch({ op: 'add', path: 'emails', value: [{ value: 'a2@x.example', type: 'other' }] })).emails,
    ).toHaveLength(3)
    expect(
      applyPatch(alice, patch({ op: 'add', value: { emails: [{ value: 'a3@x.example' }] } })).emails?.map(
        (e) => e.value,
      ),
    ).toEqual(['alice@work.example', 'alice@home.example', 'a3@x.example'])
    expect(
      applyPatch(alice, patch({ op: 'replace', path: 'emails', value: [{ value: 'only@x.example' }] })).emails,
    ).toEqual([{ value: 'only@x.example' }])
    expect(
      applyPatch(bare, patch({ op: 'Add', path: 'emails[type eq "work"].value', value: 'bob@work.example' })).emails,
    ).toEqual([{ type: 'work', value: 'bob@work.example' }])
    // The type compares case-insensitively: the existing work email is updated, not duplicated.
    expect(
      applyPatch(alice, patch({ op: 'replace', path: 'emails[type eq "WORK"].value', value: 'new@work.example' }))
        .emails,
    ).toEqual([
      { value: 'new@work.example', type: 'work', primary: true },
      { value: 'alice@home.example', type: 'home' },
    ])
  })

  it('removes attributes, name parts and typed emails', () => {
    const out = applyPatch(
      alice,
      patch(
        { op: 'remove', path: 'displayName' },
        { op: 'Remove', path: 'name.givenName' },
        { op: 'remove', path: 'emails[type eq "home"].value' },
        { op: 'remove', path: 'externalId' },
      ),
    )
    expect(out).toStrictEqual({
      userName: 'alice@example.com',
      name: { familyName: 'Smith' },
      emails: [{ value: 'alice@work.example', type: 'work', primary: true }],
      active: true,
    })
    expect(applyPatch(alice, patch({ op: 'remove', path: 'emails' }))).not.toHaveProperty('emails')
    expect(applyPatch(alice, patch({ op: 'remove', path: 'name' }))).not.toHaveProperty('name')
  })

  it('refuses to remove userName (mutability), and a remove without a path (noTarget)', () => {
    expect(scimError(() => applyPatch(alice, patch({ op: 'remove', path: 'userName' })))).toMatchObject({
      status: 400,
      scimType: 'mutability',
    })
    expect(
      scimError(() =>
        applyPatch(alice, patch({ op: 'remove', path: 'urn:ietf:params:scim:schemas:core:2.0:User:USERNAME' })),
      ),
    ).toMatchObject({ status: 400, scimType: 'mutability' })
    expect(scimError(() => applyPatch(alice, patch({ op: 'remove' })))).toMatchObject({
      status: 400,
      scimType: 'noTarget',
    })
  })

  it('validates the result as a whole User', () => {
    expect(scimError(() => applyPatch(alice, patch({ op: 'replace', path: 'userName', value: '' })))).toMatchObject({
      scimType: 'invalidValue',
    })
    expect(scimError(() => applyPatch(alice, patch({ op: 'replace', path: 'userName', value: null })))).toMatchObject({
      scimType: 'invalidValue',
    })
    expect(
      scimError(() => applyPatch(alice, patch({ op: 'replace', path: 'displayName', value: 'x'.repeat(257) }))),
    ).toMatchObject({ scimType: 'invalidValue' })
    expect(scimError(() => applyPatch(alice, patch({ op: 'replace', path: 'active', value: 'yes' })))).toMatchObject({
      scimType: 'invalidValue',
    })
    expect(
      scimError(() =>
        applyPatch(alice, patch({ op: 'add', path: 'emails[type eq "other"].value', value: 'not-an-email' })),
      ),
    ).toMatchObject({ scimType: 'invalidValue' })
    expect(scimError(() => applyPatch(alice, patch({ op: 'add', path: 'name', value: 'Alice' })))).toMatchObject({
      scimType: 'invalidValue',
    })
    const nine = Array.from({ length: 9 }, (_, i) => ({ value: `e${i}@x.example` }))
    expect(scimError(() => applyPatch(alice, patch({ op: 'add', path: 'emails', value: nine })))).toMatchObject({
      scimType: 'invalidValue',
    })
    expect(applyPatch(alice, patch({ op: 'add', path: 'emails', value: nine.slice(1) })).emails).toHaveLength(10)
  })

  it('refuses bodies that are not a PatchOp of 1 to 50 operations', () => {
    for (const body of [
      null,
      'x',
      42,
      {},
      { Operations: [] },
      { Operations: {} },
      { Operations: 'replace' },
      [{ op: 'replace', path: 'active', value: false }],
    ]) {
      expect(
        scimError(() => applyPatch(alice, body)),
        JSON.stringify(body),
      ).toMatchObject({ status: 400, scimType: 'invalidSyntax' })
    }
    const op = { op: 'replace', path: 'displayName', value: 'n' }
    expect(applyPatch(alice, { Operations: Array.from({ length: 50 }, () => op) }).displayName).toBe('n')
    expect(scimError(() => applyPatch(alice, { Operations: Array.from({ length: 51 }, () => op) }))).toMatchObject({
      scimType: 'invalidSyntax',
    })
    // the lower-case member name is accepted too
    expect(applyPatch(alice, { operations: [op] }).displayName).toBe('n')
  })

  it('refuses malformed operations', () => {
    for (const o of [
      null,
      'replace',
      7,
      { path: 'active', value: false },
      { op: 'delete', path: 'active' },
      { op: 'move', path: 'active' },
      { op: 'replace ', path: 'active', value: false },
      { op: {}, path: 'active', value: false },
      [{ op: 'replace' }],
    ]) {
      expect(
        scimError(() => applyPatch(alice, patch(o))),
        JSON.stringify(o),
      ).toMatchObject({ status: 400, scimType: 'invalidSyntax' })
    }
    for (const value of [undefined, null, 'Alice', ['x'], 5]) {
      expect(scimError(() => applyPatch(alice, patch({ op: 'replace', value })))).toMatchObject({
        status: 400,
        scimType: 'invalidValue',
      })
    }
    expect(scimError(() => applyPatch(alice, patch({ op: 'replace', path: 42, value: 'x' })))).toMatchObject({
      scimType: 'invalidPath',
    })
    expect(
      scimError(() => applyPatch(alice, patch({ op: 'replace', path: ['displayName'], value: 'x' }))),
    ).toMatchObject({ scimType: 'invalidPath' })
  })

  it.each([
    ['nickName', 'nickName'],
    ['name.middleName', 'name.middleName'],
    ['emails[type eq "work"].display', 'emails[type eq "work"].display'],
    ['active.value', 'active.value'],
    ['10,000 characters', 'x'.repeat(10_000)],
  ])('refuses the unknown path %s (invalidPath) on add, replace and remove', (_label, path) => {
    for (const op of ['add', 'replace', 'remove']) {
      expect(scimError(() => applyPatch(alice, patch({ op, path, value: 'x' })))).toMatchObject({
        status: 400,
        scimType: 'invalidPath',
      })
    }
  })

  it('applies value-filtered and sub-attribute paths of emails (RFC 7644 3.5.2)', () => {
    const two = {
      ...alice,
      emails: [
        { value: 'a@work.example', type: 'work', primary: true },
        { value: 'a@home.example', type: 'home' },
      ],
    }
    expect(applyPatch(two, patch({ op: 'remove', path: 'emails[type eq "work"]' })).emails).toEqual([
      { value: 'a@home.example', type: 'home' },
    ])
    expect(
      applyPatch(two, patch({ op: 'replace', path: 'emails[type eq "HOME"].value', value: 'new@home.example' })).emails,
    ).toEqual([
      { value: 'a@work.example', type: 'work', primary: true },
      { value: 'new@home.example', type: 'home' },
    ])
    expect(applyPatch(two, patch({ op: 'remove', path: 'emails[value eq "A@HOME.example"]' })).emails).toEqual([
      { value: 'a@work.example', type: 'work', primary: true },
    ])
    expect(
      applyPatch(two, patch({ op: 'replace', path: 'emails[type eq "work"].primary', value: 'False' })).emails![0],
    ).toEqual({ value: 'a@work.example', type: 'work', primary: false })
    expect(applyPatch(bare, patch({ op: 'add', path: 'emails.value', value: 'b@x.example' })).emails).toEqual([
      { value: 'b@x.example' },
    ])
    expect(
      scimError(() =>
        applyPatch(two, patch({ op: 'replace', path: 'emails[primary eq false].value', value: 'x@x.example' })),
      ),
    ).toMatchObject({ status: 400, scimType: 'noTarget' })
    // Entra replaces the work email of a user who has none: it is added.
    expect(
      applyPatch(bare, patch({ op: 'Replace', path: 'emails[type eq "work"].value', value: 'w@x.example' })).emails,
    ).toEqual([{ type: 'work', value: 'w@x.example' }])
  })

  it('removes active, which then stays absent (it is not reset to true)', () => {
    const user = applyPatch({ ...alice, active: false }, patch({ op: 'remove', path: 'active' }))
    expect(user).not.toHaveProperty('active')
    expect(applyPatch(bare, patch({ op: 'add', path: 'active', value: 'False' })).active).toBe(false)
  })

  it('treats prototype keys as unknown attributes and pollutes nothing', () => {
    const hostile = [
      JSON.parse('{"op":"add","value":{"__proto__":{"polluted":"yes"}}}') as unknown,
      JSON.parse('{"op":"add","value":{"name":{"__proto__":{"polluted":"yes"}}}}') as unknown,
      { op: 'add', path: '__proto__', value: { polluted: 'yes' } },
      { op: 'add', path: 'constructor', value: 'x' },
      { op: 'replace', path: 'hasOwnProperty', value: 'x' },
      { op: 'add', path: 'name.__proto__', value: { polluted: 'yes' } },
      { op: 'add', path: 'name.constructor', value: 'x' },
      { op: 'remove', path: '__proto__' },
      { op: 'remove', path: 'name.toString' },
    ]
    for (const o of hostile) {
      expect(
        scimError(() => applyPatch(alice, patch(o))),
        JSON.stringify(o),
      ).toMatchObject({ status: 400, scimType: 'invalidPath' })
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    // A typed email whose type is a prototype key is ordinary data.
    expect(
      applyPatch(bare, patch({ op: 'add', path: 'emails[type eq "__proto__"].value', value: 'p@x.example' })).emails,
    ).toEqual([{ type: '__proto__', value: 'p@x.example' }])
  })

  it('ignores read-only attributes on add and replace', () => {
    const out = applyPatch(
      alice,
      patch(
        { op: 'replace', path: 'id', value: 'other' },
        { op: 'replace', path: 'meta', value: { version: 'W/"9"' } },
        { op: 'add', path: 'schemas', value: [] },
        { op: 'replace', value: { meta: {}, schemas: ['x'] } },
      ),
    )
    expect(out).toStrictEqual(applyPatch(alice, patch({ op: 'replace', path: 'active', value: true })))
  })

  it('does not change the user it is given', () => {
    const before = structuredClone(alice)
    const frozen = deepFreeze(structuredClone(alice))
    applyPatch(
      frozen,
      patch(
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'z@work.example' },
        { op: 'remove', path: 'name.givenName' },
        { op: 'add', path: 'emails', value: [{ value: 'more@x.example' }] },
        { op: 'replace', path: 'active', value: false },
      ),
    )
    expect(frozen).toEqual(before)
  })

  it('refuses an op that is not a string ({"toString":1}, ["replace"]) with 400 invalidSyntax', () => {
    for (const op of [{ toString: 1 }, ['replace'], 1, null]) {
      const err = scimError(() => applyPatch(alice, patch({ op, path: 'active', value: false })))
      expect([err.status, err.scimType]).toEqual([400, 'invalidSyntax'])
    }
  })

  it('remove emails[type eq "work"].value on a user without emails is a no-op, as with emails []', () => {
    const path = 'emails[type eq "work"].value'
    expect(applyPatch(bare, patch({ op: 'remove', path })).emails).toBeUndefined()
    expect(applyPatch({ ...bare, emails: [] }, patch({ op: 'remove', path })).emails).toEqual([])
  })
})

function deepFreeze<T>(o: T): T {
  if (typeof o === 'object' && o !== null) {
    for (const v of Object.values(o)) deepFreeze(v)
    Object.freeze(o)
  }
  return o
}
