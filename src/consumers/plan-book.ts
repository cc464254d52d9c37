// The environments' tracking plans as the events consumer uses them: each compiled once per version (pipeline/plans.ts)
// and kept per environment; its head (the version number) is checked when older than refreshMs, and the plan read and
// compiled again only when it changed. A plan saved is enforced within about refreshMs.
//
// When Redis cannot be read, an environment's plan read before is used as it was (its events go on); one never read
// holds the batch (retried as an outage) rather than storing unchecked what a `block` plan would refuse.
import { metaOf } from '../broker/messages/records.js'
import type { InboundMessage } from '../broker/ports.js'
import { compilePlan, type CompiledPlan } from '../pipeline/plans.js'
import { redisCall } from '../shared/errors.js'
import type { Logger } from '../shared/logger.js'
import { KeyedCache } from '../shared/versioned-cache.js'
import type { PlanStore } from '../state/redis/plans.js'
import type { PlanLookup } from './events.consumer.js'

/** Environments whose compiled plan a process keeps at once. */
const MAX_PLANS = 1000

export class PlanBook implements PlanLookup {
  private readonly cache: KeyedCache<CompiledPlan | null>
  /** When a check of an environment's plan last failed: its last plan is used unchecked until refreshMs later. */
  private readonly failedAt = new Map<string, number>()

  constructor(
    store: PlanStore,
    private readonly refreshMs: number,
    private readonly log: Logger,
  ) {
    const [account, env] = [
      (key: string) => key.slice(0, key.indexOf('\n')),
      (key: string) => key.slice(key.indexOf('\n') + 1),
    ]
    this.cache = new KeyedCache<CompiledPlan | null>(
      {
        version: (key) => redisCall(() => store.head(account(key), env(key))),
        load: (key) =>
          redisCall(async () => {
            const stored = await store.get(account(key), env(key))
            return stored ? compilePlan(stored.plan, stored.version) : null
          }),
      },
      // Compiled plans take memory (about 25 times their JSON): those of the environments read longest ago go first.
      { refreshMs, maxEntries: MAX_PLANS },
    )
  }

  async plansOf(messages: readonly InboundMessage[]): Promise<ReadonlyMap<string, CompiledPlan>> {
    const keys = new Map<string, string>()
    for (const m of messages) {
      const { accountId, environmentId } = metaOf(m.headers)
      keys.set(environmentId, `${accountId}\n${environmentId}`)
    }
    // The batch's own: batches of partitions consumed at once never share it.
    const plans = new Map<string, CompiledPlan>()
    await Promise.all(
      [...keys].map(async ([environmentId, key]) => {
        let plan = this.cache.peek(key)
        // While Redis fails, each batch does not wait for another failure first.
        if (plan === undefined || Date.now() - (this.failedAt.get(key) ?? 0) >= this.refreshMs)
          try {
            plan = await this.cache.get(key)
            this.failedAt.delete(key)
          } catch (err) {
            if (plan === undefined) throw err
            this.failedAt.set(key, Date.now())
            this.log.warn({ err, environmentId }, 'tracking plan could not be checked; its last known version is used')
          }
        if (plan) plans.set(environmentId, plan)
      }),
    )
    return plans
  }
}
