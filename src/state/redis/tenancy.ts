// Redis-backed admin state: accounts, workspaces, environments, traffic types and API keys. Keys (prefix p):
// p:account:<id>, p:accounts (zset), p:workspace:<id>, p:workspaces:<account> (zset), p:environment:<id>,
// p:environments:<ws> (zset), p:traffic-type:<id>, p:traffic-types:<ws> (zset), p:api-keys (hash sha256(key) -> JSON
// record), p:api-keys:version (bumped on every key change), p:demo (the bootstrap result). On a Redis Cluster all of
// them are under the hash tag {admin} (keys.ts). Admin keys carry a role and optional workspace/environment scopes.
import { hash, randomBytes, randomUUID } from 'node:crypto'
import { Refusal } from '../../shared/errors.js'
import { RedisState } from './redis-state.js'

export type ApiKeyKind = 'admin' | 'server' | 'client'

/** What an admin key may do: everything, segment changes, or reading segments. */
export const ADMIN_ROLES = ['all', 'segment-editor', 'segment-viewer'] as const
export type AdminRole = (typeof ADMIN_ROLES)[number]

export interface ApiKeyRecord {
  readonly kind: ApiKeyKind
  readonly accountId: string
  readonly name?: string
  /** Admin keys: the role (absent means all). */
  readonly role?: AdminRole
  /** Admin keys: the workspaces and environments the key is restricted to (absent: all of the account). */
  readonly workspaceIds?: readonly string[]
  readonly environmentIds?: readonly string[]
  /** SDK keys: their environment. */
  readonly workspaceId?: string
  readonly environmentId?: string
  readonly createdAt: number
  readonly revokedAt?: number
}

/** A key as listed: its public id (a prefix of its hash) instead of the secret. */
export type ApiKeyInfo = ApiKeyRecord & { readonly id: string }

export interface Workspace {
  readonly id: string
  readonly name: string
  readonly accountId: string
  readonly requiresTitleAndComments: boolean
  readonly createdAt: number
}

export interface Environment {
  readonly id: string
  readonly name: string
  readonly production: boolean
  readonly workspaceId: string
  readonly accountId: string
}

export interface TrafficType {
  readonly id: string
  readonly name: string
  readonly workspaceId: string
}

export interface DemoAccount {
  accountId: string
  workspaceId: string
  environments: { id: string; name: string; serverSideSdkKey: string; clientSideSdkKey: string }[]
  adminApiKey: string
  /** Settings API token of the demo admin user, and the service account SCIM calls act as (see demo.ts). */
  personalAccessToken?: string
  serviceAccountId?: string
}

/** API keys are stored and looked up by their SHA-256, never in plain text. */
export function hashKey(key: string): string {
  // One-shot: a third of createHash's time, on every webhook request and SDK key lookup.
  return hash('sha256', key, 'hex')
}

/** The public id of a key: the first 16 hex digits of its hash (shown in lists and audit logs). */
export function keyId(hash: string): string {
  return hash.slice(0, 16)
}

const KEY_PREFIX: Record<ApiKeyKind, string> = { admin: 'adm_', server: 'sdk_srv_', client: 'sdk_cli_' }

export function generateKey(kind: ApiKeyKind): string {
  return KEY_PREFIX[kind] + randomBytes(24).toString('base64url')
}

