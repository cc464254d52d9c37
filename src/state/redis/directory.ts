// The directory of an account: users (also the SCIM Users resource) and groups, with the indexes
// that answer SCIM filters and pages without reading every user, and memberships kept both ways.
// Every write is one Lua script (lua/user-*.lua, lua/group-*.lua), checked against the version
// the caller read, so concurrent writers never lose a change.
//
// Keys (prefix p, account a):
//   p:users:a            hash id -> JSON user           p:groups:a            hash id -> JSON group
//   p:users-order:a      zset id by creation time       p:groups-order:a      zset id by creation time
//   p:user-names:a       hash userName key -> id        p:group-names:a       hash displayName key -> id
//   p:user-external:a    zset "<externalId>\0<id>"      p:group-external:a    zset "<externalId>\0<id>"
//   p:user-emails:a      zset "<email key>\0<id>"
//   p:group-members:a:<group>  set of user ids         p:user-groups:a:<user>  set of group ids
import { randomUUID } from 'node:crypto'
import { RedisState } from './redis-state.js'

/** A SCIM user as stored (RFC 7643 core User attributes that Sluice keeps). */
export interface User {
  readonly id: string
  readonly userName: string
  readonly externalId?: string
  readonly name?: { readonly givenName?: string; readonly familyName?: string; readonly formatted?: string }
  readonly displayName?: string
  readonly emails?: readonly { readonly value: string; readonly type?: string; readonly primary?: boolean }[]
  /** Absent when an identity provider removed it; only false deactivates. */
  readonly active?: boolean
  readonly created: number
  readonly lastModified: number
  readonly version: number
}

export interface Group {
  readonly id: string
  readonly displayName: string
  readonly externalId?: string
  readonly created: number
  readonly lastModified: number
  readonly version: number
}

type Written<T> = Omit<T, 'id' | 'created' | 'lastModified' | 'version'>
export type UserInput = Written<User>
export type GroupInput = Written<Group>

/**
 * ok, or why nothing was written: a name taken (conflict), gone (missing), changed since read (stale), a member that is
 * no user.
 */
export type WriteOutcome = 'ok' | 'conflict' | 'missing' | 'stale' | `no-member:${string}`

/** The key names and emails are unique and looked up by: case-insensitive (RFC 7643 caseExact false). */
export const nameKey = (text: string) => text.normalize('NFC').toLowerCase()
/** userName keys (kept for callers that named it so). */
export const userNameKey = nameKey

/** Whether a user may act (a removed `active` is not a deactivation). */
export const isActive = (user: User) => user.active !== false

const index = (u: Pick<User, 'externalId' | 'emails'> | undefined) =>
  JSON.stringify({
    external: u?.externalId === undefined ? [] : [u.externalId],
    emails: [...new Set((u?.emails ?? []).map((e) => nameKey(e.value)))],
  })
const externals = (g: Pick<Group, 'externalId'> | undefined) =>
  JSON.stringify(g?.externalId === undefined ? [] : [g.externalId])

export class DirectoryStore extends RedisState {
  // ---- users ----

  async createUser(accountId: string, input: UserInput): Promise<{ outcome: WriteOutcome; user: User }> {
    const now = Date.now()
    const user: User = { ...input, id: randomUUID(), created: now, lastModified: now, version: 1 }
    const outcome = (await this.scripts.userWrite(
      ...this.userKeys(accountId),
      user.id,
      nameKey(user.userName),
      JSON.stringify(user),
      now,
      '',
      '',
      index(undefined),
      index(user),
    )) as WriteOutcome
    return { outcome, user }
  }

