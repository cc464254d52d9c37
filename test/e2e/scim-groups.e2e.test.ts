// SCIM Groups end to end with a JWT, the way identity providers push them: Okta's group calls and a
// flow shaped like Microsoft Entra's (PATCH-heavy, capitalised ops, string booleans, members removed
// by filter and by value list), versions with If-Match, attribute selection and search, memberships
// kept both ways (a deleted user leaves its groups), and `sluice groups`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import type { TestEnv } from '../support/harness.js'
import { createScimTestEnv, type IdentityProvider, type ScimTestEnv } from '../support/scim-idp.js'

let env: ScimTestEnv
let t: TestEnv
let svc: RunningService
let demo: DemoAccount
let idp: IdentityProvider
let bearer: string

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

beforeAll(async () => {
  env = await createScimTestEnv()
  ;({ t, svc, demo, idp } = env)
  bearer = await idp.token({ lifetime: 600 })
}, 120_000)
afterAll(async () => env?.close())

async function scim(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${svc.url}/gateway/ng/api/scim/account/${demo.accountId}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      accept: 'application/scim+json',
      ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}

const newUser = async (userName: string) => {
  const res = await scim('POST', '/Users', {
    schemas: [USER],
    userName,
    name: { givenName: 'G', familyName: userName },
    emails: [{ value: userName, type: 'work', primary: true }],
    active: true,
  })
  expect(res.status).toBe(201)
  return res.body.id as string
}
const memberIds = (group: { members?: { value: string }[] }) => (group.members ?? []).map((m) => m.value).sort()

