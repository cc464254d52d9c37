// `sluice stack up | down | status`: real Kafka (KRaft, jars from Maven Central), ClickHouse and Redis
// (Debian packages) on 127.0.0.1, all data under one folder. `up` installs what is missing, reuses a
// service that already answers, and returns once all three answer.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Config } from '../config/index.js'
import { applyAclUsers, generatePasswords, type AclPasswords } from '../state/redis/acl.js'

export const KAFKA_VERSION = '3.9.1'
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DEPLOY = join(PROJECT_ROOT, 'deploy', 'local')
const START_TIMEOUT_MS = 180_000
/** Memory of the local Redis: every admin setting and credential lives there, so it never evicts (writes fail instead). */
const REDIS_MAXMEMORY = '1gb'

export class StackError extends Error {
  override readonly name = 'StackError'
}

interface Service {
  readonly name: 'kafka' | 'clickhouse' | 'redis'
  readonly host: string
  readonly port: number
  answers(): Promise<boolean>
  start(): Promise<void>
}

export interface StackStatus {
  readonly name: string
  readonly address: string
  readonly up: boolean
  readonly pid?: number
}

type Say = (line: string) => void

export function stackServices(config: Config, say: Say): Service[] {
  const kafka = hostPort(config.kafka.brokers[0] ?? '127.0.0.1:9092')
  const ch = new URL(config.clickhouse.url)
  const redis = new URL(config.redis.url)
  const dir = (name: string) => join(config.dataDir, name)
  return [
    {
      name: 'redis',
      host: redis.hostname,
      port: Number(redis.port || 6379),
      answers: () => redisAnswers(redis.hostname, Number(redis.port || 6379)),
      start: () => startRedis(dir('redis'), Number(redis.port || 6379), say),
    },
    {
      name: 'clickhouse',
      host: ch.hostname,
      port: Number(ch.port || 8123),
      answers: () => clickhouseAnswers(config.clickhouse.url),
      start: () => startClickHouse(dir('clickhouse'), Number(ch.port || 8123), say),
    },
    {
      name: 'kafka',
      host: kafka.host,
      port: kafka.port,
      answers: () => kafkaAnswers(kafka.host, kafka.port),
      start: () => startKafka(dir('kafka'), kafka.port, say),
    },
  ]
}

export async function stackUp(config: Config, say: Say): Promise<void> {
  const services = stackServices(config, say)
  const started = new Set<string>()
  for (const s of services) {
    if (await s.answers()) {
      say(`${s.name}: already answering on ${s.host}:${s.port}`)
      continue
    }
    if (!isLoopback(s.host)) throw new StackError(`${s.name} at ${s.host}:${s.port} does not answer, and the local stack only starts services on 127.0.0.1`)
    await s.start()
    started.add(s.name)
  }
  const deadline = Date.now() + START_TIMEOUT_MS
  for (const s of services) {
    while (!(await s.answers())) {
      if (Date.now() > deadline) throw new StackError(`${s.name} did not answer on ${s.host}:${s.port} within ${START_TIMEOUT_MS / 1000} s; see ${join(config.dataDir, s.name, 'log')}`)
      await sleep(250)
    }
  }
  if (started.has('redis')) await createRedisUsers(config, say)
  say(`stack is up: kafka ${services[2]!.host}:${services[2]!.port}, clickhouse ${config.clickhouse.url}, redis ${config.redis.url}; data in ${config.dataDir}`)
}

/**
 * The service and alert-reader users (state/redis-acl.ts) on the Redis the stack started, with
 * passwords kept in <data>/redis/users.json (created once, mode 600). The local stack leaves the
 * default user open for development; docker-compose and deploy/ turn it off.
 */
async function createRedisUsers(config: Config, say: Say): Promise<void> {
  const file = join(config.dataDir, 'redis', 'users.json')
  let passwords: AclPasswords
  if (existsSync(file)) passwords = JSON.parse(readFileSync(file, 'utf8')) as AclPasswords
  else {
    passwords = generatePasswords()
    writeFileSync(file, JSON.stringify(passwords, null, 2), { mode: 0o600 })
  }
  await applyAclUsers(config.redis.url, config.redis.keyPrefix, passwords)
  say(`redis: users ${Object.keys(passwords).join(' and ')} created (passwords in ${file})`)
}