  /** Replaces a user read at `current` ('stale' when it changed since). */
  async replaceUser(accountId: string, current: User, next: UserInput): Promise<{ outcome: WriteOutcome; user: User }> {
    const user: User = {
      ...next,
      id: current.id,
      created: current.created,
      lastModified: Math.max(Date.now(), current.lastModified + 1),
      version: current.version + 1,
    }
    const outcome = (await this.scripts.userWrite(
      ...this.userKeys(accountId),
      user.id,
      nameKey(user.userName),
      JSON.stringify(user),
      current.created,
      String(current.version),
      nameKey(current.userName),
      index(current),
      index(user),
    )) as WriteOutcome
    return { outcome, user }
  }

  /** Deletes the user as read ('stale' when it changed since), and takes it out of its groups. */
  async deleteUser(accountId: string, user: User): Promise<WriteOutcome> {
    return (await this.scripts.userDelete(
      ...this.userKeys(accountId),
      this.ka(accountId, 'user-groups', accountId, user.id),
      this.ka(accountId, 'groups', accountId),
      user.id,
      nameKey(user.userName),
      String(user.version),
      index(user),
      this.ka(accountId, 'group-members', accountId, ''),
      Date.now(),
    )) as WriteOutcome
  }

  async user(accountId: string, id: string): Promise<User | undefined> {
    const json = await this.redis.hget(this.ka(accountId, 'users', accountId), id)
    return json ? (JSON.parse(json) as User) : undefined
  }

  /** The users of these ids that exist, in the order given. */
  async usersById(accountId: string, ids: readonly string[]): Promise<User[]> {
    return this.resources<User>(this.ka(accountId, 'users', accountId), ids)
  }

  userCount(accountId: string): Promise<number> {
    return this.redis.zcard(this.ka(accountId, 'users-order', accountId))
  }

  /** Ids of users in creation order, from offset (0-based). */
  userIds(accountId: string, offset: number, count: number): Promise<string[]> {
    return this.redis.zrange(this.ka(accountId, 'users-order', accountId), offset, offset + count - 1)
  }

  async userIdByName(accountId: string, userName: string): Promise<string | undefined> {
    return (await this.redis.hget(this.ka(accountId, 'user-names', accountId), nameKey(userName))) ?? undefined
  }

  userIdsByExternalId(accountId: string, externalId: string): Promise<string[]> {
    return this.lookup(this.ka(accountId, 'user-external', accountId), externalId)
  }

  userIdsByEmail(accountId: string, email: string): Promise<string[]> {
    return this.lookup(this.ka(accountId, 'user-emails', accountId), nameKey(email))
  }

  /** Every user of the account in creation order (small accounts, the CLI). */
  async users(accountId: string): Promise<User[]> {
    return this.usersById(accountId, await this.redis.zrange(this.ka(accountId, 'users-order', accountId), 0, -1))
  }

  private userKeys(accountId: string): [string, string, string, string, string] {
    return [
      this.ka(accountId, 'user-names', accountId),
      this.ka(accountId, 'users', accountId),
      this.ka(accountId, 'users-order', accountId),
      this.ka(accountId, 'user-external', accountId),
      this.ka(accountId, 'user-emails', accountId),
    ]
  }

  // ---- groups ----

  async createGroup(
    accountId: string,
    input: GroupInput,
    members: readonly string[],
  ): Promise<{ outcome: WriteOutcome; group: Group }> {
    const now = Date.now()
    const group: Group = { ...input, id: randomUUID(), created: now, lastModified: now, version: 1 }
    const outcome = (await this.scripts.groupWrite(
      ...this.groupKeys(accountId, group.id),
      group.id,
      nameKey(group.displayName),
      JSON.stringify(group),
      now,
      '',
      '',
      externals(undefined),
      externals(group),
      this.ka(accountId, 'user-groups', accountId, ''),
      JSON.stringify(members),
    )) as WriteOutcome
    return { outcome, group }
  }

