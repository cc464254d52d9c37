// What the alert suites share: waiting until the alerts consumer has applied every message of the topic.
import type { Admin } from 'kafkajs'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import { isCluster } from '../../src/state/redis/client.js'
import { waitFor, type TestEnv } from './harness.js'

/**
 * Waits until every message of the alerts topic is recorded in the sink's offsets hash (written in the same script
 * as the alerts; one per account on a Redis Cluster, so every account's is read).
 */
export async function alertsCaughtUp(t: TestEnv, topic: string, kafka: Admin): Promise<void> {
  const cluster = isCluster(t.config.redis)
  await waitFor('the alerts consumer to catch up', async () => {
    const ends = await kafka.fetchTopicOffsets(topic)
    const accounts = ['', ...(await t.tenancy.listAccounts()).map((a) => a.id)]
    const done = new Map<string, number>()
    for (const account of accounts) {
      const offsets = alertStreamKeys(t.config.redis.keyPrefix, cluster, account).offsets
      for (const [field, offset] of Object.entries(await t.redis.hgetall(offsets)))
        done.set(field, Math.max(done.get(field) ?? -1, Number(offset)))
    }
    return ends.every((p) => Number(p.high) === 0 || (done.get(`${topic}:${p.partition}`) ?? -1) >= Number(p.high) - 1)
      ? true
      : undefined
  })
}

/** A firing alert as Alertmanager sends it: labels, annotations, its fingerprint (the dedup key of its template). */
export interface FiringAlert {
  readonly fingerprint: string
  readonly labels: Readonly<Record<string, string>>
  readonly annotations?: Readonly<Record<string, string>>
}

/** Posts firing alerts to an integration's webhook address as Alertmanager's webhook does (payload version 4). */
export function postAlertmanager(url: string, alerts: readonly FiringAlert[]): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      version: '4',
      status: 'firing',
      alerts: alerts.map((a) => ({ status: 'firing', ...a })),
    }),
  })
}
