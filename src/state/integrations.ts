// Alert integrations in Redis. Keys (prefix p):
//   p:integration:<id>          JSON record (with the current webhook id: shown to admins as webhookUrl)
//   p:integrations:<account>    zset of integration ids by creation time
//   p:webhooks                  hash sha256(webhook id) -> JSON route {integrationId, accountId, rateLimitStatus, expiresAt?}
//   p:webhooks:version          bumped on every route change; edges reload their copy when it moves
// Every change that touches several keys is one MULTI; changes that read first run as optimistic
// transactions (state/transactions.ts).
import { randomBytes, randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import { RedisState } from './redis-state.js'
import type { AlertMapping } from '../pipeline/alerts.js'
import type { TemplateId } from '../pipeline/alert-templates.js'
import { hashKey } from './store.js'

export type RateLimitStatus = 429 | 503

export interface IntegrationRecord {
  id: string
  accountId: string
  name: string
  description: string
  template: TemplateId | 'custom'
  mapping: AlertMapping
  rateLimitStatus: RateLimitStatus
  webhookId: string
  /** Addresses rotated out, by hash, with the time they stop working. */
  retired: { hash: string; expiresAt: number }[]
  createdAt: number
  updatedAt: number
}

export interface WebhookRoute {
  readonly integrationId: string
  readonly accountId: string
  readonly rateLimitStatus: RateLimitStatus
  readonly expiresAt?: number
}

export type IntegrationInput = Pick<IntegrationRecord, 'name' | 'description' | 'template' | 'mapping' | 'rateLimitStatus'>

/** 256 random bits, URL-safe: the webhook address is the credential. */
export function generateWebhookId(): string {
  return randomBytes(32).toString('base64url')
}

export class IntegrationStore extends RedisState {
  async create(accountId: string, input: IntegrationInput): Promise<IntegrationRecord> {
    const now = Date.now()
    const record: IntegrationRecord = { id: randomUUID(), accountId, ...input, webhookId: generateWebhookId(), retired: [], createdAt: now, updatedAt: now }
    await this.redis
      .multi()
      .set(this.k('integration', record.id), JSON.stringify(record))
      .zadd(this.k('integrations', accountId), now, record.id)
      .hset(this.k('webhooks'), hashKey(record.webhookId), JSON.stringify(routeOf(record)))
      .incr(this.k('webhooks', 'version'))
      .exec()
    return record
  }

  /** The record, whatever its account (for consumers). */
  async byId(id: string): Promise<IntegrationRecord | undefined> {
    const json = await this.redis.get(this.k('integration', id))
    return json ? (JSON.parse(json) as IntegrationRecord) : undefined
  }

  /** The record when it belongs to the account; another account's integration is "not found". */
  async get(accountId: string, id: string): Promise<IntegrationRecord | undefined> {
    const record = await this.byId(id)
    return record?.accountId === accountId ? record : undefined
  }

  async list(accountId: string): Promise<IntegrationRecord[]> {
    const ids = await this.redis.zrange(this.k('integrations', accountId), 0, -1)
    if (ids.length === 0) return []
    const values = await this.redis.mget(ids.map((id) => this.k('integration', id)))
    return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as IntegrationRecord)
  }

  /** Applies change to the current record inside the transaction (a concurrent write retries it). */
  async update(accountId: string, id: string, change: (current: IntegrationRecord) => Partial<IntegrationInput>): Promise<IntegrationRecord | undefined> {
    return this.modify(accountId, id, (record) => ({ ...record, ...change(record) }))
  }

  async rotate(accountId: string, id: string, overlapMs: number): Promise<IntegrationRecord | undefined> {
    return this.modify(accountId, id, (record) => {
      const now = Date.now()
      const retired = overlapMs > 0 ? [...record.retired, { hash: hashKey(record.webhookId), expiresAt: now + overlapMs }] : record.retired
      return { ...record, webhookId: generateWebhookId(), retired }
    })
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const key = this.k('integration', id)
    return this.tx.optimistic<boolean>([key], async (conn) => {
      const record = await this.read(conn, accountId, id)
      if (!record) return { done: false }
      const hashes = [hashKey(record.webhookId), ...record.retired.map((r) => r.hash)]
      const tx = conn
        .multi()
        .del(key)
        .zrem(this.k('integrations', accountId), id)
        .hdel(this.k('webhooks'), ...hashes)
        .incr(this.k('webhooks', 'version'))
      return { tx, result: true }
    })
  }

  /** All routes, for the edge's in-memory copy. */
  webhookRoutes(): Promise<{ version: string; entries: Map<string, WebhookRoute> }> {
    return this.versionedHash<WebhookRoute>('webhooks')
  }

  webhookRoutesVersion(): Promise<string> {
    return this.hashVersion('webhooks')
  }

  private async modify(accountId: string, id: string, change: (r: IntegrationRecord) => IntegrationRecord): Promise<IntegrationRecord | undefined> {
    const key = this.k('integration', id)
    return this.tx.optimistic<IntegrationRecord | undefined>([key], async (conn) => {
      const before = await this.read(conn, accountId, id)
      if (!before) return { done: undefined }
      const now = Date.now()
      const changed = change(before)
      const live = changed.retired.filter((r) => r.expiresAt > now)
      const after: IntegrationRecord = { ...changed, id: before.id, accountId, retired: live, createdAt: before.createdAt, updatedAt: now }
      const tx = conn.multi().set(key, JSON.stringify(after))
      // Routes of addresses no longer current nor in their overlap go; the others are rewritten.
      const keep = new Set([hashKey(after.webhookId), ...live.map((r) => r.hash)])
      const gone = [hashKey(before.webhookId), ...before.retired.map((r) => r.hash)].filter((h) => !keep.has(h))
      if (gone.length) tx.hdel(this.k('webhooks'), ...gone)
      for (const r of live) tx.hset(this.k('webhooks'), r.hash, JSON.stringify({ ...routeOf(after), expiresAt: r.expiresAt }))
      tx.hset(this.k('webhooks'), hashKey(after.webhookId), JSON.stringify(routeOf(after)))
      tx.incr(this.k('webhooks', 'version'))
      return { tx, result: after }
    })
  }

  private async read(conn: Redis, accountId: string, id: string): Promise<IntegrationRecord | undefined> {
    const json = await conn.get(this.k('integration', id))
    const record = json ? (JSON.parse(json) as IntegrationRecord) : undefined
    return record?.accountId === accountId ? record : undefined
  }
}

function routeOf(record: IntegrationRecord): WebhookRoute {
  return { integrationId: record.id, accountId: record.accountId, rateLimitStatus: record.rateLimitStatus }
}