  /** Replaces a group read at `current`, and its members with `members`. */
  async replaceGroup(
    accountId: string,
    current: Group,
    next: GroupInput,
    members: readonly string[],
  ): Promise<{ outcome: WriteOutcome; group: Group }> {
    const group: Group = {
      ...next,
      id: current.id,
      created: current.created,
      lastModified: Math.max(Date.now(), current.lastModified + 1),
      version: current.version + 1,
    }
    const outcome = (await this.scripts.groupWrite(
      ...this.groupKeys(accountId, group.id),
      group.id,
      nameKey(group.displayName),
      JSON.stringify(group),
      current.created,
      String(current.version),
      nameKey(current.displayName),
      externals(current),
      externals(group),
      this.ka(accountId, 'user-groups', accountId, ''),
      JSON.stringify(members),
    )) as WriteOutcome
    return { outcome, group }
  }

  async deleteGroup(accountId: string, group: Group): Promise<WriteOutcome> {
    const [names, groups, order, external, members] = this.groupKeys(accountId, group.id)
    return (await this.scripts.groupDelete(
      names,
      groups,
      order,
      external,
      members,
      group.id,
      nameKey(group.displayName),
      String(group.version),
      externals(group),
      this.ka(accountId, 'user-groups', accountId, ''),
    )) as WriteOutcome
  }

  async group(accountId: string, id: string): Promise<Group | undefined> {
    const json = await this.redis.hget(this.ka(accountId, 'groups', accountId), id)
    return json ? (JSON.parse(json) as Group) : undefined
  }

  groupsById(accountId: string, ids: readonly string[]): Promise<Group[]> {
    return this.resources<Group>(this.ka(accountId, 'groups', accountId), ids)
  }

  groupCount(accountId: string): Promise<number> {
    return this.redis.zcard(this.ka(accountId, 'groups-order', accountId))
  }

  groupIds(accountId: string, offset: number, count: number): Promise<string[]> {
    return this.redis.zrange(this.ka(accountId, 'groups-order', accountId), offset, offset + count - 1)
  }

  async groupIdByName(accountId: string, displayName: string): Promise<string | undefined> {
    return (await this.redis.hget(this.ka(accountId, 'group-names', accountId), nameKey(displayName))) ?? undefined
  }

  groupIdsByExternalId(accountId: string, externalId: string): Promise<string[]> {
    return this.lookup(this.ka(accountId, 'group-external', accountId), externalId)
  }

  /** The user ids of a group's members. */
  members(accountId: string, groupId: string): Promise<string[]> {
    return this.redis.smembers(this.ka(accountId, 'group-members', accountId, groupId))
  }

  /** The group ids of a user. */
  groupsOf(accountId: string, userId: string): Promise<string[]> {
    return this.redis.smembers(this.ka(accountId, 'user-groups', accountId, userId))
  }

  /** The group ids of each user, in one round trip. */
  async groupsOfMany(accountId: string, userIds: readonly string[]): Promise<string[][]> {
    if (userIds.length === 0) return []
    const pipe = this.redis.pipeline()
    for (const id of userIds) pipe.smembers(this.ka(accountId, 'user-groups', accountId, id))
    return ((await pipe.exec()) ?? []).map(([, ids]) => (ids as string[] | null) ?? [])
  }

  private groupKeys(accountId: string, groupId: string): [string, string, string, string, string, string] {
    return [
      this.ka(accountId, 'group-names', accountId),
      this.ka(accountId, 'groups', accountId),
      this.ka(accountId, 'groups-order', accountId),
      this.ka(accountId, 'group-external', accountId),
      this.ka(accountId, 'group-members', accountId, groupId),
      this.ka(accountId, 'users', accountId),
    ]
  }

  // ---- shared ----

  private async resources<T>(hash: string, ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return []
    const jsons = await this.redis.hmget(hash, ...ids)
    return jsons.flatMap((j) => (j ? [JSON.parse(j) as T] : []))
  }

  /** Ids whose entry in a lexicographic index has exactly this value. */
  private async lookup(key: string, value: string): Promise<string[]> {
    const entries = await this.redis.zrangebylex(key, `[${value}\u0000`, `(${value}\u0001`)
    return entries.map((e) => e.slice(value.length + 1))
  }
}
