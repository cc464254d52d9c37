// Shared by the benchmarks: run `sluice serve` as its own process and wait until it is ready; stop it.
import { spawn } from 'node:child_process'

export async function startServe(env, url, args = [], bin = 'bin/sluice.js') {
  const server = spawn(process.execPath, [bin, 'serve', ...args], { env, stdio: ['ignore', 'inherit', 'inherit'] })
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
    stop: async () => {
      server.removeAllListeners('exit')
      server.kill('SIGTERM')
      await new Promise((r) => server.once('exit', r))
    },
  }
}
