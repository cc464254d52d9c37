// What Sluice keeps about experiments beyond the metrics: each flag's analysis settings per environment, the
// workspace's defaults, and the checks role's state (which run slot is taken, which check alerts are open, the
// account's internal integration, where the account's last run stopped).
//
// Keys (prefix p):
//   p:exp-flags:<ws>:<env>         hash flag -> settings JSON {weights, baseline}
//   p:exp-defaults:<ws>            string: the workspace's defaults JSON
//                                  {sequential, sequentialTuning, cuped, correction}
//   p:exp-checks:run:<slot>        string, set NX with an expiry: the process that runs the checks of this slot
//   p:exp-checks:lock              string, set NX with an expiry renewed while it runs: the process running checks
//   p:exp-checks:<account>:open    hash alert id -> JSON {integrationId, environmentId, environment, flag, severity}:
//                                  check alerts firing
//   p:exp-checks:<account>:integration  string: the id of the account's experiment checks integration
//   p:exp-checks:<account>:cursor  hash saved|other -> "<environment id>\n<flag>": the last flag of each group (flags
//                                  with saved settings, the others) the account's last run checked
import { RedisState } from './redis-state.js'

export interface FlagSettings {
  /** Expected traffic shares of the treatments (the sample ratio check's), e.g. {on: 50, off: 50}. */
  readonly weights: Readonly<Record<string, number>> | null
  readonly baseline: string | null
}

export interface ExperimentDefaults {
  readonly engine: 'frequentist' | 'bayesian'
  readonly sequential: boolean
  readonly sequentialTuning: number
  readonly cuped: boolean
  readonly correction: 'bh' | 'holm' | 'none'
  /** The Bayesian engine's prior: flat, or proper with this mean and variance (on the relative lift). */
  readonly prior: 'flat' | 'proper'
  readonly priorMean: number
  readonly priorVariance: number
  /** The family a breakdown's comparisons are corrected in: all of them, a metric's or a slice's. */
  readonly correctionScope: 'all' | 'metric' | 'slice'
  /**
   * The dimension the checks role breaks running experiments down by (as a request's `dimension`), raising a slice
   * whose guardrail effect differs from the rest's as an informational alert; null: none.
   */
  readonly checksDimension: string | null
}

export interface OpenCheck {
  readonly integrationId: string
  readonly environmentId: string
  /** The environment's name, as the alert says it (absent in entries written before it was kept). */
  readonly environment?: string
  readonly flag: string
  /** The severity it was raised with (absent in entries written before it was kept). */
  readonly severity?: 'critical' | 'warning' | 'info'
}

/** Where the checks of an account stopped, per group of its flags. */
export interface CheckCursor {
  saved?: string
  other?: string
}

export class ExperimentStore extends RedisState {
  async flagSettings(ws: string, env: string, flag: string): Promise<FlagSettings | undefined> {
    const json = await this.redis.hget(this.kw(ws, 'exp-flags', ws, env), flag)
    return json === null ? undefined : (JSON.parse(json) as FlagSettings)
  }

  async saveFlagSettings(ws: string, env: string, flag: string, settings: FlagSettings): Promise<void> {
    await this.redis.hset(this.kw(ws, 'exp-flags', ws, env), flag, JSON.stringify(settings))
  }

  /** The names of the environment's flags with saved settings, read a page at a time (no long command). */
  async savedFlagNames(ws: string, env: string): Promise<string[]> {
    const names: string[] = []
    for (let cursor = '0'; ;) {
      const [next, page] = await this.redis.hscan(this.kw(ws, 'exp-flags', ws, env), cursor, 'COUNT', 500)
      for (let i = 0; i < page.length; i += 2) names.push(page[i]!)
      if (next === '0') break
      cursor = next
    }
    return [...new Set(names)].sort()
  }

  async deleteFlagSettings(ws: string, env: string, flag: string): Promise<boolean> {
    return (await this.redis.hdel(this.kw(ws, 'exp-flags', ws, env), flag)) > 0
  }

  async defaults(ws: string): Promise<ExperimentDefaults | undefined> {
    const json = await this.redis.get(this.kw(ws, 'exp-defaults', ws))
    return json === null ? undefined : (JSON.parse(json) as ExperimentDefaults)
  }

  async saveDefaults(ws: string, defaults: ExperimentDefaults): Promise<void> {
    await this.redis.set(this.kw(ws, 'exp-defaults', ws), JSON.stringify(defaults))
  }

  /** Whether this process takes the checks of run slot `slot` (the first to ask does; the claim lasts `ttlMs`). */
  async claimCheckRun(slot: number, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.k('exp-checks', 'run', String(slot)), owner, 'PX', ttlMs, 'NX')) === 'OK'
  }

  /** Whether this process may run checks now: no other holds the lock (held `ttlMs` unless renewed). */
  async lockChecks(owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.k('exp-checks', 'lock'), owner, 'PX', ttlMs, 'NX')) === 'OK'
  }

  /** Keeps the lock `ttlMs` more; false if this process no longer holds it (it expired and another took it). */
  async renewChecksLock(owner: string, ttlMs: number): Promise<boolean> {
    return (await this.scripts.lockOwned(this.k('exp-checks', 'lock'), owner, 'renew', ttlMs)) === 1
  }

  async unlockChecks(owner: string): Promise<void> {
    await this.scripts.lockOwned(this.k('exp-checks', 'lock'), owner, 'release', 0)
  }

  async openChecks(accountId: string): Promise<Map<string, OpenCheck>> {
    const all = await this.redis.hgetall(this.ka(accountId, 'exp-checks', accountId, 'open'))
    return new Map(Object.entries(all).map(([id, json]) => [id, JSON.parse(json) as OpenCheck]))
  }

  async markOpen(accountId: string, alertId: string, check: OpenCheck): Promise<void> {
    await this.redis.hset(this.ka(accountId, 'exp-checks', accountId, 'open'), alertId, JSON.stringify(check))
  }

  async markResolved(accountId: string, alertId: string): Promise<void> {
    await this.redis.hdel(this.ka(accountId, 'exp-checks', accountId, 'open'), alertId)
  }

  async checksCursor(accountId: string): Promise<CheckCursor> {
    const { saved, other } = await this.redis.hgetall(this.ka(accountId, 'exp-checks', accountId, 'cursor'))
    return { ...(saved === undefined ? {} : { saved }), ...(other === undefined ? {} : { other }) }
  }

  async saveChecksCursor(accountId: string, cursor: CheckCursor): Promise<void> {
    const fields = Object.entries(cursor).filter((e): e is [string, string] => e[1] !== undefined)
    if (fields.length > 0)
      await this.redis.hset(this.ka(accountId, 'exp-checks', accountId, 'cursor'), Object.fromEntries(fields))
  }

  async checksIntegration(accountId: string): Promise<string | undefined> {
    return (await this.redis.get(this.ka(accountId, 'exp-checks', accountId, 'integration'))) ?? undefined
  }

  async saveChecksIntegration(accountId: string, integrationId: string): Promise<void> {
    await this.redis.set(this.ka(accountId, 'exp-checks', accountId, 'integration'), integrationId)
  }
}
