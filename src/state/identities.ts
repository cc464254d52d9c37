// Identities: keys of a traffic type in an environment with display attributes (strings only).
// p:identities:<trafficType>:<env> is a hash key -> JSON object of attribute id -> string value.
import type { Redis } from 'ioredis'
import { RedisState } from './redis-state.js'
import type { Transactions } from './transactions.js'

export type IdentityValues = Readonly<Record<string, string>>

// KEYS: identities hash. ARGV: key, JSON values. Merges into an existing identity; false if none.
const PATCH_LUA = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return false end
local values = cjson.decode(current)
for k, v in pairs(cjson.decode(ARGV[2])) do values[k] = v end
local merged = cjson.encode(values)
if merged == '[]' then merged = '{}' end
redis.call('HSET', KEYS[1], ARGV[1], merged)
return merged`

export class IdentityStore extends RedisState {
  private readonly patchScript: (key: string, field: string, values: string) => Promise<string | null>

  constructor(redis: Redis, prefix: string, tx: Transactions) {
    super(redis, prefix, tx)
    if (!('identityPatch' in redis)) redis.defineCommand('identityPatch', { numberOfKeys: 1, lua: PATCH_LUA })
    const r = redis as Redis & { identityPatch: (key: string, field: string, values: string) => Promise<string | null> }
    this.patchScript = (key, field, values) => r.identityPatch(key, field, values)
  }

  /** Creates or replaces identities, all in one HSET. */
  async save(trafficTypeId: string, envId: string, identities: readonly { key: string; values: IdentityValues }[]): Promise<void> {
    if (identities.length === 0) return
    const fields = identities.flatMap(({ key, values }) => [key, JSON.stringify(values)])
    await this.redis.hset(this.k('identities', trafficTypeId, envId), ...fields)
  }

  /** Merges values into an existing identity; undefined when it does not exist. */
  async patch(trafficTypeId: string, envId: string, key: string, values: IdentityValues): Promise<IdentityValues | undefined> {
    const merged = await this.patchScript(this.k('identities', trafficTypeId, envId), key, JSON.stringify(values))
    return merged === null ? undefined : (JSON.parse(merged) as IdentityValues)
  }

  async get(trafficTypeId: string, envId: string, key: string): Promise<IdentityValues | undefined> {
    const json = await this.redis.hget(this.k('identities', trafficTypeId, envId), key)
    return json === null ? undefined : (JSON.parse(json) as IdentityValues)
  }

  async delete(trafficTypeId: string, envId: string, key: string): Promise<boolean> {
    return (await this.redis.hdel(this.k('identities', trafficTypeId, envId), key)) === 1
  }
}