export async function stackDown(config: Config, say: Say): Promise<void> {
  for (const s of stackServices(config, say).reverse()) {
    const pidFile = join(config.dataDir, s.name, 'pid')
    const pid = readPid(pidFile)
    if (pid === undefined || !alive(pid)) {
      say(`${s.name}: not running under sluice`)
      rmSync(pidFile, { force: true })
      continue
    }
    process.kill(pid, 'SIGTERM')
    const deadline = Date.now() + 30_000
    while (alive(pid) && Date.now() < deadline) await sleep(100)
    if (alive(pid)) process.kill(pid, 'SIGKILL')
    rmSync(pidFile, { force: true })
    say(`${s.name}: stopped (pid ${pid})`)
  }
}

export async function stackStatus(config: Config): Promise<StackStatus[]> {
  return Promise.all(
    stackServices(config, () => undefined).map(async (s) => {
      const pid = readPid(join(config.dataDir, s.name, 'pid'))
      return { name: s.name, address: `${s.host}:${s.port}`, up: await s.answers(), ...(pid !== undefined && alive(pid) ? { pid } : {}) }
    }),
  )
}

// --- Redis ---------------------------------------------------------------------------------------

async function startRedis(dir: string, port: number, say: Say): Promise<void> {
  const bin = await ensureBinary('redis-server', ['redis-server'], say)
  mkdirSync(join(dir, 'log'), { recursive: true })
  say(`redis: starting on 127.0.0.1:${port} (AOF on)`)
  const res = spawnSync(
    bin,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory',
      REDIS_MAXMEMORY,
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'yes',
      '--pidfile',
      join(dir, 'pid'),
      '--logfile',
      join(dir, 'log', 'redis.log'),
    ],
    { encoding: 'utf8' },
  )
  if (res.status !== 0) throw new StackError(`redis-server failed to start: ${res.stderr || res.stdout}`)
}

function redisAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    let data = ''
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.on('error', () => done(false))
    socket.on('connect', () => socket.write('PING\r\n'))
    socket.on('data', (chunk) => {
      data += chunk.toString()
      if (data.includes('\r\n')) done(data.startsWith('+PONG'))
    })
  })
}

// --- ClickHouse ----------------------------------------------------------------------------------

async function startClickHouse(dir: string, httpPort: number, say: Say): Promise<void> {
  const bin = await ensureBinary('clickhouse-server', ['clickhouse-server', 'clickhouse-client'], say)
  for (const sub of ['log', 'data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, sub), { recursive: true })
  const config = readFileSync(join(DEPLOY, 'clickhouse', 'config.xml'), 'utf8')
    .replaceAll('@DATA@', dir)
    .replaceAll('@HTTP_PORT@', String(httpPort))
    .replaceAll('@TCP_PORT@', String(httpPort === 8123 ? 9000 : httpPort + 1))
  writeFileSync(join(dir, 'config.xml'), config)
  writeFileSync(join(dir, 'users.xml'), readFileSync(join(DEPLOY, 'clickhouse', 'users.xml')))
  say(`clickhouse: starting on 127.0.0.1:${httpPort}`)
  startDetached(bin, [`--config-file=${join(dir, 'config.xml')}`], dir)
}

async function clickhouseAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(new URL('/ping', url), { signal: AbortSignal.timeout(1000) })
    return res.ok && (await res.text()).startsWith('Ok')
  } catch {
    return false
  }
}

// --- Kafka ---------------------------------------------------------------------------------------

