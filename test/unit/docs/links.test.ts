// Every link between the pages of the docs (README.md, docs/, bench/README.md) leads somewhere: the
// file exists, and a #fragment names a heading of it (as GitHub makes anchors of headings).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { expect, it } from 'vitest'

const ROOT = new URL('../../../', import.meta.url).pathname

function markdown(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? markdown(path) : name.endsWith('.md') ? [path] : []
  })
}

export const PAGES = [join(ROOT, 'README.md'), join(ROOT, 'bench', 'README.md'), ...markdown(join(ROOT, 'docs'))]

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  let fenced = false
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const m = fenced ? null : /^#{1,6} (.*)$/.exec(line)
    if (!m) continue
    const base = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n === 0 ? base : `${base}-${n}`)
  }
  return out
}

it('finds the pages', () => {
  expect(PAGES.length).toBeGreaterThanOrEqual(10)
})

it.each(PAGES.map((p) => [relative(ROOT, p), p]))(
  'every link of %s leads to a page and a heading that exist',
  (_name, page) => {
    const text = readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '')
    const broken: string[] = []
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!
      if (/^[a-z]+:/.test(target)) continue
      const [path, fragment] = target.split('#') as [string, string | undefined]
      const file = path === '' ? page : join(dirname(page), decodeURIComponent(path))
      if (!existsSync(file)) {
        broken.push(`${target}: no such file`)
        continue
      }
      if (fragment && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(fragment))
        broken.push(`${target}: no such heading`)
    }
    expect(broken).toEqual([])
  },
)
