// Heartbeats: an integration expected to receive a payload every interval (Alertmanager's always-firing Watchdog
// keeps one coming); the heartbeat job raises an alert when none came for the interval and its grace, and resolves it
// when payloads resume.
// Keys (prefix p, account a):
//   p:heartbeats:a              hash integration id -> JSON Heartbeat
//   p:heartbeats-integration:a  the account's "Sluice heartbeats" integration (the alerts are raised through it)
//   p:{admin}:heartbeats:accounts  set: accounts with heartbeats (the job's list)
// A heartbeat counts against the account's stored bytes.
import { RedisState } from './redis-state.js'

/** Heartbeats one account may keep. */
export const MAX_HEARTBEATS = 100

export interface Heartbeat {
  readonly integrationId: string
  readonly intervalMs: number
  readonly graceMs: number
  /** up: payloads come; down: its alert is raised. */
  readonly state: 'up' | 'down'
  /** When it was made or last changed state (a new one counts from here until its first payload). */
  readonly since: number
  readonly createdAt: number
}

export class HeartbeatStore extends RedisState {
  private key = (a: string) => this.ka(a, 'heartbeats', a)
  private get accountsKey() {
    return this.k('heartbeats', 'accounts')
  }

  async list(accountId: string): Promise<Heartbeat[]> {
    return Object.values(await this.redis.hgetall(this.key(accountId))).map((j) => JSON.parse(j) as Heartbeat)
  }

  async accounts(): Promise<string[]> {
    return this.redis.smembers(this.accountsKey)
  }

  /** Sets an integration's heartbeat (its state kept when it had one); 'full' past MAX_HEARTBEATS. */
  async save(
    accountId: string,
    integrationId: string,
    intervalMs: number,
    graceMs: number,
  ): Promise<Heartbeat | 'full'> {
    const key = this.key(accountId)
    const saved = await this.tx.optimistic<Heartbeat | 'full'>([key, this.bytesKey(accountId)], async (conn) => {
      const before = await conn.hget(key, integrationId)
      if (!before && (await conn.hlen(key)) >= MAX_HEARTBEATS) return { done: 'full' }
      const now = Date.now()
      const old = before ? (JSON.parse(before) as Heartbeat) : undefined
      const next: Heartbeat = {
        integrationId,
        intervalMs,
        graceMs,
        state: old?.state ?? 'up',
        since: old?.since ?? now,
        createdAt: old?.createdAt ?? now,
      }
      const text = JSON.stringify(next)
      const { queue } = await this.chargeBytes(
        conn,
        accountId,
        { [`heartbeat:${integrationId}`]: Buffer.byteLength(text) },
        'a heartbeat',
      )
      const tx = conn.multi().hset(key, integrationId, text)
      queue(tx)
      return { tx, result: next }
    })
    if (saved !== 'full') await this.redis.sadd(this.accountsKey, accountId)
    return saved
  }

  async remove(accountId: string, integrationId: string): Promise<boolean> {
    const key = this.key(accountId)
    return this.tx.optimistic<boolean>([key, this.bytesKey(accountId)], async (conn) => {
      if (!(await conn.hexists(key, integrationId))) return { done: false }
      const { queue } = await this.chargeBytes(conn, accountId, { [`heartbeat:${integrationId}`]: 0 }, 'a heartbeat')
      const tx = conn.multi().hdel(key, integrationId)
      queue(tx)
      return { tx, result: true }
    })
  }

  /** Records a heartbeat's new state, if it still exists. */
  async setState(accountId: string, integrationId: string, state: Heartbeat['state'], since: number): Promise<void> {
    const key = this.key(accountId)
    const json = await this.redis.hget(key, integrationId)
    if (!json) return
    await this.redis.hset(key, integrationId, JSON.stringify({ ...(JSON.parse(json) as Heartbeat), state, since }))
  }

  async integration(accountId: string): Promise<string | undefined> {
    return (await this.redis.get(this.ka(accountId, 'heartbeats-integration', accountId))) ?? undefined
  }

  async saveIntegration(accountId: string, integrationId: string): Promise<void> {
    await this.redis.set(this.ka(accountId, 'heartbeats-integration', accountId), integrationId)
  }
}
