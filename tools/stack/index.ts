// `sluice stack up | down | status`: real Kafka (KRaft, jars from Maven Central), ClickHouse and Redis
// (Debian packages) on 127.0.0.1, all data under one folder. `up` installs what is missing, reuses a
// service that already answers, and returns once all three answer.
import { spawn, spawnSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Config } from '../../src/config/index.js'
import { applyAclUsers, generatePasswords, type AclPasswords } from '../../src/state/redis/acl.js'

export const KAFKA_VERSION = '3.9.1'
/** The checkout this runs from: the first folder up with deploy/local (from tools/stack/, or dist/tools/stack/). */
const PROJECT_ROOT = (() => {
  for (let dir = fileURLToPath(new URL('.', import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'deploy', 'local'))) return dir
    if (dirname(dir) === dir) throw new Error(`no deploy/local above ${fileURLToPath(import.meta.url)}`)
  }
})()
export const DEPLOY = join(PROJECT_ROOT, 'deploy', 'local')
export const START_TIMEOUT_MS = 180_000
/** How long a stopped service gets to exit after SIGTERM before SIGKILL. */
const STOP_TIMEOUT_MS = 30_000
/**
 * Memory of the local Redis: every admin setting and credential lives there, so it never evicts (writes fail instead).
 */
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

export type Say = (line: string) => void

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

/**
 * Starts what does not answer yet; the names of the services it started. `owner`: the process the stack is started for
 * (a test run), written beside its data: a stack whose owner is gone (a run that died) is stopped and started again,
 * not reused with whatever state the run left.
 */
