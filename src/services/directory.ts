// Users and groups of an account as use cases, whoever asks (SCIM or `sluice users|groups`): lists
// answered from indexes where the filter allows it (else a scan in slices, never the whole account
// in memory), writes that retry on a concurrent change but never overwrite one, versions
// (If-Match), the user limit of an account, and memberships. Filters are compiled by the caller
// (admin/harness/scim/filter.ts) and handed in as a predicate with its index plan.
import { Refusal } from '../shared/errors.js'
import type { DirectoryStore, Group, GroupInput, User, UserInput, WriteOutcome } from '../state/redis/directory.js'

/** Index lookups whose union holds every match of a filter (see the SCIM filter's plan). */
export interface Lookup {
  readonly attribute: 'id' | 'userName' | 'externalId' | 'email' | 'displayName' | 'member'
  readonly value: string
}

export interface Query<T> {
  readonly test: (resource: T) => boolean
  /** Undefined: no index answers the filter; the resources are scanned in slices. */
  readonly plan: readonly Lookup[] | undefined
  /** 1-based. */
  readonly startIndex: number
  readonly count: number
}

export interface Page<T> {
  readonly total: number
  readonly resources: readonly T[]
}

/** A group as listed: its members' ids when they were asked for. */
export type GroupWithMembers = Group & { readonly members?: readonly string[] }

/** Users an account may hold: lists and filters are answered from indexes, or scanned in slices. */
export const MAX_USERS_PER_ACCOUNT = 1_000_000

const SCAN_SLICE = 1000
const WRITE_ATTEMPTS = 5

export class DirectoryService {
  constructor(
    private readonly directory: DirectoryStore,
    private readonly maxUsersPerAccount = MAX_USERS_PER_ACCOUNT,
  ) {}

  // ---- users ----

  async user(accountId: string, id: string): Promise<User> {
    const user = await this.directory.user(accountId, id)
    if (!user) throw new Refusal('NOT_FOUND', `User ${id} not found`)
    return user
  }

  async listUsers(accountId: string, q: Query<User>): Promise<Page<User>> {
    const d = this.directory
    if (q.plan) {
      const ids = await Promise.all(
        q.plan.map(async (l): Promise<string[]> => {
          if (l.attribute === 'id') return [l.value]
          if (l.attribute === 'userName') return [(await d.userIdByName(accountId, l.value)) ?? []].flat()
          if (l.attribute === 'externalId') return d.userIdsByExternalId(accountId, l.value)
          if (l.attribute === 'email') return d.userIdsByEmail(accountId, l.value)
          return []
        }),
      )
      return pageOf(await d.usersById(accountId, [...new Set(ids.flat())]), q)
    }
    return this.scan(
      q,
      () => d.userCount(accountId),
      (offset, n) => d.userIds(accountId, offset, n),
      (ids) => d.usersById(accountId, ids),
    )
  }

  async createUser(accountId: string, input: UserInput): Promise<User> {
    if ((await this.directory.userCount(accountId)) >= this.maxUsersPerAccount)
      throw new Refusal('INVALID', `an account holds at most ${this.maxUsersPerAccount} users`)
    const { outcome, user } = await this.directory.createUser(accountId, input)
    if (outcome !== 'ok') throw new Refusal('CONFLICT', `userName ${input.userName} is already taken`)
    return user
  }

  /**
   * Writes change(current); retries when another write came in between, unless the caller named the version it changes
   * (ifMatch).
   */
  async changeUser(
    accountId: string,
    id: string,
    change: (current: User) => UserInput,
    ifMatch?: string,
  ): Promise<User> {
    return this.retrying(async () => {
      const current = matching(await this.user(accountId, id), ifMatch)
      const { outcome, user } = await this.directory.replaceUser(accountId, current, change(current))
      return [refuse(outcome, 'userName is already taken', ifMatch), user]
    })
  }

  async deleteUser(accountId: string, id: string, ifMatch?: string): Promise<void> {
    await this.retrying(async () => [
      refuse(
        await this.directory.deleteUser(accountId, matching(await this.user(accountId, id), ifMatch)),
        '',
        ifMatch,
      ),
      undefined,
    ])
  }

  /** Each user's groups (id and displayName), for the users' read-only `groups` attribute. */
  async groupsOfUsers(
    accountId: string,
    userIds: readonly string[],
  ): Promise<Map<string, { value: string; display: string }[]>> {
    const ids = await this.directory.groupsOfMany(accountId, userIds)
    const groups = new Map((await this.directory.groupsById(accountId, [...new Set(ids.flat())])).map((g) => [g.id, g]))
    return new Map(
      userIds.map((uid, i) => [
        uid,
        ids[i]!.flatMap((gid) => (groups.has(gid) ? [{ value: gid, display: groups.get(gid)!.displayName }] : [])),
      ]),
    )
  }

  // ---- groups ----

  async group(accountId: string, id: string): Promise<Group> {
    const group = await this.directory.group(accountId, id)
    if (!group) throw new Refusal('NOT_FOUND', `Group ${id} not found`)
    return group
  }

