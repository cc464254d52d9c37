// An account's alert rules and maintenance windows in Redis (checked by services/rules-and-windows.ts
// before they are saved). Keys, in the account's slot on a cluster:
//   P alert-rules:<account>            JSON {version, rules, updatedAt, updatedBy}: the rule set now
//   P alert-rules-versions:<account>   hash version -> JSON of that set (the last RULE_VERSIONS_KEPT),
//                                      so an alert's rulesVersion can be read back
//   P alert-policy-versions:<account>  hash rules, windows -> their versions (what a cache checks first)
//   P maintenance-windows:<account>    JSON {version, windows}
//   P alerts:acct:<account>:windows    set of the windows' ids, for the alert scripts
//   P stored-bytes:<account>           the account's ledger of stored bytes (redis-state.ts): rules, rule-version:<n>,
//                                      windows (and the destinations' fields, state/redis/notify.ts)
// The alerts consumers cache both per account, check their versions when older than the integration
// refresh interval (SLUICE_INTEGRATION_REFRESH_MS), and read them again when a version changed.
import type { AlertRule } from '../../pipeline/alerts/rules.js'
import type { MaintenanceWindow } from '../../pipeline/alerts/windows.js'
import { RedisState } from './redis-state.js'

export const RULE_VERSIONS_KEPT = 50

export interface StoredRuleSet {
  readonly version: number
  readonly rules: readonly AlertRule[]
  /** ms; 0 for the empty set of an account that never saved one. */
  readonly updatedAt: number
  readonly updatedBy?: string
}

export interface StoredWindow extends MaintenanceWindow {
  readonly createdAt: number
  readonly updatedAt: number
}

export interface StoredWindows {
  readonly version: number
  readonly windows: readonly StoredWindow[]
}

/** A version's field in the account's ledger of stored bytes. */
const VERSION_FIELD = 'rule-version:'
const versionField = (version: number) => `${VERSION_FIELD}${version}`

const EMPTY_RULES: StoredRuleSet = { version: 0, rules: [], updatedAt: 0 }
const EMPTY_WINDOWS: StoredWindows = { version: 0, windows: [] }

export class RulesAndWindowsStore extends RedisState {
  private rulesKey = (accountId: string) => this.ka(accountId, 'alert-rules', accountId)
  private versionsKey = (accountId: string) => this.ka(accountId, 'alert-rules-versions', accountId)
  private windowsKey = (accountId: string) => this.ka(accountId, 'maintenance-windows', accountId)
  /** The rules' and windows' versions, read by the consumers' cache before the (larger) rules and windows. */
  // The key keeps its first name ("policies" was the name of rules and windows together), so stored versions stay.
  private versionsOfKey = (accountId: string) => this.ka(accountId, 'alert-policy-versions', accountId)
  /** The windows' ids, where the alert scripts check that a hold's window exists (lua/alert-lifecycle.lua). */
  private windowIdsKey = (accountId: string) => this.ka(accountId, 'alerts', 'acct', accountId, 'windows')

  async rules(accountId: string): Promise<StoredRuleSet> {
    const json = await this.redis.get(this.rulesKey(accountId))
    return json ? (JSON.parse(json) as StoredRuleSet) : EMPTY_RULES
  }

  /** A set saved before (undefined when it is older than the versions kept, or never was). */
  async rulesAt(accountId: string, version: number): Promise<StoredRuleSet | undefined> {
    const json = await this.redis.hget(this.versionsKey(accountId), String(version))
    return json ? (JSON.parse(json) as StoredRuleSet) : undefined
  }

