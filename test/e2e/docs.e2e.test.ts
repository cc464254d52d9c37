// The docs, followed as a reader follows them: every fenced `sh` block of README.md, docs/ and
// bench/README.md runs in bash from the repository's root, page by page in order (one shell per page,
// so a variable set in one block serves the next), against a Sluice started as `npm start` starts it
// (the demo account in .sluice/demo.json, default settings, on :8080) on the test stack. A comment
// line `# → text` after a command is what it prints: each piece of the text between `…` must appear,
// in order. A `json` block marked `<!-- check: metric -->` or `<!-- check: mapping -->` is sent as a
// metric definition or an integration's mapping and must be taken; a `yaml` block marked
// `<!-- check: alertmanager -->` must pass `amtool check-config`. A block that cannot run says why on
// the line before it: `<!-- not run: <reason> -->`. SQL blocks run on both ClickHouse engines in
// test/integration/docs-sql.test.ts. Every other block fails this test until it is marked.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../support/harness.js'

const ROOT = new URL('../../', import.meta.url).pathname
const URL_ = 'http://127.0.0.1:8080'

function markdown(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? markdown(path) : name.endsWith('.md') ? [path] : []
    })
}

interface Block {
  readonly where: string
  readonly lang: string
  readonly body: string
  /** `not run: <reason>` or `check: <kind>`, from the comment on the line before the fence. */
  readonly directive?: string | undefined
}

function blocks(page: string): Block[] {
  const text = readFileSync(page, 'utf8')
  const name = relative(ROOT, page)
  return [...text.matchAll(/(?:<!-- ([^>]*?) -->\n)?```(\w*)\n([\s\S]*?)\n```/g)].map((m) => ({
    where: `${name}:${text.slice(0, m.index + (m[1] === undefined ? 0 : m[0].indexOf('```'))).split('\n').length}`,
    lang: m[2]!,
    body: m[3]!,
    directive: m[1],
  }))
}

const PAGES = [join(ROOT, 'README.md'), ...markdown(join(ROOT, 'docs')), join(ROOT, 'bench', 'README.md')].map((p) => ({
  name: relative(ROOT, p),
  blocks: blocks(p),
}))
const ALL = PAGES.flatMap((p) => p.blocks)

describe('every block of the docs is run, checked or says why not', () => {
  it.each(ALL.filter((b) => b.lang !== 'sql' && b.lang !== '').map((b) => [b.where, b]))('%s', (_where, block) => {
    const directive = block.directive ?? ''
    if (directive.startsWith('not run:'))
      expect(directive.slice('not run:'.length).trim().length, 'a reason').toBeGreaterThan(10)
    else if (block.lang === 'json') expect(directive).toMatch(/^check: (metric|mapping)$/)
    else if (block.lang === 'yaml') expect(directive).toBe('check: alertmanager')
    else expect(block.lang, 'a block to run is sh').toBe('sh')
  })
})

/** What each `# → ` line of a block expects, in order: the pieces of its text between `…`. */
function expectations(body: string): string[][] {
  return body
    .split('\n')
    .filter((l) => l.startsWith('# → '))
    .map((l) =>
      l
        .slice(4)
        .split('…')
        .map((piece) => piece.replace(/\s+/g, ' ').trim())
        .filter(Boolean),
    )
}

/**
 * The first piece the output lacks, if any: each line's pieces must all appear (in any order: a JSON
 * answer's fields may come in another order) after where the line before matched.
 */
function lacking(output: string, lines: readonly string[][]): string | undefined {
  const text = output.replace(/\s+/g, ' ')
  let at = 0
  for (const pieces of lines) {
    let end = at
    for (const piece of pieces) {
      const found = text.indexOf(piece, at)
      if (found < 0) return piece
      end = Math.max(end, found + piece.length)
    }
    at = end
  }
  return undefined
}

