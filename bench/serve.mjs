// Shared by the benchmarks: run `sluice serve` as its own process and wait until it is ready; stop it;
// delete the Redis keys a run left under its prefix.
// With SLUICE_BENCH_PROFILE_DIR set, the process writes a V8 CPU profile there when it stops.
import { spawn } from 'node:child_process'

/**
 * The processes started and not yet stopped. A benchmark ended by a signal (Ctrl-C, `timeout`) does not emit 'exit':
 * its processes are killed here too, or they would outlive it, holding their ports (a later run's process on the same
 * port then fails to start).
 */
const running = new Set()
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    for (const child of running) child.kill('SIGKILL')
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15))
  })

export async function startServe(env, url, args = [], bin = 'bin/sluice.js') {
  const profile = env.SLUICE_BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${env.SLUICE_BENCH_PROFILE_DIR}`] : []
  const server = spawn(process.execPath, [...profile, bin, 'serve', ...args], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  running.add(server)
  server.once('exit', () => running.delete(server))
  process.once('exit', () => server.kill('SIGKILL'))
  server.once('exit', (code) => {
    console.error(`sluice serve exited (${code}) before the benchmark ended`)
    process.exit(1)
  })
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    pid: server.pid,
    stop: async () => {
      server.removeAllListeners('exit')
      server.kill('SIGTERM')
      await new Promise((r) => server.once('exit', r))
      running.delete(server)
    },
  }
}

/** Resident set size of a process in MiB (Linux). */
export async function rssMiB(pid) {
  const { readFile } = await import('node:fs/promises')
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024
}

/** Deletes every Redis key under the prefix, a scan page at a time. */
export async function deleteKeys(redis, prefix) {
  for (let cursor = '0'; ;) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
    if (keys.length) await redis.del(...keys)
    if (next === '0') return
    cursor = next
  }
}
