// Alert integrations in Redis. Keys (prefix p):
//   p:integration:<id>          JSON record; the current webhook address only as its SHA-256 (the
//                               address is shown once, when it is created or rotated)
//   p:integrations:<account>    zset of integration ids by creation time
//   p:webhooks                  hash sha256(webhook id) -> JSON route {integrationId, accountId,
//                               rateLimitStatus, expiresAt?}
//   p:webhooks:version          bumped on every route change; edges reload their copy when it moves
//   p:integration-auth:<id>     hash of its sender authentication's outcomes: failures, lastFailureAt,
//                               lastFailureReason, used:<secret id> (last use, ms), written by the edges
// Every change that touches several keys is one MULTI; changes that read first run as optimistic
// transactions (state/transactions.ts).
import { randomBytes, randomUUID } from 'node:crypto'
import type { RedisClient } from './client.js'
import { RedisState } from './redis-state.js'
import type { AlertMapping } from '../../pipeline/alerts/render.js'
import type { TemplateId } from '../../pipeline/alerts/templates.js'
import { hashKey } from './tenancy.js'
import type { SenderAuth } from './sender-auth.js'

export type RateLimitStatus = 429 | 503

export interface IntegrationRecord {
  id: string
  accountId: string
  name: string
  description: string
  template: TemplateId | 'custom'
  mapping: AlertMapping
  rateLimitStatus: RateLimitStatus
  /** Write repeats of an open incident to the streams too (default: a repeat only updates its record). */
  emitRepeats?: boolean
  /** A firing incident not heard of for this long is resolved by itself (unset: never). */
  autoResolveAfterSeconds?: number | null
  /** SHA-256 of the current webhook address; the address itself is never stored. */
  webhookHash: string
  /** Addresses rotated out, by hash, with the time they stop working. */
  retired: { hash: string; expiresAt: number }[]
  /** What a sender must prove beyond the address (unset: the address alone). */
  senderAuth?: SenderAuth
  createdAt: number
  updatedAt: number
}

export interface WebhookRoute {
  readonly integrationId: string
  readonly accountId: string
  readonly rateLimitStatus: RateLimitStatus
  readonly expiresAt?: number
  readonly auth?: SenderAuth
}

/** What the edges saw of an integration's sender authentication since their last report. */
export interface AuthOutcomes {
  failures: number
  lastFailureAt?: number
  lastFailureReason?: string
  /** Last successful use of each secret (ms). */
  used: Map<string, number>
}

/** The same, as read back for the API and the console. */
export interface AuthStats {
  readonly failures: number
  readonly lastFailureAt: number | null
  readonly lastFailureReason: string | null
  readonly lastUsedAt: Readonly<Record<string, number>>
}

export type IntegrationInput = Pick<
  IntegrationRecord,
  'name' | 'description' | 'template' | 'mapping' | 'rateLimitStatus' | 'emitRepeats' | 'autoResolveAfterSeconds'
>

/** 256 random bits, URL-safe: the webhook address is the credential. */
export function generateWebhookId(): string {
  return randomBytes(32).toString('base64url')
}

/** A record as stored by earlier versions, with the address in plain text. */
type StoredRecord = IntegrationRecord | (Omit<IntegrationRecord, 'webhookHash'> & { webhookId: string })

function fromStored(json: string): IntegrationRecord {
  const stored = JSON.parse(json) as StoredRecord
  if (!('webhookId' in stored)) return stored
  const { webhookId, ...rest } = stored
  return { ...rest, webhookHash: hashKey(webhookId) }
}

export class IntegrationStore extends RedisState {
  /** Creates the integration; the new webhook address is returned once, with the record. */
  async create(accountId: string, input: IntegrationInput): Promise<{ record: IntegrationRecord; webhookId: string }> {
    const now = Date.now()
    const webhookId = generateWebhookId()
    const record: IntegrationRecord = {
      id: randomUUID(),
      accountId,
      ...input,
      webhookHash: hashKey(webhookId),
      retired: [],
      createdAt: now,
      updatedAt: now,
    }
    await this.redis
      .multi()
      .set(this.k('integration', record.id), JSON.stringify(record))
      .zadd(this.k('integrations', accountId), now, record.id)
      .hset(this.k('webhooks'), record.webhookHash, JSON.stringify(routeOf(record)))
      .incr(this.k('webhooks', 'version'))
      .exec()
    return { record, webhookId }
  }

  /** The record, whatever its account (for consumers). */
  async byId(id: string): Promise<IntegrationRecord | undefined> {
    const json = await this.redis.get(this.k('integration', id))
    return json ? fromStored(json) : undefined
  }

  /**
   * Rewrites records stored with the address in plain text (earlier versions) to keep only its hash.
   * Idempotent; returns how many were rewritten.
   */
  async hashStoredAddresses(): Promise<number> {
    let rewritten = 0
    for await (const keys of this.scanKeys(this.k('integration', '*'))) {
      for (const key of keys) {
        const json = await this.redis.get(key)
        if (json && (JSON.parse(json) as { webhookId?: unknown }).webhookId !== undefined) {
          // Only if unchanged meanwhile: a concurrent update writes the hashed form itself.
          const swapped = await this.scripts.swapIfEqual(key, json, JSON.stringify(fromStored(json)))
          rewritten += Number(swapped)
        }
      }
    }
    return rewritten
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
    return values.filter((v): v is string => v !== null).map(fromStored)
  }

  /** The sample payload saved with the mapping (kept beside the record, which every process caches). */
  async sample(id: string): Promise<unknown> {
    const json = await this.redis.get(this.k('integration-sample', id))
    return json === null ? null : (JSON.parse(json) as unknown)
  }

