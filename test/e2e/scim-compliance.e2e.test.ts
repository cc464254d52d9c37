// An independent SCIM compliance tester, scim2-cli's `test` (scim2-tester, pinned in
// .sluice/venv-scim2 by scripts/test.sh), run against a real instance with a JWT minted here: every
// check passes, for Users and Groups alike.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { createScimTestEnv, type IdentityProvider, type ScimTestEnv } from '../support/scim-idp.js'

const SCIM2 = '.sluice/venv-scim2/bin/scim2'
let env: ScimTestEnv
let svc: RunningService
let demo: DemoAccount
let idp: IdentityProvider

beforeAll(async () => {
  env = await createScimTestEnv()
  ;({ svc, demo, idp } = env)
}, 120_000)
afterAll(async () => env?.close())

it('passes every check of the scim2-tester compliance suite, with 0 failures', async () => {
  expect(existsSync(SCIM2), `${SCIM2}: scripts/test.sh installs it (npm test)`).toBe(true)
  const token = await idp.token({ lifetime: 600 })
  const base = `${svc.url}/gateway/ng/api/scim/account/${demo.accountId}`
  // The token goes through the environment, not the command line (other users can read that).
  const child = spawn(SCIM2, ['--url', base, 'test'], {
    env: { ...process.env, SCIM_CLI_HEADERS: `Authorization: Bearer ${token}` },
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (out += d.toString()))
  await new Promise((resolve) => child.on('close', resolve))
  const successes = out.match(/^SUCCESS /gm)?.length ?? 0
  const failures = out.split('\n').filter((line) => /^(ERROR|CRITICAL|FAILURE)\b/.test(line))
  console.log(`scim2-tester: ${successes} checks passed, ${failures.length} failed`)
  expect(failures, out).toEqual([])
  // Users and Groups: discovery, attributes, search, PATCH add/remove/replace on every attribute.
  expect(successes).toBeGreaterThanOrEqual(60)
  for (const check of [
    'search_with_attributes',
    'object_query_with_attributes',
    'check_remove_attribute',
    'service_provider_config_endpoint_methods',
  ])
    expect(out).toContain(`SUCCESS ${check}`)
}, 180_000)
