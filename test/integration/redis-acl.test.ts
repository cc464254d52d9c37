// Least privilege around Redis, on a real Redis started with the very command line of
// docker-compose.yml (default user off, the service user, the alert-reader user): Sluice works end to
// end as the service user, and the reader can read and acknowledge alerts and nothing else.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { alertStreamKeys } from '../../src/state/redis/alert-streams.js'
import { aclRules, ALERTS_READER_USER, SERVICE_USER } from '../../src/state/redis/acl.js'
import { createTestEnv, waitFor, type TestEnv } from '../support/harness.js'

const ROOT = new URL('../../', import.meta.url)
const PORT = 19620
const PASSWORDS = { service: 'service-pw-for-the-test', reader: 'reader-pw-for-the-test' }

let redis: ChildProcess
let dir: string
let t: TestEnv

/** The redis service's command of docker-compose.yml, as its shell would run it. */
function composeRedisCommand(): string {
  const compose = readFileSync(new URL('docker-compose.yml', ROOT), 'utf8')
  const block = /\n {2}redis:\n[\s\S]*?- >-\n([\s\S]*?)\n {4}volumes:/.exec(compose)
  if (!block) throw new Error('redis command not found in docker-compose.yml')
  return block[1]!
    .split('\n')
    .map((l) => l.trim())
    .join(' ')
    .replaceAll('$$', '$')
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sluice-acl-'))
  const command = composeRedisCommand()
    .replace('/usr/local/etc/redis/redis.conf', new URL('deploy/redis/redis.conf', ROOT).pathname)
    .concat(` --port ${PORT} --bind 127.0.0.1 --dir ${dir}`)
  redis = spawn('sh', ['-c', command], {
    env: {
      PATH: process.env['PATH'] ?? '',
      SLUICE_REDIS_PASSWORD: PASSWORDS.service,
      SLUICE_ALERTS_READER_PASSWORD: PASSWORDS.reader,
    },
    stdio: 'ignore',
  })
  const serviceUrl = `redis://${SERVICE_USER}:${PASSWORDS.service}@127.0.0.1:${PORT}`
  await waitFor(
    'redis with ACL users',
    async () => {
      const probe = new Redis(serviceUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
      probe.on('error', () => undefined)
      try {
        await probe.connect()
        return (await probe.ping()) === 'PONG' ? true : undefined
      } finally {
        probe.disconnect()
      }
    },
    10_000,
  )
  // Key prefix as in docker-compose (the rules there name sluice:*).
  t = await createTestEnv({ REDIS_URL: serviceUrl, REDIS_KEY_PREFIX: 'sluice:', SLUICE_INTEGRATION_REFRESH_MS: '200' })
}, 60_000)

afterAll(async () => {
  await t?.close()
  redis?.kill('SIGKILL')
  if (dir) rmSync(dir, { recursive: true, force: true })
})

it('docker-compose.yml and deploy/redis/users.acl.template carry the rules of src/state/redis-acl.ts', () => {
  const rules = aclRules('sluice:')
  const compose = composeRedisCommand()
  const template = readFileSync(new URL('deploy/redis/users.acl.template', ROOT), 'utf8')
  for (const [user, list] of Object.entries(rules)) {
    const [on, ...rest] = list
    expect(compose).toContain(`--user ${user} ${on} `)
    for (const rule of rest) expect(compose, `${user} ${rule}`).toContain(`"${rule}"`)
    const line = template.split('\n').find((l) => l.startsWith(`user ${user} `))!
    expect(line.split(' ').filter((w) => !w.startsWith('#'))).toEqual(['user', user, ...list])
  }
  expect(compose).toContain('--user default off')
})

it('runs Sluice as the service user, and lets the reader read and acknowledge alerts and nothing else', async () => {
  // The default user is off: no anonymous access at all.
  const anonymous = new Redis(`redis://127.0.0.1:${PORT}`, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableReadyCheck: false,
  })
  await anonymous.connect()
  await expect(anonymous.get('sluice:api-keys')).rejects.toThrow(/NOAUTH/)
  anonymous.disconnect()

  // The whole alert path as the service user: admin API, edge, consumer, Lua scripts.
  const demo = await t.bootstrap()
  const service = await t.start(['edge', 'admin', 'alerts'])
  const created = await fetch(`${service.url}/api/v1/integrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ACL', template: 'generic' }),
  })
  expect(created.status).toBe(201)
  const integration = (await created.json()) as { id: string; webhookUrl: string }
  const payload = { severity: 'critical', message: 'disk full', source: 'acl-test', id: 'a-1' }
  const posted = await fetch(integration.webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  })
  expect(posted.status).toBe(202)
  const streams = alertStreamKeys('sluice:')
  await waitFor('the alert in its stream', async () => ((await t.redis.xlen(streams.all)) === 1 ? true : undefined))

  // The service user is held to its own keys and has no administrative commands.
  for (const command of [
    ['FLUSHALL'],
    ['CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru'],
    ['KEYS', '*'],
    ['ACL', 'LIST'],
    ['GET', 'other-app:secret'],
  ]) {
    await expect(t.redis.call(command[0]!, ...command.slice(1)), command.join(' ')).rejects.toThrow(/NOPERM/)
  }

  const reader = new Redis(`redis://${ALERTS_READER_USER}:${PASSWORDS.reader}@127.0.0.1:${PORT}`, {
    maxRetriesPerRequest: 0,
    enableReadyCheck: false,
  })
  try {
    expect(await reader.xgroup('CREATE', streams.all, 'pager', '0')).toBe('OK')
    const read = (await reader.xreadgroup('GROUP', 'pager', 'worker-1', 'COUNT', 10, 'STREAMS', streams.all, '>')) as [
      string,
      [string, string[]][],
    ][]
    const [[, [[entryId, fields]]]] = read as [[string, [[string, string[]]]]]
    expect(fields).toContain('disk full')
    expect(await reader.xack(streams.all, 'pager', entryId)).toBe(1)
    expect(await reader.xlen(streams.integration(integration.id))).toBe(1)
    expect(await reader.xrange(streams.rejections, '-', '+')).toEqual([])

    const refused: [string, ...(string | number)[]][] = [
      ['GET', 'sluice:api-keys:version'],
      ['HGETALL', 'sluice:api-keys'],
      ['HSET', 'sluice:api-keys', 'x', '{"kind":"admin"}'],
      ['HGETALL', 'sluice:alerts:offsets'],
      ['GET', `sluice:integration:${integration.id}`],
      ['XADD', streams.all, '*', 'severity', 'critical'],
      ['DEL', streams.all],
      ['XTRIM', streams.all, 'MAXLEN', 0],
      ['KEYS', '*'],
      ['SCAN', 0],
      ['EVAL', 'return 1', 0],
      ['FLUSHALL'],
      ['CONFIG', 'GET', '*'],
    ]
    for (const [command, ...args] of refused)
      await expect(reader.call(command, ...args), `${command} ${args.join(' ')}`).rejects.toThrow(/NOPERM/)
  } finally {
    reader.disconnect()
  }
}, 60_000)
