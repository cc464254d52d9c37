// The Redis keys of the alert streams: written by the alerts sink, read by downstream consumers (the
// reader user's ACL rules name them).

export function alertStreamKeys(prefix: string) {
  return {
    offsets: `${prefix}alerts:offsets`,
    all: `${prefix}alerts:all`,
    rejections: `${prefix}alerts:rejections`,
    integration: (id: string) => `${prefix}alerts:integration:${id}`,
    /** The integration's last payloads as received (a list, newest first; see PAYLOAD_SAMPLES). */
    payloads: (id: string) => `${prefix}alerts:payloads:${id}`,
  }
}

/** Payloads kept per integration, the largest kept whole, and for how long (alerts-write.lua keeps them). */
export const PAYLOAD_SAMPLES = { count: 20, maxBytes: 64 * 1024, ttlMs: 7 * 24 * 3600 * 1000 } as const
