// Each setting is documented once, where it is declared: the settings table of
// docs/operators/configuration.md is generated from it (npm run docs) and must not drift.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { loadConfig, settings, settingsTable } from '../../../src/config/index.js'

it('the settings table of the configuration page is the one the settings make (run npm run docs after changing a setting)', () => {
  const readme = readFileSync(new URL('../../../docs/operators/configuration.md', import.meta.url), 'utf8')
  const section = /<!-- settings:begin \(npm run docs\) -->\n([\s\S]*?)\n<!-- settings:end -->/.exec(readme)?.[1]
  expect(section).toBe(settingsTable())
})

it('every setting has its own variable and a line of documentation, and its default loads', () => {
  const all = settings()
  expect(new Set(all.map((s) => s.env)).size).toBe(all.length)
  for (const s of all) expect(s.doc.length, s.env).toBeGreaterThan(10)
  expect(() => loadConfig({})).not.toThrow()
})