  /**
   * Saves rules as the next version, if the current one is `expected` (when given); 'conflict' when another change
   * came first.
   */
  async saveRules(
    accountId: string,
    rules: readonly AlertRule[],
    expected: number | undefined,
    updatedBy: string,
  ): Promise<StoredRuleSet | 'conflict'> {
    const key = this.rulesKey(accountId)
    return this.tx.optimistic<StoredRuleSet | 'conflict'>([key, this.bytesKey(accountId)], async (conn) => {
      const json = await conn.get(key)
      const current = json ? (JSON.parse(json) as StoredRuleSet) : EMPTY_RULES
      if (expected !== undefined && expected !== current.version) return { done: 'conflict' }
      const next: StoredRuleSet = { version: current.version + 1, rules, updatedAt: Date.now(), updatedBy }
      const text = JSON.stringify(next)
      const bytes = Buffer.byteLength(text)
      const oldest = next.version - RULE_VERSIONS_KEPT
      // The set and its copy among the versions count; older versions are let go, oldest first, to make room.
      const older = Array.from({ length: RULE_VERSIONS_KEPT - 1 }, (_, i) => versionField(oldest + 1 + i))
      const { queue, dropped } = await this.chargeBytes(
        conn,
        accountId,
        { rules: bytes, [versionField(next.version)]: bytes, [versionField(oldest)]: 0 },
        `rule set version ${next.version}`,
        { letGo: older.slice(0, -1), stored: { rules: json ? Buffer.byteLength(json) : 0 } },
      )
      const tx = conn
        .multi()
        .set(key, text)
        .hset(this.versionsKey(accountId), String(next.version), text)
        .hdel(this.versionsKey(accountId), String(oldest), ...dropped.map((f) => f.slice(VERSION_FIELD.length)))
        .hset(this.versionsOfKey(accountId), 'rules', next.version)
      queue(tx)
      return { tx, result: next }
    })
  }

  async windows(accountId: string): Promise<StoredWindows> {
    const json = await this.redis.get(this.windowsKey(accountId))
    return json ? (JSON.parse(json) as StoredWindows) : EMPTY_WINDOWS
  }

  /** Applies change to the account's windows inside a transaction (a concurrent change retries it). */
  async changeWindows<T>(
    accountId: string,
    change: (windows: readonly StoredWindow[]) => { windows: readonly StoredWindow[]; result: T },
  ): Promise<T> {
    const key = this.windowsKey(accountId)
    return this.tx.optimistic<T>([key, this.bytesKey(accountId)], async (conn) => {
      const json = await conn.get(key)
      const current = json ? (JSON.parse(json) as StoredWindows) : EMPTY_WINDOWS
      const { windows, result } = change(current.windows)
      if (windows === current.windows) return { done: result }
      const next: StoredWindows = { version: current.version + 1, windows }
      const text = JSON.stringify(next)
      const { queue } = await this.chargeBytes(conn, accountId, { windows: Buffer.byteLength(text) }, 'this window', {
        stored: { windows: json ? Buffer.byteLength(json) : 0 },
      })
      const ids = this.windowIdsKey(accountId)
      const tx = conn.multi().set(key, text).hset(this.versionsOfKey(accountId), 'windows', next.version).del(ids)
      if (windows.length > 0) tx.sadd(ids, ...windows.map((w) => w.id))
      queue(tx)
      return { tx, result }
    })
  }

  /**
   * The versions of the rules and of the windows; undefined for one never saved since versions were kept apart (the
   * caller then reads the rules and windows themselves).
   */
  async versions(accountId: string): Promise<{ rules?: number; windows?: number }> {
    const [rules, windows] = await this.redis.hmget(this.versionsOfKey(accountId), 'rules', 'windows')
    return {
      ...(rules !== null && rules !== undefined ? { rules: Number(rules) } : {}),
      ...(windows !== null && windows !== undefined ? { windows: Number(windows) } : {}),
    }
  }

  /** Both, for the alerts consumers' cache. */
  async rulesAndWindows(accountId: string): Promise<{ rules: StoredRuleSet; windows: StoredWindows }> {
    const [rules, windows] = await Promise.all([this.rules(accountId), this.windows(accountId)])
    return { rules, windows }
  }
}
