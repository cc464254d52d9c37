// Platform access of an account (Harness side): service accounts with permissions, personal access
// tokens, account feature flags and account settings. Users and groups are the directory's.
//
// Keys (prefix p):
//   p:service-accounts:<account>  hash id -> JSON      p:account-flags:<account>  set of flag names
//   p:pats                        hash sha256(token) -> JSON
//   p:settings:<account>          hash identifier -> JSON {value, previous, effectiveAt, lastModifiedAt, by}
import { randomBytes } from 'node:crypto'
import { RedisState } from './redis-state.js'
import { hashKey } from './tenancy.js'

export const PERMISSIONS = [
  'core_setting_view',
  'core_setting_edit',
  'core_user_view',
  'core_user_manage',
  'core_user_invite',
  'core_usergroup_view',
  'core_usergroup_manage',
] as const
export type Permission = (typeof PERMISSIONS)[number]
/** What the service account behind SCIM calls must hold (SCIM JWT rule 3). */
export const SCIM_PERMISSIONS: readonly Permission[] = [
  'core_user_view',
  'core_user_manage',
  'core_user_invite',
  'core_usergroup_view',
  'core_usergroup_manage',
]
/** What a personal access token needs to write account settings. */
export const SETTINGS_PERMISSIONS: readonly Permission[] = ['core_setting_view', 'core_setting_edit']
export const SCIM_JWT_FLAG = 'PL_SUPPORT_JWT_TOKEN_SCIM_API'

export interface ServiceAccount {
  readonly id: string
  readonly name: string
  readonly accountId: string
  readonly permissions: readonly Permission[]
}

export interface PatRecord {
  readonly id: string
  readonly accountId: string
  readonly userId: string
  readonly name: string
  readonly permissions: readonly Permission[]
  readonly createdAt: number
  readonly expiresAt: number
}

export interface SettingRecord {
  /** The value after effectiveAt (null: cleared). */
  readonly value: string | null
  /** The value in effect before effectiveAt. */
  readonly previous: string | null
  readonly effectiveAt: number
  readonly lastModifiedAt: number
}

export class PlatformStore extends RedisState {
  // ---- service accounts ----

  async saveServiceAccount(sa: ServiceAccount): Promise<void> {
    await this.redis.hset(this.ka(sa.accountId, 'service-accounts', sa.accountId), sa.id, JSON.stringify(sa))
  }

  async serviceAccount(accountId: string, id: string): Promise<ServiceAccount | undefined> {
    const json = await this.redis.hget(this.ka(accountId, 'service-accounts', accountId), id)
    return json ? (JSON.parse(json) as ServiceAccount) : undefined
  }

  async serviceAccounts(accountId: string): Promise<ServiceAccount[]> {
    return Object.values(await this.redis.hgetall(this.ka(accountId, 'service-accounts', accountId))).map(
      (j) => JSON.parse(j) as ServiceAccount,
    )
  }

  // ---- personal access tokens ----

  /** Creates a token `pat.<account>.<id>.<secret>`; it is returned once and stored as a SHA-256. */
  async createPat(input: Omit<PatRecord, 'id' | 'createdAt'>): Promise<{ token: string; record: PatRecord }> {
    const record: PatRecord = { ...input, id: randomBytes(8).toString('hex'), createdAt: Date.now() }
    const token = `pat.${input.accountId}.${record.id}.${randomBytes(24).toString('base64url')}`
    await this.redis.hset(this.k('pats'), hashKey(token), JSON.stringify(record))
    return { token, record }
  }

  /** The record of a token (expired or not), looked up by its hash. */
  async pat(token: string): Promise<PatRecord | undefined> {
    const json = await this.redis.hget(this.k('pats'), hashKey(token))
    return json ? (JSON.parse(json) as PatRecord) : undefined
  }

  // ---- flags ----

  async setFlag(accountId: string, flag: string, on: boolean): Promise<void> {
    if (on) await this.redis.sadd(this.ka(accountId, 'account-flags', accountId), flag)
    else await this.redis.srem(this.ka(accountId, 'account-flags', accountId), flag)
  }

  async flags(accountId: string): Promise<string[]> {
    return (await this.redis.smembers(this.ka(accountId, 'account-flags', accountId))).sort()
  }

  async flagOn(accountId: string, flag: string): Promise<boolean> {
    return (await this.redis.sismember(this.ka(accountId, 'account-flags', accountId), flag)) === 1
  }

  // ---- settings ----

  async settings(accountId: string): Promise<Map<string, SettingRecord>> {
    const all = await this.redis.hgetall(this.ka(accountId, 'settings', accountId))
    return new Map(Object.entries(all).map(([id, json]) => [id, JSON.parse(json) as SettingRecord]))
  }

  /**
   * Writes settings that take effect after delayMs, in one HSET; what was in effect at the time of
   * the write stays in effect until then.
   */
  async writeSettings(
    accountId: string,
    changes: ReadonlyMap<string, string | null>,
    delayMs: number,
    now = Date.now(),
  ): Promise<Map<string, SettingRecord>> {
    const current = await this.settings(accountId)
    const written = new Map<string, SettingRecord>()
    for (const [id, value] of changes) {
      written.set(id, {
        value,
        previous: effectiveValue(current.get(id), now),
        effectiveAt: now + delayMs,
        lastModifiedAt: now,
      })
    }
    if (written.size)
      await this.redis.hset(
        this.ka(accountId, 'settings', accountId),
        ...[...written].flatMap(([id, r]) => [id, JSON.stringify(r)]),
      )
    return written
  }
}

/** The value of a setting in effect at `now`. */
export function effectiveValue(record: SettingRecord | undefined, now: number): string | null {
  if (!record) return null
  return now >= record.effectiveAt ? record.value : record.previous
}