export async function stackUp(config: Config, say: Say, owner?: number): Promise<string[]> {
  const services = stackServices(config, say)
  const ownerFile = join(config.dataDir, 'owner')
  const left = readPid(ownerFile)
  if (left !== undefined && left !== owner && !alive(left)) {
    say(`the stack was started by a run that is gone (pid ${left}): starting it again`)
    await stackDown(config, say)
  }
  const started = new Set<string>()
  for (const s of services) {
    if (await s.answers()) {
      say(`${s.name}: already answering on ${s.host}:${s.port}`)
      continue
    }
    if (!isLoopback(s.host))
      throw new StackError(
        `${s.name} at ${s.host}:${s.port} does not answer, and the local stack only starts services on 127.0.0.1`,
      )
    await s.start()
    started.add(s.name)
  }
  const deadline = Date.now() + START_TIMEOUT_MS
  for (const s of services) {
    while (!(await s.answers())) {
      if (Date.now() > deadline)
        throw new StackError(
          `${s.name} did not answer on ${s.host}:${s.port} within ${START_TIMEOUT_MS / 1000} s; see ${join(config.dataDir, s.name, 'log')}`,
        )
      await sleep(250)
    }
  }
  if (started.has('redis')) await createRedisUsers(config, say)
  if (owner !== undefined && started.size > 0) writeFileSync(ownerFile, String(owner))
  say(
    `stack is up: kafka ${services[2]!.host}:${services[2]!.port}, clickhouse ${config.clickhouse.url}, redis ${config.redis.url}; data in ${config.dataDir}`,
  )
  return [...started]
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

/** Stops the stack's services (`only`: those named), and forgets who started it. */
export async function stackDown(config: Config, say: Say, only?: readonly string[]): Promise<void> {
  for (const s of stackServices(config, say).reverse())
    if (!only || only.includes(s.name)) await stopProcess(s.name, join(config.dataDir, s.name, 'pid'), say)
  rmSync(join(config.dataDir, 'owner'), { force: true })
}

/**
 * The pids of the named services' processes, for a caller that must stop them at once (a signal handler: SIGTERM to
 * each, without waiting).
 */
export function stackPids(config: Config, only: readonly string[]): number[] {
  return only.flatMap((name) => {
    const pid = readPid(join(config.dataDir, name, 'pid'))
    return pid !== undefined && alive(pid) ? [pid] : []
  })
}

/** Stops the process of a pid file (SIGTERM, then SIGKILL after STOP_TIMEOUT_MS) and removes the file. */
export async function stopProcess(name: string, pidFile: string, say: Say): Promise<void> {
  const pid = readPid(pidFile)
  if (pid === undefined || !alive(pid)) {
    say(`${name}: not running under sluice`)
    rmSync(pidFile, { force: true })
    return
  }
  process.kill(pid, 'SIGTERM')
  const deadline = Date.now() + STOP_TIMEOUT_MS
  while (alive(pid) && Date.now() < deadline) await sleep(100)
  if (alive(pid)) process.kill(pid, 'SIGKILL')
  rmSync(pidFile, { force: true })
  say(`${name}: stopped (pid ${pid})`)
}

export async function stackStatus(config: Config): Promise<StackStatus[]> {
  return Promise.all(
    stackServices(config, () => undefined).map(async (s) => {
      const pid = readPid(join(config.dataDir, s.name, 'pid'))
      return {
        name: s.name,
        address: `${s.host}:${s.port}`,
        up: await s.answers(),
        ...(pid !== undefined && alive(pid) ? { pid } : {}),
      }
    }),
  )
}

// --- Redis ---------------------------------------------------------------------------------------

function startRedis(dir: string, port: number, say: Say): Promise<void> {
  return startRedisServer('redis', dir, port, ['--maxmemory', REDIS_MAXMEMORY], say)
}

/** A daemonized redis-server on 127.0.0.1 with AOF on and no eviction; pid file and log in `dir`. */
export async function startRedisServer(
  name: string,
  dir: string,
  port: number,
  args: readonly string[],
  say: Say,
): Promise<void> {
  const bin = await ensureBinary('redis-server', ['redis-server'], say)
  mkdirSync(join(dir, 'log'), { recursive: true })
  say(`${name}: starting on 127.0.0.1:${port} (AOF on)`)
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
      ...args,
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

export async function redisAnswers(host: string, port: number): Promise<boolean> {
  return (await askTcp(host, port, 'PING\r\n', (data) => data.includes('\r\n')))?.startsWith('+PONG') ?? false
}

// --- ClickHouse ----------------------------------------------------------------------------------

function startClickHouse(dir: string, httpPort: number, say: Say): Promise<void> {
  const config = renderTemplate(join(DEPLOY, 'clickhouse', 'config.xml'), {
    DATA: dir,
    HTTP_PORT: httpPort,
    TCP_PORT: httpPort === 8123 ? 9000 : httpPort + 1,
  })
  return startClickHouseServer('clickhouse', dir, httpPort, config, say)
}

/**
 * clickhouse-server with the given config.xml (and the local users.xml) written into `dir`, its paths all under `dir`.
 */
export async function startClickHouseServer(
  name: string,
  dir: string,
  httpPort: number,
  configXml: string,
  say: Say,
): Promise<void> {
  const bin = await ensureBinary('clickhouse-server', ['clickhouse-server', 'clickhouse-client'], say)
  for (const sub of ['log', 'data', 'tmp', 'user_files', 'format_schemas'])
    mkdirSync(join(dir, sub), { recursive: true })
  writeFileSync(join(dir, 'config.xml'), configXml)
  writeFileSync(join(dir, 'users.xml'), readFileSync(join(DEPLOY, 'clickhouse', 'users.xml')))
  say(`${name}: starting on 127.0.0.1:${httpPort}`)
  startDetached(bin, [`--config-file=${join(dir, 'config.xml')}`], dir)
}

export async function clickhouseAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(new URL('/ping', url), { signal: AbortSignal.timeout(1000) })
    return res.ok && (await res.text()).startsWith('Ok')
  } catch {
    return false
  }
}

// --- Kafka ---------------------------------------------------------------------------------------

