// The current-engine lane (vitest project `current-engine`): a current ClickHouse (26.x, through
// chDB) behind ClickHouse's HTTP interface (chdb-server.mjs, what it emulates is said there), for
// suites that run whole `sluice serve` processes, intake to results API. Runs after global-setup.ts,
// which found Kafka and Redis; the harness points CLICKHOUSE_URL here when TEST_CLICKHOUSE_CURRENT=1.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { stopOnSignal } from './stop-on-signal.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the current engine's HTTP front. */
    currentClickHouse: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-chdb-server-'))
  const front = spawn(process.execPath, [new URL('./chdb-server.mjs', import.meta.url).pathname, dir, '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    front.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening (\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    front.once('exit', (code) => reject(new Error(`chdb-server.mjs exited (${code}) before listening: ${out}`)))
  })
  console.log(`[current-engine] ClickHouse 26.x (chDB) on http://127.0.0.1:${port}`)
  project.provide('currentClickHouse', `http://127.0.0.1:${port}`)
  // Stopped with the stacks when the run is interrupted: it would outlive the run otherwise (a SIGTERM to vitest
  // alone left it running).
  const forget = stopOnSignal(() => (front.pid === undefined || front.exitCode !== null ? [] : [front.pid]))
  return async () => {
    forget()
    front.kill('SIGTERM')
    await new Promise((r) => front.once('exit', r))
    rmSync(dir, { recursive: true, force: true })
  }
}
