import { describe, expect, it } from 'vitest'
import { projector } from '../../../../../src/admin/harness/scim/attributes.js'
import { groupView } from '../../../../../src/admin/harness/scim/group.js'
import { USER_SCHEMA, userView } from '../../../../../src/admin/harness/scim/user.js'
import type { Group, User } from '../../../../../src/state/redis/directory.js'
import { scimError } from './support.js'

const BASE = 'https://sluice.example/scim/v2'

const alice: User = {
  id: 'u1',
  userName: 'alice@example.com',
  externalId: 'ext-1',
  name: { givenName: 'Alice', familyName: 'Smith', formatted: 'Alice Smith' },
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

const engineering: Group = {
  id: 'g1',
  displayName: 'Engineering',
  externalId: 'ext-g',
  created: 1_700_000_000_000,
  lastModified: 1_700_000_000_000,
  version: 2,
}

const user = () => userView(alice, BASE)

describe('projector', () => {
  it('drops names of other schemas (no resource here holds them) and accepts $ref', () => {
    const project = projector({
      attributes: 'userName,urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber',
    })
    expect(Object.keys(project(user())).sort()).toEqual(['id', 'schemas', 'userName'])
    const members = projector({ excludedAttributes: 'members.$ref' })(groupView(engineering, BASE, ['u1']))
    expect(members.members).toEqual([{ value: 'u1', type: 'User' }])
  })

  it('returns the resource unchanged when neither list is given (or both are blank)', () => {
    const resource = user()
    for (const p of [
      {},
      { attributes: '' },
      { excludedAttributes: '   ' },
      { attributes: ' ', excludedAttributes: '' },
    ]) {
      expect(projector(p)(resource), JSON.stringify(p)).toBe(resource)
    }
  })

  it('keeps only the attributes asked for, with id and schemas always', () => {
    expect(projector({ attributes: 'userName' })(user())).toStrictEqual({
      schemas: [USER_SCHEMA],
      id: 'u1',
      userName: 'alice@example.com',
    })
    expect(projector({ attributes: 'displayName,active' })(user())).toStrictEqual({
      schemas: [USER_SCHEMA],
      id: 'u1',
      displayName: 'Alice Smith',
      active: true,
    })
    // An attribute the resource does not carry is no error: the answer just lacks it.
    expect(projector({ attributes: 'nickName' })(user())).toStrictEqual({ schemas: [USER_SCHEMA], id: 'u1' })
  })

  it('compares attribute names case-insensitively and keeps the resource’s own key case', () => {
    const out = projector({ attributes: 'USERNAME, DisplayName ,EMAILS' })(user())
    expect(out).toStrictEqual({
      schemas: [USER_SCHEMA],
      id: 'u1',
      userName: 'alice@example.com',
      displayName: 'Alice Smith',
      emails: alice.emails,
    })
    expect(projector({ attributes: 'NAME.GIVENNAME' })(user())).toStrictEqual({
      schemas: [USER_SCHEMA],
      id: 'u1',
      name: { givenName: 'Alice' },
    })
  })

  it('accepts names prefixed by the core User or Group schema URN, in any case', () => {
    expect(
      projector({ attributes: 'urn:ietf:params:scim:schemas:core:2.0:User:name.givenName' })(user()),
    ).toStrictEqual({
      schemas: [USER_SCHEMA],
      id: 'u1',
      name: { givenName: 'Alice' },
    })
    expect(projector({ attributes: 'URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER:userName' })(user())).toStrictEqual({
      schemas: [USER_SCHEMA],
      id: 'u1',
      userName: 'alice@example.com',
    })
    expect(
      projector({ excludedAttributes: 'urn:ietf:params:scim:schemas:core:2.0:User:emails' })(user()),
    ).not.toHaveProperty('emails')
    const group = groupView(engineering, BASE, ['u1'])
    const out = projector({ attributes: 'urn:ietf:params:scim:schemas:core:2.0:Group:displayName' })(group)
    expect(out).toStrictEqual({ schemas: group.schemas, id: 'g1', displayName: 'Engineering' })
  })

  it('keeps the parent of a sub-attribute with only the sub-attributes asked for', () => {
    expect(projector({ attributes: 'name.familyName' })(user())).toStrictEqual({
      schemas: [USER_SCHEMA],
      id: 'u1',
      name: { familyName: 'Smith' },
    })
    expect(projector({ attributes: 'name.givenName,name.familyName' })(user()).name).toStrictEqual({
      givenName: 'Alice',
      familyName: 'Smith',
    })
    // The whole attribute and one of its sub-attributes: the whole attribute.
    expect(projector({ attributes: 'name.givenName,name' })(user()).name).toStrictEqual(alice.name)
    expect(projector({ attributes: 'meta.location' })(user())).toStrictEqual({
      schemas: [USER_SCHEMA],
      id: 'u1',
      meta: { location: `${BASE}/Users/u1` },
    })
  })

  it('applies a sub-attribute to each element of a multi-valued attribute', () => {
    expect(projector({ attributes: 'emails.value' })(user())).toStrictEqual({
      schemas: [USER_SCHEMA],
      id: 'u1',
      emails: [{ value: 'alice@work.example' }, { value: 'alice@home.example' }],
    })
    expect(projector({ attributes: 'emails.type,emails.primary' })(user()).emails).toStrictEqual([
      { type: 'work', primary: true },
      { type: 'home' },
    ])
    const group = groupView(engineering, BASE, ['u1', 'u2'])
    expect(projector({ attributes: 'members.value' })(group).members).toStrictEqual([{ value: 'u1' }, { value: 'u2' }])
  })

  it('drops excluded attributes, whole or one sub-attribute, and keeps everything else', () => {
    const full = user()
    const rest = Object.fromEntries(Object.entries(full).filter(([k]) => k !== 'emails' && k !== 'meta'))
    expect(Object.keys(rest)).toEqual(['schemas', 'id', 'externalId', 'userName', 'name', 'displayName', 'active'])
    expect(projector({ excludedAttributes: 'emails,meta' })(full)).toStrictEqual(rest)
    const withoutGiven = projector({ excludedAttributes: 'name.givenName' })(user())
    expect(withoutGiven.name).toStrictEqual({ familyName: 'Smith', formatted: 'Alice Smith' })
    expect(withoutGiven.userName).toBe('alice@example.com')
    expect(withoutGiven.emails).toStrictEqual(alice.emails)
    expect(projector({ excludedAttributes: 'Emails.Type' })(user()).emails).toStrictEqual([
      { value: 'alice@work.example', primary: true },
      { value: 'alice@home.example' },
    ])
    const group = groupView(engineering, BASE, ['u1'])
    expect(projector({ excludedAttributes: 'members' })(group)).not.toHaveProperty('members')
    expect(projector({ excludedAttributes: 'members.type' })(group).members).toStrictEqual([
      { value: 'u1', $ref: `${BASE}/Users/u1` },
    ])
  })

  it('never drops id or schemas, even when excluded or not asked for', () => {
    const excluded = projector({ excludedAttributes: 'id,schemas,userName' })(user())
    expect(excluded).toMatchObject({ id: 'u1', schemas: [USER_SCHEMA] })
    expect(excluded).not.toHaveProperty('userName')
    expect(projector({ excludedAttributes: 'ID,SCHEMAS' })(user())).toStrictEqual(user())
    expect(Object.keys(projector({ attributes: 'active' })(user())).sort()).toEqual(['active', 'id', 'schemas'])
  })

  it('does not change the resource it projects', () => {
    const resource = user()
    const before = structuredClone(resource)
    projector({ attributes: 'emails.value,name.givenName' })(resource)
    projector({ excludedAttributes: 'emails.type,name.familyName,meta' })(resource)
    expect(resource).toStrictEqual(before)
  })

  it.each([
    ['a character outside a name', 'name.middle-name!'],
    ['three levels', 'name.givenName.first'],
    ['a value filter', 'emails[type eq "work"].value'],
    ['a leading digit', '9lives'],
    ['a space inside', 'user name'],
    ['the schema URN without a name', 'urn:ietf:params:scim:schemas:core:2.0:User:'],
    ['one bad name among good ones', 'userName,display name,active'],
  ])('refuses %s with 400 invalidValue, in attributes and in excludedAttributes', (_label, list) => {
    expect(scimError(() => projector({ attributes: list }))).toMatchObject({ status: 400, scimType: 'invalidValue' })
    expect(scimError(() => projector({ excludedAttributes: list }))).toMatchObject({
      status: 400,
      scimType: 'invalidValue',
    })
  })

  it('refuses a list longer than 2000 characters, checked when the projector is made', () => {
    const long = Array.from({ length: 250 }, () => 'userName').join(',')
    expect(long.length).toBeGreaterThan(2000)
    expect(scimError(() => projector({ attributes: long }))).toMatchObject({ status: 400, scimType: 'invalidValue' })
    expect(scimError(() => projector({ excludedAttributes: long }))).toMatchObject({
      status: 400,
      scimType: 'invalidValue',
    })
    expect(scimError(() => projector({ attributes: 'a'.repeat(2001) }))).toMatchObject({
      status: 400,
      scimType: 'invalidValue',
    })
    // 2000 characters is still accepted.
    expect(projector({ attributes: 'a'.repeat(2000) })(user())).toStrictEqual({ schemas: [USER_SCHEMA], id: 'u1' })
  })
})
