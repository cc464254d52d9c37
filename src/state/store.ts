// Redis-backed admin state: accounts, workspaces, environments, traffic types and API keys.
// Keys (prefix p): p:account:<id>, p:workspace:<id>, p:workspaces:<account> (zset),
// p:environment:<id>, p:environments:<ws> (zset), p:traffic-type:<id>, p:traffic-types:<ws> (zset),
// p:api-keys (hash sha256(key) -> JSON record), p:api-keys:version (bumped on every key change),
// p:demo (the bootstrap result).
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { RedisState } from './redis-state.js'

export type ApiKeyKind = 'admin' | 'server' | 'client'

export interface ApiKeyRecord {
  readonly kind: ApiKeyKind
  readonly accountId: string
  readonly workspaceId?: string
  readonly environmentId?: string
  readonly createdAt: number
  readonly revokedAt?: number
}

export interface DemoAccount {
  accountId: string
  workspaceId: string
  environments: { id: string; name: string; serverSideSdkKey: string; clientSideSdkKey: string }[]
  adminApiKey: string
}

/** API keys are stored and looked up by their SHA-256, never in plain text. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

const KEY_PREFIX: Record<ApiKeyKind, string> = { admin: 'adm_', server: 'sdk_srv_', client: 'sdk_cli_' }

export function generateKey(kind: ApiKeyKind): string {
  return KEY_PREFIX[kind] + randomBytes(24).toString('base64url')
}

export class Store extends RedisState {
  /** All API keys by hash, with the version they were read at. */
  async apiKeys(): Promise<{ version: string; keys: Map<string, ApiKeyRecord> }> {
    const { version, entries } = await this.versionedHash<ApiKeyRecord>('api-keys')
    return { version, keys: entries }
  }

  async apiKeysVersion(): Promise<string> {
    return this.hashVersion('api-keys')
  }

  /** Marks a key revoked; returns false when no such key exists. */
  async revokeApiKey(key: string): Promise<boolean> {
    const hash = hashKey(key)
    const json = await this.redis.hget(this.k('api-keys'), hash)
    if (!json) return false
    const record = { ...(JSON.parse(json) as ApiKeyRecord), revokedAt: Date.now() }
    await this.redis.multi().hset(this.k('api-keys'), hash, JSON.stringify(record)).incr(this.k('api-keys', 'version')).exec()
    return true
  }

  /**
   * Creates the demo account (workspace, Production and Staging, traffic type `user`, an admin key and
   * SDK keys) or returns the one that exists. Safe to run concurrently: one writer wins.
   */
  async bootstrapDemo(): Promise<DemoAccount> {
    const demoKey = this.k('demo')
    return this.tx.optimistic<DemoAccount>([demoKey], async (conn) => {
      const existing = await conn.get(demoKey)
      if (existing) return { done: JSON.parse(existing) as DemoAccount }
      const now = Date.now()
      const accountId = randomUUID()
      const workspaceId = randomUUID()
      const trafficTypeId = randomUUID()
      const demo: DemoAccount = { accountId, workspaceId, environments: [], adminApiKey: generateKey('admin') }
      const tx = conn.multi()
      tx.hset(this.k('account', accountId), { id: accountId, name: 'Demo', createdAt: now })
      tx.hset(this.k('workspace', workspaceId), { id: workspaceId, name: 'Default', accountId, requiresTitleAndComments: 'false', createdAt: now })
      tx.zadd(this.k('workspaces', accountId), now, workspaceId)
      tx.hset(this.k('traffic-type', trafficTypeId), { id: trafficTypeId, name: 'user', workspaceId })
      tx.zadd(this.k('traffic-types', workspaceId), now, trafficTypeId)
      const keyRecords: [string, ApiKeyRecord][] = [[demo.adminApiKey, { kind: 'admin', accountId, createdAt: now }]]
      for (const [i, name] of ['Production', 'Staging'].entries()) {
        const id = randomUUID()
        tx.hset(this.k('environment', id), { id, name, production: String(name === 'Production'), workspaceId, accountId })
        tx.zadd(this.k('environments', workspaceId), now + i, id)
        const env = { id, name, serverSideSdkKey: generateKey('server'), clientSideSdkKey: generateKey('client') }
        demo.environments.push(env)
        keyRecords.push([env.serverSideSdkKey, { kind: 'server', accountId, workspaceId, environmentId: id, createdAt: now }])
        keyRecords.push([env.clientSideSdkKey, { kind: 'client', accountId, workspaceId, environmentId: id, createdAt: now }])
      }
      for (const [key, record] of keyRecords) tx.hset(this.k('api-keys'), hashKey(key), JSON.stringify(record))
      tx.incr(this.k('api-keys', 'version'))
      tx.set(demoKey, JSON.stringify(demo))
      return { tx, result: demo }
    })
  }
}
