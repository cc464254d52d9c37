// The Redis keys of the alert streams: written by the alerts sink, read by downstream consumers (the
// reader user's ACL rules name them). With one Redis every account's alerts share the streams
// <prefix>alerts:all and <prefix>alerts:rejections; on a Redis Cluster each account has its own,
// under its hash tag (keys.ts): <prefix>{a:<account>}:alerts:all, ...:alerts:rejections (account `-`
// for messages of no known account), so one script call writes an account's alerts, records and Kafka
// offsets on one node.
import { accountPrefix } from './keys.js'

/** A stream entry's flat field list (name, value, name, value, ...) as a map. */
export function entryFieldMap(flat: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {}
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!
  return fields
}

/** The alert keys of an account (with one Redis, the same for every account). */
export function alertStreamKeys(prefix: string, cluster = false, accountId = '') {
  const p = accountPrefix(prefix, cluster, accountId)
  return {
    /** What the account's keys start with: the prefix the alert scripts build their other keys from. */
    prefix: p,
    offsets: `${p}alerts:offsets`,
    all: `${p}alerts:all`,
    rejections: `${p}alerts:rejections`,
    /** Incident changes (lua/incidents.lua): triggered, joined, acknowledged, resolved, ... */
    incidents: `${p}alerts:incident-events`,
    integration: (id: string) => `${p}alerts:integration:${id}`,
    /** The integration's last payloads as received (a list, newest first; see PAYLOAD_SAMPLES). */
    payloads: (id: string) => `${p}alerts:payloads:${id}`,
    /**
     * On a cluster, the account's deleted integrations (their alerts get no more stream entries); '' with one Redis.
     */
    deleted: cluster ? `${p}alerts:deleted-integrations` : '',
  }
}

export type AlertStreamKeys = ReturnType<typeof alertStreamKeys>

/** Payloads kept per integration, the largest kept whole, and for how long (alerts-write.lua keeps them). */
export const PAYLOAD_SAMPLES = { count: 20, maxBytes: 64 * 1024, ttlMs: 7 * 24 * 3600 * 1000 } as const
