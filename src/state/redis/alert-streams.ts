// The Redis keys of the alert streams: written by the alerts sink, read by downstream consumers (the
// reader user's ACL rules name them).

export function alertStreamKeys(prefix: string) {
  return {
    offsets: `${prefix}alerts:offsets`,
    all: `${prefix}alerts:all`,
    rejections: `${prefix}alerts:rejections`,
    integration: (id: string) => `${prefix}alerts:integration:${id}`,
  }
}
