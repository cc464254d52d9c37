// npm run test:quick [-- <test files or names>]: what to run before every commit, in minutes. The unit tests, the
// type and lint checks, and the real-stack suites of what changed: the test files changed, and those whose names share
// a word with a changed source file's name (src/admin/datahub/tail.route.ts: test/e2e/tail.e2e.test.ts). Named files
// or words instead of the change: `npm run test:quick -- tail notify`. The full `npm test` stays what CI runs.
import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { basename, join } from 'node:path'

const run = (cmd, args) => {
  const started = Date.now()
  const { status } = spawnSync(cmd, args, { stdio: 'inherit' })
  console.log(
    `[test:quick] ${cmd} ${args.join(' ')}: ${status === 0 ? 'ok' : `failed (${status})`} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  )
  if (status !== 0) process.exit(status ?? 1)
}

/** Every real-stack test file (the integration project's). */
function realStackFiles() {
  const list = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? list(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
    )
  return [...list('test/integration'), ...list('test/e2e')]
}

/** The files changed since the branch left main, and not committed yet. */
function changedFiles() {
  const git = (...args) => {
    try {
      return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')
    } catch {
      return []
    }
  }
  const base = git('merge-base', 'HEAD', 'origin/main')[0] || 'HEAD'
  return [
    ...new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')]),
  ].filter(Boolean)
}

/** Words that say nothing about what a file holds. */
const FILLER = new Set(['and', 'the', 'for'])

/** The words of a file's name: tail.route.ts → tail; rules-and-windows.ts → rules, windows. */
const words = (file) =>
  basename(file)
    .replace(/\.(test|e2e|route|consumer|sink|schemas?|ts|tsx|mjs|lua)\b/g, '')
    .split(/[^a-z0-9]+/i)
    .filter((w) => w.length > 2 && !FILLER.has(w))

const named = process.argv.slice(2)
const suites = realStackFiles()
let chosen
if (named.length > 0) chosen = suites.filter((f) => named.some((n) => f === n || basename(f).includes(n)))
else {
  const changed = changedFiles()
  const changedWords = new Set(changed.filter((f) => /^(src|tools|console)\//.test(f)).flatMap(words))
  chosen = suites.filter((f) => changed.includes(f) || words(f).some((w) => changedWords.has(w)))
}

run('npm', ['run', '--silent', 'lint'])
run('npx', ['vitest', 'run', '--project', 'unit'])
if (chosen.length === 0)
  console.log('[test:quick] no real-stack suite matches the change (name files or words to run some)')
else {
  console.log(`[test:quick] real-stack suites: ${chosen.join(' ')}`)
  run('npx', ['vitest', 'run', '--project', 'integration', ...chosen])
}
