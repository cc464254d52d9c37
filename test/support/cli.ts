// Runs the compiled `sluice` command as a separate process, the way users and CI run it.
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { waitFor } from './harness.js'

export const SLUICE_BIN = fileURLToPath(new URL('../../bin/sluice.js', import.meta.url))

export function spawnSluice(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [SLUICE_BIN, ...args], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

export function runSluice(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnSluice(args, env)
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
}

/** A `sluice serve` of its own: the process, its URL, and the last of what it wrote. */
export interface Served {
  readonly child: ChildProcess
  readonly url: string
  log(): string
}

/**
 * `sluice serve --roles <roles>` as a process of its own (a test that looks for an exit needs one), once it answers
 * /readyz; its port is the system's choice unless env says SLUICE_PORT. It logs at info at least (its URL is read from
 * its log).
 */
export async function serveProcess(roles: string, env: Record<string, string>): Promise<Served> {
  const child = spawnSluice(['serve', '--roles', roles], {
    ...env,
    SLUICE_LOG_LEVEL: env['SLUICE_LOG_LEVEL'] === 'debug' ? 'debug' : 'info',
  })
  let log = ''
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-200_000))
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const url = await waitFor(
    `sluice serve --roles ${roles}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${log.slice(-2000)}`)
      return /"url":"(http:[^"]+)","roles"/.exec(log)?.[1]
    },
    60_000,
  )
  await waitFor('/readyz', async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : undefined), 60_000)
  return { child, url, log: () => log }
}
