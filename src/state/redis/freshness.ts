// The freshness canary's state: which process runs this minute's canary, and the canaries' times from accepted to
// queryable, per hour. Keys:
//   P freshness:run:<tick>    string, set NX with an expiry: the process that runs this tick's canary
//   P freshness:<hour>        list of the hour's canary times (ms; -1: not queryable within the canary's wait),
//                             kept FRESHNESS_HOURS_KEPT hours
import { RedisState } from './redis-state.js'

export const FRESHNESS_HOURS_KEPT = 48

export class FreshnessStore extends RedisState {
  /** Whether this process runs the canary of this tick (no other took it). */
  async claimTick(tick: number, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.kAlone('freshness', 'run', String(tick)), owner, 'PX', ttlMs, 'NX')) === 'OK'
  }

  /** Records the times of a tick's canaries (ms; -1 for one not seen in time) in their hour. */
  async record(hour: number, times: readonly number[]): Promise<void> {
    if (times.length === 0) return
    const key = this.kAlone('freshness', String(hour))
    await this.redis
      .multi()
      .rpush(key, ...times.map(String))
      .pexpire(key, FRESHNESS_HOURS_KEPT * 3_600_000)
      .exec()
  }

  /** The times recorded in each of these hours. */
  async hours(hours: readonly number[]): Promise<Map<number, number[]>> {
    // Asked together (the health answer reads a day's on each request), not one after the other; each key alone
    // (kAlone), so not one pipeline, which a cluster takes only within a slot.
    const lists = await Promise.all(
      hours.map((hour) => this.redis.lrange(this.kAlone('freshness', String(hour)), 0, -1)),
    )
    const out = new Map<number, number[]>()
    hours.forEach((hour, i) => {
      if (lists[i]!.length > 0) out.set(hour, lists[i]!.map(Number))
    })
    return out
  }
}
