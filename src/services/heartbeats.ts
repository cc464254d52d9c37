// Heartbeats of an account's integrations: set (the integration must be the account's), removed, listed with when each
// last received a payload. The heartbeat job (jobs/heartbeat.job.ts) raises and resolves their alerts.
import { Refusal } from '../shared/errors.js'
import { MAX_HEARTBEATS, type Heartbeat, type HeartbeatStore } from '../state/redis/heartbeats.js'
import type { IntegrationStore } from '../state/redis/integrations.js'

export interface HeartbeatView extends Heartbeat {
  readonly name: string
  readonly lastPayloadAt?: number
}

export class HeartbeatService {
  constructor(
    private readonly store: HeartbeatStore,
    private readonly integrations: IntegrationStore,
    private readonly lastPayloadAt: (accountId: string, integrationId: string) => Promise<number | undefined>,
  ) {}

  async set(accountId: string, integrationId: string, intervalMs: number, graceMs: number): Promise<HeartbeatView> {
    const integration = await this.integrations.get(accountId, integrationId)
    if (!integration) throw new Refusal('NOT_FOUND', `no integration ${integrationId}`)
    const saved = await this.store.save(accountId, integrationId, intervalMs, graceMs)
    if (saved === 'full')
      throw new Refusal('CONFLICT', `this account has ${MAX_HEARTBEATS} heartbeats, the most it may keep`)
    return this.view(accountId, saved, integration.name)
  }

  async remove(accountId: string, integrationId: string): Promise<void> {
    if (!(await this.store.remove(accountId, integrationId)))
      throw new Refusal('NOT_FOUND', `integration ${integrationId} has no heartbeat`)
  }

  async list(accountId: string): Promise<HeartbeatView[]> {
    const list = await this.store.list(accountId)
    const views = await Promise.all(
      list.map(async (hb) => {
        const integration = await this.integrations.get(accountId, hb.integrationId)
        return this.view(accountId, hb, integration?.name ?? '(deleted)')
      }),
    )
    return views.sort((a, b) => a.name.localeCompare(b.name))
  }

  private async view(accountId: string, hb: Heartbeat, name: string): Promise<HeartbeatView> {
    const last = await this.lastPayloadAt(accountId, hb.integrationId)
    return { ...hb, name, ...(last !== undefined ? { lastPayloadAt: last } : {}) }
  }
}
