// Where a key lives on a Redis Cluster. Every key a script, transaction or pipeline touches together
// must hash to one slot, so keys carry a hash tag right after the prefix, before any user data (a
// value in a key, such as an alert index's `open:team:<value>`, may hold a brace):
//   <prefix>{admin}:...        accounts, workspaces, environments, traffic types, API keys, integrations,
//                              webhook routes, personal access tokens, the demo (small, read through caches)
//   <prefix>{a:<account>}:...  an account's users, groups, service accounts, flags, settings, and every
//                              alert key: its streams, records, indexes and the Kafka offsets of its writes
//                              (<account> is `-` for messages of no known account)
//   <prefix>{w:<workspace>}:... a workspace's segments (their definitions and keys in every environment) and metrics
// With one Redis (no cluster) there is no tag: keys are named as they always were.

/** The prefix of the keys under `tag`: the plain prefix with one Redis. */
export function slotTag(prefix: string, cluster: boolean, tag: string): string {
  return cluster ? `${prefix}{${tag}}:` : prefix
}

/** The prefix of an account's alert keys (see alert-streams.ts); `''` is the account of messages of none. */
export function accountPrefix(prefix: string, cluster: boolean, accountId: string): string {
  return slotTag(prefix, cluster, `a:${accountId === '' ? '-' : accountId}`)
}
