// Tracking plans in Redis (checked by services/plans.ts before they are saved), one per environment. Keys, in the
// account's slot on a cluster:
//   P tracking-plan:<env>            JSON {version, plan, savedAt, savedBy}: the plan now
//   P tracking-plan-versions:<env>   hash version -> JSON of that version (the last PLAN_VERSIONS_KEPT), to read back
//                                    and to diff
//   P tracking-plan-head:<env>       the version now (what the consumers' cache checks before reading the plan)
//   P tracking-plan-log:<env>        list of JSON {version, savedAt, savedBy, mode, eventTypes, bytes}, newest first:
//                                    every change, who made it (the last PLAN_LOG_KEPT)
//   P stored-bytes:<account>         the account's ledger (redis-state.ts): plan:<env>, plan-version:<env>:<n>
// The events consumers cache each environment's plan, check its head when older than SLUICE_INTEGRATION_REFRESH_MS,
// and read it again when it changed.
import type { TrackingPlan } from '../../pipeline/plans.js'
import { RedisState } from './redis-state.js'

export const PLAN_VERSIONS_KEPT = 50
export const PLAN_LOG_KEPT = 1000

export interface StoredPlan {
  readonly version: number
  readonly plan: TrackingPlan
  /** ms */
  readonly savedAt: number
  readonly savedBy: string
}

export interface PlanChange {
  readonly version: number
  readonly savedAt: number
  readonly savedBy: string
  readonly mode: TrackingPlan['mode']
  readonly eventTypes: number
  readonly bytes: number
}

export class PlanStore extends RedisState {
  private planKey = (a: string, env: string) => this.ka(a, 'tracking-plan', env)
  private versionsKey = (a: string, env: string) => this.ka(a, 'tracking-plan-versions', env)
  private headKey = (a: string, env: string) => this.ka(a, 'tracking-plan-head', env)
  private logKey = (a: string, env: string) => this.ka(a, 'tracking-plan-log', env)

  async get(accountId: string, env: string): Promise<StoredPlan | undefined> {
    const json = await this.redis.get(this.planKey(accountId, env))
    return json ? (JSON.parse(json) as StoredPlan) : undefined
  }

  /** The version now, 0 without a plan: what a cache checks. */
  async head(accountId: string, env: string): Promise<number> {
    return Number((await this.redis.get(this.headKey(accountId, env))) ?? 0)
  }

  /** A version saved before (undefined when older than the versions kept, or never saved). */
  async at(accountId: string, env: string, version: number): Promise<StoredPlan | undefined> {
    const json = await this.redis.hget(this.versionsKey(accountId, env), String(version))
    return json ? (JSON.parse(json) as StoredPlan) : undefined
  }

  /** Every change, newest first. */
  async log(accountId: string, env: string): Promise<PlanChange[]> {
    return (await this.redis.lrange(this.logKey(accountId, env), 0, -1)).map((j) => JSON.parse(j) as PlanChange)
  }

  /** Saves the plan as the next version if the current one is `expected`; 'conflict' when another change came first. */
  async save(
    accountId: string,
    env: string,
    plan: TrackingPlan,
    expected: number,
    savedBy: string,
  ): Promise<StoredPlan | 'conflict'> {
    const key = this.planKey(accountId, env)
    return this.tx.optimistic<StoredPlan | 'conflict'>([key, this.bytesKey(accountId)], async (conn) => {
      const json = await conn.get(key)
      const version = json ? (JSON.parse(json) as StoredPlan).version : 0
      if (expected !== version) return { done: 'conflict' }
      const next: StoredPlan = { version: version + 1, plan, savedAt: Date.now(), savedBy }
      const text = JSON.stringify(next)
      const bytes = Buffer.byteLength(text)
      const field = (v: number) => `plan-version:${env}:${v}`
      const oldest = next.version - PLAN_VERSIONS_KEPT
      // The plan and its copy among the versions count; older versions are let go, oldest first, to make room.
      const older = Array.from({ length: PLAN_VERSIONS_KEPT - 1 }, (_, i) => field(oldest + 1 + i))
      const { queue, dropped } = await this.chargeBytes(
        conn,
        accountId,
        { [`plan:${env}`]: bytes, [field(next.version)]: bytes, [field(oldest)]: 0 },
        `tracking plan version ${next.version}`,
        { letGo: older.slice(0, -1) },
      )
      const change: PlanChange = {
        version: next.version,
        savedAt: next.savedAt,
        savedBy,
        mode: plan.mode,
        eventTypes: Object.keys(plan.events).length,
        bytes,
      }
      const tx = conn
        .multi()
        .set(key, text)
        .hset(this.versionsKey(accountId, env), String(next.version), text)
        .hdel(this.versionsKey(accountId, env), String(oldest), ...dropped.map((f) => f.slice(f.lastIndexOf(':') + 1)))
        .set(this.headKey(accountId, env), next.version)
        .lpush(this.logKey(accountId, env), JSON.stringify(change))
        .ltrim(this.logKey(accountId, env), 0, PLAN_LOG_KEPT - 1)
      queue(tx)
      return { tx, result: next }
    })
  }
}