describe('Groups as Okta pushes them', () => {
  it('creates, lists by displayName, gets, replaces and deletes a group, keeping each user’s groups in step', async () => {
    const [ada, bob] = [await newUser('ada@groups.example'), await newUser('bob@groups.example')]
    const created = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Engineering',
      externalId: 'okta-00g1',
      members: [{ value: ada }, { value: bob, type: 'User' }],
    })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    expect(created.headers.get('location')).toBe(
      `${svc.url}/gateway/ng/api/scim/account/${demo.accountId}/Groups/${id}`,
    )
    expect(created.headers.get('etag')).toBe('W/"1"')
    expect(memberIds(created.body)).toEqual([ada, bob].sort())
    expect(created.body.members[0]).toMatchObject({ $ref: expect.stringMatching(/\/Users\//), type: 'User' })

    // displayName is unique (case-insensitively) and looked up by filter, as Okta does before a push.
    expect((await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'engineering' })).status).toBe(409)
    const byName = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "ENGINEERING"')}&excludedAttributes=members`,
    )
    expect(byName.body).toMatchObject({ totalResults: 1, Resources: [{ id, displayName: 'Engineering' }] })
    expect(byName.body.Resources[0].members).toBeUndefined()
    expect(
      (await scim('GET', `/Groups?filter=${encodeURIComponent('externalId eq "okta-00g1"')}`)).body.totalResults,
    ).toBe(1)
    expect(
      (await scim('GET', `/Groups?filter=${encodeURIComponent(`members[value eq "${ada}"]`)}`)).body.Resources.map(
        (g: { id: string }) => g.id,
      ),
    ).toEqual([id])

    // A user's groups are read-only, and shown on the user.
    const user = await scim('GET', `/Users/${ada}`)
    expect(user.body.groups).toEqual([
      { value: id, display: 'Engineering', $ref: expect.stringMatching(new RegExp(`/Groups/${id}$`)), type: 'direct' },
    ])
    const patchGroups = await scim('PATCH', `/Users/${ada}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'groups', value: [{ value: id }] }],
    })
    expect(patchGroups).toMatchObject({ status: 400, body: { scimType: 'mutability' } })

    // PUT replaces members too; a member that is no user of the account refuses the whole write.
    const replaced = await scim('PUT', `/Groups/${id}`, {
      schemas: [GROUP],
      displayName: 'Engineering EU',
      members: [{ value: bob }],
    })
    expect(replaced.status).toBe(200)
    expect(memberIds(replaced.body)).toEqual([bob])
    expect((await scim('GET', `/Users/${ada}`)).body.groups).toBeUndefined()
    const ghost = await scim('PUT', `/Groups/${id}`, {
      schemas: [GROUP],
      displayName: 'Engineering EU',
      members: [{ value: bob }, { value: 'no-such-user' }],
    })
    expect(ghost).toMatchObject({
      status: 400,
      body: { scimType: 'invalidValue', detail: expect.stringMatching(/no user no-such-user/) },
    })
    expect(memberIds((await scim('GET', `/Groups/${id}`)).body)).toEqual([bob])

    expect((await scim('DELETE', `/Groups/${id}`)).status).toBe(204)
    expect((await scim('GET', `/Groups/${id}`)).status).toBe(404)
    expect((await scim('GET', `/Users/${bob}`)).body.groups).toBeUndefined()
  })

  it('takes a deleted user out of its groups', async () => {
    const [a, b] = [await newUser('leaves@groups.example'), await newUser('stays@groups.example')]
    const group = (
      await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Leavers', members: [{ value: a }, { value: b }] })
    ).body
    expect((await scim('DELETE', `/Users/${a}`)).status).toBe(204)
    const after = await scim('GET', `/Groups/${group.id as string}`)
    expect(memberIds(after.body)).toEqual([b])
    expect(after.headers.get('etag')).toBe('W/"2"')
  })
})

describe('a flow shaped like Microsoft Entra provisioning', () => {
  it('creates a user and a group, then PATCHes with capitalised ops, string booleans and member removals', async () => {
    // Entra looks the user up by userName first, then creates it.
    expect(
      (await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "carol@entra.example"')}`)).body.totalResults,
    ).toBe(0)
    const carol = await newUser('carol@entra.example')
    const dave = await newUser('dave@entra.example')
    const erin = await newUser('erin@entra.example')
    expect(
      (await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Sales"')}`)).body.totalResults,
    ).toBe(0)
    const group = (await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Sales', externalId: 'entra-sales' }))
      .body
    const id = group.id as string
    const patch = (...Operations: unknown[]) => scim('PATCH', `/Groups/${id}`, { schemas: [PATCH], Operations })

    expect((await patch({ op: 'Add', path: 'members', value: [{ value: carol }, { value: dave }] })).status).toBe(200)
    expect((await patch({ op: 'Add', path: 'members', value: [{ value: erin }, { value: carol }] })).status).toBe(200)
    expect(memberIds((await scim('GET', `/Groups/${id}`)).body)).toEqual([carol, dave, erin].sort())
    // Entra's removal: the member in the value list.
    expect((await patch({ op: 'Remove', path: 'members', value: [{ value: dave }] })).status).toBe(200)
    // Okta's and the RFC's: a value filter in the path.
    expect((await patch({ op: 'remove', path: `members[value eq "${erin}"]` })).status).toBe(200)
    const renamed = await patch({ op: 'Replace', path: 'displayName', value: 'Sales EMEA' })
    expect(renamed.body).toMatchObject({ displayName: 'Sales EMEA' })
    expect(memberIds(renamed.body)).toEqual([carol])

    // Entra deactivates a user with a string boolean, and changes the work email through a filter.
    const user = await scim('PATCH', `/Users/${carol}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'carol.new@entra.example' },
        {
          op: 'Add',
          value: {
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department': 'Sales',
            displayName: 'Carol',
          },
        },
      ],
    })
    expect(user.status).toBe(200)
    expect(user.body).toMatchObject({
      active: false,
      displayName: 'Carol',
      emails: [{ value: 'carol.new@entra.example', type: 'work', primary: true }],
    })
    expect(
      (
        await scim(
          'GET',
          `/Users?filter=${encodeURIComponent('emails[type eq "work"].value eq "CAROL.NEW@entra.example"')}`,
        )
      ).body.Resources.map((u: { id: string }) => u.id),
    ).toEqual([carol])
    expect(
      (await scim('GET', `/Users?filter=${encodeURIComponent('emails.value eq "carol@entra.example"')}`)).body
        .totalResults,
    ).toBe(0)

    // Removing every member.
    expect(memberIds((await patch({ op: 'Remove', path: 'members' })).body)).toEqual([])
  })
})

describe('versions, attributes and search', () => {
  it('answers ETags and refuses a write at another version with 412', async () => {
    const id = await newUser('etag@groups.example')
    const got = await scim('GET', `/Users/${id}`)
    const etag = got.headers.get('etag')!
    expect(etag).toBe(got.body.meta.version)
    const ok = await scim(
      'PATCH',
      `/Users/${id}`,
      { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'One' }] },
      { 'if-match': etag },
    )
    expect(ok.status).toBe(200)
    const stale = await scim(
      'PATCH',
      `/Users/${id}`,
      { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Two' }] },
      { 'if-match': etag },
    )
    expect(stale).toMatchObject({ status: 412, body: { status: '412' } })
    expect((await scim('GET', `/Users/${id}`)).body.displayName).toBe('One')
    expect((await scim('DELETE', `/Users/${id}`, undefined, { 'if-match': etag })).status).toBe(412)
    expect((await scim('DELETE', `/Users/${id}`, undefined, { 'if-match': ok.headers.get('etag')! })).status).toBe(204)
  })

  it('returns only the attributes asked for (id and schemas always), on get, list and search', async () => {
    const id = await newUser('attrs@groups.example')
    const only = await scim('GET', `/Users/${id}?attributes=userName,name.givenName`)
    expect(only.body).toEqual({ schemas: [USER], id, userName: 'attrs@groups.example', name: { givenName: 'G' } })
    const without = await scim(
      'GET',
      `/Users/${id}?excludedAttributes=${encodeURIComponent('name,urn:ietf:params:scim:schemas:core:2.0:User:emails,meta')}`,
    )
    expect(without.body).not.toHaveProperty('name')
    expect(without.body).not.toHaveProperty('emails')
    expect(without.body).toMatchObject({ id, userName: 'attrs@groups.example' })
    const listed = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "attrs@groups.example"')}&attributes=emails.value`,
    )
    expect(listed.body.Resources).toEqual([{ schemas: [USER], id, emails: [{ value: 'attrs@groups.example' }] }])
    const searched = await scim('POST', '/Users/.search', {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
      filter: 'userName sw "attrs@"',
      attributes: ['userName'],
    })
    expect(searched.body).toMatchObject({
      totalResults: 1,
      Resources: [{ schemas: [USER], id, userName: 'attrs@groups.example' }],
    })
    expect(searched.body.Resources[0]).not.toHaveProperty('meta')
    const root = await scim('POST', '/.search', {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
      filter: 'userName eq "attrs@groups.example" or displayName eq "Sales EMEA"',
      startIndex: 1,
      count: 10,
    })
    expect(root.body.totalResults).toBe(2)
    expect(root.body.Resources.map((r: { schemas: string[] }) => r.schemas[0])).toEqual([USER, GROUP])
    expect((await scim('GET', `/Users/${id}?attributes=name.middle-name!`)).status).toBe(400)
  })
})

