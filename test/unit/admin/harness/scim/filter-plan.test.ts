import { describe, expect, it } from 'vitest'
import { resourceFilter } from '../../../../../src/admin/harness/scim/filter.js'
import type { Group, User } from '../../../../../src/state/redis/directory.js'
import { scimError } from './support.js'

const userPlan = (expression: string) => resourceFilter(expression, 'User').plan
const groupPlan = (expression: string) => resourceFilter(expression, 'Group').plan

const alice: User = {
  id: 'u1',
  userName: 'Alice@Example.com',
  emails: [{ value: 'Alice@Work.example', type: 'Work' }],
  active: true,
  created: 0,
  lastModified: 0,
  version: 1,
}

const engineering: Group = {
  id: 'g1',
  displayName: 'Engineering',
  externalId: 'ext-g',
  created: 0,
  lastModified: 0,
  version: 1,
}

describe('resourceFilter plan (Users)', () => {
  it('plans no lookup for emails or members compared without a sub-attribute (they match nothing)', () => {
    expect(resourceFilter('emails eq "a@b.c"', 'User').plan).toBeUndefined()
    expect(resourceFilter('members eq "u1"', 'Group').plan).toBeUndefined()
  })

  it('has no plan and accepts everything without a filter', () => {
    for (const expression of [undefined, '', '  ']) {
      const f = resourceFilter(expression, 'User')
      expect(f.plan).toBeUndefined()
      expect(f.needsMembers).toBe(false)
      expect(f.test({ ...alice, active: false })).toBe(true)
    }
  })

  it('looks userName up lower-cased (caseExact false), also with the schema URN', () => {
    expect(userPlan('userName eq "X"')).toEqual([{ attribute: 'userName', value: 'x' }])
    expect(userPlan('USERNAME eq "Alice@Example.COM"')).toEqual([{ attribute: 'userName', value: 'alice@example.com' }])
    expect(userPlan('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "X"')).toEqual([
      { attribute: 'userName', value: 'x' },
    ])
  })

  it('looks externalId and id up as they are (caseExact)', () => {
    expect(userPlan('externalId eq "AbC"')).toEqual([{ attribute: 'externalId', value: 'AbC' }])
    expect(userPlan('id eq "2819c223-7F76-453a"')).toEqual([{ attribute: 'id', value: '2819c223-7F76-453a' }])
  })

  it('looks an email up lower-cased, from a value filter or a sub-attribute path', () => {
    expect(userPlan('emails[type eq "work"].value eq "A@B.C"')).toEqual([{ attribute: 'email', value: 'a@b.c' }])
    expect(userPlan('emails[value eq "A@B.C"]')).toEqual([{ attribute: 'email', value: 'a@b.c' }])
    expect(userPlan('emails[type eq "work" and value eq "A@B.C"]')).toEqual([{ attribute: 'email', value: 'a@b.c' }])
    expect(userPlan('emails.value eq "Alice@Work.Example"')).toEqual([
      { attribute: 'email', value: 'alice@work.example' },
    ])
  })

  it('plans an and from its indexed side', () => {
    expect(userPlan('userName eq "a" and active eq true')).toEqual([{ attribute: 'userName', value: 'a' }])
    expect(userPlan('active eq true and userName eq "a"')).toEqual([{ attribute: 'userName', value: 'a' }])
    expect(userPlan('active eq true and (emails.value eq "A@B.C")')).toEqual([{ attribute: 'email', value: 'a@b.c' }])
    expect(userPlan('active eq true and displayName sw "A"')).toBeUndefined()
  })

  it('plans an or only when each side is indexed, as the union of their lookups', () => {
    expect(userPlan('userName eq "a" or userName eq "b"')).toEqual([
      { attribute: 'userName', value: 'a' },
      { attribute: 'userName', value: 'b' },
    ])
    expect(userPlan('userName eq "A" or emails.value eq "B@C.D" or externalId eq "E"')).toEqual([
      { attribute: 'userName', value: 'a' },
      { attribute: 'email', value: 'b@c.d' },
      { attribute: 'externalId', value: 'E' },
    ])
    expect(userPlan('userName eq "a" or active eq true')).toBeUndefined()
    expect(userPlan('active eq true or userName eq "a"')).toBeUndefined()
  })

  it('needs a scan for conditions no index answers', () => {
    for (const expression of [
      'active eq true',
      'displayName eq "Alice"',
      'userName ne "a"',
      'userName sw "a"',
      'userName co "a"',
      'userName pr',
      'not (userName eq "a")',
      'emails[type eq "work"]',
      'emails.type eq "work"',
      'emails[value ne "a@b.c"]',
      'externalId eq 5',
    ]) {
      expect(userPlan(expression), expression).toBeUndefined()
    }
  })

  it('does not plan value eq outside a value filter', () => {
    expect(userPlan('value eq "x"')).toBeUndefined()
    expect(userPlan('userName eq "a" or value eq "x"')).toBeUndefined()
  })

  it('does not plan Group attributes on Users', () => {
    expect(userPlan('members[value eq "u1"]')).toBeUndefined()
    expect(userPlan('members.value eq "u1"')).toBeUndefined()
    expect(resourceFilter('members.value eq "u1"', 'User').needsMembers).toBe(false)
  })

  it('plans only lookups that hold the matches the predicate finds', () => {
    const f = resourceFilter('emails[type eq "work"].value eq "ALICE@work.EXAMPLE"', 'User')
    expect(f.test(alice)).toBe(true)
    expect(f.plan).toEqual([{ attribute: 'email', value: 'alice@work.example' }])
    const g = resourceFilter('userName eq "ALICE@EXAMPLE.COM" and active eq true', 'User')
    expect(g.test(alice)).toBe(true)
    expect(g.test({ ...alice, active: false })).toBe(false)
    expect(g.plan).toEqual([{ attribute: 'userName', value: 'alice@example.com' }])
  })

  it('refuses a filter that cannot be parsed with 400 invalidFilter', () => {
    for (const expression of ['userName eq', 'userName xx "a"', 'x'.repeat(1001), 'userName eq "a\nb"']) {
      expect(
        scimError(() => resourceFilter(expression, 'User')),
        JSON.stringify(expression),
      ).toMatchObject({ status: 400, scimType: 'invalidFilter' })
    }
  })
})