async function startKafka(dir: string, port: number, say: Say): Promise<void> {
  const libs = ensureKafkaLibs(say)
  mkdirSync(join(dir, 'log'), { recursive: true })
  const properties = renderTemplate(join(DEPLOY, 'kafka', 'server.properties'), {
    DATA: dir,
    PORT: port,
    CONTROLLER_PORT: port + 1,
  })
  writeFileSync(join(dir, 'server.properties'), properties)
  const java = kafkaJava(libs, dir)
  if (!kafkaFormatted(dir)) formatKafkaStorage(java, dir, newKafkaClusterId())
  say(`kafka: starting ${KAFKA_VERSION} (KRaft) on 127.0.0.1:${port}`)
  startDetached('java', ['-Xms256m', '-Xmx768m', ...java, 'kafka.Kafka', join(dir, 'server.properties')], dir)
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** The Kafka jars (fetched once from Maven Central into ~/.cache/sluice); returns their folder. */
export function ensureKafkaLibs(say: Say): string {
  for (const tool of ['java', 'mvn']) {
    if (!which(tool))
      throw new StackError(
        `${tool} is needed to run Kafka locally: install Java 17 and Maven (apt-get install -y openjdk-17-jre-headless maven)`,
      )
  }
  const libs = join(homedir(), '.cache', 'sluice', `kafka-${KAFKA_VERSION}`, 'libs')
  // The marker holds the POM's hash: a changed POM (another jar added) fetches again.
  const pom = readFileSync(join(DEPLOY, 'kafka', 'pom.xml'))
  const fetched = createHash('sha256').update(pom).digest('hex')
  if (readText(join(libs, '.complete')) !== fetched) {
    say(`kafka: fetching Apache Kafka ${KAFKA_VERSION} jars from Maven Central into ${libs}`)
    const res = spawnSync(
      'mvn',
      ['-q', '-B', '-f', join(DEPLOY, 'kafka', 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${libs}`],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    if (res.status !== 0) throw new StackError(`mvn could not fetch the Kafka jars:\n${res.stdout}${res.stderr}`)
    writeFileSync(join(libs, '.complete'), fetched)
  }
  return libs
}

/** JVM arguments of every Kafka tool and server of a node whose files are in `dir` (logs in <dir>/log). */
export function kafkaJava(libs: string, dir: string): string[] {
  return [
    '-cp',
    `${libs}/*`,
    `-Dlog4j.configuration=file:${join(DEPLOY, 'kafka', 'log4j.properties')}`,
    `-Dkafka.logs.dir=${join(dir, 'log')}`,
  ]
}

/**
 * A KRaft cluster id: 16 random bytes in URL-safe base64, as `kafka-storage random-uuid` prints. Like Kafka's
 * Uuid.randomUuid it never starts with '-': the storage tool's argument parser would read such an id as an option
 * ("--cluster-id: expected one argument"), which failed one CI run in 64.
 */
export function newKafkaClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url')
    if (!id.startsWith('-')) return id
  }
}

export function kafkaFormatted(dir: string): boolean {
  return existsSync(kafkaMetaProperties(dir))
}

/** The cluster id the storage of a node was formatted with, if it was. */
export function formattedKafkaClusterId(dir: string): string | undefined {
  if (!kafkaFormatted(dir)) return undefined
  return /^cluster\.id=(.+)$/m.exec(readFileSync(kafkaMetaProperties(dir), 'utf8'))?.[1]?.trim()
}

/** Written by the storage format into log.dirs (<dir>/data in the local configs). */
function kafkaMetaProperties(dir: string): string {
  return join(dir, 'data', 'meta.properties')
}

/**
 * Formats the storage of <dir>/server.properties (log.dirs under <dir>/data) for `clusterId`, with the voters it lists.
 */
export function formatKafkaStorage(java: readonly string[], dir: string, clusterId: string): void {
  const res = spawnSync(
    'java',
    [...java, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', join(dir, 'server.properties')],
    { encoding: 'utf8' },
  )
  if (res.status !== 0) throw new StackError(`kafka storage format failed:\n${res.stdout}${res.stderr}`)
}

async function kafkaAnswers(host: string, port: number): Promise<boolean> {
  return (await kafkaBrokerCount([`${host}:${port}`])) !== undefined
}

/** How many brokers the cluster reached through `brokers` reports (describeCluster), or undefined when none answers. */
export async function kafkaBrokerCount(brokers: string[]): Promise<number | undefined> {
  const { Kafka, logLevel } = await import('kafkajs')
  const admin = new Kafka({
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 2000,
    retry: { retries: 0 },
  }).admin()
  try {
    await admin.connect()
    return (await admin.describeCluster()).brokers.length
  } catch {
    return undefined
  } finally {
    await admin.disconnect().catch(() => undefined)
  }
}

// --- helpers -------------------------------------------------------------------------------------

/** Starts `cmd` in its own process group, output to <dir>/log/stdout.log, pid in <dir>/pid. */
export function startDetached(cmd: string, args: string[], dir: string): void {
  const out = openSync(join(dir, 'log', 'stdout.log'), 'a')
  const child = spawn(cmd, args, { cwd: dir, detached: true, stdio: ['ignore', out, out] })
  if (child.pid === undefined) throw new StackError(`could not start ${cmd}`)
  writeFileSync(join(dir, 'pid'), String(child.pid))
  child.unref()
}

let aptUpdated = false

/**
 * Finds a server binary (a name on PATH, or an absolute path such as a jar), installing its Debian
 * packages when missing and allowed to.
 */
export async function ensureBinary(bin: string, packages: string[], say: Say): Promise<string> {
  const found = locate(bin)
  if (found) return found
  const install = `apt-get install -y ${packages.join(' ')}`
  if (!which('apt-get'))
    throw new StackError(`${bin} is missing and there is no apt-get: install ${packages.join(', ')} yourself`)
  if (process.getuid?.() !== 0)
    throw new StackError(`${bin} is missing: run \`sudo apt-get update && sudo ${install}\``)
  say(`installing ${packages.join(', ')} (apt-get)`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-q'], { stdio: 'ignore', env })
    aptUpdated = true
  }
  const res = spawnSync('apt-get', ['install', '-y', '-q', ...packages], { encoding: 'utf8', env })
  if (res.status !== 0) throw new StackError(`${install} failed:\n${res.stderr}`)
  const installed = locate(bin)
  if (!installed) throw new StackError(`${install} ran but ${bin} is still not found`)
  return installed
}

function locate(bin: string): string | undefined {
  if (!bin.startsWith('/')) return which(bin)
  return existsSync(bin) ? bin : undefined
}

export function which(bin: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(':').concat(['/usr/sbin', '/usr/bin', '/sbin'])) {
    if (dir && existsSync(join(dir, bin))) return join(dir, bin)
  }
  return undefined
}

export function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  return !zombie(pid)
}

/**
 * NOTE: a process that exited (or was killed) stays a zombie until its parent reaps it. The stack's
 * processes outlive the command that started them, and their new parent (PID 1) may take minutes.
 */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat[stat.lastIndexOf(')') + 2] === 'Z'
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

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

/** A template of deploy/local with every @KEY@ replaced by its value. */
export function renderTemplate(file: string, values: Readonly<Record<string, string | number>>): string {
  let text = readFileSync(file, 'utf8')
  for (const [key, value] of Object.entries(values)) text = text.replaceAll(`@${key}@`, String(value))
  return text
}

/**
 * Sends `request` over TCP and resolves with what came back once `complete` says it is all there or
 * the peer closes; undefined when nothing came back within `timeoutMs`.
 */
export function askTcp(
  host: string,
  port: number,
  request: string,
  complete: (data: string) => boolean,
  timeoutMs = 1000,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    let data = ''
    const done = (answer: string | undefined) => {
      socket.destroy()
      resolve(answer)
    }
    socket.setTimeout(timeoutMs, () => done(undefined))
    socket.on('error', () => done(undefined))
    socket.on('connect', () => socket.write(request))
    socket.on('data', (chunk) => {
      data += chunk.toString()
      if (complete(data)) done(data)
    })
    socket.on('end', () => done(data || undefined))
  })
}
