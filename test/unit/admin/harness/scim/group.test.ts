import { describe, expect, it } from 'vitest'
import { GROUP_SCHEMA } from '../../../../../src/admin/harness/scim/errors.js'
import { groupView, MAX_MEMBERS, parseGroup } from '../../../../../src/admin/harness/scim/group.js'
import type { Group } from '../../../../../src/state/redis/directory.js'
import { scimError } from './support.js'

const BASE = 'https://sluice.example/scim/v2'

const invalid = (body: unknown) => scimError(() => parseGroup(body))

describe('parseGroup', () => {
  it('keeps displayName and externalId; members undefined when the body says nothing of them', () => {
    expect(parseGroup({ schemas: [GROUP_SCHEMA], displayName: 'Engineering' })).toStrictEqual({
      input: { displayName: 'Engineering' },
      members: undefined,
    })
    expect(parseGroup({ displayName: 'Engineering', externalId: 'ext-7' })).toStrictEqual({
      input: { displayName: 'Engineering', externalId: 'ext-7' },
      members: undefined,
    })
    expect(parseGroup({ displayName: 'Engineering', externalId: null, members: null })).toStrictEqual({
      input: { displayName: 'Engineering' },
      members: undefined,
    })
  })

  it('reads attribute names case-insensitively', () => {
    expect(parseGroup({ DISPLAYNAME: 'Eng', ExternalID: 'x', Members: [{ Value: 'u1', TYPE: 'User' }] })).toStrictEqual(
      { input: { displayName: 'Eng', externalId: 'x' }, members: ['u1'] },
    )
  })

  it('requires displayName: a non-blank string of at most 256 characters', () => {
    for (const body of [
      {},
      { displayName: null },
      { displayName: '' },
      { displayName: '   ' },
      { displayName: 42 },
      { displayName: ['Eng'] },
      { displayName: 'x'.repeat(257) },
      { externalId: 'x' },
    ]) {
      expect(invalid(body), JSON.stringify(body)).toMatchObject({ status: 400, scimType: 'invalidValue' })
    }
    expect(parseGroup({ displayName: 'x'.repeat(256) }).input.displayName).toHaveLength(256)
  })

  it('refuses an externalId that is not a string', () => {
    expect(invalid({ displayName: 'Eng', externalId: 7 })).toMatchObject({ status: 400, scimType: 'invalidValue' })
    expect(invalid({ displayName: 'Eng', externalId: { id: 'x' } })).toMatchObject({
      status: 400,
      scimType: 'invalidValue',
    })
  })

  it('refuses bodies that are not JSON objects with invalidSyntax', () => {
    for (const body of [null, undefined, 'Engineering', 42, true, [], [{ displayName: 'Eng' }]]) {
      expect(invalid(body), JSON.stringify(body)).toMatchObject({ status: 400, scimType: 'invalidSyntax' })
    }
  })

  it('reads members as user ids, with type User in any case or no type', () => {
    const out = parseGroup({
      displayName: 'Eng',
      members: [
        { value: 'u1' },
        { value: 'u2', type: 'User' },
        { value: 'u3', type: 'user' },
        { value: 'u4', type: 'USER', display: 'Dana', $ref: `${BASE}/Users/u4` },
        { value: 'u5', type: null },
      ],
    })
    expect(out.members).toEqual(['u1', 'u2', 'u3', 'u4', 'u5'])
    expect(parseGroup({ displayName: 'Eng', members: [] }).members).toEqual([])
  })

  it('refuses members of another type (groups hold users only)', () => {
    for (const type of ['Group', 'group', 'Users', '', 1, true]) {
      expect(
        invalid({ displayName: 'Eng', members: [{ value: 'u1' }, { value: 'g2', type }] }),
        JSON.stringify(type),
      ).toMatchObject({ status: 400, scimType: 'invalidValue' })
    }
  })

  it('refuses malformed members', () => {
    for (const members of [
      'u1',
      { value: 'u1' },
      7,
      ['u1'],
      [null],
      [[{ value: 'u1' }]],
      [{}],
      [{ value: '' }],
      [{ value: 42 }],
      [{ display: 'Alice' }],
    ]) {
      expect(invalid({ displayName: 'Eng', members }), JSON.stringify(members)).toMatchObject({
        status: 400,
        scimType: 'invalidValue',
      })
    }
  })

  it('collapses duplicate member ids, keeping the first order', () => {
    expect(
      parseGroup({
        displayName: 'Eng',
        members: [{ value: 'u2' }, { value: 'u1' }, { value: 'u2', type: 'User' }, { value: 'u1' }, { value: 'u3' }],
      }).members,
    ).toEqual(['u2', 'u1', 'u3'])
  })

  it(`accepts ${MAX_MEMBERS} members and refuses more`, () => {
    const members = Array.from({ length: MAX_MEMBERS }, (_, i) => ({ value: `u${i}` }))
    expect(parseGroup({ displayName: 'Eng', members }).members).toHaveLength(MAX_MEMBERS)
    expect(invalid({ displayName: 'Eng', members: [...members, { value: 'one-more' }] })).toMatchObject({
      status: 400,
      scimType: 'invalidValue',
    })
  })

  it('ignores unknown and read-only attributes', () => {
    const out = parseGroup({
      schemas: [GROUP_SCHEMA],
      id: 'g-client',
      meta: { version: 'W/"9"', resourceType: 'Group' },
      displayName: 'Eng',
      owner: 'someone',
      'urn:ietf:params:scim:schemas:extension:custom:2.0:Group': { costCenter: '42' },
    })
    expect(out).toStrictEqual({ input: { displayName: 'Eng' }, members: undefined })
  })
})

describe('groupView', () => {
  const engineering: Group = {
    id: 'g1',
    displayName: 'Engineering',
    externalId: 'ext-g',
    created: 1_700_000_000_000,
    lastModified: 1_700_000_000_500,
    version: 4,
  }

  it('answers the group with its schema and meta (location, weak version)', () => {
    expect(groupView(engineering, BASE)).toStrictEqual({
      schemas: [GROUP_SCHEMA],
      id: 'g1',
      externalId: 'ext-g',
      displayName: 'Engineering',
      meta: {
        resourceType: 'Group',
        created: '2023-11-14T22:13:20.000Z',
        lastModified: '2023-11-14T22:13:20.500Z',
        location: `${BASE}/Groups/g1`,
        version: 'W/"4"',
      },
    })
  })

  it('holds no externalId when the group has none', () => {
    const bare: Group = { id: 'g2', displayName: 'Ops', created: 0, lastModified: 0, version: 1 }
    expect(groupView(bare, BASE)).not.toHaveProperty('externalId')
    expect(Object.keys(groupView(bare, BASE))).toEqual(['schemas', 'id', 'displayName', 'meta'])
  })

  it('holds members only when given, each with its $ref and type User', () => {
    expect(groupView(engineering, BASE)).not.toHaveProperty('members')
    expect(groupView(engineering, BASE, []).members).toEqual([])
    expect(groupView(engineering, BASE, ['u1', 'u2']).members).toStrictEqual([
      { value: 'u1', $ref: `${BASE}/Users/u1`, type: 'User' },
      { value: 'u2', $ref: `${BASE}/Users/u2`, type: 'User' },
    ])
  })

  it('round-trips through parseGroup', () => {
    const view = groupView(engineering, BASE, ['u1', 'u2'])
    expect(parseGroup(view)).toStrictEqual({
      input: { displayName: 'Engineering', externalId: 'ext-g' },
      members: ['u1', 'u2'],
    })
  })
})
