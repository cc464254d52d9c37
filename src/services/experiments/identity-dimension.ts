// A breakdown by an attribute of the keys' identities (Split's identities, kept in Redis, not in ClickHouse): the
// identities of the traffic type in the environment are read first, bounded in number and bytes, and their values go
// to the queries as a key -> value mapping (ClickHouse's transform), so the slices are still made in one statement.
import type { SliceSource } from '../../analysis/queries.js'
import { AppError, invalid } from '../../shared/errors.js'
import type { IdentityStore } from '../../state/redis/identities.js'
import type { Environment, TenancyStore } from '../../state/redis/tenancy.js'

/** Identities of a traffic type in an environment a breakdown reads, at most. */
export const MAX_IDENTITIES = 100_000
/** Characters of keys and values a breakdown sends to ClickHouse, at most (its query stays a few MiB). */
export const MAX_IDENTITY_CHARS = 4 * 1024 * 1024

export type IdentityReader = (
  env: Environment,
  trafficType: string,
  attribute: string,
) => Promise<ReadonlyMap<string, string>>

/** Reads an attribute's values from the identities of a traffic type (id or name) of the environment's workspace. */
export function identityReader(tenancy: TenancyStore, identities: IdentityStore): IdentityReader {
  return async (env, trafficType, attribute) => {
    const tt = (await tenancy.trafficTypes(env.workspaceId)).find((t) => t.id === trafficType || t.name === trafficType)
    if (!tt)
      throw invalid([
        { field: 'dimension', problem: `names traffic type ${trafficType}, which the workspace of ${env.id} has not` },
      ])
    const values = await identities.attributeValues(tt.id, env.id, attribute, MAX_IDENTITIES)
    if (!values) throw tooMany(`traffic type ${tt.name} has more than ${MAX_IDENTITIES} identities in ${env.id}`)
    return values
  }
}

/** The mapping as the queries take it; QUERY_LIMIT past MAX_IDENTITY_CHARS. */
export function identitySource(values: ReadonlyMap<string, string>): SliceSource {
  const keys: string[] = []
  const vals: string[] = []
  let chars = 0
  for (const [key, value] of values) {
    chars += key.length + value.length
    if (chars > MAX_IDENTITY_CHARS)
      throw tooMany(`the identities' keys and values take more than ${MAX_IDENTITY_CHARS} characters`)
    keys.push(key)
    vals.push(value)
  }
  return { kind: 'values', keys, values: vals }
}

const tooMany = (what: string) =>
  new AppError(
    'QUERY_LIMIT',
    `${what}: too many to break results down by an identity attribute; break them down by a property of an event (event:<event type>:<property>)`,
    false,
  )