  async listGroups(
    accountId: string,
    q: Query<GroupWithMembers>,
    needsMembers: boolean,
  ): Promise<Page<GroupWithMembers>> {
    const d = this.directory
    const load = async (ids: readonly string[]): Promise<GroupWithMembers[]> => {
      const groups = await d.groupsById(accountId, ids)
      return needsMembers
        ? Promise.all(groups.map(async (g) => ({ ...g, members: await d.members(accountId, g.id) })))
        : groups
    }
    if (q.plan) {
      const ids = await Promise.all(
        q.plan.map(async (l): Promise<string[]> => {
          if (l.attribute === 'id') return [l.value]
          if (l.attribute === 'displayName') return [(await d.groupIdByName(accountId, l.value)) ?? []].flat()
          if (l.attribute === 'externalId') return d.groupIdsByExternalId(accountId, l.value)
          if (l.attribute === 'member') return d.groupsOf(accountId, l.value)
          return []
        }),
      )
      return pageOf(await load([...new Set(ids.flat())]), q)
    }
    return this.scan(
      q,
      () => d.groupCount(accountId),
      (offset, n) => d.groupIds(accountId, offset, n),
      load,
    )
  }

  /** A group's members (user ids, in a stable order). */
  async members(accountId: string, groupId: string): Promise<string[]> {
    return (await this.directory.members(accountId, groupId)).sort()
  }

  async createGroup(accountId: string, input: GroupInput, members: readonly string[]): Promise<Group> {
    const { outcome, group } = await this.directory.createGroup(accountId, input, members)
    refuse(outcome, `displayName ${input.displayName} is already taken`)
    return group
  }

  /** Writes change(current, members), members included, with the same retries as users. */
  async changeGroup(
    accountId: string,
    id: string,
    change: (current: Group, members: readonly string[]) => { input: GroupInput; members: readonly string[] },
    ifMatch?: string,
  ): Promise<Group> {
    return this.retrying(async () => {
      const current = matching(await this.group(accountId, id), ifMatch)
      const next = change(current, await this.directory.members(accountId, id))
      const { outcome, group } = await this.directory.replaceGroup(accountId, current, next.input, next.members)
      return [refuse(outcome, `displayName ${next.input.displayName} is already taken`, ifMatch), group]
    })
  }

  async deleteGroup(accountId: string, id: string, ifMatch?: string): Promise<void> {
    await this.retrying(async () => [
      refuse(
        await this.directory.deleteGroup(accountId, matching(await this.group(accountId, id), ifMatch)),
        '',
        ifMatch,
      ),
      undefined,
    ])
  }

  // ---- shared ----

  /** Runs a read-then-write attempt until it is not stale (another write came in between). */
  private async retrying<T>(attempt: () => Promise<[WriteOutcome, T]>): Promise<T> {
    for (let i = 0; i < WRITE_ATTEMPTS; i++) {
      const [outcome, result] = await attempt()
      if (outcome === 'ok') return result
    }
    throw new Refusal('CONFLICT', 'the resource kept changing while it was written; retry')
  }

  /**
   * The resources in creation order that pass the test, a page of them and their total, read a
   * slice at a time: the whole account is never in memory.
   */
  private async scan<T>(
    q: Query<T>,
    count: () => Promise<number>,
    ids: (offset: number, n: number) => Promise<string[]>,
    load: (ids: readonly string[]) => Promise<T[]>,
  ): Promise<Page<T>> {
    const first = q.startIndex - 1
    const all = q.plan === undefined && q.test === acceptAll
    if (all) return { total: await count(), resources: q.count === 0 ? [] : await load(await ids(first, q.count)) }
    const resources: T[] = []
    let total = 0
    for (let offset = 0; ; offset += SCAN_SLICE) {
      const slice = await ids(offset, SCAN_SLICE)
      for (const r of await load(slice)) {
        if (!q.test(r)) continue
        if (total >= first && resources.length < q.count) resources.push(r)
        total++
      }
      if (slice.length < SCAN_SLICE) return { total, resources }
    }
  }
}

/** The predicate of no filter: a list without a filter pages the creation order directly. */
export const acceptAll = (): boolean => true

function pageOf<T extends { created: number }>(candidates: readonly T[], q: Query<T>): Page<T> {
  const matches = candidates.filter((r) => q.test(r)).sort((a, b) => a.created - b.created)
  return { total: matches.length, resources: matches.slice(q.startIndex - 1, q.startIndex - 1 + q.count) }
}

/** The resource, if it is at the version the caller named (an ETag, W/"<version>"). */
function matching<T extends { version: number }>(resource: T, ifMatch: string | undefined): T {
  if (ifMatch === undefined || ifMatch.trim() === '*') return resource
  const versions = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, '').replace(/^"|"$/g, ''))
  if (!versions.includes(String(resource.version)))
    throw new Refusal('PRECONDITION_FAILED', `the resource is at version W/"${resource.version}", not ${ifMatch}`)
  return resource
}

/** The outcome of a write, refused when it cannot be retried. */
function refuse(outcome: WriteOutcome, conflict: string, ifMatch?: string): WriteOutcome {
  if (outcome === 'conflict') throw new Refusal('CONFLICT', conflict)
  if (outcome === 'missing') throw new Refusal('NOT_FOUND', 'the resource was deleted')
  if (outcome.startsWith('no-member:'))
    throw new Refusal('INVALID', `members: no user ${outcome.slice('no-member:'.length)} in this account`, [
      { field: 'members', problem: `no user ${outcome.slice('no-member:'.length)}` },
    ])
  if (outcome === 'stale' && ifMatch !== undefined && ifMatch.trim() !== '*')
    throw new Refusal('PRECONDITION_FAILED', 'the resource changed since the version given in If-Match')
  return outcome
}
