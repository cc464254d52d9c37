// npm run docs: writes the settings table of docs/operators/configuration.md from the settings
// themselves (src/config), so each setting is documented where it is declared.
// test/unit/config/readme.test.ts checks they agree.
import { readFileSync, writeFileSync } from 'node:fs'
import { settingsTable } from '../dist/config/index.js'

const file = new URL('../docs/operators/configuration.md', import.meta.url)
const readme = readFileSync(file, 'utf8')
const begin = '<!-- settings:begin (npm run docs) -->'
const end = '<!-- settings:end -->'
const [before, rest] = readme.split(begin)
if (rest === undefined || !rest.includes(end))
  throw new Error(`docs/operators/configuration.md has no ${begin} ... ${end} section`)
writeFileSync(file, `${before}${begin}\n${settingsTable()}\n${end}${rest.slice(rest.indexOf(end) + end.length)}`)
