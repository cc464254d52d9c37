// The alert rules of deploy/prometheus are valid Prometheus rules, and fire at their thresholds and
// not before (promtool, from Debian's prometheus package, which npm test installs).
import { spawnSync } from 'node:child_process'
import { expect, it } from 'vitest'

const DIR = new URL('../../deploy/prometheus/', import.meta.url).pathname
const promtool = (...args: string[]) => spawnSync('promtool', args, { cwd: DIR, encoding: 'utf8' })

it('promtool check rules: every rule parses', () => {
  const run = promtool('check', 'rules', 'sluice-rules.yml')
  expect(run.status, run.stdout + run.stderr).toBe(0)
  expect(run.stdout).toMatch(/SUCCESS: \d+ rules found/)
})

it('promtool test rules: a stalled consumer, a refused statement and a filling spool alert when they should', () => {
  const run = promtool('test', 'rules', 'sluice-rules.test.yml')
  expect(run.status, run.stdout + run.stderr).toBe(0)
})