async function startKafka(dir: string, port: number, say: Say): Promise<void> {
  for (const tool of ['java', 'mvn']) {
    if (!which(tool)) throw new StackError(`${tool} is needed to run Kafka locally: install Java 17 and Maven (apt-get install -y openjdk-17-jre-headless maven)`)
  }
  const libs = join(homedir(), '.cache', 'sluice', `kafka-${KAFKA_VERSION}`, 'libs')
  if (!existsSync(join(libs, '.complete'))) {
    say(`kafka: fetching Apache Kafka ${KAFKA_VERSION} jars from Maven Central into ${libs}`)
    const res = spawnSync('mvn', ['-q', '-B', '-f', join(DEPLOY, 'kafka', 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${libs}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    if (res.status !== 0) throw new StackError(`mvn could not fetch the Kafka jars:\n${res.stdout}${res.stderr}`)
    writeFileSync(join(libs, '.complete'), KAFKA_VERSION)
  }
  mkdirSync(join(dir, 'log'), { recursive: true })
  const properties = readFileSync(join(DEPLOY, 'kafka', 'server.properties'), 'utf8')
    .replaceAll('@DATA@', dir)
    .replaceAll('@PORT@', String(port))
    .replaceAll('@CONTROLLER_PORT@', String(port + 1))
  writeFileSync(join(dir, 'server.properties'), properties)
  const java = ['-cp', `${libs}/*`, `-Dlog4j.configuration=file:${join(DEPLOY, 'kafka', 'log4j.properties')}`, `-Dkafka.logs.dir=${join(dir, 'log')}`]
  if (!existsSync(join(dir, 'data', 'meta.properties'))) {
    // A KRaft cluster id is 16 random bytes in URL-safe base64, as `kafka-storage random-uuid` prints.
    const clusterId = randomBytes(16).toString('base64url')
    const res = spawnSync('java', [...java, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', join(dir, 'server.properties')], { encoding: 'utf8' })
    if (res.status !== 0) throw new StackError(`kafka storage format failed:\n${res.stdout}${res.stderr}`)
  }
  say(`kafka: starting ${KAFKA_VERSION} (KRaft) on 127.0.0.1:${port}`)
  startDetached('java', ['-Xms256m', '-Xmx768m', ...java, 'kafka.Kafka', join(dir, 'server.properties')], dir)
}

async function kafkaAnswers(host: string, port: number): Promise<boolean> {
  const { Kafka, logLevel } = await import('kafkajs')
  const admin = new Kafka({ brokers: [`${host}:${port}`], logLevel: logLevel.NOTHING, connectionTimeout: 1000, requestTimeout: 2000, retry: { retries: 0 } }).admin()
  try {
    await admin.connect()
    await admin.describeCluster()
    return true
  } catch {
    return false
  } finally {
    await admin.disconnect().catch(() => undefined)
  }
}

// --- helpers -------------------------------------------------------------------------------------

function startDetached(cmd: string, args: string[], dir: string): void {
  const out = openSync(join(dir, 'log', 'stdout.log'), 'a')
  const child = spawn(cmd, args, { cwd: dir, detached: true, stdio: ['ignore', out, out] })
  if (child.pid === undefined) throw new StackError(`could not start ${cmd}`)
  writeFileSync(join(dir, 'pid'), String(child.pid))
  child.unref()
}

let aptUpdated = false

/** Finds a server binary, installing its Debian packages when missing and allowed to. */
async function ensureBinary(bin: string, packages: string[], say: Say): Promise<string> {
  const found = which(bin)
  if (found) return found
  const install = `apt-get install -y ${packages.join(' ')}`
  if (!which('apt-get')) throw new StackError(`${bin} is missing and there is no apt-get: install ${packages.join(', ')} yourself`)
  if (process.getuid?.() !== 0) throw new StackError(`${bin} is missing: run \`sudo apt-get update && sudo ${install}\``)
  say(`installing ${packages.join(', ')} (apt-get)`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-q'], { stdio: 'ignore', env })
    aptUpdated = true
  }
  const res = spawnSync('apt-get', ['install', '-y', '-q', ...packages], { encoding: 'utf8', env })
  if (res.status !== 0) throw new StackError(`${install} failed:\n${res.stderr}`)
  const installed = which(bin)
  if (!installed) throw new StackError(`${install} ran but ${bin} is still not found`)
  return installed
}

function which(bin: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(':').concat(['/usr/sbin', '/usr/bin', '/sbin'])) {
    if (dir && existsSync(join(dir, bin))) return join(dir, bin)
  }
  return undefined
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function hostPort(address: string): { host: string; port: number } {
  const i = address.lastIndexOf(':')
  return { host: address.slice(0, i), port: Number(address.slice(i + 1)) }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.startsWith('127.') || host === '::1' || host === '[::1]'
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}
