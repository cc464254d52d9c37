// The platform side of an account: users (the same users SCIM manages), service accounts and their
// permissions, personal access tokens, and account feature flags.
import { Refusal } from '../shared/errors.js'
import {
  PERMISSIONS,
  SCIM_PERMISSIONS,
  SETTINGS_PERMISSIONS,
  type PlatformStore,
  type PatRecord,
  type Permission,
  type ServiceAccount,
} from '../state/redis/platform.js'
import type { DirectoryStore, User } from '../state/redis/directory.js'

const SERVICE_ACCOUNT_ID = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
const FLAG_NAME = /^[A-Z][A-Z0-9_]{0,99}$/

export class PlatformService {
  constructor(
    private readonly platform: PlatformStore,
    private readonly directory: DirectoryStore,
  ) {}

  async createUser(
    accountId: string,
    input: { userName: string; email?: string; displayName?: string },
  ): Promise<User> {
    const email = input.email ?? (input.userName.includes('@') ? input.userName : undefined)
    const { outcome, user } = await this.directory.createUser(accountId, {
      userName: input.userName,
      active: true,
      ...(input.displayName ? { displayName: input.displayName } : {}),
      ...(email ? { emails: [{ value: email, type: 'work', primary: true }] } : {}),
    })
    if (outcome !== 'ok') throw new Refusal('CONFLICT', `userName ${input.userName} is already taken`)
    return user
  }

  users(accountId: string): Promise<User[]> {
    return this.directory.users(accountId)
  }

  /** Creates or updates a service account; `scim` adds the permissions SCIM calls need. */
  async saveServiceAccount(
    accountId: string,
    input: { id: string; name?: string; permissions: readonly string[]; scim: boolean },
  ): Promise<ServiceAccount> {
    if (!SERVICE_ACCOUNT_ID.test(input.id))
      throw new Refusal('INVALID', 'a service account id is a letter or _, then letters, digits or _, at most 64')
    const sa: ServiceAccount = {
      id: input.id,
      name: input.name ?? input.id,
      accountId,
      permissions: [...new Set([...checkPermissions(input.permissions), ...(input.scim ? SCIM_PERMISSIONS : [])])],
    }
    await this.platform.saveServiceAccount(sa)
    return sa
  }

  serviceAccounts(accountId: string): Promise<ServiceAccount[]> {
    return this.platform.serviceAccounts(accountId)
  }

  /** A token of a user of the account (default permissions: view and edit settings), shown once. */
  async createPat(
    accountId: string,
    input: { userId: string; name: string; expiresInDays: number; permissions?: readonly string[] },
  ): Promise<{ token: string; record: PatRecord }> {
    if (!(await this.directory.user(accountId, input.userId)))
      throw new Refusal('NOT_FOUND', `no user ${input.userId} in account ${accountId}`)
    const permissions = input.permissions ? checkPermissions(input.permissions) : [...SETTINGS_PERMISSIONS]
    return this.platform.createPat({
      accountId,
      userId: input.userId,
      name: input.name,
      permissions,
      expiresAt: Date.now() + input.expiresInDays * 86_400_000,
    })
  }

  async setFlag(accountId: string, flag: string, on: boolean): Promise<void> {
    if (!FLAG_NAME.test(flag)) throw new Refusal('INVALID', 'a flag name is upper-case letters, digits and _')
    await this.platform.setFlag(accountId, flag, on)
  }

  flags(accountId: string): Promise<string[]> {
    return this.platform.flags(accountId)
  }
}

function checkPermissions(permissions: readonly string[]): Permission[] {
  const unknown = permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p))
  if (unknown.length)
    throw new Refusal('INVALID', `unknown permission ${unknown.join(', ')}; permissions are ${PERMISSIONS.join(', ')}`)
  return permissions as Permission[]
}