/** Names of workspaces, environments and traffic types: what Split accepts, bounded. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,99}$/

export class TenancyStore extends RedisState {
  /** All API keys by hash, with the version they were read at. */
  async apiKeys(): Promise<{ version: string; keys: Map<string, ApiKeyRecord> }> {
    const { version, entries } = await this.versionedHash<ApiKeyRecord>('api-keys')
    return { version, keys: entries }
  }

  async apiKeysVersion(): Promise<string> {
    return this.hashVersion('api-keys')
  }

  /** Creates a key and returns it in plain text: the only time it is ever shown. */
  async createApiKey(input: Omit<ApiKeyRecord, 'createdAt' | 'revokedAt'>): Promise<{ key: string; id: string }> {
    // A key restricted to environments is restricted to their workspaces too.
    let record = input
    if (input.environmentIds && !input.workspaceIds) {
      const envs = await Promise.all(input.environmentIds.map((id) => this.environment(id)))
      record = { ...input, workspaceIds: [...new Set(envs.flatMap((e) => (e ? [e.workspaceId] : [])))] }
    }
    const key = generateKey(record.kind)
    const hash = hashKey(key)
    await this.redis
      .multi()
      .hset(this.k('api-keys'), hash, JSON.stringify({ ...record, createdAt: Date.now() }))
      .incr(this.k('api-keys', 'version'))
      .exec()
    return { key, id: keyId(hash) }
  }

  /** The keys of an account (all accounts when accountId is undefined), oldest first, without secrets. */
  async listApiKeys(accountId?: string): Promise<ApiKeyInfo[]> {
    const { keys } = await this.apiKeys()
    return [...keys]
      .filter(([, r]) => accountId === undefined || r.accountId === accountId)
      .map(([hash, r]) => ({ id: keyId(hash), ...r }))
      .sort((a, b) => a.createdAt - b.createdAt)
  }

  /**
   * Marks a key revoked, given the key itself or its id; returns false when no such key exists.
   * Revoking twice keeps the first revocation time.
   */
  async revokeApiKey(keyOrId: string): Promise<boolean> {
    const { keys } = await this.apiKeys()
    const hash = keys.has(hashKey(keyOrId))
      ? hashKey(keyOrId)
      : [...keys.keys()].find((h) => /^[0-9a-f]{16}$/.test(keyOrId) && keyId(h) === keyOrId)
    const record = hash === undefined ? undefined : keys.get(hash)
    if (hash === undefined || record === undefined) return false
    if (record.revokedAt !== undefined) return true
    await this.redis
      .multi()
      .hset(this.k('api-keys'), hash, JSON.stringify({ ...record, revokedAt: Date.now() }))
      .incr(this.k('api-keys', 'version'))
      .exec()
    return true
  }

  async createAccount(name: string): Promise<{ id: string; name: string }> {
    checkName('account', name)
    const id = randomUUID()
    const now = Date.now()
    await this.redis
      .multi()
      .hset(this.k('account', id), { id, name, createdAt: now })
      .zadd(this.k('accounts'), now, id)
      .exec()
    return { id, name }
  }

  async listAccounts(): Promise<{ id: string; name: string }[]> {
    const ids = await this.redis.zrange(this.k('accounts'), 0, -1)
    return (
      await this.hashes(
        ids.map((id) => this.k('account', id)),
        'id',
      )
    ).map((h) => ({ id: h['id']!, name: h['name']! }))
  }

  async accountExists(id: string): Promise<boolean> {
    return (await this.redis.exists(this.k('account', id))) === 1
  }

  async createWorkspace(accountId: string, name: string, requiresTitleAndComments = false): Promise<Workspace> {
    checkName('workspace', name)
    if (!(await this.accountExists(accountId))) throw new Refusal('NOT_FOUND', `no account ${accountId}`)
    const ws: Workspace = { id: randomUUID(), name, accountId, requiresTitleAndComments, createdAt: Date.now() }
    await this.redis
      .multi()
      .hset(this.k('workspace', ws.id), { ...ws, requiresTitleAndComments: String(requiresTitleAndComments) })
      .zadd(this.k('workspaces', accountId), ws.createdAt, ws.id)
      .exec()
    return ws
  }

  /** The account's workspaces in creation order (only the allowed ones when a list is given). */
  async listWorkspaces(accountId: string, allowed?: readonly string[]): Promise<Workspace[]> {
    const ids = await this.redis.zrange(this.k('workspaces', accountId), 0, -1)
    const all = await this.hashes(
      ids.filter((id) => !allowed || allowed.includes(id)).map((id) => this.k('workspace', id)),
      'id',
    )
    return all.map(toWorkspace)
  }

  async workspace(id: string): Promise<Workspace | undefined> {
    const h = await this.redis.hgetall(this.k('workspace', id))
    return h['id'] ? toWorkspace(h) : undefined
  }

  async createEnvironment(workspaceId: string, name: string, production = false): Promise<Environment> {
    checkName('environment', name)
    const ws = await this.workspace(workspaceId)
    if (!ws) throw new Refusal('NOT_FOUND', `no workspace ${workspaceId}`)
    if ((await this.environments(workspaceId)).some((e) => e.name === name))
      throw new Refusal('CONFLICT', `workspace ${workspaceId} already has an environment named ${name}`)
    const env: Environment = { id: randomUUID(), name, production, workspaceId, accountId: ws.accountId }
    await this.redis
      .multi()
      .hset(this.k('environment', env.id), { ...env, production: String(production) })
      .zadd(this.k('environments', workspaceId), Date.now(), env.id)
      .exec()
    return env
  }

  async environments(workspaceId: string): Promise<Environment[]> {
    const ids = await this.redis.zrange(this.k('environments', workspaceId), 0, -1)
    return (
      await this.hashes(
        ids.map((id) => this.k('environment', id)),
        'id',
      )
    ).map(toEnvironment)
  }

  async environment(id: string): Promise<Environment | undefined> {
    const h = await this.redis.hgetall(this.k('environment', id))
    return h['id'] ? toEnvironment(h) : undefined
  }

  async createTrafficType(workspaceId: string, name: string): Promise<TrafficType> {
    checkName('traffic type', name)
    if (!(await this.workspace(workspaceId))) throw new Refusal('NOT_FOUND', `no workspace ${workspaceId}`)
    if ((await this.trafficTypes(workspaceId)).some((t) => t.name === name))
      throw new Refusal('CONFLICT', `workspace ${workspaceId} already has a traffic type named ${name}`)
    const tt: TrafficType = { id: randomUUID(), name, workspaceId }
    await this.redis
      .multi()
      .hset(this.k('traffic-type', tt.id), tt)
      .zadd(this.k('traffic-types', workspaceId), Date.now(), tt.id)
      .exec()
    return tt
  }

  async trafficTypes(workspaceId: string): Promise<TrafficType[]> {
    const ids = await this.redis.zrange(this.k('traffic-types', workspaceId), 0, -1)
    return (
      await this.hashes(
        ids.map((id) => this.k('traffic-type', id)),
        'id',
      )
    ).map(toTrafficType)
  }

  async trafficType(id: string): Promise<TrafficType | undefined> {
    const h = await this.redis.hgetall(this.k('traffic-type', id))
    return h['id'] ? toTrafficType(h) : undefined
  }

  /** The demo account, if it was created. */
  async demo(): Promise<DemoAccount | undefined> {
    const json = await this.redis.get(this.k('demo'))
    return json ? (JSON.parse(json) as DemoAccount) : undefined
  }

  /** Adds the access part (see demo.ts) to the demo record, unless another writer already did. */
  async saveDemoAccess(extras: { personalAccessToken: string; serviceAccountId: string }): Promise<DemoAccount> {
    const demoKey = this.k('demo')
    return this.tx.optimistic<DemoAccount>([demoKey], async (conn) => {
      const demo = JSON.parse((await conn.get(demoKey)) ?? 'null') as DemoAccount | null
      if (!demo) throw new Refusal('NOT_FOUND', 'no demo account')
      if (demo.personalAccessToken) return { done: demo }
      const next = { ...demo, ...extras }
      return { tx: conn.multi().set(demoKey, JSON.stringify(next)), result: next }
    })
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
      tx.zadd(this.k('accounts'), now, accountId)
      tx.hset(this.k('workspace', workspaceId), {
        id: workspaceId,
        name: 'Default',
        accountId,
        requiresTitleAndComments: 'false',
        createdAt: now,
      })
      tx.zadd(this.k('workspaces', accountId), now, workspaceId)
      tx.hset(this.k('traffic-type', trafficTypeId), { id: trafficTypeId, name: 'user', workspaceId })
      tx.zadd(this.k('traffic-types', workspaceId), now, trafficTypeId)
      const keyRecords: [string, ApiKeyRecord][] = [
        [demo.adminApiKey, { kind: 'admin', name: 'demo admin', role: 'all', accountId, createdAt: now }],
      ]
      for (const [i, name] of ['Production', 'Staging'].entries()) {
        const id = randomUUID()
        tx.hset(this.k('environment', id), {
          id,
          name,
          production: String(name === 'Production'),
          workspaceId,
          accountId,
        })
        tx.zadd(this.k('environments', workspaceId), now + i, id)
        const env = { id, name, serverSideSdkKey: generateKey('server'), clientSideSdkKey: generateKey('client') }
        demo.environments.push(env)
        keyRecords.push([
          env.serverSideSdkKey,
          { kind: 'server', accountId, workspaceId, environmentId: id, createdAt: now },
        ])
        keyRecords.push([
          env.clientSideSdkKey,
          { kind: 'client', accountId, workspaceId, environmentId: id, createdAt: now },
        ])
      }
      for (const [key, record] of keyRecords) tx.hset(this.k('api-keys'), hashKey(key), JSON.stringify(record))
      tx.incr(this.k('api-keys', 'version'))
      tx.set(demoKey, JSON.stringify(demo))
      return { tx, result: demo }
    })
  }
}

function toWorkspace(h: Record<string, string>): Workspace {
  return {
    id: h['id']!,
    name: h['name']!,
    accountId: h['accountId']!,
    requiresTitleAndComments: h['requiresTitleAndComments'] === 'true',
    createdAt: Number(h['createdAt']),
  }
}

function toTrafficType(h: Record<string, string>): TrafficType {
  return { id: h['id']!, name: h['name']!, workspaceId: h['workspaceId']! }
}

function toEnvironment(h: Record<string, string>): Environment {
  return {
    id: h['id']!,
    name: h['name']!,
    production: h['production'] === 'true',
    workspaceId: h['workspaceId']!,
    accountId: h['accountId']!,
  }
}

function checkName(what: string, name: string): void {
  if (!NAME_PATTERN.test(name))
    throw new Refusal(
      'INVALID',
      `${what} name must be 1 to 100 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit`,
    )
}