describe('resourceFilter plan (Groups)', () => {
  it('looks displayName up lower-cased, externalId and id as they are', () => {
    expect(groupPlan('displayName eq "Eng"')).toEqual([{ attribute: 'displayName', value: 'eng' }])
    expect(groupPlan('urn:ietf:params:scim:schemas:core:2.0:Group:displayName eq "Eng"')).toEqual([
      { attribute: 'displayName', value: 'eng' },
    ])
    expect(groupPlan('externalId eq "Ext-G"')).toEqual([{ attribute: 'externalId', value: 'Ext-G' }])
    expect(groupPlan('id eq "G1"')).toEqual([{ attribute: 'id', value: 'G1' }])
  })

  it('looks a member up from a value filter or members.value', () => {
    expect(groupPlan('members[value eq "u1"]')).toEqual([{ attribute: 'member', value: 'u1' }])
    expect(groupPlan('members.value eq "u1"')).toEqual([{ attribute: 'member', value: 'u1' }])
    expect(groupPlan('displayName sw "E" and members[value eq "u1"]')).toEqual([{ attribute: 'member', value: 'u1' }])
    expect(groupPlan('members[value eq "u1"] or members[value eq "u2"]')).toEqual([
      { attribute: 'member', value: 'u1' },
      { attribute: 'member', value: 'u2' },
    ])
  })

  it('needs a scan for conditions no index answers', () => {
    for (const expression of [
      'displayName sw "Eng"',
      'members pr',
      'members[type eq "User"]',
      'value eq "u1"',
      'userName eq "a"',
      'not (displayName eq "Eng")',
      'displayName eq "Eng" or members pr',
    ]) {
      expect(groupPlan(expression), expression).toBeUndefined()
    }
  })

  it('needs the members exactly when the filter names them', () => {
    expect(resourceFilter('displayName eq "Eng"', 'Group').needsMembers).toBe(false)
    expect(resourceFilter('externalId eq "x" or id eq "g1"', 'Group').needsMembers).toBe(false)
    for (const expression of [
      'members[value eq "u1"]',
      'members.value eq "u1"',
      'MEMBERS pr',
      'displayName eq "Eng" and members[value eq "u1"]',
    ]) {
      expect(resourceFilter(expression, 'Group').needsMembers, expression).toBe(true)
    }
  })

  it('tests displayName case-insensitively', () => {
    const f = resourceFilter('displayName eq "ENGINEERING"', 'Group')
    expect(f.test(engineering)).toBe(true)
    expect(f.test({ ...engineering, displayName: 'engineering' })).toBe(true)
    expect(f.test({ ...engineering, displayName: 'Engineers' })).toBe(false)
    expect(resourceFilter('displayName sw "eng"', 'Group').test(engineering)).toBe(true)
    // externalId is caseExact.
    expect(resourceFilter('externalId eq "EXT-G"', 'Group').test(engineering)).toBe(false)
    expect(resourceFilter('externalId eq "ext-g"', 'Group').test(engineering)).toBe(true)
  })

  it('tests a members filter against the member ids the group carries', () => {
    for (const expression of ['members[value eq "u1"]', 'members.value eq "u1"']) {
      const f = resourceFilter(expression, 'Group')
      expect(f.test({ ...engineering, members: ['u1'] }), expression).toBe(true)
      expect(f.test({ ...engineering, members: ['u2', 'u1', 'u3'] }), expression).toBe(true)
      expect(f.test({ ...engineering, members: ['u2'] }), expression).toBe(false)
      expect(f.test({ ...engineering, members: [] }), expression).toBe(false)
      expect(f.test(engineering), expression).toBe(false)
    }
    expect(resourceFilter('members pr', 'Group').test({ ...engineering, members: ['u1'] })).toBe(true)
    expect(resourceFilter('members pr', 'Group').test({ ...engineering, members: [] })).toBe(false)
    expect(
      resourceFilter('displayName eq "engineering" and members[value eq "u2"]', 'Group').test({
        ...engineering,
        members: ['u1', 'u2'],
      }),
    ).toBe(true)
  })
})