let service: ChildProcess | undefined
let log = ''
/** scripts/start.sh's steps before it serves: its secrets key and the demo account. */
const START_STEPS = readFileSync(join(ROOT, 'scripts', 'start.sh'), 'utf8')
  .split('\n')
  .filter((l) => /^(mkdir|\[ -s)/.test(l) || l.includes('bootstrap --json'))
  .join('\n')
let demo: { adminApiKey: string; workspaceId: string }
let scratch: string

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'sluice-docs-'))
  // As `npm start` does (scripts/start.sh): the demo account, then serve with the default settings.
  const boot = spawnSync('sh', ['-c', START_STEPS], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  expect(boot.status, boot.stderr).toBe(0)
  demo = JSON.parse(readFileSync(join(ROOT, '.sluice', 'demo.json'), 'utf8')) as typeof demo
  // The reader's own `npm start` may be serving there already: the docs then run against it, as the reader would.
  const running = await fetch(`${URL_}/healthz`).then(
    async (res) => ((await res.json()) as { status?: string }).status === 'ok',
    () => false,
  )
  if (running) return
  service = spawn(process.execPath, ['bin/sluice.js', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      SLUICE_LOG_LEVEL: 'warn',
      SLUICE_SECRETS_KEY: readFileSync(join(ROOT, '.sluice', 'secrets-key'), 'utf8'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  service.stdout?.on('data', (d: Buffer) => (log += d.toString()))
  service.stderr?.on('data', (d: Buffer) => (log += d.toString()))
  await waitFor(
    'the docs Sluice ready on :8080',
    async () => ((await fetch(`${URL_}/readyz`).catch(() => undefined))?.status === 200 ? true : undefined),
    120_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; its log: ${log.slice(-3000)}`)
  })
}, 180_000)

afterAll(async () => {
  if (service && service.exitCode === null) {
    service.kill('SIGTERM')
    await new Promise((r) => service!.once('exit', r))
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true })
})

/**
 * Runs a page's sh blocks in one bash, each after the other; answers each block's output and status. Asynchronously: a
 * page's commands take about a minute on a loaded machine, and a worker blocked that long (spawnSync) missed the
 * deadline of its reports to vitest (an unhandled "Timeout calling onTaskUpdate" that ended a CI run).
 */
async function runShell(
  runnable: readonly Block[],
): Promise<{ outputs: string[]; failed?: { block: Block; status: number } }> {
  const script = runnable.map((b, i) => `echo "::block ${i}"\n${b.body}\necho "::end ${i} $?"`).join('\n')
  const child = spawn('bash', ['-o', 'pipefail', '-e', '-c', script], {
    cwd: ROOT,
    env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env['PATH']}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000)
  const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  clearTimeout(timer)
  const run = { stdout, stderr, status }
  const all = `${run.stdout}${run.stderr ? `\n[stderr]\n${run.stderr}` : ''}`
  const outputs = runnable.map((_, i) => {
    const start = all.indexOf(`::block ${i}\n`)
    if (start < 0) return ''
    const end = all.indexOf(`::end ${i} `, start)
    return all.slice(start + `::block ${i}\n`.length, end < 0 ? undefined : end)
  })
  const last = runnable.findIndex((_, i) => !all.includes(`::end ${i} 0`))
  return last < 0 ? { outputs } : { outputs, failed: { block: runnable[last]!, status: run.status ?? -1 } }
}

describe.each(
  PAGES.filter((p) =>
    p.blocks.some((b) => !b.directive?.startsWith('not run:') && ['sh', 'json', 'yaml'].includes(b.lang)),
  ).map((p) => [p.name, p]),
)('%s', (_name, page) => {
  it('runs its commands and shows what they print', async () => {
    const runnable = page.blocks.filter((b) => b.lang === 'sh' && !b.directive?.startsWith('not run:'))
    if (runnable.length === 0) return
    const { outputs, failed } = await runShell(runnable)
    if (failed)
      expect.fail(
        `${failed.block.where} failed (exit ${failed.status}):\n${outputs[runnable.indexOf(failed.block)]}\n--- the service's log:\n${log.slice(-2000)}`,
      )
    runnable.forEach((block, i) => {
      const missing = lacking(outputs[i]!, expectations(block.body))
      expect(missing, `${block.where} should print "${missing}"; it printed:\n${outputs[i]}`).toBeUndefined()
    })
  }, 240_000)

  it('has its configuration examples taken', async () => {
    for (const block of page.blocks.filter((b) => b.directive?.startsWith('check:'))) {
      const kind = block.directive!.slice('check:'.length).trim()
      if (kind === 'alertmanager') {
        // Placeholders such as <webhook id> become a plain word: the check is of the configuration's shape.
        const file = join(scratch, 'alertmanager.yml')
        writeFileSync(file, block.body.replace(/<[^>]+>/g, 'x'))
        const check = spawnSync('amtool', ['check-config', file], { encoding: 'utf8' })
        expect(check.status, `${block.where}: ${check.stdout}${check.stderr}`).toBe(0)
        continue
      }
      const value = JSON.parse(block.body) as unknown
      const [path, body] =
        kind === 'metric'
          ? [`/api/v1/workspaces/${demo.workspaceId}/metrics`, { ...(value as object), name: `docs ${Date.now()}` }]
          : ['/api/v1/integrations', { name: `docs ${Date.now()}`, mapping: value }]
      const res = await fetch(`${URL_}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.adminApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(res.status, `${block.where}: ${await res.text()}`).toBe(201)
    }
  })
})
