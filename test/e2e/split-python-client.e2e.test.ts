// Split's own Python client (splitapiclient 3.5.9, installed by scripts/test.sh into a venv) drives
// the Admin API: its paging loops, uploadKeys?replace=True, DELETE to deactivate, identities.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { createTestEnv, type TestEnv } from '../support/harness.js'

const PYTHON = fileURLToPath(new URL('../../.sluice/venv-splitapiclient/bin/python', import.meta.url))
const SCRIPT = fileURLToPath(new URL('../compat/split_python_client.py', import.meta.url))

let t: TestEnv
let svc: RunningService

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_ADMIN_RATE_PER_SECOND: '100000', SLUICE_ADMIN_BURST: '100000' })
  svc = await t.start(['admin'])
})

afterAll(async () => {
  await t?.close()
})

function runFlow(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

describe("Split's Python client", () => {
  it.each([
    ['Authorization: Bearer', '0'],
    ['Harness mode (x-api-key)', '1'],
  ])(
    'runs its whole segment and identity flow with %s',
    async (_mode, harness) => {
      expect(existsSync(PYTHON), `no ${PYTHON}: scripts/test.sh installs splitapiclient there (npm test)`).toBe(true)
      const demo = await t.bootstrap()
      const ws = await t.tenancy.createWorkspace(demo.accountId, `py-${harness}`)
      const env = await t.tenancy.createEnvironment(ws.id, 'Production', true)
      await t.tenancy.createTrafficType(ws.id, 'account')
      const { code, output } = await runFlow({
        SPLIT_BASE_URL: `${svc.url}/internal/api/v2`,
        SPLIT_API_KEY: demo.adminApiKey,
        SPLIT_HARNESS: harness,
        WS_ID: ws.id,
        ENV_ID: env.id,
        TT_NAME: 'account',
      })
      expect(output).toContain('flow complete')
      expect(code, output).toBe(0)
    },
    60_000,
  )
})
