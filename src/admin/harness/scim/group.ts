// SCIM 2.0 Groups (RFC 7643 4.2) without I/O: the resource's validation and view. Members are users
// of the account, by id (`value`); a group's members are written with the group, at once.
import type { Group, GroupInput } from '../../../state/redis/directory.js'
import { GROUP_SCHEMA, ScimError } from './errors.js'
import { lowerKeys, strip, text } from './user.js'

/** Most members one group holds (a write sends them all to Redis at once). */
export const MAX_MEMBERS = 50_000

export interface GroupWrite {
  readonly input: GroupInput
  /** User ids; undefined when the body said nothing of members (PATCH keeps them). */
  readonly members: readonly string[] | undefined
}

/** Validates a Group as sent to POST or PUT, or the result of a PATCH (read-only attributes are ignored). */
export function parseGroup(body: unknown): GroupWrite {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ScimError(400, 'invalidSyntax', 'body must be a JSON object (a SCIM Group)')
  const b = lowerKeys(body as Record<string, unknown>)
  const displayName = text(b['displayname'], 'displayName', true)!
  return {
    input: strip({ displayName, externalId: text(b['externalid'], 'externalId') }),
    members: parseMembers(b['members']),
  }
}

export function parseMembers(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return undefined
  if (!Array.isArray(raw) || raw.length > MAX_MEMBERS)
    throw new ScimError(400, 'invalidValue', `members must be an array of at most ${MAX_MEMBERS}`)
  const ids = raw.map((m: unknown, i) => {
    if (typeof m !== 'object' || m === null || Array.isArray(m))
      throw new ScimError(400, 'invalidValue', `members[${i}] must be an object {value}`)
    const o = lowerKeys(m as Record<string, unknown>)
    if (
      o['type'] !== undefined &&
      o['type'] !== null &&
      (typeof o['type'] !== 'string' || o['type'].toLowerCase() !== 'user')
    )
      throw new ScimError(400, 'invalidValue', `members[${i}].type must be User (groups hold users)`)
    return text(o['value'], `members[${i}].value`, true)!
  })
  return [...new Set(ids)]
}

/** A group as answered; members (user ids) when the answer holds them. */
export function groupView(g: Group, base: string, members?: readonly string[]) {
  return {
    schemas: [GROUP_SCHEMA],
    id: g.id,
    ...(g.externalId !== undefined ? { externalId: g.externalId } : {}),
    displayName: g.displayName,
    ...(members !== undefined
      ? { members: members.map((value) => ({ value, $ref: `${base}/Users/${value}`, type: 'User' })) }
      : {}),
    meta: {
      resourceType: 'Group',
      created: new Date(g.created).toISOString(),
      lastModified: new Date(g.lastModified).toISOString(),
      location: `${base}/Groups/${g.id}`,
      version: `W/"${g.version}"`,
    },
  }
}
