import { describe, expect, it } from 'vitest'
import { applyGroupPatch } from '../../../../../src/admin/harness/scim/patch.js'
import { PATCH_SCHEMA } from '../../../../../src/admin/harness/scim/user.js'
import type { Group } from '../../../../../src/state/redis/directory.js'
import { scimError } from './support.js'

const engineering: Group = {
  id: 'g1',
  displayName: 'Engineering',
  externalId: 'ext-g',
  created: 1_700_000_000_000,
  lastModified: 1_700_000_000_500,
  version: 2,
}
const bare: Group = { id: 'g2', displayName: 'Ops', created: 0, lastModified: 0, version: 1 }

const patch = (...Operations: unknown[]) => ({ schemas: [PATCH_SCHEMA], Operations })

const members = (group: Group, ids: readonly string[], ...ops: unknown[]) =>
  applyGroupPatch(group, ids, patch(...ops)).members

describe('applyGroupPatch', () => {
  it('adds members as Microsoft Entra sends them (capitalised op, value list)', () => {
    expect(members(engineering, ['u2'], { op: 'Add', path: 'members', value: [{ value: 'u1' }] })).toEqual(['u2', 'u1'])
    expect(
      members(engineering, [], {
        op: 'Add',
        path: 'members',
        value: [{ value: 'u1' }, { value: 'u3', type: 'User', display: 'Carol' }],
      }),
    ).toEqual(['u1', 'u3'])
    // A single member object, not in an array, is added as well.
    expect(members(engineering, ['u1'], { op: 'add', path: 'members', value: { value: 'u4' } })).toEqual(['u1', 'u4'])
    // Without a path, as a members attribute of the value.
    expect(members(engineering, ['u1'], { op: 'add', value: { members: [{ value: 'u5' }] } })).toEqual(['u1', 'u5'])
  })

  it('adds a member already in the group only once', () => {
    expect(
      members(engineering, ['u1', 'u2'], {
        op: 'Add',
        path: 'members',
        value: [{ value: 'u1' }, { value: 'u3' }, { value: 'u3' }],
      }),
    ).toEqual(['u1', 'u2', 'u3'])
  })

  it('removes the members listed in the value (Entra)', () => {
    expect(
      members(engineering, ['u1', 'u2', 'u3'], { op: 'Remove', path: 'members', value: [{ value: 'u1' }] }),
    ).toEqual(['u2', 'u3'])
    expect(
      members(engineering, ['u1', 'u2', 'u3'], {
        op: 'Remove',
        path: 'members',
        value: [{ value: 'u1' }, { value: 'u3' }],
      }),
    ).toEqual(['u2'])
    // Removing someone who is not a member changes nothing.
    expect(members(engineering, ['u1', 'u2'], { op: 'Remove', path: 'members', value: [{ value: 'u9' }] })).toEqual([
      'u1',
      'u2',
    ])
  })

  it('removes the member a value filter names (Okta)', () => {
    expect(members(engineering, ['u1', 'u2', 'u3'], { op: 'remove', path: 'members[value eq "u2"]' })).toEqual([
      'u1',
      'u3',
    ])
    expect(members(engineering, ['u1', 'u3'], { op: 'remove', path: 'members[value eq "u2"]' })).toEqual(['u1', 'u3'])
    expect(members(engineering, [], { op: 'remove', path: 'members[value eq "u2"]' })).toEqual([])
  })

  it('removes every member when the remove of members has no value', () => {
    expect(members(engineering, ['u1', 'u2', 'u3'], { op: 'Remove', path: 'members' })).toEqual([])
    expect(members(engineering, [], { op: 'remove', path: 'members' })).toEqual([])
  })

  it('replaces the members with the list given', () => {
    expect(
      members(engineering, ['u1', 'u2'], { op: 'replace', path: 'members', value: [{ value: 'u9' }, { value: 'u2' }] }),
    ).toEqual(['u9', 'u2'])
    expect(members(engineering, ['u1', 'u2'], { op: 'replace', path: 'members', value: [] })).toEqual([])
  })

  it('keeps the members (and the group) when the PATCH says nothing of them', () => {
    expect(
      applyGroupPatch(engineering, ['u1', 'u2'], patch({ op: 'replace', path: 'displayName', value: 'Eng' })),
    ).toStrictEqual({
      input: { displayName: 'Eng', externalId: 'ext-g' },
      members: ['u1', 'u2'],
    })
  })

  it('replaces displayName with a path and without one, ignoring the id Okta puts in the value', () => {
    expect(
      applyGroupPatch(engineering, ['u1'], patch({ op: 'Replace', path: 'displayName', value: 'Platform' })).input,
    ).toStrictEqual({ displayName: 'Platform', externalId: 'ext-g' })
    const okta = applyGroupPatch(engineering, ['u1'], patch({ op: 'replace', value: { id: 'g1', displayName: 'x' } }))
    expect(okta).toStrictEqual({ input: { displayName: 'x', externalId: 'ext-g' }, members: ['u1'] })
    // An id other than the group's is ignored too: it is read-only.
    expect(
      applyGroupPatch(engineering, [], patch({ op: 'replace', value: { id: 'other', displayName: 'y' } })).input,
    ).toStrictEqual({ displayName: 'y', externalId: 'ext-g' })
    expect(
      applyGroupPatch(
        engineering,
        [],
        patch({ op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:Group:displayName', value: 'z' }),
      ).input.displayName,
    ).toBe('z')
  })

  it('adds, replaces and removes externalId', () => {
    expect(applyGroupPatch(bare, [], patch({ op: 'add', path: 'externalId', value: 'ext-new' })).input).toStrictEqual({
      displayName: 'Ops',
      externalId: 'ext-new',
    })
    expect(
      applyGroupPatch(engineering, [], patch({ op: 'Replace', value: { externalId: 'ext-2' } })).input,
    ).toStrictEqual({ displayName: 'Engineering', externalId: 'ext-2' })
    const removed = applyGroupPatch(engineering, [], patch({ op: 'remove', path: 'externalId' })).input
    expect(removed).toStrictEqual({ displayName: 'Engineering' })
    expect(removed).not.toHaveProperty('externalId')
  })

  it('applies several operations in order, as Entra batches them', () => {
    const out = applyGroupPatch(
      engineering,
      ['u1', 'u2'],
      patch(
        { op: 'Replace', path: 'displayName', value: 'Platform' },
        { op: 'Add', path: 'members', value: [{ value: 'u3' }] },
        { op: 'Remove', path: 'members', value: [{ value: 'u1' }] },
        { op: 'Add', path: 'members', value: [{ value: 'u1' }] },
      ),
    )
    expect(out).toStrictEqual({ input: { displayName: 'Platform', externalId: 'ext-g' }, members: ['u2', 'u3', 'u1'] })
  })

  it('refuses to remove displayName (mutability), with or without the schema URN', () => {
    expect(
      scimError(() => applyGroupPatch(engineering, ['u1'], patch({ op: 'remove', path: 'displayName' }))),
    ).toMatchObject({ status: 400, scimType: 'mutability' })
    expect(
      scimError(() =>
        applyGroupPatch(
          engineering,
          ['u1'],
          patch({ op: 'Remove', path: 'urn:ietf:params:scim:schemas:core:2.0:Group:DISPLAYNAME' }),
        ),
      ),
    ).toMatchObject({
      status: 400,
      scimType: 'mutability',
    })
  })

  it('validates the result as a whole Group', () => {
    expect(
      scimError(() => applyGroupPatch(engineering, [], patch({ op: 'replace', path: 'displayName', value: '' }))),
    ).toMatchObject({ status: 400, scimType: 'invalidValue' })
    expect(
      scimError(() => applyGroupPatch(engineering, [], patch({ op: 'replace', value: { displayName: null } }))),
    ).toMatchObject({ status: 400, scimType: 'invalidValue' })
    expect(
      scimError(() =>
        applyGroupPatch(
          engineering,
          [],
          patch({ op: 'add', path: 'members', value: [{ value: 'g9', type: 'Group' }] }),
        ),
      ),
    ).toMatchObject({ status: 400, scimType: 'invalidValue' })
    expect(
      scimError(() => applyGroupPatch(engineering, [], patch({ op: 'add', path: 'members', value: ['u1'] }))),
    ).toMatchObject({ status: 400, scimType: 'invalidValue' })
  })

  it.each([
    ['an unknown attribute', { op: 'replace', path: 'owner', value: 'x' }],
    ['a User attribute', { op: 'add', path: 'userName', value: 'x' }],
    ['a sub-attribute of a simple attribute', { op: 'replace', path: 'displayName.value', value: 'x' }],
    ['an unknown sub-attribute of members', { op: 'remove', path: 'members[value eq "u1"].nickName' }],
    ['a value filter on a simple attribute', { op: 'remove', path: 'externalId[value eq "x"]' }],
    ['an unknown attribute without a path', { op: 'replace', value: { displayName: 'x', owner: 'y' } }],
    ['a prototype key', { op: 'add', path: 'constructor', value: 'x' }],
  ])('refuses %s with 400 invalidPath', (_label, op) => {
    expect(scimError(() => applyGroupPatch(engineering, ['u1'], patch(op)))).toMatchObject({
      status: 400,
      scimType: 'invalidPath',
    })
  })

  it('refuses bodies that are not a PatchOp', () => {
    for (const body of [null, 'x', {}, { Operations: [] }, { Operations: [{ op: 'delete', path: 'members' }] }]) {
      expect(
        scimError(() => applyGroupPatch(engineering, [], body)),
        JSON.stringify(body),
      ).toMatchObject({ status: 400, scimType: 'invalidSyntax' })
    }
  })

  it('does not change the group or the member list it is given', () => {
    const group = Object.freeze({ ...engineering })
    const ids = Object.freeze(['u1', 'u2'])
    applyGroupPatch(
      group,
      ids,
      patch(
        { op: 'Remove', path: 'members', value: [{ value: 'u1' }] },
        { op: 'add', path: 'members', value: [{ value: 'u3' }] },
        { op: 'replace', path: 'displayName', value: 'x' },
      ),
    )
    expect(group).toStrictEqual(engineering)
    expect(ids).toEqual(['u1', 'u2'])
  })
})
