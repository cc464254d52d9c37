#!/usr/bin/env node
// Self time by function and by package of V8 CPU profiles (`node --cpu-prof`, or `npm run bench --
// --profile`): what bounds a process, as text. Flame graphs: open the .cpuprofile in Chrome
// DevTools (Performance) or https://www.speedscope.app.
//   node bench/profile-summary.mjs <file.cpuprofile> [--top 25]
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
})
for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map()
  const dt = profile.timeDeltas
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)))
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const fns = new Map()
  const pkgs = new Map()
  for (const [id, us] of self) {
    const { callFrame: f } = byId.get(id)
    const where = f.url
      .replace(/^file:\/\//, '')
      .replace(/.*\/node_modules\//, 'node_modules/')
      .replace(/.*\/dist\//, 'dist/')
    const fn = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`
    fns.set(fn, (fns.get(fn) ?? 0) + us)
    const pkg = !f.url
      ? `(${f.functionName || 'native'})`
      : where.startsWith('node_modules/')
        ? where
            .split('/')
            .slice(0, where.split('/')[1].startsWith('@') ? 3 : 2)
            .join('/')
        : where.startsWith('dist/')
          ? `sluice ${where.split('/').slice(0, 2).join('/')}`
          : 'node internals'
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us)
  }
  const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`)
  console.log('\nself time by package:')
  for (const [k, us] of top(pkgs)) console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
  console.log('\nself time by function:')
  for (const [k, us] of top(fns)) console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
}