describe('sluice groups', () => {
  it('creates a group with members, adds and removes members, lists and deletes, as SCIM sees it', async () => {
    const [u1, u2] = [await newUser('cli1@groups.example'), await newUser('cli2@groups.example')]
    const created = await runSluice(['groups', 'create', 'Operators', '--member', u1, '--json'], t.env)
    expect(created.code, created.stderr).toBe(0)
    const gid = (JSON.parse(created.stdout) as { id: string }).id
    expect((await runSluice(['groups', 'add-members', gid, u2], t.env)).stdout).toMatch(/2 members/)
    expect(memberIds((await scim('GET', `/Groups/${gid}`)).body)).toEqual([u1, u2].sort())
    expect((await runSluice(['groups', 'remove-members', gid, u1], t.env)).stdout).toMatch(/1 members/)
    expect((await runSluice(['groups', 'list'], t.env)).stdout).toMatch(
      new RegExp(`${gid}  Operators  \\(1 members\\)`),
    )
    const unknown = await runSluice(['groups', 'add-members', gid, 'no-such-user'], t.env)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/no user no-such-user/)
    expect((await runSluice(['groups', 'delete', gid], t.env)).code).toBe(0)
    expect((await scim('GET', `/Groups/${gid}`)).status).toBe(404)
  })
})
