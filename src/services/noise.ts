// Noise figures: what an account's alerts came to over the last 24 hours and 7 days: notifications received, alerts,
// incidents opened, alerts inhibited, incidents resolved before a damped destination told anyone (transient), and the
// notifications delivered. Kept as hourly counters in Redis (lua/incidents.lua, written in the same script call as
// each alert; notify's volume counters), not in a ClickHouse table of alert events: they are written where the alert
// is decided, at no extra round trip, and exactly once with its Kafka offset, and a window is at most 168 small
// hashes to read. Their cost: one hash per account and hour, kept 8 days.
import type { IncidentStore, NoiseCounts } from '../state/redis/incidents.js'
import type { NotifyStore } from '../state/redis/notify.js'

const HOUR_MS = 3_600_000

/** The noise figures of the last 24 hours and 7 days (hourly counters in Redis, read 168 hours at most). */
export async function noiseWindows(incidents: IncidentStore, notify: NotifyStore, accountId: string, now: number) {
  return Promise.all(
    [24, 168].map(async (hours) => {
      const [byIntegration, volume] = await Promise.all([
        incidents.noise(accountId, hours, now),
        notify.volume(accountId, hours, now),
      ])
      const total: NoiseCounts = { received: 0, alerts: 0, incidents: 0, inhibited: 0, transient: 0 }
      for (const c of byIntegration.values())
        for (const k of Object.keys(total) as (keyof NoiseCounts)[]) total[k] += c[k]
      const notifications = volume.reduce(
        (n, h) => n + Object.values(h.destinations).reduce((m, d) => m + d.delivered, 0),
        0,
      )
      const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : null)
      return {
        hours,
        from: new Date((Math.floor(now / HOUR_MS) - hours + 1) * HOUR_MS).toISOString(),
        ...total,
        notifications,
        alertsPerNotification: ratio(total.alerts, notifications),
        alertsPerIncident: ratio(total.alerts, total.incidents),
        noisiest: [...byIntegration]
          .sort((a, b) => b[1].alerts - a[1].alerts || b[1].received - a[1].received)
          .slice(0, 10)
          .map(([integrationId, c]) => ({ integrationId, ...c })),
      }
    }),
  )
}
