// Writes test/support/durations.json (the order in which files start, test/support/sequencer.ts) from the log of a
// full `npm test`: each file's time, by project. Run it after a suite's times changed much:
//   npm test 2>&1 | tee /tmp/test.log; node scripts/test-durations.mjs /tmp/test.log
import { readFileSync, writeFileSync } from 'node:fs'

const log = readFileSync(process.argv[2] ?? '/dev/stdin', 'utf8').replace(/\x1b\[[0-9;]*m/g, '')
const times = {}
for (const m of log.matchAll(/^ [✓❯×] \|([\w-]+)\| (\S+) \(\d+ tests?[^)]*\) (\d+)ms/gm))
  times[`${m[1]}:${m[2]}`] = Math.round(Number(m[3]) / 100) / 10
const sorted = Object.fromEntries(Object.entries(times).sort(([, a], [, b]) => b - a))
if (Object.keys(sorted).length === 0) throw new Error('no file times in that log (the default reporter prints them)')
writeFileSync(new URL('../test/support/durations.json', import.meta.url), `${JSON.stringify(sorted, null, 2)}\n`)
console.log(`test/support/durations.json: ${Object.keys(sorted).length} files`)
