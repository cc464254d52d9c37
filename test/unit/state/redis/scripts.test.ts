// The arguments a script reads by name (`-- args:` layouts, scripts.ts) are the ones its caller
// declares, and the other way round: a field renamed or added on one side only fails here, not in
// Redis at the first message.
import { readdirSync, readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { ARGS_LAYOUTS, argsOf, scriptSource, SCRIPT_NAMES } from '../../../../src/state/redis/scripts.js'

const LUA = new URL('../../../../src/state/redis/lua/', import.meta.url)

it('every script with an argument layout reads exactly the fields declared for it', () => {
  const laidOut = readdirSync(LUA).filter((f) => /^-- args: /m.test(readFileSync(new URL(f, LUA), 'utf8')))
  expect(laidOut).toEqual(['alerts-write.lua'])
  for (const [script, { header, record }] of Object.entries(ARGS_LAYOUTS)) {
    const file = `${script.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.lua`
    const lua = readFileSync(new URL(file, LUA), 'utf8')
    const used = (table: string) =>
      new Set([...lua.matchAll(new RegExp(`\\b${table}\\.(\\w+)`, 'g'))].map((m) => m[1]!))
    expect([...used('H')].sort(), `${file}: header fields`).toEqual([...header].sort())
    expect([...used('R')].sort(), `${file}: record fields`).toEqual([...record].sort())
    // No argument is read by position any more: only through the layout.
    expect(lua.match(/ARGV\[(?!H\.|i \+ R\.)[^\]]*\]/g) ?? [], file).toEqual([])
  }
})

it('lays the arguments out in the declared order, and the script source gets their positions', () => {
  const header = Object.fromEntries(ARGS_LAYOUTS.alertsWrite.header.map((n, i) => [n, `h${i}`]))
  expect(argsOf('alertsWrite', 'header', header as never)).toEqual(
    ARGS_LAYOUTS.alertsWrite.header.map((_, i) => `h${i}`),
  )
  const source = scriptSource('alertsWrite')
  expect(source).toContain('local H = {offsetField = 1, maxLen = 2,')
  expect(source).toContain(
    `local R_FIRST, R_SIZE = ${ARGS_LAYOUTS.alertsWrite.header.length + 1}, ${ARGS_LAYOUTS.alertsWrite.record.length}`,
  )
  expect(source).not.toMatch(/^-- args:/m)
  for (const name of SCRIPT_NAMES) expect(() => scriptSource(name)).not.toThrow()
})
