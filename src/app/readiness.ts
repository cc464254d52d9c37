// /readyz: each service the process's roles need answers within the timeout, or its error is
// reported; each consumer of the process is progressing, or says where it is stuck; an edge's spool
// has room. An edge that spools still takes data: Kafka being away makes it degraded, not unready,
// until the spool is full.
import type { ConsumerHealth } from '../broker/ports.js'
import type { Readiness } from '../http/server.js'
import { ALL_SERVICES, type Container, type Service } from './container.js'

/**
 * more: the checks of the process's consumer thread (its services and consumers, see
 * threadChecks), asked while this thread probes its own; a check failing in either thread fails the
 * process's.
 */
export async function checkReadiness(
  c: Container,
  consumers: Readonly<Record<string, ConsumerHealth>> = {},
  more: Promise<Readonly<Record<string, string>>> | Readonly<Record<string, string>> = {},
  timeoutMs = 2000,
): Promise<Readiness> {
  const [checks, theirs] = await Promise.all([threadChecks(c, consumers, timeoutMs), more])
  for (const [name, v] of Object.entries(theirs))
    if (checks[name] === undefined || checks[name] === 'ok') checks[name] = v
  const intake = c.madeIntake?.state()
  const spoolTakes = intake !== undefined && c.intake.hasRoom()
  if (intake) {
    const held = `${intake.spool.messages} messages, ${intake.spool.bytes} of ${intake.spool.maxBytes} bytes`
    checks['spool'] = !intake.spooling ? 'ok' : spoolTakes ? `spooling: ${held}` : `full: ${held}`
  }
  // Degraded, not unready: Kafka away while the spool takes data; a consumer thread too busy to answer.
  const excused = (name: string, v: string) =>
    (spoolTakes && (name === 'kafka' || name === 'spool')) || (name === 'consumer-thread' && v.startsWith('busy'))
  const failing = Object.entries(checks).filter(([name, v]) => v !== 'ok' && !excused(name, v))
  return { ready: failing.length === 0, degraded: Object.values(checks).some((v) => v !== 'ok'), checks }
}

/**
 * The checks of one thread: each service its container needs ('ok' or its error) and each consumer ('ok' or where it is
 * stuck).
 */
export async function threadChecks(
  c: Container,
  consumers: Readonly<Record<string, ConsumerHealth>>,
  timeoutMs = 2000,
): Promise<Record<string, string>> {
  const within = async (p: () => Promise<unknown>): Promise<string> => {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    })
    try {
      await Promise.race([p(), timeout])
      return 'ok'
    } catch (err) {
      return err instanceof Error ? err.message : String(err)
    } finally {
      clearTimeout(timer)
    }
  }
  const probes: Record<Service, () => Promise<unknown>> = {
    kafka: () => c.broker.ping(),
    clickhouse: () =>
      c.clickhouse.ping().then((r) => {
        if (!r.success) throw r.error
      }),
    redis: () => c.redis.ping(),
  }
  const needed = ALL_SERVICES.filter((s) => c.needs.has(s))
  const results = await Promise.all(needed.map((s) => within(probes[s])))
  const checks: Record<string, string> = Object.fromEntries(needed.map((s, i) => [s, results[i]!]))
  for (const [name, health] of Object.entries(consumers))
    checks[`${name}-consumer`] = health.stalled ? `stalled: ${health.detail}` : 'ok'
  return checks
}
