// Identities: keys of a traffic type in an environment with display attributes (strings only).
// p:identities:<trafficType>:<env> is a hash key -> JSON object of attribute id -> string value.
import { RedisState } from './redis-state.js'

export type IdentityValues = Readonly<Record<string, string>>

export class IdentityStore extends RedisState {
  /** Creates or replaces identities, all in one HSET. */
  async save(
    trafficTypeId: string,
    envId: string,
    identities: readonly { key: string; values: IdentityValues }[],
  ): Promise<void> {
    if (identities.length === 0) return
    const fields = identities.flatMap(({ key, values }) => [key, JSON.stringify(values)])
    await this.redis.hset(this.kAlone('identities', trafficTypeId, envId), ...fields)
  }

  /** Merges values into an existing identity; undefined when it does not exist. */
  async patch(
    trafficTypeId: string,
    envId: string,
    key: string,
    values: IdentityValues,
  ): Promise<IdentityValues | undefined> {
    const merged = (await this.scripts.identityPatch(
      this.kAlone('identities', trafficTypeId, envId),
      key,
      JSON.stringify(values),
    )) as string | null
    return merged === null ? undefined : (JSON.parse(merged) as IdentityValues)
  }

  async get(trafficTypeId: string, envId: string, key: string): Promise<IdentityValues | undefined> {
    const json = await this.redis.hget(this.kAlone('identities', trafficTypeId, envId), key)
    return json === null ? undefined : (JSON.parse(json) as IdentityValues)
  }

  async delete(trafficTypeId: string, envId: string, key: string): Promise<boolean> {
    return (await this.redis.hdel(this.kAlone('identities', trafficTypeId, envId), key)) === 1
  }
}