  async setSample(id: string, sample: unknown): Promise<void> {
    if (sample === null) await this.redis.del(this.k('integration-sample', id))
    else await this.redis.set(this.k('integration-sample', id), JSON.stringify(sample))
  }

  /**
   * Sets, changes or (undefined) removes the sender authentication: change gets the current one. Every route of the
   * integration (its address and the rotated ones in their overlap) carries it, so the edges apply it at once.
   */
  async setSenderAuth(
    accountId: string,
    id: string,
    change: (current: SenderAuth | undefined) => SenderAuth | undefined,
  ): Promise<IntegrationRecord | undefined> {
    return this.modify(accountId, id, (record) => {
      const { senderAuth, ...rest } = record
      const next = change(senderAuth)
      return next ? { ...rest, senderAuth: next } : rest
    })
  }

  /** Adds up the edges' reports, one round trip. */
  async recordAuthOutcomes(outcomes: ReadonlyMap<string, AuthOutcomes>): Promise<void> {
    if (outcomes.size === 0) return
    const tx = this.redis.pipeline()
    for (const [id, o] of outcomes) {
      const key = this.k('integration-auth', id)
      if (o.failures > 0) tx.hincrby(key, 'failures', o.failures)
      const fields: (string | number)[] = []
      if (o.lastFailureAt !== undefined) fields.push('lastFailureAt', o.lastFailureAt)
      if (o.lastFailureReason !== undefined) fields.push('lastFailureReason', o.lastFailureReason)
      for (const [secret, at] of o.used) fields.push(`used:${secret}`, at)
      if (fields.length > 0) tx.hset(key, ...fields)
    }
    for (const [err] of (await tx.exec()) ?? []) if (err) throw err
  }

  async authStats(id: string): Promise<AuthStats> {
    const h = await this.redis.hgetall(this.k('integration-auth', id))
    const lastUsedAt: Record<string, number> = {}
    for (const [k, v] of Object.entries(h)) if (k.startsWith('used:')) lastUsedAt[k.slice(5)] = Number(v)
    return {
      failures: Number(h['failures'] ?? 0),
      lastFailureAt: h['lastFailureAt'] ? Number(h['lastFailureAt']) : null,
      lastFailureReason: h['lastFailureReason'] ?? null,
      lastUsedAt,
    }
  }

  /** Applies change to the current record inside the transaction (a concurrent write retries it). */
  async update(
    accountId: string,
    id: string,
    change: (current: IntegrationRecord) => Partial<IntegrationInput>,
  ): Promise<IntegrationRecord | undefined> {
    return this.modify(accountId, id, (record) => ({ ...record, ...change(record) }))
  }

  /** A new address; the old one keeps working for overlapMs. The new address is returned once. */
  async rotate(
    accountId: string,
    id: string,
    overlapMs: number,
  ): Promise<{ record: IntegrationRecord; webhookId: string } | undefined> {
    const webhookId = generateWebhookId()
    const record = await this.modify(accountId, id, (current) => {
      const now = Date.now()
      const retired =
        overlapMs > 0
          ? [...current.retired, { hash: current.webhookHash, expiresAt: now + overlapMs }]
          : current.retired
      return { ...current, webhookHash: hashKey(webhookId), retired }
    })
    return record && { record, webhookId }
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const key = this.k('integration', id)
    return this.tx.optimistic<boolean>([key], async (conn) => {
      const record = await this.read(conn, accountId, id)
      if (!record) return { done: false }
      const hashes = [record.webhookHash, ...record.retired.map((r) => r.hash)]
      const tx = conn
        .multi()
        .del(key, this.k('integration-sample', id), this.k('integration-auth', id))
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

  private async modify(
    accountId: string,
    id: string,
    change: (r: IntegrationRecord) => IntegrationRecord,
  ): Promise<IntegrationRecord | undefined> {
    const key = this.k('integration', id)
    return this.tx.optimistic<IntegrationRecord | undefined>([key], async (conn) => {
      const before = await this.read(conn, accountId, id)
      if (!before) return { done: undefined }
      const now = Date.now()
      const changed = change(before)
      const live = changed.retired.filter((r) => r.expiresAt > now)
      const after: IntegrationRecord = {
        ...changed,
        id: before.id,
        accountId,
        retired: live,
        createdAt: before.createdAt,
        updatedAt: now,
      }
      const tx = conn.multi().set(key, JSON.stringify(after))
      // Routes of addresses no longer current nor in their overlap go; the others are rewritten.
      const keep = new Set([after.webhookHash, ...live.map((r) => r.hash)])
      const gone = [before.webhookHash, ...before.retired.map((r) => r.hash)].filter((h) => !keep.has(h))
      if (gone.length) tx.hdel(this.k('webhooks'), ...gone)
      for (const r of live)
        tx.hset(this.k('webhooks'), r.hash, JSON.stringify({ ...routeOf(after), expiresAt: r.expiresAt }))
      tx.hset(this.k('webhooks'), after.webhookHash, JSON.stringify(routeOf(after)))
      tx.incr(this.k('webhooks', 'version'))
      return { tx, result: after }
    })
  }

  private async read(conn: RedisClient, accountId: string, id: string): Promise<IntegrationRecord | undefined> {
    const json = await conn.get(this.k('integration', id))
    const record = json ? fromStored(json) : undefined
    return record?.accountId === accountId ? record : undefined
  }
}

function routeOf(record: IntegrationRecord): WebhookRoute {
  const route = { integrationId: record.id, accountId: record.accountId, rateLimitStatus: record.rateLimitStatus }
  return record.senderAuth ? { ...route, auth: record.senderAuth } : route
}
