// The heartbeat job: an integration with a heartbeat is expected to receive a payload every interval (Alertmanager's
// always-firing Watchdog alert, sent on its repeat interval, keeps one coming). When none came for the interval and its
// grace, an alert is raised through the account's "Sluice heartbeats" integration, into the normal lifecycle (rules,
// incidents, escalation); payloads that resume resolve it. The last payload's time is the edge's receipt time of the
// integration's newest kept payload. Exclusive (one checks process holds its lease); a tick that publishes and dies
// before recording the state publishes again, which the alert's dedup key makes a repeat of the same alert.
import type { Logger } from '../shared/logger.js'
import type { IntegrationService } from '../services/integrations.js'
import type { Heartbeat, HeartbeatStore } from '../state/redis/heartbeats.js'
import type { IntegrationStore } from '../state/redis/integrations.js'
import type { Job } from './runner.js'

export const HEARTBEATS_INTEGRATION_NAME = 'Sluice heartbeats'

/** A heartbeat's alert in the generic template's shape. */
export interface HeartbeatAlert {
  readonly id: string
  readonly status: 'firing' | 'resolved'
  readonly severity: 'critical'
  readonly message: string
  readonly source: 'sluice-heartbeats'
  readonly service: string
  readonly timestamp: string
}

export interface HeartbeatJobOptions {
  readonly everyMs: number
  /** Sends an alert through an integration (the alerts topic). */
  readonly publish: (accountId: string, integrationId: string, alert: HeartbeatAlert) => Promise<void>
  /** When an integration last received a payload (the edge's receipt time), if it kept one. */
  readonly lastPayloadAt: (accountId: string, integrationId: string) => Promise<number | undefined>
  readonly log: Logger
}

export class HeartbeatJob implements Job {
  readonly name = 'heartbeats'
  readonly exclusive = true
  /** Takes its lease as the process starts (not a tick later, perhaps while it is already shutting down). */
  readonly atStart = true
  readonly everyMs: number

  constructor(
    private readonly store: HeartbeatStore,
    private readonly integrationRecords: IntegrationStore,
    private readonly integrations: IntegrationService,
    private readonly options: HeartbeatJobOptions,
  ) {
    this.everyMs = options.everyMs
  }

  async tick(now: number, stopping: () => boolean): Promise<void> {
    for (const accountId of await this.store.accounts()) {
      for (const hb of await this.store.list(accountId)) {
        if (stopping()) return
        await this.check(accountId, hb, now).catch((err: unknown) =>
          this.options.log.warn({ err, accountId, integrationId: hb.integrationId }, 'a heartbeat was not checked'),
        )
      }
    }
  }

  private async check(accountId: string, hb: Heartbeat, now: number): Promise<void> {
    const watched = await this.integrationRecords.get(accountId, hb.integrationId)
    if (!watched) {
      // Its integration was deleted: the heartbeat goes with it (and its alert, if raised, resolves).
      if (hb.state === 'down') await this.raise(accountId, hb, 'resolved', `${hb.integrationId} (deleted)`, now)
      await this.store.remove(accountId, hb.integrationId)
      return
    }
    const last = Math.max(hb.createdAt, (await this.options.lastPayloadAt(accountId, hb.integrationId)) ?? 0)
    const overdue = now > last + hb.intervalMs + hb.graceMs
    if (overdue === (hb.state === 'down')) return
    await this.raise(accountId, hb, overdue ? 'firing' : 'resolved', watched.name, now, last)
    await this.store.setState(accountId, hb.integrationId, overdue ? 'down' : 'up', now)
    this.options.log.info(
      { accountId, integrationId: hb.integrationId, lastPayloadAt: new Date(last).toISOString() },
      overdue ? 'heartbeat missed: alert raised' : 'heartbeat back: alert resolved',
    )
  }

  private async raise(
    accountId: string,
    hb: Heartbeat,
    status: HeartbeatAlert['status'],
    name: string,
    now: number,
    last?: number,
  ): Promise<void> {
    const seconds = (ms: number) => Math.round(ms / 1000)
    const message =
      status === 'firing'
        ? `No payload from integration "${name}" for ${seconds(now - (last ?? now))} s (its heartbeat expects one every ${seconds(hb.intervalMs)} s, with ${seconds(hb.graceMs)} s of grace)`
        : `Payloads from integration "${name}" came back (heartbeat)`
    await this.options.publish(accountId, await this.integrationOf(accountId), {
      id: `heartbeat-${hb.integrationId}`,
      status,
      severity: 'critical',
      message,
      source: 'sluice-heartbeats',
      service: name,
      timestamp: new Date(now).toISOString(),
    })
  }

  /** The account's heartbeats integration: made on first need, made again if it was deleted. */
  private async integrationOf(accountId: string): Promise<string> {
    const own = await this.integrations.own(
      accountId,
      await this.store.integration(accountId),
      HEARTBEATS_INTEGRATION_NAME,
    )
    if (own.made) await this.store.saveIntegration(accountId, own.id)
    return own.id
  }
}
