// Redis users with least privilege. The Redis that holds the alert streams also holds every
// credential and setting, so a downstream alert reader must not be able to read or write anything
// but the streams: the reader user may only read and acknowledge entries of the alert streams. The
// service user may touch its own keys only, and no administrative command (FLUSHALL, CONFIG, KEYS,
// ACL, SHUTDOWN...). One source for these rules: the local stack, `sluice redis-users`, and the
// checked-in docker-compose.yml and deploy/redis/users.acl (a test keeps those in step).
import { createHash, randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { alertStreamKeys } from './alert-streams.js'

export const SERVICE_USER = 'sluice'
export const ALERTS_READER_USER = 'sluice-alerts-reader'

/** Commands a stream reader needs: consumer groups, reading, acknowledging, claiming, inspecting. */
const READER_COMMANDS = [
  'ping',
  'xread',
  'xreadgroup',
  'xack',
  'xautoclaim',
  'xclaim',
  'xpending',
  'xrange',
  'xrevrange',
  'xlen',
  'xinfo|stream',
  'xinfo|groups',
  'xinfo|consumers',
  'xgroup|create',
  'xgroup|createconsumer',
  'xgroup|delconsumer',
]

/** What a client of a Redis Cluster asks to find the nodes of slots and follow a slot that moves. */
const CLUSTER_CLIENT_COMMANDS = [
  'cluster|slots',
  'cluster|shards',
  'cluster|nodes',
  'cluster|info',
  'readonly',
  'readwrite',
  'asking',
]

/**
 * The ACL rules of each user, without its password, for the given key prefix. On a Redis Cluster
 * (rules set on every node: ACLs are not shared between nodes) the reader may read every account's
 * streams (<prefix>{a:<account>}:alerts:..., alert-streams.ts) and ask where slots are.
 */
export function aclRules(
  prefix: string,
  cluster = false,
): Record<typeof SERVICE_USER | typeof ALERTS_READER_USER, string[]> {
  const streams = alertStreamKeys(prefix, cluster, '*')
  return {
    // INFO is needed by ioredis's ready check; every other @dangerous command is refused (CLUSTER SLOTS and WAIT are
    // not dangerous).
    [SERVICE_USER]: ['on', `~${prefix}*`, '+@all', '-@dangerous', '+info'],
    [ALERTS_READER_USER]: [
      'on',
      `~${streams.all}`,
      `~${streams.rejections}`,
      `~${streams.integration('*')}`,
      '-@all',
      ...READER_COMMANDS.map((c) => `+${c}`),
      ...(cluster ? CLUSTER_CLIENT_COMMANDS.map((c) => `+${c}`) : []),
    ],
  }
}

export type AclPasswords = Record<typeof SERVICE_USER | typeof ALERTS_READER_USER, string>

export function generatePasswords(): AclPasswords {
  return {
    [SERVICE_USER]: randomBytes(24).toString('base64url'),
    [ALERTS_READER_USER]: randomBytes(24).toString('base64url'),
  }
}

/** `ACL SETUSER` argument lists; passwords go in as SHA-256 (`#<hex>`), never in plain text. */
export function setUserCommands(prefix: string, passwords: AclPasswords, cluster = false): string[][] {
  return Object.entries(aclRules(prefix, cluster)).map(([user, rules]) => [
    user,
    'reset',
    ...rules,
    `#${createHash('sha256')
      .update(passwords[user as keyof AclPasswords])
      .digest('hex')}`,
  ])
}

/**
 * Creates or resets both users on the Redis at url (one node of a cluster when `cluster`), which must allow ACL
 * SETUSER.
 */
export async function applyAclUsers(
  url: string,
  prefix: string,
  passwords: AclPasswords,
  cluster = false,
): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    for (const args of setUserCommands(prefix, passwords, cluster)) await redis.call('ACL', 'SETUSER', ...args)
  } finally {
    redis.disconnect()
  }
}
