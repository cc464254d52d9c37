// Identities: keys of a traffic type in an environment with display attributes (strings only).
// p:identities:<trafficType>:<env> is a hash key -> JSON object of attribute id -> string value.
import { RedisState } from './redis-state.js'

export type IdentityValues = Readonly<Record<string, string>>

/** What an attribute id looks like (Split's rule for them). */
export const ATTRIBUTE_ID = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/

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

  /**
   * Each identity's value of `attribute` (the identities that have one), read with HSCAN; undefined when the traffic
   * type has more than `max` identities in the environment (checked first, and again while reading).
   */
  async attributeValues(
    trafficTypeId: string,
    envId: string,
    attribute: string,
    max: number,
  ): Promise<Map<string, string> | undefined> {
    const key = this.kAlone('identities', trafficTypeId, envId)
    if ((await this.redis.hlen(key)) > max) return undefined
    const values = new Map<string, string>()
    let seen = 0
    let cursor = '0'
    do {
      const [next, fields] = await this.redis.hscan(key, cursor, 'COUNT', 1000)
      seen += fields.length / 2
      if (seen > max) return undefined
      for (let i = 0; i < fields.length; i += 2) {
        const identity = JSON.parse(fields[i + 1]!) as IdentityValues
        // Own attributes only: "constructor" is a valid attribute id.
        if (Object.hasOwn(identity, attribute) && typeof identity[attribute] === 'string')
          values.set(fields[i]!, identity[attribute])
      }
      cursor = next
    } while (cursor !== '0')
    return values
  }
}
